"""Letter-grid search kernels: depth-first search over the lexicon DAWG on a tile-adjacency bitboard.

A grid is ``nbr[t]`` (``uint64``: bit ``u`` set when tile ``u`` touches tile ``t``), so the Bookworm hex
board (52 tiles) and Boggle boards (16 or 25 tiles, 8 neighbours) run through the same code. Per board the
kernels take, for every tile:

``tcode``   letter index, or ``QU`` (the Qu tile: a two-letter edge Q then U), or ``HOLE`` (no tile)
``tbit``    the tile's first-letter bit (Q's bit for a Qu tile, 0 for a hole). Per board
            ``neighbour_tables`` derives ``nl[t]`` (letters next to ``t``: a node is expanded only on
            ``node_mask & nl[t]``) and ``nbl[t, code]`` (neighbours by tile code: one DAWG edge per letter)
``tval``    the tile's letter value;  ``tbonus`` the tile's gem bonus

Words are numbered by their rank in the lexicon's sorted list: ``acc[p]`` (built once per lexicon by
:func:`word_rank_table`) is added along the DAWG edges walked, and at a terminal edge the sum minus one is
the word's index. A minimised DAWG merges suffixes, so the edge position does not identify a word; the rank
does, exactly, so words are deduplicated per board on the rank with a small open-addressing table.

Output per board, in first-found order (deterministic: start tiles ascending, then depth first with the
children of a node by letter, then by tile): word rank, one path (tile indices) and its length in tiles,
and the best score over every path spelling the word (``(level + sum of values) * (letters + sum of gem
bonuses) * mult``; the first path reaching the best score is kept).
"""
from __future__ import annotations

import numpy as np
from numba import prange

from .._jit import inline, kernel, pkernel
from ..bits import lsb_index, popcount

QU = 62      # tile code of the Qu tile
HOLE = 63    # tile code of an empty square (matches nothing)
U64_1 = np.uint64(1)
U64_0 = np.uint64(0)



@kernel
def word_rank_table(dawg):
    """``acc`` (``int32``, same length as ``dawg``): at an edge position ``p = o + 1 + k`` the number of words
    below node ``o`` that sort before the words through edge ``k``, plus that edge's terminal flag.

    Summing ``acc`` over the edges spelling a word and subtracting one gives the word's sorted index.
    """
    n = dawg.shape[0]
    count = np.full(n, -1, dtype=np.int64)  # words below the node at offset o (suffixes, empty excluded)
    # explicit stack: each node is pushed at most once per parent visit; depth <= longest word + 1
    stack = np.empty(n + 1, dtype=np.int64)
    sp = 0
    stack[sp] = 0
    sp += 1
    while sp > 0:
        o = stack[sp - 1]
        if count[o] >= 0:
            sp -= 1
            continue
        m = np.int64(dawg[o])
        k = popcount(m)
        ready = True
        for j in range(k):
            c = np.int64(dawg[o + 1 + j]) >> 1
            if count[c] < 0:
                stack[sp] = c
                sp += 1
                ready = False
        if ready:
            total = 0
            for j in range(k):
                e = np.int64(dawg[o + 1 + j])
                total += (e & 1) + count[e >> 1]
            count[o] = total
            sp -= 1
    acc = np.zeros(n, dtype=np.int32)
    o = 0
    while o < n:
        m = np.int64(dawg[o])
        k = popcount(m)
        before = 0
        for j in range(k):
            e = np.int64(dawg[o + 1 + j])
            acc[o + 1 + j] = before + (e & 1)
            before += (e & 1) + count[e >> 1]
        o += 1 + k
    return acc


@kernel
def word_ranks(dawg, acc, flat, offsets, out):
    """``out[i]`` = rank computed through ``acc`` for word ``i`` (a self-check: must equal ``i``)."""
    for i in range(offsets.shape[0] - 1):
        node = 0
        s = 0
        for k in range(offsets[i], offsets[i + 1]):
            c = np.int64(flat[k])
            m = np.int64(dawg[node])
            p = node + 1 + popcount(m & ((np.int64(1) << c) - 1))
            e = np.int64(dawg[p])
            s += acc[p]
            node = e >> 1
        out[i] = s - 1


