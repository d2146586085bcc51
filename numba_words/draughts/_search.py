"""The perft kernel: an iterative depth-first walk with per-ply move lists (no recursion) that counts the
leaves (bulk counting at the last ply, or listing every leaf) or collects the positions a given number of
plies down (the frontier the tree is split at, and a position's children for the Python API).

It is one kernel for all of these because every Numba kernel that calls the move generators links and
optimises its own copy of them: compile time grows with the number of such kernels.

Each call allocates its own move lists and capture stack, so it can run in several Python threads at once
(``nogil``); nothing mutable is shared between calls.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._movegen import (MOVES_OFF, ONE, PLY_WORDS, U2, U3, ZERO, borrowed, count_moves, perft_captures,
                       perft_gen)

#: ``walk_kernel`` modes: count with bulk counting, count every leaf listed, collect the positions.
BULK, LEAVES, COLLECT = 0, 1, 2
#: Columns of the positions ``walk_kernel`` collects: own, opp, kings, white (0/1), index of the root move.
COLS = 5
#: ``out`` for the counting modes (no row is written).
NO_OUT = np.empty((0, COLS), dtype=np.uint64)


def workspace(depth):
    """The move lists and capture stack ``walk_kernel`` needs for ``depth`` plies (one ``uint64`` array)."""
    return np.empty(MOVES_OFF + (max(int(depth), 1) + 1) * PLY_WORDS, dtype=np.uint64)


@kernel
def walk_kernel(own, opp, kings, white, depth, mode, out, wsa):
    """The paths of length ``depth >= 1`` from a position (all arguments in the types of ``_args``; ``wsa``
    from ``workspace(depth)`` or larger, which the caller keeps: the kernel passes it to the move generators
    as a ``borrowed`` view, without reference counting).

    ``BULK``: their number, the last ply counted without listing its moves (popcounts, or the capture
    generator when there is a capture). ``LEAVES``: their number, every move of the last ply listed, as a
    search would before making them (making one is three XORs of its list entry, which nothing would read
    here). ``COLLECT``: the position at the end of each path goes to a row of ``out`` (``COLS``); returns
    their number, ``-2`` if ``out`` has too few rows. ``-1`` if a move list overflowed, ``-3`` if ``wsa`` is
    too small.
    """
    if depth <= 0:
        return np.int64(1)  # the one path of length 0 (callers handle depth 0 themselves; this keeps memory safe)
    cap = out.shape[0]
    n_out = 0
    nply = depth + 1  # one move list per ply, and one for the captures of the bulk-counted ply
    if wsa.shape[0] < MOVES_OFF + nply * PLY_WORDS:
        return np.int64(-3)
    ws = borrowed(wsa)
    so = np.empty(nply, dtype=np.uint64)
    sp = np.empty(nply, dtype=np.uint64)
    sk = np.empty(nply, dtype=np.uint64)
    sw = np.empty(nply, dtype=np.bool_)
    cnt = np.zeros(nply, dtype=np.int64)
    idx = np.zeros(nply, dtype=np.int64)
    total = np.int64(0)
    c_own, c_opp, c_k, c_w = own, opp, kings, white
    p_own = p_opp = p_k = ZERO
    # LEAVES: a run of sibling positions whose moves are the leaves is listed through the one perft_gen call
    # below (one inlined copy, not two) without touching the stack arrays: next sibling's list entry, end
    leaf_j = ZERO
    leaf_end = ZERO
    ply = -1
    while True:
        # push the position (c_*) and list its moves
        ply += 1
        m = perft_gen(c_own, c_opp, c_k, c_w, ws, MOVES_OFF + ply * PLY_WORDS)
        if m < 0 or (depth == 1 and mode == BULK):
            return np.int64(m)
        if ply == depth - 1:  # this list holds leaves: listed (LEAVES) or made (COLLECT); back to the parent
            if mode == COLLECT:
                if n_out + m > cap:
                    return np.int64(-2)
                root = np.uint64(idx[0] - 1) if ply > 0 else ZERO
                j = np.uint64(MOVES_OFF + ply * PLY_WORDS)
                for i in range(m):
                    r = np.uint64(n_out)
                    out[r, 0] = c_opp ^ ws[j + ONE]
                    out[r, 1] = c_own ^ ws[j]
                    out[r, 2] = c_k ^ ws[j + U2]
                    out[r, 3] = ZERO if c_w else ONE
                    out[r, 4] = root if ply > 0 else np.uint64(i)
                    n_out += 1
                    j += U3
            total += m
            ply -= 1
            if leaf_j < leaf_end:  # the next sibling of a run (LEAVES)
                c_own = p_own ^ ws[leaf_j + ONE]
                c_opp = p_opp ^ ws[leaf_j]
                c_k = p_k ^ ws[leaf_j + U2]
                leaf_j += U3
                continue
        else:
            u = np.uint64(ply)  # unsigned indices: no negative-index fix-ups
            so[u] = c_own
            sp[u] = c_opp
            sk[u] = c_k
            sw[u] = c_w
            cnt[u] = m
            idx[u] = 0
        # find the next move to make, going up the stack as lists run out (unmake is implicit: the parent
        # position is still in so/sp/sk/sw[ply])
        while ply >= 0:
            u = np.uint64(ply)
            i = idx[u]
            m = cnt[u]
            if i >= m:
                ply -= 1
                continue
            rem = depth - ply - 1  # plies below each child (at least 1: leaf lists are never pushed)
            # make: the side to move flips, so the child's "own" is the parent's opponent minus captures
            p_own = sp[u]
            p_opp = so[u]
            p_k = sk[u]
            c_w = not sw[u]
            j = np.uint64(MOVES_OFF + ply * PLY_WORDS + 3 * i)
            if rem == 1 and mode == BULK:  # the children's moves are the leaves: count them in one loop
                scratch = MOVES_OFF + (ply + 1) * PLY_WORDS
                for _ in range(i, m):
                    c_own = p_own ^ ws[j + ONE]
                    c_opp = p_opp ^ ws[j]
                    c_k = p_k ^ ws[j + U2]
                    j += U3
                    c = count_moves(c_own, c_opp, c_k, c_w)
                    if c < 0:
                        c = perft_captures(c_own, c_opp, c_k, c_w, ws, scratch)
                    if c < 0:
                        return np.int64(-1)
                    total += c
                ply -= 1
                continue
            if rem == 1 and mode == LEAVES:  # list the children's moves as one run (see leaf_j)
                idx[u] = m
                leaf_j = j + U3
                leaf_end = np.uint64(MOVES_OFF + ply * PLY_WORDS + 3 * m)
            else:
                idx[u] = i + 1
            c_own = p_own ^ ws[j + ONE]
            c_opp = p_opp ^ ws[j]
            c_k = p_k ^ ws[j + U2]
            break
        if ply < 0:
            return np.int64(n_out) if mode == COLLECT else total


def _args(own, opp, kings, white, depth, mode):
    """The one set of argument types ``walk_kernel`` is compiled for."""
    return np.uint64(own), np.uint64(opp), np.uint64(kings), bool(white), np.int64(depth), np.int64(mode)


def perft_kernel(own, opp, kings, white, depth, leaves):
    """Number of move paths of length ``depth`` (``-1`` if a move list overflowed); ``leaves`` as ``LEAVES``
    of ``walk_kernel`` (else ``BULK``). Releases the GIL while it counts."""
    if depth <= 0:
        return 1
    return walk_kernel(*_args(own, opp, kings, white, depth, LEAVES if leaves else BULK), NO_OUT, workspace(depth))


def frontier_kernel(own, opp, kings, white, fdepth, cap):
    """All positions ``fdepth`` plies below the root (one per path), with the index of the root move that
    leads to each. Returns ``(own, opp, kings, white, root_index, n)``; ``n == -1`` if ``cap`` is too small,
    ``-2`` if a move list overflowed."""
    if fdepth <= 0:
        return (np.array([own], np.uint64), np.array([opp], np.uint64), np.array([kings], np.uint64),
                np.array([white], np.bool_), np.array([-1], np.int64), 1)
    out = np.empty((cap, COLS), dtype=np.uint64)
    n = walk_kernel(*_args(own, opp, kings, white, fdepth, COLLECT), out, workspace(fdepth))
    if n < 0:
        n = -1 if n == -2 else -2
    m = max(n, 0)
    return out[:m, 0], out[:m, 1], out[:m, 2], out[:m, 3] != 0, out[:m, 4].astype(np.int64), n
