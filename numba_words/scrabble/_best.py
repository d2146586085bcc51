"""The best play by word groups (racks of up to two blanks), and :func:`best`, the best-play kernel that picks a
search by rack.

The walk (:func:`._movegen.search_best`) follows the DAWG from each start, and with blanks tries most letters on
every empty square. Here the spans ``s..e`` of every start (:func:`._movegen._starts_best`, with their bounds)
are grouped by line, the tiles they cover and the new tiles they need: the spans of a group have one length and
one multiset of board letters, so each set of rack tiles (a sub-rack, :func:`_sub_racks`) looks its words up
once in the word map (:func:`._tables.wmap_table`) for every start of the group: the sub-rack + the group's
tiles with the tag of the length (one blank: the one-short keys, whose words hold the blank's letter; two
blanks: the one-short keys of the sub-rack + each letter ``c`` a blank may stand for, a word found through its
lower blank letter kept). Each word is then tried on each start of the group (board letters, cross-checks) and
scored with its blanks on the squares of their letters where they cost least.

Groups are walked by bound (the best bound of their spans), high first; within a group the sub-racks run by
leave value, high first, each bounded by the group's score bound and, before its lookup, by its own tile values
on the group's premiums (the most of each premium any span of the group has). Ties go to the first play in
generation order (:func:`._movegen._earlier`), so the best play is the walk's, as a stable sort of every play.

Blank-only squares: an empty square whose cross-check allows none of the rack's real tiles takes a blank, so a
span with ``j`` of them plays at least ``j`` blanks. Its group's sub-racks start at that many blanks, and by
equity its bound holds the best leave that plays as many (``lw`` rows 2, 3 of :func:`._movegen._starts_best`):
keeping the blanks is what makes most leaves of a blank rack worth the most. Best by equity, alternating
processes: one blank 0.85x its time, two blanks 0.94-0.97x (by score about the same time).

Each sub-rack's prefix sums of tile values come from the sub-rack one tile smaller (counted up like an odometer,
the tile that went up is the new sub-rack's highest): a shifted row of 8 additions, where summing its tiles ran
a loop a letter whose trip counts mispredicted (API, positions in turn, alternating: by equity 0.95x the time
without a blank, 0.82x with one; by score 0.93x and 0.93x; two blanks about the same).

Kernel alone, one thread, the positions of ``data/scrabble/twl06_bench.cgp`` by rack class in turn: one blank
61-73 us with the walk's per-span word mode before this search, 39-40 us here (by score, by equity from the
exchange floor); two blanks 20-34 -> 13-19 us. Without a blank, on 231 positions of self-play games taken in turn
(by equity, from the floor), the walk takes 48 us and this search 46 (34 against 45 in mid-game): self-play runs
13% faster with it. The walk keeps racks of three or more blanks (variants that have them): its cost grows with
the blanks, this search's lookups with their letters.
"""
from __future__ import annotations

import numpy as np

from .._jit import borrowed as _b, inline, kernel, prefetch
from ..bits import lsb_index, msb_index, popcount
from ._movegen import (_WPOW, NEG, REC, _count_up, _earlier, _emit, _exchange_floor,
                       _starts_best, equity_obj, kheap_pop, kheapify, score_obj, search_best)
from ._tables import EMPTY, MSET_HASH, SIZE, kadd, ksub, mset2_has, mset_has, mset_hint, mset_tag, wmap_bucket, wmap_find, wmap_hint, wmap_letter


