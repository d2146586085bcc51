"""Move generation kernels (bitboards, side-relative), and ``legal_moves_kernel`` for the Python API.

A position is passed as ``own, opp, kings, white``: the side to move's pieces, the other side's pieces, all
kings (both colours), and whether the side to move is White. A move is stored as three ``uint64`` XOR masks,
so make and unmake are the same three XORs (``make_child``):

    ``a``  from-bit ^ to-bit of the moving piece (0 when a capturing king comes back to its square)
    ``b``  the captured pieces (removed from ``opp``)
    ``c``  the change to ``kings``: the moving king's from ^ to, a crowning man's to-bit, captured kings

Generators write moves as (a, b, c) triples into one workspace array ``ws`` from index ``base`` and return
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
from ._tables import BLACK_CROWN, BOARD, NEXT, ONE, RAY, S5, S6, WHITE_CROWN, ZERO

#: Capacity of one move list. Slides: each empty square is reached by at most one piece per direction, so
#: at most 4 * 48 = 192 slides. Captures (distinct from, to, captured-set triples of maximal length) have no
#: simple tight bound; 1024 is far above anything reachable in play, and overflow is detected, not silent.
MAX_MOVES = 1024
#: Capture stack depth: one frame per captured piece plus the start frame (at most 49 opposing pieces).
STACK = 51
#: Longest capture path recorded by the detailed generator: from-square plus one landing per capture.
MAX_PATH = STACK


#: Workspace layout (one ``uint64`` array per call, so hot calls pass a single array: every array argument
#: of a non-inlined Numba call costs an atomic reference-count increment and decrement). The capture stack
#: takes ``6 * STACK`` words (square, direction, captured set, landing set, victim, continued-flag); move
#: lists follow, three words (a, b, c) per move, ``MAX_MOVES`` moves per ply.
WS_SQ, WS_DR, WS_CAPT, WS_LAND, WS_VICT, WS_FOUND = (i * STACK for i in range(6))
MOVES_OFF = 6 * STACK
PLY_WORDS = 3 * MAX_MOVES

#: How kernels pass constants to other kernels. A plain ``int`` global reaches a callee as a ``Literal[int]``
#: type: the callee is compiled for that value, and Numba prunes the branches it decides (``path_off >= 0``).
#: That is wanted for ``CAP`` and ``NO_PATH`` (the perft variants carry no path-recording code: measured 2-3%
#: faster), and not for the ``BASE`` offset (typed ``int64``; as a literal it compiled every generator a
#: third time for nothing). So each generator compiles twice: with paths (``legal_moves_kernel``) and without.
BASE = np.int64(MOVES_OFF)
CAP = MAX_MOVES
NO_PATH = -1


@kernel
def make_workspace(nplies, extra):
    """Workspace for the capture stack and ``nplies`` move lists, plus ``extra`` words (paths)."""
    return np.empty(MOVES_OFF + nplies * PLY_WORDS + extra, dtype=np.uint64)


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
def gen_captures(own, opp, kings, white, ws, base, cap, path_off):
    """All maximal captures, duplicates (same from, to, captured set) dropped, written as (a, b, c) triples at
    ``ws[base:]``. Returns the count, -1 if more than ``cap``.

    When ``path_off >= 0``, move ``i``'s path (from-bit, every landing bit, then 64 as terminator) goes to
    ``ws[path_off + i * MAX_PATH:]``.
    """
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
        ws[WS_SQ] = np.uint64(f)
        ws[WS_DR] = ZERO
        ws[WS_CAPT] = ZERO
        ws[WS_LAND] = ZERO
        ws[WS_FOUND] = ZERO
        while top >= 0:
            lnd = ws[WS_LAND + top]
            if lnd != ZERO:
                ls = lsb_index(lnd)
                ws[WS_LAND + top] = lnd & (lnd - ONE)
                ws[WS_FOUND + top] = ONE
                top += 1
                ws[WS_SQ + top] = np.uint64(ls)
                ws[WS_DR + top] = ZERO
                ws[WS_CAPT + top] = ws[WS_CAPT + top - 1] | ws[WS_VICT + top - 1]
                ws[WS_LAND + top] = ZERO
                ws[WS_FOUND + top] = ZERO
                continue
            d = np.int64(ws[WS_DR + top])
            if d < 4:
                ws[WS_DR + top] = np.uint64(d + 1)
                s = np.int64(ws[WS_SQ + top])
                capturable = opp & ~ws[WS_CAPT + top]
                if is_king:
                    bl = RAY[d, s] & occ
                    if bl != ZERO:
                        v = _first_blocker(d, bl)
                        vb = ONE << np.uint64(v)
                        if (vb & capturable) != ZERO:
                            ws[WS_VICT + top] = vb
                            ws[WS_LAND + top] = _king_reach(d, v, occ)
                else:
                    vb = NEXT[d, s] & capturable
                    if vb != ZERO:
                        ws[WS_VICT + top] = vb
                        ws[WS_LAND + top] = NEXT[d, lsb_index(vb)] & empty
                continue
            # every direction tried: a frame without continuation ends a capture sequence
            if top > 0 and ws[WS_FOUND + top] == ZERO and top >= best:
                if top > best:
                    best = top
                    n = 0
                    piece_start = 0
                tbit = ONE << ws[WS_SQ + top]
                a = fbit ^ tbit
                b = ws[WS_CAPT + top]
                dup = False
                for i in range(piece_start, n):
                    if ws[base + 3 * i] == a and ws[base + 3 * i + 1] == b:
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
                    j = base + 3 * n
                    ws[j] = a
                    ws[j + 1] = b
                    ws[j + 2] = c ^ (b & kings)
                    if path_off >= 0:
                        for k in range(top + 1):
                            ws[path_off + n * MAX_PATH + k] = ws[WS_SQ + k]
                        if top + 1 < MAX_PATH:
                            ws[path_off + n * MAX_PATH + top + 1] = np.uint64(64)
                    n += 1
            top -= 1
    return n


@kernel
def gen_slides(own, opp, kings, white, ws, base, path_off):
    """All non-capturing moves as (a, b, c) triples at ``ws[base:]`` (at most 192, see ``MAX_MOVES``)."""
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
    for k in range(2):
        t = t5 if k == 0 else t6
        sh = S5 if k == 0 else S6
        while t != ZERO:
            tb = t & (~t + ONE)
            t ^= tb
            fb = (tb << sh) if white else (tb >> sh)
            j = base + 3 * n
            ws[j] = fb | tb
            ws[j + 1] = ZERO
            ws[j + 2] = tb & crown
            if path_off >= 0:
                ws[path_off + n * MAX_PATH] = np.uint64(lsb_index(fb))
                ws[path_off + n * MAX_PATH + 1] = np.uint64(lsb_index(tb))
                ws[path_off + n * MAX_PATH + 2] = np.uint64(64)
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
                j = base + 3 * n
                ws[j] = fb | tb
                ws[j + 1] = ZERO
                ws[j + 2] = fb | tb
                if path_off >= 0:
                    ws[path_off + n * MAX_PATH] = np.uint64(s)
                    ws[path_off + n * MAX_PATH + 1] = np.uint64(lsb_index(tb))
                    ws[path_off + n * MAX_PATH + 2] = np.uint64(64)
                n += 1
    return n


@kernel
def gen_moves(own, opp, kings, white, ws, base, path_off):
    """All legal moves (captures if any, else slides) at ``ws[base:]``. Returns the count, -1 on overflow."""
    if has_capture(own, opp, kings):
        return gen_captures(own, opp, kings, white, ws, base, CAP, path_off)
    return gen_slides(own, opp, kings, white, ws, base, path_off)


@kernel
def count_slides(own, opp, kings, white):
    """Number of non-capturing moves, by popcounts (no move list): bulk counting's fast path."""
    occ = own | opp
    empty = BOARD & ~occ
    men = own & ~kings
    kk = own & kings
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


@kernel
def legal_moves_kernel(own, opp, kings, white):
    """Every legal move with its path, for the Python API: ``(moves, paths, n)`` where ``moves`` is
    ``(n, 3)`` (a, b, c) and ``paths`` is ``(n, MAX_PATH)`` bit indices ended by 64; ``n == -1`` on overflow."""
    own = np.uint64(own)
    opp = np.uint64(opp)
    kings = np.uint64(kings)
    path_off = np.int64(MOVES_OFF + PLY_WORDS)
    ws = make_workspace(np.int64(1), np.int64(MAX_MOVES * MAX_PATH))
    n = gen_moves(own, opp, kings, white, ws, BASE, path_off)
    m = max(n, 0)
    moves = ws[MOVES_OFF:MOVES_OFF + 3 * m].copy().reshape((m, 3))
    paths = ws[path_off:path_off + m * MAX_PATH].copy().reshape((m, MAX_PATH))
    return moves, paths, n
