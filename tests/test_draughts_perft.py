"""Perft against the published numbers shipped with the package (``numba_words.draughts.bench.perft_suite``,
sources in data/draughts/SOURCES.md; duplicate captures counted once)."""
from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

from numba_words.draughts import Position, divide, perft
from numba_words.draughts._movegen import men_capture_sources
from numba_words.draughts._search import perft_kernel
from numba_words.draughts._tables import BOARD, SQ2BIT
from numba_words.draughts.bench import perft_suite

FAST_NODES = 3_000_000  # lines with more nodes than this are marked slow


CASES = perft_suite()
PARAMS = [
    pytest.param(f, d, n, id=f"{i}-d{d}", marks=[pytest.mark.slow] if n > FAST_NODES else [])
    for i, f, d, n in CASES
    if n <= 2_000_000_000
]


@pytest.mark.parametrize("fen, depth, nodes", PARAMS)
def test_published_perft(fen, depth, nodes):
    pos = Position.from_fen(fen)
    got = perft(pos, depth)
    if got != nodes:  # print a divide to help find the bad subtree
        print(divide(pos, depth))
    assert got == nodes


def test_suite_covers_the_issue_numbers():
    ids = {i for i, *_ in CASES}
    assert {"initial", "woldouby", "all_kings"} <= ids
    assert max(d for i, _, d, _ in CASES if i == "initial") == 11


@pytest.mark.parametrize("fen", ["W:W31-50:B1-20", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
                                 "W:WK31-50:BK1-20"])
def test_leaves_mode_equals_bulk_counting(fen):
    pos = Position.from_fen(fen)
    for d in range(1, 6):
        assert perft(pos, d, leaves=True) == perft(pos, d)


def test_serial_parallel_and_divide_agree():
    pos = Position.from_fen("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38")
    one = perft(pos, 8, threads=1)
    two = perft(pos, 8, threads=min(2, numba.config.NUMBA_NUM_THREADS))
    div = divide(pos, 8)
    assert one == two == sum(div.values()) == 6269
    assert list(div) == [m.notation for m in pos.legal_moves]
    assert divide(Position.initial(), 1) == {m.notation: 1 for m in Position.initial().legal_moves}


def test_perft_depth_zero_and_game_over():
    assert perft(Position.initial(), 0) == 1
    lost = Position.from_fen("W:W:B1-20")
    assert perft(lost, 3) == 0 and perft(lost, 1) == 0 and perft(lost, 0) == 1


def test_perft_from_two_python_threads():
    pos = Position.initial()
    expected = 1049442
    results = {}

    def work(k, threads):
        results[k] = perft(pos, 7, threads=threads)

    ts = [threading.Thread(target=work, args=(k, t)) for k, t in enumerate((1, 1, None, None))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert results == {k: expected for k in range(4)}


def test_kernel_result_types():
    w = sum(1 << int(SQ2BIT[s]) for s in range(31, 51))
    b = sum(1 << int(SQ2BIT[s]) for s in range(1, 21))
    n = perft_kernel(np.uint64(w), np.uint64(b), np.uint64(0), True, 3, False)
    assert numba.typeof(n) == numba.int64 and n == 658
    src = men_capture_sources(np.uint64(w), np.uint64(b), np.uint64(BOARD))
    assert src == 0
    # bitboard kernels must stay unsigned all the way through (bit 63 / sign-extending shifts)
    sigs = men_capture_sources.nopython_signatures
    assert sigs and all(sig.return_type == numba.uint64 for sig in sigs)
    assert numba.typeof(BOARD) == numba.uint64
    from numba_words.draughts._movegen import _king_reach
    _king_reach(0, 0, np.uint64(0))
    assert all(sig.return_type == numba.uint64 for sig in _king_reach.nopython_signatures)
