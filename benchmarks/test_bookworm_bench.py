"""Bookworm / Boggle throughput (pytest-benchmark). Run:

    python -m pytest benchmarks/test_bookworm_bench.py --benchmark-enable

Boards/s on random boards (TWL06, full word lists: every distinct word with a path and its best score),
1 thread and all threads, beside the plain-Python solver (``numba_words.bookworm._reference``) on the same
boards in the same run; and the score-only Boggle mode (``boggle_scores``: total points per board, no word
lists), the like-for-like measure for the C++ solvers. Anchors: plain Python ~100 Bookworm boards/s; C++
Boggle 4x4 solvers 66k-214k boards/s on one core (score totals only).
"""
from __future__ import annotations

import numba
import pytest

from numba_words import _timing
from numba_words.bookworm import BOGGLE4, BOOKWORM, boggle_scores, random_codes, solve_many
from numba_words.bookworm._reference import boggle_points, neighbour_lists
from numba_words.bookworm._tables import code_letters
from numba_words.bookworm.bench import reference

pytestmark = pytest.mark.bench


@pytest.fixture(scope="module")
def refsolver(twl):
    return reference(twl)


def _python(ref, lex, grid, codes, n=20):
    """Plain-Python boards/s on the first ``n`` boards and the word sets it found."""
    nbrs = neighbour_lists(grid)
    letters = [[code_letters(int(c), lex) for c in codes[b]] for b in range(n)]
    found = []
    dt = _timing.once(lambda: found.extend(ref.solve(letters[b], nbrs) for b in range(n)))
    return n / dt, found


@pytest.mark.parametrize("grid,n", [(BOOKWORM, 20000), (BOGGLE4, 50000)], ids=["bookworm", "boggle4"])
@pytest.mark.parametrize("threads", [1, None], ids=["1thread", "allthreads"])
def test_boards_per_second(benchmark, twl, refsolver, grid, n, threads):
    codes = random_codes(n, grid=grid, lexicon=twl, seed=42)
    solve_many(codes[:8], twl, grid=grid, threads=threads)  # warm up (compile or load the cache)
    out = benchmark.pedantic(solve_many, args=(codes, twl), kwargs=dict(grid=grid, threads=threads),
                             rounds=3, iterations=1)
    rate = n / benchmark.stats.stats.min
    base, found = _python(refsolver, twl, grid, codes)
    benchmark.extra_info.update({
        "grid": grid.name, "boards": n, "threads": threads or numba.get_num_threads(),
        "boards_per_s": round(rate), "python_boards_per_s": round(base, 1), "ratio_vs_python": round(rate / base),
        "words_per_board": round(out.total_words / n, 1),
    })
    assert [sorted(w) for w in found] == [sorted(out[b].words) for b in range(len(found))]


@pytest.mark.parametrize("threads", [1, None], ids=["1thread", "allthreads"])
def test_boggle4_score_only(benchmark, twl, threads):
    n = 50000
    codes = random_codes(n, grid=BOGGLE4, lexicon=twl, seed=42)
    boggle_scores(codes[:8], twl, threads=threads)  # warm up
    out = benchmark.pedantic(boggle_scores, args=(codes, twl), kwargs=dict(threads=threads), rounds=3,
                             iterations=1)
    rate = n / benchmark.stats.stats.min
    base, found = _python(reference(twl, 3, twl.max_len), twl, BOGGLE4, codes)
    benchmark.extra_info.update({
        "grid": BOGGLE4.name, "boards": n, "threads": threads or numba.get_num_threads(), "mode": "score only",
        "boards_per_s": round(rate), "python_boards_per_s": round(base, 1), "ratio_vs_python": round(rate / base),
        "mean_points": round(float(out.mean()), 1),
    })
    assert list(out[:len(found)]) == [sum(boggle_points(w) for w in words) for words in found]
