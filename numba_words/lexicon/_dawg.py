"""DAWG kernels: parse word lists, build a minimised DAWG, walk it.

Array encoding (``uint32``), the contract every engine's kernels walk::

    dawg[o]           child mask of the node at offset o (bit c: letter c has a child)
    dawg[o + 1 + k]   edge to the k-th child in letter order: (child_offset << 1) | terminal

``terminal`` says the prefix ending with that letter is a word. The root is at offset 0, so an edge value of
0 never occurs and :func:`edge` returns 0 for "no such child". Children are found by popcount of the mask
bits below the letter. Terminal flags live on edges, so nodes that differ only in being a word merge.
"""
from __future__ import annotations

import numpy as np

from .._jit import inline, kernel
from ..bits import popcount

ROOT = 0


# Scalar accessors (int64 in, int64 out): every engine's kernels share these and keep the array loads in the
# caller, since a helper that takes arrays costs refcount traffic on every call while these cost nothing.
# They are inlined at Numba IR level (``inline``), so a kernel that uses them compiles no separate function
# for each (the machine code is the same: LLVM inlined them anyway).
@inline
def has_child(mask, c):
    """Whether child mask ``mask`` has letter ``c``."""
    return (mask >> c) & 1 != 0


@inline
def child_rank(mask, c):
    """Rank of letter ``c`` among the children in ``mask`` (how many child letters are below ``c``)."""
    return popcount(mask & ((np.int64(1) << c) - 1))


@inline
def child_slot(node, mask, c):
    """Offset of the edge for letter ``c`` out of the node at offset ``node`` whose child mask is ``mask``."""
    return node + 1 + child_rank(mask, c)


@inline
def edge_target(e):
    """The child node offset an edge value points to."""
    return e >> 1


@inline
def edge_is_word(e):
    """Whether an edge value ends a word."""
    return (e & 1) == 1


@kernel
def edge(dawg, node, c):
    """Edge value for letter ``c`` out of ``node`` (``(child << 1) | terminal``), or 0 if there is none."""
    m = np.int64(dawg[node])
    if not has_child(m, c):
        return np.int64(0)
    return np.int64(dawg[child_slot(node, m, c)])


@kernel
def walk(dawg, codes, start, stop):
    """Edge value reached by spelling ``codes[start:stop]`` from the root (0 if the walk falls off)."""
    node = np.int64(ROOT)
    e = 0
    for i in range(start, stop):
        e = edge(dawg, node, np.int64(codes[i]))
        if e == 0:
            return 0
        node = edge_target(e)
    return e


@kernel
def contains_many(dawg, flat, offsets, out):
    """``out[i]`` = word ``flat[offsets[i]:offsets[i+1]]`` is in the DAWG."""
    for i in range(offsets.shape[0] - 1):
        a = offsets[i]
        b = offsets[i + 1]
        out[i] = b > a and edge_is_word(walk(dawg, flat, a, b))


@kernel
def contains_mapped(dawg, mapped, out):
    """``out[i]`` = line ``i`` of newline-separated mapped code points (see :func:`split_lines`) is a word."""
    n = mapped.shape[0]
    i = 0
    w = 0
    while w < out.shape[0]:
        node = np.int64(ROOT)
        e = 0
        ok = True
        while i < n and mapped[i] != -1:
            if ok:
                c = np.int64(mapped[i])
                if c < 0:
                    ok = False
                else:
                    e = edge(dawg, node, c)
                    if e == 0:
                        ok = False
                    node = edge_target(e)
            i += 1
        out[w] = ok and edge_is_word(e)
        i += 1
        w += 1


@kernel
def count_nodes(dawg):
    """Number of nodes of a DAWG (a walk over the array: each node is its mask and one slot per child)."""
    o = 0
    n = 0
    while o < dawg.shape[0]:
        n += 1
        o += 1 + popcount(np.int64(dawg[o]))
    return n


# Problems check_arrays reports (0: none); cache.check_arrays words them.
(BAD_EMPTY, BAD_MASK, BAD_NODE_END, BAD_EDGE, BAD_DEAD_END, BAD_OFFSETS, BAD_LETTER, BAD_LENGTH, BAD_WORD_COUNT,
 BAD_DEPTH) = range(1, 11)


