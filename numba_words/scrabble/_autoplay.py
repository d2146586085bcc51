"""Self-play kernels: whole games in one serial kernel (parallel runs are lanes of threads over game ranges),
each game with its own board, bag, racks, scratch and random stream (splitmix64 seeded from the run's seed and
the game pair), so a game's moves depend on its seed alone, whatever the thread count.

Strategies (per seat): :data:`SCORE` plays the top-scoring play (the pruned best-only search); :data:`EQUITY`
takes the play of highest static equity (:func:`best_equity`, the pruned search), or the best exchange
when exchanging is allowed (>= 7 tiles in the bag) and it is worth more; both pass when nothing is legal, the
score player after trying to exchange its whole rack.

Tiles are kinds (0 blank, ``1 + c`` the letter of code ``c``). The bag is an unordered array: a draw takes a
random slot and fills it with the last tile. An exchange draws first, then returns its tiles.

Game record (``rec``, only when ``record`` is set), one row per turn: ``seat, kind (0 play, 1 exchange, 2 pass),
row, col, dir, length, score, tiles, blanks mask, new mask``, ``rec_word`` the word's letter codes,
``rec_rack`` the rack before the move (kinds, -1 padded), ``rec_x`` the tiles exchanged (kinds, -1 padded).
"""
from __future__ import annotations

import numpy as np

from .._jit import borrowed as _b, inline, kernel, unliteral
from . import _best, _cross, _leaves, _movegen
from ._tables import EMPTY, SIZE

SCORE = 0
EQUITY = 1
CLASSIC = 0
TOURNAMENT = 1
MAX_TURNS = 200
"""Turns after which a game stops (no game reaches it: six scoreless turns in a row end one)."""
N_OUT = 10
"""Columns of the per-game results: final scores (seats 0, 1), turns, bingos (seats 0, 1), end adjustments
(seats 0, 1), how the game ended (0 out, 1 six scoreless turns, 2 turn limit), tiles left in the bag, moves."""

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S11 = np.uint64(11)


@kernel
def _next(state):
    """splitmix64: the next 53 random bits of ``state[0]`` (uint64), as an int64."""
    state[0] += GOLDEN
    z = state[0]
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    z = z ^ (z >> S31)
    return np.int64(z >> S11)


@kernel
def game_seed(seed, pair):
    """The random stream's start for game pair ``pair`` of a run seeded ``seed`` (both int64)."""
    st = np.zeros(1, np.uint64)
    st[0] = np.uint64(seed) ^ (np.uint64(pair) * MIX2)
    _next(st)
    return st[0]


@kernel
def _draw(bag, nbag, rack, n, st):
    """Move up to ``n`` random tiles from ``bag[:nbag]`` to ``rack`` (counts by kind); returns the new ``nbag``."""
    for _ in range(n):
        if nbag == 0:
            break
        j = _next(st) % nbag
        rack[bag[j]] += 1
        nbag -= 1
        bag[j] = bag[nbag]
    return nbag


@kernel
def _rack_pts(rack, tile_pts):
    s = np.int64(0)
    for k in range(rack.shape[0]):
        s += rack[k] * tile_pts[k]
    return s


def game_tables(lexicon) -> tuple:
    """The per-lexicon tables the game kernels pass to the generator: ``(reach, *wtabs)``, flat (a parallel
    kernel cannot take a tuple inside a tuple) (Python, not a kernel)."""
    from ._tables import reach_for, wtabs_for

    return (reach_for(lexicon),) + wtabs_for(lexicon)


@kernel
def unpack_rows(rows, n, meta, words, bm, nm):
    """Copy the generator's first ``n`` byte rows (layout of ``plays.PLAY_DTYPE``, see :data:`._movegen.REC`)
    into the game kernels' columns, as many as fit."""
    for i in range(min(n, meta.shape[0])):
        r = i * _movegen.REC
        for q in range(4):
            meta[i, q] = np.int64(rows[r + q])
        meta[i, 4] = (np.int64(rows[r + 4]) | (np.int64(rows[r + 5]) << 8) | (np.int64(rows[r + 6]) << 16)
                      | (np.int64(rows[r + 7]) << 24))
        meta[i, 5] = np.int64(rows[r + 8])
        for k in range(SIZE):
            words[i, k] = rows[r + 9 + k]
        bm[i] = np.int64(rows[r + 24]) | (np.int64(rows[r + 25]) << 8)
        nm[i] = np.int64(rows[r + 26]) | (np.int64(rows[r + 27]) << 8)


