"""Crossword-game search throughput (pytest-benchmark): self-play by equity, Monte-Carlo simulation and exact
endgames, each beside the same work driven from Python through the public API, measured in the same run. Run:

    python -m pytest benchmarks/test_scrabble_search_bench.py --benchmark-enable

Self-play: equity against equity (the shipped TWL06 leave table), game pairs, 1 and 2 threads; baseline: the same
games with ``Position.best_move`` as both players (``play_games`` with Python callables: the same moves).
Simulation: the tour's blank-rack midgame position and a MAGPIE-style midgame, 15 candidates, 2 plies;
baseline: playouts driven from Python (``_reference_search.python_playouts``). Endgames: small self-played ones
solved exactly beside the plain minimax over every play (``_reference_search.reference_endgame``), and one of
MAGPIE's test endgames at 6 plies. Side by side with MAGPIE: ``scrabble_autoplay_magpie.py`` and
``scrabble_search_magpie.py``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from numba_words import _timing
from numba_words.scrabble import Position
from numba_words.scrabble._reference_search import python_playouts, reference_endgame
from numba_words.scrabble.autoplay import play_games
from numba_words.scrabble.cli import TOUR_CGP, TOUR_ENDGAME_CGP
from numba_words.scrabble.endgame import solve_endgame
from numba_words.scrabble.search import warmup

pytestmark = pytest.mark.bench

MAGPIE_ENDGAMES = Path(__file__).resolve().parent / "data" / "magpie_endgame_tests.cgp"
MIDGAME = "A14/B14/O14/I14/DEAVE2WOOF4/EFS1TALA1HET3/a4MINX6/U2CLADE7/15/15/15/15/15/15/15 ADDERTU/ 173/113 0"
SMALL_ENDGAMES = (  # self-played (TWL06), bag empty: 3 against 1, 3 against 2, 2 against 2 tiles
    TOUR_ENDGAME_CGP,
    "12WAX/8V2ZORI/4VAW1A1BEG2/5PA1T1ED3/4TOG1FAGS3/ATONED2uH5/4L3LIB4/4APHIS1REOIL/3REI4O4/3E1Q4N2C1/3U1U4C2U1/"
    "3N1E4OY1MY/2AIRT4SO2O/1DATES5DJIN/MELEE1KNIFEs2I NRT/RU 0/0 0",
    "2ENVIRO2GHAZI/1EM4REJOIN2/1XU7aPACE/QI1W11/AL1I6E4/TEAPOTS1WELT1V1/1D1I2OOH1U2I1/3N3RATTY1AB/3G2REM1I1K1I/"
    "9CORNUA/10N1ENS/11FED1/10BODE1/9FOY1A1/4ALLuRES2D1 SU/GT 0/0 0",
)


@pytest.fixture(scope="module")
def ready(twl):
    warmup(twl, parts=("equity", "games", "sim", "endgame"))
    return twl


def _by_equity(pos):
    return pos.best_move("equity")


@pytest.mark.parametrize("threads", [1, 2])
def test_selfplay_by_equity(benchmark, ready, threads):
    n = 256
    r = benchmark.pedantic(lambda: play_games(n, ("equity", "equity"), lexicon=ready, seed=1, threads=threads),
                           rounds=3, iterations=1, warmup_rounds=1)
    t = benchmark.stats.stats.min
    benchmark.extra_info.update({"games": n, "threads": threads, "games_per_s": round(n / t),
                                 "turns_per_game": round(r.stats()["turns_per_game"], 1)})


def test_selfplay_python_driven_baseline(benchmark, ready):
    kernel = play_games(2, ("equity", "equity"), lexicon=ready, seed=1, threads=1)
    kernel_rate = _timing.rate(lambda: play_games(64, ("equity", "equity"), lexicon=ready, seed=1, threads=1),
                               min_time=0.3) * 64
    r = benchmark.pedantic(lambda: play_games(2, (_by_equity, _by_equity), lexicon=ready, seed=1), rounds=2,
                           iterations=1)
    assert (r.out == kernel.out).all()  # the same games
    rate = 2 / benchmark.stats.stats.min
    benchmark.extra_info.update({"python_games_per_s": round(rate, 1), "kernel_games_per_s": round(kernel_rate),
                                 "kernel_speedup": round(kernel_rate / rate)})


@pytest.mark.parametrize("cgp", [TOUR_CGP, MIDGAME], ids=["blank-rack", "midgame"])
@pytest.mark.parametrize("threads", [1, 2])
def test_simulation(benchmark, ready, cgp, threads):
    pos = Position.from_cgp(cgp, lexicon=ready)
    res = benchmark.pedantic(lambda: pos.simulate(candidates=15, plies=2, iterations=200, seed=0, threads=threads),
                             rounds=3, iterations=1, warmup_rounds=1)
    t = benchmark.stats.stats.min
    benchmark.extra_info.update({"rack": pos.rack, "threads": threads, "playouts": res.playouts,
                                 "playouts_per_s": round(res.playouts / t)})


def test_simulation_python_driven_baseline(benchmark, ready):
    pos = Position.from_cgp(TOUR_CGP, lexicon=ready)
    plays = pos.legal_plays().top(5, "equity")
    res = pos.simulate(candidates=15, plies=2, iterations=200, seed=0, threads=1)
    calls_per_s = _timing.rate(lambda: pos.simulate(candidates=15, plies=2, iterations=200, seed=0, threads=1),
                               min_time=0.3)
    kernel_rate = res.playouts * calls_per_s
    benchmark.pedantic(lambda: python_playouts(pos, plays, 4, plies=2, seed=0), rounds=2, iterations=1)
    rate = 4 * len(plays) / benchmark.stats.stats.min
    benchmark.extra_info.update({"python_playouts_per_s": round(rate), "kernel_playouts_per_s": round(kernel_rate),
                                 "kernel_speedup": round(kernel_rate / rate)})


@pytest.mark.parametrize("k", range(len(SMALL_ENDGAMES)))
def test_small_endgame_beside_plain_minimax(benchmark, ready, k):
    pos = Position.from_cgp(SMALL_ENDGAMES[k], lexicon=ready)
    res = benchmark.pedantic(lambda: solve_endgame(pos, tt_mb=1), rounds=5, iterations=1, warmup_rounds=1)
    t = benchmark.stats.stats.min
    (value, nodes), ref_s = _timing.timed(lambda: reference_endgame(pos))
    assert value == res.value and res.exact
    benchmark.extra_info.update({"racks": f"{pos.rack}/{pos.opp_rack}", "value": res.value, "nodes": res.nodes,
                                 "ms": round(t * 1e3, 2), "minimax_positions": nodes,
                                 "minimax_s": round(ref_s, 3), "kernel_speedup": round(ref_s / t)})


def test_magpie_endgame_vs_joey_6_plies(benchmark, ready):
    line = next(x for x in MAGPIE_ENDGAMES.read_text().splitlines() if "vs_joey" in x)
    pos = Position.from_cgp(line.partition("#")[0].strip(), lexicon=ready)
    res = benchmark.pedantic(lambda: solve_endgame(pos, plies=6), rounds=2, iterations=1, warmup_rounds=1)
    t = benchmark.stats.stats.min
    benchmark.extra_info.update({"racks": f"{pos.rack}/{pos.opp_rack}", "value": res.value, "nodes": res.nodes,
                                 "s": round(t, 3), "nodes_per_s": round(res.nodes / t)})
