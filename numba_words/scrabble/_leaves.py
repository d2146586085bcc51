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

from .._jit import borrowed as _b, inline, kernel

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


@inline
def rank_step(x, last, idx, r, klast, caps, G, P):
    """One more tile, of kind ``x`` (``>= last``, the previous tile's kind, -1 for none), on the walk that ranks a
    leave: ``idx`` the index of the current node's first child, ``r`` (>= 1) tiles of room below it, ``klast``
    copies of ``last`` still allowed. Returns ``(rank of the leave so far, klast after the tile)``; the walk goes
    on with ``idx = rank + 1``, ``r - 1`` and ``last = x``."""
    if last >= 0 and x == last:
        return idx, klast - 1
    lo = np.int64(0)
    if last >= 0:
        lo = last + 1
        if klast > 0:  # the child repeating the last tile comes first
            idx += G[last, min(klast - 1, r - 1), r - 1]
    return idx + P[x, r] - P[lo, r], caps[x] - 1


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
    idx = np.int64(0)
    r = np.int64(R)
    last = np.int64(-1)
    klast = np.int64(0)
    node = np.int64(0)
    for x in range(K):
        for _ in range(counts[x]):
            node, klast = rank_step(np.int64(x), last, idx, r, klast, _b(caps), _b(G), _b(P))
            last = x
            r -= 1
            idx = node + 1
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


@inline
def next_leave(seq, used, depth, caps, R):
    """One step of the depth-first walk over leaves in rank order: ``seq[j]`` the kind at depth ``j``, ``used``
    tiles per kind, ``depth`` the depth of the leave returned last (start: ``depth = 0``, ``seq[0] = -1``,
    ``used = 0``). Returns the next leave's depth (tiles - 1), -1 after the last one."""
    K = caps.shape[0]
    if seq[depth] >= 0 and depth + 1 < R:  # the leave returned last has extensions: they come next
        depth += 1
        seq[depth] = -1
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
        return depth
    return depth


@kernel
def unrank_all(caps, R, tiles, lens):
    """Every leave in rank order: ``tiles[i, :lens[i]]`` its kinds, ascending (:func:`next_leave`, a stack of at
    most ``R`` levels). Returns the number of leaves."""
    seq = np.full(R + 1, -1, np.int64)
    used = np.zeros(caps.shape[0], np.int64)
    n = np.int64(0)
    depth = next_leave(seq, used, np.int64(0), caps, R)
    while depth >= 0:
        for j in range(depth + 1):
            tiles[n, j] = seq[j]
        lens[n] = depth + 1
        n += 1
        depth = next_leave(seq, used, depth, caps, R)
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
    ws = np.zeros((2, K), np.int64)  # (one allocation for the scratch arrays: each costs ~20-40 ns)
    kinds = ws[0]  # the rack's kinds, ascending
    used = ws[1]
    m = 0
    n = np.int64(0)
    size = np.int64(1)
    for k in range(K):
        if rack[k] > 0:
            stride[k] = size
            size *= rack[k] + 1
            kinds[m] = k
            m += 1
            n += rack[k]
        else:
            stride[k] = 0
    lmap[0] = 0
    # depth-first over the sub-multisets in rank order, each rank one :func:`rank_step` from its
    # parent's; per depth: the last tile's kind index, the walk state after it, the mixed-radix index
    st = np.empty((7, n + 1), np.int64)
    sj = st[0]
    sidx = st[1]
    sr = st[2]
    sk = st[3]
    smr = st[4]
    sbad = st[5]  # (0 or 1)
    nxt = st[6]  # the next kind index to try below each depth
    sj[0] = -1
    sidx[0] = 0
    sr[0] = R
    sk[0] = 0
    smr[0] = 0
    sbad[0] = 0
    nxt[0] = 0
    depth = 0
    while depth >= 0:
        j = nxt[depth]
        while j < m and used[j] >= rack[kinds[j]]:
            j += 1
        if j >= m:
            depth -= 1
            if depth >= 0:
                used[sj[depth + 1]] -= 1
            continue
        nxt[depth] = j + 1
        x = kinds[j]
        last = kinds[sj[depth]] if depth > 0 else np.int64(-1)
        r = sr[depth]
        node = np.int64(0)
        klast = np.int64(0)
        if r > 0:
            # (borrowed views: an inlined helper's array arguments cost an atomic reference-count pair per call,
            # ~40% of the reference counting in self-play)
            node, klast = rank_step(x, last, sidx[depth], r, sk[depth], _b(caps), _b(G), _b(P))
        used[j] += 1
        d = depth + 1
        sj[d] = j
        sidx[d] = node + 1
        sr[d] = r - 1
        sk[d] = klast
        smr[d] = smr[depth] + stride[x]
        sbad[d] = np.int64(sbad[depth] != 0 or r <= 0 or used[j] > caps[x])
        lmap[smr[d]] = np.int64(0) if sbad[d] != 0 else np.int64(milli[node])
        nxt[d] = j
        depth = d
    return size


