"""Exact endgame kernel: negamax with alpha-beta over every play and the pass, both racks known, bag empty.

Values are spreads in points from the side to move (its points minus the opponent's, from here to the end).
Rules: a play that empties the mover's rack ends the game and earns twice the opponent's rack points; a pass
after a pass ends it with each side losing its own rack points. At the depth limit a node is valued by a greedy
playout (each side plays its top-scoring play until the game ends), so values are exact once no line reaches
the limit (``out[2] == 0``), which iterative deepening in :mod:`.endgame` runs to.

No recursion: per-ply state in ``(D + 2, ...)`` arrays, ply ``p`` holding the board and both racks of the node at
depth ``p`` (side ``p & 1`` to move; side 0 moves at the root) and its move list; a node's first move is played on a
copy of its ply in the next one, each later move there once the previous move's lines are put back. Moves are
tried in order of static equity with the bag empty (score; + twice the opponent's rack for going out, else - twice
the points kept), the transposition table's move first; the pass last, or first when the opponent just passed.

Move cache: a side's plays two plies down differ from its plays here only where the two moves in between changed
a square on the play or just before or after it (:func:`_changes`: their new tiles, and the squares whose
cross-checks they changed, the first empty square past each run through a new tile; by line of each orientation).
So below the root a node's list is the plays of the node two plies up (at ply 1: the opponent's plays on the root
board, generated once per search) that no changed square reaches and whose tiles the rack still holds, plus a
generation of the plays the changed squares reach (the generator's line mask and, per line, ends restricted to
those reaching a changed square: via_opp_must_block at 4 plies 0.85x the time of generating every play of a
touched line).

The greedy playouts never merge lists: a side's plays are segments, each a generation whose plays still stand
unless a later move changed a square they reach or took their tiles, and each turn generates the plays that the
squares changed since the side's last turn reach and takes the best play of its segments. A leaf's first segments
are its parent's list and the list of the side to move on the parent's board (made once for all the parent's
children), both ordered by score, so a turn reads them only down to the first play that still stands
(via_opp_must_block at 4 plies: 0.88x the time of merged lists, which copied ~500 plays a turn to keep ~30). Among
equal scores they take the first in generation order (direction, line, start, letters; see
:func:`._movegen._earlier`). A side that holds a blank plays out by the pruned best-play search instead
(:func:`._autoplay.best_play`, the same play: its lists run to thousands of plays, and a generation on a few lines
alone to 70 us), and its next turn generates every play.

A leaf reached by the pass of a side that had no play is not played out when the table holds a playout's value
of the node before the pass (an earlier, shallower depth's leaf): that playout passed first and then played out
this leaf's position, so the leaf's value is its value negated (eldar_v_stick, AEEIRUW against a stuck V, at 6
plies: the last deepening step took 0.77x the time, same nodes). The child's table entry is asked for
(:func:`prefetch`) before a move is made, so its cache miss overlaps the making.

Transposition table ``tt`` (``(2^k, 4)`` int64): Zobrist key ^ the other three words (a torn entry written by two
threads at once fails the check); value; ``depth | flag << 8`` where depth :data:`EXACT_DEPTH` marks a value no
depth limit touched, flag 0 exact, 1 lower bound, 2 upper bound; the best move's key (:func:`_play_hash` of its
new tiles, :data:`PASS_KEY` for the pass, 0 none). Always-replace.
"""
from __future__ import annotations

import numpy as np

from .._jit import borrowed as _b, inline, kernel, prefetch
from ._autoplay import _rack_pts, best_play, gen_plays, make_play
from ._cross import MEMO_BITS, borrowed_checks
from ..bits import lsb_index
from ._movegen import ALL_LINES, REC
from ._tables import EMPTY, SIZE

EXACT_DEPTH = np.int64(255)
INF = np.int64(1) << 40
PASS_KEY = np.int64(1)
"""The transposition table's move key of the pass (play keys are Zobrist sums of 62-bit numbers: never 1)."""
N_OUT = 7
"""``out``: value, nodes, horizon reached (0/1), PV length, the play buffers' rows at the end (``cap`` or more: they
grow when a list needs more room), TT hits, stopped by ``stop`` (1: the rest is not a result)."""


