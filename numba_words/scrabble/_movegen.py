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

Output rows: ``meta[n] = (row, col, dir, length, score, tiles)``, ``words[n, :length]`` letter codes,
``blanks[n]``/``new[n]`` bit ``k`` = letter ``k`` of the word is a blank / a newly placed tile.
"""
from __future__ import annotations

import numba
import numpy as np

from .._jit import kernel, pkernel
from ..bits import lsb_index
from ..lexicon._dawg import child_slot
from ._tables import EMPTY, SIZE, bingo_has, bingo_key, bingo_tag

LOW32 = np.int64(0xFFFFFFFF)
NO_BOUND = np.int64(1) << 40  # an upper bound above every score


@kernel
def _earlier(meta, words, bmask, d, i, s, dep, stk, bm):
    """Whether the play being emitted (line ``(d, i)``, start ``s``, letters ``stk_w[:dep + 1]``, blank bits
    ``bm``) comes before the one in row 0 in generation order: by direction, line, start, then the walk's
    choice order (real tiles before blanks, letters in order; a word before its extensions). Keeps the
    best-only kernel's tie-breaking identical to a stable sort of the full list by score."""
    d0 = np.int64(meta[0, 2])
    if d0 == 0:
        i0 = np.int64(meta[0, 0])
        s0 = np.int64(meta[0, 1])
    else:
        i0 = np.int64(meta[0, 1])
        s0 = np.int64(meta[0, 0])
    if d != d0:
        return d < d0
    if i != i0:
        return i < i0
    if s != s0:
        return s < s0
    n0 = np.int64(meta[0, 3])
    b0 = np.int64(bmask[0])
    for k in range(min(n0, dep + 1)):
        a = np.int64(stk[9, k]) + 32 * ((bm >> k) & 1)
        b = np.int64(words[0, k]) + 32 * ((b0 >> k) & 1)
        if a != b:
            return a < b
    return dep + 1 < n0