@kernel
def neighbour_tables(nbr, tcode, tbit, nl, nbl):
    """Per board: ``nl[t]`` = OR of the first-letter bits of the neighbours of ``t``; ``nbl[t, code]`` = the
    neighbours of ``t`` whose tile code is ``code`` (``nbl`` is cleared first; shape ``(n, 64)``)."""
    nbl[:] = 0
    for t in range(nbr.shape[0]):
        m = nbr[t]
        x = np.int64(0)
        while m:
            u = lsb_index(m)
            b = m & (~m + U64_1)
            m ^= b
            x |= tbit[u]
            if tbit[u] != 0:
                nbl[t, tcode[u]] |= b
        nl[t] = x


@inline
def _step(dawg, acc, node, code, qc, uc):
    """Follow the tile ``code`` from ``node``: ``(edge, rank_add)``; edge 0 when the DAWG has no such path."""
    c = qc if code == QU else code
    m = np.int64(dawg[node])
    if (m >> c) & 1 == 0:
        return 0, 0
    p = node + 1 + popcount(m & ((np.int64(1) << c) - 1))
    e = np.int64(dawg[p])
    add = np.int64(acc[p])
    if code == QU:
        node = e >> 1
        m = np.int64(dawg[node])
        if (m >> uc) & 1 == 0:
            return 0, 0
        p = node + 1 + popcount(m & ((np.int64(1) << uc) - 1))
        e = np.int64(dawg[p])
        add += np.int64(acc[p])
    return e, add


@inline
def _slot(wid, hmask):
    """Home slot of word rank ``wid``: Fibonacci hashing, top 32 bits of the 64-bit product."""
    return np.int64((np.uint64(wid) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)) & hmask


