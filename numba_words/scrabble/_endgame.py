"""Exact endgame kernel: negamax with alpha-beta over every play and the pass, both racks known, bag empty.

Values are spreads in points from the side to move (its points minus the opponent's, from here to the end).
Rules: a play that empties the mover's rack ends the game and earns twice the opponent's rack points; a pass
after a pass ends it with each side losing its own rack points. At the depth limit a node is valued by a greedy
playout (each side plays its top-scoring play until the game ends), so values are exact once no line reaches
the limit (``out[2] == 0``), which iterative deepening in :mod:`.endgame` runs to.

No recursion: per-ply state in ``(D + 2, ...)`` arrays, ply ``p`` holding the board and both racks of the node at
depth ``p`` (side ``p & 1`` to move; side 0 moves at the root) and its move list. Moves are tried in order of
static equity with the bag empty (score; + twice the opponent's rack for going out, else - twice the points
kept), the transposition table's move first; the pass last, or first when the opponent just passed.

Transposition table ``tt`` (``(2^k, 3)`` int64): Zobrist key; value; ``depth | flag << 8 | (move + 1) << 16``
where depth :data:`EXACT_DEPTH` marks a value no depth limit touched, flag 0 exact, 1 lower bound, 2 upper
bound, move the best move's index in generation order (``n`` = the pass). Always-replace.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._autoplay import _rack_pts, gen_plays, make_play
from ._tables import SIZE

EXACT_DEPTH = np.int64(255)
INF = np.int64(1) << 40
N_OUT = 6
"""``out``: value, nodes, horizon reached (0/1), PV length, plays needed (> cap: call again with more room), TT hits."""


@kernel
def _copy_ply(BL, FV, OC, CC, XS, RK, p):
    """Board and racks of ply ``p`` into ply ``p + 1``."""
    for d in range(2):
        for i in range(SIZE):
            OC[p + 1, d, i] = OC[p, d, i]
            for j in range(SIZE):
                BL[p + 1, d, i, j] = BL[p, d, i, j]
                FV[p + 1, d, i, j] = FV[p, d, i, j]
                CC[p + 1, d, i, j] = CC[p, d, i, j]
                XS[p + 1, d, i, j] = XS[p, d, i, j]
    for s in range(2):
        for k in range(RK.shape[2]):
            RK[p + 1, s, k] = RK[p, s, k]


@kernel
def _node_hash(bhash, rk, side, passed, zrack, zmisc):
    """Key of a node: board part ``bhash`` ^ both racks ^ side to move ^ the pass flag."""
    h = bhash
    for s in range(2):
        for k in range(rk.shape[1]):
            h ^= zrack[s, k, rk[s, k]]
    if side == 1:
        h ^= zmisc[0]
    if passed:
        h ^= zmisc[1]
    return h


@kernel
def _play_hash(meta, words, bm, nm, i, zsq):
    """The board-key change of the play in row ``i``: its new tiles (square, letter, blank)."""
    h = np.int64(0)
    r0 = np.int64(meta[i, 0])
    c0 = np.int64(meta[i, 1])
    d = np.int64(meta[i, 2])
    for k in range(np.int64(meta[i, 3])):
        if (np.int64(nm[i]) >> k) & 1:
            r = r0 + k if d == 1 else r0
            c = c0 if d == 1 else c0 + k
            h ^= zsq[r * SIZE + c, np.int64(words[i, k]) + 32 * ((np.int64(bm[i]) >> k) & 1)]
    return h


@kernel
def _playout(BL, FV, OC, CC, XS, RK, p, side, passed, lm, wm, lval, rack_size, bingo, dawg, span, tabs, full,
             tile_pts, meta, words, bm, nm, counts, rows, cols):
    """Greedy value of ply ``p``'s node for ``side`` to move: both sides play their top-scoring play (first in
    generation order among equals) until the game ends; uses ply ``p + 1`` and the play buffers as scratch. Returns
    ``(value, plays needed)``: a second value above the buffers' rows means "call again with more room". (The
    full generator, not the best-only one: on endgame boards with long racks its bounds walk far more.)"""
    _copy_ply(BL, FV, OC, CC, XS, RK, p)
    q = p + 1
    v = np.int64(0)  # spread for `side`
    s = side
    npass = passed
    no_board = p < 0  # False, typed bool (a literal would compile the generator once more)
    ones = np.ones(RK.shape[2], np.int64)
    for _ in range(64):  # a game ends within 2 * 7 plays and passes
        rk = RK[q, s]
        n = gen_plays(BL[q], FV[q], OC[q], CC[q], XS[q], lm, wm, lval, rk, rack_size, bingo, dawg, span, no_board,
                      meta, words, bm, nm, tabs, counts)
        if n > meta.shape[0]:
            return v, n
        sign = np.int64(1) if s == side else np.int64(-1)
        if n == 0:
            if npass:
                v += sign * (_rack_pts(RK[q, 1 - s], tile_pts) - _rack_pts(rk, tile_pts))
                break
            npass = 1
        else:
            npass = 0
            top = np.int64(0)
            for i in range(1, n):
                if meta[i, 4] > meta[top, 4]:
                    top = i
            v += sign * np.int64(meta[top, 4])
            make_play(BL[q], FV[q], OC[q], CC[q], XS[q], dawg, full, lval, meta, words, bm, nm, top, rk, rows, cols)
            if _rack_pts(rk, ones) == 0:
                v += sign * 2 * _rack_pts(RK[q, 1 - s], tile_pts)
                break
        s = 1 - s
    return v, np.int64(0)


@kernel
def solve(lines, fv, occ, cc, xs, racks, bhash0, passed0, D, alpha0, beta0, tt, lm, wm, lval, rack_size, bingo, dawg,
          span, tabs, full, tile_pts, zsq, zrack, zmisc, cap, pv_meta, pv_words, pv_bm, pv_nm, out):
    """Search the position (board arrays, ``racks[s]`` tiles by kind of side ``s``, side 0 to move, ``passed0``:
    the last move was a pass) to depth ``D`` plies in the window ``(alpha0, beta0)``. Writes ``out`` (see
    :data:`N_OUT`) and the principal variation: ``pv_meta[j]`` (row, col, dir, length, score, tiles; length 0 = a
    pass), ``pv_words[j]``, ``pv_bm[j]``, ``pv_nm[j]``."""
    K = racks.shape[1]
    NP = D + 2
    BL = np.empty((NP, 2, SIZE, SIZE), np.uint8)
    FV = np.empty((NP, 2, SIZE, SIZE), np.int64)
    OC = np.empty((NP, 2, SIZE), np.int64)
    CC = np.empty((NP, 2, SIZE, SIZE), np.int64)
    XS = np.empty((NP, 2, SIZE, SIZE), np.int64)
    RK = np.empty((NP, 2, K), np.int64)
    for d in range(2):
        for i in range(SIZE):
            OC[0, d, i] = occ[d, i]
            for j in range(SIZE):
                BL[0, d, i, j] = lines[d, i, j]
                FV[0, d, i, j] = fv[d, i, j]
                CC[0, d, i, j] = cc[d, i, j]
                XS[0, d, i, j] = xs[d, i, j]
    for s in range(2):
        for k in range(K):
            RK[0, s, k] = racks[s, k]
    M = np.empty((NP, cap, 6), np.int32)
    W = np.zeros((NP, cap, SIZE), np.uint8)
    B = np.empty((NP, cap), np.uint16)
    N = np.empty((NP, cap), np.uint16)
    order = np.empty((NP, cap + 1), np.int64)
    nmv = np.zeros(NP, np.int64)
    idx = np.zeros(NP, np.int64)
    cur = np.zeros(NP, np.int64)
    alpha = np.zeros(NP, np.int64)
    beta = np.zeros(NP, np.int64)
    a_in = np.zeros(NP, np.int64)
    best = np.zeros(NP, np.int64)
    bestm = np.zeros(NP, np.int64)
    gain = np.zeros(NP, np.int64)
    passed = np.zeros(NP, np.int64)
    bh = np.zeros(NP, np.int64)
    key = np.zeros(NP, np.int64)
    hz = np.zeros(NP, np.int64)  # the node's value depends on the depth limit
    # triangular PV: line[p, j] for j >= p, as (ply's move row, or -1 = pass) copied into pv_* at the root
    PVM = np.zeros((NP, NP, 6), np.int32)
    PVW = np.zeros((NP, NP, SIZE), np.uint8)
    PVB = np.zeros((NP, NP), np.uint16)
    PVN = np.zeros((NP, NP), np.uint16)
    pvlen = np.zeros(NP, np.int64)
    counts = np.zeros(32, np.int64)
    rows = np.zeros(8, np.int64)
    cols = np.zeros(8, np.int64)
    ones = np.ones(K, np.int64)
    mask = np.int64(tt.shape[0] - 1)
    nodes = np.int64(0)
    hits = np.int64(0)
    need = np.int64(0)
    p = 0
    alpha[0] = alpha0
    beta[0] = beta0
    passed[0] = passed0
    bh[0] = bhash0
    rv = np.int64(0)
    val = np.int64(0)
    ENTER, NEXT, APPLY, RETURN = 0, 1, 2, 3
    mode = ENTER
    while True:
        if mode == ENTER:
            nodes += 1
            s = p & 1
            pvlen[p] = p
            hz[p] = 0
            k = _node_hash(bh[p], RK[p], s, passed[p], zrack, zmisc)
            key[p] = k
            dl = D - p
            ttm = np.int64(-1)
            e = k & mask
            if tt[e, 0] == k:
                info = tt[e, 2]
                tdep = info & 255
                ttm = (info >> 16) - 1
                if tdep >= dl:
                    v = tt[e, 1]
                    fl = (info >> 8) & 255
                    if p > 0 and (fl == 0 or (fl == 1 and v >= beta[p]) or (fl == 2 and v <= alpha[p])):
                        hits += 1
                        if tdep != EXACT_DEPTH:
                            hz[p] = 1
                        rv = v
                        mode = RETURN
                        continue
            if dl == 0:
                rv, more = _playout(BL, FV, OC, CC, XS, RK, p, s, passed[p], lm, wm, lval, rack_size, bingo, dawg,
                                    span, tabs, full, tile_pts, M[p], W[p], B[p], N[p], counts, rows, cols)
                if more > cap:
                    need = more
                    break
                hz[p] = 1
                mode = RETURN
                continue
            rk = RK[p, s]
            n = gen_plays(BL[p], FV[p], OC[p], CC[p], XS[p], lm, wm, lval, rk, rack_size, bingo, dawg, span, D < 0,
                          M[p], W[p], B[p], N[p], tabs, counts)
            if n > cap:
                need = n
                break
            nr = _rack_pts(rk, ones)
            opp_pts = _rack_pts(RK[p, 1 - s], tile_pts)
            my_pts = _rack_pts(rk, tile_pts)
            keys = order[p]
            for i in range(n):
                est = np.int64(M[p, i, 4])
                if np.int64(M[p, i, 5]) == nr:
                    est += 2 * opp_pts
                else:  # static equity with the bag empty: the points kept count twice against
                    used = np.int64(0)
                    for c in range(np.int64(M[p, i, 3])):
                        if (np.int64(N[p, i]) >> c) & 1 and not (np.int64(B[p, i]) >> c) & 1:
                            used += lval[np.int64(W[p, i, c])]
                    est -= 2 * (my_pts - used)
                if i == ttm:
                    est = INF
                keys[i] = -est * 65536 + i
            est = np.int64(-1000) if passed[p] == 0 else INF - 1
            if ttm == n:
                est = INF
            keys[n] = -est * 65536 + n
            srt = np.sort(keys[: n + 1])
            for i in range(n + 1):
                keys[i] = srt[i] & 65535
            nmv[p] = n + 1
            idx[p] = 0
            best[p] = -INF
            bestm[p] = -1
            a_in[p] = alpha[p]
            mode = NEXT
        elif mode == NEXT:
            if idx[p] >= nmv[p]:
                rv = best[p]
                mode = RETURN
                # store: flag by the window the node was searched in
                fl = 0
                if rv <= a_in[p]:
                    fl = 2
                e = key[p] & mask
                tt[e, 0] = key[p]
                tt[e, 1] = rv
                tt[e, 2] = ((D - p) if hz[p] else EXACT_DEPTH) | (fl << 8) | ((bestm[p] + 1) << 16)
                continue
            s = p & 1
            mi = order[p, idx[p]]
            idx[p] += 1
            cur[p] = mi
            n = nmv[p] - 1
            if mi == n:  # pass
                if passed[p]:
                    val = _rack_pts(RK[p, 1 - s], tile_pts) - _rack_pts(RK[p, s], tile_pts)
                    pvlen[p + 1] = p + 1
                    mode = APPLY
                    continue
                _copy_ply(BL, FV, OC, CC, XS, RK, p)
                gain[p] = 0
                passed[p + 1] = 1
                bh[p + 1] = bh[p]
            else:
                _copy_ply(BL, FV, OC, CC, XS, RK, p)
                rk = RK[p + 1, s]
                make_play(BL[p + 1], FV[p + 1], OC[p + 1], CC[p + 1], XS[p + 1], dawg, full, lval, M[p], W[p], B[p],
                          N[p], mi, rk, rows, cols)
                sc = np.int64(M[p, mi, 4])
                if _rack_pts(rk, ones) == 0:
                    val = sc + 2 * _rack_pts(RK[p, 1 - s], tile_pts)
                    pvlen[p + 1] = p + 1
                    mode = APPLY
                    continue
                gain[p] = sc
                passed[p + 1] = 0
                bh[p + 1] = bh[p] ^ _play_hash(M[p], W[p], B[p], N[p], mi, zsq)
            alpha[p + 1] = gain[p] - beta[p]  # val = gain - child's value, so the child's window is shifted
            beta[p + 1] = gain[p] - alpha[p]
            p += 1
            mode = ENTER
        elif mode == APPLY:
            if val > best[p]:
                best[p] = val
                bestm[p] = cur[p]
                # this move and the child's line become the node's line
                mi = cur[p]
                n = nmv[p] - 1
                if mi == n:
                    PVM[p, p, 3] = 0
                else:
                    for c in range(6):
                        PVM[p, p, c] = M[p, mi, c]
                    for c in range(SIZE):
                        PVW[p, p, c] = W[p, mi, c]
                    PVB[p, p] = B[p, mi]
                    PVN[p, p] = N[p, mi]
                for j in range(p + 1, pvlen[p + 1]):
                    for c in range(6):
                        PVM[p, j, c] = PVM[p + 1, j, c]
                    for c in range(SIZE):
                        PVW[p, j, c] = PVW[p + 1, j, c]
                    PVB[p, j] = PVB[p + 1, j]
                    PVN[p, j] = PVN[p + 1, j]
                pvlen[p] = max(pvlen[p + 1], p + 1)
            if val > alpha[p]:
                alpha[p] = val
            if alpha[p] >= beta[p]:
                rv = best[p]
                e = key[p] & mask
                tt[e, 0] = key[p]
                tt[e, 1] = rv
                tt[e, 2] = ((D - p) if hz[p] else EXACT_DEPTH) | (np.int64(1) << 8) | ((bestm[p] + 1) << 16)
                mode = RETURN
            else:
                mode = NEXT
        else:  # RETURN rv from node p
            if p == 0:
                break
            if hz[p]:
                hz[p - 1] = 1
            p -= 1
            val = gain[p] - rv
            mode = APPLY
    out[0] = rv
    out[1] = nodes
    out[2] = hz[0]
    out[3] = pvlen[0]
    out[4] = need
    out[5] = hits
    for j in range(pvlen[0]):
        for c in range(6):
            pv_meta[j, c] = PVM[0, j, c]
        for c in range(SIZE):
            pv_words[j, c] = PVW[0, j, c]
        pv_bm[j] = PVB[0, j]
        pv_nm[j] = PVN[0, j]
