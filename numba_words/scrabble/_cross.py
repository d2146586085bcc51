"""Cross-check kernels: for every empty square and direction, the set of letters that complete a valid
perpendicular word (32-bit mask) and that word's score without the new tile (``-1`` if no perpendicular word).

The mask also holds the in-line check: next to a run of tiles in its own line, a square takes only a letter
``c`` such that (the run on its left) + ``c`` + (the run on its right) is a substring of some word
(:func:`._tables.sub_table`). Both are conditions every play through the square meets, so generating with their
intersection makes the same plays; the in-line part drops spans (and their bounds) no word can fill. ``checks``
= ``(full, keys, masks, near)``: the alphabet's mask, the substring table (empty: the perpendicular check alone)
and :func:`near_table`, both checks of a square whose runs of tiles are at most one tile on either side (most
squares of a board) looked up instead of walked.

Arrays are in *orientation* form: ``lines[0]`` is the board (line = row), ``lines[1]`` its transpose
(line = column). ``cc[d, i, j]``/``xs[d, i, j]`` are for a tile placed at position ``j`` of line ``i`` by a
play in orientation ``d``; its perpendicular word runs along line ``j`` of orientation ``1 - d``.
"""
from __future__ import annotations

import numpy as np

from .._jit import borrowed as _b, inline, kernel
from ..bits import lsb_index
from ..lexicon._dawg import edge as _edge
from ._tables import EMPTY, SIZE, SUB_POW, sub_find

# orientations as int64 values, not literals: a literal argument would compile square_check once per value
D0 = np.int64(0)
D1 = np.int64(1)


@inline
def borrowed_checks(checks):
    """``checks`` with its table as borrowed views, to pass on to a kernel (an array argument costs an atomic
    reference-count pair per call otherwise: ~8% of the endgame)."""
    return checks[0], _b(checks[1]), _b(checks[2]), _b(checks[3])


NEAR = SIZE // 2  # the square the tables of :func:`near_table` are computed on (any square with room on both sides)


@kernel
def near_table(dawg, full, keys, masks):
    """``int64 (2, 33, 33)``: for a square with at most one tile on either side of it in a line, ``[0, x, y]`` the
    perpendicular check (:func:`square_check`'s mask) of a cross word made of tile ``x - 1`` before the square and
    tile ``y - 1`` after it (0: no tile on that side), ``[1, x, y]`` the in-line check of the same runs in the
    square's own line (from all the alphabet's letters). Computed by the walks themselves, so a lookup gives what
    they give. (The lexicon's tables: made once per lexicon, ~1 ms.)"""
    near = np.zeros((2, 33, 33), np.int64)
    lines = np.full((2, SIZE, SIZE), EMPTY, np.uint8)
    fv = np.zeros((2, SIZE, SIZE), np.int64)
    n = 0
    while n < 32 and (np.int64(full) >> n) & 1:
        n += 1
    for x in range(n + 1):
        for y in range(n + 1):
            for o in range(2):  # o = 0: the cross word, along line NEAR of orientation 1; 1: the square's own line
                if x > 0:
                    lines[1 - o, NEAR, NEAR - 1] = x - 1
                if y > 0:
                    lines[1 - o, NEAR, NEAR + 1] = y - 1
            a = NEAR - 1 if x > 0 else NEAR
            b = NEAR + 1 if y > 0 else NEAR
            if x == 0 and y == 0:
                near[0, x, y] = full
                near[1, x, y] = full
            else:
                near[0, x, y] = _cross_walk(lines, fv, dawg, full, keys, masks, D0, NEAR, NEAR, a, b)[0]
                near[1, x, y] = full if keys.shape[0] == 0 else \
                    _in_line_walk(lines, keys, masks, D0, NEAR, NEAR, np.int64(full), a, b)
            for o in range(2):
                lines[o, NEAR, NEAR - 1] = EMPTY
                lines[o, NEAR, NEAR + 1] = EMPTY
    return near


@inline
def _run(lines, d, i, j):
    """``(a, b)``: the squares ``a..b`` of line ``i`` (orientation ``d``) that square ``j`` and the runs of tiles
    touching it on either side cover."""
    a = j
    while a > 0 and lines[d, i, a - 1] != EMPTY:
        a -= 1
    b = j
    while b < SIZE - 1 and lines[d, i, b + 1] != EMPTY:
        b += 1
    return a, b


MEMO_BITS = 13


