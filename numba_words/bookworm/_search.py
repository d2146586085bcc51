"""Letter-grid search kernels: depth-first search over the lexicon DAWG on a tile-adjacency bitboard.

A grid is ``nbr[t]`` (``uint64``: bit ``u`` set when tile ``u`` touches tile ``t``), so the Bookworm hex
board (52 tiles) and Boggle boards (16 or 25 tiles, 8 neighbours) run through the same code. Per board the
kernels take, for every tile:

``tcode``   letter index, or ``QU`` (the Qu tile: a two-letter edge Q then U), or ``HOLE`` (no tile)
``tbit``    the tile's first-letter bit (Q's bit for a Qu tile, 0 for a hole). Per board
            ``neighbour_tables`` derives ``nl[t]`` (letters next to ``t``: a node is expanded only on
            ``node_mask & nl[t]``; a child is kept only if it is a word or ``child_mask & nl[child]``) and
            ``nbl[t, code]`` (neighbours by tile code; the search reads its Qu column, and walks plain-letter
            neighbours directly, one speculative edge load each)
``tval``    the tile's letter value;  ``tbonus`` the tile's gem bonus

Words are numbered by their rank in the lexicon's sorted list: ``acc[p]`` (built once per lexicon by
``_tables.word_rank_table`` and carried in the packed DAWG of ``_tables.pack_dawg``) is added along the DAWG
edges walked, and at a terminal edge the sum minus one is the word's index. A minimised DAWG merges suffixes,
so the edge position does not identify a word; the rank does, exactly, so words are deduplicated per board
on the rank (a bitset over ranks plus a rank -> row table, both per thread; see :func:`search`).

Output per board, in first-found order (deterministic: start tiles ascending, then depth first, the
children of a node taken Qu tiles first, then plain-letter tiles by descending index: a LIFO stack): word
rank, one path (tile indices) and its length in tiles (path rows hold ``max_len`` entries; those past the
length are leftovers), and the best score over every path spelling the word (``(level + sum of values) *
(letters + sum of gem bonuses) * mult``; the first path reaching the best score is kept).

:func:`score_boards` is the score-only variant (total Boggle points of the distinct words; no output rows).

Every kernel here is serial and releases the GIL: batches run in parallel as lanes (contiguous ranges of
boards, or of one board's start tiles) on Python threads, each lane with its own output region and scratch
rows (see ``search.py``). A ``prange`` kernel would do the same work but cost seconds more of compilation
on every cold first call for each parallel entry point.
"""
from __future__ import annotations

import numpy as np

from .._jit import borrowed as _b, inline, ix, kernel
from ..bits import lsb_index, popcount
from ..lexicon._dawg import child_rank
from ._tables import NCOL, QCOL, QU

U64_1 = np.uint64(1)
U64_0 = np.uint64(0)


@kernel
def neighbour_tables(nbr, tcode, tbit, nl, nbl):
    """Per board: ``nl[t]`` = OR of the first-letter bits of the neighbours of ``t``; ``nbl[t, code]`` = the
    neighbours of ``t`` whose tile code is ``code`` (``nbl`` is cleared first; shape ``(n, NCOL)``,
    the Qu tile in column ``QCOL``)."""
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
                nbl[t, QCOL if tcode[u] == QU else tcode[u]] |= b
        nl[t] = x


@inline
def _slot(wid, hmask):
    """Home slot of word rank ``wid``: Fibonacci hashing, top 32 bits of the 64-bit product."""
    return np.int64((np.uint64(wid) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)) & hmask