@kernel
def _sub_racks(counts, lval, nblank, eqv, stride, lfull):
    """``(sizes, keys, prefix, leaves, letters, co, cofs, codes)`` of every sub-multiset of the rack's real tiles
    (counted up over its distinct letters, high values first; ``keys``: multiset keys; ``prefix[idx, j]``: the sum
    of its ``j`` highest tile values, ``j`` = 0..8; ``leaves[idx, b]``: the objective part ``eqv`` of the leave
    when that sub-rack and ``b`` blanks are played, :func:`best`'s ``obj``; ``letters``: bit mask of its letters;
    ``co``, ``cofs``: those pairs by size, see below; ``codes``: the sum of its letter codes)."""
    # the rack's distinct letters by value, high first: a sub-rack's values are then its letters' in that order
    # (scratch arrays as rows of a few allocations: each costs ~20-40 ns, and a search made ~45)
    w8 = np.zeros((6, 8), np.int64)
    lets = w8[0]
    cnts = w8[1]
    nl = 0
    for c in range(32):
        if counts[c] > 0 and nl < 8:
            j = nl
            while j > 0 and lval[lets[j - 1]] < lval[c]:
                lets[j] = lets[j - 1]
                cnts[j] = cnts[j - 1]
                j -= 1
            lets[j] = c
            cnts[j] = counts[c]
            nl += 1
    nsub = 1
    for j in range(nl):
        nsub *= cnts[j] + 1
    sv = np.empty((4, nsub), np.int64)
    sz = sv[0]
    sk = sv[1]
    sm = sv[2]
    scs = sv[3]
    spre = np.empty((nsub, 9), np.int64)
    sl = np.empty((nsub, 3), np.int64)
    # the sub-racks counted up like an odometer (digit j: copies of letter j)
    dig = w8[2]
    hv = w8[3]
    dli = w8[4]
    step = w8[5]  # digit j's step in idx
    stp = np.int64(1)
    for j in range(nl):
        hv[j] = MSET_HASH[lets[j]]
        dli[j] = -stride[lets[j] + 1]
        step[j] = stp
        stp *= cnts[j] + 1
    n = np.int64(0)
    key = np.int64(0)
    li = lfull
    msk = np.int64(0)
    for j in range(9):
        spre[0, j] = 0
    scs[0] = 0
    t = np.int64(0)
    for idx in range(nsub):
        sz[idx] = n
        sk[idx] = key
        sm[idx] = msk
        if idx > 0:
            # the digits below t are 0 and digit t went up: this sub-rack is the one ``step[t]`` before it with one
            # more ``lets[t]``, now its highest tile, so its prefix sums are that one's shifted by a tile
            base = idx - step[t]
            v = lval[lets[t]]
            spre[idx, 0] = 0
            for j in range(8):
                spre[idx, j + 1] = spre[base, j] + v
            scs[idx] = scs[base] + lets[t]
        for b in range(3):
            sl[idx, b] = eqv[li - b * stride[0]] if b <= nblank else NEG
        t, dn, dk, ds = _count_up(dig, cnts, hv, dli, nl)
        n += dn
        key = kadd(key, dk)
        li += ds
        for j in range(min(t + 1, nl)):  # the letters the sub-rack holds changed among digits 0..t only
            msk &= ~(np.int64(1) << lets[j])
            msk |= np.int64(dig[j] > 0) << lets[j]
    # the (sub-rack, blanks) pairs by tiles played t and blanks b, each group by leave part, high first: pair
    # ``co[j] = 4 * idx + b``, group ``g = 3 * t + b`` in ``co[cofs[g]:cofs[g + 1]]``
    nb2 = min(nblank, 2) + 1
    npr = nsub * nb2
    buf = np.empty((5, npr), np.int64)  # rows 0-3: pairs and their keys, twice (passes read one, write the other)
    co = buf[4]
    cs = np.zeros((3, 65), np.int64)
    cofs = cs[0, :3 * SIZE + 4]
    for idx in range(nsub):
        for b in range(nb2):
            cofs[3 * (sz[idx] + b) + b + 1] += 1
    for g in range(3 * SIZE + 3):
        cofs[g + 1] += cofs[g]
    # the pairs sorted by leave part, high first (a stable radix sort, 6 bits a pass: an insertion sort per group
    # mispredicted a branch per pair), then dealt to their groups in that order
    vmax = NEG
    vmin = -NEG
    for idx in range(nsub):
        for b in range(nb2):
            vmax = max(vmax, sl[idx, b])
            vmin = min(vmin, sl[idx, b])
    j = 0
    for idx in range(nsub):
        for b in range(nb2):
            buf[0, j] = 4 * idx + b
            buf[1, j] = vmax - sl[idx, b]
            j += 1
    rng = vmax - vmin
    src = 0
    cnt = cs[2]
    sh = 0
    while (rng >> sh) != 0:
        for h in range(65):
            cnt[h] = 0
        for j in range(npr):
            cnt[((buf[src + 1, j] >> sh) & 63) + 1] += 1
        for h in range(64):
            cnt[h + 1] += cnt[h]
        dst = 2 - src
        for j in range(npr):
            h = (buf[src + 1, j] >> sh) & 63
            buf[dst, cnt[h]] = buf[src, j]
            buf[dst + 1, cnt[h]] = buf[src + 1, j]
            cnt[h] += 1
        src = dst
        sh += 6
    fill = cs[1, :3 * SIZE + 3]
    for j in range(npr):
        c = buf[src, j]
        g = 3 * (sz[c >> 2] + (c & 3)) + (c & 3)
        co[cofs[g] + fill[g]] = c
        fill[g] += 1
    return sz, sk, spre, sl, sm, co, cofs, scs