@kernel
def gen_plays(lines, fv, occ, cc, xs, lm, wm, lval, rk, rack_size, bingo, dawg, span, empty_board, meta, words, bm, nm,
              tabs, counts, rows, lmask=_movegen.ALL_LINES, chg=None):
    """Every play of the rack ``rk`` (tiles by kind) into ``meta``/``words``/``bm``/``nm`` (see
    :mod:`._movegen`); returns their number (rows past ``meta.shape[0]`` are counted, not written: call again
    with more room). ``counts``: scratch (32); ``rows``: scratch for the generator's byte rows
    (``meta.shape[0] * REC`` bytes, reused from call to call: no allocation unless the plays overflow it);
    ``lmask``: the lines to generate on (bits as :data:`._movegen.ALL_LINES`), ``chg``: the changed squares whose
    plays alone to generate (see :func:`._movegen.search_all`)."""
    for c in range(counts.shape[0]):
        counts[c] = 0
    for k in range(1, rk.shape[0]):
        counts[k - 1] = rk[k]
    # (borrowed views: an array argument costs an atomic reference-count pair a call)
    wtabs = (_b(tabs[1]), _b(tabs[2]), _b(tabs[3]), _b(tabs[4]), _b(tabs[5]))
    obj = _movegen.score_obj()
    n, t, tri = _movegen.search_all(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm), _b(wm), _b(lval), _b(counts),
                                    rk[0], rack_size, bingo, _b(dawg), _b(span), empty_board, _b(tabs[0]), wtabs, obj,
                                    _b(rows), np.int64(0), np.int64(0), np.empty((0, 5), np.int64), lmask, chg)
    big = rows
    while t >= 0:  # more plays than the rows hold: go on from the start that overflowed (the rows before it and
        # the prefix trie kept) in rows twice as long
        bigger = np.empty(max(2 * big.shape[0], 64 * _movegen.REC), np.uint8)
        for r in range(n * _movegen.REC):
            bigger[r] = big[r]
        big = bigger
        n, t, tri = _movegen.search_all(lines, fv, occ, cc, xs, lm, wm, lval, counts, rk[0], rack_size, bingo, dawg,
                                        span, empty_board, tabs[0], wtabs, obj, big, t, n, tri, lmask, chg)
    unpack_rows(_b(big), n, _b(meta), _b(words), _b(bm), _b(nm))
    return n


@kernel
def play_buffers(cap):
    """Empty play buffers for ``cap`` plays: ``(meta, words, bm, nm)`` as :func:`gen_plays` fills them."""
    return (np.empty((cap, 6), np.int32), np.zeros((cap, SIZE), np.uint8), np.empty(cap, np.uint16),
            np.empty(cap, np.uint16))


@kernel
def best_play(lines, fv, occ, cc, xs, lm, wm, lval, rk, rack_size, bingo, dawg, span, empty_board, meta, words, bm,
              nm, tabs, counts):
    """The top-scoring play of the rack ``rk`` (tiles by kind) in row 0; returns 1, or 0 when there is none. The
    one call of the best-only generator in the game kernels."""
    for c in range(counts.shape[0]):
        counts[c] = 0
    for k in range(1, rk.shape[0]):
        counts[k - 1] = rk[k]
    n, rows, _ = _best.best(lines, fv, occ, cc, xs, lm, wm, lval, counts, rk[0], rack_size, bingo, dawg, span,
                            empty_board, tabs[0], (tabs[1], tabs[2], tabs[3], tabs[4], tabs[5]),
                            _movegen.score_obj(), unliteral(False))
    unpack_rows(rows, n, meta, words, bm, nm)
    return n


