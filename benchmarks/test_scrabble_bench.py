"""Crossword-game generator throughput (pytest-benchmark). Run:

    python -m pytest benchmarks/test_scrabble_bench.py --benchmark-enable

Fixed set (numba_words/data/scrabble_midgame_twl06.cgp): 40 self-play midgame TWL06 positions (8 top-score games, the
position on turn after moves 6, 8, 10, 12, 14; the mover's real rack). Full generation (every placement,
scored, written out) one call a position and through the batch path (lanes of threads) at 1 and 2 threads; the
pruned best-only kernel; and the plain-Python reference generator (numba_words/scrabble/_reference.py) against the
kernel on the same positions with racks cut to 3 tiles, in the same run.

Representative set (data/scrabble/twl06_bench.cgp: midgame racks with no blank, one and two blanks, empty board,
near endgame): legal_plays(), best_play() and best(by="equity") through the public API, per rack class. Side by
side with MAGPIE in one run: benchmarks/scrabble_vs_magpie.py.
"""
from __future__ import annotations

import pytest

from pathlib import Path

from numba_words import _timing
from numba_words.scrabble import Position, warmup
from numba_words.scrabble.bench import Batch, benchmark_positions, reference_rate

REPRESENTATIVE = Path(__file__).resolve().parent.parent / "data" / "scrabble" / "twl06_bench.cgp"

pytestmark = pytest.mark.bench


@pytest.fixture(scope="module")
def positions(twl):
    warmup()
    return benchmark_positions(twl)


@pytest.fixture(scope="module")
def batch(positions):
    b = Batch(positions)
    b.run_serial()
    return b


def _info(benchmark, b, plays, **kw):
    t = benchmark.stats.stats.min
    benchmark.extra_info.update({"positions": b.P, "plays": plays, "us_per_position": round(t / b.P * 1e6, 1),
                                 "positions_per_s": round(b.P / t), "M_plays_per_s": round(plays / t / 1e6, 3),
                                 **kw})


def test_full_generation_one_call_per_position(benchmark, batch):
    plays = benchmark.pedantic(batch.run_serial, rounds=10, iterations=1, warmup_rounds=1)
    _info(benchmark, batch, plays, threads=1)


@pytest.mark.parametrize("threads", [1, 2])
def test_full_generation_batch(benchmark, batch, threads):
    plays = benchmark.pedantic(batch.run_batch, args=(threads,), rounds=10, iterations=1, warmup_rounds=1)
    _info(benchmark, batch, plays, threads=threads)


def test_best_only_pruned(benchmark, batch):
    benchmark.pedantic(batch.run_best, rounds=10, iterations=1, warmup_rounds=1)
    t = benchmark.stats.stats.min
    benchmark.extra_info.update({"positions": batch.P, "us_per_position": round(t / batch.P * 1e6, 1)})


def test_plain_python_reference_baseline(benchmark, positions):
    small = []
    for p in positions[:2]:
        q = p.copy()
        q.rack = q.rack[:3]
        small.append(q)
    kb = Batch(small, cap=256)
    kernel_s = 1.0 / _timing.rate(kb.run_serial, min_time=0.2, min_calls=200)
    res = benchmark.pedantic(reference_rate, args=(small,), rounds=1, iterations=1)
    benchmark.extra_info.update({"positions": len(small), "rack_tiles": 3, "reference_ms_per_position":
                                 round(res["reference_s"] / len(small) * 1e3, 1),
                                 "kernel_us_per_position": round(kernel_s / len(small) * 1e6, 1),
                                 "kernel_speedup": round(res["reference_s"] / kernel_s)})


@pytest.fixture(scope="module")
def representative(twl):
    warmup(twl)
    lines = [x for x in REPRESENTATIVE.read_text().splitlines() if x.strip()]
    return [Position.from_cgp(x, lexicon=twl) for x in lines]


def _of_class(positions, blanks):
    return [p for p in positions if min(p.rack.count("?"), 2) == blanks]


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_representative_legal_plays(benchmark, representative, blanks):
    ps = _of_class(representative, blanks)

    def run():
        n = 0
        for p in ps:
            p._plays = None  # not the cache
            n += len(p.legal_plays())
        return n

    plays = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    t = benchmark.stats.stats.min
    benchmark.extra_info.update({"positions": len(ps), "plays": plays, "us_per_position": round(t / len(ps) * 1e6, 1),
                                 "rack_blanks": blanks})


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_representative_best_play(benchmark, representative, blanks):
    ps = _of_class(representative, blanks)
    benchmark.pedantic(lambda: [p.best_play() for p in ps], rounds=5, iterations=1, warmup_rounds=1)
    t = benchmark.stats.stats.min
    benchmark.extra_info.update({"positions": len(ps), "us_per_position": round(t / len(ps) * 1e6, 1),
                                 "rack_blanks": blanks})


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_representative_best_by_equity(benchmark, representative, blanks):
    """``best(by="equity")`` (the pruned search with the shipped leave table), per rack class."""
    ps = _of_class(representative, blanks)
    benchmark.pedantic(lambda: [p.best(by="equity") for p in ps], rounds=5, iterations=1, warmup_rounds=1)
    t = benchmark.stats.stats.min
    benchmark.extra_info.update({"positions": len(ps), "us_per_position": round(t / len(ps) * 1e6, 1),
                                 "rack_blanks": blanks})