BINGO_FIRST = np.int64(1) << 54
"""Subtracted from a heap key of :func:`search_words` to pop its group before every group without it (bounds
are below ``2 ** 40``, keys ``-bound * 8192 + group``)."""


@inline
def _leave_bound(lw, no_tile, kept, nbo):
    """The leave part of :func:`._movegen._starts_best`'s bound of a span (``lw``: its leave bounds by row): keeping
    ``kept`` tiles, on a span holding no tile or some, with ``nbo`` squares that only a blank fits."""
    lb = lw[np.int64(no_tile), kept]
    if nbo > 0:
        lb = min(lb, lw[1 + min(nbo, 2), kept])
    return lb


@kernel
def search_words(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, span, empty_board, mtab,
                 went, wdir, obj, out, n0, floor=NEG):
    """The best play by ``obj`` of a rack with at most two blanks (see the module) into row 0 of ``out`` (:data:`REC`
    bytes): ``(n, value)``, ``n`` = 1 or 0 when there is none; ``n0`` = 1: only a play reaching the best
    exchange's objective (as :func:`._movegen.search_best`). ``floor`` above :data:`NEG`: a yes/no question
    instead, is there a play of objective above ``floor``? The walk prunes at the floor and stops at the first
    such play: ``(1, its value)`` with it in row 0, else ``(0, floor)`` (rack inference asks it of every rack). Arguments as :func:`._movegen.search_best`'s, but of
    the word tables (``wtabs``) only the three it reads, ``wtabs[0]``, ``[1]``, ``[3]``, and not the DAWG and reach
    table (from Python each array costs the dispatch ~0.05 us, the tuple of five ~0.4 us)."""
    eqv, stride, scale, lfull, opv, use_opv = obj
    # (the arguments passed on as borrowed views: each array passed costs an atomic reference-count pair else)
    starts, m, endbs, lbest, nwb, lpf, lmk, lw = _starts_best(
        _b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm), _b(wm), _b(lval), _b(counts), nblank, rack_size, bingo,
        _b(span), empty_board, (_b(eqv), _b(stride), scale, lfull, _b(opv), use_opv), _b(mtab))
    n_rack = nblank
    for c in range(32):
        n_rack += counts[c]
    sz, sk, spre, sl, sm, co, cofs, scs = _sub_racks(_b(counts), _b(lval), nblank, _b(eqv), _b(stride), lfull)
    # the (start, end) pairs grouped by (line, tiles covered, tiles played): one word lookup per sub-rack serves
    # every start of a group. A line's groups are numbered through ``tg[1, h]`` (``tg[0, h]``: the line that set it),
    # ``h`` = (first tile + 1, last tile + 1, tiles played) in 4 + 4 + 3 bits (0, 0, k: a span of empty squares)
    npairs = np.int64(0)
    for x in range(m):
        npairs += popcount(starts[3, x])
    cap = max(npairs, 1)
    # per group: a member's start index (the group's line, length, tiles from it), its end, the members' start
    # squares, their best bound (one array: each allocation costs ~0.1 us)
    gr = np.empty((5, cap + 1), np.int64)  # (row 4: the heap below)
    gx, ge, gsm, gb = 0, 1, 2, 3
    # the scratch arrays below in one allocation (each costs ~20-40 ns; a search made ~45)
    ws = np.empty(2 * 2048 + 2 * SIZE * SIZE + 2 * SIZE + 2 * SIZE * (SIZE + 1) * 2 + 13 * (SIZE + 1) + SIZE, np.int64)
    at = 0
    tg = ws[at:at + 2 * 2048].reshape((2, 2048))
    at += 2 * 2048
    for h in range(2048):
        tg[0, h] = -1
    xof = ws[at:at + 2 * SIZE * SIZE]
    at += 2 * SIZE * SIZE
    ng = np.int64(0)
    # spans with squares that only a blank fits (``lmk[line, 7]``) take a blank on each: by equity their bound has
    # the best leave that plays as many (by score every leave is worth the same)
    ref = eqv.shape[0] > 1
    for x in range(m):
        d = starts[0, x]
        i = starts[1, x]
        s = starts[2, x]
        line = d * SIZE + i
        xof[line * SIZE + s] = x
        o = occ[d, i]
        rbl = lmk[line, 7] if ref else np.int64(0)
        rest = starts[3, x]
        lo_s = (np.int64(1) << s) - 1
        while rest != 0:
            e = lsb_index(rest)
            rest &= rest - 1
            msk = ((np.int64(1) << (e + 1)) - 1) ^ lo_s
            til = o & msk
            k = popcount(~o & msk)
            h = k
            if til != 0:
                h += (lsb_index(til) + 1) * 128 + (msb_index(til) + 1) * 8
            bd = endbs[x, e]
            if rbl != 0 and rbl & msk != 0:  # squares that only a blank fits: the leave bound of as many played
                lbr = _leave_bound(lw, til == 0, n_rack - k, popcount(rbl & msk))
                if lbr == NEG:
                    continue
                bd += lbr - lw[np.int64(til == 0), n_rack - k]
            if tg[0, h] != line:
                tg[0, h] = line
                tg[1, h] = ng
                gr[gx, ng] = x
                gr[ge, ng] = e
                gr[gsm, ng] = np.int64(1) << s
                gr[gb, ng] = bd
                ng += 1
            else:
                g = tg[1, h]
                gr[gsm, g] |= np.int64(1) << s
                if bd > gr[gb, g]:
                    gr[gb, g] = bd
    hk = gr[4]
    # by equity with two blanks, the groups that play the whole rack first (each by its bound), then the others: a
    # bingo is most often the best play of such a rack, and found first it bounds the rest, whose leaves keep the
    # blanks (their bounds came first, and a third of their lookups were below the bingo found later)
    first = nblank >= 2 and ref
    for g in range(ng):  # (groups <= pairs <= 2 * 15 * 15 * 15 < 8192; bounds < 2 ** 40)
        hk[g] = -gr[gb, g] * 8192 + g
        if first:
            x0 = gr[gx, g]
            e0 = gr[ge, g]
            msk = ((np.int64(1) << (e0 + 1)) - 1) ^ ((np.int64(1) << starts[2, x0]) - 1)
            if popcount(~occ[starts[0, x0], starts[1, x0]] & msk) == rack_size:
                hk[g] -= BINGO_FIRST
    hn = ng
    kheapify(_b(hk), hn)
    lst = ws[at:at + 2 * SIZE]  # per line: whether lkc below is filled (when a group of it is popped)
    at += 2 * SIZE
    for h in range(2 * SIZE):
        lst[h] = 0
    lkc = ws[at:at + 2 * SIZE * (SIZE + 1) * 2].reshape((2 * SIZE, SIZE + 1, 2))
    at += 2 * SIZE * (SIZE + 1) * 2
    stk = ws[at:at + 13 * (SIZE + 1)].reshape((13, SIZE + 1))
    at += 13 * (SIZE + 1)
    wl = ws[at:at + SIZE]
    # a group's sub-racks to look up: key, sub-rack, bound, the lower blank's letter (two blanks); bits found
    cand = np.empty((9, (32 if nblank >= 2 else 1) * (len(sz) + 1)), np.int64)  # (two blanks: a key a letter)
    ck, ci, cv, cl0, hb, hh = 0, 1, 2, 3, 4, 5
    xb = cand[6:9]  # (two blanks: the keys that pass the two-short bits)
    n = n0
    bscore = NEG
    if n0 == 1:
        bscore = _exchange_floor(lbest, n_rack, out)
    stop = floor > NEG
    if stop:  # (the floor as a found play: everything below it is pruned)
        n = 1
        bscore = max(bscore, floor)
    while hn > 0:
        key, hn = kheap_pop(_b(hk), hn)
        g = key & 8191
        bound = -(key >> 13)
        if bound > BINGO_FIRST >> 14:  # (a whole-rack group of a blank rack: the others come after)
            bound -= BINGO_FIRST >> 13
            if n > 0 and bound < bscore:
                continue
        if n > 0 and bound < bscore:
            break
        x0 = gr[gx, g]
        d = starts[0, x0]
        i = starts[1, x0]
        line = d * SIZE + i
        s0 = starts[2, x0]
        e0 = gr[ge, g]
        L = e0 - s0 + 1
        o = occ[d, i]
        if lst[line] == 0:  # the line's prefix sums of its tiles' multiset keys and letter codes
            lst[line] = 1
            lkc[line, 0, 0] = 0
            lkc[line, 0, 1] = 0
            for q in range(SIZE):
                c = np.int64(lines[d, i, q])
                lkc[line, q + 1, 0] = lkc[line, q, 0]
                lkc[line, q + 1, 1] = lkc[line, q, 1]
                if c != EMPTY:
                    lkc[line, q + 1, 0] = kadd(lkc[line, q + 1, 0], MSET_HASH[c])
                    lkc[line, q + 1, 1] += c
        msk = ((np.int64(1) << (e0 + 1)) - 1) ^ ((np.int64(1) << s0) - 1)
        k = popcount(~o & msk)
        til = o & msk != 0
        fk = ksub(lkc[line, e0 + 1, 0], lkc[line, s0, 0])
        fc = lkc[line, e0 + 1, 1] - lkc[line, s0, 1]
        smask = gr[gsm, g]
        # the members' score bound (scaled; their bounds less their leave parts) and the fewest blanks a member
        # needs (squares that no real rack tile fits: :func:`_leave_bound`), below
        lbp = lbest[n_rack - k] if til else nwb[n_rack - k]
        gs = gr[gb, g] - lbp
        rbg = lmk[line, 7]
        bmin = np.int64(0)
        if rbg != 0:
            bmin = np.int64(SIZE)
            if ref:  # (the group's bound holds the members' leave bounds: their score bound from endbs)
                gs = NEG
        # the members' premium profile (maxima, from the line's masks and sums of :func:`._movegen._starts_best`: its
        # spans hold no square that no rack tile fits, where those skip) and their empty squares' cross-checks
        ccu = np.int64(0)
        pb = np.int64(0)
        pW = np.int64(1)
        p2 = p3 = e1 = e2 = e3 = np.int64(0)
        mm = smask
        while mm != 0:
            s = lsb_index(mm)
            mm &= mm - 1
            msk = ((np.int64(1) << (s + L)) - 1) ^ ((np.int64(1) << s) - 1)
            W = _WPOW[popcount(lmk[line, 2] & msk), popcount(lmk[line, 3] & msk)]
            emp = ~o & msk
            while emp != 0:
                ccu |= cc[d, i, lsb_index(emp)]
                emp &= emp - 1
            pb = max(pb, W * (lpf[line, s + L, 0] - lpf[line, s, 0]) + lpf[line, s + L, 1] - lpf[line, s, 1])
            pW = max(pW, W)
            p2 = max(p2, popcount(lmk[line, 0] & msk))
            p3 = max(p3, popcount(lmk[line, 1] & msk))
            e1 = max(e1, popcount(lmk[line, 4] & msk))
            e2 = max(e2, popcount(lmk[line, 5] & msk))
            e3 = max(e3, popcount(lmk[line, 6] & msk))
            if rbg != 0:
                nbo = popcount(rbg & msk)
                bmin = min(bmin, nbo)
                if ref:
                    gs = max(gs, endbs[xof[line * SIZE + s], s + L - 1] - lbp)
        pb += bingo if k == rack_size else 0
        for b in range(bmin, min(nblank, 2) + 1):
            if k - b < 0:
                break
            grp = 3 * k + b
            # the sub-racks that pass the bounds and their keys first, then their bits tested in one tight loop
            # (the bit sets are larger than the caches: their loads overlap there), then the words of the hits
            nc = 0
            for jc in range(cofs[grp], cofs[grp + 1]):
                idx = co[jc] >> 2
                lv = sl[idx, b]
                if n > 0 and gs + lv < bscore:
                    break
                if sm[idx] & ~ccu != 0:
                    continue
                bv = scale * (pb + pW * (spre[idx, k - b] + spre[idx, p2] + spre[idx, p3]) + spre[idx, e1]
                              + spre[idx, e2] + spre[idx, e3]) + lv
                if n > 0 and bv < bscore:
                    continue
                cand[ck, nc] = kadd(kadd(fk, sk[idx]), mset_tag(L, min(b, 1)))
                if b < 2:
                    mset_hint(mtab, cand[ck, nc])
                    wmap_hint(wdir, cand[ck, nc])
                cand[ci, nc] = idx
                cand[cv, nc] = bv
                cand[cl0, nc] = 0
                nc += 1
            if b == 2:  # the two-short bits, then one key per letter the lower blank may stand for
                for t in range(nc):
                    cand[hb, t] = mset2_has(mtab, cand[ck, t])
                nh = 0
                for t in range(nc):
                    if cand[hb, t]:
                        xb[0, nh] = cand[ck, t]
                        xb[1, nh] = cand[ci, t]
                        xb[2, nh] = cand[cv, t]
                        nh += 1
                nc = 0
                for t in range(nh):
                    cl = ccu
                    while cl != 0:
                        c0 = lsb_index(cl)
                        cl &= cl - 1
                        cand[ck, nc] = kadd(xb[0, t], MSET_HASH[c0])
                        cand[ci, nc] = xb[1, t]
                        cand[cv, nc] = xb[2, t]
                        cand[cl0, nc] = c0
                        nc += 1
            for t in range(nc):
                cand[hb, t] = mset_has(mtab, cand[ck, t])
            # the hits' word-map buckets, then their entries, each in a loop of its own: their loads (mostly
            # misses of the last cache level) overlap, rather than two in turn per hit
            nh = 0
            for t in range(nc):
                if cand[hb, t]:
                    cand[ck, nh] = cand[ck, t]
                    cand[ci, nh] = cand[ci, t]
                    cand[cv, nh] = cand[cv, t]
                    cand[cl0, nh] = cand[cl0, t]
                    nh += 1
            for t in range(nh):
                cand[hb, t], cand[hh, t] = wmap_bucket(wdir, cand[ck, t])
                prefetch(went, cand[hb, t] * went.shape[1])
            for t in range(nh):
                cand[hb, t], cand[hh, t] = wmap_find(went, cand[hb, t], cand[hh, t], cand[ck, t])
            for t in range(nh):
                idx = cand[ci, t]
                lv = sl[idx, b]
                if n > 0 and gs + lv < bscore:
                    break
                if n > 0 and cand[cv, t] < bscore:
                    continue
                csum = fc + scs[idx]
                c0 = cand[cl0, t]
                for j in range(cand[hb, t], cand[hh, t]):
                    tsum = np.int64(0)
                    for q in range(L):
                        wl[q] = wmap_letter(went, j, q)
                        tsum += wl[q]
                    # the blanks' letters
                    c1 = np.int64(-1)
                    c2 = np.int64(-1)
                    if b == 0:
                        if tsum != csum:
                            continue
                    elif b == 1:
                        c1 = tsum - csum
                    else:
                        c1 = c0
                        c2 = tsum - csum - c0
                        if c2 < c1:  # found through the other blank's letter
                            continue
                    mm = smask
                    while mm != 0:
                        s = lsb_index(mm)
                        mm &= mm - 1
                        e = s + L - 1
                        x = xof[line * SIZE + s]
                        if rbg != 0:
                            nbo = popcount(rbg & ((np.int64(1) << (e + 1)) - 1) & ~((np.int64(1) << s) - 1))
                            if nbo > b:  # a square no real rack tile fits for each blank
                                continue
                        if n > 0 and endbs[x, e] - lbp + lv < bscore:
                            continue
                        ok = True
                        ms = np.int64(0)
                        W = np.int64(1)
                        xsum = np.int64(0)
                        nm = np.int64(0)
                        opn = np.int64(0)
                        for q in range(s, e + 1):
                            c = wl[q - s]
                            if lines[d, i, q] != EMPTY:
                                if np.int64(lines[d, i, q]) != c:
                                    ok = False
                                    break
                                ms += fv[d, i, q]
                            else:
                                if (cc[d, i, q] >> c) & 1 == 0:
                                    ok = False
                                    break
                                lvq = lval[c] * lm[d, i, q]
                                ms += lvq
                                W *= wm[d, i, q]
                                if xs[d, i, q] >= 0:
                                    xsum += (xs[d, i, q] + lvq) * wm[d, i, q]
                                nm |= np.int64(1) << (q - s)
                                if use_opv:
                                    opn += opv[q, c]
                        if not ok:
                            continue
                        if d == 1 and k == 1 and xs[d, i, s + lsb_index(nm)] >= 0:
                            continue
                        # the blanks: on the squares of their letters where they cost least (ties: the latest)
                        bm = np.int64(0)
                        loss = np.int64(0)
                        for bl in range(b):
                            cb = c1 if bl == 0 else c2
                            bestq = np.int64(-1)
                            bestl = np.int64(0)
                            for q in range(s, e + 1):
                                if wl[q - s] == cb and (nm >> (q - s)) & 1 and (bm >> (q - s)) & 1 == 0:
                                    lq = lval[cb] * lm[d, i, q]
                                    lq = lq * W + (lq * wm[d, i, q] if xs[d, i, q] >= 0 else 0)
                                    if bestq < 0 or lq <= bestl:
                                        bestq = q
                                        bestl = lq
                            if bestq < 0:
                                ok = False
                                break
                            bm |= np.int64(1) << (bestq - s)
                            loss += bestl
                        if not ok:
                            continue
                        score = ms * W + xsum - loss + (bingo if k == rack_size else 0)
                        val = scale * score + lv + opn
                        if val < bscore or (stop and val == floor):
                            continue
                        for q in range(L):
                            stk[9, q] = wl[q]
                        if stop or n == 0 or val > bscore or _earlier(out, d, i, s, L - 1, stk, bm):
                            bscore = val
                            _emit(out, np.int64(0), d, i, s, L, score, k, stk, bm, nm)
                            n = 1
                            if stop:
                                return np.int64(1), val
    if stop:
        return np.int64(0), floor
    if n0 == 1 and out[3] == 0:
        return np.int64(0), bscore
    return min(n, 1), bscore