@kernel
def equity_terms(rack, tile_pts, milli, caps, G, P, R, bag, opp_pts, stride, lmap):
    """Fill the rack's leave map (:func:`leave_map`) and return ``(full index, rack tile points, rack size)``."""
    leave_map(rack, milli, caps, G, P, R, stride, lmap)
    return rack_terms(rack, tile_pts, stride)


@inline
def rack_terms(rack, tile_pts, stride):
    """``(full index, rack tile points, rack size)`` of a rack whose leave map strides are ``stride``."""
    full = np.int64(0)
    pts = np.int64(0)
    n = np.int64(0)
    for k in range(stride.shape[0]):
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


# ---------------------------------------------------------------------- learning from self-play
@kernel
def leave_means(rsum, rcnt, caps, rack_size, G, P, R, binom, lsum, lw, lobs):
    """Leave means from full racks' outcomes (superleaves as MAGPIE's leavegen computes them): ``rsum[i]``/
    ``rcnt[i]`` the summed best-move equity (millipoints) and the turns of the rack of rank ``i`` among leaves of
    up to ``rack_size`` tiles. Every observed full rack adds its mean to each leave it holds (1 to ``R`` tiles,
    rank ``r`` in tables ``G``/``P``), weighted by the ways to draw the rest of the rack from a full bag without
    the leave (``binom[n, k]`` = C(n, k)): ``lsum[r]`` the weighted sum, ``lw[r]`` the weight, ``lobs[r]`` the
    turns. Returns ``(sum, weight)`` of the racks' means weighted by their draw odds (their mean: the average)."""
    K = caps.shape[0]
    seq = np.full(rack_size + 1, -1, np.int64)
    used = np.zeros(K, np.int64)
    kinds = np.zeros(rack_size, np.int64)
    sub = np.zeros(K, np.int64)
    tot = 0.0
    totw = 0.0
    n = np.int64(-1)
    depth = next_leave(seq, used, np.int64(0), caps, rack_size)
    while depth >= 0:
        n += 1
        if depth + 1 == rack_size and rcnt[n] > 0:
            mean = rsum[n] / rcnt[n]
            nk = 0
            w_all = 1.0
            size = np.int64(1)
            for j in range(rack_size):
                if j == 0 or seq[j] != seq[j - 1]:
                    k = seq[j]
                    kinds[nk] = k
                    nk += 1
                    w_all *= binom[caps[k], used[k]]
                    size *= used[k] + 1
            tot += mean * w_all
            totw += w_all
            for idx in range(1, size - 1):  # 0: the empty leave, size - 1: the whole rack
                rest = idx
                w = 1.0
                for q in range(nk):
                    k = kinds[q]
                    c = rest % (used[k] + 1)
                    rest //= used[k] + 1
                    sub[k] = c
                    w *= binom[caps[k] - c, used[k] - c]
                r = rank(sub, caps, G, P, R)
                if r >= 0:
                    lsum[r] += mean * w
                    lw[r] += w
                    lobs[r] += rcnt[n]
            for q in range(nk):
                sub[kinds[q]] = 0
        depth = next_leave(seq, used, depth, caps, rack_size)
    return tot, totw


@kernel
def smooth_leaves(raw, obs, caps, G, P, R, k_prior, min_obs, out):
    """Leave values (millipoints) from raw means ``raw`` (relative to the average) seen ``obs`` turns each,
    shrunk towards a prior from their sub-leaves: ``out = (obs * raw + k_prior * prior) / (obs + k_prior)``
    with ``prior`` the mean over the leave's distinct tiles ``t`` of ``out[leave - t]`` + the mean marginal
    value of ``t`` among leaves of the same size seen at least ``min_obs`` turns. Sizes in increasing order,
    so the sub-leaves are done first."""
    K = caps.shape[0]
    seq = np.full(R + 1, -1, np.int64)
    used = np.zeros(K, np.int64)
    msum = np.zeros(K, np.float64)
    mw = np.zeros(K, np.float64)
    for s in range(1, R + 1):
        for k in range(K):
            msum[k] = 0.0
            mw[k] = 0.0
        for p in range(2):  # pass 0: the marginal values of each tile at this size; pass 1: the values
            n = np.int64(-1)
            seq[0] = -1
            depth = next_leave(seq, used, np.int64(0), caps, R)
            while depth >= 0:
                n += 1
                if depth + 1 == s and (p == 1 or obs[n] >= min_obs):
                    prior = 0.0
                    m = 0
                    for j in range(s):
                        if j == 0 or seq[j] != seq[j - 1]:
                            t = seq[j]
                            used[t] -= 1
                            r = rank(used, caps, G, P, R)
                            used[t] += 1
                            below = out[r] if r >= 0 else 0.0
                            if p == 0:
                                msum[t] += obs[n] * (raw[n] - below)
                                mw[t] += obs[n]
                            else:
                                prior += below + (msum[t] / mw[t] if mw[t] > 0 else 0.0)
                                m += 1
                    if p == 1:
                        prior /= m
                        out[n] = (obs[n] * raw[n] + k_prior * prior) / (obs[n] + k_prior)
                depth = next_leave(seq, used, depth, caps, R)