@kernel
def best_equity(lines, fv, occ, cc, xs, lm, wm, lval, rk, rack_size, bingo, dawg, span, empty_board, meta, words, bm,
                nm, tabs, counts, nbag, opp_pts, tile_pts, milli, caps, G, P, R, vowel, pen, stride, lmap,
                can_exchange):
    """The play of highest static equity of the rack ``rk`` (tiles by kind; bag ``nbag`` tiles, opponent's rack
    ``opp_pts`` points; equity as :func:`pick_equity` computes it, ties to the first in generation order) in row
    0; returns 1, or 0 when there is none or (``can_exchange``) none reaches the best exchange. The pruned search
    (:func:`._best.best` with :func:`._movegen.equity_obj`, the best exchange's equity its floor):
    ``pick_equity(rk, n, ...)`` on its row chooses what it would choose from every play, exchanges included.
    Leaves the rack's leave map in ``stride``/``lmap`` for it."""
    for c in range(counts.shape[0]):
        counts[c] = 0
    for k in range(1, rk.shape[0]):
        counts[k - 1] = rk[k]
    # (arguments passed on as borrowed views: each array passed costs an atomic reference-count pair else)
    obj = _movegen.equity_obj_map(_b(rk), _b(tile_pts), _b(milli), _b(caps), _b(G), _b(P), R, nbag, opp_pts, _b(vowel),
                                  _b(pen), empty_board, _b(stride), _b(lmap))
    n, rows, _ = _best.best(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm), _b(wm), _b(lval), _b(counts), rk[0],
                            rack_size, bingo, _b(dawg), _b(span), empty_board, _b(tabs[0]),
                            (_b(tabs[1]), _b(tabs[2]), _b(tabs[3]), _b(tabs[4]), _b(tabs[5])), obj, can_exchange)
    unpack_rows(rows, n, meta, words, bm, nm)
    return n


@kernel
def move_scratch(K):
    """Per-game scratch of the move kernels for an alphabet of ``K`` tile kinds: ``(counts, stride, lmap, rows,
    cols, xk, ones)``."""
    return (np.zeros(32, np.int64), np.zeros(K, np.int64), np.zeros(256, np.int64), np.zeros(8, np.int64),
            np.zeros(8, np.int64), np.zeros(8, np.int64), np.ones(K, np.int64))


@inline
def best_exchange(rk, stride, lmap):
    """The exchange of highest equity of rack ``rk``: ``(keep, equity)``, ``keep`` the first leave index (see
    :func:`._leaves.leave_map`) of the highest value but the whole rack's, ``equity`` its value (millipoints)."""
    size = np.int64(1)
    full = np.int64(0)
    for k in range(rk.shape[0]):
        size *= rk[k] + 1
        full += rk[k] * stride[k]
    x = np.int64(-1)
    xeq = _movegen.NEG
    for idx in range(size):
        if idx != full and lmap[idx] > xeq:
            xeq = lmap[idx]
            x = idx
    return x, xeq