@kernel
def search(dawg, acc, nbr, nl, nbl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult, lo, hi,
           out_wid, out_path, out_plen, out_score, htab, hmask, n_out):
    """Depth-first search from start tiles ``lo..hi-1``, appending distinct words to the ``out_*`` arrays.

    ``n_out`` words are already there (and in ``htab``, an open-addressing table of size ``hmask + 1``
    holding output index + 1). Returns the new count, or -1 when ``out_wid`` is full (the caller retries
    with more room).

    The explicit stack is ``max_len + 1`` levels deep (every tile adds at least one letter); level ``d`` is
    the path's tile ``d`` plus a frame of its pre-expanded children (at most one per neighbour, so at most
    ``width``). All children of a node are looked up at once, so their cache-missing DAWG loads overlap
    instead of forming one chain of dependent loads, and a child that is not a word and none of whose own
    children any neighbour spells is dropped before it is pushed.

    The body is one function on purpose: helpers taking arrays, even inlined, leave atomic reference-count
    updates in the inner loop (measured at a quarter of the run time).
    """
    depth_cap = max_len + 1
    width = 1
    for t in range(nbr.shape[0]):
        width = max(width, popcount(nbr[t]))
    s_tile = np.empty(depth_cap, dtype=np.int64)
    s_rank = np.empty(depth_cap, dtype=np.int64)
    s_val = np.empty(depth_cap, dtype=np.int64)
    s_bon = np.empty(depth_cap, dtype=np.int64)
    s_len = np.empty(depth_cap, dtype=np.int64)
    f_n = np.zeros(depth_cap, dtype=np.int64)
    f_i = np.zeros(depth_cap, dtype=np.int64)
    f_tile = np.empty((depth_cap, width), dtype=np.int64)
    f_node = np.empty((depth_cap, width), dtype=np.int64)
    f_add = np.empty((depth_cap, width), dtype=np.int64)
    f_edge = np.empty((depth_cap, width), dtype=np.int64)
    one = np.int64(1)
    for s in range(lo, hi):
        if tbit[s] == 0:
            continue
        # level 0: the start tile, as if it were the only child of a virtual level -1
        code = np.int64(tcode[s])
        nlet = 2 if code == QU else 1
        if nlet > max_len:
            continue
        c0 = qc if code == QU else code
        m = np.int64(dawg[0])
        if (m >> c0) & 1 == 0:
            continue
        p = 1 + popcount(m & ((one << c0) - 1))
        e = np.int64(dawg[p])
        add = np.int64(acc[p])
        if code == QU:
            node = e >> 1
            m = np.int64(dawg[node])
            if (m >> uc) & 1 == 0:
                continue
            p = node + 1 + popcount(m & ((one << uc) - 1))
            e = np.int64(dawg[p])
            add += np.int64(acc[p])
        used = U64_0
        d = -1
        u = s
        length = nlet
        node = e >> 1
        while True:
            # ---- push tile u (edge e, rank step add) as level c = d + 1, record it, expand it
            c = d + 1
            s_tile[c] = u
            if c == 0:
                s_rank[0] = add
                s_val[0] = tval[u]
                s_bon[0] = tbonus[u]
            else:
                s_rank[c] = s_rank[d] + add
                s_val[c] = s_val[d] + tval[u]
                s_bon[c] = s_bon[d] + tbonus[u]
            s_len[c] = length
            used |= U64_1 << np.uint64(u)
            if (e & 1) and length >= min_len:
                wid = s_rank[c] - 1
                score = (level + s_val[c]) * (length + s_bon[c]) * mult
                h = np.int64((np.uint64(wid) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)) & hmask
                while True:
                    slot = htab[h]
                    if slot == 0:
                        if n_out >= out_wid.shape[0]:
                            return -1
                        htab[h] = n_out + 1
                        out_wid[n_out] = wid
                        out_score[n_out] = score
                        out_plen[n_out] = c + 1
                        for k in range(c + 1):
                            out_path[n_out, k] = s_tile[k]
                        n_out += 1
                        break
                    j = slot - 1
                    if out_wid[j] == wid:
                        if score > out_score[j]:
                            out_score[j] = score
                            out_plen[j] = c + 1
                            for k in range(c + 1):
                                out_path[j, k] = s_tile[k]
                        break
                    h = (h + 1) & hmask
            f_i[c] = 0
            f_n[c] = 0
            if length < max_len:
                mask = np.int64(dawg[node])
                lm = mask & nl[u]
                k = 0
                while lm:
                    # one DAWG edge per letter; then every unused neighbour showing that letter
                    lc = lsb_index(lm)
                    lm &= lm - one
                    p = node + 1 + popcount(mask & ((one << lc) - 1))
                    e2 = np.int64(dawg[p])
                    add2 = np.int64(acc[p])
                    n2 = e2 >> 1
                    m2 = np.int64(dawg[n2])
                    tiles = nbl[u, lc] & ~used
                    if length + 1 > max_len:
                        tiles = U64_0
                    while tiles:
                        v = lsb_index(tiles)
                        tiles &= tiles - U64_1
                        if (e2 & 1) == 0 and (m2 & nl[v]) == 0:
                            continue
                        f_tile[c, k] = v
                        f_node[c, k] = n2
                        f_add[c, k] = add2
                        f_edge[c, k] = e2
                        k += 1
                    if lc == qc:
                        qtiles = nbl[u, QU] & ~used
                        if qtiles and length + 2 <= max_len and (m2 >> uc) & 1:
                            p = n2 + 1 + popcount(m2 & ((one << uc) - 1))
                            e3 = np.int64(dawg[p])
                            add3 = add2 + np.int64(acc[p])
                            n3 = e3 >> 1
                            m3 = np.int64(dawg[n3])
                            while qtiles:
                                v = lsb_index(qtiles)
                                qtiles &= qtiles - U64_1
                                if (e3 & 1) == 0 and (m3 & nl[v]) == 0:
                                    continue
                                f_tile[c, k] = v
                                f_node[c, k] = n3
                                f_add[c, k] = add3
                                f_edge[c, k] = e3
                                k += 1
                f_n[c] = k
            d = c
            # ---- pop exhausted levels; take the next child of the deepest level that has one
            while d >= 0 and f_i[d] == f_n[d]:
                used ^= U64_1 << np.uint64(s_tile[d])
                d -= 1
            if d < 0:
                break
            i = f_i[d]
            f_i[d] = i + 1
            u = f_tile[d, i]
            e = f_edge[d, i]
            add = f_add[d, i]
            node = f_node[d, i]
            length = s_len[d] + (2 if tcode[u] == QU else 1)
    return n_out