@kernel
def _copy_ply(BL, FV, OC, CC, XS, RK, p):
    """Board and racks of ply ``p`` into ply ``p + 1`` (flat loops over the contiguous squares)."""
    n = 2 * SIZE * SIZE
    bl = BL.reshape(BL.shape[0], n)
    f = FV.reshape(FV.shape[0], n)
    c = CC.reshape(CC.shape[0], n)
    x = XS.reshape(XS.shape[0], n)
    for k in range(n):
        bl[p + 1, k] = bl[p, k]
    for k in range(n):
        f[p + 1, k] = f[p, k]
        c[p + 1, k] = c[p, k]
        x[p + 1, k] = x[p, k]
    for i in range(2 * SIZE):
        OC[p + 1, i // SIZE, i % SIZE] = OC[p, i // SIZE, i % SIZE]
    for s in range(2):
        for k in range(RK.shape[2]):
            RK[p + 1, s, k] = RK[p, s, k]


@kernel
def _undo_lines(BL, FV, OC, CC, XS, RK, p, tr, tc):
    """Ply ``p + 1``, which holds ply ``p`` after a move whose lines are ``tr``/``tc`` (:func:`_changes`),
    back to ply ``p``: a move changes the squares of the across rows of ``tr`` in orientation 0 and of the down
    columns of ``tc`` in orientation 1 only (its tiles, and the cross-checks at the ends of the runs through them)."""
    for d in range(2):
        mask = tr if d == 0 else tc
        while mask != 0:
            i = lsb_index(mask)
            mask &= mask - 1
            OC[p + 1, d, i] = OC[p, d, i]
            for j in range(SIZE):
                BL[p + 1, d, i, j] = BL[p, d, i, j]
                FV[p + 1, d, i, j] = FV[p, d, i, j]
                CC[p + 1, d, i, j] = CC[p, d, i, j]
                XS[p + 1, d, i, j] = XS[p, d, i, j]
    for s in range(2):
        for k in range(RK.shape[2]):
            RK[p + 1, s, k] = RK[p, s, k]


@inline
def _dirty(dirty, p, fresh, tr0, tc0, tr1, tc1):
    """Node ``p`` wrote ply ``p + 1`` (whole when ``fresh``, else the lines of its last move ``tr0``/``tc0`` put back)
    and then made a move there (lines ``tr1``/``tc1``): ply ``p + 1`` now differs from ply ``p`` on any line, and
    ply ``p + 2`` from ply ``p + 1`` on those lines too (see :func:`_playout`)."""
    full = np.int64((1 << SIZE) - 1)
    dirty[p + 1, 0] = full
    dirty[p + 1, 1] = full
    if fresh:
        dirty[p + 2, 0] = full
        dirty[p + 2, 1] = full
    else:
        dirty[p + 2, 0] |= tr0 | tr1
        dirty[p + 2, 1] |= tc0 | tc1


@kernel
def _child_ply(BL, FV, OC, CC, XS, RK, p, fresh, tr, tc):
    """Ply ``p + 1`` made equal to ply ``p`` for the next move of node ``p``: copied whole for its first (``fresh``),
    else the last move's lines put back (:func:`_undo_lines`; its children never write ply ``p + 1``)."""
    if fresh:
        _copy_ply(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p)
    else:
        _undo_lines(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p, tr, tc)


@kernel
def _node_hash(bhash, RK, p, side, passed, zrack, zmisc):
    """Key of a node: board part ``bhash`` ^ both racks of ply ``p`` ^ side to move ^ the pass flag."""
    h = bhash
    for s in range(2):
        for k in range(RK.shape[2]):
            h ^= zrack[s, k, RK[p, s, k]]
    if side == 1:
        h ^= zmisc[0]
    if passed:
        h ^= zmisc[1]
    return h


@kernel
def _play_hash(meta, words, bm, nm, o, i, zsq):
    """The board-key change of the play in row ``i`` of buffer ``o``: its new tiles (square, letter, blank)."""
    h = np.int64(0)
    r0 = np.int64(meta[o, i, 0])
    c0 = np.int64(meta[o, i, 1])
    d = np.int64(meta[o, i, 2])
    for k in range(np.int64(meta[o, i, 3])):
        if (np.int64(nm[o, i]) >> k) & 1:
            r = r0 + k if d == 1 else r0
            c = c0 if d == 1 else c0 + k
            h ^= zsq[r * SIZE + c, np.int64(words[o, i, k]) + 32 * ((np.int64(bm[o, i]) >> k) & 1)]
    return h


@inline
def _child_key(key, RK, p, s, passed, ph, meta, words, bm, nm, o, i, zrack, zmisc):
    """The key :func:`_node_hash` gives the child of node ``p`` (key ``key``, side ``s`` to move) after play ``i`` of
    buffer ``o`` (board-key change ``ph``; ``i < 0``: the pass), from the racks before the play: so that the child's
    table entry can be asked for (:func:`prefetch`) while the play is made."""
    h = key ^ zmisc[0]
    if passed:
        h ^= zmisc[1]
    if i < 0:
        return h ^ zmisc[1]
    h ^= ph
    ln = np.int64(meta[o, i, 3])
    for c in range(ln):
        if (np.int64(nm[o, i]) >> c) & 1:
            kd = np.int64(0) if (np.int64(bm[o, i]) >> c) & 1 else np.int64(words[o, i, c]) + 1
            cnt = RK[p, s, kd]
            for c2 in range(c):  # the same kind taken by the play's earlier tiles
                if (np.int64(nm[o, i]) >> c2) & 1:
                    k2 = np.int64(0) if (np.int64(bm[o, i]) >> c2) & 1 else np.int64(words[o, i, c2]) + 1
                    cnt -= np.int64(k2 == kd)
            if cnt > 0:
                h ^= zrack[s, kd, cnt] ^ zrack[s, kd, cnt - 1]
    return h


@kernel
def _changes(oc, rows, cols, m, chg):
    """The squares a move changed, per line: ``chg[d * SIZE + i]`` a mask of the squares of line ``i`` of direction
    ``d`` (0 across rows, 1 down columns), for the move's ``m`` new tiles at ``rows[:m]``/``cols[:m]`` on the board
    after it (``oc``: its occupancy, orientation form): a new tile's square on its row and on its column, and per
    direction the first empty square past the run through it (its cross-check and cross score change: on the
    row of a square above or below, on the column of one left or right). Returns the lines with a changed square,
    ``(across rows, down columns)`` as 15-bit masks. A play is unchanged unless one of its squares or the square
    just before or after it changed."""
    for ln in range(2 * SIZE):
        chg[ln] = 0
    for k in range(m):
        r0 = rows[k]
        c0 = cols[k]
        chg[r0] |= np.int64(1) << c0
        chg[SIZE + c0] |= np.int64(1) << r0
        for step in (-1, 1):
            r = r0 + step  # up or down the column: a square of an across row changes
            while 0 <= r < SIZE and (oc[0, r] >> c0) & 1:
                r += step
            if 0 <= r < SIZE:
                chg[r] |= np.int64(1) << c0
            c = c0 + step  # along the row: a square of a down column changes
            while 0 <= c < SIZE and (oc[0, r0] >> c) & 1:
                c += step
            if 0 <= c < SIZE:
                chg[SIZE + c] |= np.int64(1) << r0
    lines = _changed_lines(chg)
    return lines & ((1 << SIZE) - 1), lines >> SIZE


@inline
def _changed_lines(chg):
    """The lines of ``chg`` (:func:`_changes`) that hold a changed square: bit ``d * SIZE + i`` (the generator's line
    mask)."""
    lines = np.int64(0)
    for ln in range(2 * SIZE):
        lines |= np.int64(chg[ln] != 0) << ln
    return lines


@inline
def _ext(a, e):
    """The squares ``a - 1 .. e + 1`` of a line, as a mask (a play over ``a..e`` and the squares beside it)."""
    return ((np.int64(1) << min(e + 2, SIZE)) - 1) & ~((np.int64(1) << max(a - 1, 0)) - 1)


@inline
def _copy_row(M, W, B, N, a, i, M2, W2, B2, N2, b, j):
    """Play ``i`` of buffer ``a`` into row ``j`` of buffer ``b`` (play rows: meta, word, blanks, new tiles)."""
    for c in range(M2.shape[2]):
        M2[b, j, c] = M[a, i, c]
    for c in range(SIZE):
        W2[b, j, c] = W[a, i, c]
    B2[b, j] = B[a, i]
    N2[b, j] = N[a, i]


@kernel
def _single(BL, FV, OC, CC, XS, q, rk, M, W, B, N, o, lm, wm, lval, chg):
    """The plays of a one-tile rack ``rk`` on ply ``q``'s board into buffer ``o``, as the generator writes them
    (no DAWG walk: the cross-checks of both directions say which letters make both words): on every empty
    square next to a tile, across when it has a tile left or right, else down; those that the changed squares
    ``chg`` (see :func:`_changes`; every square: every play) reach. Returns their number."""
    lines = _changed_lines(chg)
    tr = lines & ((1 << SIZE) - 1)
    tc = lines >> SIZE
    cap = M.shape[1]
    t = np.int64(0)
    while rk[t] == 0:
        t += 1
    letters = np.int64((1 << (rk.shape[0] - 1)) - 1) if t == 0 else np.int64(1) << (t - 1)
    n = np.int64(0)
    full = np.int64((1 << SIZE) - 1)
    for r in range(SIZE):
        row = OC[q, 0, r]
        side = ((row << 1) | (row >> 1)) & full
        vert = (OC[q, 0, r - 1] if r > 0 else 0) | (OC[q, 0, r + 1] if r < SIZE - 1 else 0)
        todo = (side | vert) & ~row & full  # empty squares next to a tile
        # across plays on the rows of tr, down plays (no tile left or right) on the columns of tc
        todo &= (side if (tr >> r) & 1 else 0) | (~side & tc)
        while todo != 0:
            c = lsb_index(todo)
            todo &= todo - 1
            h = (side >> c) & 1 == 1
            d = 0 if h else 1
            i = r if h else c  # the line and the tile's place on it
            allowed = CC[q, 0, r, c] & CC[q, 1, c, r] & letters
            if allowed == 0:  # (a stuck tile: most squares)
                continue
            j = c if h else r
            a = j
            while a > 0 and BL[q, d, i, a - 1] != EMPTY:
                a -= 1
            e = j
            while e < SIZE - 1 and BL[q, d, i, e + 1] != EMPTY:
                e += 1
            if chg[d * SIZE + i] & _ext(a, e) == 0:
                continue
            fixed = np.int64(0)
            for k in range(a, e + 1):
                fixed += FV[q, d, i, k]
            cross = XS[q, d, i, j]
            while allowed != 0:
                L = lsb_index(allowed)
                allowed &= allowed - 1
                lv = np.int64(0) if t == 0 else np.int64(lval[L])
                sc = (fixed + lv * lm[d, i, j]) * wm[d, i, j]
                if cross >= 0:
                    sc += (cross + lv * lm[d, i, j]) * wm[d, i, j]
                if n < cap:
                    M[o, n, 0] = r if h else a
                    M[o, n, 1] = a if h else c
                    M[o, n, 2] = d
                    M[o, n, 3] = e - a + 1
                    M[o, n, 4] = sc
                    M[o, n, 5] = 1
                    for k in range(a, e + 1):
                        W[o, n, k - a] = L if k == j else BL[q, d, i, k]
                    for k in range(e - a + 1, SIZE):
                        W[o, n, k] = 0
                    B[o, n] = (1 << (j - a)) if t == 0 else 0
                    N[o, n] = 1 << (j - a)
                n += 1
    return n


TILES = np.int64((1 << 56) - 1)
"""The tile-count fields of a play's key (:func:`_sign_row`); its line is in the bits above."""
GUARD = np.int64(0x88888888888888)
"""The top bit of each of the 14 fields: a rack's counts + 8 each, less a play's, keep them all iff it holds the
play's tiles (a field never borrows from the next: a count is at most 7)."""


@inline
def _sign_row(M, W, B, N, TK, o, r, fmap):
    """The key of play ``r`` of buffer ``o``: the tiles it takes from the rack as counts in 4-bit fields (field
    ``fmap[kind]``, kind 0 the blank, 1 + letter code; 14 at most: bits 0-55), and its line (0-14 the across rows,
    15-29 the down columns) in bits 56 and up, into ``TK[o, r, 0]``; its squares and the two beside them
    (:func:`_ext`) into ``TK[o, r, 1]``."""
    key = np.int64(0)
    nm = np.int64(N[o, r])
    bm = np.int64(B[o, r])
    for k in range(np.int64(M[o, r, 3])):
        if (nm >> k) & 1:
            f = fmap[0 if (bm >> k) & 1 else np.int64(W[o, r, k]) + 1]
            key += np.int64(1) << (4 * f)
    d = np.int64(M[o, r, 2])
    line = d * SIZE + (np.int64(M[o, r, 0]) if d == 0 else np.int64(M[o, r, 1]))
    TK[o, r, 0] = key | (line << 56)
    a = np.int64(M[o, r, 1]) if d == 0 else np.int64(M[o, r, 0])
    TK[o, r, 1] = _ext(a, a + np.int64(M[o, r, 3]) - 1)


@kernel
def _tile_fields(racks):
    """The field of each tile kind in a play's tile counts (:func:`_sign_row`): the kinds either rack
    (``racks[s]`` by kind) holds, numbered in kind order; -1 for the others."""
    fmap = np.empty(racks.shape[1], np.int64)
    nf = 0
    for k in range(racks.shape[1]):
        fmap[k] = -1
        if racks[0, k] + racks[1, k] > 0:
            fmap[k] = nf
            nf += 1
    return fmap


@kernel
def _gen(BL, FV, OC, CC, XS, q, rk, M, W, B, N, TK, o, chg, fmap, lm, wm, lval, rack_size, bingo, dawg, span, tabs,
         counts, gbuf):
    """The plays of rack ``rk`` on ply ``q``'s board that the changed squares ``chg`` (by line, see :func:`_changes`;
    every square: every play) reach into rows of buffer ``o`` of ``M``/``W``/``B``/``N``, their keys in ``TK``
    (:func:`_sign_row`). Returns their number (rows past the buffers' are counted, not written). One call of the
    generator (each call site compiles it into this kernel again)."""
    cap = M.shape[1]
    nt = np.int64(0)
    for k in range(rk.shape[0]):
        nt += rk[k]
    lmask = _changed_lines(chg)
    n = np.int64(0)
    if nt == 1:
        n = _single(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), q, _b(rk), _b(M), _b(W), _b(B), _b(N), o, _b(lm), _b(wm),
                    _b(lval), _b(chg))
    elif lmask != 0:
        n = gen_plays(_b(BL)[q], _b(FV)[q], _b(OC)[q], _b(CC)[q], _b(XS)[q], _b(lm), _b(wm), _b(lval), _b(rk), rack_size,
                      bingo, _b(dawg), _b(span), q < 0, _b(M)[o], _b(W)[o], _b(B)[o], _b(N)[o], tabs, _b(counts), _b(gbuf),
                      lmask, _b(chg))
    for r in range(min(n, cap)):
        _sign_row(_b(M), _b(W), _b(B), _b(N), _b(TK), o, r, _b(fmap))
    return n