def _make_walk(best_only: bool):
    """The walk kernel for one mode: every play (``best_only=False``) or the best one. The mode is a constant of
    the closure, so Numba prunes the other mode's branches before typing (the full-list kernel does not even
    compile the tie-break helper) and each kernel compiles only what it runs."""

    @kernel
    def _walk(lines, fv, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, dawg, meta, words, bmask, nmask, cap,
              rmask0, reach, starts, order, m, endbs):
        """Walk the DAWG from the starts ``order[:m]`` (columns of ``starts``: direction, line, start square ``s``,
        mask of valid ends, first square ``f`` every play covers, the letters allowed on ``f``, upper bound);
        record plays ending in the ends mask. Returns the number of plays (best only: the best in row 0, starts
        taken in decreasing bound order, stopping once a bound cannot beat it; ``endbs[x, e]`` bounds a play of
        start ``x`` ending at ``e``). One call walks every start: each array passed to a (non-inlined) call costs
        an atomic reference-count increment and decrement, which per start was ~10% of the best-only run time."""
        stk = np.empty((10, SIZE + 1), np.int64)  # every entry is written before it is read
        n = 0
        for t in range(m):
            x = order[t]
            d = starts[0, x]
            i = starts[1, x]
            s = starts[2, x]
            em = starts[3, x]
            f = starts[4, x]
            allowed_f = starts[5, x]
            if best_only and n > 0:
                lim = np.int64(meta[0, 4])
                if starts[6, x] < lim:
                    break
                # an equal score wins the tie-break only from a start earlier in generation order than the best's
                d0 = np.int64(meta[0, 2])
                i0 = np.int64(meta[0, 0]) if d0 == 0 else np.int64(meta[0, 1])
                s0 = np.int64(meta[0, 1]) if d0 == 0 else np.int64(meta[0, 0])
                if d > d0 or (d == d0 and (i > i0 or (i == i0 and s > s0))):
                    lim += 1
                    if starts[6, x] < lim:
                        continue
                for q in range(s, SIZE):  # drop the ends that cannot beat the best so far
                    if (em >> q) & 1 and endbs[x, q] < lim:
                        em &= ~(np.int64(1) << q)
                if em == 0:
                    continue
            top = SIZE - 1
            while top > s and (em >> top) & 1 == 0:
                top -= 1
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
            stk[2, 0] = -1
            # candidate set at depth 0
            p = s
            m = np.int64(dawg[0])
            if lines[d, i, p] != EMPTY:
                L = np.int64(lines[d, i, p])
                stk[1, 0] = (np.int64(1) << L) if (m >> L) & 1 else np.int64(0)
            else:
                allowed = m & cc[d, i, p]
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
                        if counts[pk] == 0:
                            rmask |= np.int64(1) << pk
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
                        if counts[letter] == 0:
                            rmask &= ~(np.int64(1) << letter)
                    stk[2, dep] = b
                    lv = val * lm[d, i, p]
                    ms += lv
                    wmul *= wm[d, i, p]
                    if xs[d, i, p] >= 0:
                        xsum += (xs[d, i, p] + lv) * wm[d, i, p]
                    nt += 1
                    nm |= np.int64(1) << dep
                stk[9, dep] = letter
                nmk = nodew >> 32
                e = np.int64(dawg[child_slot(nodew & LOW32, nmk, letter)])
                if p < f:
                    # every play from s covers f: drop a prefix from which no path puts an allowed letter there
                    # (next square: the child's own letters, a load the descent needs anyway; further: the reach table)
                    if f - p == 1:
                        if (np.int64(dawg[e >> 1]) & allowed_f) == 0:
                            continue
                    elif (np.int64(reach[e >> 1, f - p]) & allowed_f) == 0:
                        continue
                if (e & 1) and (em >> p) & 1 and nt > 0:
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
                            write = n == 0 or score > meta[0, 4] or (
                                score == meta[0, 4] and _earlier(meta, words, bmask, d, i, s, dep, stk, bm))
                            slot = 0
                        else:
                            write = n < cap
                            slot = n
                        if write:
                            if d == 0:
                                meta[slot, 0] = i
                                meta[slot, 1] = s
                            else:
                                meta[slot, 0] = s
                                meta[slot, 1] = i
                            meta[slot, 2] = d
                            meta[slot, 3] = dep + 1
                            meta[slot, 4] = score
                            meta[slot, 5] = nt
                            for k in range(dep + 1):
                                words[slot, k] = stk[9, k]
                            bmask[slot] = bm
                            nmask[slot] = nm
                            if best_only:
                                # ends whose bound does not beat the new best are no longer worth reaching (an
                                # equal score found later in this walk loses the tie-break)
                                for q in range(s, SIZE):
                                    if (em >> q) & 1 and endbs[x, q] <= score:
                                        em &= ~(np.int64(1) << q)
                                while top > s and (em >> top) & 1 == 0:
                                    top -= 1
                        n += 1
                if p < top:
                    child = e >> 1
                    m = np.int64(dawg[child])
                    if m != 0:
                        dep += 1
                        q = p + 1
                        stk[0, dep] = (m << 32) | child
                        stk[3, dep] = ms
                        stk[4, dep] = wmul
                        stk[5, dep] = xsum
                        stk[6, dep] = nt
                        stk[7, dep] = bm
                        stk[8, dep] = nm
                        stk[2, dep] = -1
                        if lines[d, i, q] != EMPTY:
                            L = np.int64(lines[d, i, q])
                            stk[1, dep] = (np.int64(1) << L) if (m >> L) & 1 else np.int64(0)
                        else:
                            allowed = m & cc[d, i, q]
                            c2 = allowed & rmask
                            if nb > 0:
                                c2 |= allowed << 32
                            stk[1, dep] = c2
        return n

    return _walk


_walk_all = _make_walk(False)
_walk_best = _make_walk(True)