@kernel
def search(pk, acc2, lay, nbr, nl, nbl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult, lo, hi,
           out_wid, out_path, out_plen, out_score, seen, idx, n_out, limit, budget):
    """Depth-first search from start tiles ``lo..hi-1``, appending distinct words to the ``out_*`` arrays.

    ``pk``/``acc2``/``lay``: the packed DAWG of ``_tables.pack_dawg``. Words go to ``out_*[n_out:limit]``.
    Distinct words by rank: bit ``wid`` of ``seen`` (``int64``, ``words // 64 + 1`` entries, all clear on
    entry and again on return: the bits this call set are cleared from its output rows) marks a word
    already written, at row ``idx[wid]`` (``int32``, ``words + 1`` entries, meaningful only where the bit
    is set). Returns the new count, -1 when ``limit`` is reached at a word (the caller retries with more
    room), or -2 when more than ``budget`` paths were visited (an adversarial lexicon: the number of paths
    that are prefixes grows exponentially with ``max_len``; the caller reports it).

    One flat LIFO stack of pending children (not a frame per level): an entry is the child's packed edge
    ``x`` and ``meta`` = tile | depth << 8 | letters << 16 | rank step << 24; popping one restores the path
    state of its parent level from per-level arrays (``s_used``, ``s_rank``, ...), so there is no
    exhausted-frame unwinding loop. Children are pushed branch-free: every free plain-letter neighbour's
    edge is loaded (when the node lacks that letter the load lands on a neighbouring edge: harmless, ``pk``
    has a spare slot at the end) and written at the top of the stack, and the top moves up only when the
    child is kept: the node has its letter and it is a word or one of its own children is spelled by some
    neighbour (below ``max_len``). Stack size: at most ``width`` pending children per level of the current
    path, ``max_len + 1`` levels (every tile adds at least one letter).

    The body is one function on purpose: helpers taking arrays, even inlined, leave atomic reference-count
    updates in the inner loop (measured at a quarter of the run time).
    """
    n = nbr.shape[0]
    depth_cap = max_len + 1
    width = 1
    plain = U64_0
    for t in range(n):
        width = max(width, popcount(nbr[t]))
        if tbit[t] != 0 and tcode[t] != QU:
            plain |= U64_1 << np.uint64(t)
    nbp = np.empty(n, dtype=np.uint64)  # neighbours showing a plain letter (not Qu, not a hole)
    for t in range(n):
        nbp[t] = nbr[t] & plain
    one = np.int64(1)
    root = lay[0]
    tsh = lay[1]
    lmask = (one << tsh) - 1
    bsh = lay[2]
    bmask = lay[3]
    ash = lay[4]
    amask = lay[5]
    packed = ash < 64
    # level state "before level c": index c (0 = empty path)
    s_used = np.zeros(depth_cap + 1, dtype=np.uint64)
    s_rank = np.zeros(depth_cap + 1, dtype=np.int64)
    s_val = np.zeros(depth_cap + 1, dtype=np.int64)
    s_bon = np.zeros(depth_cap + 1, dtype=np.int64)
    s_tile = np.zeros(max_len, dtype=np.int8)  # copied whole into an output row: a fixed-length copy
    st_x = np.empty((depth_cap + 1) * width + 1, dtype=np.int64)
    st_m = np.empty((depth_cap + 1) * width + 1, dtype=np.int64)
    n_out0 = n_out
    for s in range(lo, hi):
        if tbit[s] == 0:
            continue
        code = np.int64(tcode[s])
        nlet = 2 if code == QU else 1
        if nlet > max_len:
            continue
        c0 = qc if code == QU else code
        if (root >> c0) & 1 == 0:
            continue
        q = child_rank(root, c0)
        x = pk[q]
        add = ((x >> ash) & amask) if packed else np.int64(acc2[q])
        if code == QU:
            m = x & lmask
            if (m >> uc) & 1 == 0:
                continue
            q = ((x >> bsh) & bmask) + child_rank(m, uc)
            x = pk[q]
            add += ((x >> ash) & amask) if packed else np.int64(acc2[q])
        st_x[0] = x
        st_m[0] = s | (nlet << 16) | (add << 24)
        sp = 1
        while sp > 0:
            sp -= 1
            budget -= 1
            if budget < 0:
                for k in range(n_out0, n_out):
                    seen[out_wid[k] >> 6] = 0
                return -2
            x = st_x[ix(sp)]
            meta = st_m[ix(sp)]
            u = meta & 255
            c = (meta >> 8) & 255
            length = (meta >> 16) & 255
            used = s_used[ix(c)] | (U64_1 << np.uint64(u))
            rank = s_rank[ix(c)] + (meta >> 24)
            s_tile[ix(c)] = u
            s_used[ix(c + 1)] = used
            s_rank[ix(c + 1)] = rank
            sv = s_val[ix(c)] + tval[ix(u)]
            sb = s_bon[ix(c)] + tbonus[ix(u)]
            s_val[ix(c + 1)] = sv
            s_bon[ix(c + 1)] = sb
            if ((x >> tsh) & 1) & np.int64(length >= min_len):
                if n_out >= limit:
                    for k in range(n_out0, n_out):
                        seen[out_wid[k] >> 6] = 0
                    return -1
                # dedup by rank, branch-free: a word already on this board (its bit set) has row idx[wid];
                # the row written is that one when this path scores better, else the spare row n_out
                wid = rank - 1
                score = (level + sv) * (length + sb) * mult
                w = wid >> 6
                sw = seen[ix(w)]
                old = (sw >> (wid & 63)) & 1
                seen[ix(w)] = sw | (one << (wid & 63))
                j = n_out + ((np.int64(idx[wid]) - n_out) & -old)
                better = (old ^ 1) | np.int64(score > out_score[j])
                tgt = n_out + ((j - n_out) & -better)
                idx[wid] = j
                out_wid[tgt] = wid
                out_score[tgt] = score
                out_plen[tgt] = c + 1
                for k in range(max_len):
                    out_path[tgt, k] = s_tile[k]
                n_out += old ^ 1
            if length < max_len:
                mask = x & lmask
                if mask & nl[ix(u)]:
                    bb = (x >> bsh) & bmask
                    dm = lmask if length + 1 < max_len else 0  # a child at max_len is kept only as a word
                    mb = ((c + 1) << 8) | ((length + 1) << 16)
                    tiles = nbp[ix(u)] & ~used
                    while tiles:
                        v = lsb_index(tiles)
                        tiles &= tiles - U64_1
                        cv = tcode[ix(v)]
                        q = bb + child_rank(mask, cv)
                        x2 = pk[ix(q)]
                        add2 = ((x2 >> ash) & amask) if packed else np.int64(acc2[q])
                        st_x[ix(sp)] = x2
                        st_m[ix(sp)] = v | mb | (add2 << 24)
                        sp += ((mask >> cv) & 1) & np.int64((((x2 >> tsh) & 1) | (x2 & dm & nl[ix(v)])) != 0)
                    if (mask >> qc) & 1 and length + 2 <= max_len:
                        qtiles = nbl[u, QCOL] & ~used
                        q = bb + child_rank(mask, qc)
                        x2 = pk[ix(q)]
                        add2 = ((x2 >> ash) & amask) if packed else np.int64(acc2[q])
                        m2 = x2 & lmask
                        if qtiles and (m2 >> uc) & 1:
                            q = ((x2 >> bsh) & bmask) + child_rank(m2, uc)
                            x3 = pk[q]
                            add3 = add2 + (((x3 >> ash) & amask) if packed else np.int64(acc2[q]))
                            m3 = (x3 & lmask) if length + 2 < max_len else 0
                            t3 = (x3 >> tsh) & 1
                            mb = ((c + 1) << 8) | ((length + 2) << 16) | (add3 << 24)
                            while qtiles:
                                v = lsb_index(qtiles)
                                qtiles &= qtiles - U64_1
                                st_x[sp] = x3
                                st_m[sp] = v | mb
                                sp += np.int64((t3 | (m3 & nl[v])) != 0)
    for k in range(n_out0, n_out):
        seen[out_wid[k] >> 6] = 0
    return n_out


