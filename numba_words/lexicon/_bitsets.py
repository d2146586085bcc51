"""The seed-002 (xwords) matcher: per (length, position, letter) bit sets over the words of that length.

A slot query ANDs the bit sets of its fixed letters (ORs them for letter classes), restricts open squares to
the rack's letters when the rack has no blank, then checks the rack counts of each surviving word.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import lsb_index, popcount


@kernel
def build_bitsets(flat, offsets, n_letters):
    """Returns ``(bits uint64, block_start int64[L+1], len_start int64[L+2], len_ids int64)``.

    ``len_ids[len_start[L]:len_start[L+1]]`` are the word indices of length ``L`` (increasing);
    bit ``j`` of block ``(L, p, c)`` = ``bits[block_start[L] + (p * n_letters + c) * nw + j // 64]`` says
    word ``j`` of that length has letter ``c`` at position ``p``; ``nw = ceil(n_L / 64)``.
    """
    n = offsets.shape[0] - 1
    maxlen = 0
    for i in range(n):
        maxlen = max(maxlen, offsets[i + 1] - offsets[i])
    count = np.zeros(maxlen + 2, dtype=np.int64)
    for i in range(n):
        count[offsets[i + 1] - offsets[i]] += 1
    len_start = np.zeros(maxlen + 2, dtype=np.int64)
    for L in range(1, maxlen + 2):
        len_start[L] = len_start[L - 1] + count[L - 1]
    len_ids = np.empty(n, dtype=np.int64)
    fill = len_start.copy()
    for i in range(n):
        L = offsets[i + 1] - offsets[i]
        len_ids[fill[L]] = i
        fill[L] += 1
    block_start = np.zeros(maxlen + 2, dtype=np.int64)
    for L in range(maxlen + 1):
        nw = (count[L] + 63) // 64
        block_start[L + 1] = block_start[L] + L * n_letters * nw
    bits = np.zeros(block_start[maxlen + 1], dtype=np.uint64)
    for L in range(1, maxlen + 1):
        nw = (count[L] + 63) // 64
        for j in range(count[L]):
            w = len_ids[len_start[L] + j]
            a = offsets[w]
            word_bit = np.uint64(1) << np.uint64(j & 63)
            for p in range(L):
                bits[block_start[L] + (p * n_letters + np.int64(flat[a + p])) * nw + (j >> 6)] |= word_bit
    return bits, block_start, len_start, len_ids


@kernel
def bitset_match(bits, block_start, len_start, len_ids, flat, offsets, n_letters, allowed, from_rack, counts,
                 blanks, use_rack):
    """Words of length ``len(allowed)`` fitting the slot; returns ``(word indices, blank masks)``."""
    L = allowed.shape[0]
    if L >= len_start.shape[0] - 1:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.uint64)
    n_l = len_start[L + 1] - len_start[L]
    nw = (n_l + 63) // 64
    acc = np.empty(nw, dtype=np.uint64)
    for k in range(nw):
        acc[k] = np.uint64(0xFFFFFFFFFFFFFFFF)
    if nw > 0 and n_l & 63:
        acc[nw - 1] = (np.uint64(1) << np.uint64(n_l & 63)) - np.uint64(1)
    full = (np.int64(1) << n_letters) - 1
    rack_mask = np.int64(0)
    for c in range(n_letters):
        if counts[c] > 0:
            rack_mask |= np.int64(1) << c
    tmp = np.empty(nw, dtype=np.uint64)
    base = block_start[L]
    for p in range(L):
        m = np.int64(allowed[p]) & full
        if use_rack and from_rack[p] and blanks == 0:
            m &= rack_mask
        if m == full:
            continue
        if m == 0:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.uint64)
        if popcount(m) == 1:
            blk = base + (p * n_letters + lsb_index(m)) * nw
            for k in range(nw):
                acc[k] &= bits[blk + k]
        else:
            for k in range(nw):
                tmp[k] = 0
            mm = m
            while mm:
                c = lsb_index(mm)
                mm &= mm - 1
                blk = base + (p * n_letters + c) * nw
                for k in range(nw):
                    tmp[k] |= bits[blk + k]
            for k in range(nw):
                acc[k] &= tmp[k]
    n_hit = 0
    for k in range(nw):
        n_hit += popcount(acc[k])
    ids = np.empty(n_hit, dtype=np.int64)
    bms = np.empty(n_hit, dtype=np.uint64)
    cnt = np.empty(n_letters, dtype=np.int64)
    m_out = 0
    for k in range(nw):
        x = acc[k]
        while x:
            j = (k << 6) + lsb_index(x)
            x &= x - np.uint64(1)
            w = len_ids[len_start[L] + j]
            a = offsets[w]
            bm = np.uint64(0)
            if use_rack:
                for c in range(n_letters):
                    cnt[c] = counts[c]
                nb = blanks
                ok = True
                for p in range(L):
                    if from_rack[p]:
                        c = flat[a + p]
                        if cnt[c] > 0:
                            cnt[c] -= 1
                        elif nb > 0:
                            nb -= 1
                            bm |= np.uint64(1) << np.uint64(p)
                        else:
                            ok = False
                            break
                if not ok:
                    continue
            ids[m_out] = w
            bms[m_out] = bm
            m_out += 1
    return ids[:m_out].copy(), bms[:m_out].copy()