@kernel
def best(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, dawg, span, empty_board,
         reach, wtabs, obj, exchange_floor):
    """The best play only: ``(n, out, value)``, ``n`` = 1 and the play in row 0 of ``out`` (:data:`REC` bytes, the
    layout of every play row) with its objective ``value``, or ``n`` = 0 when there is no play (with
    ``exchange_floor``: none of objective at least the best exchange's), for callers in kernels: :func:`search_words`
    for a rack with at most two blanks, else the walk, :func:`._movegen.search_best`.

    The objective (``obj = (eqv, stride, scale, lfull, opv, use_opv)``) is ``scale * score + eqv[kept] (+
    opening)``: ``kept`` the mixed-radix index of the tiles left on the rack (``lfull`` for the whole rack, each
    placed tile subtracts ``stride[0]`` for a blank, ``stride[1 + letter]`` else), with ``use_opv``
    ``opv[square, letter]`` added per tile placed (the opening penalty, <= 0, which the bounds leave out).
    ``eqv`` of one entry with ``stride`` all zero: ``eqv[0]`` for every play (:data:`SCORE_OBJ`-like; the score).
    Ties go to the first play in generation order, as a stable sort of every play by that value.

    Every (line, start) is bounded from above first (fixed letters + the rack's best values on the best letter
    premiums, times the best word premiums, + every possible cross word, + bingo); starts are then walked in
    decreasing bound order and the search stops once the next bound cannot beat the best score found.

    End bounds: a play covering exactly ``s..e`` puts new tiles on all its empty squares, so with ``W`` the
    product of their word premiums its score is ``W * fixed + sum(cross tiles * their word premium) +
    sum(v_q * lm_q * (W + c_q)) (+ bingo)``, ``c_q`` the square's word premium when it makes a cross word, else
    0. The last sum is bounded by the smaller of: the rack's values sorted high first on ``lm`` and on
    ``lm * c`` sorted high first (rearrangement, each part kept sorted as squares are added), and each square's
    best rack letter allowed by its cross-check. Ends past a square no rack tile can fill are dropped. A per-play
    bonus bounded above (a leave value) would add its maximum to every end bound.

    Objective bounds: an end with ``k`` new tiles keeps ``n_rack - k`` tiles, so its bound is ``scale *`` the score
    bound + the best ``eqv`` of a leave of that size; on a span that holds no tile, of a leave whose ``k`` tiles
    played spell a word by themselves (no such set: the end is dropped). :func:`search_words` bounds each set of
    tiles played with its exact leave.

    Whole-rack filter (``mtab``, :func:`_tables.mset_table`): the end that needs every rack tile is dropped
    unless rack + the span's tiles spell a word (with one blank: a word one letter longer), checked when that
    start first comes on top of the walk's heap; with blanks the walk applies the filter as blanks are placed.
    Without it those spans' bingo bonus sends most racks through a long fruitless walk.
    """
    out = np.empty(REC, np.uint8)
    n0 = np.int64(1 if exchange_floor else 0)
    if nblank <= 2:
        n, val = search_words(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm), _b(wm), _b(lval), _b(counts), nblank,
                              rack_size, bingo, _b(span), empty_board, _b(wtabs[0]), _b(wtabs[1]), _b(wtabs[3]),
                              (_b(obj[0]), _b(obj[1]), obj[2], obj[3], _b(obj[4]), obj[5]), out, n0, np.int64(NEG))
    else:
        n, val, _ = search_best(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, dawg, span,
                                empty_board, reach, wtabs, obj, out, np.int64(0), n0, np.empty((0, 5), np.int64))
    return n, out, val


@kernel
def search_rack(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, span, empty_board, mtab,
                went, wdir, rk, tile_pts, milli, caps, G, P, R, bag, opp_pts, vowel, pen, by_equity, out, n0):
    """:func:`search_words` for one position from Python, its objective made here (one call; the objective's
    arrays never cross into Python): by score, or with ``by_equity`` by static equity, the arguments of
    :func:`._movegen.equity_obj` from ``rk`` to ``pen``. Returns ``(n, value)`` as :func:`search_words`."""
    if by_equity:
        obj = equity_obj(_b(rk), _b(tile_pts), _b(milli), _b(caps), _b(G), _b(P), R, bag, opp_pts, _b(vowel), _b(pen),
                         empty_board)
    else:
        obj = score_obj()
    return search_words(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm), _b(wm), _b(lval), _b(counts), nblank,
                        rack_size, bingo, _b(span), empty_board, _b(mtab), _b(went), _b(wdir), obj, _b(out), n0,
                        np.int64(NEG))  # (the floor given, as rack inference gives it: one compile)