@kernel
def hash_bits(cap):
    """Mask of an open-addressing table of at least twice ``cap`` slots."""
    size = 16
    while size < 2 * cap:
        size *= 2
    return size - 1


@kernel
def tiles_into(pk, acc2, lay, nbr, nl, nbl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level, mult, cap, lo,
               hi, seen, idx, budget, p_wid, p_path, p_plen, p_score, p_n):
    """:func:`search` from each start tile ``s`` in ``lo..hi-1`` into its own rows ``p_*[s]`` (``p_n[s]``: the
    count, or -1 / -2 as :func:`search` returns). Lanes of one board's start tiles run this at once from
    several Python threads (the kernels release the GIL); :func:`merge_tiles` then joins them."""
    zero = np.int64(0)
    for s in range(lo, hi):
        p_n[s] = search(pk, acc2, lay, nbr, nl, nbl, tcode, tbit, tval, tbonus, qc, uc, min_len, max_len, level,
                        mult, s, s + 1, p_wid[s], p_path[s], p_plen[s], p_score[s], seen, idx, zero, cap, budget)


@kernel
def merge_tiles(p_wid, p_path, p_plen, p_score, p_n, cap):
    """The per-start-tile results of :func:`tiles_into` merged in start-tile order: the same result as one
    search over every start tile (first-found order; best path: the first reaching the best score).

    Returns ``(n, wid, path, plen, score)``; ``n == -1`` when a start tile or the merge overflows ``cap``,
    -2 when a start tile passed its path budget.
    """
    n = p_n.shape[0]
    max_len = p_path.shape[2]
    hmask = hash_bits(cap)
    out_wid = np.empty(cap, dtype=np.int32)
    out_path = np.empty((cap, max_len), dtype=np.int8)
    out_plen = np.empty(cap, dtype=np.int8)
    out_score = np.empty(cap, dtype=np.int64)
    htab = np.zeros(hmask + 1, dtype=np.int32)
    k = 0
    for s in range(n):
        if p_n[s] == -2:
            return -2, out_wid, out_path, out_plen, out_score
    for s in range(n):
        if p_n[s] < 0:
            return -1, out_wid, out_path, out_plen, out_score
        for i in range(p_n[s]):
            wid = p_wid[s, i]
            h = _slot(np.int64(wid), hmask)
            while True:
                slot = htab[h]
                j = slot - 1
                if slot == 0:
                    if k >= cap:
                        return -1, out_wid, out_path, out_plen, out_score
                    htab[h] = k + 1
                    out_wid[k] = wid
                    j = k
                    k += 1
                elif out_wid[j] != wid:
                    h = (h + 1) & hmask
                    continue
                elif p_score[s, i] <= out_score[j]:
                    break
                out_score[j] = p_score[s, i]
                out_plen[j] = p_plen[s, i]
                for c in range(max_len):
                    out_path[j, c] = p_path[s, i, c]
                break
    return k, out_wid, out_path, out_plen, out_score