@kernel
def pick_equity(rk, n, meta, words, bm, nm, nbag, opp_pts, can_exchange, empty_board, tile_pts, vowel, pen, stride,
                lmap):
    """The move of highest static equity among the ``n`` plays in ``meta``... and (with ``can_exchange``) the
    exchanges of rack ``rk``: ``(choice, keep, leave, equity)`` with ``choice`` the play's row, -2 an exchange
    keeping the leave of mixed-radix index ``keep`` (see :func:`._leaves.leave_map`), -3 a pass; ``leave`` the
    kept tiles' value in millipoints (0 once the bag is empty), ``equity`` the move's (millipoints). ``stride``,
    ``lmap``: the rack's leave map, as :func:`best_equity` leaves them."""
    fullidx, rpts, rn = _leaves.rack_terms(rk, tile_pts, stride)
    best_eq = _leaves.PASS_EQUITY
    choice = np.int64(-3)
    xbest = np.int64(-1)
    for i in range(n):
        eq = _leaves.play_equity(words, i, np.int64(nm[i]), np.int64(bm[i]), np.int64(meta[i, 3]),
                                 np.int64(meta[i, 0]), np.int64(meta[i, 1]), np.int64(meta[i, 2]),
                                 np.int64(meta[i, 4]), np.int64(meta[i, 5]), fullidx, rpts, rn, stride, lmap,
                                 tile_pts, nbag, opp_pts, vowel, pen, empty_board)
        if eq > best_eq:
            best_eq = eq
            choice = i
    if can_exchange:
        x, xeq = best_exchange(rk, stride, lmap)
        if xeq > best_eq:
            best_eq = xeq
            xbest = x
            choice = -2
    leave = np.int64(0)
    if choice == -2:
        leave = lmap[xbest]
    elif choice >= 0 and nbag > 0:
        idx = fullidx
        ln = np.int64(meta[choice, 3])
        new = np.int64(nm[choice])
        blanks = np.int64(bm[choice])
        for k in range(ln):
            if (new >> k) & 1:
                idx -= stride[0] if (blanks >> k) & 1 else stride[np.int64(words[choice, k]) + 1]
        leave = lmap[idx]
    return choice, xbest, leave, best_eq


@kernel
def make_play(lines, fv, occ, cc, xs, dawg, checks, lval, meta, words, bm, nm, i, rk, rows, cols, memo=None):
    """Put the play of row ``i`` on the board (letters, values, occupancy, cross-checks) and take its tiles from
    the rack ``rk`` (by kind); ``rows``/``cols``: scratch (8); ``memo``: see :func:`._cross.square_check`. Returns
    the number of tiles placed."""
    r0 = np.int64(meta[i, 0])
    c0 = np.int64(meta[i, 1])
    d = np.int64(meta[i, 2])
    ln = np.int64(meta[i, 3])
    bmask = np.int64(bm[i])
    nmask = np.int64(nm[i])
    m = 0
    for k in range(ln):
        if (nmask >> k) & 1:
            r = r0 + k if d == 1 else r0
            c = c0 if d == 1 else c0 + k
            L = np.int64(words[i, k])
            isb = (bmask >> k) & 1
            lines[0, r, c] = L
            lines[1, c, r] = L
            v = np.int64(0) if isb else lval[L]
            fv[0, r, c] = v
            fv[1, c, r] = v
            occ[0, r] |= np.int64(1) << c
            occ[1, c] |= np.int64(1) << r
            rows[m] = r
            cols[m] = c
            m += 1
            if isb:
                rk[0] -= 1
            else:
                rk[L + 1] -= 1
    _cross.update_checks(_b(lines), _b(fv), _b(dawg), _cross.borrowed_checks(checks), _b(cc), _b(xs),
                         rows[:m], cols[:m], memo)
    return m


@kernel
def exchange(rk, keep, bag, nbag, st, xk):
    """Exchange the tiles of rack ``rk`` not in the kept leave of mixed-radix index ``keep``: draw first, then
    return them to the bag. ``xk``: receives the tiles given back (kinds). Returns ``(nbag, tiles exchanged)``."""
    rest = keep
    m = 0
    for k in range(rk.shape[0]):
        if rk[k] > 0:
            kk = rest % (rk[k] + 1)
            rest //= rk[k] + 1
            for _ in range(rk[k] - kk):
                xk[m] = k
                m += 1
    for q in range(m):
        rk[xk[q]] -= 1
    nbag = _draw(bag, nbag, rk, m, st)
    for q in range(m):
        bag[nbag] = xk[q]
        nbag += 1
    return nbag, m