@inline
def _rack_key(rk, fmap):
    """The rack's tile counts in the fields of :func:`_sign_row`, each + 8 (see :data:`GUARD`)."""
    rkey = GUARD
    for k in range(rk.shape[0]):
        if rk[k] > 0:
            rkey += rk[k] << (4 * fmap[k])
    return rkey


@inline
def _holds(TK, o, i, rkey, since):
    """Whether play ``i`` of buffer ``o`` (its key and squares in ``TK``: :func:`_sign_row`) is still a play: no square
    of ``since`` (changed squares by line, :func:`_changes`) is on it or beside it, and the rack of key ``rkey``
    (:func:`_rack_key`) holds its tiles."""
    key = TK[o, i, 0]
    return ((since[key >> 56] & TK[o, i, 1]) == 0) & (((rkey - (key & TILES)) & GUARD) == GUARD)


@kernel
def _plays(BL, FV, OC, CC, XS, q, rk, M, W, B, N, TK, o, b, nb, chg, fmap, lm, wm, lval, rack_size, bingo, dawg, span,
           tabs, counts, gbuf):
    """The plays of rack ``rk`` on ply ``q``'s board into rows of buffer ``o`` (:func:`_gen`); returns their number
    (rows past the buffers' are counted, not written). ``b < 0``: every play generated (``chg``: every square); else
    the ``nb`` plays of buffer ``b`` (the same side two plies up) that the squares ``chg`` changed since
    (:func:`_changes`) left alone and whose tiles ``rk`` still holds, after a generation of the plays the changes
    reach. ``fmap``: the 4-bit field of each tile kind in the plays' tile counts (:func:`_sign_row`; the kinds of
    both racks at the root, at most 14), so that "the rack still holds the play's tiles" is a subtraction."""
    cap = M.shape[1]
    n = _gen(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), q, _b(rk), _b(M), _b(W), _b(B), _b(N), _b(TK), o, _b(chg),
             _b(fmap), _b(lm), _b(wm), _b(lval), rack_size, bingo, _b(dawg), _b(span), tabs, _b(counts), _b(gbuf))
    if b < 0:
        return n
    rkey = _rack_key(_b(rk), _b(fmap))
    # the plays kept, their rows first noted in TK[o] without a branch (which play is kept follows no pattern a
    # branch predictor learns: that branch was most of this loop's time), then copied
    n0 = n
    last = cap - 1
    for i in range(nb):
        TK[o, min(n, last), 0] = i
        n += np.int64(_holds(_b(TK), b, i, rkey, _b(chg)))
    for j in range(n0, min(n, cap)):
        i = TK[o, j, 0]
        _copy_row(_b(M), _b(W), _b(B), _b(N), b, i, _b(M), _b(W), _b(B), _b(N), o, j)
        TK[o, j, 0] = TK[b, i, 0]
        TK[o, j, 1] = TK[b, i, 1]
    return n


