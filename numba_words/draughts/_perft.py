"""Perft kernels: iterative depth-first walk with per-ply move lists (no recursion), bulk counting at the
last ply or making every leaf, a frontier splitter and a ``prange`` driver over the frontier.

Each call allocates its own move lists and capture stack, so kernels can run in several Python threads at
once (``nogil``); nothing mutable is shared between calls or between ``prange`` iterations.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from .._jit import kernel, pkernel
from ._movegen import MAX_MOVES, MAX_PATH, count_moves, gen_moves, make_stack


@kernel
def perft_kernel(own, opp, kings, white, depth, leaves):
    """Number of move paths of length ``depth`` (``-1`` if a move list overflowed).

    ``leaves=False``: at the last ply count moves without making them (bulk counting).
    ``leaves=True``: make every leaf (the honest node count a search would pay for).
    """
    own = np.uint64(own)
    opp = np.uint64(opp)
    kings = np.uint64(kings)
    if depth <= 0:
        return np.int64(1)
    stk = make_stack()
    path = np.zeros((1, MAX_PATH), dtype=np.int64)
    nply = depth + 1
    ma = np.empty(nply * MAX_MOVES, dtype=np.uint64)
    mb = np.empty(nply * MAX_MOVES, dtype=np.uint64)
    mc = np.empty(nply * MAX_MOVES, dtype=np.uint64)
    if depth == 1 and not leaves:
        return np.int64(count_moves(own, opp, kings, white, ma, mb, mc, 0, MAX_MOVES, stk, path))
    so = np.empty(nply, dtype=np.uint64)
    sp = np.empty(nply, dtype=np.uint64)
    sk = np.empty(nply, dtype=np.uint64)
    sw = np.empty(nply, dtype=np.bool_)
    cnt = np.zeros(nply, dtype=np.int64)
    idx = np.zeros(nply, dtype=np.int64)
    so[0] = own
    sp[0] = opp
    sk[0] = kings
    sw[0] = white
    n0 = gen_moves(own, opp, kings, white, ma, mb, mc, 0, MAX_MOVES, stk, path, False)
    if n0 < 0:
        return np.int64(-1)
    cnt[0] = n0
    idx[0] = 0
    total = np.int64(0)
    ply = 0
    while ply >= 0:
        i = idx[ply]
        if i >= cnt[ply]:
            ply -= 1
            continue
        idx[ply] = i + 1
        j = ply * MAX_MOVES + i
        # make: the side to move flips, so the child's "own" is the parent's opponent minus captures
        c_own = sp[ply] ^ mb[j]
        c_opp = so[ply] ^ ma[j]
        c_k = sk[ply] ^ mc[j]
        c_w = not sw[ply]
        rem = depth - ply - 1
        if rem == 0:
            total += 1
        elif rem == 1 and not leaves:
            m = count_moves(c_own, c_opp, c_k, c_w, ma, mb, mc, (ply + 1) * MAX_MOVES, MAX_MOVES, stk, path)
            if m < 0:
                return np.int64(-1)
            total += m
        else:
            ply += 1
            so[ply] = c_own
            sp[ply] = c_opp
            sk[ply] = c_k
            sw[ply] = c_w
            m = gen_moves(c_own, c_opp, c_k, c_w, ma, mb, mc, ply * MAX_MOVES, MAX_MOVES, stk, path, False)
            if m < 0:
                return np.int64(-1)
            cnt[ply] = m
            idx[ply] = 0
        # unmake is implicit: the parent state is still in so/sp/sk[ply - 1]
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
    stk = make_stack()
    path = np.zeros((1, MAX_PATH), dtype=np.int64)
    nply = fdepth + 1
    ma = np.empty(nply * MAX_MOVES, dtype=np.uint64)
    mb = np.empty(nply * MAX_MOVES, dtype=np.uint64)
    mc = np.empty(nply * MAX_MOVES, dtype=np.uint64)
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
    m0 = gen_moves(own, opp, kings, white, ma, mb, mc, 0, MAX_MOVES, stk, path, False)
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
        j = ply * MAX_MOVES + i
        c_own = sp[ply] ^ mb[j]
        c_opp = so[ply] ^ ma[j]
        c_k = sk[ply] ^ mc[j]
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
            m = gen_moves(c_own, c_opp, c_k, c_w, ma, mb, mc, ply * MAX_MOVES, MAX_MOVES, stk, path, False)
            if m < 0:
                return fo, fp, fk, fw, fr, -1
            cnt[ply] = m
            idx[ply] = 0
    return fo, fp, fk, fw, fr, n


@pkernel
def perft_many_parallel(fo, fp, fk, fw, depth, leaves):
    """``perft_kernel`` on every frontier position, one ``prange`` iteration each; each iteration writes only
    its own ``out[i]`` (reduced by the caller)."""
    n = fo.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in prange(n):
        out[i] = perft_kernel(fo[i], fp[i], fk[i], fw[i], depth, leaves)
    return out


@kernel
def perft_many_serial(fo, fp, fk, fw, depth, leaves):
    """Serial twin of ``perft_many_parallel`` (one thread, or calls from many Python threads)."""
    n = fo.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        out[i] = perft_kernel(fo[i], fp[i], fk[i], fw[i], depth, leaves)
    return out


@kernel
def legal_moves_kernel(own, opp, kings, white):
    """Every legal move with its path, for the Python API: ``(a, b, c, path, n)``; ``n == -1`` on overflow."""
    own = np.uint64(own)
    opp = np.uint64(opp)
    kings = np.uint64(kings)
    ma = np.empty(MAX_MOVES, dtype=np.uint64)
    mb = np.empty(MAX_MOVES, dtype=np.uint64)
    mc = np.empty(MAX_MOVES, dtype=np.uint64)
    path = np.full((MAX_MOVES, MAX_PATH + 1), -1, dtype=np.int64)
    stk = make_stack()
    n = gen_moves(own, opp, kings, white, ma, mb, mc, 0, MAX_MOVES, stk, path, True)
    m = max(n, 0)
    return ma[:m].copy(), mb[:m].copy(), mc[:m].copy(), path[:m].copy(), n
