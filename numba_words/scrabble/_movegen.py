"""The move generator kernels: span table x anchors x DAWG walk, every play scored in-kernel.

For each line of the board and of its transpose (15-bit occupancy ``occ``), the anchors are the OR of the
neighbouring lines' occupancy; a span ``s..e`` is a candidate when the span table allows it for the rack size
(wiggle test, 1..k new tiles) and it contains a tile or an anchor. From each start ``s`` with a non-empty
set of valid ends, one forward DAWG walk (explicit stack, no recursion: depth <= 15 squares) fills empty
squares with rack tiles (or a blank as any letter) allowed by the cross-check mask and follows fixed letters;
every terminal edge at a valid end is a play, scored as it is found:
``main = (sum of letters, new ones times their letter premium) * product of new word premiums``, plus every
cross word ``(its tiles + new tile * letter premium) * that square's word premium``, plus the bingo bonus when
the whole rack (``rack_size`` tiles) is used. Blanks score 0 but take word premiums.

Prefix pruning: every play from ``s`` covers the first tile-or-anchor square ``f`` at or after ``s``; a prefix
placed on the free squares before ``f`` is dropped as soon as no DAWG path of the right length puts a letter
allowed on ``f`` (its tile, or a cross-checked rack letter) there (``_tables.reach_table``). Hot calls take the
whole arrays plus indices, never ``a[d, i]`` views: each view costs an atomic incref/decref pair in Numba,
which was ~15% of the run time.

Conventions: a one-tile play is generated once: across when the tile has an across word of 2+ letters, else
down. On the empty board only across plays covering the centre are listed (down plays are their transposes).

Output rows: one play a row of :data:`REC` bytes in the layout of ``plays.PLAY_DTYPE`` (the wrapper views the rows
as that structured dtype without copying): start square, direction, length, score, tiles placed, letter codes,
and bit masks (bit ``k`` = letter ``k`` of the word is a blank / a newly placed tile). When the rows fill up, the
all-plays kernel returns; its caller doubles them and calls it again from the start that overflowed, so the plays
found before that start are not generated twice.

Compile time: each search is one kernel for one mode, called directly by its Python caller (Numba optimises a
callee's code again inside every kernel that calls it), with its starts found by a kernel of their own.
"""
from __future__ import annotations

import numpy as np

from .._jit import borrowed as _b, inline, kernel, prefetch
from ..bits import lsb_index, msb_index, popcount
from ..lexicon._dawg import child_slot
from . import _leaves
from ._tables import EMPTY, MSET_HASH, SIZE, kadd, ksub, mset2_has, mset_has, mset_tag

LOW32 = np.int64(0xFFFFFFFF)
NO_BOUND = np.int64(1) << 40  # an upper bound above every score or equity
NEG = -NO_BOUND  # below every score or equity (heap keys -bound * 512 + start stay below 2 ** 50)
_WPOW = np.array([[2 ** a * 3 ** b for b in range(8)] for a in range(8)], np.int64)  # word premiums 2, 3: a, b times
FULL32 = np.int64(0xFFFFFFFF)
REC = 28
"""Bytes of one play row, written in the layout of ``plays.PLAY_DTYPE`` (row, col, dir, length: 1 byte each at
0..3; score: int32 little-endian at 4; tiles at 8; word: 15 bytes at 9; blanks, new: uint16 at 24, 26)."""
PMEMO = 4096  # entries of the prefix filter's memo (:func:`_prefix_filter`), a power of two
ALL_LINES = np.int64((1 << 30) - 1)
"""Lines to generate on, bit ``d * SIZE + i`` for line ``i`` of direction ``d``: all of them (the default)."""
START_CAP = 4096  # rows (115 kB) allocated first for all plays; doubled as needed
NO_TRIE = np.empty((0, 5), np.int64)  # ``tri`` of a first all-plays call: build the prefix trie


@inline
def _earlier(out, d, i, s, dep, stk, bm):
    """Whether the play being emitted (line ``(d, i)``, start ``s``, letters ``stk[9, :dep + 1]``, blank bits
    ``bm``) comes before the one in row 0 of ``out`` in generation order: by direction, line, start, then the
    walk's choice order (real tiles before blanks, letters in order; a word before its extensions). Keeps the
    best-only kernel's tie-breaking identical to a stable sort of the full list by score."""
    d0 = np.int64(out[2])
    if d0 == 0:
        i0 = np.int64(out[0])
        s0 = np.int64(out[1])
    else:
        i0 = np.int64(out[1])
        s0 = np.int64(out[0])
    if d != d0:
        return d < d0
    if i != i0:
        return i < i0
    if s != s0:
        return s < s0
    n0 = np.int64(out[3])
    b0 = np.int64(out[24]) | (np.int64(out[25]) << 8)
    for k in range(min(n0, dep + 1)):
        a = np.int64(stk[9, k]) + 32 * ((bm >> k) & 1)
        b = np.int64(out[9 + k]) + 32 * ((b0 >> k) & 1)
        if a != b:
            return a < b
    return dep + 1 < n0


@inline
def _emit(out, o, d, i, s, ln, score, nt, stk, bm, nm):
    """Write a play at byte ``o`` of ``out`` (:data:`REC` bytes, the layout of ``plays.PLAY_DTYPE``; ``o`` a
    multiple of 4): line ``(d, i)``, start ``s``, ``ln`` letters ``stk[9, :ln]``, its score, tiles placed, blank
    and new-tile bits (:func:`_emit_row`)."""
    _emit_row(out[o:o + REC].view(np.uint32), np.int64(0), d, i, s, ln, score, nt, stk, bm, nm)