@kernel
def _by_score(M, SO, o, n):
    """Rows ``0..n-1`` of buffer ``o`` by score, high first (ties in row order), into ``SO[o, :n]``."""
    keys = np.empty(n, np.int64)
    for i in range(n):
        keys[i] = ((np.int64(1 << 20) - np.int64(M[o, i, 4])) << 32) | i
    keys.sort()
    for i in range(n):
        SO[o, i] = keys[i] & 0xFFFFFFFF


@kernel
def _precedes(M, W, B, o, i, o2, j):
    """Whether play ``i`` of buffer ``o`` comes before play ``j`` of buffer ``o2`` in generation order: by direction,
    line, start square, then letters (real tiles before blanks, a word before its extensions)."""
    di = np.int64(M[o, i, 2])
    dj = np.int64(M[o2, j, 2])
    if di != dj:
        return di < dj
    li = np.int64(M[o, i, 0]) if di == 0 else np.int64(M[o, i, 1])
    lj = np.int64(M[o2, j, 0]) if dj == 0 else np.int64(M[o2, j, 1])
    if li != lj:
        return li < lj
    si = np.int64(M[o, i, 1]) if di == 0 else np.int64(M[o, i, 0])
    sj = np.int64(M[o2, j, 1]) if dj == 0 else np.int64(M[o2, j, 0])
    if si != sj:
        return si < sj
    ni = np.int64(M[o, i, 3])
    nj = np.int64(M[o2, j, 3])
    bi = np.int64(B[o, i])
    bj = np.int64(B[o2, j])
    for k in range(min(ni, nj)):
        a = np.int64(W[o, i, k]) + 32 * ((bi >> k) & 1)
        c = np.int64(W[o2, j, k]) + 32 * ((bj >> k) & 1)
        if a != c:
            return a < c
    return ni < nj


@inline
def _top(M, W, B, TK, SO, o, n, ordered, since, rkey, bo, bi, bsc):
    """The best of ``(bo, bi, bsc)`` (buffer, row, score; ``bo < 0``: none) and the plays of rows ``0..n-1`` of buffer
    ``o`` that :func:`_holds` keeps (``since``, ``rkey``): the higher score, among equals the first in generation
    order. ``ordered``: rows read in the order of ``SO[o]`` (high score first), which stops at the first score below
    the best."""
    for j in range(n):
        i = SO[o, j] if ordered else j
        sc = np.int64(M[o, i, 4])
        if sc < bsc:
            if ordered:
                break
            continue
        if _holds(_b(TK), o, i, rkey, _b(since)) and (sc > bsc or _precedes(_b(M), _b(W), _b(B), o, i, bo, bi)):
            bo = o
            bi = i
            bsc = sc
    return bo, bi, bsc