def cross_memo() -> np.ndarray:
    """An empty memo of perpendicular-word checks for :func:`square_check` (``2 ** MEMO_BITS`` entries, 128 kB):
    row 0 the key of the letters around a square (:func:`_memo_key`), row 1 their check. For one lexicon and
    alphabet, one thread."""
    return np.zeros((2, 1 << MEMO_BITS), np.int64)


@kernel
def square_check(lines, fv, dawg, checks, d, i, j, memo=None):
    """``(mask, cross_score)`` for square ``j`` of line ``i`` in orientation ``d`` (must be empty): the
    perpendicular word's check and the in-line check (see the module). With ``memo`` (:func:`cross_memo`), the
    perpendicular check of the same letters around the square is looked up there (and kept there when missing):
    the endgame's playouts check the same few words' squares again and again."""
    if memo is None:
        mask, score = _cross_check(lines, fv, dawg, checks, d, i, j)
    else:
        mask, score = _cross_check_memo(lines, fv, dawg, checks, d, i, j, memo)
    if mask == 0:
        return mask, score
    return _in_line(_b(lines), borrowed_checks(checks), d, i, j, mask), score


@inline
def _memo_key(lines, o, j, a, b, i):
    """The letters of squares ``a..b`` of line ``j`` (orientation ``o``) but square ``i``, and where ``i`` is among
    them, exactly in one positive int64: 5 bits a letter, then the count and ``i - a`` (4 bits each); 0 when
    there are more than 11 letters (no key)."""
    n = b - a
    if n > 11:
        return np.int64(0)
    key = (np.int64(n) << 55) | (np.int64(i - a) << 59)
    sh = np.int64(0)
    for k in range(a, b + 1):
        if k != i:
            key |= np.int64(lines[o, j, k]) << sh
            sh += 5
    return key


@inline
def _cross_check_memo(lines, fv, dawg, checks, d, i, j, memo):
    """:func:`_cross_check` through ``memo`` (see :func:`square_check`)."""
    o = 1 - d
    a, b = _run(lines, o, j, i)
    if a == i and b == i:
        return np.int64(checks[0]), np.int64(-1)
    key = _memo_key(lines, o, j, a, b, i)
    h = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - MEMO_BITS))
    if key != 0 and memo[0, h] == key:
        score = np.int64(0)
        for k in range(a, b + 1):
            score += fv[o, j, k]  # (0 on square i: empty)
        return memo[1, h], score
    mask, score = _cross_check(lines, fv, dawg, checks, d, i, j)
    if key != 0:
        memo[0, h] = key
        memo[1, h] = mask
    return mask, score


@kernel
def _in_line(lines, checks, d, i, j, mask):
    """The letters of ``mask`` that the runs of tiles beside square ``j`` in its own line let through (see the
    module)."""
    keys, masks = checks[1], checks[2]
    if keys.shape[0] == 0:  # (no table: the perpendicular check alone)
        return mask
    a, b = _run(lines, d, i, j)  # the runs of tiles left and right of the square in its own line
    if a == j and b == j:
        return mask
    if j - a <= 1 and b - j <= 1:  # a tile or none on either side: looked up
        x = np.int64(lines[d, i, j - 1]) + 1 if a < j else np.int64(0)
        y = np.int64(lines[d, i, j + 1]) + 1 if b > j else np.int64(0)
        return mask & checks[3][1, x, y]
    return _in_line_walk(lines, keys, masks, d, i, j, mask, a, b)


@inline
def _in_line_walk(lines, keys, masks, d, i, j, mask, a, b):
    """:func:`_in_line` for the runs ``a..b`` around square ``j`` (found by the caller), through the substring
    table."""
    ha = np.int64(0)
    for k in range(a, j):
        ha += (np.int64(lines[d, i, k]) + 1) * SUB_POW[k - a]
    hb = np.int64(0)
    for k in range(j + 1, b + 1):
        hb += (np.int64(lines[d, i, k]) + 1) * SUB_POW[k - j - 1]
    na = j - a
    nb = b - j
    if na > 0:
        _, e = sub_find(keys, masks, ha, na)
        mask &= (e >> 32) & np.int64(0xFFFFFFFF)  # the letters that can follow the left run
    if nb > 0 and mask != 0:
        _, e = sub_find(keys, masks, hb, nb)
        mask &= e & np.int64(0xFFFFFFFF)  # the letters that can precede the right run
    if na > 0 and nb > 0:  # between two runs: the whole string, letter by letter
        cand = mask
        mask = 0
        while cand != 0:
            c = lsb_index(cand)
            cand &= cand - 1
            found, _ = sub_find(keys, masks, ha + (c + 1) * SUB_POW[na] + hb * SUB_POW[na + 1], na + 1 + nb)
            if found:
                mask |= np.int64(1) << c
    return mask


