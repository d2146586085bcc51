"""The evaluation kernel: a position's score for the side to move, a weighted sum of terms (``TERMS``), each
the side to move's count minus the opponent's, then scaled toward 0 when the side ahead cannot usually win.

Terms (per side; "men" are the side's men, "ahead" is towards the crowning row):

``men``       men on the board
``kings``     kings on the board
``advance``   rows each man has advanced from its own back row, summed (0-8 a man)
``centre``    men on the ten centre squares 18, 19, 22, 23, 24, 27, 28, 29, 32, 33
``balance``   minus |men on the left half (columns 0-4) - men on the right half|
``back``      men on the side's own back row (guards against crowning)
``outpost``   men advanced 4 rows or more with both squares behind them held by the side's pieces
``blocked``   men with no empty square ahead (locked in)
``mobility``  slides of the men
``runaway``   men advanced 4 rows or more with no opposing piece in the cone ahead of them, each counted
              as its rows advanced minus 3 (1 to 5)
``kingmob``   squares the kings reach by sliding, per direction (a square reached by two kings along one
              direction counts once)
``diagonal``  kings on the long diagonal 5-46
``edge``      men on the left or right edge (columns 0 and 9)
``golden``    a man on the side's golden square (White 48, Black 3), the back-rank guard of the centre
``wings``     minus |men on the left wing (columns 0-2) - men on the right wing (columns 7-9)|
``late``      ``advance`` when 16 pieces or fewer are left (the race to crown of the endgame), else 0
``forklock``  the fork lock: men on 26, 27, 31 and 36 holding opposing men on 16 and 18, with an opposing man on
              one of 22, 23 and 28 and no man on the other two (White's squares; Black's are ``51 - s``)
``chainlock`` a man held in a chain: a man on 28 (29) facing opposing men on both squares ahead, 22 and 23
              (23 and 24), with no man beside it on 27 and 29 (28 and 30); the side's own weakness
``winglock``  wing locks: the long wing (a man on 25 holding an opposing man on 20, backed from 30 or 35), and
              two short-wing ones (men on 26 and 28 against opposing 11 and 17, with 6 and 22 free of men;
              a man on 26 against opposing 16 and 21, backed from 27 or 32)
``weakpost``  a man on the outpost 22 or 24 that is weak: fewer than two of the three squares behind it
              (22: 27, 28, 32; 24: 29, 30, 34) hold the side's men, or more opposing men can attack it (in
              the three rows ahead, within its cone) than own men defend it (the three rows behind)
``classic``   the classical centre, men on 28 and 32: 2 plus 2 for each man on 27 and 33, less the side's
              lead in ``advance`` over the opponent's men (a classical centre wants to be behind in tempo);
              0 without it
``develop``   the rear's development while more than 16 pieces are left: men on 36 and 45 count 1, on 44
              and 46 -1, on 41 and 50 -2
``kingsq``    kings on the double-corner diagonals 1-45 and 6-50
``crown``     men one row from crowning with an empty crowning square ahead
``freepath``  men two or three moves from crowning (counted 4 and 1) whose way to an empty crowning square no
              opposing man can bar in time, the side to move counted: each square of the way must be empty and,
              but the crowning one, neither be nor touch (diagonally) a square the opponent's men reach in the
              moves the opponent makes before the man gets there (one more when the opponent moves first, and
              then the man's own square must not touch its men either); 0 while the opponent has a king

Weights are integers in milli-men (1000 = one man), so the kernel and the plain-Python reference agree
exactly, and tapered: ``weights[0]`` (the opening's) count alone from ``PHASE_LOW + PHASES`` pieces on the board
up, ``weights[1]`` (the endgame's) at ``PHASE_LOW`` pieces or fewer, and in between the score is the blend of the
two sums, ``(opening * p + endgame * (PHASES - p)) / PHASES`` with ``p = pieces - PHASE_LOW`` (toward 0). Endgame
scaling: when both sides have kings the score is halved (a king holds many endings), and
when the side ahead has at most three pieces and the other side has a king (a lone king usually draws
against three pieces), it is divided by ``DRAWISH``; both rounded toward 0.
"""
from __future__ import annotations

import numpy as np

from .._jit import inline, kernel
from ..bits import popcount
from ._movegen import fill, step
from ._patterns import pattern_sums
from ._tables import BOARD, SQ2BIT, ZERO, square_rc

