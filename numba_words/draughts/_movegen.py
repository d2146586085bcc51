"""Move generation kernels (bitboards, side-relative): perft's, which also list the moves of the
Python API (through the perft kernel, ``_search.walk_kernel``).

A position is passed as ``own, opp, kings, white``: the side to move's pieces, the other side's pieces, all
kings (both colours), and whether the side to move is White. A move is stored as three ``uint64`` XOR masks,
so make and unmake are the same three XORs:

    ``a``  from-bit ^ to-bit of the moving piece (0 when a capturing piece comes back to its square)
    ``b``  the captured pieces (removed from ``opp``)
    ``c``  the change to ``kings``: the moving king's from ^ to, a crowning man's to-bit, captured kings

Generators write moves as (a, b, c) triples into one workspace array ``ws`` from index ``base`` and return
how many they wrote, or ``-1`` past ``MAX_MOVES`` (callers turn that into an error; it cannot happen in a
legal game). Capture paths (landing squares) are not generated: the Python API finds one route per capture
from its (a, b, c) triple (``moves.py``).

* ``count_moves`` counts a position's moves without listing them (bulk counting): men by shifts and
  popcounts, king slides by ray fills (a Kogge-Stone fill along a direction through empty squares covers
  every king at once), the capture test by the same fills. A position with captures is counted too when
  every capture is short: men's by sets of landing squares carried along up to three jumps, kings' single
  captures by fills; else ``perft_captures`` lists them.
* ``perft_gen`` lists every move: men's single jumps straight from the same bitboards when they are the
  only captures, men's captures of two or three jumps from the sets of landing squares (each traced back
  from its last square), kings' single captures from the fills, other captures by ``perft_captures``,
  slides by ``perft_slides``.
* ``perft_captures`` walks capture sequences on a work stack of (captured set, last victim, direction)
  items. A king that has jumped a piece branches only sideways from each landing square, and goes on in
  the same direction once, from the first landing square: so one route is found once, and the only
  duplicate moves left are routes that take the same pieces in another order, which needs at least
  ``DUP_MIN`` captures (a closed loop). Only sequences that cannot go on are recorded, and only the longest.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .._jit import borrowed, inline, kernel  # noqa: F401 (borrowed: used by _search)
from ..bits import ALL64, lsb_index, msb_index, popcount
from ._tables import BLACK_CROWN, BOARD, NEXT, ONE, RAY, S5, S6, WHITE_CROWN, ZERO

#: Capacity of one move list. Slides: each empty square is reached by at most one piece per direction, so
#: at most 4 * 48 = 192 slides. Captures (distinct from, to, captured-set triples of maximal length) have no
#: simple tight bound; 1024 is far above anything reachable in play, and overflow is detected, not silent.
MAX_MOVES = 1024
#: Longest capture path: from-square plus one landing square per captured piece (at most 50 pieces).
MAX_PATH = 51
#: Work-stack items (two words each) of the capture search (``perft_captures``): at most 17 pending items
#: per captured piece (8 landing squares with 2 sideways captures each, and one straight on), 49 pieces.
CSTACK = 17 * 49 + 4
#: Workspace layout (one ``uint64`` array per call, so hot calls pass a single array: every array argument
#: of a non-inlined Numba call costs an atomic reference-count increment and decrement): the capture work
#: stack, then the move lists, three words (a, b, c) per move, ``MAX_MOVES`` moves per ply.
MOVES_OFF = 2 * CSTACK
PLY_WORDS = 3 * MAX_MOVES


@kernel
def make_workspace(nplies):
    """Workspace for the capture work stack and ``nplies`` move lists."""
    return np.empty(MOVES_OFF + nplies * PLY_WORDS, dtype=np.uint64)


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


#: Captures of fewer pieces than this cannot be duplicates (see above), so they skip the duplicate scan.
DUP_MIN = 4


# ``step``, ``fill`` and ``jumps`` are Numba intrinsics: their LLVM code is written here, so a call costs the
# compiler one typed node (helpers inlined at Numba IR level are typed again at every call site, and these
# have dozens) and LLVM still sees straight-line code. A step in direction d is ``(x << sl) >> sr`` with
# ``sl = d + 5, sr = 0`` for d < 2 and ``sl = 0, sr = d + 3`` else: no branch, whether ``d`` is known when
# compiling or only at run time.


def _shifts(builder, d, k):
    """(left, right) shift amounts (i64) of ``k`` steps in direction ``d`` (i64)."""
    i64 = ir.IntType(64)
    fwd = builder.icmp_unsigned("<", d, ir.Constant(i64, 2))
    sl = builder.select(fwd, builder.add(d, ir.Constant(i64, 5)), ir.Constant(i64, 0))
    sr = builder.select(fwd, ir.Constant(i64, 0), builder.add(d, ir.Constant(i64, 3)))
    return builder.mul(sl, ir.Constant(i64, k)), builder.mul(sr, ir.Constant(i64, k))


def _move(builder, x, sl, sr):
    return builder.lshr(builder.shl(x, sl), sr)


def _bits_intrinsic(nargs, build):
    """An intrinsic ``uint64 f(x1 .. x_nargs, d)`` over unsigned 64-bit words and a direction ``d``, whose
    body is ``build(builder, words, d)`` (all i64)."""

    def typer(typingctx, *args):
        if len(args) != nargs + 1 or not all(isinstance(t, types.Integer) for t in args):
            return None

        def codegen(context, builder, signature, llargs):
            vals = [context.cast(builder, v, t, types.uint64) for v, t in zip(llargs, signature.args)]
            return build(builder, vals[:-1], vals[-1])

        return types.uint64(*args), codegen

    # intrinsic() wants a named function with explicit parameters
    params = ", ".join(f"x{i}" for i in range(nargs + 1))
    scope = {"typer": typer}
    exec(f"def impl(typingctx, {params}):\n    return typer(typingctx, {params})", scope)
    scope["impl"].__name__ = build.__name__.lstrip("_")
    return intrinsic(scope["impl"])


def _step(builder, xs, d):
    sl, sr = _shifts(builder, d, 1)
    return _move(builder, xs[0], sl, sr)


def _fill(builder, xs, d):
    g, p = xs
    for k in (1, 2, 4):
        sl, sr = _shifts(builder, d, k)
        g = builder.or_(g, builder.and_(p, _move(builder, g, sl, sr)))
        p = builder.and_(p, _move(builder, p, sl, sr))
    sl, sr = _shifts(builder, d, 8)
    return builder.or_(g, builder.and_(p, _move(builder, g, sl, sr)))


def _jumps(builder, xs, d):
    x, opp, empty = xs
    sl, sr = _shifts(builder, d, 1)
    return builder.and_(_move(builder, builder.and_(_move(builder, x, sl, sr), opp), sl, sr), empty)


#: ``step(x, d)``: ``x`` moved one step in direction ``d`` (0: +5, 1: +6, 2: -5, 3: -6).
step = _bits_intrinsic(1, _step)
#: ``fill(g, p, d)``: ``g`` and every square reached from ``g`` through squares of ``p`` in direction ``d``
#: (Kogge-Stone: steps of 1, 2, 4 and 8 squares, enough for the 9 squares of the longest diagonal).
fill = _bits_intrinsic(2, _fill)
#: ``jumps(x, opp, empty, d)``: landing squares of one jump from the squares ``x`` over a piece of ``opp``
#: in direction ``d``.
jumps = _bits_intrinsic(3, _jumps)


@kernel
def king_singles(kk, opp, empty):
    """``(n, more)``: ``n`` single captures of the kings ``kk`` (one per landing square), ``more`` non-zero if
    one of them can go on (then ``n`` is no count). The kings' own squares play no part: no second jump from
    a landing square crosses the line the king came along."""
    n = 0
    more = ZERO
    for d in range(4):
        # victims: the first piece on a king's ray when it is an opposing piece with an empty square behind
        # no branch: the four directions are the same steps on four words, which the compiler vectorises
        v = step(fill(kk, empty, d), d) & opp & step(empty, d ^ 2)
        land = fill(step(v, d), empty, d)
        n += popcount(land)
        d1 = d ^ 1  # the two directions across: 0 <-> 1 and 2 <-> 3 ...
        d3 = d1 ^ 2  # ... and their opposites
        more |= (jumps(land, opp, empty, d) | jumps(fill(land, empty, d1), opp, empty, d1) |
                 jumps(fill(land, empty, d3), opp, empty, d3))
    return n, more


@kernel
def men_captures(men, opp, empty):
    """``(c1, c2, c3, longer)``: the men's capture sequences of one, two and three jumps, and whether one goes
    on to a fourth (or may: a fourth jump onto any man's square counts, as a man may come home on it).

    Sets of landing squares are carried along for all men at once. That is exact up to three jumps: no man
    comes back to its square or meets a piece it took within three jumps (a closed loop needs four), and no
    two routes of fewer than four jumps take the same pieces between the same squares. Jumps straight back
    need no test at the second jump (they would land on the man's own square), so the first landing squares
    are one set; the second ones are kept by the direction they were reached in (the third jump must not
    go straight back). When two routes reach one square by the same jump count (the sets would merge them),
    ``men_capture_paths`` counts with one set per sequence of directions."""
    j0 = jumps(men, opp, empty, 0)
    j1 = jumps(men, opp, empty, 1)
    j2 = jumps(men, opp, empty, 2)
    j3 = jumps(men, opp, empty, 3)
    land = j0 | j1 | j2 | j3
    c1 = popcount(j0) + popcount(j1) + popcount(j2) + popcount(j3)
    k0 = jumps(land, opp, empty, 0)
    k1 = jumps(land, opp, empty, 1)
    k2 = jumps(land, opp, empty, 2)
    k3 = jumps(land, opp, empty, 3)
    c2 = popcount(k0) + popcount(k1) + popcount(k2) + popcount(k3)
    if popcount(land) != c1 or popcount(k0 | k1 | k2 | k3) != c2:
        return men_capture_paths(men, opp, empty)
    if c2 == 0:
        return c1, 0, 0, False
    c3 = 0
    longer = False
    for d3 in range(4):
        t = ZERO
        for d2 in range(4):
            if d2 != (d3 ^ 2):
                k = k0 if d2 == 0 else (k1 if d2 == 1 else (k2 if d2 == 2 else k3))
                x = jumps(k, opp, empty, d3)
                c3 += popcount(x)
                t |= x
        for d4 in range(4):  # a fourth jump may land back on the man's own square
            if d4 != (d3 ^ 2):
                longer |= jumps(t, opp, empty | men, d4) != ZERO
    return c1, c2, c3, longer


@kernel
def men_capture_paths(men, opp, empty):
    """``men_captures`` with one set of landing squares per sequence of directions (never straight back)."""
    c1 = 0
    c2 = 0
    c3 = 0
    for d1 in range(4):
        j1 = jumps(men, opp, empty, d1)
        if j1 == ZERO:
            continue
        c1 += popcount(j1)
        for d2 in range(4):
            if d2 == (d1 ^ 2):
                continue
            j2 = jumps(j1, opp, empty, d2)
            if j2 == ZERO:
                continue
            c2 += popcount(j2)
            for d3 in range(4):
                if d3 == (d2 ^ 2):
                    continue
                j3 = jumps(j2, opp, empty, d3)
                if j3 == ZERO:
                    continue
                c3 += popcount(j3)
                for d4 in range(4):  # a fourth jump may land back on the man's own square
                    if d4 != (d3 ^ 2) and jumps(j3, opp, empty | men, d4) != ZERO:
                        return c1, c2, c3, True
    return c1, c2, c3, False


@inline
def king_fills(kk, empty):
    """Kings ``kk`` and every empty square they reach, one bitboard per direction."""
    return fill(kk, empty, 0), fill(kk, empty, 1), fill(kk, empty, 2), fill(kk, empty, 3)


@inline
def has_jump(u0, u1, u2, u3, opp, empty):
    """Whether a piece of ``u0`` (``u1``, ``u2``, ``u3``) can jump in direction 0 (1, 2, 3)."""
    return (jumps(u0, opp, empty, 0) | jumps(u1, opp, empty, 1) | jumps(u2, opp, empty, 2) |
            jumps(u3, opp, empty, 3)) != ZERO


@inline
def first_jumps(own, opp, kings):
    """``(empty, men, kings to move, j0, j1, j2, j3)``: ``jd`` the landing squares of the men's first jumps
    in direction ``d``."""
    empty = BOARD & ~(own | opp)
    men = own & ~kings
    return (empty, men, own & kings, jumps(men, opp, empty, 0), jumps(men, opp, empty, 1),
            jumps(men, opp, empty, 2), jumps(men, opp, empty, 3))


@inline
def men_slides(men, empty, white):
    """Number of slides of the men ``men``."""
    if white:
        return popcount((men >> S5) & empty) + popcount((men >> S6) & empty)
    return popcount((men << S5) & empty) + popcount((men << S6) & empty)


@inline
def count_moves(own, opp, kings, white):
    """Number of legal moves, without listing them when every capture is short (men: at most three jumps;
    kings: one); -1 otherwise (then ``perft_captures`` lists them). Each bitboard is worked out once: men's
    first jumps, kings' fills."""
    empty, men, kk, j0, j1, j2, j3 = first_jumps(own, opp, kings)
    land = j0 | j1 | j2 | j3
    kn = 0
    if kk != ZERO:
        f0, f1, f2, f3 = king_fills(kk, empty)
        if has_jump(f0, f1, f2, f3, opp, empty):
            kn, more = king_singles(kk, opp, empty)
            if more != ZERO:
                return -1
        elif land == ZERO:
            return (popcount(f0 ^ kk) + popcount(f1 ^ kk) + popcount(f2 ^ kk) + popcount(f3 ^ kk) +
                    men_slides(men, empty, white))
    elif land == ZERO:
        return men_slides(men, empty, white)
    if land == ZERO:
        return kn
    # no man's capture goes on (a jump straight back would land on the man's own square, which is not empty)
    if not has_jump(land, land, land, land, opp, empty):
        return popcount(j0) + popcount(j1) + popcount(j2) + popcount(j3) + kn
    c1, c2, c3, longer = men_captures(men, opp, empty)
    if longer:
        return -1
    if c3 > 0:
        return c3
    if c2 > 0:
        return c2
    return c1 + kn


@kernel
def king_capture_sources(kk, opp, empty):
    """Kings of ``kk`` with at least one capture, by fills: along each direction, the squares just before an
    opposing piece that has an empty square behind it, filled back through empty squares to a king."""
    src = ZERO
    for d in range(4):
        back = (d + 2) & 3
        r = step(step(jumps(fill(kk, empty, d), opp, empty, d), back), back)
        if r != ZERO:
            b = fill(r, empty, back)
            src |= (b | step(b, back)) & kk
    return src


# Move-list writes use unsigned indices: Numba adds a negative-index fix-up to every access with a signed
# index (a compare and two conditional moves), which is a third of the instructions of a slide's write.
U2 = np.uint64(2)
U3 = np.uint64(3)
U63 = np.uint64(63)


@inline
def perft_slides(own, opp, kings, white, ws, base):
    """All non-capturing moves as (a, b, c) triples at ``ws[base:]``; returns their number."""
    empty = BOARD & ~(own | opp)
    men = own & ~kings
    j = np.uint64(base)
    if white:
        crown = WHITE_CROWN
        t5 = (men >> S5) & empty
        t6 = (men >> S6) & empty
    else:
        crown = BLACK_CROWN
        t5 = (men << S5) & empty
        t6 = (men << S6) & empty
    while t5 != ZERO:
        tb = t5 & (~t5 + ONE)
        t5 ^= tb
        ws[j] = ((tb << S5) if white else (tb >> S5)) | tb
        ws[j + ONE] = ZERO
        ws[j + U2] = tb & crown
        j += U3
    while t6 != ZERO:
        tb = t6 & (~t6 + ONE)
        t6 ^= tb
        ws[j] = ((tb << S6) if white else (tb >> S6)) | tb
        ws[j + ONE] = ZERO
        ws[j + U2] = tb & crown
        j += U3
    kk = own & kings
    while kk != ZERO:
        fb = kk & (~kk + ONE)
        kk ^= fb
        for d in range(4):
            tb = step(fb, d) & empty
            while tb != ZERO:
                m = fb | tb
                ws[j] = m
                ws[j + ONE] = ZERO
                ws[j + U2] = m
                j += U3
                tb = step(tb, d) & empty
    return np.int64(j - np.uint64(base)) // 3


@inline
def first_blocker(d, blockers):
    """Index (uint64) of the blocker nearest the origin of a ray in direction ``d`` (uint64)."""
    if d < U2:
        return np.uint64(lsb_index(blockers))
    return np.uint64(msb_index(blockers))


@inline
def man_jumps_on(ws, sp, tb, caps, capt, empty):
    """Push a work-stack item (captured set, landing square) at ``ws[sp:]`` for every jump of a man on bit
    ``tb`` over a piece of ``capt`` (``caps`` taken so far); returns the new stack end (``sp`` if none)."""
    for d in range(4):
        vb = step(tb, d) & capt
        if vb != ZERO and (step(vb, d) & empty) != ZERO:
            ws[sp] = caps | vb
            ws[sp + ONE] = np.uint64(lsb_index(step(vb, d)))
            sp += U2
    return sp


@inline
def push_victims(ws, sp, vv, caps, tag):
    """Push a king's work-stack item (captured set, square | ``tag``) at ``ws[sp:]`` for each victim in
    ``vv`` (``caps`` taken before); returns the new stack end."""
    while vv != ZERO:
        wb = vv & (~vv + ONE)
        vv ^= wb
        ws[sp] = caps | wb
        ws[sp + ONE] = np.uint64(lsb_index(wb)) | tag
        sp += U2
    return sp


@inline
def listed_before(ws, start, n, a, caps):
    """Whether a move with squares ``a`` and captures ``caps`` is in ``ws[start:n]`` (uint64 indices)."""
    i = start
    while i < n and not (ws[i] == a and ws[i + ONE] == caps):
        i += U3
    return i < n


@inline
def side_pair(land, empty, capt, a, b):
    """``(a, va, b, vb, on)``: the victims ``va`` (``vb``) of captures in direction ``a`` (``b``) from the squares
    ``land`` (the first piece along each line when it is in ``capt`` with an empty square behind), and
    ``on``, every square of ``land`` that has one."""
    va = step(fill(land, empty, a), a) & capt & step(empty, a ^ 2)
    vb = step(fill(land, empty, b), b) & capt & step(empty, b ^ 2)
    on = fill(step(va, a ^ 2), empty, a ^ 2) | fill(step(vb, b ^ 2), empty, b ^ 2)
    return np.uint64(a), va, np.uint64(b), vb, on


@inline
def sideways(land, empty, capt, d):
    """``side_pair`` for the two directions across direction ``d``, each case with constant shifts."""
    if d == ZERO:
        return side_pair(land, empty, capt, 1, 3)
    if d == ONE:
        return side_pair(land, empty, capt, 0, 2)
    if d == U2:
        return side_pair(land, empty, capt, 3, 1)
    return side_pair(land, empty, capt, 2, 0)


#: Up to this many kings, ``perft_captures`` tries every king (see there).
FEW_KINGS = 3


@kernel
def perft_captures(own, opp, kings, white, ws, base):
    """All maximal captures (duplicates dropped) as (a, b, c) triples at ``ws[base:]``; returns their number,
    -1 past ``MAX_MOVES``. The work stack uses ``ws[0:2 * CSTACK]``: (captured set, square | direction << 6)
    per item, the square being a man's landing square or a king's last victim."""
    occ_all = own | opp
    crown = WHITE_CROWN if white else BLACK_CROWN
    men = own & ~kings
    empty0 = BOARD & ~occ_all
    sources = men_capture_sources(men, opp, empty0)
    kk = own & kings
    if kk != ZERO:
        # a few kings are tried one by one (four ray lookups each) rather than picked out by eight fills
        sources |= kk if popcount(kk) <= FEW_KINGS else king_capture_sources(kk, opp, empty0)
    ubase = np.uint64(base)
    n = ubase  # end of the list (index of the next move's first word)
    best = 1
    while sources != ZERO:
        f = np.uint64(lsb_index(sources))
        fbit = ONE << f
        sources ^= fbit
        occ = occ_all ^ fbit  # the moving piece has left its square
        empty = BOARD & ~occ
        piece_start = n
        sp = ZERO
        is_king = (fbit & kings) != ZERO
        if is_king:
            # the nearest piece along each direction (lowest bit of the ray upwards, highest downwards), kept
            # if it is an opposing piece with an empty square behind: no branch until the victims are known
            r0 = RAY[0, f] & occ
            r1 = RAY[1, f] & occ
            r2 = RAY[2, f] & occ
            r3 = RAY[3, f] & occ
            v0 = r0 & (~r0 + ONE) & opp & step(empty, 2)
            v1 = r1 & (~r1 + ONE) & opp & step(empty, 3)
            v2 = (ONE << np.uint64(msb_index(r2 | ONE))) & r2 & opp & step(empty, 0)
            v3 = (ONE << np.uint64(msb_index(r3 | ONE))) & r3 & opp & step(empty, 1)
            sp = push_victims(ws, sp, v0, ZERO, ZERO)
            sp = push_victims(ws, sp, v1, ZERO, ONE << S6)
            sp = push_victims(ws, sp, v2, ZERO, U2 << S6)
            sp = push_victims(ws, sp, v3, ZERO, U3 << S6)
        else:
            ws[0] = ZERO
            ws[1] = f
            sp = U2
        while sp != ZERO:
            sp -= U2
            caps = ws[sp]
            code = ws[sp + ONE]
            capt = opp & ~caps
            if is_king:
                # the king has just jumped square v in direction d: it may land on any empty square beyond
                v = code & U63
                d = code >> S6
                ray = RAY[d, v]
                bl = ray & occ
                land = ray
                ends = ZERO
                if bl != ZERO:
                    w = first_blocker(d, bl)
                    wb = ONE << w
                    land = ray & ~(RAY[d, w] | wb)
                    if (wb & capt) != ZERO and (NEXT[d, w] & empty) != ZERO:
                        ws[sp] = caps | wb
                        ws[sp + ONE] = code ^ v ^ w
                        sp += U2
                        ends = ALL64  # every landing square can go on straight: none ends the capture
                # sideways from every landing square at once: each line across holds one of them, so each
                # victim found belongs to one landing square
                da, va, db, vb, on = sideways(land, empty, capt, d)
                sp = push_victims(ws, push_victims(ws, sp, va, caps, da << S6), vb, caps, db << S6)
                ends = land & ~(ends | on)  # landing squares with no way on
            else:
                tb = ONE << code
                sp1 = man_jumps_on(ws, sp, tb, caps, capt, empty)
                ends = tb if caps != ZERO and sp1 == sp else ZERO
                sp = sp1
            if ends == ZERO:
                continue
            ncap = popcount(caps)
            if ncap < best:
                continue
            if ncap > best:
                best = ncap
                n = ubase
                piece_start = ubase
            kc = caps & kings
            while ends != ZERO:
                tb = ends & (~ends + ONE)
                ends ^= tb
                a = fbit ^ tb
                if ncap >= DUP_MIN and listed_before(ws, piece_start, n, a, caps):
                    continue  # the same pieces taken between the same squares by another route
                if n >= ubase + np.uint64(3 * MAX_MOVES):
                    return -1
                ws[n] = a
                ws[n + ONE] = caps
                ws[n + U2] = (a if is_king else (tb & crown)) ^ kc
                n += U3
    return np.int64(n - ubase) // 3


#: ``men_short_list`` lists at most 36 captures a man (4 * 3 * 3 sequences of directions): with up to this
#: many men they fit in a move list.
SHORT_MEN = MAX_MOVES // 36


@inline
def put_short(ws, n, x, l1, b, j0, j1, j2, j3, kings, crown):
    """Write the man's capture that ends on bit ``x``, with first landing square ``l1`` and the later
    victims ``b``, at ``ws[n:]``; the first jump is found in the one of ``j0..j3`` (the first landing
    squares by direction, disjoint) that holds ``l1``. Returns the new list end."""
    b0 = l1 & j0
    b1 = l1 & j1
    b2 = l1 & j2
    b3 = l1 & j3
    v1 = step(b0, 2) | step(b1, 3) | step(b2, 0) | step(b3, 1)
    f = step(step(b0, 2), 2) | step(step(b1, 3), 3) | step(step(b2, 0), 0) | step(step(b3, 1), 1)
    b |= v1
    ws[n] = f ^ x
    ws[n + ONE] = b
    ws[n + U2] = (x & crown) | (b & kings)
    return n + U3


@inline
def men_short_list(men, opp, empty, kings, crown, ws, n0):
    """The men's maximal captures at ``ws[n0:]`` (uint64 index) when the longest take two or three pieces,
    from the sets of landing squares of ``men_captures`` (each capture's squares traced back from its
    last one: no duplicates up to three jumps). Returns the list end, or 0 when a capture may take a fourth
    piece, when no capture goes on, or when two routes meet (the sets would merge them)."""
    j0 = jumps(men, opp, empty, 0)
    j1 = jumps(men, opp, empty, 1)
    j2 = jumps(men, opp, empty, 2)
    j3 = jumps(men, opp, empty, 3)
    land = j0 | j1 | j2 | j3
    k0 = jumps(land, opp, empty, 0)
    k1 = jumps(land, opp, empty, 1)
    k2 = jumps(land, opp, empty, 2)
    k3 = jumps(land, opp, empty, 3)
    k = k0 | k1 | k2 | k3
    if (k == ZERO or popcount(land) != popcount(j0) + popcount(j1) + popcount(j2) + popcount(j3) or
            popcount(k) != popcount(k0) + popcount(k1) + popcount(k2) + popcount(k3)):
        return ZERO
    three = ZERO
    for d3 in range(4):
        t = ZERO
        for d2 in range(4):
            if d2 != (d3 ^ 2):
                t |= jumps(k0 if d2 == 0 else (k1 if d2 == 1 else (k2 if d2 == 2 else k3)), opp, empty, d3)
        three |= t
        for d4 in range(4):  # a fourth jump may land back on the man's own square
            if d4 != (d3 ^ 2) and jumps(t, opp, empty | men, d4) != ZERO:
                return ZERO
    n = n0
    for d2 in range(4):
        kd = k0 if d2 == 0 else (k1 if d2 == 1 else (k2 if d2 == 2 else k3))
        if three == ZERO:
            while kd != ZERO:
                x = kd & (~kd + ONE)
                kd ^= x
                v2 = step(x, d2 ^ 2)
                n = put_short(ws, n, x, step(v2, d2 ^ 2), v2, j0, j1, j2, j3, kings, crown)
            continue
        for d3 in range(4):
            if d3 == (d2 ^ 2):
                continue
            t = jumps(kd, opp, empty, d3)
            while t != ZERO:
                x = t & (~t + ONE)
                t ^= x
                v3 = step(x, d3 ^ 2)
                v2 = step(step(v3, d3 ^ 2), d2 ^ 2)
                n = put_short(ws, n, x, step(v2, d2 ^ 2), v2 | v3, j0, j1, j2, j3, kings, crown)
    return n


@kernel
def men_captures_list(own, opp, kings, white, ws, base):
    """``perft_captures`` when no king can capture and some man's capture goes on (two jumps or more): the
    men's maximal captures (duplicates dropped) at ``ws[base:]``; returns their number, -1 past
    ``MAX_MOVES``. Captures of two or three jumps come from ``men_short_list`` when it can list them; else
    each first jump that can go on (from the men's jump bitboards, one direction at a time) seeds the work
    stack (captured set, landing square)."""
    empty0 = BOARD & ~(own | opp)
    men = own & ~kings
    crown = WHITE_CROWN if white else BLACK_CROWN
    ubase = np.uint64(base)
    if popcount(men) <= SHORT_MEN:
        n = men_short_list(men, opp, empty0, kings, crown, ws, ubase)
        if n != ZERO:
            return np.int64(n - ubase) // 3
    # squares with a jump onward: the second jump cannot land on the man's own square (only going straight
    # back over its first victim would), so the position's own empty squares tell
    onward = ZERO
    for d in range(4):
        onward |= step(step(empty0, d ^ 2) & opp, d ^ 2)
    n = ubase
    best = 2
    for d1 in range(4):
        t = jumps(men, opp, empty0, d1) & onward
        while t != ZERO:
            lb = t & (~t + ONE)
            t ^= lb
            v = step(lb, d1 ^ 2)
            fbit = step(v, d1 ^ 2)
            empty = empty0 | fbit
            ws[0] = v
            ws[1] = np.uint64(lsb_index(lb))
            sp = U2
            while sp != ZERO:
                sp -= U2
                caps = ws[sp]
                tb = ONE << ws[sp + ONE]
                capt = opp & ~caps
                sp1 = man_jumps_on(ws, sp, tb, caps, capt, empty)
                if sp1 != sp:
                    sp = sp1
                    continue
                ncap = popcount(caps)
                if ncap < best:
                    continue
                if ncap > best:
                    best = ncap
                    n = ubase
                a = fbit ^ tb
                if ncap >= DUP_MIN and listed_before(ws, ubase, n, a, caps):
                    continue  # the same pieces taken between the same squares by another route
                if n >= ubase + np.uint64(3 * MAX_MOVES):
                    return -1
                ws[n] = a
                ws[n + ONE] = caps
                ws[n + U2] = (tb & crown) ^ (caps & kings)
                n += U3
    return np.int64(n - ubase) // 3


@kernel
def king_singles_list(own, opp, kings, ws, base):
    """The kings' captures at ``ws[base:]`` when every capture takes one piece and no man can capture (see
    ``king_singles``): returns their number, or -2 when some capture goes on (then ``perft_captures``)."""
    empty = BOARD & ~(own | opp)
    kk = own & kings
    n1, more = king_singles(kk, opp, empty)
    if more != ZERO:
        return -2
    j = np.uint64(base)
    for d in range(4):
        v = step(fill(kk, empty, d), d) & opp & step(empty, d ^ 2)
        while v != ZERO:
            vb = v & (~v + ONE)
            v ^= vb
            kb = step(vb, d ^ 2) & kk  # the king that jumps it: next to it, or back past empty squares
            if kb == ZERO:
                kb = step(fill(step(vb, d ^ 2), empty, d ^ 2), d ^ 2) & kk
            land = fill(step(vb, d), empty, d)
            vk = vb & kings
            while land != ZERO:
                tb = land & (~land + ONE)
                land ^= tb
                m = kb | tb
                ws[j] = m
                ws[j + ONE] = vb
                ws[j + U2] = m ^ vk
                j += U3
    return np.int64(j - np.uint64(base)) // 3


@inline
def perft_gen(own, opp, kings, white, ws, base):
    """Every legal move at ``ws[base:]``; returns the count, -1 on overflow. Men's single jumps are listed
    here when they are the only captures (no king can capture, no man's capture goes on: see
    ``count_moves``), kings' single captures by ``king_singles_list`` when they are the only captures, men's
    longer ones by ``men_captures_list``; other captures by ``perft_captures``, slides by ``perft_slides``."""
    empty, men, kk, j0, j1, j2, j3 = first_jumps(own, opp, kings)
    land = j0 | j1 | j2 | j3
    if kk != ZERO:
        f0, f1, f2, f3 = king_fills(kk, empty)
        if has_jump(f0, f1, f2, f3, opp, empty):
            if land == ZERO:
                m = king_singles_list(own, opp, kings, ws, base)
                if m >= 0:
                    return m
            return perft_captures(own, opp, kings, white, ws, base)
    if land == ZERO:
        return perft_slides(own, opp, kings, white, ws, base)
    if has_jump(land, land, land, land, opp, empty):  # a man's capture goes on (see count_moves)
        return men_captures_list(own, opp, kings, white, ws, base)
    crown = WHITE_CROWN if white else BLACK_CROWN
    j = np.uint64(base)
    for d in range(4):
        t = j0 if d == 0 else (j1 if d == 1 else (j2 if d == 2 else j3))
        while t != ZERO:
            tb = t & (~t + ONE)
            t ^= tb
            v = step(tb, d ^ 2)  # the victim, then the man's square
            ws[j] = step(v, d ^ 2) | tb
            ws[j + ONE] = v
            ws[j + U2] = (tb & crown) | (v & kings)
            j += U3
    return np.int64(j - np.uint64(base)) // 3
