"""Rack-inference kernel: the top move by static equity of many racks on one board (see :mod:`.infer`)."""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._autoplay import best_equity, move_scratch, pick_equity, play_buffers


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