TERMS = ("men", "kings", "advance", "centre", "balance", "back", "outpost", "blocked", "mobility", "runaway",
         "kingmob", "diagonal", "edge", "golden", "wings", "late", "forklock", "chainlock", "winglock", "weakpost",
         "classic", "develop", "kingsq", "crown", "freepath")
N_TERMS = len(TERMS)
#: Milli-men in one man: the unit of scores inside the search.
UNIT = 1000
#: Drawish material: the score is divided by this.
DRAWISH = 8
#: Tapered weights (see above): the endgame's alone at this many pieces or fewer, the opening's alone from
#: ``PHASE_LOW + PHASES`` pieces.
PHASE_LOW = 8
PHASES = 32


def _mask(squares) -> np.uint64:
    m = 0
    for s in squares:
        m |= 1 << int(SQ2BIT[s])
    return np.uint64(m)


def _advance(s: int, white: bool) -> int:
    r = square_rc(s)[0]
    return 9 - r if white else r


#: ``ADV_BITS[w, j]``: squares where a man of colour ``w`` (1 White, 0 Black) has advanced a number of rows with
#: bit ``j`` set: the men's advance is ``sum(2**j * popcount(men & ADV_BITS[w, j]))`` (0-8 rows a man).
ADV_BITS = np.array([[_mask([s for s in range(1, 51) if _advance(s, bool(w)) >> j & 1]) for j in range(4)]
                     for w in range(2)], dtype=np.uint64)
#: ``FAR[w]``: squares advanced 4 rows or more.
FAR = np.array([_mask([s for s in range(1, 51) if _advance(s, bool(w)) >= 4]) for w in range(2)], dtype=np.uint64)
#: ``BACK[w]``: a colour's own back row.
BACK = np.array([_mask([s for s in range(1, 51) if _advance(s, bool(w)) == 0]) for w in range(2)], dtype=np.uint64)
CENTRE = _mask((18, 19, 22, 23, 24, 27, 28, 29, 32, 33))
GOLDEN = np.array([_mask([3]), _mask([48])], dtype=np.uint64)
LEFT_WING = _mask([s for s in range(1, 51) if square_rc(s)[1] <= 2])
RIGHT_WING = _mask([s for s in range(1, 51) if square_rc(s)[1] >= 7])
#: Pieces on the board at most for the ``late`` term.
LATE = 16
LEFT = _mask([s for s in range(1, 51) if square_rc(s)[1] <= 4])
RIGHT = np.uint64(int(BOARD) & ~int(LEFT))
EDGE = _mask([s for s in range(1, 51) if square_rc(s)[1] in (0, 9)])
DIAGONAL = _mask((5, 10, 14, 19, 23, 28, 32, 37, 41, 46))
#: Rows ahead of a man of ``FAR`` at most (the cone of ``runaway`` reaches that far).
RUN_ROWS = 5


def _mirror(squares, w: int) -> np.uint64:
    """The mask of White's ``squares`` for colour ``w`` (Black's squares are ``51 - s``)."""
    return _mask(squares if w else [51 - s for s in squares])


#: Configurations, White's squares: (term, own men on all of, opposing men on all of, no man of either colour
#: on, own men on at least one of).
_PATTERNS = [("chainlock", (m,), (a, b), (m - 1, m + 1), ()) for m, a, b in ((28, 22, 23), (29, 23, 24))]
_PATTERNS += [("winglock", (25,), (20,), (), (30, 35)), ("winglock", (26, 28), (11, 17), (6, 22), ()),
              ("winglock", (26,), (16, 21), (), (27, 32))]
#: ``PATTERN[w, k]``: masks (own men, opposing men, free of men, own men on one of) of configuration ``k``
#: for colour ``w``; ``PATTERN_TERM[k]``: its term's index.
PATTERN = np.array([[[_mirror(p[i], w) for i in range(1, 5)] for p in _PATTERNS] for w in range(2)],
                   dtype=np.uint64)
PATTERN_TERM = np.array([TERMS.index(p[0]) for p in _PATTERNS], dtype=np.int64)