@kernel
def hash_bits(cap):
    """Mask of an open-addressing table of at least twice ``cap`` slots."""
    size = 16
    while size < 2 * cap:
        size *= 2
    return size - 1


@kernel
def solve_board(dawg, acc, nbr, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult, cap):
    """One board, serially: ``(n, wid, path, plen, score)``; ``n == -1`` when more than ``cap`` words."""
    n = nbr.shape[0]
    nl = np.empty(n, dtype=np.int64)
    nbl = np.empty((n, 64), dtype=np.uint64)
    neighbour_tables(nbr, tcode, tbit, nl, nbl)
    out_wid = np.empty(cap, dtype=np.int32)
    out_path = np.empty((cap, max_len), dtype=np.int8)
    out_plen = np.empty(cap, dtype=np.int8)
    out_score = np.empty(cap, dtype=np.int64)
    hmask = hash_bits(cap)
    htab = np.zeros(hmask + 1, dtype=np.int32)
    k = search(dawg, acc, nbr, nl, nbl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult, 0, n,
               out_wid, out_path, out_plen, out_score, htab, hmask, 0)
    return k, out_wid, out_path, out_plen, out_score


@pkernel
def solve_board_parallel(dawg, acc, nbr, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult, cap):
    """One board, ``prange`` over start tiles (own scratch each), merged in start-tile order.

    Same result as :func:`solve_board` (first-found order; best path: first reaching the best score).
    Returns ``(n, wid, path, plen, score)``; ``n == -1`` when a start tile or the merge overflows ``cap``.
    """
    n = nbr.shape[0]
    nl = np.empty(n, dtype=np.int64)
    nbl = np.empty((n, 64), dtype=np.uint64)
    neighbour_tables(nbr, tcode, tbit, nl, nbl)
    hmask = hash_bits(cap)
    p_wid = np.empty((n, cap), dtype=np.int32)
    p_path = np.empty((n, cap, max_len), dtype=np.int8)
    p_plen = np.empty((n, cap), dtype=np.int8)
    p_score = np.empty((n, cap), dtype=np.int64)
    p_n = np.zeros(n, dtype=np.int64)
    for s in prange(n):
        htab = np.zeros(hmask + 1, dtype=np.int32)
        p_n[s] = search(dawg, acc, nbr, nl, nbl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult,
                        s, s + 1, p_wid[s], p_path[s], p_plen[s], p_score[s], htab, hmask, 0)
    out_wid = np.empty(cap, dtype=np.int32)
    out_path = np.empty((cap, max_len), dtype=np.int8)
    out_plen = np.empty(cap, dtype=np.int8)
    out_score = np.empty(cap, dtype=np.int64)
    htab = np.zeros(hmask + 1, dtype=np.int32)
    k = 0
    for s in range(n):
        if p_n[s] < 0:
            return -1, out_wid, out_path, out_plen, out_score
        for i in range(p_n[s]):
            wid = p_wid[s, i]
            h = _slot(np.int64(wid), hmask)
            while True:
                slot = htab[h]
                if slot == 0:
                    if k >= cap:
                        return -1, out_wid, out_path, out_plen, out_score
                    htab[h] = k + 1
                    out_wid[k] = wid
                    out_score[k] = p_score[s, i]
                    out_plen[k] = p_plen[s, i]
                    out_path[k] = p_path[s, i]
                    k += 1
                    break
                j = slot - 1
                if out_wid[j] == wid:
                    if p_score[s, i] > out_score[j]:
                        out_score[j] = p_score[s, i]
                        out_plen[j] = p_plen[s, i]
                        out_path[j] = p_path[s, i]
                    break
                h = (h + 1) & hmask
    return k, out_wid, out_path, out_plen, out_score


