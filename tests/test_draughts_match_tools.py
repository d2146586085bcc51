"""The draughts match and tactics benchmarks' own pieces: the score / interval / Elo arithmetic of the match
script against hand-worked figures, and the tactics set's file (every line a legal, quiet solution)."""
from __future__ import annotations

import importlib
import math
import random
from pathlib import Path

import numpy as np
import pytest

from numba_words.draughts import Position, patterns_array

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    return lambda name: importlib.import_module(name)


def test_match_score_interval_and_elo(bench):
    m = bench("draughts_match")
    s = m.score_summary([1, 0.5, 0, 0.5])
    assert (s["wins"], s["draws"], s["losses"], s["score"], s["elo"]) == (1, 2, 1, 0.5, 0.0)
    # per-game deviations 0.5, 0, -0.5, 0: variance 0.125, standard error sqrt(0.125 / 4)
    half = 1.96 * math.sqrt(0.125 / 4)
    assert s["score_lo"] == pytest.approx(0.5 - half) and s["score_hi"] == pytest.approx(0.5 + half)
    s = m.score_summary([1, 1, 1, 0])
    assert s["score"] == 0.75 and s["elo"] == pytest.approx(400 * math.log10(3))
    assert m.elo(0.0) == -math.inf and m.elo(1.0) == math.inf and m.elo(0.24) == pytest.approx(-200.2, abs=0.1)
    assert m.score_summary([])["games"] == 0
    s = m.score_summary([0.0] * 16)  # all lost: Wilson's interval, 0 to z^2 / (n + z^2)
    assert s["score_lo"] == pytest.approx(0.0, abs=1e-12) and s["score_hi"] == pytest.approx(1.96 ** 2 / (16 + 1.96 ** 2))


def test_tactics_set_is_well_formed(bench):
    t = bench("draughts_tactics")
    tactics = t.read_set(t.DATA)
    assert len(tactics) >= 50
    assert len({p.fen() for p, _, _ in tactics}) == len(tactics)
    for pos, sol, source in tactics:
        move = pos.parse_move(sol)
        assert not move.captured and len(list(pos.legal_moves)) >= 3  # a quiet first move among others
        assert not (move.to_square <= 5 if pos.turn else move.to_square >= 46)  # not a crowning
        assert ".pdn game" in source
    p = Position("W:W28,32:B19,23")
    assert t.material(p) == 0 and t.material(Position("B:WK28,32:B19")) == -3


@pytest.mark.parametrize("name", ["draughts_shots.txt", "draughts_shots_2941424.txt"])
def test_shots_set_is_well_formed(bench, name):
    s = bench("draughts_shots")
    shots = s.read_set(s.DATA.parent / name)
    assert len(shots) >= 50
    assert len({(p.fen(), str(m)) for p, m in shots}) == len(shots)
    assert all(m in p.legal_moves for p, m in shots)  # the move played is legal where it was played


@pytest.mark.parametrize("pieces", ["16-20", "28-32"])
def test_start_sets_are_well_formed(bench, pieces):
    m = bench("draughts_match")
    s = bench("draughts_starts")
    fens = m.read_openings(BENCH / "data" / f"draughts_starts_{pieces}.txt")  # (comment lines skipped)
    lo, hi = map(int, pieces.split("-"))
    assert len(fens) == 79 and len(set(fens)) == 79
    for fen in fens:
        p = Position(fen)
        assert p.turn and not p.kings and s.quiet(p)
        assert lo <= bin(p.white | p.black).count("1") <= hi
        assert bin(p.white).count("1") == bin(p.black).count("1")
    assert not s.quiet(Position("W:W28:B23")) and not s.quiet(Position("W:W6:B1"))  # a capture; no move


MOBYDAM_LOG = """move received from numba_words
move=1. 32-28
     b   b   b   b   b
   b   b   b   b   b
     b   b   b   b   b
   b   b   b   b   b
     .   .   .   .   .
   .   .   .   .   .
     w   w   w   w   w
   w   .   w   w   w
     w   w   w   w   w
   w   w   w   w   w   (b to move)
reached depth=12 move=0
evals=601517 score=-24561
move=1... 19-23
     b   b   b   b   b
   b   b   b   b   b
     b   b   b   b   b
   b   b   b   .   b
     .   .   b   .   .
   .   .   W   .   .
     w   w   w   w   w
   w   .   w   w   w
     w   w   w   w   w
   w   w   w   w   w   (w to move)
evals=1 score=15000000
"""


def test_moby_dams_depth_is_the_one_it_finished(bench, tmp_path):
    """Moby Dam's log names the iteration its time stopped (``reached depth=12 move=0``): the match counts the
    depth it finished, 11, as ours counts a search stopped part way."""
    m = bench("draughts_match")
    log = tmp_path / "engine.log"
    log.write_text("earlier game\nreached depth=30 move=2\nnodes total=5\n" + MOBYDAM_LOG.replace(
        "evals=601517", "nodes total=901 nonleaf=1 leaf=900\nevals=601517"), encoding="latin-1")
    depth, nodes = m._mobydam_effort(log, len("earlier game\nreached depth=30 move=2\nnodes total=5\n"))
    assert (depth, nodes) == (11.0, 901.0)