def _zone(s: int, rows: range, ahead: bool, white: bool = True) -> list[int]:
    """Squares ``k`` rows ahead of (or behind) White's square ``s`` for ``k`` in ``rows``, within ``k`` columns."""
    r, c = square_rc(s)
    out = []
    for t in range(1, 51):
        r2, c2 = square_rc(t)
        k = r - r2 if ahead else r2 - r
        if k in rows and abs(c2 - c) <= k:
            out.append(t)
    return out


#: Outposts, White's squares: (square, squares behind that support it).
_OUTPOSTS = ((22, (27, 28, 32)), (24, (29, 30, 34)))
#: ``OUTPOST[w, k]``: masks (the outpost, its support, where attackers stand, where defenders stand).
OUTPOST = np.array([[[_mirror([o], w), _mirror(sup, w), _mirror(_zone(o, range(1, 4), True), w),
                      _mirror(_zone(o, range(1, 4), False), w)] for o, sup in _OUTPOSTS] for w in range(2)],
                   dtype=np.uint64)
#: ``CLASSIC[w]``: masks (the classical centre 28 and 32, its wings 27 and 33).
CLASSIC = np.array([[_mirror((28, 32), w), _mirror((27,), w), _mirror((33,), w)] for w in range(2)],
                   dtype=np.uint64)
#: ``DEVELOP[w]``: masks of the rear squares worth 1, -1 and -2.
DEVELOP = np.array([[_mirror((36, 45), w), _mirror((44, 46), w), _mirror((41, 50), w)] for w in range(2)],
                   dtype=np.uint64)
KING_SQUARES = _mask((1, 7, 12, 18, 23, 29, 34, 40, 45, 6, 11, 17, 22, 28, 33, 39, 44, 50))
#: ``NEAR[w]``: squares one row from crowning.
NEAR = np.array([_mask([s for s in range(1, 51) if _advance(s, bool(w)) == 8]) for w in range(2)],
                dtype=np.uint64)
#: ``ROW_ADV[w, a]``: squares where a man of colour ``w`` has advanced ``a`` rows; ``ROW_ADV[w, 9]``: its crowning row.
ROW_ADV = np.array([[_mask([s for s in range(1, 51) if _advance(s, bool(w)) == a]) for a in range(10)]
                    for w in range(2)], dtype=np.uint64)
_I = {t: i for i, t in enumerate(TERMS)}
I_ADVANCE, I_CHAINLOCK, I_CLASSIC = _I["advance"], _I["chainlock"], _I["classic"]
#: ``FORK[w]``: masks of the fork lock (own men, opposing men, the three squares holding one opposing man).
FORK = np.array([[_mirror((26, 27, 31, 36), w), _mirror((16, 18), w), _mirror((22, 23, 28), w)] for w in range(2)],
                dtype=np.uint64)
#: ``CONFIG_KEY[w]``: squares of which a side's man must hold one for any of ``forklock``, the configurations of
#: ``PATTERN`` and ``weakpost`` to count (White's 22, 24, 25, 26, 28, 29): one mask test skips them all.
CONFIG_KEY = np.array([_mirror((22, 24, 25, 26, 28, 29), w) for w in range(2)], dtype=np.uint64)
for _t in (ADV_BITS, FAR, BACK, GOLDEN, FORK, PATTERN, PATTERN_TERM, OUTPOST, CLASSIC, DEVELOP, NEAR,
           CONFIG_KEY, ROW_ADV):
    _t.flags.writeable = False