@kernel
def _rack_mask(counts):
    m = np.int64(0)
    for c in range(32):
        if counts[c] > 0:
            m |= np.int64(1) << c
    return m


@kernel
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


@kernel
def generate(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, dawg, span, empty_board,
             meta, words, bmask, nmask, reach):
    """Every play of one position. Returns the number of plays; rows beyond ``meta.shape[0]`` are counted but
    not written (call again with more room). The best play alone is :func:`best`'s pruned search."""
    cap = meta.shape[0]
    cnt = counts.copy()
    rmask = _rack_mask(cnt)
    k = nblank
    for c in range(32):
        k += cnt[c]
    if k > 7:
        k = 7
    # the starts, in generation order (direction, line, start square); see _walk for the columns
    # rows 0-6: see _walk; row 7: the walk order (allocations the other kernels also make: fewer to compile)
    starts = np.empty((8, 2 * SIZE * SIZE), np.int64)
    m = np.int64(0)  # not a literal 0, which would compile _walk once more for a Literal[int] argument
    for d in range(2):
        for i in range(SIZE):
            conn = _line_conn(occ, empty_board, d, i)
            if conn == 0:
                continue
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
                starts[0, m] = d
                starts[1, m] = i
                starts[2, m] = s
                starts[3, m] = em
                starts[4, m] = first
                starts[5, m] = allowed
                starts[6, m] = NO_BOUND
                m += 1
    order = starts[7]
    for t in range(m):
        order[t] = t
    endbs = np.empty((1, SIZE), np.int64)  # read only by the best-only walk
    for q in range(SIZE):
        endbs[0, q] = NO_BOUND
    return _walk_all(lines, fv, cc, xs, lm, wm, lval, cnt, nblank, rack_size, bingo, dawg, meta, words, bmask, nmask,
                     cap, rmask, reach, starts, order, m, endbs)


@pkernel
def generate_batch(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, dawg, span,
                   empty_board, meta, words, bmask, nmask, nout, reach):
    """:func:`generate` for ``P`` positions in parallel (leading axis ``P`` on every per-position array);
    position ``p`` writes only ``meta[p]``, ``words[p]``, ... and ``nout[p]``."""
    P = lines.shape[0]
    for p in numba.prange(P):
        nout[p] = generate(lines[p], fv[p], occ[p], cc[p], xs[p], lm, wm, lval, counts[p], nblank[p], rack_size,
                           bingo, dawg, span, empty_board[p], meta[p], words[p], bmask[p], nmask[p],
                           reach)


