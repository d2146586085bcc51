"""Letter-grid search kernels: depth-first search over the lexicon DAWG on a tile-adjacency bitboard.

A grid is ``nbr[t]`` (``uint64``: bit ``u`` set when tile ``u`` touches tile ``t``), so the Bookworm hex
board (52 tiles) and Boggle boards (16 or 25 tiles, 8 neighbours) run through the same code. Per board the
kernels take, for every tile:

``tcode``   letter index, or ``QU`` (the Qu tile: a two-letter edge Q then U), or ``HOLE`` (no tile)
``tbit``    the tile's first-letter bit (Q's bit for a Qu tile, 0 for a hole): children of a DAWG node are
            pruned with ``node_mask & tbit[u]`` before any edge is read
``tval``    the tile's letter value;  ``tbonus`` the tile's gem bonus

Words are numbered by their rank in the lexicon's sorted list: ``acc[p]`` (built once per lexicon by
:func:`word_rank_table`) is added along the DAWG edges walked, and at a terminal edge the sum minus one is
the word's index. A minimised DAWG merges suffixes, so the edge position does not identify a word; the rank
does, exactly, so words are deduplicated per board on the rank with a small open-addressing table.

Output per board (first-found order, which is deterministic: start tiles ascending, then neighbours in tile
order): word rank, one path (tile indices), its length in tiles, and the best score over every path that
spells the word (``(level + sum of values) * (letters + sum of gem bonuses) * mult``; the first path
reaching the best score is kept).
"""
from __future__ import annotations

import numpy as np
from numba import prange

from .._jit import kernel, pkernel
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
def neighbour_letters(nbr, tbit, nl):
    """``nl[t]``: OR of the first-letter bits of the neighbours of ``t``."""
    for t in range(nbr.shape[0]):
        m = nbr[t]
        x = np.int64(0)
        while m:
            u = lsb_index(m)
            m &= m - U64_1
            x |= tbit[u]
        nl[t] = x


@kernel
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


@kernel
def _candidates(dawg, node, t, used, nbr, nl, tbit):
    """Unused neighbours of ``t`` whose first letter is a child of ``node``."""
    m = np.int64(dawg[node])
    if (m & nl[t]) == 0:
        return U64_0
    free = nbr[t] & ~used
    cand = U64_0
    while free:
        u = lsb_index(free)
        b = free & (~free + U64_1)
        free ^= b
        if m & tbit[u]:
            cand |= b
    return cand