@inline
def _emit_row(o32, r, d, i, s, ln, score, nt, stk, bm, nm):
    """Write a play into row ``r`` of ``o32`` (rows of :data:`REC` bytes in the layout of ``plays.PLAY_DTYPE``, seen
    as ``uint32``, 7 a row; arguments as :func:`_emit`): seven stores (all plays: 28 byte stores were ~8% of a
    two-blank rack's time)."""
    o = r * (REC // 4)
    o32[o] = (i if d == 0 else s) | ((s if d == 0 else i) << 8) | (d << 16) | (ln << 24)
    o32[o + 1] = score & LOW32
    lo = nt
    for k in range(7):  # letters 0..6 after the tile count, 7..14 in the next 8 bytes; zeros after ``ln``
        lo |= (stk[9, k] & -np.int64(k < ln)) << (8 * k + 8)
    hi = np.int64(0)
    for k in range(8):
        hi |= (stk[9, k + 7] & -np.int64(k + 7 < ln)) << (8 * k)
    o32[o + 2] = lo & LOW32
    o32[o + 3] = (lo >> 32) & LOW32
    o32[o + 4] = hi & LOW32
    o32[o + 5] = (hi >> 32) & LOW32
    o32[o + 6] = bm | (nm << 16)


@inline
def _new_best(out, d, i, s, ln, score, nt, stk, bm, nm, endbs, x, em, val, top):
    """A new best play of objective ``val`` into row 0 of ``out`` (see :func:`_emit`): the ends of ``em`` still worth
    reaching and the last of them, ``(em, top)``."""
    _emit(out, np.int64(0), d, i, s, ln, score, nt, stk, bm, nm)
    em = _prune_ends(endbs, x, s, em, val)
    while top > s and (em >> top) & 1 == 0:
        top -= 1
    return em, top


@inline
def _exchange_floor(lbest, n_rack, out):
    """The best exchange's objective (the best leave kept, ``lbest`` by size, fewer than ``n_rack`` tiles; no score)
    as a floor: returns it less one, the objective of the empty row 0 of ``out`` it writes, which stands for a play
    just below it (``out[3]``, the length, stays 0 unless a play reaches the floor)."""
    fl = NEG
    for k in range(n_rack):
        if lbest[k] > fl:
            fl = lbest[k]
    for h in range(REC):
        out[h] = 0
    return fl - 1


@inline
def _prune_ends(endbs, x, s, em, val):
    """The ends of ``em`` (start ``x``) still worth reaching once the best is ``val``: those whose bound beats it
    (an equal value found later in the walk loses the tie-break)."""
    for q in range(s, SIZE):
        if (em >> q) & 1 and endbs[x, q] <= val:
            em &= ~(np.int64(1) << q)
    return em


@inline
def _insert_desc(a, n, v):
    """Insert ``v`` into ``a[:n]`` (sorted high first), keeping it sorted."""
    j = n
    while j > 0 and a[j - 1] < v:
        a[j] = a[j - 1]
        j -= 1
    a[j] = v


@inline
def _count_up(dig, cap, hv, sv, nd):
    """Count the mixed-radix number ``dig[:nd]`` (digit ``t`` from 0 to ``cap[t]``, low digit first) up by one, like
    an odometer (no divisions): ``(t, dn, dk, ds)``, ``t`` the digit that went up (``nd``: all wrapped to 0) and
    the changes of the digits' sum, of their sum weighted by ``hv`` (multiset keys, wrapping as :func:`kadd`)
    and weighted by ``sv``."""
    dn = np.int64(0)
    dk = np.int64(0)
    ds = np.int64(0)
    for t in range(nd):
        if dig[t] < cap[t]:
            dig[t] += 1
            return t, dn + 1, kadd(dk, hv[t]), ds + sv[t]
        dn -= dig[t]
        dk = ksub(dk, np.int64(np.uint64(hv[t]) * np.uint64(dig[t])))
        ds -= dig[t] * sv[t]
        dig[t] = 0
    return nd, dn, dk, ds


@inline
def _zeros(n):
    """``np.zeros(n, np.int64)`` written out (a first run then compiles no zero-filling kernels)."""
    a = np.empty(n, np.int64)
    for j in range(n):
        a[j] = 0
    return a


@inline
def _whole_end(o, s, n_rack, em):
    """The end of the one span from ``s`` that needs every rack tile (``n_rack`` new tiles, at most
    :data:`._tables.MAX_RACK`, as every variant's rack; line occupancy ``o``), or -1 when there is none among the ends
    ``em`` (the span table's for ``n_rack`` tiles, less ends before some square): the last of them when it needs
    ``n_rack`` tiles (no longer span needs at most ``n_rack``)."""
    if n_rack < 1 or em == 0:
        return np.int64(-1)
    z = msb_index(em)
    return z if popcount(~o & (((np.int64(2) << z) - 1) ^ ((np.int64(1) << s) - 1))) == n_rack else np.int64(-1)


@inline
def _fixed_key(lines, d, i, s, e):
    """Sum of the multiset numbers of the tiles on squares ``s..e`` of line ``(d, i)``."""
    k = np.int64(0)
    for q in range(s, e + 1):
        if lines[d, i, q] != EMPTY:
            k = kadd(k, MSET_HASH[np.int64(lines[d, i, q])])
    return k


@inline
def _heap_pop(hk, he, hn):
    """Remove the smallest key of the binary min-heap ``hk[:hn]`` (payload ``he``): ``(key, payload, hn - 1)``.
    (Callers pass :func:`~numba_words._jit.borrowed` views, as to every inlined helper taking arrays in a loop: an
    array argument costs an atomic reference-count pair per call.)"""
    k0 = hk[0]
    e0 = he[0]
    hn -= 1
    _sift_down(hk, he, hn, np.int64(0), hk[hn], he[hn])
    return k0, e0, hn


KEY_MAX = np.int64(2 ** 63 - 1)


@inline
def _sift_down(hk, he, hn, j, k, e):
    """Put key ``k`` (payload ``e``) at slot ``j`` of the min-heap ``hk[:hn]`` and move it down to its place."""
    while True:
        c = 2 * j + 1
        if c >= hn:
            break
        if c + 1 < hn and hk[c + 1] < hk[c]:
            c += 1
        if hk[c] >= k:
            break
        hk[j] = hk[c]
        he[j] = he[c]
        j = c
    hk[j] = k
    he[j] = e


@inline
def _heapify(hk, he, hn):
    """Make ``hk[:hn]`` (payloads ``he``) a min-heap, in place (O(hn))."""
    for j in range(hn // 2 - 1, -1, -1):
        _sift_down(hk, he, hn, np.int64(j), hk[j], he[j])


@inline
def _kheap_sift(hk, hn, j, k):
    """:func:`_sift_down` for a heap of keys alone (payloads in their low bits), ``hk[hn]`` a sentinel of the
    largest key: the smaller child is picked without a branch (the heap's keys are in no order a branch predictor
    could learn: a mispredicted branch per level costs more than the level)."""
    while True:
        c = 2 * j + 1
        if c >= hn:
            break
        c += np.int64(hk[c + 1] < hk[c])
        if hk[c] >= k:
            break
        hk[j] = hk[c]
        j = c
    hk[j] = k


@inline
def kheapify(hk, hn):
    """Make the keys ``hk[:hn]`` a min-heap in place (O(hn)); sets the sentinel ``hk[hn]`` (``hk`` holds
    ``hn + 1`` entries) that :func:`kheap_pop` keeps."""
    hk[hn] = KEY_MAX
    for j in range(hn // 2 - 1, -1, -1):
        _kheap_sift(hk, hn, np.int64(j), hk[j])


@inline
def kheap_pop(hk, hn):
    """Remove the smallest key of the heap ``hk[:hn]`` made by :func:`kheapify`: ``(key, hn - 1)``."""
    k0 = hk[0]
    hn -= 1
    k = hk[hn]
    hk[hn] = KEY_MAX
    _kheap_sift(hk, hn, np.int64(0), k)
    return k0, hn


@inline
def _heap_push(hk, he, hn, k, e):
    """Add key ``k`` (payload ``e``) to the binary min-heap ``hk[:hn]``; returns ``hn + 1``."""
    j = hn
    while j > 0:
        u = (j - 1) // 2
        if hk[u] <= k:
            break
        hk[j] = hk[u]
        he[j] = he[u]
        j = u
    hk[j] = k
    he[j] = e
    return hn + 1


@kernel
def _prefix_trie(dawg, counts, nblank, depth):
    """Every prefix of at most ``depth`` letters that the rack (``counts`` by letter, ``nblank`` blanks) can spell,
    as a trie, one row ``tri[t]`` a node (one array: the walk keeps fewer arrays live). Node 0 is the empty
    prefix; node ``t`` was reached by the DAWG edge ``tri[t, 0]`` (``(child << 1) | terminal``); its children, one
    per letter of ``tri[t, 1]`` in letter order, are the rows from ``tri[t, 2]`` on; ``tri[t, 2 + k]``: the
    letters that can follow a prefix through ``t`` and ``k - 1`` more of its letters (``k = 1``: the DAWG letters
    after ``t``). A node is a string: which of its letters are blanks is the walk's choice (one node for all of
    them: two blanks would multiply the nodes by ~4).

    The walk of every play puts a prefix on the empty squares before the first square ``f`` that a play from its
    start must cover; those squares take no cross-checks, so the prefixes are the same on every line: built once
    per rack here, each start's prefixes are then a walk of this small trie that keeps a child only when
    ``tri[child, 2 + distance to f]`` holds a letter ``f`` allows (the DAWG walk looked that up in the large reach
    table, a cache miss per child)."""
    cap = np.int64(2048) << (2 * min(nblank, 2))  # (TWL06, 62 test racks: at most 1.2 k nodes; 2.3 k; 11 k)
    while True:  # (the array is not regrown inside the fill: arrays reassigned in a loop cost reference counting)
        tri = np.empty((cap, 3 + max(depth, 1)), np.int64)
        if _trie_fill(dawg, counts, nblank, depth, tri) >= 0:
            return tri
        cap *= 4


@kernel
def _trie_fill(dawg, counts, nblank, depth, tri):
    """Fill :func:`_prefix_trie`'s array: the number of nodes, or -1 when they do not fit."""
    cap = tri.shape[0]
    cnt = counts.copy()
    have = np.int64(0)  # the letters left on the rack
    for c in range(cnt.shape[0]):
        if cnt[c] > 0:
            have |= np.int64(1) << c
    nb = nblank
    tri[0, 0] = 0
    nt = np.int64(1)
    path = np.empty(SIZE + 1, np.int64)  # the trie node at each depth of the current prefix
    nxt = np.empty(SIZE + 1, np.int64)  # the letters of its children still to visit (-1: not laid out yet)
    used = np.empty(SIZE + 1, np.int64)  # the tile its last visited child took (32: a blank, -1: none)
    dep = 0
    path[0] = 0
    nxt[0] = -1
    while dep >= 0:
        t = path[dep]
        if nxt[dep] < 0:  # first visit: lay out the children (letters the rack has, any letter while a blank is left)
            node = tri[t, 0] >> 1
            m = np.int64(dawg[node])
            kids = np.int64(0)
            if dep < depth:
                kids = m if nb > 0 else m & have
            if nt + popcount(kids) > cap:
                return np.int64(-1)
            tri[t, 1] = kids
            tri[t, 2] = nt
            tri[t, 3] = m
            for k in range(2, depth + 1):
                tri[t, 2 + k] = 0
            mm = kids
            while mm != 0:
                c = lsb_index(mm)
                mm &= mm - 1
                tri[nt, 0] = np.int64(dawg[child_slot(node, m, c)])
                prefetch(dawg, tri[nt, 0] >> 1)  # (the child's node, laid out soon: the loads overlap)
                nt += 1
            nxt[dep] = kids
            used[dep] = -1
        # give back the tile the last child took, then go to the next child (a real tile when the rack has one)
        u = used[dep]
        if u >= 0:
            if u == 32:
                nb += 1
            else:
                cnt[u] += 1
                have |= np.int64(1) << u
            used[dep] = -1
        left = nxt[dep]
        if left == 0:  # done: what can follow it, one square further from its parent
            if dep > 0:
                up = path[dep - 1]
                for k in range(2, depth + 1):
                    tri[up, 2 + k] |= tri[t, 1 + k]
            dep -= 1
            continue
        c = lsb_index(left)
        nxt[dep] = left & (left - 1)
        if cnt[c] > 0:
            cnt[c] -= 1
            if cnt[c] == 0:
                have &= ~(np.int64(1) << c)
            used[dep] = c
        else:
            nb -= 1
            used[dep] = 32
        dep += 1
        path[dep] = tri[t, 2] + popcount(tri[t, 1] & ((np.int64(1) << c) - 1))
        nxt[dep] = -1
    return nt


@inline
def _trie_cands(tri, t, k, af):
    """The letters of trie node ``t``'s children (:func:`_prefix_trie`) after which a letter of ``af`` can come
    ``k`` squares on."""
    j = tri[t, 2]
    r = np.int64(0)
    mm = tri[t, 1]
    while mm != 0:
        c = lsb_index(mm)
        mm &= mm - 1
        if tri[j, 2 + k] & af != 0:
            r |= np.int64(1) << c
        j += 1
    return r


@inline
def _prefix_filter(dawg, reach, pmk, pmv, node, m, lim, k, af):
    """The letters of ``m & lim`` (``m``: the child mask of the DAWG node at offset ``node``) from whose child a path
    of ``k - 1`` more letters reaches a letter of ``af``: the letters a prefix may put ``k`` squares before the
    first square ``f`` its play covers (``af``: what ``f`` allows). Memoised per search in the direct-mapped
    ``pmk``/``pmv``: the squares before ``f`` have no cross-checks, so the same (node, distance, ``af``) comes back
    on every line, and each reach lookup is a cache miss. (The best-only walk; all plays walk :func:`_prefix_trie`.)"""
    key = (node << 37) | (k << 32) | af
    h = ((node * np.int64(0x9E3779B1) + k * np.int64(0x632BE5AB) + af * np.int64(0x85EBCA77)) >> 13) & (PMEMO - 1)
    if pmk[h] == key:
        return pmv[h]
    r = np.int64(0)
    mm = m & lim
    while mm != 0:
        x = lsb_index(mm)
        mm &= mm - 1
        c = np.int64(dawg[child_slot(node, m, x)]) >> 1
        if k == 1:
            ok = np.int64(dawg[c]) & af
        else:
            ok = np.int64(reach[c, k]) & af
        if ok != 0:
            r |= np.int64(1) << x
    pmk[h] = key
    pmv[h] = r
    return r


@inline
def _memo_has(mtab, key, memo):
    """:func:`mset_has` through a small direct-mapped memo (``memo[0]`` keys, ``memo[1]`` 1 = in the set, 2 = not,
    0 = empty): spans through the same tiles share a key, and each lookup in the large set is a cache miss."""
    h = (key >> 20) & 63
    if memo[1, h] != 0 and memo[0, h] == key:
        return memo[1, h] == 1
    r = mset_has(mtab, key)
    memo[0, h] = key
    memo[1, h] = 1 if r else 2
    return r


@inline
def _rack_mask(counts):
    m = np.int64(0)
    for c in range(32):
        if counts[c] > 0:
            m |= np.int64(1) << c
    return m


@inline
def _rack_key(counts):
    """Sum of the multiset numbers of the rack's real tiles."""
    k = np.int64(0)
    for c in range(32):
        for _ in range(counts[c]):
            k = kadd(k, MSET_HASH[c])
    return k


@inline
def _line_conn(occ, empty_board, d, i):
    """Squares of line ``(d, i)`` a play must cover one of (tiles and anchors); 0 when the line is dead."""
    if empty_board:
        if d == 0 and i == SIZE // 2:
            return np.int64(1) << (SIZE // 2)
        return np.int64(0)
    a = np.int64(0)
    if i > 0:
        a |= occ[d, i - 1]
    if i < SIZE - 1:
        a |= occ[d, i + 1]
    return a | occ[d, i]


def _starts_kernel(best_only: bool):
    """The kernel that finds the starts of one mode's walk (:func:`_search_kernel`): ``(starts, m, endbs, lbest,
    nwb, pf, pmask, lw)``, ``m`` starts in the columns of ``starts``; for the best play also their end bounds, the
    best objective part of a leave by its size (``nwb``: of a leave whose tiles played spell a word by themselves;
    ``lw``: the rows ``lbest``, ``nwb``, then the best of a leave that plays at least one blank, two) and per line with
    starts (``d * SIZE + i``) the prefix sums ``pf`` (tiles' values, cross words' tiles times the word premium, best
    letter times ``a``, times ``b``) and the masks ``pmask`` of its empty squares (``a`` >= 2, >= 3, word premium 2,
    3, ``b`` >= 1, 2, 3) that bound an end (see the line loop), and of those that only a blank fits (no real rack
    tile: a span holding them plays a blank on each; read by :func:`._best.search_words`). A
    kernel of its own: Numba's compile time grows faster than the size of a function, and the starts take a third
    of the search's code."""

    def find(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, span, empty_board, obj, mtab,
             lmask=ALL_LINES, chg=None):
        rmask = _rack_mask(counts)
        rkey = _rack_key(counts)
        n_rack = nblank
        for c in range(32):
            n_rack += counts[c]
        k = min(n_rack, 7)
        eqv, stride, scale = obj[0], obj[1], obj[2]
        if best_only:
            # (the small scratch arrays as rows of one allocation: each costs ~20-40 ns)
            w33 = np.zeros((7, 33), np.int64)
            srt = w33[0, :8]  # the rack's letter values, high first
            j = 0
            for c in range(32):
                for _ in range(counts[c]):
                    if j < 8:
                        _insert_desc(_b(srt), j, lval[c])
                    j += 1
            # the rack's letters by value, high first (for the best letter a square's cross-check allows)
            rl = w33[1, :32]
            nrl = 0
            for c in range(32):
                if counts[c] > 0:
                    j = nrl
                    while j > 0 and lval[rl[j - 1]] < lval[c]:
                        rl[j] = rl[j - 1]
                        j -= 1
                    rl[j] = c
                    nrl += 1
            # per line (``d * SIZE + i``): the end bounds' terms, summed up, and masks of squares (see the line loop);
            # kept for the word-group search, which bounds its groups with them
            pf = np.empty((2 * SIZE, SIZE + 1, 4), np.int64)
            pmask = np.zeros((2 * SIZE, 8), np.int64)
            # best objective part of a leave by its size (tiles kept), ``lbest``, and the same for a span that holds
            # no tile (all its letters from the rack), ``nwb``: over the sets of tiles played that spell a word by
            # themselves (``mtab``: a multiset, one short with a blank played, two short with two; more blanks: taken
            # as a word), NEG when no set of that size does. The leaves counted up like an odometer over every kind
            # on the rack (the score's ``eqv`` has one entry and no strides)
            # Rows 2 and 3: the best over the leaves that play at least one / two blanks (a span with squares that
            # no real rack tile fits takes a blank on each: its leave keeps fewer blanks)
            lw = np.empty((4, SIZE + 1), np.int64)  # (one array: an end picks its row without a branch)
            lbest = lw[0]
            nwb = lw[1]
            one = eqv.shape[0] == 1
            for j in range(SIZE + 1):
                lbest[j] = eqv[0] if one else NEG
                nwb[j] = NEG
                lw[2, j] = NEG
                lw[3, j] = NEG
            dcap = w33[2]
            dig = w33[3]
            hv = w33[4]  # per digit: its letter's multiset number (0: the blank)
            dst = w33[5]  # and its leave stride
            nd = 0
            for kd in range(33):
                cap = nblank if kd == 0 else counts[kd - 1]
                if cap > 0:
                    dcap[nd] = cap
                    dig[nd] = 0
                    hv[nd] = 0 if kd == 0 else MSET_HASH[kd - 1]
                    dst[nd] = 0 if one else stride[kd]
                    nd += 1
            nk = np.int64(0)  # tiles kept
            keyk = np.int64(0)  # multiset number of the real tiles kept
            li = np.int64(0)
            while True:
                ne = n_rack - nk
                val = eqv[0] if one else eqv[li]
                if val > lbest[nk]:
                    lbest[nk] = val
                if nblank > 0 and dig[0] < nblank:  # (blanks played: nblank - dig[0])
                    if val > lw[2, nk]:
                        lw[2, nk] = val
                    if dig[0] < nblank - 1 and val > lw[3, nk]:
                        lw[3, nk] = val
                if ne >= 2 and val > nwb[nk]:
                    pb = nblank - (dig[0] if nblank > 0 else 0)  # blanks played (the blank is digit 0)
                    pk = kadd(ksub(rkey, keyk), mset_tag(ne, min(pb, 1)))
                    if pb > 2 or (mset2_has(mtab, pk) if pb == 2 else mset_has(mtab, pk)):
                        nwb[nk] = val
                t, dn, dk, ds = _count_up(dig, dcap, hv, dst, nd)
                if t == nd:
                    break
                nk += dn
                keyk = kadd(keyk, dk)
                li += ds
            # the rearrangement bound of an end (the rack's values high first on its squares' premiums high first)
            # from counts: with premiums of 1..3 (every layout's), sum_j srt[j] * prem[j] = pre[#prem >= 1] +
            # pre[#prem >= 2] + pre[#prem >= 3], pre the prefix sums of srt (was two insertion sorts per square)
            pre = w33[6, :SIZE + 1]
            for j in range(1, SIZE + 1):
                pre[j] = pre[j - 1] + (srt[j - 1] if j - 1 < 8 else 0)
            endbs = np.empty((2 * SIZE * SIZE, SIZE), np.int64)  # per-start end bounds, kept for the walk
        else:
            endbs = np.empty((1, SIZE), np.int64)  # read only by the best-only walk
            lbest = nwb = endbs[0]
            lw = endbs
            pf = np.empty((1, 1, 4), np.int64)
            pmask = endbs
        # the starts, in generation order (direction, line, start square); columns as in :func:`_search_kernel`'s walk
        starts = np.empty((10, 2 * SIZE * SIZE), np.int64)
        m = np.int64(0)
        for d in range(2):  # (each line's row of the span table, ~1 MB a rack size: its loads overlap here)
            for i in range(SIZE):
                if (lmask >> (d * SIZE + i)) & 1:
                    prefetch(span, (k * span.shape[1] + occ[d, i]) * SIZE)
        for d in range(2):
            for i in range(SIZE):
                if (lmask >> (d * SIZE + i)) & 1 == 0:  # (the endgame generates on the lines moves touched)
                    continue
                conn = _line_conn(occ, empty_board, d, i)
                if conn == 0:
                    continue
                if best_only:
                    # per square of the line, prefix sums (``pf[line, q, r]``: over squares ``0..q-1``) of what an end
                    # bound adds up over a span's squares, so that each end costs O(1): the tiles' values; per empty
                    # square: its cross word's tiles times the word premium, the best rack letter allowed there times
                    # the letter premium ``a`` and times ``b`` = ``a`` * the word premium when it makes a cross word
                    # (else 0); and masks of the empty squares whose counts a span needs (popcounts of the span's
                    # squares): word premium 2, 3, ``a`` >= 2, 3, ``b`` >= 1, 2, 3; ``blk``: empty squares that no
                    # rack tile fits (no span holds one)
                    ln = d * SIZE + i
                    blk = np.int64(0)
                    a0 = a4 = a5 = a6 = np.int64(0)
                    mw2 = mw3 = ma2 = ma3 = mb1 = mb2 = mb3 = rbm = np.int64(0)
                    for r in range(4):
                        pf[ln, 0, r] = 0
                    for q in range(SIZE):
                        if lines[d, i, q] != EMPTY:
                            a0 += fv[d, i, q]
                        else:
                            ccq = cc[d, i, q]
                            mv = np.int64(-1)
                            if nblank > 0 and ccq != 0:
                                mv = 0
                            for j in range(nrl):
                                if (ccq >> rl[j]) & 1:
                                    mv = max(mv, lval[rl[j]])
                                    break
                            bit = np.int64(1) << q
                            if mv >= 0 and nblank > 0 and ccq & rmask == 0:  # a blank only
                                rbm |= bit
                            if mv < 0:
                                blk |= bit
                            else:
                                w = wm[d, i, q]
                                a = lm[d, i, q]
                                b = np.int64(0)
                                if xs[d, i, q] >= 0:
                                    b = a * w
                                    a4 += xs[d, i, q] * w
                                a5 += mv * a
                                a6 += mv * b
                                mw2 |= bit * (w == 2)
                                mw3 |= bit * (w == 3)
                                ma2 |= bit * (a >= 2)
                                ma3 |= bit * (a >= 3)
                                mb1 |= bit * (b >= 1)
                                mb2 |= bit * (b >= 2)
                                mb3 |= bit * (b >= 3)
                        pf[ln, q + 1, 0] = a0
                        pf[ln, q + 1, 1] = a4
                        pf[ln, q + 1, 2] = a5
                        pf[ln, q + 1, 3] = a6
                    pmask[ln, 0] = ma2
                    pmask[ln, 1] = ma3
                    pmask[ln, 2] = mw2
                    pmask[ln, 3] = mw3
                    pmask[ln, 4] = mb1
                    pmask[ln, 5] = mb2
                    pmask[ln, 6] = mb3
                    pmask[ln, 7] = rbm
                o = occ[d, i]
                for s in range(SIZE):
                    em = np.int64(span[k, o, s])
                    if em == 0:
                        continue
                    rest = conn >> s
                    if rest == 0:
                        break
                    first = s + lsb_index(rest)
                    em &= ~((np.int64(1) << first) - 1)
                    if chg is not None:  # the plays whose squares and the two beside them hold a changed one
                        lo = max(s - 1, 0)
                        cl = chg[d * SIZE + i] >> lo
                        if cl == 0:
                            break
                        c0 = lo + lsb_index(cl)  # (the first changed square from s - 1 on: ends from c0 - 1 on)
                        if c0 >= 1:
                            em &= ~((np.int64(1) << (c0 - 1)) - 1)
                    if em == 0:
                        continue
                    if lines[d, i, first] != EMPTY:
                        allowed = np.int64(1) << np.int64(lines[d, i, first])
                    elif nblank > 0:
                        allowed = cc[d, i, first]
                    else:
                        allowed = cc[d, i, first] & rmask
                    if allowed == 0:
                        continue
                    we = _whole_end(o, s, n_rack, em)  # its word check waits for the walk
                    if best_only:
                        # end bounds of this start, written out here: a call passing arrays costs an atomic
                        # reference-count increment and decrement per array (~60% of the setup time as a helper)
                        bq = blk >> s  # ends past a square no rack tile fits are dropped
                        if bq != 0:
                            em &= (np.int64(1) << (s + lsb_index(bq))) - 1
                        bnd = NEG
                        rest = em
                        below_s = (np.int64(1) << s) - 1
                        while rest != 0:
                            q = lsb_index(rest)
                            rest &= rest - 1
                            spm = ((np.int64(1) << (q + 1)) - 1) ^ below_s  # the span's squares
                            ne = popcount(~o & spm)
                            wprod = _WPOW[popcount(mw2 & spm), popcount(mw3 & spm)]
                            r1 = pre[ne] + pre[popcount(ma2 & spm)] + pre[popcount(ma3 & spm)]
                            r2 = pre[popcount(mb1 & spm)] + pre[popcount(mb2 & spm)] + pre[popcount(mb3 & spm)]
                            rearr = wprod * r1 + r2
                            byval = wprod * (pf[ln, q + 1, 2] - pf[ln, s, 2]) + pf[ln, q + 1, 3] - pf[ln, s, 3]
                            eb = wprod * (pf[ln, q + 1, 0] - pf[ln, s, 0]) + pf[ln, q + 1, 1] - pf[ln, s, 1]
                            eb += rearr if rearr < byval else byval
                            if ne >= rack_size:
                                eb += bingo
                            # (a span of only empty squares: the leaves of sets of tiles that spell a word)
                            lb = lw[np.int64(ne > q - s), max(n_rack - ne, 0)]
                            if lb == NEG:  # no set of tiles of the span's length spells a word
                                em &= ~(np.int64(1) << q)
                                continue
                            eb = scale * eb + lb
                            endbs[m, q] = eb
                            if eb > bnd:
                                bnd = eb
                        if bnd == NEG or em == 0:
                            continue
                        if we >= 0 and (em >> we) & 1 == 0:
                            we = np.int64(-1)
                        wkey = np.int64(0)  # computed when the walk gets to the whole-rack end
                    else:
                        bnd = NO_BOUND
                        wkey = kadd(rkey, _fixed_key(lines, d, i, s, we)) if we >= 0 else np.int64(0)
                    starts[0, m] = d
                    starts[1, m] = i
                    starts[2, m] = s
                    starts[3, m] = em
                    starts[4, m] = first
                    starts[5, m] = allowed
                    starts[6, m] = bnd
                    starts[7, m] = we
                    starts[8, m] = wkey
                    starts[9, m] = 0 if best_only else 1
                    m += 1
        return starts, m, endbs, lbest, nwb, pf, pmask, lw

    find.__name__ = find.__qualname__ = "_starts_best" if best_only else "_starts_all"  # (one cache file each)
    return kernel(find)


_starts_all = _starts_kernel(False)
_starts_best = _starts_kernel(True)


def _search_kernel(best_only: bool):
    """The search kernel of one mode: :func:`search_best` (``best_only``) or :func:`search_all`."""
    trie = not best_only

    def search(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, dawg, span, empty_board,
               reach, wtabs, obj, out, t0, n0, tri, lmask=ALL_LINES, chg=None):
        """Find the starts of one position's plays (line ``(d, i)``, start square ``s``) and walk the DAWG from
        each; columns of ``starts``: direction, line, start square ``s``, mask of valid ends, first square ``f``
        every play covers, the letters allowed on ``f``, upper bound, the whole-rack end (-1: none), the multiset
        key of the rack's real tiles and that span's tiles, whether that key was checked. The plays ending in the
        ends mask are written as rows of ``out`` (:data:`REC` bytes each).

        One source, two kernels (``best_only`` is a compile-time constant): a first ``legal_plays()`` never
        compiles the best-only search (heap, tie-break), nor ``best_play()`` the all-plays setup; and
        each is one function, so no caller links in and optimises its code a second time (Numba re-optimises a
        callee's code inside each caller).

        All plays: starts ``t0..m-1`` in generation order, ``n0`` rows of ``out`` already written. Returns ``(n,
        t, tri)``: the rows written and -1 when done, or, when ``out`` filled up during start ``t``, the rows written
        before it and ``t`` (the caller grows ``out`` and calls again from ``t``, passing back ``tri``: the rack's
        prefix trie, :func:`_prefix_trie`, built when the ``tri`` passed in has no rows; a two-blank rack's trie
        costs 0.1-0.2 ms, and such racks fill the rows several times). Best only: ``tri`` is not read; returns
        ``(n, value, tri)``; with ``n0`` = 1 (``t0`` not read) the best exchange's objective is a floor (the best
        value of a leave smaller than the rack: with equity, where exchanging is allowed, a play below it is never
        the best move): the best play of objective at least that (the same play as without the floor when the best
        reaches it), ``n`` = 0 when none does. The floor prunes from the first start on: two-blank racks' equity
        searches take ~0.6x the time. ``lmask``: the lines to generate on (bits as :data:`ALL_LINES`); ``chg`` (all
        plays; by line ``d * SIZE + i``, a mask of squares, ``None``: every play): only the plays that cover a
        square of their line's mask or have one just before or after them (the endgame's plays that the moves
        since a list changed).

        Best only: the best in row 0 by the objective ``scale * score + eqv[kept] + opening`` (``obj``: see
        :func:`._best.best`; ``(1, zeros)``: the score). ``order[:m]`` is a min-heap of keys ``-bound * 512 + start``
        with the ends of each entry in ``hem``; the top entry is walked (its whole-rack end first checked against
        ``mtab``), and the search stops once the top bound cannot beat the best; ``endbs[x, e]`` bounds a play of
        start ``x`` ending at ``e``. When only the whole-rack end of the top entry reaches the next entry's bound,
        that end is walked alone and the others go back into the heap: with a blank its bingo bonus puts
        nearly every long span on top, and most of them hold no bingo.

        Racks of up to two blanks have a search of their own (:func:`._best.search_words`), faster than this walk,
        which with blanks tries most letters (pairs of letters with two) on every span; the walk keeps racks of
        three or more blanks.

        Whole-rack filter: once the only end a prefix can still reach is the start's whole-rack end, the word's
        letter multiset is fixed (rack + the span's tiles) but for the letters the blanks stand for; each blank
        placed while at most one stays on the rack is kept only if that multiset (one short while a blank stays)
        is a word's (``mtab``, :func:`_tables.mset_table`). With two blanks this is what keeps the walk from
        trying every pair of letters on long spans.

        One call walks every start: each array passed to a (non-inlined) call costs an atomic reference-count
        increment and decrement, which per start was ~10% of the best-only run time."""
        if best_only:
            starts, m, endbs, lbest, _, _, _, _ = _starts_best(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm),
                                                               _b(wm), _b(lval), _b(counts), nblank, rack_size, bingo,
                                                               _b(span), empty_board, obj, _b(wtabs[0]))
            # walk order: a heap of (start, ends) entries keyed by bound, high first, ties in generation order
            order = np.empty(max(m, 1), np.int64)
            hem = np.empty(max(m, 1), np.int64)  # the heap entries' ends
            for x in range(m):  # x < 2 * 15 * 15 = 450 < 512; bounds < 2 ** 40
                order[x] = -starts[6, x] * 512 + x
                hem[x] = starts[3, x]
            _heapify(_b(order), _b(hem), m)
        else:
            starts, m, endbs, lbest, _, _, _, _ = _starts_all(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm),
                                                              _b(wm), _b(lval), _b(counts), nblank, rack_size, bingo,
                                                              _b(span), empty_board, obj, _b(wtabs[0]), lmask, chg)
            order = hem = lbest  # read only by the best-only walk
        counts = counts.copy()  # the walk takes tiles from it and gives them back
        rmask0 = _rack_mask(counts)
        rkey = _rack_key(counts)
        n_rack = nblank
        for c in range(32):
            n_rack += counts[c]
        eqv, stride, scale, lfull, opv, use_opv = obj
        cap = out.shape[0] // REC
        o32 = out[: cap * REC].view(np.uint32)  # all plays: rows written a word at a time (:func:`_emit_row`)
        stk = np.empty((13, SIZE + 1), np.int64)  # every entry is written before it is read
        n = n0
        mtab = wtabs[0]
        bscore = NEG  # best only: the objective of the play in row 0
        if best_only and n0 == 1:
            bscore = _exchange_floor(lbest, n_rack, out)
        hn = m  # best only: entries in the heap (order, hem)
        memo = np.empty((2, 64), np.int64)  # best only: see _memo_has
        for h in range(64):
            memo[1, h] = 0
        # the prefixes before each start's first square: all plays walk the trie of the rack's prefixes (built per
        # search: ~0.05-0.7 ms, repaid many times over); the best play, which walks few starts, filters the DAWG's
        # children through a memo (the way is a compile-time choice: with both in one kernel, each ran ~8% slower)
        if trie:
            pmk = pmv = np.empty(1, np.int64)
            if tri.shape[0] == 0:  # (a call resuming after its rows filled up gets the trie the first call built)
                dmax = np.int64(0)
                for x in range(t0, m):
                    if starts[4, x] - starts[2, x] > dmax:
                        dmax = starts[4, x] - starts[2, x]
                tri = _prefix_trie(_b(dawg), _b(counts), nblank, dmax)
        else:
            pmk = np.empty(PMEMO, np.int64)  # the prefix filter's memo: keys (-1: empty), letter masks
            pmv = np.empty(PMEMO, np.int64)
            for h in range(PMEMO):
                pmk[h] = -1
            tri = np.empty((1, 5), np.int64)
        plim = FULL32 if nblank > 0 else rmask0  # letters a prefix square can take at all
        tc = np.int64(0)  # all plays: the trie node of the prefix tile placed last
        n_starts = m  # (the walk reuses the name m for node masks)
        t = t0 - 1
        while True:
            if best_only:
                # the entry whose ends have the highest bound: walk its ends that can beat the best; when only
                # its whole-rack end reaches the next entry's bound, that end alone, the others put back
                if hn == 0:
                    break
                key, em, hn = _heap_pop(_b(order), _b(hem), hn)
                x = key & 511
                bound = -(key >> 9)
            else:
                t += 1
                if t >= n_starts:
                    break
                x = t
                em = starts[3, x]
            n_start = n
            d = starts[0, x]
            i = starts[1, x]
            s = starts[2, x]
            f = starts[4, x]
            allowed_f = starts[5, x]
            we = starts[7, x]
            if best_only:
                if we >= 0 and (em >> we) & 1 and starts[9, x] & 1 == 0:
                    # the whole-rack end, checked when first on top: does the rack (+ the span's tiles) spell a
                    # word? (looked up here, not for every start: each lookup in the large set is a cache miss)
                    starts[9, x] |= 1
                    starts[8, x] = kadd(rkey, _fixed_key(lines, d, i, s, we))
                    wk = kadd(starts[8, x], mset_tag(we - s + 1, min(nblank, 1)))
                    if ((nblank <= 1 and not _memo_has(_b(mtab), wk, memo))
                            or (nblank == 2 and not mset2_has(mtab, wk))):
                        endbs[x, we] = NEG
                        em &= ~(np.int64(1) << we)
                        if em == 0:
                            continue
                        bound = NEG
                        for q in range(s, SIZE):
                            if (em >> q) & 1 and endbs[x, q] > bound:
                                bound = endbs[x, q]
                        if hn > 0 and bound < -(order[0] >> 9):  # no longer on top: back into the heap
                            hn = _heap_push(_b(order), _b(hem), hn, -bound * 512 + x, em)
                            continue
                lim = bscore
                if n > 0:
                    if bound < lim:
                        break
                    # an equal score wins the tie-break only from a start no later in generation order than the best's
                    d0 = np.int64(out[2])
                    i0 = np.int64(out[0]) if d0 == 0 else np.int64(out[1])
                    s0 = np.int64(out[1]) if d0 == 0 else np.int64(out[0])
                    if d > d0 or (d == d0 and (i > i0 or (i == i0 and s > s0))):
                        lim += 1
                        if bound < lim:
                            continue
                thr = lim
                if hn > 0 and -(order[0] >> 9) > thr:
                    thr = -(order[0] >> 9)
                lo = np.int64(0)  # ends left for later
                lob = NEG
                for q in range(s, SIZE):
                    if (em >> q) & 1:
                        if endbs[x, q] < lim:  # cannot beat the best so far
                            em &= ~(np.int64(1) << q)
                        elif endbs[x, q] < thr:
                            em &= ~(np.int64(1) << q)
                            lo |= np.int64(1) << q
                            if endbs[x, q] > lob:
                                lob = endbs[x, q]
                if lo != 0:
                    if we >= 0 and em == (np.int64(1) << we):
                        # the whole-rack end alone (its bingo bonus sets it far above the others): walk it now,
                        # with the whole-rack filter from the first square, the others later if still worth it
                        hn = _heap_push(_b(order), _b(hem), hn, -lob * 512 + x, lo)
                    else:  # a split elsewhere costs more walking twice than it saves
                        em |= lo
                if em == 0:
                    continue
            top = SIZE - 1
            while top > s and (em >> top) & 1 == 0:
                top -= 1
            if we > top:
                we = np.int64(-1)
            wtag0 = mset_tag(we - s + 1, 0) if we >= 0 else np.int64(0)
            wtag1 = mset_tag(we - s + 1, 1) if we >= 0 else np.int64(0)
            wok = 0  # whole-rack end with no blank placed yet: 0 unchecked, 1 a word's multiset, 2 not
            if best_only:
                if we >= 0:
                    wok = 1  # checked above when the entry first came on top
            elif we >= 0 and nblank <= 2 and em == (np.int64(1) << we):
                wk = kadd(starts[8, x], wtag1 if nblank >= 1 else wtag0)
                if not (mset2_has(mtab, wk) if nblank == 2 else mset_has(mtab, wk)):
                    continue
                wok = 1 if nblank <= 1 else 0
            rmask = rmask0  # rack letter mask (letters with count > 0); every pick is given back by the end
            nb = nblank
            # depth 0
            dep = np.int64(0)  # not a literal 0: a literal-typed argument would compile _earlier twice
            stk[0, 0] = np.int64(dawg[0]) << 32  # (child mask << 32) | node offset
            stk[3, 0] = 0
            stk[4, 0] = 1
            stk[5, 0] = 0
            stk[6, 0] = 0
            stk[7, 0] = 0
            stk[8, 0] = 0
            stk[10, 0] = starts[8, x]
            stk[11, 0] = lfull
            stk[12, 0] = 0
            stk[2, 0] = -1
            # candidate set at depth 0
            p = s
            m = np.int64(dawg[0])
            if lines[d, i, p] != EMPTY:
                L = np.int64(lines[d, i, p])
                stk[1, 0] = (np.int64(1) << L) if (m >> L) & 1 else np.int64(0)
            elif trie and p < f:  # the trie's root
                stk[0, 0] = 0
                af = allowed_f
                if lines[d, i, f] == EMPTY:
                    af = cc[d, i, f] if nb > 0 else cc[d, i, f] & rmask
                pas = _trie_cands(tri, np.int64(0), f - p, af) & cc[d, i, p]
                stk[1, 0] = (pas & rmask) | ((pas << 32) if nb > 0 else np.int64(0))
            else:
                allowed = m & cc[d, i, p]
                if p < f:
                    af = allowed_f
                    if lines[d, i, f] == EMPTY:
                        af = cc[d, i, f] if nb > 0 else cc[d, i, f] & rmask
                    allowed &= _prefix_filter(dawg, reach, pmk, pmv, np.int64(0), m, plim, f - p, af)
                cand = allowed & rmask
                if nb > 0:
                    cand |= allowed << 32
                stk[1, 0] = cand
            while dep >= 0:
                p = s + dep
                pk = stk[2, dep]
                if pk >= 0:  # give back the tile tried last at this depth
                    if pk >= 32:
                        nb += 1
                    else:
                        rmask |= np.int64(1) << pk  # (unconditional: no branch to mispredict)
                        counts[pk] += 1
                    stk[2, dep] = -1
                cand = stk[1, dep]
                if cand == 0 or em == 0:
                    dep -= 1
                    continue
                b = lsb_index(cand)
                stk[1, dep] = cand & (cand - 1)
                nodew = stk[0, dep]
                ms = stk[3, dep]
                wmul = stk[4, dep]
                xsum = stk[5, dep]
                nt = stk[6, dep]
                bm = stk[7, dep]
                nm = stk[8, dep]
                key = stk[10, dep]
                li = stk[11, dep]
                opn = stk[12, dep]
                if lines[d, i, p] != EMPTY:
                    letter = b
                    ms += fv[d, i, p]
                else:
                    if b >= 32:
                        letter = b - 32
                        val = np.int64(0)
                        nb -= 1
                        bm |= np.int64(1) << dep
                    else:
                        letter = b
                        val = lval[letter]
                        counts[letter] -= 1
                        rmask &= ~(np.int64(counts[letter] == 0) << letter)
                    stk[2, dep] = b
                    if b >= 32:
                        key = kadd(key, MSET_HASH[letter])
                        # whole-rack filter: only the whole-rack end left to reach, at most one blank left
                        if we >= p and nb <= 1 and (em >> p) == (np.int64(1) << (we - p)):
                            if not mset_has(mtab, kadd(key, wtag1 if nb == 1 else wtag0)):
                                continue
                    lv = val * lm[d, i, p]
                    ms += lv
                    wmul *= wm[d, i, p]
                    xv = xs[d, i, p]
                    xsum += (xv + lv) * wm[d, i, p] * np.int64(xv >= 0)
                    nt += 1
                    nm |= np.int64(1) << dep
                    if best_only:
                        li -= stride[0] if b >= 32 else stride[letter + 1]
                        if use_opv:
                            opn += opv[p, letter]
                stk[9, dep] = letter
                if trie and p < f:
                    # a prefix tile: its trie child (the node of the prefix's letters, real tiles or blanks)
                    tc = tri[nodew, 2] + popcount(tri[nodew, 1] & ((np.int64(1) << letter) - 1))
                    e = tri[tc, 0]
                    # (the candidates were filtered by what f allowed before this tile left the rack: check again
                    # when that took a letter from f)
                    if lines[d, i, f] == EMPTY and nb == 0 and (b >= 32 or counts[letter] == 0):
                        if tri[tc, 2 + f - p] & cc[d, i, f] & rmask == 0:
                            continue
                else:
                    e = np.int64(dawg[child_slot(nodew & LOW32, nodew >> 32, letter)])
                if not trie and p < f and lines[d, i, f] == EMPTY and nb == 0 and (b >= 32 or counts[letter] == 0):
                    # every play from s covers f: the candidates here were filtered by what f allowed before this
                    # tile left the rack (:func:`_prefix_filter`); check again when that took a letter from f
                    af = cc[d, i, f] & rmask
                    if f - p == 1:
                        if (np.int64(dawg[e >> 1]) & af) == 0:
                            continue
                    elif (np.int64(reach[e >> 1, f - p]) & af) == 0:
                        continue
                if best_only:
                    # (no branch on whether this is a play: it mostly mispredicted; only a new best branches)
                    isp = (e & 1) & ((em >> p) & 1) & np.int64(nt > 0)
                    if d == 1 and nt == 1:  # one-tile play: listed across when the tile has an across word
                        isp &= np.int64(xs[d, i, s + lsb_index(nm)] < 0)
                    score = ms * wmul + xsum + bingo * np.int64(nt == rack_size)
                    val = scale * score + eqv[li] + opn
                    if (isp != 0) & (val >= bscore):
                        if n == 0 or val > bscore or _earlier(out, d, i, s, dep, stk, bm):
                            bscore = val
                            em, top = _new_best(out, d, i, s, dep + 1, score, nt, stk, bm, nm, endbs, x, em,
                                                val, top)
                    n += isp
                elif (e & 1) and (em >> p) & 1 and nt > 0:
                    keep = True
                    if d == 1 and nt == 1:
                        # one-tile play: listed across when the tile has an across word
                        q = s + lsb_index(nm)
                        if xs[d, i, q] >= 0:
                            keep = False
                    if keep:
                        score = ms * wmul + xsum
                        if nt == rack_size:
                            score += bingo
                        if best_only:
                            val = scale * score + eqv[li] + opn
                            if n == 0 or val > bscore or (val == bscore and _earlier(out, d, i, s, dep, stk, bm)):
                                bscore = val
                                em, top = _new_best(out, d, i, s, dep + 1, score, nt, stk, bm, nm, endbs, x, em,
                                                    val, top)
                        else:
                            if n == cap:  # full: the caller grows ``out`` and walks this start again
                                return n_start, t, tri
                            _emit_row(o32, n, d, i, s, dep + 1, score, nt, stk, bm, nm)
                        n += 1
                if p < top:
                    child = e >> 1
                    q = p + 1
                    if trie and q < f:
                        m = tri[tc, 1]  # (0: no child)
                    else:
                        m = np.int64(dawg[child])
                    if (m != 0 and we >= q and nb <= 1 and (em >> q) == (np.int64(1) << (we - q))
                            and (em >> p) != (np.int64(1) << (we - p))):
                        # from q on only the whole-rack end is left: is the multiset a word's?
                        if nb == nblank:  # no blank placed: the same multiset for every prefix here
                            if wok == 0:
                                wok = 1 if mset_has(mtab, kadd(key, wtag1 if nb == 1 else wtag0)) else 2
                            if wok == 2:
                                m = 0
                        elif not mset_has(mtab, kadd(key, wtag1 if nb == 1 else wtag0)):
                            m = 0
                    if m != 0:
                        # the next square's candidates first: a node with none is not pushed (about half the
                        # pushes of a blank rack's walk were such dead ends)
                        if lines[d, i, q] != EMPTY:
                            L = np.int64(lines[d, i, q])
                            c2 = (np.int64(1) << L) if (m >> L) & 1 else np.int64(0)
                        elif trie and q < f:
                            af = allowed_f
                            if lines[d, i, f] == EMPTY:
                                af = cc[d, i, f] if nb > 0 else cc[d, i, f] & rmask
                            pas = _trie_cands(tri, tc, f - q, af) & cc[d, i, q]
                            c2 = (pas & rmask) | ((pas << 32) if nb > 0 else np.int64(0))
                        else:
                            allowed = m & cc[d, i, q]
                            if q < f:
                                af = allowed_f
                                if lines[d, i, f] == EMPTY:
                                    af = cc[d, i, f] if nb > 0 else cc[d, i, f] & rmask
                                allowed &= _prefix_filter(dawg, reach, pmk, pmv, child, m, plim, f - q, af)
                            c2 = allowed & rmask
                            if nb > 0:
                                c2 |= allowed << 32
                        if c2 != 0 and best_only and q == top:
                            # the last square a play can end on: its letters are scored here, without a push
                            # (the same plays in the same order as the walk; about half the candidates the
                            # best-only walk tried were on such squares)
                            lq = np.int64(lines[d, i, q])
                            while c2 != 0 and (em >> q) & 1:
                                bq = lsb_index(c2)
                                c2 &= c2 - 1
                                if lq != EMPTY:
                                    letter2 = lq
                                    ms2 = ms + fv[d, i, q]
                                    wm2 = wmul
                                    xs2 = xsum
                                    nt2 = nt
                                    bm2 = bm
                                    nm2 = nm
                                    li2 = li
                                    op2 = opn
                                else:
                                    bl2 = np.int64(bq >= 32)
                                    letter2 = bq - 32 * bl2
                                    lv2 = (1 - bl2) * lval[letter2] * lm[d, i, q]
                                    ms2 = ms + lv2
                                    wm2 = wmul * wm[d, i, q]
                                    xv2 = xs[d, i, q]
                                    xs2 = xsum + (xv2 + lv2) * wm[d, i, q] * np.int64(xv2 >= 0)
                                    nt2 = nt + 1
                                    bm2 = bm | (bl2 << (dep + 1))
                                    nm2 = nm | (np.int64(1) << (dep + 1))
                                    li2 = li - (stride[0] if bl2 else stride[letter2 + 1])
                                    op2 = opn + (opv[q, letter2] if use_opv else 0)
                                isp = np.int64(dawg[child_slot(child, m, letter2)]) & 1 & np.int64(nt2 > 0)
                                if d == 1 and nt2 == 1:  # one-tile play: listed across
                                    isp &= np.int64(xs[d, i, s + lsb_index(nm2)] < 0)
                                score2 = ms2 * wm2 + xs2 + bingo * np.int64(nt2 == rack_size)
                                val2 = scale * score2 + eqv[li2] + op2
                                stk[9, dep + 1] = letter2
                                if (isp != 0) & (val2 >= bscore):
                                    if n == 0 or val2 > bscore or _earlier(out, d, i, s, dep + 1, stk, bm2):
                                        bscore = val2
                                        em, top = _new_best(out, d, i, s, dep + 2, score2, nt2, stk, bm2, nm2,
                                                            endbs, x, em, val2, top)
                                n += isp
                        elif c2 != 0:
                            dep += 1
                            stk[0, dep] = tc if trie and q < f else (m << 32) | child
                            stk[1, dep] = c2
                            stk[3, dep] = ms
                            stk[4, dep] = wmul
                            stk[5, dep] = xsum
                            stk[6, dep] = nt
                            stk[7, dep] = bm
                            stk[8, dep] = nm
                            stk[10, dep] = key
                            stk[11, dep] = li
                            stk[12, dep] = opn
                            stk[2, dep] = -1
        if best_only:
            if n0 == 1 and out[3] == 0:  # no play reached the floor (a play has 2 letters or more)
                return np.int64(0), bscore, tri
            return min(n, 1), bscore, tri
        return n, np.int64(-1), tri

    search.__name__ = search.__qualname__ = "search_best" if best_only else "search_all"  # (one cache file each)
    return kernel(search)


search_all = _search_kernel(False)
"""Every play from start ``t0`` on, ``n0`` rows of ``out`` already written: ``(n, t, tri)``, ``t`` = -1 when done,
else ``out`` filled up during start ``t`` and holds the ``n`` rows before it (grow it and call again from ``t`` with
``tri``, the prefix trie; pass :data:`NO_TRIE` the first time)."""
search_best = _search_kernel(True)
"""The best play by ``obj`` into ``out`` (:data:`REC` bytes): ``(n, value, _)``, ``n`` = 1 or 0 when there is none."""


@kernel
def score_obj():
    """The objective of the top-scoring play for :func:`best`: ``scale`` 1, nothing added."""
    z = np.zeros(1, np.int64)
    return z, np.zeros(33, np.int64), np.int64(1), np.int64(0), np.zeros((1, 1), np.int64), z.shape[0] > 1


@kernel
def equity_obj(rk, tile_pts, milli, caps, G, P, R, bag, opp_pts, vowel, pen, empty_board):
    """The objective of the play of highest static equity (millipoints, as :func:`._leaves.plays_equity`) for
    :func:`best`, rack ``rk`` by kind (0 blank, 1 + letter code): ``1000 * score`` + the leave's value while the
    bag (``bag`` tiles) holds tiles; with it empty, ``+ 2000 * opp_pts`` for a play that goes out, else ``- 2000 *``
    the points kept ``-`` :data:`._leaves.NON_OUTPLAY_PENALTY`; on the empty board the vowel penalty
    ``pen[0, square]`` (only across plays are generated there)."""
    K = caps.shape[0]
    z = np.zeros(K + 256, np.int64)  # (one allocation) the strides, then the leave map: 2 ** 7 sub-multisets at
    stride = z[:K]  # most, fewer with repeated tiles
    lmap = z[K:]
    return equity_obj_map(rk, tile_pts, milli, caps, G, P, R, bag, opp_pts, vowel, pen, empty_board, stride, lmap)


@kernel
def equity_obj_map(rk, tile_pts, milli, caps, G, P, R, bag, opp_pts, vowel, pen, empty_board, stride, lmap):
    """:func:`equity_obj` that fills the caller's ``stride``/``lmap`` with the rack's leave map
    (:func:`._leaves.leave_map`), for a caller that reads it again (:func:`._autoplay.pick_equity`)."""
    K = caps.shape[0]
    size = _leaves.leave_map(rk, milli, caps, G, P, R, stride, lmap)
    eqv = np.empty(size, np.int64)
    full = np.int64(0)
    for kd in range(K):
        full += rk[kd] * stride[kd]
    for li in range(size):
        if bag > 0:
            eqv[li] = lmap[li]
        elif li == 0:
            eqv[li] = 2000 * opp_pts
        else:
            pts = np.int64(0)
            for kd in range(K):
                if stride[kd] > 0:
                    pts += ((li // stride[kd]) % (rk[kd] + 1)) * tile_pts[kd]
            eqv[li] = -(2000 * pts + _leaves.NON_OUTPLAY_PENALTY)
    opv = np.zeros((SIZE if empty_board else 1, 32), np.int64)  # (read only on the empty board)
    if empty_board:
        for q in range(SIZE):
            for c in range(32):
                opv[q, c] = vowel[c] * pen[0, q]
    return eqv, stride, np.int64(1000), full, opv, empty_board
