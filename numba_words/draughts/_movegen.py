"""Move generation kernels (bitboards, side-relative).

A position is passed as ``own, opp, kings, white``: the side to move's pieces, the other side's pieces, all
kings (both colours), and whether the side to move is White. A move is stored as three ``uint64`` XOR masks,
so make and unmake are the same three XORs (``make_child``):

    ``a``  from-bit ^ to-bit of the moving piece (0 when a capturing king comes back to its square)
    ``b``  the captured pieces (removed from ``opp``)
    ``c``  the change to ``kings``: the moving king's from ^ to, a crowning man's to-bit, captured kings

Generators write moves into flat arrays ``ma, mb, mc`` from index ``base`` up to ``base + cap`` and return
how many they wrote, or ``-1`` if ``cap`` would be exceeded (callers turn that into an error; it cannot
happen in a legal game, see ``MAX_MOVES``).

Capture search is a depth-first search on an explicit stack (no recursion: Numba's on-disk cache does not
support self-recursive functions well, numba issue 6061). Every stack frame is one partial capture; a frame
is pushed per landing square. The depth is at most the number of opposing pieces (each step captures one
piece, none twice), hence ``STACK = 51`` frames covers any position with at most 50 pieces.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import lsb_index, msb_index, popcount
from ._board import BLACK_CROWN, BOARD, NEXT, ONE, RAY, S5, S6, WHITE_CROWN, ZERO

#: Capacity of one move list. Slides: each empty square is reached by at most one piece per direction, so
#: at most 4 * 48 = 192 slides. Captures (distinct from, to, captured-set triples of maximal length) have no
#: simple tight bound; 1024 is far above anything reachable in play, and overflow is detected, not silent.
MAX_MOVES = 1024
#: Capture stack depth: one frame per captured piece plus the start frame (at most 49 opposing pieces).
STACK = 51
#: Longest capture path recorded by the detailed generator: from-square plus one landing per capture.
MAX_PATH = STACK


@kernel
def make_stack():
    """Scratch for the capture search: squares, captured sets, directions, landing sets, victims, flags."""
    sq = np.zeros(STACK, dtype=np.int64)
    dr = np.zeros(STACK, dtype=np.int64)
    capt = np.zeros(STACK, dtype=np.uint64)
    land = np.zeros(STACK, dtype=np.uint64)
    vict = np.zeros(STACK, dtype=np.uint64)
    found = np.zeros(STACK, dtype=np.bool_)
    return sq, dr, capt, land, vict, found


@kernel
def _first_blocker(d, blockers):
    """Index of the blocker nearest the origin on a ray in direction ``d`` (0,1 increasing; 2,3 decreasing)."""
    if d < 2:
        return lsb_index(blockers)
    return msb_index(blockers)


@kernel
def _king_reach(d, s, occ):
    """Empty squares a king on bit ``s`` reaches in direction ``d`` (fill up to the first occupied square)."""
    r = RAY[d, s]
    bl = r & occ
    if bl != ZERO:
        f = _first_blocker(d, bl)
        r &= ~(RAY[d, f] | (ONE << np.uint64(f)))
    return r


@kernel
def men_capture_sources(men, opp, empty):
    """Bitboard of men that have at least one capture (forward or backward), by shifts."""
    src = ZERO
    t = (((men << S5) & opp) << S5) & empty
    src |= (t >> S5) >> S5
    t = (((men << S6) & opp) << S6) & empty
    src |= (t >> S6) >> S6
    t = (((men >> S5) & opp) >> S5) & empty
    src |= (t << S5) << S5
    t = (((men >> S6) & opp) >> S6) & empty
    src |= (t << S6) << S6
    return src


@kernel
def king_has_capture(s, occ, opp, empty):
    for d in range(4):
        bl = RAY[d, s] & occ
        if bl != ZERO:
            f = _first_blocker(d, bl)
            fb = ONE << np.uint64(f)
            if (fb & opp) != ZERO and (NEXT[d, f] & empty) != ZERO:
                return True
    return False


@kernel
def has_capture(own, opp, kings):
    occ = own | opp
    empty = BOARD & ~occ
    if men_capture_sources(own & ~kings, opp, empty) != ZERO:
        return True
    k = own & kings
    while k != ZERO:
        s = lsb_index(k)
        k &= k - ONE
        if king_has_capture(s, occ, opp, empty):
            return True
    return False


@kernel
def gen_captures(own, opp, kings, white, ma, mb, mc, base, cap, stk, path, want_path):
    """All maximal captures, duplicates (same from, to, captured set) dropped. Returns the count, -1 on overflow.

    ``path`` (``(cap, MAX_PATH)`` int64, used when ``want_path``) receives the from-bit, then every landing
    bit, then ``-1``.
    """
    sq, dr, capt, land, vict, found = stk
    occ_all = own | opp
    crown = WHITE_CROWN if white else BLACK_CROWN
    men = own & ~kings
    empty0 = BOARD & ~occ_all
    sources = men_capture_sources(men, opp, empty0) | (own & kings)
    n = 0
    best = 1
    while sources != ZERO:
        f = lsb_index(sources)
        fbit = ONE << np.uint64(f)
        sources &= sources - ONE
        is_king = (fbit & kings) != ZERO
        occ = occ_all & ~fbit  # the moving piece has left its square
        empty = BOARD & ~occ
        piece_start = n
        top = 0
        sq[0] = f
        dr[0] = 0
        capt[0] = ZERO
        land[0] = ZERO
        found[0] = False
        while top >= 0:
            if land[top] != ZERO:
                lnd = land[top]
                ls = lsb_index(lnd)
                land[top] = lnd & (lnd - ONE)
                found[top] = True
                top += 1
                sq[top] = ls
                dr[top] = 0
                capt[top] = capt[top - 1] | vict[top - 1]
                land[top] = ZERO
                found[top] = False
                continue
            d = dr[top]
            if d < 4:
                dr[top] = d + 1
                s = sq[top]
                capturable = opp & ~capt[top]
                if is_king:
                    bl = RAY[d, s] & occ
                    if bl != ZERO:
                        v = _first_blocker(d, bl)
                        vb = ONE << np.uint64(v)
                        if (vb & capturable) != ZERO:
                            vict[top] = vb
                            land[top] = _king_reach(d, v, occ)
                else:
                    vb = NEXT[d, s] & capturable
                    if vb != ZERO:
                        vict[top] = vb
                        land[top] = NEXT[d, lsb_index(vb)] & empty
                continue
            # every direction tried: a frame without continuation ends a capture sequence
            if top > 0 and not found[top] and top >= best:
                if top > best:
                    best = top
                    n = 0
                    piece_start = 0
                t = sq[top]
                tbit = ONE << np.uint64(t)
                a = fbit ^ tbit
                b = capt[top]
                dup = False
                for i in range(piece_start, n):
                    if ma[base + i] == a and mb[base + i] == b:
                        dup = True
                        break
                if not dup:
                    if n >= cap:
                        return -1
                    if is_king:
                        c = a
                    elif (tbit & crown) != ZERO:
                        c = tbit
                    else:
                        c = ZERO
                    ma[base + n] = a
                    mb[base + n] = b
                    mc[base + n] = c ^ (b & kings)
                    if want_path:
                        for j in range(top + 1):
                            path[n, j] = sq[j]
                        path[n, top + 1] = -1
                    n += 1
            top -= 1
    return n


@kernel
def gen_moves(own, opp, kings, white, ma, mb, mc, base, cap, stk, path, want_path):
    """All legal moves (captures if any, else slides). Returns the count, -1 on overflow."""
    if has_capture(own, opp, kings):
        return gen_captures(own, opp, kings, white, ma, mb, mc, base, cap, stk, path, want_path)
    occ = own | opp
    empty = BOARD & ~occ
    men = own & ~kings
    n = 0
    if white:
        crown = WHITE_CROWN
        t5 = (men >> S5) & empty
        t6 = (men >> S6) & empty
    else:
        crown = BLACK_CROWN
        t5 = (men << S5) & empty
        t6 = (men << S6) & empty
    if popcount(t5) + popcount(t6) > cap:
        return -1
    for k in range(2):
        t = t5 if k == 0 else t6
        sh = S5 if k == 0 else S6
        while t != ZERO:
            tb = t & (~t + ONE)
            t ^= tb
            fb = (tb << sh) if white else (tb >> sh)
            ma[base + n] = fb | tb
            mb[base + n] = ZERO
            mc[base + n] = tb & crown
            if want_path:
                path[n, 0] = lsb_index(fb)
                path[n, 1] = lsb_index(tb)
                path[n, 2] = -1
            n += 1
    kk = own & kings
    while kk != ZERO:
        s = lsb_index(kk)
        kk &= kk - ONE
        fb = ONE << np.uint64(s)
        for d in range(4):
            r = _king_reach(d, s, occ)
            while r != ZERO:
                tb = r & (~r + ONE)
                r ^= tb
                if n >= cap:
                    return -1
                ma[base + n] = fb | tb
                mb[base + n] = ZERO
                mc[base + n] = fb | tb
                if want_path:
                    path[n, 0] = s
                    path[n, 1] = lsb_index(tb)
                    path[n, 2] = -1
                n += 1
    return n


@kernel
def count_moves(own, opp, kings, white, ma, mb, mc, base, cap, stk, path):
    """Number of legal moves without making them (bulk counting): popcounts for slides, the capture search
    (with duplicate removal) only when a capture exists."""
    occ = own | opp
    empty = BOARD & ~occ
    men = own & ~kings
    kk = own & kings
    if men_capture_sources(men, opp, empty) != ZERO:
        return gen_captures(own, opp, kings, white, ma, mb, mc, base, cap, stk, path, False)
    k = kk
    while k != ZERO:
        s = lsb_index(k)
        k &= k - ONE
        if king_has_capture(s, occ, opp, empty):
            return gen_captures(own, opp, kings, white, ma, mb, mc, base, cap, stk, path, False)
    if white:
        n = popcount((men >> S5) & empty) + popcount((men >> S6) & empty)
    else:
        n = popcount((men << S5) & empty) + popcount((men << S6) & empty)
    while kk != ZERO:
        s = lsb_index(kk)
        kk &= kk - ONE
        for d in range(4):
            n += popcount(_king_reach(d, s, occ))
    return n