@kernel
def search(dawg, acc, nbr, nl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult, lo, hi,
           out_wid, out_path, out_plen, out_score, htab, hmask, n_out):
    """Depth-first search from start tiles ``lo..hi-1``, appending distinct words to the ``out_*`` arrays.

    ``n_out`` words are already there (and in ``htab``, an open-addressing table of size ``hmask + 1``
    holding output index + 1). Returns the new count, or -1 when ``out_wid`` is full (the caller retries
    with more room). The explicit stack is ``max_len + 1`` deep: every tile adds at least one letter.
    """
    cap = out_wid.shape[0]
    depth_cap = max_len + 1
    s_tile = np.empty(depth_cap, dtype=np.int64)
    s_node = np.empty(depth_cap, dtype=np.int64)
    s_rank = np.empty(depth_cap, dtype=np.int64)
    s_val = np.empty(depth_cap, dtype=np.int64)
    s_bon = np.empty(depth_cap, dtype=np.int64)
    s_len = np.empty(depth_cap, dtype=np.int64)
    s_cand = np.empty(depth_cap, dtype=np.uint64)
    for s in range(lo, hi):
        if tbit[s] == 0:
            continue
        e, add = _step(dawg, acc, 0, np.int64(tcode[s]), qc, uc)
        if e == 0:
            continue
        nlet = 2 if tcode[s] == QU else 1
        if nlet > max_len:
            continue
        d = 0
        used = U64_1 << np.uint64(s)
        s_tile[0] = s
        s_node[0] = e >> 1
        s_rank[0] = add
        s_val[0] = tval[s]
        s_bon[0] = tbonus[s]
        s_len[0] = nlet
        is_word = e & 1
        while True:
            # a new path of d + 1 tiles is on the stack: record it, then find its extensions
            if is_word and s_len[d] >= min_len:
                wid = s_rank[d] - 1
                score = (level + s_val[d]) * (s_len[d] + s_bon[d]) * mult
                h = ((wid * 2654435761) >> 7) & hmask
                while True:
                    slot = htab[h]
                    if slot == 0:
                        if n_out >= cap:
                            return -1
                        htab[h] = n_out + 1
                        out_wid[n_out] = wid
                        out_score[n_out] = score
                        out_plen[n_out] = d + 1
                        for k in range(d + 1):
                            out_path[n_out, k] = s_tile[k]
                        n_out += 1
                        break
                    j = slot - 1
                    if out_wid[j] == wid:
                        if score > out_score[j]:
                            out_score[j] = score
                            out_plen[j] = d + 1
                            for k in range(d + 1):
                                out_path[j, k] = s_tile[k]
                        break
                    h = (h + 1) & hmask
            if s_len[d] < max_len:
                s_cand[d] = _candidates(dawg, s_node[d], s_tile[d], used, nbr, nl, tbit)
            else:
                s_cand[d] = U64_0
            # advance to the next path: deepest level with a candidate left
            found = False
            while d >= 0:
                cm = s_cand[d]
                if cm == 0:
                    used ^= U64_1 << np.uint64(s_tile[d])
                    d -= 1
                    continue
                u = lsb_index(cm)
                s_cand[d] = cm & (cm - U64_1)
                code = np.int64(tcode[u])
                nlet = 2 if code == QU else 1
                if s_len[d] + nlet > max_len:
                    continue
                e, add = _step(dawg, acc, s_node[d], code, qc, uc)
                if e == 0:
                    continue
                s_tile[d + 1] = u
                s_node[d + 1] = e >> 1
                s_rank[d + 1] = s_rank[d] + add
                s_val[d + 1] = s_val[d] + tval[u]
                s_bon[d + 1] = s_bon[d] + tbonus[u]
                s_len[d + 1] = s_len[d] + nlet
                used |= U64_1 << np.uint64(u)
                d += 1
                is_word = e & 1
                found = True
                break
            if not found:
                break
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
    neighbour_letters(nbr, tbit, nl)
    out_wid = np.empty(cap, dtype=np.int32)
    out_path = np.empty((cap, max_len), dtype=np.int8)
    out_plen = np.empty(cap, dtype=np.int8)
    out_score = np.empty(cap, dtype=np.int64)
    hmask = hash_bits(cap)
    htab = np.zeros(hmask + 1, dtype=np.int32)
    k = search(dawg, acc, nbr, nl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult, 0, n,
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
    neighbour_letters(nbr, tbit, nl)
    hmask = hash_bits(cap)
    p_wid = np.empty((n, cap), dtype=np.int32)
    p_path = np.empty((n, cap, max_len), dtype=np.int8)
    p_plen = np.empty((n, cap), dtype=np.int8)
    p_score = np.empty((n, cap), dtype=np.int64)
    p_n = np.zeros(n, dtype=np.int64)
    for s in prange(n):
        htab = np.zeros(hmask + 1, dtype=np.int32)
        p_n[s] = search(dawg, acc, nbr, nl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult,
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
            h = ((np.int64(wid) * 2654435761) >> 7) & hmask
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
        neighbour_letters(nbr, tbit, nl)
        htab = np.zeros(hmask + 1, dtype=np.int32)
        out_n[b] = search(dawg, acc, nbr, nl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult,
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
    htab = np.zeros(hmask + 1, dtype=np.int32)
    for b in range(nb):
        _board_tiles(b, codes, kinds, lbit, lval, kbonus, tcode, tbit, tval, tbonus)
        neighbour_letters(nbr, tbit, nl)
        htab[:] = 0
        out_n[b] = search(dawg, acc, nbr, nl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult,
                          0, n, out_wid[b], out_path[b], out_plen[b], out_score[b], htab, hmask, 0)