@kernel
def play_one(seed, seats, leave_sel, end_rule, rack_size, bingo, dist, tile_pts, vowel, pen,
             milli, caps, G, P, R, lm, wm, lval, dawg, span, tabs, checks, out, rec, rec_word, rec_rack, rec_x,
             record, lsum, lcnt, G7, P7):
    """Play one game from random stream ``seed``; seat ``s`` plays strategy ``seats[s]`` with leave table
    ``leave_sel[s]`` (index into the stacked ``milli``). Writes ``out`` (:data:`N_OUT` values) and, with
    ``record``, the turn rows (see the module). Learning (``lsum`` longer than 1): each turn of an equity seat
    with tiles in the bag adds its move's equity (millipoints) to ``lsum[i]`` and 1 to ``lcnt[i]``, ``i`` the
    rack's rank among leaves of up to ``rack_size`` tiles (tables ``G7``/``P7``)."""
    K = caps.shape[0]
    st = np.zeros(1, np.uint64)
    st[0] = seed
    lines = np.full((2, SIZE, SIZE), EMPTY, np.uint8)
    fv = np.zeros((2, SIZE, SIZE), np.int64)
    occ = np.zeros((2, SIZE), np.int64)
    cc = np.zeros((2, SIZE, SIZE), np.int64)
    xs = np.zeros((2, SIZE, SIZE), np.int64)
    _cross.all_checks(lines, fv, dawg, checks, cc, xs)
    nt_all = np.int64(0)
    for k in range(K):
        nt_all += dist[k]
    bag = np.zeros(nt_all, np.int64)
    nbag = np.int64(0)
    for k in range(K):
        for _ in range(dist[k]):
            bag[nbag] = k
            nbag += 1
    racks = np.zeros((2, K), np.int64)
    nbag = _draw(bag, nbag, racks[0], rack_size, st)
    nbag = _draw(bag, nbag, racks[1], rack_size, st)
    meta, words, bm, nm = play_buffers(np.int64(1))  # the best play only (row 0)
    counts, stride, lmap, rows, cols, xk, ones = move_scratch(K)
    scores = np.zeros(2, np.int64)
    bingos = np.zeros(2, np.int64)
    adj = np.zeros(2, np.int64)
    scoreless = 0
    turn = 0
    empty_board = unliteral(True)
    ended = 2
    for t in range(MAX_TURNS):
        p = t & 1
        rk = racks[p]
        n_rack = np.int64(0)
        for k in range(K):
            n_rack += rk[k]
        if record:
            j = 0
            for k in range(K):
                for _ in range(rk[k]):
                    rec_rack[t, j] = k
                    j += 1
            for q in range(j, rec_rack.shape[1]):
                rec_rack[t, q] = -1
            for q in range(rec_x.shape[1]):
                rec_x[t, q] = -1
        choice = np.int64(-3)  # row of the play to make; -2: exchange (kept leave index xbest); -3: pass
        xbest = np.int64(-1)
        can_exchange = nbag >= rack_size
        if seats[p] == SCORE:
            n = best_play(lines, fv, occ, cc, xs, lm, wm, lval, rk, rack_size, bingo, dawg, span, empty_board, meta,
                          words, bm, nm, tabs, counts)
            if n > 0:
                choice = 0
            elif can_exchange:
                choice = -2
                xbest = 0  # keep nothing
        else:
            opp_pts = _rack_pts(racks[1 - p], tile_pts)
            n = best_equity(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm), _b(wm), _b(lval), _b(rk), rack_size,
                            bingo, _b(dawg), _b(span), empty_board, _b(meta), _b(words), _b(bm), _b(nm), tabs,
                            _b(counts), nbag, opp_pts, _b(tile_pts), _b(milli[leave_sel[p]]), _b(caps), _b(G), _b(P), R,
                            _b(vowel), _b(pen), _b(stride), _b(lmap), can_exchange)
            choice, xbest, _, eq = pick_equity(_b(rk), n, _b(meta), _b(words), _b(bm), _b(nm), nbag, opp_pts,
                                               can_exchange, empty_board, _b(tile_pts), _b(vowel), _b(pen),
                                               _b(stride), _b(lmap))
            if lsum.shape[0] > 1 and nbag > 0 and choice != -3 and n_rack == rack_size:
                r = _leaves.rank(rk, caps, G7, P7, rack_size)
                lsum[r] += eq
                lcnt[r] += 1
        # ---------------------------------------------------------- make the move
        if record:
            for q in range(rec.shape[1]):
                rec[t, q] = 0
            rec[t, 0] = p
        if choice >= 0:
            sc = np.int64(meta[choice, 4])
            ntile = make_play(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(dawg),
                              _cross.borrowed_checks(checks),
                              _b(lval), _b(meta), _b(words), _b(bm), _b(nm), choice, _b(rk), _b(rows), _b(cols))
            empty_board = False
            scores[p] += sc
            if ntile == rack_size:
                bingos[p] += 1
            scoreless = 0 if sc != 0 else scoreless + 1
            nbag = _draw(bag, nbag, rk, ntile, st)
            if record:
                rec[t, 1] = 0
                for q in range(6):
                    rec[t, 2 + q] = np.int64(meta[choice, q])
                rec[t, 8] = np.int64(bm[choice])
                rec[t, 9] = np.int64(nm[choice])
                for k in range(SIZE):
                    rec_word[t, k] = words[choice, k]
            turn = t + 1
            if n_rack == ntile and nbag == 0 and _rack_pts(rk, ones) == 0:  # went out: nothing was drawn
                o = _rack_pts(racks[1 - p], tile_pts)
                if end_rule == 1:
                    adj[p] += 2 * o
                else:
                    adj[p] += o
                    adj[1 - p] -= o
                ended = 0
                break
        elif choice == -2:
            nbag, m = exchange(rk, xbest, bag, nbag, st, xk)
            scoreless += 1
            if record:
                rec[t, 1] = 1
                rec[t, 7] = m
                for q in range(m):
                    rec_x[t, q] = xk[q]
            turn = t + 1
        else:
            scoreless += 1
            if record:
                rec[t, 1] = 2
            turn = t + 1
        if scoreless >= 6:
            for s in range(2):
                adj[s] -= _rack_pts(racks[s], tile_pts)
            ended = 1
            break
    for s in range(2):
        scores[s] += adj[s]
    out[0] = scores[0]
    out[1] = scores[1]
    out[2] = turn
    out[3] = bingos[0]
    out[4] = bingos[1]
    out[5] = adj[0]
    out[6] = adj[1]
    out[7] = ended
    out[8] = nbag
    out[9] = turn
    if record:  # final racks after the last turn (kinds, -1 padded) in the row after it
        for s in range(2):
            j = 0
            for k in range(K):
                for _ in range(racks[s, k]):
                    rec_rack[turn + s, j] = k
                    j += 1
            for q in range(j, rec_rack.shape[1]):
                rec_rack[turn + s, q] = -1


