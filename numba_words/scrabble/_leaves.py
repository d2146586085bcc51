"""Leave kernels: the rank of a leave (a multiset of tiles) in a dense table, a rack's leave map, equity.

Tiles are *kinds*: kind 0 is the blank, kind ``1 + c`` the letter of code ``c`` (the order of KLV files).
The leaves of a variant are the sorted tile sequences of 1 to ``R`` tiles that its bag can hold (``caps[k]``
tiles of kind ``k``); their *rank* is their place in lexicographic order, a sequence before its extensions,
which is also the order of the words of a KLV's leave graph. Ranking needs two small tables
(:func:`rank_tables`), no hashing and no search:

- ``F[t, r]``: multisets (the empty one included) of kinds ``>= t`` with at most ``r`` tiles;
- ``G[t, k, r]``: leaves in the subtree of a node whose last tile is ``t``, with ``k`` more copies of ``t``
  left and room for ``r`` more tiles (the node included) = ``sum(F[t + 1, r - j] for j <= min(k, r))``;
- ``P[x, r]``: the leaves under the first children ``y < x`` of a node that may take any kind ``y``, each with
  ``r - 1`` tiles of room left.

Values are whole millipoints (``int32``), so equities add exactly and ties break the same way everywhere.
"""
from __future__ import annotations

import numpy as np

from .._jit import inline, kernel

NO_LEAVE = np.int64(-1)
"""Rank of the empty leave (value 0)."""
TOO_BIG = np.int64(-2)
"""Rank of a multiset the table does not hold (more than ``R`` tiles, or more of a kind than the bag)."""
PASS_EQUITY = np.int64(-(1 << 50))
"""Equity of a pass in millipoints: below every play and exchange."""
NON_OUTPLAY_PENALTY = np.int64(10_000)
"""Millipoints taken from a play that does not go out when the bag is empty (plus twice its leave's points)."""


def rank_tables(caps: np.ndarray, R: int):
    """``(G, P, n_leaves)`` for kinds with ``caps`` tiles each and leaves of up to ``R`` tiles."""
    K = len(caps)
    F = np.zeros((K + 1, R + 1), np.int64)
    F[K, :] = 1
    for t in range(K - 1, -1, -1):
        for r in range(R + 1):
            F[t, r] = sum(F[t + 1, r - j] for j in range(min(int(caps[t]), r) + 1))
    G = np.zeros((K, R + 1, R + 1), np.int64)
    for t in range(K):
        for k in range(R + 1):
            for r in range(R + 1):
                G[t, k, r] = sum(F[t + 1, r - j] for j in range(min(k, r) + 1))
    P = np.zeros((K + 1, R + 1), np.int64)
    for r in range(1, R + 1):
        for x in range(1, K + 1):
            y = x - 1
            add = G[y, min(int(caps[y]) - 1, r - 1), r - 1] if caps[y] > 0 else 0
            P[x, r] = P[x - 1, r] + add
    return G, P, int(F[0, R] - 1)


@kernel
def rank(counts, caps, G, P, R):
    """Rank of the leave with ``counts[k]`` tiles of kind ``k``; :data:`NO_LEAVE` when empty, :data:`TOO_BIG`
    when the table cannot hold it."""
    K = caps.shape[0]
    total = np.int64(0)
    for k in range(K):
        if counts[k] > caps[k]:
            return TOO_BIG
        total += counts[k]
    if total == 0:
        return NO_LEAVE
    if total > R:
        return TOO_BIG
    idx = np.int64(0)  # index of the current node's first child
    r = np.int64(R)  # tiles of room below the current node
    last = np.int64(-1)
    klast = np.int64(0)
    node = np.int64(0)
    for x in range(K):
        for _ in range(counts[x]):
            if last >= 0 and x == last:
                klast -= 1
            else:
                lo = np.int64(0)
                if last >= 0:
                    lo = last + 1
                    if klast > 0:  # the child repeating the last tile comes first
                        idx += G[last, min(klast - 1, r - 1), r - 1]
                idx += P[x, r] - P[lo, r]
                klast = caps[x] - 1
                last = x
            r -= 1
            node = idx
            idx += 1
    return node