@kernel
def _playout(BL, FV, OC, CC, XS, RK, p, side, passed, o0, n0, o1, n1, chg, M, W, B, N, TK, SO, ordered, pb, fmap, lm,
             wm, lval, rack_size, bingo, dawg, span, tabs, checks, tile_pts, counts, rows, cols, gbuf, ones, SG, SL,
             memo, dirty):
    """Greedy value of ply ``p``'s node for ``side`` to move: both sides play their top-scoring play (first in
    generation order among equals) until the game ends. Uses ply ``p + 1``'s board and buffers ``pb ..`` as scratch.

    A side's plays are segments, never merged: each a generation whose plays are still plays unless a move since
    changed a square on or beside them or took their tiles from the rack (:func:`_holds`). ``o0``/``o1`` (``< 0``:
    none): buffers of ``n0``/``n1`` plays of ``side``/the other side, complete on ply ``p``'s board but for those
    that the squares ``chg`` changed (by line, :func:`_changes`), with ``ordered`` ordered by score in ``SO``
    (:func:`_by_score`; a parent's first leaf scans them unordered: most parents end there); each step generates
    the plays that the squares changed since the side's last generation reach, and takes the best of its segments.
    ``SG`` (4, segments), ``SL`` (segments + 5, ``2 * SIZE``): scratch. Returns ``(value, plays needed)``: a second
    value above the buffers' rows means "call again with more room". ``memo``: the cross-checks' (see
    :func:`._cross.square_check`). ``dirty[p + 1]``: the lines (rows, columns: as :func:`_changes`) where ply
    ``p + 1`` may differ from ply ``p``, put back first (a full copy when all are); on return every line the
    playout's moves changed is put back, and it is 0 (the caller adds the lines it changes in either ply)."""
    full = np.int64((1 << SIZE) - 1)
    if dirty[p + 1, 0] == full and dirty[p + 1, 1] == full:
        _copy_ply(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p)
    else:
        _undo_lines(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p, dirty[p + 1, 0], dirty[p + 1, 1])
    utr = np.int64(0)  # the lines the playout's moves changed (:func:`_changes`), put back on return
    utc = np.int64(0)
    cap = M.shape[1]
    nseg = SG.shape[1]
    npb = nseg - 2
    PEND = nseg  # SL rows: the segments' changes since, then per side the changes since its last generation,
    ZERO = nseg + 2  # no change, every square, the last move's changes
    FULL = nseg + 3
    MOVE = nseg + 4
    q = p + 1
    v = np.int64(0)  # spread for `side`
    s = side
    npass = passed
    full = np.int64((1 << SIZE) - 1)
    for ln in range(2 * SIZE):
        SL[ZERO, ln] = 0
        SL[FULL, ln] = full
    # segments k < ns: SG[0, k] buffer, SG[1, k] plays, SG[2, k] ordered | side << 1, SL[k] changes since;
    # SG[3, s]: side s's segments hold every play but those of the changes since its last generation (SL[PEND + s])
    ns = 0
    for t in range(2):
        o = o0 if t == 0 else o1
        st = side if t == 0 else 1 - side
        for ln in range(2 * SIZE):
            SL[PEND + st, ln] = chg[ln]
        SG[3, st] = 1 if o >= 0 else 0
        if o >= 0:
            SG[0, ns] = o
            SG[1, ns] = n0 if t == 0 else n1
            SG[2, ns] = np.int64(ordered) | (st << 1)
            for ln in range(2 * SIZE):
                SL[ns, ln] = chg[ln]
            ns += 1
    nb = 0  # playout buffers kept as segments
    for step in range(64):  # a game ends within 2 * 7 plays and passes
        rk = _b(RK)[q, s]  # (borrowed views below: an array argument costs an atomic reference-count pair a call)
        o = pb + nb
        bo = np.int64(-1)
        bi = np.int64(-1)
        bsc = np.int64(-1)
        if rk[0] > 0:  # a blank: the top play alone, by the pruned search (its list would run to thousands of plays)
            n = best_play(_b(BL)[q], _b(FV)[q], _b(OC)[q], _b(CC)[q], _b(XS)[q], _b(lm), _b(wm), _b(lval), rk,
                          rack_size, bingo, _b(dawg), _b(span), q < 0, _b(M)[o], _b(W)[o], _b(B)[o], _b(N)[o], tabs,
                          _b(counts))
            if n > 0:
                bo = o
                bi = 0
                bsc = np.int64(M[o, 0, 4])
            SG[3, s] = 0  # its segments end here: the next generation is of every play
            for k in range(ns):
                if SG[2, k] >> 1 == s:
                    SG[1, k] = 0
        else:
            every = SG[3, s] == 0
            n = _gen(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), q, rk, _b(M), _b(W), _b(B), _b(N), _b(TK), o,
                     _b(SL)[FULL if every else PEND + s], _b(fmap), _b(lm), _b(wm), _b(lval), rack_size, bingo,
                     _b(dawg), _b(span), tabs, _b(counts), _b(gbuf))
            if n > cap:
                _undo_lines(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p, utr, utc)
                dirty[p + 1, 0] = 0
                dirty[p + 1, 1] = 0
                return v, n
            for ln in range(2 * SIZE):
                SL[PEND + s, ln] = 0
            SG[3, s] = 1
            rkey = _rack_key(rk, _b(fmap))
            bo, bi, bsc = _top(_b(M), _b(W), _b(B), _b(TK), _b(SO), o, n, False, _b(SL)[ZERO], rkey, bo, bi, bsc)
            for k in range(ns):
                if SG[2, k] >> 1 == s:
                    if every:
                        SG[1, k] = 0
                    else:
                        ok = SG[0, k]
                        nk = SG[1, k]
                        ordk = SG[2, k] & 1
                        bo, bi, bsc = _top(_b(M), _b(W), _b(B), _b(TK), _b(SO), ok, nk, ordk, _b(SL)[k], rkey, bo, bi,
                                           bsc)
            if n > 0 and nb < npb - 1:  # kept (the last buffer is scratch for the rest)
                SG[0, ns] = o
                SG[1, ns] = n
                SG[2, ns] = s << 1
                for ln in range(2 * SIZE):
                    SL[ns, ln] = 0
                ns += 1
                nb += 1
            elif n > 0:
                SG[3, s] = 0
        sign = np.int64(1) if s == side else np.int64(-1)
        if bo < 0:
            if npass:
                v += sign * (_rack_pts(_b(RK)[q, 1 - s], _b(tile_pts)) - _rack_pts(rk, _b(tile_pts)))
                break
            npass = 1
        else:
            npass = 0
            v += sign * bsc
            if np.int64(M[bo, bi, 5]) == _rack_pts(rk, _b(ones)):  # out: the game ends, the board is not needed
                v += sign * 2 * _rack_pts(_b(RK)[q, 1 - s], _b(tile_pts))
                break
            m = make_play(_b(BL)[q], _b(FV)[q], _b(OC)[q], _b(CC)[q], _b(XS)[q], _b(dawg), borrowed_checks(checks),
                          _b(lval), _b(M)[bo], _b(W)[bo], _b(B)[bo], _b(N)[bo], bi, rk, _b(rows), _b(cols), _b(memo))
            tr, tc = _changes(_b(OC)[q], _b(rows), _b(cols), m, _b(SL)[MOVE])
            utr |= tr
            utc |= tc
            for ln in range(2 * SIZE):
                c = SL[MOVE, ln]
                if c != 0:
                    for k in range(ns):
                        SL[k, ln] |= c
                    SL[PEND, ln] |= c
                    SL[PEND + 1, ln] |= c
        s = 1 - s
    _undo_lines(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p, utr, utc)
    dirty[p + 1, 0] = 0
    dirty[p + 1, 1] = 0
    return v, np.int64(0)