@kernel
def play_range(seed, first, n_games, strat, leave_of, end_rule, rack_size, bingo, dist, tile_pts, vowel, pen,
               milli, caps, G, P, R, lm, wm, lval, dawg, span, tabs, checks, out, rec, rec_word, rec_rack,
               rec_x, record, lsum, lcnt, G7, P7):
    """Games ``first .. first + n_games - 1`` of a run, one after the other (parallel runs are lanes of threads
    over disjoint ranges): game ``g`` belongs to pair ``g // 2`` (both games of a pair start from the same
    random stream) and seats player ``g % 2`` first, so the two games of a pair swap seats. ``strat[i]``/
    ``leave_of[i]``: player ``i``'s strategy and leave table. Game ``g`` writes ``out[g - first]`` and, with
    ``record``, ``rec*[g - first]``; learning arrays as :func:`play_one`."""
    seats = np.zeros(2, np.int64)
    sel = np.zeros(2, np.int64)
    for x in range(n_games):
        g = first + np.int64(x)
        a = g % 2
        seats[0] = strat[a]
        seats[1] = strat[1 - a]
        sel[0] = leave_of[a]
        sel[1] = leave_of[1 - a]
        r = np.int64(0)
        if record:
            r = np.int64(x)
        play_one(game_seed(seed, g // 2), seats, sel, end_rule, rack_size, bingo, dist, tile_pts, vowel, pen, milli,
                 caps, G, P, R, lm, wm, lval, dawg, span, tabs, checks, out[x], rec[r], rec_word[r],
                 rec_rack[r], rec_x[r], record, lsum, lcnt, G7, P7)
