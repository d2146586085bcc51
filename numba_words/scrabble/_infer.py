"""Rack-inference kernel: the top move by static equity of many racks on one board (see :mod:`.infer`)."""
from __future__ import annotations

import numpy as np

from .._jit import borrowed as _b, kernel, unliteral
from ._autoplay import best_equity, best_exchange, move_scratch, pick_equity, play_buffers
from ._best import search_words
from ._movegen import REC, equity_obj_map


@kernel
def tops(racks, lo, hi, lines, fv, occ, cc, xs, lm, wm, lval, rack_size, bingo, dawg, span, empty_board, tabs, nbag,
         opp_pts, tile_pts, milli, caps, G, P, R, vowel, pen, can_exchange, out_eq, out_used, out_kept):
    """For racks ``lo .. hi - 1`` of ``racks`` (tiles by kind, one rack a row): ``out_eq[i]`` the equity of its
    best move (millipoints; plays, and exchanges when ``can_exchange``, as :func:`._autoplay.pick_equity` chooses),
    ``out_used[i]`` the tiles the move placed (a play), minus the tiles it exchanged (an exchange), 0 for a pass,
    ``out_kept[i]`` the tiles by kind an exchange kept (untouched otherwise). ``opp_pts[i]``: the opponent's rack
    points for rack ``i`` (they matter once the bag is empty). Serial and ``nogil``: Python runs it on lanes of
    threads, each on its own range of rows."""
    K = racks.shape[1]
    meta, words, bm, nm = play_buffers(np.int64(1))
    counts, stride, lmap, _, _, _, _ = move_scratch(K)
    for i in range(lo, hi):
        rk = racks[i]
        n = best_equity(lines, fv, occ, cc, xs, lm, wm, lval, rk, rack_size, bingo, dawg, span, empty_board, meta,
                        words, bm, nm, tabs, counts, nbag, opp_pts[i], tile_pts, milli, caps, G, P, R, vowel, pen,
                        stride, lmap, can_exchange)
        choice, keep, _, eq = pick_equity(rk, n, meta, words, bm, nm, nbag, opp_pts[i], can_exchange, empty_board,
                                          tile_pts, vowel, pen, stride, lmap)
        out_eq[i] = eq
        if choice >= 0:
            out_used[i] = np.int64(meta[choice, 5])
        elif choice == -2:
            gone = np.int64(0)
            for k in range(K):
                kept = (keep // stride[k]) % (rk[k] + 1) if rk[k] > 0 else np.int64(0)
                out_kept[i, k] = kept
                gone += rk[k] - kept
            out_used[i] = -gone
        else:
            out_used[i] = 0


@kernel
def within(racks, lo, hi, base, cut, lines, fv, occ, cc, xs, lm, wm, lval, rack_size, bingo, dawg, span, empty_board,
           tabs, nbag, tile_pts, milli, caps, G, P, R, vowel, pen, can_exchange, out_ok, out_lv):
    """For racks ``lo .. hi - 1`` of ``racks`` (tiles by kind) that played the tiles ``base`` (by kind):
    ``out_lv[i]`` the value of the leave the play kept (millipoints), ``out_ok[i]`` 1 when no move of the rack
    has static equity above ``cut + out_lv[i]`` (millipoints: the play's score and the margin), as MAGPIE's
    inference asks: the best exchange (with ``can_exchange``) first, then the pruned search as a yes/no question
    with that floor (:func:`._best.search_words`), which stops at the first play above it. With ``nbag`` 0
    every rack counts (no search). Serial and ``nogil``, as :func:`tops`."""
    K = racks.shape[1]
    counts, stride, lmap, _, _, _, _ = move_scratch(K)
    meta, words, bm, nm = play_buffers(np.int64(1))
    out = np.empty(REC, np.uint8)
    for i in range(lo, hi):
        rk = racks[i]
        for c in range(counts.shape[0]):
            counts[c] = 0
        for k in range(1, K):
            counts[k - 1] = rk[k]
        obj = equity_obj_map(_b(rk), _b(tile_pts), _b(milli), _b(caps), _b(G), _b(P), R, nbag, np.int64(0), _b(vowel),
                             _b(pen), empty_board, _b(stride), _b(lmap))
        idx = np.int64(0)
        for k in range(K):
            idx += (rk[k] - base[k]) * stride[k]
        lv = lmap[idx]
        out_lv[i] = lv
        if nbag == 0:
            out_ok[i] = 1
            continue
        floor = cut + lv
        if can_exchange:
            _, xeq = best_exchange(rk, stride, lmap)
            if xeq > floor:
                out_ok[i] = 0
                continue
        if rk[0] > 2:  # (more than two blanks: the walk, every play ranked)
            n = best_equity(lines, fv, occ, cc, xs, lm, wm, lval, rk, rack_size, bingo, dawg, span, empty_board, meta,
                            words, bm, nm, tabs, counts, nbag, np.int64(0), tile_pts, milli, caps, G, P, R, vowel,
                            pen, stride, lmap, unliteral(False))
            _, _, _, eq = pick_equity(rk, n, meta, words, bm, nm, nbag, np.int64(0), unliteral(False), empty_board,
                                      tile_pts, vowel, pen, stride, lmap)
            out_ok[i] = 1 if eq <= floor else 0
            continue
        n, _ = search_words(_b(lines), _b(fv), _b(occ), _b(cc), _b(xs), _b(lm), _b(wm), _b(lval), _b(counts), rk[0],
                            rack_size, bingo, _b(span), empty_board, _b(tabs[1]), _b(tabs[2]), _b(tabs[4]), obj, out,
                            np.int64(0), floor)
        out_ok[i] = 1 - n