@inline
def free_paths(men, tmen, tkings, empty, w, tempo):
    """The ``freepath`` count of colour ``w``'s ``men`` against the opponent's men ``tmen`` (0 when it has kings
    ``tkings``); ``tempo``: whether ``w`` is to move. Worked backwards from the empty crowning squares: the
    squares one and two rows short of them from which the rest of the way is safe, with the opponent's reach
    ``R[m]`` (its men and every square they reach in ``m`` forward steps, free squares or not) and ``R[m]``'s
    diagonal neighbours as its danger zone after ``m`` moves."""
    near = men & (ROW_ADV[w, 6] | ROW_ADV[w, 7])
    if near == ZERO or tkings != ZERO:
        return 0
    # the opponent moves with directions 0 and 1 against White, 2 and 3 against Black; a man of ``w`` steps
    # back (towards its own side) in those same directions
    da, db = (0, 1) if w == 1 else (2, 3)
    r0 = tmen
    r1 = r0 | ((step(r0, da) | step(r0, db)) & BOARD)
    r2 = r1 | ((step(r1, da) | step(r1, db)) & BOARD)
    z0 = r0 | step(r0, 0) | step(r0, 1) | step(r0, 2) | step(r0, 3)
    z1 = r1 | step(r1, 0) | step(r1, 1) | step(r1, 2) | step(r1, 3)
    z2 = r2 | step(r2, 0) | step(r2, 1) | step(r2, 2) | step(r2, 3)
    # danger zones when the man stands one and two steps on its way: after 0 and 1 opposing moves with the
    # move, 1 and 2 without
    first, second = (z0, z1) if tempo else (z1, z2)
    goal = ROW_ADV[w, 9] & empty
    one = (step(goal, da) | step(goal, db)) & empty  # one step from crowning (two-move men's first step)
    short = step(one & ~first, da) | step(one & ~first, db)  # two-move men from which the way is safe
    free2 = men & ROW_ADV[w, 7] & short
    mid = (step(one & ~second, da) | step(one & ~second, db)) & empty & ~first  # three-move men's first step
    free3 = men & ROW_ADV[w, 6] & (step(mid, da) | step(mid, db))
    if not tempo:  # the opponent moves first: the man must not be taken where it stands
        free2 &= ~z0
        free3 &= ~z0
    return 4 * popcount(free2) + popcount(free3)


@inline
def side_counts(men, kk, mine, theirs, tmen, empty, w, late, tempo):
    """One side's terms, a tuple in ``TERMS`` order (``classic`` is 0 here: it needs both sides), for colour
    ``w`` (1 White, 0 Black; a constant where the caller can make it one, so the masks fold); ``tmen``: the
    opponent's men; ``late``: whether the ``late`` term counts, and not ``develop``; ``tempo``: whether ``w`` is
    to move."""
    n_men = popcount(men)
    adv = (popcount(men & ADV_BITS[w, 0]) + 2 * popcount(men & ADV_BITS[w, 1]) + 4 * popcount(men & ADV_BITS[w, 2]) +
           8 * popcount(men & ADV_BITS[w, 3]))
    left = popcount(men & LEFT)
    if w == 1:  # White men move towards bit 0 (directions 2 and 3): behind them is +5 and +6
        behind = step(mine, 2) & step(mine, 3)
        movable = step(empty, 0) | step(empty, 1)
        slides = popcount(step(men, 2) & empty) + popcount(step(men, 3) & empty)
    else:
        behind = step(mine, 0) & step(mine, 1)
        movable = step(empty, 2) | step(empty, 3)
        slides = popcount(step(men, 0) & empty) + popcount(step(men, 1) & empty)
    far = men & FAR[w]
    outpost = popcount(far & behind)
    run = 0
    if far != ZERO:
        # the squares with an opposing piece in their cone ahead: the opposing pieces stepped back (towards
        # ``w``'s side) row by row, both ways, as far as a man of ``far`` can be from the crowning row
        da, db = (0, 1) if w == 1 else (2, 3)
        shadow = theirs
        for _ in range(RUN_ROWS):
            shadow |= (step(shadow, da) | step(shadow, db)) & BOARD
        free = far & ~shadow
        if free != ZERO:
            run = (popcount(free & ADV_BITS[w, 0]) + 2 * popcount(free & ADV_BITS[w, 1]) +
                   4 * popcount(free & ADV_BITS[w, 2]) + 8 * popcount(free & ADV_BITS[w, 3]) - 3 * popcount(free))
    km = 0
    diag = 0
    ksq = 0
    if kk != ZERO:
        for d in range(4):
            km += popcount(fill(kk, empty, d) ^ kk)
        diag = popcount(kk & DIAGONAL)
        ksq = popcount(kk & KING_SQUARES)
    fork = 0
    chain = 0
    wing = 0
    weak = 0
    if (men & CONFIG_KEY[w]) != ZERO:
        hold, held, mid = FORK[w, 0], FORK[w, 1], FORK[w, 2]
        if (men & hold) == hold and (tmen & held) == held and (men & mid) == ZERO and popcount(tmen & mid) == 1:
            fork = 1
        both = men | tmen
        for k in range(PATTERN.shape[1]):
            own_all, opp_all, any_own = PATTERN[w, k, 0], PATTERN[w, k, 1], PATTERN[w, k, 3]
            if ((men & own_all) == own_all and (tmen & opp_all) == opp_all and (both & PATTERN[w, k, 2]) == ZERO
                    and (any_own == ZERO or (men & any_own) != ZERO)):
                if PATTERN_TERM[k] == I_CHAINLOCK:
                    chain += 1
                else:
                    wing += 1
        for k in range(OUTPOST.shape[1]):
            if (men & OUTPOST[w, k, 0]) != ZERO and (popcount(men & OUTPOST[w, k, 1]) < 2 or
                                                      popcount(tmen & OUTPOST[w, k, 2]) >
                                                      popcount(men & OUTPOST[w, k, 3])):
                weak += 1
    dev = 0
    if not late:
        dev = popcount(men & DEVELOP[w, 0]) - popcount(men & DEVELOP[w, 1]) - 2 * popcount(men & DEVELOP[w, 2])
    return (n_men, popcount(kk), adv, popcount(men & CENTRE), -abs(2 * left - n_men), popcount(men & BACK[w]),
            outpost, popcount(men & ~movable), slides, run, km, diag, popcount(men & EDGE), popcount(men & GOLDEN[w]),
            -abs(popcount(men & LEFT_WING) - popcount(men & RIGHT_WING)), adv if late else 0, fork, chain, wing,
            weak, 0, dev, ksq, popcount(men & NEAR[w] & movable),
            free_paths(men, tmen, theirs & ~tmen, empty, w, tempo))


