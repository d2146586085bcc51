"""Bookworm / Boggle throughput (pytest-benchmark). Run:

    python -m pytest benchmarks/test_bookworm_bench.py --benchmark-enable

Boards/s on random boards (TWL06, full word lists: every distinct word with a path and its best score),
1 thread and all threads, beside the plain-Python solver (numba_words.bookworm.baseline) on the same boards
in the same run; and the score-only Boggle mode (``boggle_scores``: total points per board, no word
lists), the like-for-like measure for the C++ solvers. Anchors: plain Python ~100 Bookworm boards/s; C++
Boggle 4x4 solvers 66k-214k boards/s on one core (score totals only).
"""
from __future__ import annotations

import time

import numba
import pytest

from numba_words.bookworm import BOGGLE4, BOOKWORM, boggle_scores, solve_many
from numba_words.bookworm.baseline import PythonSolver, grid_lists
from numba_words.bookworm.solver import code_letters, random_codes

pytestmark = pytest.mark.bench


@pytest.fixture(scope="module")
def pysolver(twl):
    return PythonSolver(twl)


def _python_rate(py, lex, grid, codes, n=20):
    nbrs = grid_lists(grid)
    t = time.perf_counter()
    for b in range(n):
        py.solve([code_letters(int(c), lex) for c in codes[b]], nbrs)
    return n / (time.perf_counter() - t)


@pytest.mark.parametrize("grid,n", [(BOOKWORM, 20000), (BOGGLE4, 50000)], ids=["bookworm", "boggle4"])
@pytest.mark.parametrize("threads", [1, None], ids=["1thread", "allthreads"])
def test_boards_per_second(benchmark, twl, pysolver, grid, n, threads):
    codes = random_codes(n, grid=grid, lexicon=twl, seed=42)
    solve_many(codes[:8], twl, grid=grid, threads=threads)  # warm up (compile or load the cache)
    out = benchmark.pedantic(solve_many, args=(codes, twl), kwargs=dict(grid=grid, threads=threads),
                             rounds=3, iterations=1)
    rate = n / benchmark.stats.stats.min
    base = _python_rate(pysolver, twl, grid, codes)
    benchmark.extra_info.update({
        "grid": grid.name, "boards": n, "threads": threads or numba.get_num_threads(),
        "boards_per_s": round(rate), "python_boards_per_s": round(base, 1), "ratio_vs_python": round(rate / base),
        "words_per_board": round(out.total_words / n, 1),
    })
    assert out.total_words > 0


@pytest.mark.parametrize("threads", [1, None], ids=["1thread", "allthreads"])
def test_boggle4_score_only(benchmark, twl, threads):
    from numba_words.bookworm.scoring import boggle_points

    n = 50000
    codes = random_codes(n, grid=BOGGLE4, lexicon=twl, seed=42)
    boggle_scores(codes[:8], twl, threads=threads)  # warm up
    out = benchmark.pedantic(boggle_scores, args=(codes, twl), kwargs=dict(threads=threads), rounds=3,
                             iterations=1)
    rate = n / benchmark.stats.stats.min
    py = PythonSolver(twl, 3, twl.max_len)
    nbrs = grid_lists(BOGGLE4)
    m = 20
    t = time.perf_counter()
    want = [sum(boggle_points(len(w)) for w in py.solve([code_letters(int(c), twl) for c in codes[b]], nbrs))
            for b in range(m)]
    base = m / (time.perf_counter() - t)
    benchmark.extra_info.update({
        "grid": BOGGLE4.name, "boards": n, "threads": threads or numba.get_num_threads(), "mode": "score only",
        "boards_per_s": round(rate), "python_boards_per_s": round(base, 1), "ratio_vs_python": round(rate / base),
        "mean_points": round(float(out.mean()), 1),
    })
    assert list(out[:m]) == want