@kernel
def run_boards(pk, acc2, lay, nbr, codes, kinds, lbit, lval, kbonus, qc, uc, min_len, max_len, level, mult, b0, b1,
               start, limit, hmask, counts, wid, path, plen, score, seen, idx, budget):
    """Boards ``codes[b0:b1]`` (tile codes) with ``kinds`` (kind indices) serially, their words appended to the
    flat output arrays from index ``start`` (never at or past ``limit``); ``counts[b]`` = words of board ``b``.

    ``lbit``/``lval`` map a tile code (0..63) to its first-letter bit and value, ``kbonus`` a kind to its
    gem bonus. One board holds at most ``(hmask + 1) // 2`` words; ``seen``/``idx`` are the dedup scratch
    of :func:`search`, ``budget`` its path budget per board. Returns ``(b_next, end, status)``: ``b_next < b1``
    when board ``b_next`` stopped (it wrote nothing that counts): ``status`` -1 when it did not fit (the caller
    makes room and resumes there), -2 when it passed the path budget; the words of boards ``b0..b_next-1``
    are ``[start, end)``.
    """
    n = nbr.shape[0]
    tcode = np.empty(n, dtype=np.int64)
    tbit = np.empty(n, dtype=np.int64)
    tval = np.empty(n, dtype=np.int64)
    tbonus = np.empty(n, dtype=np.int64)
    nl = np.empty(n, dtype=np.int64)
    nbl = np.empty((n, NCOL), dtype=np.uint64)
    per_board = (hmask + 1) // 2
    k = start
    for b in range(b0, b1):
        for t in range(n):
            c = np.int64(codes[b, t])
            tcode[t] = c
            tbit[t] = lbit[c]
            tval[t] = lval[c]
            tbonus[t] = kbonus[kinds[b, t]]
        neighbour_tables(_b(nbr), _b(tcode), _b(tbit), _b(nl), _b(nbl))  # (borrowed: no atomic reference count on
        # the grid's masks, which every lane shares: that cache line went from core to core on each board)
        r = search(_b(pk), _b(acc2), _b(lay), _b(nbr), _b(nl), _b(nbl), _b(tcode), _b(tbit), _b(tval), _b(tbonus), qc,
                   uc, min_len, max_len, level, mult, np.int64(0), n, _b(wid), _b(path), _b(plen), _b(score), _b(seen),
                   _b(idx), k, min(limit, k + per_board), budget)  # (borrowed: lanes share the tables and outputs)
        if r < 0:
            return b, k, r
        counts[b] = r - k
        k = r
    return b1, k, 0


