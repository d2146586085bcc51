"""Word-finder kernels over the DAWG: anagrams with blanks, slot patterns, prefixes, substrings.

Results are written as (word index into ``out_flat``, blank mask) pairs; buffers grow inside the kernel.
A rack is ``counts[letter]`` plus a blank count. Where a letter could come from a tile or a blank, the tile
is used, so each word is reported once with the fewest blanks, blanks on its later occurrences.
"""
from __future__ import annotations

import numpy as np

from .._jit import inline, kernel
from ..bits import lsb_index
from ._dawg import child_slot, edge_is_word, edge_target

MAX_DEPTH = 64  # longest word the queries handle (blank masks are 64-bit)


@inline
def _grow(a, need):
    """``a`` itself if it holds ``need`` items, else a copy at least twice as long (inlined: called once per
    word found, and a separate function would be compiled for each of its three dtypes)."""
    if need <= a.shape[0]:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    for k in range(a.shape[0]):  # a loop, not b[:n] = a: the slice assignment costs seconds of compile time
        b[k] = a[k]
    return b


@kernel
def dawg_search(dawg, allowed, from_rack, counts, blanks, use_rack, min_len, max_len, node0):
    """Depth-first search from ``node0`` for word endings ``w`` with ``min_len <= len(w) <= max_len``.

    ``allowed[d]``: 32-bit mask of letters allowed at depth ``d`` of ``w``; ``from_rack[d]``: that square is
    filled from the rack (checked only when ``use_rack``). Returns ``(flat, offsets, blank_masks)`` of the
    found suffixes ``w`` in alphabetical order.
    """
    out = np.empty(1024, dtype=np.uint8)
    offs = np.empty(129, dtype=np.int64)
    bmask = np.empty(128, dtype=np.uint64)
    offs[0] = 0
    n_out = 0
    pos = 0
    cnt = counts.copy()
    nblank = blanks
    # explicit stack: one frame per depth (at most max_len <= MAX_DEPTH)
    node = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    rem = np.zeros(MAX_DEPTH + 1, dtype=np.int64)  # child letters still to try at this depth
    word = np.zeros(MAX_DEPTH + 1, dtype=np.uint8)
    used_blank = np.zeros(MAX_DEPTH + 1, dtype=np.uint8)
    node[0] = node0
    rem[0] = np.int64(dawg[node0]) & np.int64(allowed[0]) if max_len > 0 else 0
    d = 0
    while d >= 0:
        if rem[d] == 0:
            d -= 1
            if d >= 0:  # give back the tile of the frame we return to
                if use_rack and from_rack[d]:
                    if used_blank[d]:
                        nblank += 1
                    else:
                        cnt[word[d]] += 1
            continue
        c = lsb_index(rem[d])
        rem[d] &= rem[d] - 1
        if use_rack and from_rack[d]:
            if cnt[c] > 0:
                cnt[c] -= 1
                used_blank[d] = 0
            elif nblank > 0:
                nblank -= 1
                used_blank[d] = 1
            else:
                continue
        else:
            used_blank[d] = 0
        m = np.int64(dawg[node[d]])
        e = np.int64(dawg[child_slot(node[d], m, c)])
        word[d] = c
        length = d + 1
        if edge_is_word(e) and length >= min_len:
            out = _grow(out, pos + length)
            offs = _grow(offs, n_out + 2)
            bmask = _grow(bmask, n_out + 1)
            bm = np.uint64(0)
            for k in range(length):
                out[pos + k] = word[k]
                if used_blank[k] and use_rack and from_rack[k]:
                    bm |= np.uint64(1) << np.uint64(k)
            pos += length
            n_out += 1
            offs[n_out] = pos
            bmask[n_out - 1] = bm
        child = edge_target(e)
        if length < max_len and (np.int64(dawg[child]) & np.int64(allowed[length])) != 0:
            d = length
            node[d] = child
            rem[d] = np.int64(dawg[child]) & np.int64(allowed[d])
        else:  # leaf of the search: give the tile back now
            if use_rack and from_rack[d]:
                if used_blank[d]:
                    nblank += 1
                else:
                    cnt[c] += 1
    return out[:pos].copy(), offs[: n_out + 1].copy(), bmask[:n_out].copy()


@kernel
def containing(flat, offsets, sub):
    """Indices of the words that contain ``sub`` as a substring."""
    n = offsets.shape[0] - 1
    res = np.empty(n, dtype=np.int64)
    m = 0
    ls = sub.shape[0]
    for i in range(n):
        a = offsets[i]
        b = offsets[i + 1]
        for s in range(a, b - ls + 1):
            ok = True
            for k in range(ls):
                if flat[s + k] != sub[k]:
                    ok = False
                    break
            if ok:
                res[m] = i
                m += 1
                break
    return res[:m].copy()