@kernel
def check_arrays(flat, offsets, dawg, n_letters, max_len, index, work):
    """Structural check of a lexicon's arrays before any kernel walks them: ``(problem, index)``, ``(0, 0)`` if
    sound. One pass over each array; guarantees every index a kernel derives from them is in range.

    ``offsets`` start at 0, never decrease, end at ``len(flat)``, words of 1 to ``max_len`` letters; ``flat``
    letters below ``n_letters``; the DAWG is a sequence of nodes (a mask of letters below ``n_letters`` and one
    edge per mask bit) filling the array exactly, every edge pointing to the start of a node after its own (so
    walks end), every edge into a node without children marked as ending a word, and the DAWG spelling as many
    words as ``offsets`` holds, the longest as long as theirs (so word ranks and depths stay in range).

    Workspace from the caller (allocating it here would compile NumPy's allocators into this kernel): ``index``
    ``int32[len(dawg)]`` filled with -1, ``work`` ``int64[3, len(dawg)]``.
    """
    n = offsets.shape[0] - 1
    if n < 1 or offsets[0] != 0 or offsets[n] != flat.shape[0]:
        return BAD_OFFSETS, 0
    longest = 0
    for i in range(n):
        length = offsets[i + 1] - offsets[i]
        if length < 1 or length > max_len:
            return BAD_LENGTH, i
        longest = max(longest, length)
    top = 0
    for k in range(flat.shape[0]):  # a max (vectorised) rather than an early exit: several times faster
        top = max(top, np.int64(flat[k]))
    if top >= n_letters:
        for k in range(flat.shape[0]):
            if flat[k] >= n_letters:
                return BAD_LETTER, k
    size = dawg.shape[0]
    if size == 0:
        return BAD_EMPTY, 0
    # forward: node starts (each node is its mask and one slot per mask bit)
    starts = work[0]  # node starts in order; index[o]: the number of the node starting at o, -1 elsewhere
    letters = (np.int64(1) << n_letters) - 1
    n_nodes = 0
    o = 0
    while o < size:
        m = np.int64(dawg[o])
        if m & ~letters:
            return BAD_MASK, o
        index[o] = n_nodes
        starts[n_nodes] = o
        n_nodes += 1
        o += 1 + popcount(m)
    if o != size:
        return BAD_NODE_END, size
    # backward: edges, and the words below each node and the longest of them (children lie at larger offsets,
    # so they come first); counts saturate at n + 1 so that exponentially many paths cannot overflow them
    words = work[1]
    depth = work[2]
    for j in range(n_nodes - 1, -1, -1):
        o = starts[j]
        w = 0
        d = 0
        for s in range(o + 1, o + 1 + popcount(np.int64(dawg[o]))):
            e = np.int64(dawg[s])
            t = edge_target(e)
            if t <= o or t >= size or index[t] < 0:
                return BAD_EDGE, s
            c = index[t]
            if edge_is_word(e):
                w += 1
            elif dawg[t] == 0:
                return BAD_DEAD_END, s
            w = min(w + words[c], n + 1)
            d = max(d, depth[c] + 1)
        words[j] = w
        depth[j] = d
    if words[0] != n:
        return BAD_WORD_COUNT, words[0]
    if depth[0] != longest:
        return BAD_DEPTH, depth[0]
    return 0, 0


@kernel
def _hash_node(mask, cedges, start, n):
    h = np.uint64(mask) * np.uint64(0x9E3779B97F4A7C15)
    for k in range(n):
        h = (h ^ np.uint64(cedges[start + k])) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@kernel
def build_dawg(flat, offsets):
    """Minimised DAWG (see module doc) of the sorted, duplicate-free words; returns ``(dawg, n_nodes)``."""
    n_words = offsets.shape[0] - 1
    cap = flat.shape[0] + 1
    # 1. trie, children appended in letter order because the words are sorted
    first = np.full(cap, -1, dtype=np.int32)
    last = np.full(cap, -1, dtype=np.int32)
    nxt = np.full(cap, -1, dtype=np.int32)
    letter = np.zeros(cap, dtype=np.uint8)
    term = np.zeros(cap, dtype=np.uint8)
    maxlen = 0
    for i in range(n_words):
        maxlen = max(maxlen, offsets[i + 1] - offsets[i])
    path = np.zeros(maxlen + 1, dtype=np.int32)
    n_nodes = 1
    prev_a = 0
    prev_b = 0
    for i in range(n_words):
        a = offsets[i]
        b = offsets[i + 1]
        p = 0
        while p < b - a and p < prev_b - prev_a and flat[a + p] == flat[prev_a + p]:
            p += 1
        node = path[p]
        for k in range(p, b - a):
            child = n_nodes
            n_nodes += 1
            letter[child] = flat[a + k]
            if last[node] < 0:
                first[node] = child
            else:
                nxt[last[node]] = child
            last[node] = child
            node = child
            path[k + 1] = child
        term[node] = 1
        prev_a = a
        prev_b = b
    # 2. minimise bottom-up: children have larger ids than parents
    canon = np.empty(n_nodes, dtype=np.int32)
    cmask = np.empty(n_nodes, dtype=np.uint32)
    cstart = np.empty(n_nodes, dtype=np.int64)
    cnum = np.empty(n_nodes, dtype=np.int32)
    cedges = np.empty(n_nodes, dtype=np.int64)  # (canonical child << 1) | terminal
    n_canon = 0
    n_cedges = np.int64(0)  # an int64 from the start: no second, literal-typed _hash_node
    size = 1
    while size < 2 * n_nodes:
        size *= 2
    table = np.full(size, -1, dtype=np.int32)
    for v in range(n_nodes - 1, -1, -1):
        mask = np.uint32(0)
        start = n_cedges
        c = first[v]
        while c >= 0:
            mask |= np.uint32(1) << np.uint32(letter[c])
            cedges[n_cedges] = (np.int64(canon[c]) << 1) | np.int64(term[c])
            n_cedges += 1
            c = nxt[c]
        n = n_cedges - start
        h = np.int64(_hash_node(mask, cedges, start, n) & np.uint64(size - 1))
        while True:
            t = table[h]
            if t < 0:
                table[h] = n_canon
                cmask[n_canon] = mask
                cstart[n_canon] = start
                cnum[n_canon] = n
                canon[v] = n_canon
                n_canon += 1
                break
            if cmask[t] == mask and cnum[t] == n:
                same = True
                s = cstart[t]
                for k in range(n):
                    if cedges[s + k] != cedges[start + k]:
                        same = False
                        break
                if same:
                    canon[v] = t
                    n_cedges = start  # drop the duplicate's edges
                    break
            h = (h + 1) & (size - 1)
    # 3. lay out with the root (created last) at offset 0
    offset = np.empty(n_canon, dtype=np.int64)
    total = 0
    for t in range(n_canon - 1, -1, -1):
        offset[t] = total
        total += 1 + cnum[t]
    dawg = np.empty(total, dtype=np.uint32)
    for t in range(n_canon):
        o = offset[t]
        dawg[o] = cmask[t]
        s = cstart[t]
        for k in range(cnum[t]):
            ce = cedges[s + k]
            dawg[o + 1 + k] = np.uint32((offset[ce >> 1] << 1) | (ce & 1))
    return dawg, n_canon