@kernel
def rank_sequences(tiles, lens, caps, G, P, R, out):
    """``out[i]`` = rank of the leave ``tiles[i, :lens[i]]`` (kinds, any order)."""
    counts = np.zeros(caps.shape[0], np.int64)
    for i in range(tiles.shape[0]):
        for k in range(counts.shape[0]):
            counts[k] = 0
        bad = False
        for j in range(lens[i]):
            t = tiles[i, j]
            if t < 0 or t >= counts.shape[0]:
                bad = True
            else:
                counts[t] += 1
        out[i] = TOO_BIG if bad else rank(counts, caps, G, P, R)


@kernel
def unrank_all(caps, R, tiles, lens):
    """Every leave in rank order: ``tiles[i, :lens[i]]`` its kinds, ascending (depth-first walk with an explicit
    stack of at most ``R`` levels). Returns the number of leaves."""
    K = caps.shape[0]
    seq = np.zeros(R + 1, np.int64)  # the kind at each depth (-1: none tried yet)
    used = np.zeros(K, np.int64)
    n = np.int64(0)
    depth = np.int64(0)
    seq[0] = -1
    while depth >= 0:
        if seq[depth] >= 0:
            used[seq[depth]] -= 1
            x = seq[depth] + 1
        elif depth > 0:
            x = seq[depth - 1]
        else:
            x = np.int64(0)
        while x < K and used[x] >= caps[x]:
            x += 1
        if x >= K:
            seq[depth] = -1
            depth -= 1
            continue
        seq[depth] = x
        used[x] += 1
        for j in range(depth + 1):
            tiles[n, j] = seq[j]
        lens[n] = depth + 1
        n += 1
        if depth + 1 < R:
            depth += 1
            seq[depth] = -1
    return n


MAX_WORD = 16
"""Longest word :func:`kwg_words` follows (deeper graphs are refused)."""


@kernel
def kwg_words(nodes, root, tiles, lens):
    """The words of a KWG word graph from node ``root`` in its own order (a word before its extensions, siblings
    in node order): ``tiles[i, :lens[i]]`` the tiles of word ``i`` (``tiles`` has :data:`MAX_WORD` columns).
    Node bits: 0-21 arc index, 22 last sibling, 23 accepts, 24-31 tile. Returns the number of words (only the
    first ``lens.shape[0]`` are written), -1 for a walk that leaves the node array or runs deeper than
    :data:`MAX_WORD`, -2 for one longer than ``64 * nodes + 10^7`` steps (a looping graph)."""
    n_nodes = nodes.shape[0]
    stack = np.zeros(MAX_WORD, np.int64)  # node index at each depth
    n = np.int64(0)
    if root <= 0 or root >= n_nodes:
        return n
    depth = np.int64(0)
    stack[0] = root
    steps = np.int64(0)
    limit = 64 * np.int64(n_nodes) + 10_000_000
    while depth >= 0:
        steps += 1
        if steps > limit:
            return np.int64(-2)
        node = np.int64(nodes[stack[depth]])
        if (node >> 23) & 1:
            if n < lens.shape[0]:
                for j in range(depth + 1):
                    tiles[n, j] = np.int64(nodes[stack[j]]) >> 24
                lens[n] = depth + 1
            n += 1
        arc = node & 0x3FFFFF
        if arc != 0:
            if arc >= n_nodes or depth + 1 >= MAX_WORD:
                return np.int64(-1)
            depth += 1
            stack[depth] = arc
            continue
        while depth >= 0:  # next sibling, climbing past last siblings
            node = np.int64(nodes[stack[depth]])
            if (node >> 22) & 1:
                depth -= 1
            else:
                stack[depth] += 1
                if stack[depth] >= n_nodes:
                    return np.int64(-1)
                break
    return n