@inline
def classic_value(men, w, lead):
    """One side's ``classic`` term: 0 without men on its 28 and 32, else 2 + 2 per man on 27 and 33 less
    ``lead`` (its men's advance over the opponent's) when positive."""
    centre = CLASSIC[w, 0]
    if (men & centre) != centre:
        return 0
    v = 2 + 2 * popcount(men & CLASSIC[w, 1]) + 2 * popcount(men & CLASSIC[w, 2])
    return v - lead if lead > 0 else v


@inline
def white_black(own, opp, kings, white):
    """Each colour's terms (tuples in ``TERMS`` order, ``classic`` 0), White's then Black's, each computed with
    its colour a constant."""
    wp, bp = (own, opp) if white else (opp, own)
    empty = BOARD & ~(own | opp)
    late = popcount(own | opp) <= LATE
    wm, bm = wp & ~kings, bp & ~kings
    return (side_counts(wm, wp & kings, wp, bp, bm, empty, 1, late, white),
            side_counts(bm, bp & kings, bp, wp, wm, empty, 0, late, not white), wm, bm)


@inline
def classic_diff(wm, bm, tempo):
    """White's ``classic`` term less Black's; ``tempo``: White's men's advance less Black's."""
    return classic_value(wm, 1, tempo) - classic_value(bm, 0, -tempo)


@inline
def terms(own, opp, kings, white, f):
    """Write the terms of ``TERMS`` (side to move minus opponent) to ``f[:N_TERMS]``."""
    cw, cb, wm, bm = white_black(own, opp, kings, white)
    sign = 1 if white else -1
    for i in range(N_TERMS):
        f[i] = sign * (cw[i] - cb[i])
    f[I_CLASSIC] = sign * classic_diff(wm, bm, cw[I_ADVANCE] - cb[I_ADVANCE])


@inline
def scale(raw, own, opp, kings):
    """``raw`` halved when both sides have kings, and divided by ``DRAWISH`` when the side it favours has at
    most three pieces and the other side has a king (both toward 0)."""
    if (own & kings) != ZERO and (opp & kings) != ZERO:
        raw = raw // 2 if raw > 0 else -((-raw) // 2)
    if raw > 0:
        strong, weak = own, opp
    elif raw < 0:
        strong, weak = opp, own
    else:
        return raw
    if popcount(strong) <= 3 and (weak & kings) != ZERO:
        return raw // DRAWISH if raw > 0 else -((-raw) // DRAWISH)
    return raw


