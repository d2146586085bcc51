"""Constants and geometry of international draughts: the 64-bit layout with ghost squares, masks, ray tables.

Layout (as in the OWL generator, seed 004). Square ``s`` (1..50, numbered from White's far-left, row by row
from Black's side) lives at bit ``s - 1 + (s - 1) // 10``::

    row 0 (squares  1- 5):  bits  0- 4         row 5 (26-30):  bits 27-31
    row 1 (squares  6-10):  bits  5- 9         row 6 (31-35):  bits 33-37
    row 2 (squares 11-15):  bits 11-15         row 7 (36-40):  bits 38-42
    row 3 (squares 16-20):  bits 16-20         row 8 (41-45):  bits 44-48
    row 4 (squares 21-25):  bits 22-26         row 9 (46-50):  bits 49-53

Bits 10, 21, 32 and 43 are *ghost* squares: never occupied, never empty. With them, every diagonal step is a
shift by 5 or 6 (``+5``/``+6`` towards square 50, ``-5``/``-6`` towards square 1), and a step off the left
or right edge lands on a ghost (or past bit 53 / below bit 0), so ``shift(x) & empty`` drops it without any
per-file edge mask. Bits 54..63 are never used either.

Directions are numbered ``0: +5, 1: +6, 2: -5, 3: -6``. Black men move in directions 0 and 1, White men in
2 and 3. ``RAY[d, b]`` is every board bit strictly beyond bit ``b`` in direction ``d`` (until the edge);
``NEXT[d, b]`` is the one-bit mask of the neighbour (0 at an edge). These are read-only module constants,
frozen into the compiled kernels.
"""
from __future__ import annotations

import numpy as np

from ..bits import ONE, ZERO  # noqa: F401  (re-exported for the kernels)

S5 = np.uint64(5)
S6 = np.uint64(6)

N_SQUARES = 50
GHOSTS = (10, 21, 32, 43)
DIRS = (5, 6, -5, -6)

SQ2BIT = np.full(N_SQUARES + 1, -1, dtype=np.int64)  # SQ2BIT[0] unused
BIT2SQ = np.zeros(64, dtype=np.int64)  # 0 for ghost / unused bits
for _s in range(1, N_SQUARES + 1):
    _b = _s - 1 + (_s - 1) // 10
    SQ2BIT[_s] = _b
    BIT2SQ[_b] = _s

BOARD = np.uint64(sum(1 << int(b) for b in SQ2BIT[1:]))
WHITE_CROWN = np.uint64(sum(1 << int(SQ2BIT[s]) for s in range(1, 6)))  # squares 1-5: White men crown here
BLACK_CROWN = np.uint64(sum(1 << int(SQ2BIT[s]) for s in range(46, 51)))  # squares 46-50


def square_rc(s: int) -> tuple[int, int]:
    """(row, column) of square ``s`` on the 10x10 board, row 0 at the top (Black's side), column 0 left."""
    r = (s - 1) // 5
    c = 2 * ((s - 1) % 5) + (1 if r % 2 == 0 else 0)
    return r, c


def _tables():
    board = {int(b) for b in SQ2BIT[1:]}
    nxt = np.zeros((4, 64), dtype=np.uint64)
    ray = np.zeros((4, 64), dtype=np.uint64)
    for d, step in enumerate(DIRS):
        for b in board:
            m = 0
            x = b + step
            first = True
            while x in board:
                if first:
                    nxt[d, b] = np.uint64(1 << x)
                    first = False
                m |= 1 << x
                x += step
            ray[d, b] = np.uint64(m)
    return nxt, ray


NEXT, RAY = _tables()


def bits_of(squares) -> int:
    """Bitboard (a Python int in the layout above) of square numbers 1..50."""
    m = 0
    for s in squares:
        m |= 1 << int(SQ2BIT[s])
    return m


def squares_of(mask: int) -> list[int]:
    """Square numbers of the set bits of a bitboard, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(int(BIT2SQ[low.bit_length() - 1]))
        mask ^= low
    return out


for _a in [v for v in globals().values() if isinstance(v, np.ndarray)]:
    _a.flags.writeable = False  # geometry the kernels and the move decoding trust: read-only
del _a