@kernel
def leave_map(rack, milli, caps, G, P, R, stride, lmap):
    """The values (millipoints) of every sub-multiset of a rack (``rack[k]`` tiles of kind ``k``), indexed in
    mixed radix: ``stride[k]`` is the weight of kind ``k`` (``prod(rack[j] + 1 for j < k)``, 0 when absent).
    Fills ``stride`` and ``lmap[:size]``; returns the size (<= 2 ** 7 = 128 for a 7-tile rack). A leave the
    table does not hold (the whole rack kept, or longer than ``R``) is worth 0."""
    K = caps.shape[0]
    size = np.int64(1)
    for k in range(K):
        if rack[k] > 0:
            stride[k] = size
            size *= rack[k] + 1
        else:
            stride[k] = 0
    counts = np.zeros(K, np.int64)
    for idx in range(size):
        rest = idx
        for k in range(K):
            if rack[k] > 0:
                counts[k] = rest % (rack[k] + 1)
                rest //= rack[k] + 1
            else:
                counts[k] = 0
        r = rank(counts, caps, G, P, R)
        lmap[idx] = np.int64(milli[r]) if r >= 0 else np.int64(0)
    return size


@kernel
def equity_terms(rack, tile_pts, milli, caps, G, P, R, bag, opp_pts, stride, lmap):
    """Fill the rack's leave map (:func:`leave_map`) and return ``(full index, rack tile points, rack size)``."""
    leave_map(rack, milli, caps, G, P, R, stride, lmap)
    full = np.int64(0)
    pts = np.int64(0)
    n = np.int64(0)
    for k in range(caps.shape[0]):
        full += rack[k] * stride[k]
        pts += rack[k] * tile_pts[k]
        n += rack[k]
    return full, pts, n


@inline
def play_equity(words, i, new, blanks, length, row, col, dr, score, tiles, full, rack_pts, rack_n, stride, lmap,
                tile_pts, bag, opp_pts, vowel, pen, empty_board):
    """Equity in millipoints of the play in row ``i`` of ``words`` with the given fields (see
    :func:`plays_equity`; ``full``, ``rack_pts``, ``rack_n``, ``stride``, ``lmap`` from :func:`equity_terms`)."""
    idx = full
    lpts = rack_pts
    opening = np.int64(0)
    for k in range(length):
        if (new >> k) & 1:
            if (blanks >> k) & 1:
                kind = np.int64(0)
            else:
                kind = np.int64(words[i, k]) + 1
            idx -= stride[kind]
            lpts -= tile_pts[kind]
            if empty_board:
                q = col + k if dr == 0 else row + k
                opening += vowel[words[i, k]] * pen[dr, q]
    eq = 1000 * score + opening
    if bag > 0:
        eq += lmap[idx]
    elif rack_n > tiles:
        eq -= 2000 * lpts + NON_OUTPLAY_PENALTY
    else:
        eq += 2000 * opp_pts
    return eq


@kernel
def plays_equity(words, new, blanks, length, row, col, dr, score, tiles, rack, tile_pts, milli, caps, G, P, R, bag,
                 opp_pts, vowel, pen, empty_board, out):
    """Static equity (millipoints) of every play, as MAGPIE computes it:

    ``1000 * score`` + the leave's value while the bag holds tiles; with the bag empty, ``+ 2 * 1000 *`` the
    opponent's rack points for a play that goes out, else ``- 2 * 1000 *`` the points of the tiles kept ``-``
    :data:`NON_OUTPLAY_PENALTY`; on the empty board, ``pen[dir, square]`` for each vowel placed (the opening
    "hot spot" penalty next to the premium squares beside the start row/column).

    Columns: ``words (n, 15) uint8``, ``new``/``blanks`` bit masks, ``length``, ``row``, ``col``, ``dr``
    (direction), ``score``, ``tiles`` (tiles used); ``rack[k]`` tiles of kind ``k`` (0 blank, 1 + letter code),
    ``tile_pts[k]`` their points (blank 0), ``vowel[c]`` 1 for a vowel letter code."""
    stride = np.zeros(caps.shape[0], np.int64)
    lmap = np.zeros(256, np.int64)
    full, rack_pts, rack_n = equity_terms(rack, tile_pts, milli, caps, G, P, R, bag, opp_pts, stride, lmap)
    for i in range(out.shape[0]):
        out[i] = play_equity(words, i, np.int64(new[i]), np.int64(blanks[i]), np.int64(length[i]), np.int64(row[i]),
                             np.int64(col[i]), np.int64(dr[i]), np.int64(score[i]), np.int64(tiles[i]), full, rack_pts,
                             rack_n, stride, lmap, tile_pts, bag, opp_pts, vowel, pen, empty_board)
