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
    from numba_words.draughts._movegen import king_capture_sources
    king_capture_sources(np.uint64(0), np.uint64(0), np.uint64(0))
    assert all(sig.return_type == numba.uint64 for sig in king_capture_sources.nopython_signatures)


def test_one_kernel_specialisation_serves_perft_divide_and_legal_moves():
    """Compile time: perft (bulk, every leaf, threads), divide and the API's move lists all run the one perft
    kernel, compiled for one set of argument types (a second specialisation would compile it all again)."""
    from numba_words.draughts._search import walk_kernel

    p = Position.from_fen("W:WK46,K50:B7,8,9,12,13,17,18,19,22,23,24,27,28,29,32,33,34")
    list(p.legal_moves)
    perft(p, 4, threads=1)
    perft(p, 4, threads=min(2, numba.config.NUMBA_NUM_THREADS), leaves=True, progress=lambda *a: None)
    divide(p, 3)
    assert len(walk_kernel.signatures) == 1


def test_worker_threads_agree_with_one_kernel_call():
    """The chunked worker-thread path (forced by a progress callback) against one serial kernel call."""
    from numba_words.draughts import search

    for fen, depth in [("W:W31-50:B1-20", 7), ("W:WK31-50:BK1-20", 6), ("B:WK3,K47,28,33:BK12,K44,19,24,25", 6)]:
        pos = Position.from_fen(fen)
        seen = []
        s = search._split(search._root(pos), depth, 64)
        want = int(search._count(s.f, s.rem, False, 1, inline=True).sum())
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            seen.clear()
            got = perft(pos, depth, threads=threads, progress=lambda *a: seen.append(a))
            assert got == want
            done, total, nodes, seconds = seen[-1]
            assert done == total and nodes == want and seconds >= 0
            assert all(a[0] <= b[0] and a[2] <= b[2] for a, b in zip(seen, seen[1:]))  # monotone
        assert sum(divide(pos, depth, progress=True).values()) == want


def test_split_keeps_subtrees_small_at_any_depth():
    from numba_words.draughts import search

    root = search._root(Position.initial())
    for depth in (9, 11, 13, 20, search.MAX_DEPTH):
        s = search._split(root, depth, 128)
        assert s.n >= 128 and s.n <= search.MAX_FRONTIER and s.fdepth <= depth - 1
        assert s.subtree <= search.SUBTREE_NODES or s.n * s.branching > search.MAX_FRONTIER
    # a position without moves, and a depth at the frontier itself
    assert search._split(search._root(Position.from_fen("W:W:B1")), 9, 128).n == 0
    assert perft(Position.from_fen("W:W:B1"), 9) == 0 and perft(Position.from_fen("W:W:B1"), 9, progress=True) == 0


@pytest.mark.parametrize("kwargs, error", [
    (dict(threads=99), "threads"), (dict(threads=-1), "threads"), (dict(threads=1.5), "threads"),
    (dict(progress=1), "progress"), (dict(progress="yes"), "progress"), (dict(leaves="no"), "leaves"),
    (dict(checkpoint="perft.ckpt"), "client="), (dict(split_depth=2), "client="), (dict(n_tasks=4), "client="),
])
def test_bad_arguments_fail_before_any_work(kwargs, error):
    from numba_words import NumbaWordsError

    with pytest.raises(NumbaWordsError, match=error):
        perft(Position.initial(), 30, **kwargs)  # 30 plies would run for years: the error must come first
    with pytest.raises(NumbaWordsError, match=error):
        divide(Position.initial(), 30, **kwargs)


def test_positions_and_depths_accepted():
    from numba_words.draughts import DraughtsError, InvalidFenError

    assert perft("W:W31-50:B1-20", 3) == 658 and divide("W:WK31-50:BK1-20", 2)["31-27"] == perft(
        "B:WK27,K32-50:BK1-20", 1)
    assert perft(Position.initial(), np.int64(4)) == 4265
    for bad in (-1, 1.0, True, "3", 10**6):
        with pytest.raises(DraughtsError, match="depth"):
            perft(Position.initial(), bad)
    with pytest.raises(InvalidFenError):
        perft("W:W31-50:B1-99", 3)
    with pytest.raises(DraughtsError, match="Position or a FEN"):
        perft(42, 3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'spilt_depth'"):
        perft(Position.initial(), 3, spilt_depth=2)
    with pytest.raises(DraughtsError, match="depth >= 1"):
        divide(Position.initial(), 0)


def test_ctrl_c_stops_a_library_perft_at_once():
    """perft() at a depth that takes hours: SIGINT raises KeyboardInterrupt within a fraction of a second."""
    import os
    import signal
    import subprocess
    import sys
    import time

    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = (
        "import sys\n"
        "from numba_words.draughts import Position, perft, divide, warmup\n"
        "warmup()\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    (perft if sys.argv[1] == 'perft' else divide)(Position.initial(), 15, threads=int(sys.argv[2]))\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped', flush=True)\n"
    )
    env = dict(os.environ, PYTHONPATH=repo + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for fn, threads in (("perft", numba.config.NUMBA_NUM_THREADS), ("divide", 1)):
        p = subprocess.Popen([sys.executable, "-c", code, fn, str(threads)], stdout=subprocess.PIPE, text=True,
                             env=env)
        assert p.stdout.readline().strip() == "ready"
        time.sleep(1.5)
        t = time.monotonic()
        p.send_signal(signal.SIGINT)
        line = p.stdout.readline().strip()
        elapsed = time.monotonic() - t
        p.stdout.close()
        assert p.wait(timeout=60) == 0 and line == "stopped"
        assert elapsed < 5, elapsed  # ~0.01 s when the machine is quiet; generous for a shared one