@kernel
def _board_tiles(b, codes, kinds, lbit, lval, kbonus, tcode, tbit, tval, tbonus):
    for t in range(codes.shape[1]):
        c = np.int64(codes[b, t])
        tcode[t] = c
        tbit[t] = lbit[c]
        tval[t] = lval[c]
        tbonus[t] = kbonus[kinds[b, t]]


@pkernel
def solve_batch(dawg, acc, nbr, codes, kinds, lbit, lval, kbonus, qc, uc, min_len, max_len, level, mult, cap,
                out_n, out_wid, out_path, out_plen, out_score):
    """Boards ``codes[b]`` (tile codes) with ``kinds[b]`` (kind indices), ``prange`` over boards.

    ``lbit``/``lval`` map a tile code (0..63) to its first-letter bit and value, ``kbonus`` a kind to its
    gem bonus. Board ``b`` writes only row ``b`` of the ``out_*`` arrays (capacity ``cap`` words each);
    ``out_n[b] == -1`` when it did not fit (the caller re-solves that board with more room).
    """
    nb = codes.shape[0]
    n = nbr.shape[0]
    hmask = hash_bits(cap)
    for b in prange(nb):
        tcode = np.empty(n, dtype=np.int64)
        tbit = np.empty(n, dtype=np.int64)
        tval = np.empty(n, dtype=np.int64)
        tbonus = np.empty(n, dtype=np.int64)
        _board_tiles(b, codes, kinds, lbit, lval, kbonus, tcode, tbit, tval, tbonus)
        nl = np.empty(n, dtype=np.int64)
        nbl = np.empty((n, 64), dtype=np.uint64)
        neighbour_tables(nbr, tcode, tbit, nl, nbl)
        htab = np.zeros(hmask + 1, dtype=np.int32)
        out_n[b] = search(dawg, acc, nbr, nl, nbl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult,
                          0, n, out_wid[b], out_path[b], out_plen[b], out_score[b], htab, hmask, 0)


@kernel
def count_batch(dawg, acc, nbr, codes, kinds, lbit, lval, kbonus, qc, uc, min_len, max_len, level, mult, cap,
                out_n, out_wid, out_path, out_plen, out_score):
    """:func:`solve_batch` serially (a reference for the parallel one, and a one-thread path)."""
    nb = codes.shape[0]
    n = nbr.shape[0]
    hmask = hash_bits(cap)
    tcode = np.empty(n, dtype=np.int64)
    tbit = np.empty(n, dtype=np.int64)
    tval = np.empty(n, dtype=np.int64)
    tbonus = np.empty(n, dtype=np.int64)
    nl = np.empty(n, dtype=np.int64)
    nbl = np.empty((n, 64), dtype=np.uint64)
    htab = np.zeros(hmask + 1, dtype=np.int32)
    for b in range(nb):
        _board_tiles(b, codes, kinds, lbit, lval, kbonus, tcode, tbit, tval, tbonus)
        neighbour_tables(nbr, tcode, tbit, nl, nbl)
        htab[:] = 0
        out_n[b] = search(dawg, acc, nbr, nl, nbl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult,
                          0, n, out_wid[b], out_path[b], out_plen[b], out_score[b], htab, hmask, 0)


@kernel
def compact(out_n, out_wid, out_path, out_plen, out_score):
    """Rows ``b`` of the per-board output buffers (``out_n[b]`` words each, ``>= 0``) as flat arrays."""
    total = 0
    for b in range(out_n.shape[0]):
        total += out_n[b]
    wid = np.empty(total, dtype=np.int32)
    path = np.empty((total, out_path.shape[2]), dtype=np.int8)
    plen = np.empty(total, dtype=np.int8)
    score = np.empty(total, dtype=np.int64)
    k = 0
    for b in range(out_n.shape[0]):
        for i in range(out_n[b]):
            wid[k] = out_wid[b, i]
            path[k] = out_path[b, i]
            plen[k] = out_plen[b, i]
            score[k] = out_score[b, i]
            k += 1
    return wid, path, plen, score