@inline
def weighted(w, r, a, b):
    """``sum(w[r, i] * (a[i] - b[i]))`` over the ``N_TERMS`` terms, written out: a tuple indexed in a loop is
    indexed at run time (a switch a term), which made the evaluation slower than the array it replaces. A term
    added to ``TERMS`` is added here too (the tests against the reference fail otherwise)."""
    return (w[r, 0] * (a[0] - b[0]) + w[r, 1] * (a[1] - b[1]) + w[r, 2] * (a[2] - b[2]) +
            w[r, 3] * (a[3] - b[3]) + w[r, 4] * (a[4] - b[4]) + w[r, 5] * (a[5] - b[5]) +
            w[r, 6] * (a[6] - b[6]) + w[r, 7] * (a[7] - b[7]) + w[r, 8] * (a[8] - b[8]) +
            w[r, 9] * (a[9] - b[9]) + w[r, 10] * (a[10] - b[10]) + w[r, 11] * (a[11] - b[11]) +
            w[r, 12] * (a[12] - b[12]) + w[r, 13] * (a[13] - b[13]) + w[r, 14] * (a[14] - b[14]) +
            w[r, 15] * (a[15] - b[15]) + w[r, 16] * (a[16] - b[16]) + w[r, 17] * (a[17] - b[17]) +
            w[r, 18] * (a[18] - b[18]) + w[r, 19] * (a[19] - b[19]) + w[r, 20] * (a[20] - b[20]) +
            w[r, 21] * (a[21] - b[21]) + w[r, 22] * (a[22] - b[22]) + w[r, 23] * (a[23] - b[23]) +
            w[r, 24] * (a[24] - b[24]))


#: Rows of an evaluation table (``eval_table``): one for each count of pieces a 64-bit board can hold.
TABLE_ROWS = 65


@inline
def phase(pieces):
    """The opening weights' share of the blend, in ``PHASES``-ths, with ``pieces`` pieces on the board."""
    return min(max(pieces - PHASE_LOW, 0), PHASES)


@inline
def fill_table(weights, table):
    """Write ``eval_table(weights)`` into ``table``."""
    for n in range(TABLE_ROWS):
        p = phase(n)
        for i in range(N_TERMS):
            table[n, i] = weights[0, i] * p + weights[1, i] * (PHASES - p)


def eval_table(weights) -> np.ndarray:
    """The blended weights the search evaluates with, read-only ``int64`` (``TABLE_ROWS``, ``N_TERMS``): row ``n``
    is ``weights[0] * p + weights[1] * (PHASES - p)`` for ``n`` pieces on the board, so a score is one weighted sum
    divided by ``PHASES`` (the same integer as the blend of the two sums)."""
    table = np.empty((TABLE_ROWS, N_TERMS), np.int64)
    table_kernel(np.ascontiguousarray(weights, dtype=np.int64), table)
    table.flags.writeable = False
    return table


@kernel
def table_kernel(weights, table):
    """``fill_table`` for Python callers."""
    fill_table(weights, table)


@inline
def evaluate(own, opp, kings, white, table, pw):
    """The score in milli-men for the side to move: ``scale`` of the tapered weighted sum of ``terms``
    (``table``: ``eval_table`` of the weights), summed from the terms as they are computed (no array of
    terms), plus the men's windows' values ``pw`` (``_patterns``), blended by the same phase as the weights."""
    cw, cb, wm, bm = white_black(own, opp, kings, white)
    n = popcount(own | opp)
    x = table[n, I_CLASSIC] * classic_diff(wm, bm, cw[I_ADVANCE] - cb[I_ADVANCE]) + weighted(table, n, cw, cb)
    raw = x // PHASES if x >= 0 else -((-x) // PHASES)
    po, pe = pattern_sums(own & ~kings, opp & ~kings, white, pw)
    p = phase(n)
    y = po * p + pe * (PHASES - p)
    raw = (raw if white else -raw) + (y // PHASES if y >= 0 else -((-y) // PHASES))
    return scale(raw, own, opp, kings)


@kernel
def terms_kernel(own, opp, kings, white, out):
    """Rows of terms for many positions (arrays ``own, opp, kings, white``) into ``out`` (n, ``N_TERMS``)."""
    for i in range(own.shape[0]):
        terms(own[i], opp[i], kings[i], white[i], out[i])


@kernel
def evaluate_kernel(own, opp, kings, white, weights, pw, out):
    """Scores (milli-men, side to move) of many positions into ``out``, with ``weights`` (2, ``N_TERMS``) and
    the window values ``pw`` (``_patterns``)."""
    table = np.empty((TABLE_ROWS, N_TERMS), np.int64)
    fill_table(weights, table)
    for i in range(own.shape[0]):
        out[i] = evaluate(own[i], opp[i], kings[i], white[i], table, pw)
