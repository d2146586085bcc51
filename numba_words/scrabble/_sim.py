"""Simulation kernel: playouts of candidate plays, ``prange`` over iterations.

Iteration ``i`` has its own random stream (``_autoplay.game_seed(seed, i)``): it completes the opponent's rack
from the unseen tiles, then plays every live candidate from the same draws (common random numbers: candidates
are compared on the same racks and bags). A playout puts the candidate down, draws, then ``plies`` replies, each
side's best move by static equity (the pruned :func:`._autoplay.best_equity`, then
:func:`._autoplay.pick_equity` for exchanges), drawing after each.
A candidate may be an exchange (:data:`EXCHANGE`): draw, then the tiles go back to the bag.
Its outcome, in millipoints from the mover's side, is the spread it made plus the leftover: the values of the
leaves kept by the last two moves (the mover's added, the opponent's taken off; with one ply, the candidate's
leave too), as MAGPIE scores it. Going out ends a playout (+ twice the other rack's points).
"""
from __future__ import annotations

import numba
import numpy as np

from .._jit import kernel, pkernel
from ._autoplay import (_draw, _rack_pts, best_equity, exchange, game_seed, make_play, move_scratch,
                        pick_equity, play_buffers)
from ._cross import borrowed_checks
from ._tables import SIZE

EXCHANGE = 2
"""``cmeta[c, 2]`` (the direction column) of a candidate that is an exchange; ``cmeta[c, 0]`` is then the kept
leave's mixed-radix index over the mover's rack (see :func:`._autoplay.exchange`)."""