@kernel
def _move_key(meta, words, bm, nm, o, i, n, zsq):
    """The transposition table's key of move ``i`` of buffer ``o``'s list of ``n`` plays (``n``: the pass; ``< 0``:
    none)."""
    if i < 0:
        return np.int64(0)
    if i == n:
        return PASS_KEY
    return _play_hash(meta, words, bm, nm, o, i, zsq)


@kernel
def _tt_store(tt, e, key, value, info, move):
    """Write entry ``e``; its first word is the key ^ the others, so a read that mixes two writes fails."""
    tt[e, 1] = value
    tt[e, 2] = info
    tt[e, 3] = move
    tt[e, 0] = key ^ value ^ info ^ move


@kernel
def _grow(M, W, B, N, TK, SO, order, need):
    """The play buffers with room for ``need`` plays a ply and half as many again, every row kept: ``(M, W, B, N,
    TK, SO, order, gbuf)``."""
    cap = need + need // 2
    c0 = M.shape[1]
    M2 = np.empty((M.shape[0], cap, M.shape[2]), M.dtype)
    W2 = np.zeros((W.shape[0], cap, W.shape[2]), W.dtype)
    B2 = np.empty((B.shape[0], cap), B.dtype)
    N2 = np.empty((N.shape[0], cap), N.dtype)
    T2 = np.empty((TK.shape[0], cap, 2), TK.dtype)
    S2 = np.empty((SO.shape[0], cap), SO.dtype)
    O2 = np.empty((order.shape[0], cap + 1), order.dtype)
    M2[:, :c0] = M
    W2[:, :c0] = W
    B2[:, :c0] = B
    N2[:, :c0] = N
    T2[:, :c0] = TK
    S2[:, :c0] = SO
    O2[:, :c0 + 1] = order
    return M2, W2, B2, N2, T2, S2, O2, np.empty(cap * REC, np.uint8)