@inline
def _cross_check(lines, fv, dawg, checks, d, i, j):
    """``(mask, cross_score)`` of the perpendicular word alone (see :func:`square_check`)."""
    o = 1 - d  # the perpendicular word runs along line j of orientation o (no view of it: a view costs an atomic
    # reference-count pair)
    a, b = _run(lines, o, j, i)
    if a == i and b == i:
        return np.int64(checks[0]), np.int64(-1)
    if i - a <= 1 and b - i <= 1:  # a tile or none on either side: looked up
        x = np.int64(0)
        y = np.int64(0)
        score = np.int64(0)
        if a < i:
            x = np.int64(lines[o, j, i - 1]) + 1
            score += fv[o, j, i - 1]
        if b > i:
            y = np.int64(lines[o, j, i + 1]) + 1
            score += fv[o, j, i + 1]
        return checks[3][0, x, y], score
    return _cross_walk(lines, fv, dawg, checks[0], checks[1], checks[2], d, i, j, a, b)


@inline
def _cross_walk(lines, fv, dawg, full, keys, masks, d, i, j, a, b):
    """:func:`_cross_check` for the runs ``a..b`` around square ``i`` of line ``j`` of orientation ``1 - d`` (found
    by the caller), through the DAWG. With a substring table (``keys``, ``masks``), the letters tried before the
    run after the square are only those that come before it in some word (one lookup; a necessary condition for
    the cross word, so the mask is the same): each letter tried walks that run."""
    o = 1 - d
    score = np.int64(0)
    node = np.int64(0)
    ok = True
    for k in range(a, i):
        score += fv[o, j, k]
        if ok:
            e = _edge(dawg, node, np.int64(lines[o, j, k]))
            if e == 0:
                ok = False
            else:
                node = e >> 1
    for k in range(i + 1, b + 1):
        score += fv[o, j, k]
    if not ok:
        return np.int64(0), score
    mask = np.int64(0)
    cand = np.int64(dawg[node]) & np.int64(full)
    if i < b and keys.shape[0] != 0:
        hb = np.int64(0)
        for k in range(i + 1, b + 1):
            hb += (np.int64(lines[o, j, k]) + 1) * SUB_POW[k - i - 1]
        _, e = sub_find(keys, masks, hb, b - i)
        cand &= e & np.int64(0xFFFFFFFF)
    while cand != 0:
        c = lsb_index(cand)
        cand &= cand - 1
        e = _edge(dawg, node, c)
        if i == b:
            if e & 1:
                mask |= np.int64(1) << c
            continue
        n2 = e >> 1
        good = True
        for k in range(i + 1, b + 1):
            e = _edge(dawg, n2, np.int64(lines[o, j, k]))
            if e == 0:
                good = False
                break
            n2 = e >> 1
        if good and (e & 1):
            mask |= np.int64(1) << c
    return mask, score


