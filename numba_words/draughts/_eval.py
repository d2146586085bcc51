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

Weights are integers in milli-men (1000 = one man), so the kernel and the plain-Python reference agree
exactly. Endgame scaling: when both sides have kings the score is halved (a king holds many endings), and
when the side ahead has at most three pieces and the other side has a king (a lone king usually draws
against three pieces), it is divided by ``DRAWISH``; both rounded toward 0.
"""
from __future__ import annotations

import numpy as np

from .._jit import inline, kernel
from ..bits import popcount
from ._movegen import fill, step
from ._tables import BOARD, SQ2BIT, ZERO, square_rc

TERMS = ("men", "kings", "advance", "centre", "balance", "back", "outpost", "blocked", "mobility", "runaway",
         "kingmob", "diagonal", "edge", "golden", "wings", "late")
N_TERMS = len(TERMS)
#: Milli-men in one man: the unit of scores inside the search.
UNIT = 1000
#: Drawish material: the score is divided by this.
DRAWISH = 8


def _mask(squares) -> np.uint64:
    m = 0
    for s in squares:
        m |= 1 << int(SQ2BIT[s])
    return np.uint64(m)


def _advance(s: int, white: bool) -> int:
    r = square_rc(s)[0]
    return 9 - r if white else r


def _cone(s: int, white: bool) -> np.uint64:
    r, c = square_rc(s)
    out = []
    for t in range(1, 51):
        r2, c2 = square_rc(t)
        k = r - r2 if white else r2 - r
        if k > 0 and abs(c2 - c) <= k:
            out.append(t)
    return _mask(out)


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
#: ``ADVANCE[w, bit]``: rows advanced by a man of colour ``w`` on ``bit``.
ADVANCE = np.zeros((2, 64), dtype=np.int64)
for _w in range(2):
    for _s in range(1, 51):
        ADVANCE[_w, SQ2BIT[_s]] = _advance(_s, bool(_w))
#: Pieces on the board at most for the ``late`` term.
LATE = 16
LEFT = _mask([s for s in range(1, 51) if square_rc(s)[1] <= 4])
RIGHT = np.uint64(int(BOARD) & ~int(LEFT))
EDGE = _mask([s for s in range(1, 51) if square_rc(s)[1] in (0, 9)])
DIAGONAL = _mask((5, 10, 14, 19, 23, 28, 32, 37, 41, 46))
#: ``CONE[w, bit]``: squares ahead of a man of colour ``w`` on ``bit`` that an opposing piece could stop it from.
CONE = np.zeros((2, 64), dtype=np.uint64)
for _w in range(2):
    for _s in range(1, 51):
        CONE[_w, SQ2BIT[_s]] = _cone(_s, bool(_w))
for _t in (ADV_BITS, FAR, BACK, CONE, GOLDEN, ADVANCE):
    _t.flags.writeable = False


@inline
def side_terms(men, kk, mine, theirs, empty, w, late, f, sign):
    """Add ``sign`` times one side's terms to ``f`` (``w``: 1 for White, 0 for Black; ``late``: whether the
    ``late`` term counts)."""
    f[0] += sign * popcount(men)
    f[1] += sign * popcount(kk)
    adv = (popcount(men & ADV_BITS[w, 0]) + 2 * popcount(men & ADV_BITS[w, 1]) + 4 * popcount(men & ADV_BITS[w, 2]) +
           8 * popcount(men & ADV_BITS[w, 3]))
    f[2] += sign * adv
    if late:
        f[15] += sign * adv
    f[3] += sign * popcount(men & CENTRE)
    f[4] -= sign * abs(popcount(men & LEFT) - popcount(men & RIGHT))
    f[5] += sign * popcount(men & BACK[w])
    if w == 1:  # White men move towards bit 0 (directions 2 and 3): behind them is +5 and +6
        behind = step(mine, 2) & step(mine, 3)
        movable = step(empty, 0) | step(empty, 1)
        slides = popcount(step(men, 2) & empty) + popcount(step(men, 3) & empty)
    else:
        behind = step(mine, 0) & step(mine, 1)
        movable = step(empty, 2) | step(empty, 3)
        slides = popcount(step(men, 0) & empty) + popcount(step(men, 1) & empty)
    far = men & FAR[w]
    f[6] += sign * popcount(far & behind)
    f[7] += sign * popcount(men & ~movable)
    f[8] += sign * slides
    run = 0
    while far != ZERO:
        b = far & (~far + np.uint64(1))
        far ^= b
        i = popcount(b - np.uint64(1))
        if CONE[w, i] & theirs == ZERO:
            run += ADVANCE[w, i] - 3
    f[9] += sign * run
    if kk != ZERO:
        km = 0
        for d in range(4):
            km += popcount(fill(kk, empty, d) ^ kk)
        f[10] += sign * km
        f[11] += sign * popcount(kk & DIAGONAL)
    f[12] += sign * popcount(men & EDGE)
    f[13] += sign * popcount(men & GOLDEN[w])
    f[14] -= sign * abs(popcount(men & LEFT_WING) - popcount(men & RIGHT_WING))


@inline
def terms(own, opp, kings, white, f):
    """Write the terms of ``TERMS`` (side to move minus opponent) to ``f[:N_TERMS]``."""
    for i in range(N_TERMS):
        f[i] = 0
    empty = BOARD & ~(own | opp)
    w = 1 if white else 0
    late = popcount(own | opp) <= LATE
    side_terms(own & ~kings, own & kings, own, opp, empty, w, late, f, 1)
    side_terms(opp & ~kings, opp & kings, opp, own, empty, 1 - w, late, f, -1)


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
def evaluate(own, opp, kings, white, weights, f):
    """The score in milli-men for the side to move; ``f`` is scratch of ``N_TERMS`` int64."""
    terms(own, opp, kings, white, f)
    raw = 0
    for i in range(N_TERMS):
        raw += weights[i] * f[i]
    return scale(raw, own, opp, kings)


@kernel
def terms_kernel(own, opp, kings, white, out):
    """Rows of terms for many positions (arrays ``own, opp, kings, white``) into ``out`` (n, ``N_TERMS``)."""
    for i in range(own.shape[0]):
        terms(own[i], opp[i], kings[i], white[i], out[i])


@kernel
def evaluate_kernel(own, opp, kings, white, weights, out):
    """Scores (milli-men, side to move) of many positions into ``out``."""
    f = np.zeros(N_TERMS, dtype=np.int64)
    for i in range(own.shape[0]):
        out[i] = evaluate(own[i], opp[i], kings[i], white[i], weights, f)
