"""Cross-check kernels: for every empty square and direction, the set of letters that complete a valid
perpendicular word (32-bit mask) and that word's score without the new tile (``-1`` if no perpendicular word).

Arrays are in *orientation* form: ``lines[0]`` is the board (line = row), ``lines[1]`` its transpose
(line = column). ``cc[d, i, j]``/``xs[d, i, j]`` are for a tile placed at position ``j`` of line ``i`` by a
play in orientation ``d``; its perpendicular word runs along line ``j`` of orientation ``1 - d``.
"""
from __future__ import annotations

import numpy as np

from .._jit import borrowed as _b, kernel
from ..bits import lsb_index
from ..lexicon._dawg import edge as _edge
from ._tables import EMPTY, SIZE

# orientations as int64 values, not literals: a literal argument would compile square_check once per value
D0 = np.int64(0)
D1 = np.int64(1)


@kernel
def square_check(lines, fv, dawg, full, d, i, j):
    """``(mask, cross_score)`` for square ``j`` of line ``i`` in orientation ``d`` (must be empty)."""
    o = 1 - d  # the perpendicular word runs along line j of orientation o (no view of it: a view costs an atomic
    # reference-count pair)
    a = i
    while a > 0 and lines[o, j, a - 1] != EMPTY:
        a -= 1
    b = i
    while b < SIZE - 1 and lines[o, j, b + 1] != EMPTY:
        b += 1
    if a == i and b == i:
        return np.int64(full), np.int64(-1)
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
def all_checks(lines, fv, dawg, full, cc, xs):
    """Fill ``cc``/``xs`` (2, 15, 15) from scratch."""
    for d in range(2):
        for i in range(SIZE):
            for j in range(SIZE):
                if lines[d, i, j] != EMPTY:
                    cc[d, i, j] = 0
                    xs[d, i, j] = -1
                else:
                    m, s = square_check(_b(lines), _b(fv), _b(dawg), full, d, i, j)
                    cc[d, i, j] = m
                    xs[d, i, j] = s


@kernel
def update_checks(lines, fv, dawg, full, cc, xs, rows, cols):
    """Incremental update after tiles were placed at ``(rows[k], cols[k])`` (already in ``lines``/``fv``).

    Only the empty squares at the ends of the runs through the new tiles can change, and each in one orientation:
    ``cc[0, r, c]`` depends on the tiles of column ``c`` only, ``cc[1, c, r]`` on those of row ``r``. So the walk
    from each new tile up and down its column recomputes the square it stops on in orientation 0, the walk left
    and right along its row in orientation 1; each square once (the tiles of a play share their run's ends).
    """
    for k in range(rows.shape[0]):
        r = rows[k]
        c = cols[k]
        cc[0, r, c] = 0
        xs[0, r, c] = -1
        cc[1, c, r] = 0
        xs[1, c, r] = -1
    done = np.zeros((2, SIZE), np.int64)  # squares recomputed: bit c of done[0, r], bit r of done[1, c]
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
                # (borrowed views: no atomic reference counting of three arrays on each call)
                if dr != 0:  # along the column: the square's across check (its cross word runs down column c)
                    if (done[0, r] >> c) & 1 == 0:
                        done[0, r] |= np.int64(1) << c
                        m, s = square_check(_b(lines), _b(fv), _b(dawg), full, D0, r, c)
                        cc[0, r, c] = m
                        xs[0, r, c] = s
                elif (done[1, c] >> r) & 1 == 0:  # along the row: its down check
                    done[1, c] |= np.int64(1) << r
                    m, s = square_check(_b(lines), _b(fv), _b(dawg), full, D1, c, r)
                    cc[1, c, r] = m
                    xs[1, c, r] = s