@kernel
def all_checks(lines, fv, dawg, checks, cc, xs):
    """Fill ``cc``/``xs`` (2, 15, 15) from scratch: what :func:`square_check` gives each square. A square with no
    tile beside it in either direction takes every letter with no cross word without a call; one whose runs of
    tiles are at most one tile on either side, in both lines, has both checks looked up here in :func:`near_table`
    (most squares of a board read from a CGP, whose checks this computes); the others call :func:`square_check`."""
    full = np.int64(checks[0])
    near = checks[3]
    in_line = checks[1].shape[0] != 0  # (no substring table: the perpendicular check alone)
    for d in range(2):
        o = 1 - d
        for i in range(SIZE):
            for j in range(SIZE):
                if lines[d, i, j] != EMPTY:
                    cc[d, i, j] = 0
                    xs[d, i, j] = -1
                    continue
                # the tiles beside the square: along its own line (left, right) and across it (up, down)
                lt = j > 0 and lines[d, i, j - 1] != EMPTY
                rt = j < SIZE - 1 and lines[d, i, j + 1] != EMPTY
                up = i > 0 and lines[o, j, i - 1] != EMPTY
                dn = i < SIZE - 1 and lines[o, j, i + 1] != EMPTY
                if not (lt or rt or up or dn):
                    cc[d, i, j] = full
                    xs[d, i, j] = -1
                elif (lt and j > 1 and lines[d, i, j - 2] != EMPTY) or \
                        (rt and j < SIZE - 2 and lines[d, i, j + 2] != EMPTY) or \
                        (up and i > 1 and lines[o, j, i - 2] != EMPTY) or \
                        (dn and i < SIZE - 2 and lines[o, j, i + 2] != EMPTY):  # a run of two tiles or more: walked
                    m, s = square_check(_b(lines), _b(fv), _b(dawg), borrowed_checks(checks), d, i, j)
                    cc[d, i, j] = m
                    xs[d, i, j] = s
                else:  # one tile or none on each side, both ways: :func:`square_check`'s lookups
                    m = full
                    s = np.int64(-1)
                    if up or dn:
                        x = np.int64(0)
                        y = np.int64(0)
                        s = np.int64(0)
                        if up:
                            x = np.int64(lines[o, j, i - 1]) + 1
                            s += fv[o, j, i - 1]
                        if dn:
                            y = np.int64(lines[o, j, i + 1]) + 1
                            s += fv[o, j, i + 1]
                        m = near[0, x, y]
                    if m != 0 and in_line and (lt or rt):
                        x = np.int64(lines[d, i, j - 1]) + 1 if lt else np.int64(0)
                        y = np.int64(lines[d, i, j + 1]) + 1 if rt else np.int64(0)
                        m &= near[1, x, y]
                    cc[d, i, j] = m
                    xs[d, i, j] = s


@kernel
def update_checks(lines, fv, dawg, checks, cc, xs, rows, cols, memo=None):
    """Incremental update after tiles were placed at ``(rows[k], cols[k])`` (already in ``lines``/``fv``);
    ``memo``: see :func:`square_check`.

    Only the empty squares at the ends of the runs through the new tiles can change: ``cc[0, r, c]`` depends on
    the tiles of column ``c`` (its cross word) and of row ``r`` (its in-line check), ``cc[1, c, r]`` the other way
    round. So the walk from each new tile up and down its column recomputes the square it stops on in orientation
    0 and narrows its in-line check in orientation 1, the walk along its row the other way round; each square's
    full check once (the tiles of a play share their run's ends). A narrowing applied before that square's full
    check in the same orientation is overwritten by it; after it, it is skipped.
    """
    for k in range(rows.shape[0]):
        r = rows[k]
        c = cols[k]
        cc[0, r, c] = 0
        xs[0, r, c] = -1
        cc[1, c, r] = 0
        xs[1, c, r] = -1
    done = np.zeros((2, SIZE), np.int64)  # squares fully recomputed: bit c of done[0, r], bit r of done[1, c]
    for k in range(rows.shape[0]):
        r0 = rows[k]
        c0 = cols[k]
        for step in range(4):
            dr = 0
            dc = 0
            if step == 0:
                dr = -1
            elif step == 1:
                dr = 1
            elif step == 2:
                dc = -1
            else:
                dc = 1
            r = r0 + dr
            c = c0 + dc
            while 0 <= r < SIZE and 0 <= c < SIZE and lines[0, r, c] != EMPTY:
                r += dr
                c += dc
            if 0 <= r < SIZE and 0 <= c < SIZE:
                # the orientation whose cross word changed (along the column: 0, its cross word runs down column
                # c), in full; the other's run in its own line grew on its far side, which can only narrow its
                # in-line check: that check alone, on the mask it had (a square is (orientation, line, position))
                # (borrowed views: no atomic reference counting of three arrays on each call)
                if dr != 0:
                    df, lf, qf, dn, ln, qn = D0, r, c, D1, c, r
                else:
                    df, lf, qf, dn, ln, qn = D1, c, r, D0, r, c
                if (done[df, lf] >> qf) & 1 == 0:
                    done[df, lf] |= np.int64(1) << qf
                    m, s = square_check(_b(lines), _b(fv), _b(dawg), borrowed_checks(checks), df,
                                        lf, qf, memo)
                    cc[df, lf, qf] = m
                    xs[df, lf, qf] = s
                if (done[dn, ln] >> qn) & 1 == 0 and cc[dn, ln, qn] != 0:
                    cc[dn, ln, qn] = _in_line(_b(lines), borrowed_checks(checks), dn, ln, qn,
                                              cc[dn, ln, qn])