def test_tuner_reads_moby_dams_log_and_fits_by_ridge(bench):
    t = bench("draughts_tune")
    got = [(Position(f).fen(), y) for f, y in t.read_mobydam_log(MOBYDAM_LOG)]
    assert got == [("B:W31-36,38-50:B1-20", -0.0024561), ("W:WK28,31-36,38-50:B1-18,20,23", 1.5)]
    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, 3))
    y = x @ np.array([0.5, -0.2, 0.0]) + 0.1
    b, c = t.ridge(x, y, 0.0)
    assert np.allclose(b, [0.5, -0.2, 0.0]) and c == pytest.approx(0.1)
    b2, c2 = t.ridge(x, y, 1e4)
    assert abs(b2[0]) < 0.1 and abs(b2[1]) < 0.05 and c2 == pytest.approx(0.1, abs=0.03)  # the intercept is free


def test_tuners_tapered_columns_model_the_evaluation(bench):
    """The tuner's tapered columns times a weight pair per term give the kernel's evaluation (positions of
    every size without kings, where the evaluation is not scaled; within the kernel's rounding)."""
    from numba_words.draughts._eval import TERMS, evaluate_kernel

    t = bench("draughts_tune")
    rng = random.Random(5)
    rows = []
    while len(rows) < 300:
        pos = Position()
        for _ in range(rng.randrange(0, 90)):
            moves = list(pos.legal_moves)
            if not moves or pos.kings:
                break
            pos.push(rng.choice(moves))
        if not pos.kings and list(pos.legal_moves):
            own, opp = (pos.white, pos.black) if pos.turn else (pos.black, pos.white)
            rows.append((own, opp, 0, pos.turn))
    pieces = t.pieces_of(rows)
    assert pieces.min() <= 20 and pieces.max() == 40
    w = np.random.default_rng(4).integers(-300, 300, (2, len(TERMS))).astype(np.int64)
    w[:, 0] = 1000
    w.flags.writeable = False
    got = np.zeros(len(rows), dtype=np.int64)
    evaluate_kernel(*(np.array([r[i] for r in rows], dt) for i, dt in enumerate((np.uint64, np.uint64, np.uint64,
                                                                                 np.bool_))), w,
                    patterns_array(False), got)
    model = t.tapered_columns(t.terms_of(rows), pieces) @ w.reshape(-1)
    assert np.all(np.abs(model - got) < 1.0)
    assert np.abs(model).max() > 100


def _md_board(fen: str) -> str:
    """A position as Moby Dam's log prints it after a move line: ten rows of five squares and the side to move."""
    from numba_words.draughts._tables import SQ2BIT

    p = Position(fen)
    cells = []
    for s in range(1, 51):
        bit = 1 << int(SQ2BIT[s])
        cell = "w" if p.white & bit else "b" if p.black & bit else "."
        cells.append(cell.upper() if p.kings & bit else cell)
    rows = ["   " * (r % 2 == 0) + "   ".join(cells[5 * r:5 * r + 5]) for r in range(10)]
    return "move=1. 1-2\n" + "\n".join(rows) + f"   ({'w' if p.turn else 'b'} to move)\n"


def test_tuner_keeps_positions_a_man_up_only_when_asked(bench, tmp_path):
    """``--unequal 1`` adds quiet positions a man up (scored within 1.5 men of the man) to the equal ones; a
    man-up position scored far from it, one two men up, and positions with kings stay out."""
    t = bench("draughts_tune")
    boards = [("W:W31,32,46:B5,6,7", 0.1),    # equal
              ("W:W31,32,46:B5,6", 1.2),      # White, to move, a man up, scored about a man
              ("B:W31,32,46:B5,6", -0.8),     # the same for Black to move (a man down)
              ("W:W31,32,47:B5,6", -0.9),     # a man up but scored 1.9 men from it
              ("W:W31,32,46,47:B5,6", 2.0),   # two men up
              ("W:WK31,32,46:B5,6,7", 0.1)]   # a king
    log = tmp_path / "engine.log"
    log.write_text("".join(_md_board(f) + f"evals=1 score={round(y * 10_000_000)}\n" for f, y in boards),
                   encoding="latin-1")
    assert [Position(f).fen() for f, _ in t.read_mobydam_log(log.read_text())] == [Position(f).fen() for f, _ in boards]
    rows, y = t.score_rows([log])
    assert list(y) == [0.1]
    rows, y = t.score_rows([log], unequal=1)
    assert list(y) == [0.1, 1.2, -0.8]
    assert [bin(r[0]).count("1") - bin(r[1]).count("1") for r in rows] == [0, 1, -1]  # side to move's men first


def test_clock_selfplay_scores_the_game_and_flags_a_clock_run_out(bench):
    c = bench("draughts_clock")
    from numba_words.draughts import Engine

    spent = {0: [], 1: []}
    # White (A) takes Black's last man at once: a win for A with White, a loss with Black
    game, a, how, left = c.play((Engine(hash_mb=1), Engine(hash_mb=1)), "W:W28:B23", True, 5.0, 0.0, 400, spent)
    assert (a, len(game), how) == (1.0, 1, "no legal move") and len(spent[0]) == 1 and not spent[1]
    assert 0 < left[0] < 5.0 and left[1] == 5.0
    game, a, how, left = c.play((Engine(hash_mb=1), Engine(hash_mb=1)), "W:W28:B23", False, 5.0, 0.0, 400, spent)
    assert (a, how) == (0.0, "no legal move")

    class Slow:  # spends more than its clock on its first move
        def new_game(self):
            pass

        def search(self, pos, **kw):
            import time
            time.sleep(kw["remaining"] + 0.01)
            return Engine(hash_mb=1).search(pos, depth=1)

    game, a, how, left = c.play((Slow(), Engine(hash_mb=1)), Position().fen(), True, 0.02, 0.01, 400, spent)
    assert (a, how, len(game)) == (0.0, "time", 0) and left[0] < 0