@kernel
def solve(lines, fv, occ, cc, xs, racks, bhash0, passed0, D, alpha0, beta0, tt, lm, wm, lval, rack_size, bingo, dawg,
          span, tabs, checks, tile_pts, zsq, zrack, zmisc, cap, pv_meta, pv_words, pv_bm, pv_nm, out, rotate, stop):
    """Search the position (board arrays, ``racks[s]`` tiles by kind of side ``s``, side 0 to move, ``passed0``:
    the last move was a pass) to depth ``D`` plies in the window ``(alpha0, beta0)``. Writes ``out`` (see
    :data:`N_OUT`) and the principal variation: ``pv_meta[j]`` (row, col, dir, length, score, tiles; length 0 = a
    pass), ``pv_words[j]``, ``pv_bm[j]``, ``pv_nm[j]``.

    Several calls may share ``tt`` from several threads (lazy SMP): a helper passes ``rotate`` > 0 to start its
    root moves that far down the order (so it fills the table where the main search goes later), and every call
    stops within 256 nodes once ``stop[0]`` is set."""
    tb = (_b(tabs[0]), _b(tabs[1]), _b(tabs[2]), _b(tabs[3]), _b(tabs[4]), _b(tabs[5]))  # the caller keeps them alive
    K = racks.shape[1]
    NP = D + 3  # plies 0..D, ply D + 1 for the playouts' board; RB: the opponent's plays at the root (a buffer)
    RB = NP - 1
    BL = np.empty((NP, 2, SIZE, SIZE), np.uint8)
    FV = np.empty((NP, 2, SIZE, SIZE), np.int64)
    OC = np.empty((NP, 2, SIZE), np.int64)
    CC = np.empty((NP, 2, SIZE, SIZE), np.int64)
    XS = np.empty((NP, 2, SIZE, SIZE), np.int64)
    RK = np.empty((NP, 2, K), np.int64)
    memo = np.zeros((2, 1 << MEMO_BITS), np.int64)  # the cross-checks' (:func:`._cross.square_check`)
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
    # play buffers: one a ply, RB, then LP (the playouts' list of the side to move at a leaf, on its parent's
    # board) and the playouts' segments (one per play of the rest of the game, and one to spare)
    LP = NP
    NPB = np.int64(racks.sum()) + 2
    NB = NP + 1 + NPB
    M = np.empty((NB, cap, 6), np.int32)  # the generator's 6 columns
    TK = np.empty((NB, cap, 2), np.int64)  # the plays' keys and squares (_sign_row)
    SO = np.empty((NB, cap), np.int64)  # rows by score (_by_score), of LP and the leaves' parent
    W = np.zeros((NB, cap, SIZE), np.uint8)
    B = np.empty((NB, cap), np.uint16)
    N = np.empty((NB, cap), np.uint16)
    SG = np.empty((4, NPB + 2), np.int64)  # the playouts' scratch
    SL = np.empty((NPB + 7, 2 * SIZE), np.int64)
    CHG = np.zeros((NP, 2 * SIZE), np.int64)  # the squares the move tried at ply p changed, by line (_changes)
    since = np.empty(2 * SIZE, np.int64)  # (at a node: those of the two moves since the list two plies up)
    every = np.full(2 * SIZE, (1 << SIZE) - 1, np.int64)  # (every square: every play)
    lp_ok = np.int64(0)  # LP is the current parent's (1), and with SO[LP], SO[D - 1] (2)
    rv_first = np.int64(0)  # a child of the current parent was valued by a playout
    nlp = np.int64(-1)  # LP's plays (-1: none, the side to move holds a blank)
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
    leafv = np.zeros(NP, np.int64)  # a playout's value of the node in the table (INF: none)
    probe = np.zeros(NP, np.int64)  # the move tried at ply p is being searched in a null window
    TR = np.zeros(NP, np.int64)  # lines the move tried at ply p touched (across rows, down columns)
    TC = np.zeros(NP, np.int64)
    fresh = np.zeros(NP, np.int64)  # ply p + 1 holds no move of node p's yet (else: ply p + the one in TR/TC[p])
    # per ply k, the lines (rows, columns) where it may differ from ply k - 1: a playout at node k - 1 puts back
    # only those (see :func:`_playout`)
    dirty = np.full((NP + 1, 2), (1 << SIZE) - 1, np.int64)
    need_k = _tile_fields(racks)
    # triangular PV: line[p, j] for j >= p, as (ply's move row, or -1 = pass) copied into pv_* at the root
    PVM = np.zeros((NP, NP, 6), np.int32)
    PVW = np.zeros((NP, NP, SIZE), np.uint8)
    PVB = np.zeros((NP, NP), np.uint16)
    PVN = np.zeros((NP, NP), np.uint16)
    pvlen = np.zeros(NP, np.int64)
    counts = np.zeros(32, np.int64)
    gbuf = np.empty(cap * REC, np.uint8)  # the generator's rows, reused by every call
    rows = np.zeros(8, np.int64)
    cols = np.zeros(8, np.int64)
    ones = np.ones(K, np.int64)
    mask = np.int64(tt.shape[0] - 1)
    nodes = np.int64(0)
    stopped = np.int64(0)
    hits = np.int64(0)
    p = np.int64(0)  # not a literal: the calls below would compile once more for Literal[int](0)
    z = np.int64(0)  # not literals, which would compile _plays once more
    # the opponent's plays on the root board: the base of every ply-1 list, as a list two plies up is below
    # (a list longer than the buffers: they grow, every row kept, and the list is made again)
    while True:
        nroot1 = _plays(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), z, _b(RK)[0, 1], _b(M), _b(W), _b(B), _b(N), _b(TK),
                        RB, z - 1, z, _b(every), _b(need_k), _b(lm), _b(wm), _b(lval), rack_size, bingo,
                        _b(dawg), _b(span), tb, _b(counts), _b(gbuf))
        if nroot1 <= cap:
            break
        M, W, B, N, TK, SO, order, gbuf = _grow(M, W, B, N, TK, SO, order, nroot1)
        cap = M.shape[1]
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
            if nodes & 255 == 0 and stop[0] != 0:
                stopped = 1
                break
            s = p & 1
            pvlen[p] = p
            hz[p] = 0
            k = _node_hash(bh[p], _b(RK), p, s, passed[p], _b(zrack), _b(zmisc))
            key[p] = k
            dl = D - p
            ttmk = np.int64(0)
            e = k & mask
            v = tt[e, 1]
            info = tt[e, 2]
            mk = tt[e, 3]
            leafv[p] = INF
            if tt[e, 0] ^ v ^ info ^ mk == k:
                if info == 0:  # a playout's value (see the pass below)
                    leafv[p] = v
                tdep = info & 255
                ttmk = mk
                if tdep >= dl:
                    fl = (info >> 8) & 255
                    if p > 0 and (fl == 0 or (fl == 1 and v >= beta[p]) or (fl == 2 and v <= alpha[p])):
                        hits += 1
                        if tdep != EXACT_DEPTH:
                            hz[p] = 1
                        rv = v
                        mode = RETURN
                        continue
            if dl == 0 and p > 0 and passed[p] and nmv[p - 1] == 1 and leafv[p - 1] != INF:
                # the parent's only move was this pass and a playout valued it at a shallower depth: that playout
                # passed first and then played out this node, so its value is this node's, negated
                rv = -leafv[p - 1]
                hz[p] = 1
                if not (tt[e, 0] ^ tt[e, 1] ^ tt[e, 2] ^ tt[e, 3] == k and tt[e, 2] & 255 > 0):
                    _tt_store(_b(tt), e, k, rv, np.int64(0), np.int64(0))
                mode = RETURN
                continue
            if dl == 0:
                while lp_ok == 0:  # the list of the side to move on the parent's board (the root: none)
                    nlp = -1
                    if RK[p, s, 0] == 0 and p > 0:
                        if p == 1:  # the opponent's root plays
                            nlp = nroot1
                            for i in range(nlp):
                                _copy_row(M, W, B, N, RB, i, M, W, B, N, LP, i)
                                TK[LP, i, 0] = TK[RB, i, 0]
                                TK[LP, i, 1] = TK[RB, i, 1]
                        else:
                            nlp = _plays(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), p - 1, _b(RK)[p - 1, s], _b(M), _b(W),
                                         _b(B), _b(N), _b(TK), LP, p - 2, nmv[p - 2] - 1, _b(CHG)[p - 2],
                                         _b(need_k), _b(lm), _b(wm), _b(lval), rack_size, bingo, _b(dawg), _b(span), tb,
                                         _b(counts), _b(gbuf))
                            if nlp > cap:
                                M, W, B, N, TK, SO, order, gbuf = _grow(M, W, B, N, TK, SO, order, nlp)
                                cap = M.shape[1]
                                continue
                    lp_ok = 1
                if lp_ok == 1 and rv_first and p > 0:  # a second child: both lists by score, for this and the next
                    if nlp >= 0:
                        _by_score(_b(M), _b(SO), LP, nlp)
                    _by_score(_b(M), _b(SO), p - 1, nmv[p - 1] - 1)
                    lp_ok = 2
                rv_first = 1
                olp = LP if nlp >= 0 else z - 1
                ordd = lp_ok == 2
                # the other side's list: the parent's (at the root, depth 0: none, every play generated)
                op = p - 1 if p > 0 else z - 1
                nop = nmv[p - 1] - 1 if p > 0 else z
                while True:
                    rv, more = _playout(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p, s, passed[p], olp, nlp,
                                        op, nop, _b(CHG)[max(p - 1, z)], _b(M), _b(W), _b(B), _b(N), _b(TK),
                                        _b(SO), ordd, LP + 1, _b(need_k), _b(lm), _b(wm), _b(lval), rack_size, bingo,
                                        _b(dawg), _b(span), tb, checks, _b(tile_pts), _b(counts), _b(rows), _b(cols), _b(gbuf),
                                        _b(ones), _b(SG), _b(SL), _b(memo), _b(dirty))
                    if more <= cap:
                        break
                    M, W, B, N, TK, SO, order, gbuf = _grow(M, W, B, N, TK, SO, order, more)
                    cap = M.shape[1]
                hz[p] = 1
                # kept for transpositions, unless the slot holds this node's deeper value or move
                if not (tt[e, 0] ^ tt[e, 1] ^ tt[e, 2] ^ tt[e, 3] == k and tt[e, 2] & 255 > 0):
                    _tt_store(_b(tt), e, k, rv, np.int64(0), np.int64(0))
                mode = RETURN
                continue
            rk = RK[p, s]
            # the list two plies up (at ply 1: the opponent's root plays; at the root: none) and the squares changed
            b0 = p - 2 if p >= 2 else (RB if p == 1 else z - 1)
            nb0 = nmv[p - 2] - 1 if p >= 2 else (nroot1 if p == 1 else z)
            for ln in range(2 * SIZE):
                since[ln] = CHG[p - 2, ln] | CHG[p - 1, ln] if p >= 2 else (CHG[0, ln] if p == 1 else every[ln])
            while True:
                n = _plays(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), p, _b(rk), _b(M), _b(W), _b(B), _b(N), _b(TK), p, b0,
                           nb0, _b(since), _b(need_k), _b(lm), _b(wm), _b(lval), rack_size, bingo, _b(dawg),
                           _b(span), tb, _b(counts), _b(gbuf))
                if n <= cap:
                    break
                M, W, B, N, TK, SO, order, gbuf = _grow(M, W, B, N, TK, SO, order, n)
                cap = M.shape[1]
            nr = _rack_pts(_b(rk), _b(ones))
            opp_pts = _rack_pts(_b(RK)[p, 1 - s], _b(tile_pts))
            my_pts = _rack_pts(_b(rk), _b(tile_pts))
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
                if ttmk > PASS_KEY and _play_hash(_b(M), _b(W), _b(B), _b(N), p, i, _b(zsq)) == ttmk:
                    est = INF
                keys[i] = -est * 65536 + i
            est = np.int64(-1000) if passed[p] == 0 else INF - 1
            if ttmk == PASS_KEY:
                est = INF
            keys[n] = -est * 65536 + n
            srt = np.sort(keys[: n + 1])
            sh = (rotate * (n + 1)) // 1024 if p == 0 else 0
            for i in range(n + 1):
                keys[i] = srt[(i + sh) % (n + 1)] & 65535
            nmv[p] = n + 1
            if p == D - 1:
                lp_ok = 0
                rv_first = 0
            idx[p] = 0
            fresh[p] = 1
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
                _tt_store(_b(tt), key[p] & mask, key[p], rv, ((D - p) if hz[p] else EXACT_DEPTH) | (fl << 8),
                          _move_key(_b(M), _b(W), _b(B), _b(N), p, bestm[p], nmv[p] - 1, _b(zsq)))
                continue
            s = p & 1
            mi = order[p, idx[p]]
            idx[p] += 1
            probe[p] = 0
            cur[p] = mi
            n = nmv[p] - 1
            if mi == n:  # pass
                if passed[p]:
                    val = _rack_pts(_b(RK)[p, 1 - s], _b(tile_pts)) - _rack_pts(_b(RK)[p, s], _b(tile_pts))
                    pvlen[p + 1] = p + 1
                    mode = APPLY
                    continue
                prefetch(tt, (_child_key(key[p], RK, p, s, passed[p], z, M, W, B, N, p, z - 1, zrack, zmisc) & mask) * 4)
                _child_ply(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p, fresh[p], TR[p], TC[p])
                _dirty(_b(dirty), p, fresh[p], TR[p], TC[p], 0, 0)
                fresh[p] = 0
                gain[p] = 0
                TR[p] = 0
                TC[p] = 0
                for ln in range(2 * SIZE):
                    CHG[p, ln] = 0
                passed[p + 1] = 1
                bh[p + 1] = bh[p]
            else:
                sc = np.int64(M[p, mi, 4])
                if np.int64(M[p, mi, 5]) == _rack_pts(_b(RK)[p, s], _b(ones)):  # out: the game ends here
                    val = sc + 2 * _rack_pts(_b(RK)[p, 1 - s], _b(tile_pts))
                    pvlen[p + 1] = p + 1
                    mode = APPLY
                    continue
                ph = _play_hash(_b(M), _b(W), _b(B), _b(N), p, mi, _b(zsq))
                ck = _child_key(key[p], RK, p, s, passed[p], ph, M, W, B, N, p, mi, zrack, zmisc)
                prefetch(tt, (ck & mask) * 4)  # (its miss overlaps the play's making)
                _child_ply(_b(BL), _b(FV), _b(OC), _b(CC), _b(XS), _b(RK), p, fresh[p], TR[p], TC[p])
                otr = TR[p]
                otc = TC[p]
                ofr = fresh[p]
                fresh[p] = 0
                rk = RK[p + 1, s]
                m = make_play(_b(BL)[p + 1], _b(FV)[p + 1], _b(OC)[p + 1], _b(CC)[p + 1], _b(XS)[p + 1], _b(dawg),
                              borrowed_checks(checks),
                              _b(lval), _b(M)[p], _b(W)[p], _b(B)[p], _b(N)[p], mi, _b(rk), _b(rows), _b(cols),
                              _b(memo))
                gain[p] = sc
                TR[p], TC[p] = _changes(_b(OC)[p + 1], _b(rows), _b(cols), m, _b(CHG)[p])
                _dirty(_b(dirty), p, ofr, otr, otc, TR[p], TC[p])
                passed[p + 1] = 0
                bh[p + 1] = bh[p] ^ ph
            # val = gain - child's value, so the child's window is shifted; after the first move a null window
            # (principal variation search) shows whether the move beats alpha, searched again in full if it does
            alpha[p + 1] = gain[p] - beta[p]
            beta[p + 1] = gain[p] - alpha[p]
            if idx[p] > 1 and beta[p] - alpha[p] > 1:
                alpha[p + 1] = beta[p + 1] - 1
                probe[p] = 1
            p += 1
            mode = ENTER
        elif mode == APPLY:
            if probe[p]:
                probe[p] = 0
                if alpha[p] < val < beta[p]:  # the null window failed high: the move again, in full
                    alpha[p + 1] = gain[p] - beta[p]
                    beta[p + 1] = gain[p] - alpha[p]
                    p += 1
                    mode = ENTER
                    continue
            if val > best[p]:
                best[p] = val
                bestm[p] = cur[p]
                # this move and the child's line become the node's line
                mi = cur[p]
                n = nmv[p] - 1
                if mi == n:
                    PVM[p, p, 3] = 0
                else:
                    _copy_row(M, W, B, N, p, mi, PVM, PVW, PVB, PVN, p, p)
                for j in range(p + 1, pvlen[p + 1]):
                    _copy_row(PVM, PVW, PVB, PVN, p + 1, j, PVM, PVW, PVB, PVN, p, j)
                pvlen[p] = max(pvlen[p + 1], p + 1)
            if val > alpha[p]:
                alpha[p] = val
            if alpha[p] >= beta[p]:
                rv = best[p]
                _tt_store(_b(tt), key[p] & mask, key[p], rv, ((D - p) if hz[p] else EXACT_DEPTH) | (np.int64(1) << 8),
                          _move_key(_b(M), _b(W), _b(B), _b(N), p, bestm[p], nmv[p] - 1, _b(zsq)))
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
    out[4] = cap
    out[5] = hits
    out[6] = stopped
    for j in range(pvlen[0]):
        for c in range(6):
            pv_meta[j, c] = PVM[0, j, c]
        for c in range(SIZE):
            pv_words[j, c] = PVW[0, j, c]
        pv_bm[j] = PVB[0, j]
        pv_nm[j] = PVN[0, j]
