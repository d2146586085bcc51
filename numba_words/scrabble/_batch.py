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

from .._jit import inline, kernel
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


@inline
def _space(b) -> bool:
    """Whether the byte ``b`` is ASCII white space as ``str.split`` counts it."""
    return b == 32 or 9 <= b <= 13 or 28 <= b <= 31


@inline
def _number(raw, a, b, most, sign) -> bool:
    """Whether ``raw[a:b]`` is 1..``most`` ASCII digits (after a ``-`` when ``sign``)."""
    if sign and a < b and raw[a] == 45:  # '-'
        a += 1
    if not 0 < b - a <= most:
        return False
    for k in range(a, b):
        if not 48 <= raw[k] <= 57:
            return False
    return True


@kernel
def split_cgps(raw, ref, table, rack_size, ok, braw, boffs, rk, roffs, n_own):
    """Split the CGP lines ``raw`` (``uint8``: ``n = ok.shape[0]`` lines joined by newlines) for
    :func:`best_batch`: ``ok[p]`` 1 for a plain line, whose fields then go on, in order, to ``braw``/``boffs`` (the
    board field) and ``rk``/``roffs``/``n_own`` (the racks' bytes without the ``/``, the rack on turn's first).
    Returns the number of plain lines. A plain line has a board of 15 rows, racks of upper-case letters of the
    table or ``?`` (each at most ``rack_size``), two scores of 1..9 digits (``-`` allowed) and a scoreless-turn
    count of 1..4 digits, then operations byte-equal to ``ref`` (none when ``ref`` is empty): what
    :func:`.cgp.cgp_fields` and :meth:`Position._read_fields` accept without another look. Any other line (other
    operations, characters or errors) is for the caller to read."""
    m = raw.shape[0]
    k = 0
    q = 0
    bw = 0
    rw = 0
    boffs[0] = 0
    roffs[0] = 0
    for p in range(ok.shape[0]):
        e = k
        while e < m and raw[e] != 10:
            e += 1
        # the line's first five fields (start, end) and where its last one ends
        s0 = e0 = s1 = e1 = s2 = e2 = s3 = e3 = s4 = last = 0
        nf = 0
        i = k
        while i < e:
            while i < e and _space(raw[i]):
                i += 1
            if i >= e:
                break
            j = i
            while j < e and not _space(raw[j]):
                j += 1
            if nf == 0:
                s0, e0 = i, j
            elif nf == 1:
                s1, e1 = i, j
            elif nf == 2:
                s2, e2 = i, j
            elif nf == 3:
                s3, e3 = i, j
            elif nf == 4:
                s4 = i
            last = j
            nf += 1
            i = j
        good = nf >= 4
        if good:  # the operations, as the first line's
            if nf == 4:
                good = ref.shape[0] == 0
            elif last - s4 != ref.shape[0]:
                good = False
            else:
                for x in range(ref.shape[0]):
                    if raw[s4 + x] != ref[x]:
                        good = False
                        break
        if good:  # 15 rows
            rows = 1
            for x in range(s0, e0):
                if raw[x] == 47:
                    rows += 1
            good = rows == 15
        slash = -1
        if good:  # RACK/ or RACK/OPP: letters of the table (upper case) and blanks
            for x in range(s1, e1):
                b = raw[x]
                if b == 47:
                    if slash >= 0:
                        good = False
                        break
                    slash = x
                elif b != 63 and (table[b] == 0xFF or table[b] & 0x80):
                    good = False
                    break
            good = good and slash >= 0 and slash - s1 <= rack_size and e1 - slash - 1 <= rack_size
        if good:  # scores and the scoreless-turn count
            mid = -1
            for x in range(s2, e2):
                if raw[x] == 47:
                    mid = x
                    break
            good = mid >= 0 and _number(raw, s2, mid, 9, True) and _number(raw, mid + 1, e2, 9, True) and \
                _number(raw, s3, e3, 4, False)
        ok[p] = good
        if good:
            for x in range(s0, e0):
                braw[bw] = raw[x]
                bw += 1
            for x in range(s1, e1):
                if x != slash:
                    rk[rw] = raw[x]
                    rw += 1
            n_own[q] = slash - s1
            q += 1
            boffs[q] = bw
            roffs[q] = rw
        k = e + 1
    return q
