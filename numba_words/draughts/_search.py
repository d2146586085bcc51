"""Perft kernels: iterative depth-first walk with per-ply move lists (no recursion), bulk counting at the
last ply or making every leaf, a frontier splitter and a loop over frontier subtrees.

Each call allocates its own move lists and capture stack, so kernels can run in several Python threads at
once (``nogil``); nothing mutable is shared between calls.
"""
from __future__ import annotations

import numpy as np

from .._jit import inline, kernel
from ._movegen import (BASE, MOVES_OFF, ONE, PLY_WORDS, U2, U3, count_moves, gen_moves, has_capture_fast,
                       make_workspace, perft_captures, perft_slides, short_captures)


@inline
def perft_gen(own, opp, kings, white, ws, base):
    """Every legal move at ``ws[base:]`` with the perft generators; returns the count, -1 on overflow."""
    if has_capture_fast(own, opp, kings):
        n = short_captures(own, opp, kings, white, ws, base)
        if n >= 0:
            return n
        return perft_captures(own, opp, kings, white, ws, base)
    return perft_slides(own, opp, kings, white, ws, base)


@kernel
def perft_kernel(own, opp, kings, white, depth, leaves):
    """Number of move paths of length ``depth`` (``-1`` if a move list overflowed).

    ``leaves=False``: at the last ply count moves without listing them (bulk counting: popcounts, or the
    capture generator when there is a capture). ``leaves=True``: list every move of the last ply, as a search
    would before making them (making one is three XORs of its list entry, which nothing would read here).
    """
    own = np.uint64(own)
    opp = np.uint64(opp)
    kings = np.uint64(kings)
    if depth <= 0:
        return np.int64(1)
    nply = depth + 1  # one move list per ply, and one for the captures of the bulk-counted ply
    ws = make_workspace(nply, np.int64(0))
    so = np.empty(nply, dtype=np.uint64)
    sp = np.empty(nply, dtype=np.uint64)
    sk = np.empty(nply, dtype=np.uint64)
    sw = np.empty(nply, dtype=np.bool_)
    cnt = np.zeros(nply, dtype=np.int64)
    idx = np.zeros(nply, dtype=np.int64)
    total = np.int64(0)
    c_own, c_opp, c_k, c_w = own, opp, kings, white
    ply = -1
    while True:
        # push the position (c_*) and list its moves (the one call of the generator: it is inlined)
        ply += 1
        m = perft_gen(c_own, c_opp, c_k, c_w, ws, MOVES_OFF + ply * PLY_WORDS)
        if m < 0 or depth == 1:
            return np.int64(m)
        if ply == depth - 1:  # leaves mode: this list holds leaves, all made (listed); back to the parent
            total += m
            ply -= 1
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
            if rem == 1 and not leaves:  # bulk-count every child of this list
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
            idx[u] = i + 1
            c_own = p_own ^ ws[j + ONE]
            c_opp = p_opp ^ ws[j]
            c_k = p_k ^ ws[j + U2]
            break
        if ply < 0:
            return total


@kernel
def frontier_kernel(own, opp, kings, white, fdepth, cap):
    """All positions ``fdepth`` plies below the root (one per path), with the index of the root move that
    leads to each. Returns ``(own, opp, kings, white, root_index, n)``; ``n == -1`` if ``cap`` is too small."""
    own = np.uint64(own)
    opp = np.uint64(opp)
    kings = np.uint64(kings)
    fo = np.empty(cap, dtype=np.uint64)
    fp = np.empty(cap, dtype=np.uint64)
    fk = np.empty(cap, dtype=np.uint64)
    fw = np.empty(cap, dtype=np.bool_)
    fr = np.empty(cap, dtype=np.int64)
    nply = fdepth + 1
    ws = make_workspace(nply, np.int64(0))
    so = np.empty(nply, dtype=np.uint64)
    sp = np.empty(nply, dtype=np.uint64)
    sk = np.empty(nply, dtype=np.uint64)
    sw = np.empty(nply, dtype=np.bool_)
    cnt = np.zeros(nply, dtype=np.int64)
    idx = np.zeros(nply, dtype=np.int64)
    n = 0
    if fdepth <= 0:
        fo[0] = own
        fp[0] = opp
        fk[0] = kings
        fw[0] = white
        fr[0] = -1
        return fo, fp, fk, fw, fr, 1
    so[0] = own
    sp[0] = opp
    sk[0] = kings
    sw[0] = white
    # the generator of ``legal_moves`` (paths off), so that root-move indices follow its order (``divide``)
    no_path = np.int64(-1)
    m0 = gen_moves(own, opp, kings, white, ws, BASE, no_path)
    if m0 < 0:
        return fo, fp, fk, fw, fr, -1
    cnt[0] = m0
    ply = 0
    while ply >= 0:
        i = idx[ply]
        if i >= cnt[ply]:
            ply -= 1
            continue
        idx[ply] = i + 1
        j = MOVES_OFF + ply * PLY_WORDS + 3 * i
        c_own = sp[ply] ^ ws[j + 1]
        c_opp = so[ply] ^ ws[j]
        c_k = sk[ply] ^ ws[j + 2]
        c_w = not sw[ply]
        if ply + 1 == fdepth:
            if n >= cap:
                return fo, fp, fk, fw, fr, -1
            fo[n] = c_own
            fp[n] = c_opp
            fk[n] = c_k
            fw[n] = c_w
            fr[n] = idx[0] - 1
            n += 1
        else:
            ply += 1
            so[ply] = c_own
            sp[ply] = c_opp
            sk[ply] = c_k
            sw[ply] = c_w
            m = gen_moves(c_own, c_opp, c_k, c_w, ws, MOVES_OFF + ply * PLY_WORDS, no_path)
            if m < 0:
                return fo, fp, fk, fw, fr, -1
            cnt[ply] = m
            idx[ply] = 0
    return fo, fp, fk, fw, fr, n
