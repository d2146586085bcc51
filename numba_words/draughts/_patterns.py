"""Pattern evaluation: learnt values of the men's configurations in sixteen 4x4 windows of the board.

The windows are the 4x4 blocks of squares at columns and rows 0, 2, 4 and 6 (they overlap by two). Each holds
eight playable squares, two a row, and every square of a window is empty, the side to move's man or the
opponent's man: ``3 ** 8 = 6561`` configurations, numbered ``sum(state[i] * 3 ** i)`` over the window's squares
in board order (state 1: the side to move's man, 2: the opponent's). Kings do not count (their squares read as
empty). Each configuration has two values, the opening's and the endgame's (``pw[i, conf, 0]`` and ``[1]``),
blended by the pieces on the board as the evaluation's weights are (``_eval.phase``). The values are seen from the
side to move: with Black to move the board is turned (square ``s`` to ``51 - s``), so one table serves both
colours: window ``(x, y)`` of the turned board is window ``(6 - x, 6 - y)`` of the real one with its squares in
reverse order, which the ``T3R`` table folds into the numbering.

In the 64-bit layout (``_tables``) the two squares of a window's row are adjacent bits, and the window's four
rows sit at offsets 0, 5, 11 and 16 from its first square (rows come in pairs of ten bits between ghosts, and
windows start on even rows), so a window's eight squares are gathered with one shift and four masks.
"""
from __future__ import annotations

import numpy as np

from .._jit import inline, kernel, ix

N_WINDOWS = 16
#: Configurations of one window.
N_CONF = 3 ** 8


def _shift(x: int, y: int) -> int:
    return 5 * y + y // 2 + x // 2


_XY = [(x, y) for y in (0, 2, 4, 6) for x in (0, 2, 4, 6)]
#: Bit of each window's first square (White to move), and of the turned window (Black to move).
SHIFT = np.array([_shift(x, y) for x, y in _XY], np.uint64)
SHIFT_R = np.array([_shift(6 - x, 6 - y) for x, y in _XY], np.uint64)
#: ``T3[b]``: the base-3 number with the digits of the 8 bits of ``b``; ``T3R`` the same with the bits reversed.
T3 = np.array([sum(3 ** i for i in range(8) if b >> i & 1) for b in range(256)], np.int64)
T3R = np.array([sum(3 ** (7 - i) for i in range(8) if b >> i & 1) for b in range(256)], np.int64)
for _a in (SHIFT, SHIFT_R, T3, T3R):
    _a.flags.writeable = False


@inline
def gather8(bb, s):
    """The 8 squares of the window whose first square is bit ``s`` of ``bb``, as an 8-bit number."""
    v = bb >> s
    return ix((v & np.uint64(3)) | ((v >> np.uint64(3)) & np.uint64(12)) | ((v >> np.uint64(7)) & np.uint64(48))
              | ((v >> np.uint64(10)) & np.uint64(192)))


@inline
def window_index(own_men, opp_men, white, i):
    """The configuration number of window ``i`` from the side to move's view."""
    if white:
        s = SHIFT[i]
        return T3[gather8(own_men, s)] + 2 * T3[gather8(opp_men, s)]
    s = SHIFT_R[i]
    return T3R[gather8(own_men, s)] + 2 * T3R[gather8(opp_men, s)]


@inline
def pattern_sums(own_men, opp_men, white, pw):
    """The sums of the windows' opening and endgame values ``pw[i, conf, 0]`` and ``[1]`` (milli-men, side to
    move)."""
    opening = 0
    endgame = 0
    for i in range(N_WINDOWS):
        c = ix(window_index(own_men, opp_men, white, i))
        opening += pw[i, c, 0]
        endgame += pw[i, c, 1]
    return opening, endgame


@kernel
def indices_kernel(own_men, opp_men, white, out):
    """Every window's configuration number for many positions into ``out`` (n, ``N_WINDOWS``)."""
    for j in range(own_men.shape[0]):
        for i in range(N_WINDOWS):
            out[j, i] = window_index(own_men[j], opp_men[j], white[j], i)