@kernel
def best(lines, fv, occ, cc, xs, lm, wm, lval, counts, nblank, rack_size, bingo, dawg, span, empty_board,
         meta, words, bmask, nmask, reach, btab):
    """The top-scoring play only (written to row 0; returns 1, or 0 when there is no play).

    Every (line, start) is bounded from above first (fixed letters + the rack's best values on the best letter
    premiums, times the best word premiums, + every possible cross word, + bingo); starts are then walked in
    decreasing bound order and the search stops once the next bound cannot beat the best score found.

    End bounds: a play covering exactly ``s..e`` puts new tiles on all its empty squares, so with ``W`` the
    product of their word premiums its score is ``W * fixed + sum(cross tiles * their word premium) +
    sum(v_q * lm_q * (W + c_q)) (+ bingo)``, ``c_q`` the square's word premium when it makes a cross word, else
    0. The last sum is bounded by the smaller of: the rack's values sorted high first on ``lm`` and on
    ``lm * c`` sorted high first (rearrangement, each part kept sorted as squares are added), and each square's
    best rack letter allowed by its cross-check. Ends past a square no rack tile can fill are dropped.

    Bingo filter (``btab``, :func:`_tables.bingo_table`): with 7 tiles on the rack (at most one blank), a span
    needing all 7 and holding no fixed letter is dropped unless the rack spells a 7-letter word, and one
    holding one fixed letter ``L`` unless rack + ``L`` spells an 8-letter word (checked once per letter), and
    one holding two to four fixed letters unless rack + those spells a 9- to 11-letter word. Without it those
    spans' bingo bonus sends most racks through a long fruitless walk (blank racks above all: 7-tile spans
    through 2-4 tiles were most of their walk).
    """
    n_rack = nblank
    vals = np.zeros(8, np.int64)
    j = 0
    for c in range(32):
        for _ in range(counts[c]):
            if j < 8:
                vals[j] = lval[c]
            j += 1
    n_rack += j
    srt = np.sort(vals)[::-1].copy()
    rmask = _rack_mask(counts)
    # best rack letter value per empty square under its cross-check (-1: nothing on the rack fits)
    maxv = np.full((2, SIZE, SIZE), -1, np.int64)
    for d in range(2):
        for i in range(SIZE):
            for q in range(SIZE):
                if lines[d, i, q] != EMPTY:
                    continue
                ccq = cc[d, i, q]
                best_v = np.int64(0) if (nblank > 0 and ccq != 0) else np.int64(-1)
                fit = ccq & rmask
                while fit != 0:
                    c = lsb_index(fit)
                    fit &= fit - 1
                    if lval[c] > best_v:
                        best_v = lval[c]
                maxv[d, i, q] = best_v
    # bingo filter: real rack letters, ascending; b7 = the rack spells a 7-letter word
    bfilter = n_rack == rack_size and rack_size == 7 and nblank <= 1
    nreal = n_rack - nblank
    rc = np.zeros(8, np.int64)
    t = 0
    for c in range(32):
        for _ in range(counts[c]):
            if t < 8:
                rc[t] = c
            t += 1
    b7 = True
    if bfilter:
        b7 = bingo_has(btab, bingo_key(2 * nblank, rc, nreal))
    b8_known = np.int64(0)  # letters L whose "rack + L spells an 8-letter word" is known ...
    b8_ok = np.int64(0)  # ... and those for which it does
    r8 = np.zeros(8, np.int64)
    rx = np.zeros(16, np.int64)  # rack letters + 2 to 4 fixed letters, ascending
    fx = np.zeros(4, np.int64)  # the span's first fixed letters
    k = min(n_rack, 7)
    starts = np.empty((7, 2 * SIZE * SIZE), np.int64)  # columns as in _walk
    qs = np.zeros(SIZE, np.int64)  # letter premiums of the span's empty squares, high first
    eff = np.zeros(SIZE, np.int64)  # letter premium times cross-word premium, high first
    endbs = np.empty((2 * SIZE * SIZE, SIZE), np.int64)  # per-start end bounds, kept for the walk
    m = np.int64(0)  # not a literal 0, which would compile _walk once more for a Literal[int] argument
    for d in range(2):
        for i in range(SIZE):
            conn = _line_conn(occ, empty_board, d, i)
            if conn == 0:
                continue
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
                if em == 0:
                    continue
                # end bounds of this start, written out here: a call passing arrays costs an atomic
                # reference-count increment and decrement per array (~60% of the setup time as a helper)
                fixed = np.int64(0)
                wprod = np.int64(1)
                x0 = np.int64(0)
                by_lm = np.int64(0)
                by_c = np.int64(0)
                ne = 0
                nfix = 0
                fl = np.int64(0)
                bnd = np.int64(-1)
                for q in range(s, SIZE):
                    if (em >> q) == 0:
                        break
                    if lines[d, i, q] != EMPTY:
                        fixed += fv[d, i, q]
                        if nfix == 0:
                            fl = np.int64(lines[d, i, q])
                        if nfix < 4:
                            fx[nfix] = np.int64(lines[d, i, q])
                        nfix += 1
                    else:
                        mv = maxv[d, i, q]
                        if mv < 0:
                            em &= (np.int64(1) << q) - 1
                            break
                        w = wm[d, i, q]
                        wprod *= w
                        c = w if xs[d, i, q] >= 0 else 0
                        if xs[d, i, q] >= 0:
                            x0 += xs[d, i, q] * w
                        a = lm[d, i, q]
                        b = a * c
                        by_lm += mv * a
                        by_c += mv * b
                        j = ne
                        while j > 0 and qs[j - 1] < a:
                            qs[j] = qs[j - 1]
                            j -= 1
                        qs[j] = a
                        j = ne
                        while j > 0 and eff[j - 1] < b:
                            eff[j] = eff[j - 1]
                            j -= 1
                        eff[j] = b
                        ne += 1
                    if (em >> q) & 1:
                        if bfilter and ne >= rack_size and nfix <= 1:
                            if nfix == 0:
                                ok = b7
                            else:
                                if (b8_known >> fl) & 1 == 0:
                                    b8_known |= np.int64(1) << fl
                                    u = 0
                                    for j in range(nreal):  # rack letters + fl, ascending
                                        if u == j and rc[j] > fl:
                                            r8[u] = fl
                                            u += 1
                                        r8[u] = rc[j]
                                        u += 1
                                    if u == nreal:
                                        r8[u] = fl
                                    if bingo_has(btab, bingo_key(1 + 2 * nblank, r8, nreal + 1)):
                                        b8_ok |= np.int64(1) << fl
                                ok = (b8_ok >> fl) & 1 != 0
                            if not ok:
                                em &= ~(np.int64(1) << q)
                                continue
                        elif bfilter and ne >= rack_size and nfix <= 4:
                            # 9- to 11-letter word: rack + the two to four fixed letters
                            for j in range(nreal):
                                rx[j] = rc[j]
                            for j in range(nfix):
                                rx[nreal + j] = fx[j]
                            u = nreal + nfix
                            for j in range(1, u):  # insertion sort
                                v = rx[j]
                                t2 = j
                                while t2 > 0 and rx[t2 - 1] > v:
                                    rx[t2] = rx[t2 - 1]
                                    t2 -= 1
                                rx[t2] = v
                            if not bingo_has(btab, bingo_key(bingo_tag(7 + nfix, nblank), rx, u)):
                                em &= ~(np.int64(1) << q)
                                continue
                        r1 = np.int64(0)
                        r2 = np.int64(0)
                        for j in range(ne):
                            r1 += srt[j] * qs[j]
                            r2 += srt[j] * eff[j]
                        rearr = wprod * r1 + r2
                        byval = wprod * by_lm + by_c
                        eb = wprod * fixed + x0 + (rearr if rearr < byval else byval)
                        if ne >= rack_size:
                            eb += bingo
                        endbs[m, q] = eb
                        if eb > bnd:
                            bnd = eb
                if bnd < 0 or em == 0:
                    continue
                if lines[d, i, first] != EMPTY:
                    allowed = np.int64(1) << np.int64(lines[d, i, first])
                elif nblank > 0:
                    allowed = cc[d, i, first]
                else:
                    allowed = cc[d, i, first] & rmask
                if allowed == 0:
                    continue
                starts[0, m] = d
                starts[1, m] = i
                starts[2, m] = s
                starts[3, m] = em
                starts[4, m] = first
                starts[5, m] = allowed
                starts[6, m] = bnd
                m += 1
    # walk order: bounds high first, ties in generation order (keys are unique, so any sort is stable)
    keys = np.empty(m, np.int64)
    for x in range(m):
        keys[x] = -starts[6, x] * 512 + x  # x < 2 * 15 * 15 = 450 < 512; bounds < 2 ** 40
    order = np.sort(keys)
    for t in range(m):
        order[t] &= 511
    n = _walk_best(lines, fv, cc, xs, lm, wm, lval, counts.copy(), nblank, rack_size, bingo, dawg, meta, words,
                   bmask, nmask, np.int64(1), rmask, reach, starts, order, m, endbs)
    return min(n, 1)
