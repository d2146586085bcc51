"""The best play of many positions in few kernel calls (:func:`.search.best_many`): each position's board read from
its CGP board field (or copied from a board's grids), its cross-checks and rack inputs made, then the search of
:meth:`Position.best` (:func:`._best.search_rack`), for a range of positions a call.

Every array a position's work writes is that position's own slot of the batch arrays (``[p]``), which the caller
then wraps as the position's :class:`._board.BoardArrays`. The caller runs chunks of positions on lanes of Python
threads, a call per chunk (the kernel releases the GIL, and one lane's Python overlaps another's kernel). A
``prange`` over the positions in one call (``parallel=True``) gave the same answers but took 25 s CPU to compile
cold against 7-8 s for this serial kernel (busy machine; the kernel compiles twice in CI), and left the Python
before and after it (reading the CGP fields, making the plays) on one thread.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._best import search_rack
from ._cross import all_checks
from ._parse import rack_info, read_grid, read_text

WALK = -3
"""A status of :func:`best_batch`: a rack of three blanks or more (the walk's, searched by the caller)."""


@kernel
def best_batch(raw, offs, gix, grids, gblanks, racks, roffs, n_own, table, values, bag, dawg, checks, lm, wm,
               rack_size, bingo, span, mtab, went, wdir, tile_pts, milli, caps, G, P, R, vowel, pen, by_equity,
               blank_floor, letters, blanks, lines, fv, occ, cc, xs, z, out, res):
    """Search positions ``0..n-1`` (``n = res.shape[0]``).

    Position ``p``'s board: the bytes ``raw[offs[p]:offs[p + 1]]`` (a CGP board field) when ``gix[p] < 0``, else
    the grids ``grids[gix[p]]``/``gblanks[gix[p]]`` (a board's letters and blanks); its racks
    ``racks[roffs[p]:roffs[p + 1]]``, the first ``n_own[p]`` bytes the rack on turn's (as :func:`._parse.read_board`;
    checked by the caller). The board's arrays go to ``letters[p]`` ... ``xs[p]`` (arriving cleared as
    :func:`._parse.read_board` wants them), its tile counts, unseen tiles, rack by kind and ``(bag, opp_pts)`` to
    ``z[p]`` (``use``, ``unseen``, the rack's blanks, its 32 letter counts, ``info``: the layout of
    :meth:`._board.BoardArrays.from_cgp_board`), the best play to ``out[p]``. ``res[p] = (status, n, value)``:
    status the number of tiles on the board, or -1 (malformed text), -2 (more tiles than the bag holds),
    :data:`WALK` (not searched); ``n`` 1 when a play was found. The search is :meth:`Position.best`'s: by score,
    or with ``by_equity`` by static equity, from the exchange floor when ``blank_floor`` and the rack holds a blank
    and the bag a rack's worth (then, no play reaching it, again without)."""
    nu = (z.shape[1] - 35) // 2  # (z[p]: use and unseen, nu entries each; the rack's blanks, 32 counts, 2 of info)
    for p in range(res.shape[0]):
        zp = z[p]
        use = zp[:nu]
        unseen = zp[nu:2 * nu]
        kinds = zp[2 * nu:3 * nu]
        counts = zp[2 * nu + 1:2 * nu + 33]
        info = zp[2 * nu + 33:2 * nu + 35]
        g = gix[p]
        if g < 0:
            tiles = read_text(raw[offs[p]:offs[p + 1]], table, values, letters[p], blanks[p], lines[p], fv[p], occ[p],
                              use)
        else:
            tiles = read_grid(grids[g], gblanks[g], values, letters[p], blanks[p], lines[p], fv[p], occ[p], use)
        rk = racks[roffs[p]:roffs[p + 1]]
        own = n_own[p]
        if tiles >= 0:
            tiles = rack_info(use, table, values, rk, bag, own, counts, unseen, info, tiles)
        if tiles < 0:
            res[p, 0] = tiles
            continue
        nb = 0
        for k in range(own):
            if rk[k] == 63:  # '?'
                nb += 1
        kinds[0] = nb
        if nb > 2:
            res[p, 0] = WALK
            continue
        all_checks(lines[p], fv[p], dawg, checks, cc[p], xs[p])
        # from the exchange floor first when it applies, then (no play reaching it) without: as Position.best
        n0 = 1 if by_equity and blank_floor and nb > 0 and info[0] >= rack_size else 0
        while True:
            n, val = search_rack(lines[p], fv[p], occ[p], cc[p], xs[p], lm, wm, values, counts, np.int64(nb),
                                 rack_size, bingo, span, tiles == 0, mtab, went, wdir, kinds, tile_pts, milli, caps,
                                 G, P, R, info[0], info[1], vowel, pen, by_equity, out[p], np.int64(n0))
            if n > 0 or n0 == 0:
                break
            n0 = 0
        res[p, 0] = tiles
        res[p, 1] = n
        res[p, 2] = val