# ---------------------------------------------------------------------------------------------- score only
@kernel
def score_boards(pk, acc2, lay, nbr, codes, lbit, qc, uc, min_len, max_len, points, b0, b1, seen, found, out, budget):
    """Score-only batch (the C++ Boggle solvers' measure): ``out[b]`` = sum of ``points[letters]`` over the
    distinct words of board ``codes[b]``, boards ``b0..b1-1`` serially. No paths or word lists are written.

    Same search as :func:`search` (same packed DAWG, flat stack, branch-free pushes) without the per-tile
    values and output rows, and the word test is branch-free too. Distinct words are told apart by rank
    with a bitset ``seen`` (one bit a lexicon word, ``words // 64 + 1`` entries, all clear on entry and on
    return; 22 KB for TWL06, cache-resident): a word is new when its bit is clear. ``found`` (one slot a
    lexicon word plus one: it is written on every visit) lists the ranks set on this board so only their
    bitset words are cleared afterwards. ``budget``: paths a board may visit. Returns -1, or the first board
    that passed the budget (``seen`` left clear; boards from there on are not scored).
    """
    n = nbr.shape[0]
    tcode = np.empty(n, dtype=np.int64)
    tbit = np.empty(n, dtype=np.int64)
    nl = np.empty(n, dtype=np.int64)
    nbl = np.empty((n, NCOL), dtype=np.uint64)
    nbp = np.empty(n, dtype=np.uint64)
    depth_cap = max_len + 1
    width = 1
    for t in range(n):
        width = max(width, popcount(nbr[t]))
    one = np.int64(1)
    root = lay[0]
    tsh = lay[1]
    lmask = (one << tsh) - 1
    bsh = lay[2]
    bmask = lay[3]
    ash = lay[4]
    amask = lay[5]
    packed = ash < 64
    s_used = np.zeros(depth_cap + 1, dtype=np.uint64)
    s_rank = np.zeros(depth_cap + 1, dtype=np.int64)
    st_x = np.empty((depth_cap + 1) * width + 1, dtype=np.int64)
    st_m = np.empty((depth_cap + 1) * width + 1, dtype=np.int64)
    for b in range(b0, b1):
        for t in range(n):
            cd = np.int64(codes[b, t])
            tcode[t] = cd
            tbit[t] = lbit[cd]
        neighbour_tables(_b(nbr), _b(tcode), _b(tbit), _b(nl), _b(nbl))  # (borrowed: no atomic reference count on
        # the grid's masks, which every lane shares: that cache line went from core to core on each board)
        plain = U64_0
        for t in range(n):
            if tbit[t] != 0 and tcode[t] != QU:
                plain |= U64_1 << np.uint64(t)
        for t in range(n):
            nbp[t] = nbr[t] & plain
        total = 0
        nf = 0
        left = budget
        for s in range(n):
            if tbit[s] == 0:
                continue
            code = tcode[s]
            nlet = 2 if code == QU else 1
            if nlet > max_len:
                continue
            c0 = qc if code == QU else code
            if (root >> c0) & 1 == 0:
                continue
            q = child_rank(root, c0)
            x = pk[q]
            add = ((x >> ash) & amask) if packed else np.int64(acc2[q])
            if code == QU:
                m = x & lmask
                if (m >> uc) & 1 == 0:
                    continue
                q = ((x >> bsh) & bmask) + child_rank(m, uc)
                x = pk[q]
                add += ((x >> ash) & amask) if packed else np.int64(acc2[q])
            st_x[0] = x
            st_m[0] = s | (nlet << 16) | (add << 24)
            sp = 1
            while sp > 0:
                sp -= 1
                left -= 1
                if left < 0:
                    for i in range(nf):
                        seen[found[i] >> 6] = 0
                    return b
                x = st_x[ix(sp)]
                meta = st_m[ix(sp)]
                u = meta & 255
                c = (meta >> 8) & 255
                length = (meta >> 16) & 255
                used = s_used[ix(c)] | (U64_1 << np.uint64(u))
                rank = s_rank[ix(c)] + (meta >> 24)
                s_used[ix(c + 1)] = used
                s_rank[ix(c + 1)] = rank
                # branch-free word test; when it fails, wid = rank <= the word count is still a bit of
                # ``seen`` (sized words // 64 + 1), read and rewritten unchanged
                term = ((x >> tsh) & 1) & np.int64(length >= min_len)
                wid = rank - term
                w = wid >> 6
                sw = seen[ix(w)]
                new = term & (((sw >> (wid & 63)) & 1) ^ 1)
                seen[ix(w)] = sw | (new << (wid & 63))
                found[ix(nf)] = wid
                nf += new
                total += points[ix(length)] & -new
                if length < max_len:
                    mask = x & lmask
                    bb = (x >> bsh) & bmask
                    if mask & nl[ix(u)]:
                        dm = lmask if length + 1 < max_len else 0
                        mb = ((c + 1) << 8) | ((length + 1) << 16)
                        tiles = nbp[ix(u)] & ~used
                        while tiles:
                            v = lsb_index(tiles)
                            tiles &= tiles - U64_1
                            cv = tcode[ix(v)]
                            q = bb + child_rank(mask, cv)
                            x2 = pk[ix(q)]
                            add2 = ((x2 >> ash) & amask) if packed else np.int64(acc2[q])
                            st_x[ix(sp)] = x2
                            st_m[ix(sp)] = v | mb | (add2 << 24)
                            sp += ((mask >> cv) & 1) & np.int64((((x2 >> tsh) & 1) | (x2 & dm & nl[ix(v)])) != 0)
                        if (mask >> qc) & 1 and length + 2 <= max_len:
                            qtiles = nbl[u, QCOL] & ~used
                            q = bb + child_rank(mask, qc)
                            x2 = pk[ix(q)]
                            add2 = ((x2 >> ash) & amask) if packed else np.int64(acc2[q])
                            m2 = x2 & lmask
                            if qtiles and (m2 >> uc) & 1:
                                q = ((x2 >> bsh) & bmask) + child_rank(m2, uc)
                                x3 = pk[q]
                                add3 = add2 + (((x3 >> ash) & amask) if packed else np.int64(acc2[q]))
                                m3 = (x3 & lmask) if length + 2 < max_len else 0
                                t3 = (x3 >> tsh) & 1
                                mb = ((c + 1) << 8) | ((length + 2) << 16) | (add3 << 24)
                                while qtiles:
                                    v = lsb_index(qtiles)
                                    qtiles &= qtiles - U64_1
                                    st_x[sp] = x3
                                    st_m[sp] = v | mb
                                    sp += np.int64((t3 | (m3 & nl[v])) != 0)
        for i in range(nf):
            seen[found[i] >> 6] = 0
        out[b] = total
    return -1