@kernel
def iteration(st0, live, cmeta, cwords, cbm, cnm, cleave, plies, lines, fv, occ, cc, xs, rack0, opp0, unseen,
              rack_size, bingo, tile_pts, vowel, pen, milli, caps, G, P, R, lm, wm, lval, dawg, span, tabs, checks,
              res):
    """One iteration from random state ``st0`` (uint64[1]): ``res[j]`` = outcome of candidate ``live[j]``
    (millipoints), ``res[len(live) + j]`` the tiles unseen at its end by the side then on turn (the mover after
    an odd number of plies, else the opponent; -1 when the game ended). Its own scratch: a serial kernel, called from the ``prange`` of :func:`playouts`."""
    K = caps.shape[0]
    nl = live.shape[0]
    bag0 = unseen.copy()
    opp = opp0.copy()
    n_opp = np.int64(0)
    for k in range(K):
        n_opp += opp[k]
    nbag0 = _draw(bag0, np.int64(bag0.shape[0]), opp, rack_size - n_opp, st0)
    meta, words, bm, nm = play_buffers(np.int64(1))  # the best reply only (row 0)
    L = np.empty((2, SIZE, SIZE), np.uint8)
    F = np.empty((2, SIZE, SIZE), np.int64)
    O = np.empty((2, SIZE), np.int64)
    C = np.empty((2, SIZE, SIZE), np.int64)
    X = np.empty((2, SIZE, SIZE), np.int64)
    racks = np.zeros((2, K), np.int64)
    bag = np.empty(bag0.shape[0], np.int64)
    st = np.zeros(1, np.uint64)
    counts, stride, lmap, rows, cols, xk, ones = move_scratch(K)
    held = np.zeros(2, np.int64)
    not_empty = plies < 0  # False, typed bool (a literal would compile the generator once more)
    for j in range(nl):
        c = live[j]
        for d in range(2):
            for a in range(SIZE):
                O[d, a] = occ[d, a]
                for b in range(SIZE):
                    L[d, a, b] = lines[d, a, b]
                    F[d, a, b] = fv[d, a, b]
                    C[d, a, b] = cc[d, a, b]
                    X[d, a, b] = xs[d, a, b]
        for k in range(K):
            racks[0, k] = rack0[k]
            racks[1, k] = opp[k]
        for q in range(nbag0):
            bag[q] = bag0[q]
        nbag = nbag0
        st[0] = st0[0]
        spread = np.int64(0)
        left = np.int64(0)
        held[0] = 0  # tiles a side's rack would gain by the last move's draw (not made)
        held[1] = 0
        if plies == 1:
            left += cleave[c]
        if cmeta[c, 2] == EXCHANGE:
            nbag, _ = exchange(racks[0], np.int64(cmeta[c, 0]), bag, nbag, st, xk)
            over = False
        else:
            ntile = make_play(L, F, O, C, X, dawg, borrowed_checks(checks), lval, cmeta, cwords, cbm,
                              cnm, c, racks[0], rows, cols)
            spread += 1000 * np.int64(cmeta[c, 4])
            nbag = _draw(bag, nbag, racks[0], ntile, st)
            over = _rack_pts(racks[0], ones) == 0
            if over:
                spread += 2000 * _rack_pts(racks[1], tile_pts)
        for ply in range(plies):
            if over:
                break
            s = 1 - (ply & 1)  # the opponent replies first
            sign = np.int64(1) if s == 0 else np.int64(-1)
            rk = racks[s]
            other = _rack_pts(racks[1 - s], tile_pts)
            n = best_equity(L, F, O, C, X, lm, wm, lval, rk, rack_size, bingo, dawg, span, not_empty, meta, words, bm,
                            nm, tabs, counts, nbag, other, tile_pts, milli, caps, G, P, R, vowel, pen, stride,
                            lmap, nbag >= rack_size)
            choice, keep, leave, _ = pick_equity(rk, n, meta, words, bm, nm, nbag, other, nbag >= rack_size,
                                              not_empty, tile_pts, vowel, pen, stride, lmap)
            if ply >= plies - 2:
                left += sign * leave
            if choice >= 0:
                spread += sign * 1000 * np.int64(meta[choice, 4])
                if ply == plies - 1:  # the last move: nothing reads the board after it
                    used = np.int64(meta[choice, 5])
                    if nbag == 0 and used == _rack_pts(rk, ones):
                        spread += sign * 2000 * other
                        over = True
                    else:  # the tiles it would draw: from the bag to its rack
                        d = min(used, nbag)
                        nbag -= d
                        held[s] = d - used
                    break
                ntile = make_play(L, F, O, C, X, dawg, borrowed_checks(checks), lval, meta, words,
                                  bm, nm, choice, rk, rows, cols)
                nbag = _draw(bag, nbag, rk, ntile, st)
                if _rack_pts(rk, ones) == 0:
                    spread += sign * 2000 * other
                    over = True
            elif choice == -2:
                nbag, _ = exchange(rk, keep, bag, nbag, st, xk)
        res[j] = spread + left
        if over:
            res[nl + j] = -1
        else:  # tiles unseen by the side on turn: the bag and the other side's rack
            t = 1 if plies % 2 == 0 else 0
            res[nl + j] = nbag + _rack_pts(racks[1 - t], ones) + held[1 - t]


@pkernel
def playouts(seed, first, n_iter, live, cmeta, cwords, cbm, cnm, cleave, plies, lines, fv, occ, cc, xs, rack0, opp0,
             unseen, rack_size, bingo, tile_pts, vowel, pen, milli, caps, G, P, R, lm, wm, lval, dawg, span, tabs,
             checks, out):
    """Iterations ``first .. first + n_iter - 1`` for the candidates ``live`` (rows of ``cmeta``...; ``cleave``
    their leaves' values): ``out[i - first, j]`` = outcome of candidate ``live[j]`` (millipoints),
    ``out[i - first, len(live) + j]`` the tiles unseen at its end (see :func:`iteration`). ``rack0``: the
    mover's rack, ``opp0``: the opponent's known tiles (by kind), ``unseen``: the other unseen tiles (a list of
    kinds), from which the opponent's rack is completed and every draw made."""
    for x in numba.prange(n_iter):
        st0 = np.zeros(1, np.uint64)
        st0[0] = game_seed(seed, first + np.int64(x))
        iteration(st0, live, cmeta, cwords, cbm, cnm, cleave, plies, lines, fv, occ, cc, xs, rack0, opp0, unseen,
                  rack_size, bingo, tile_pts, vowel, pen, milli, caps, G, P, R, lm, wm, lval, dawg, span, tabs, checks,
                  out[x])
