"""The span table of seed 001: for every 15-bit line occupancy, the valid spans by start square.

``span_ends[k, occ, s]`` is a 15-bit mask of the end squares ``e`` such that the span ``s..e`` of a line with
occupancy ``occ`` is a possible move for a rack of ``k`` tiles: length >= 2, not touching an occupied square
just outside it (the *wiggle* test: widening the span by one square each side adds no tile), and needing
between 1 and ``k`` new tiles. Connection (touching a tile or an anchor) depends on the neighbouring lines and
is tested per position by the generator: spans ending at or after the first connected square at or after
``s`` are kept.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import popcount

SIZE = 15
N_LINES = 1 << SIZE
MAX_RACK = 7

_TABLE = None


@kernel
def _build(size, max_rack):
    n = 1 << size
    out = np.zeros((max_rack + 1, n, size), dtype=np.uint16)
    full = (1 << size) - 1
    for occ in range(n):
        for s in range(size):
            if s > 0 and (occ >> (s - 1)) & 1:
                continue
            empties = 0
            for e in range(s, size):
                if (occ >> e) & 1 == 0:
                    empties += 1
                if e == s:
                    continue
                span = ((1 << (e + 1)) - 1) ^ ((1 << s) - 1)
                wig = ((span << 1) | (span >> 1) | span) & full
                # wiggle: widening the span adds no occupied square
                if (wig & occ) != (span & occ):
                    continue
                if empties < 1:
                    continue
                for k in range(empties, max_rack + 1):
                    out[k, occ, s] |= np.uint16(1 << e)
    return out


def span_table() -> np.ndarray:
    """The ``(8, 32768, 15)`` uint16 table (built once per process, ~0.1 s)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _build(SIZE, MAX_RACK)
    return _TABLE


def span_list(occ: int, k: int = MAX_RACK) -> list:
    """The table entry for one line as a list of ``(start, end)`` spans (for tests and docs)."""
    t = span_table()
    return [(s, e) for s in range(SIZE) for e in range(SIZE) if (int(t[k, occ, s]) >> e) & 1]


REACH_DEPTH = 8


@kernel
def reach_table(dawg):
    """``reach[o, j]`` = letters that can label the ``j``-th edge of a path from the DAWG node at offset ``o``
    (``j = 1``: its children; 0 elsewhere). The generator uses it to drop a prefix before the first square a
    play must cover when no path of the right length reaches a letter allowed there. Nodes are stored one
    after another (mask, then one edge per child), so one pass per depth over the array fills the table."""
    n = dawg.shape[0]
    reach = np.zeros((n, REACH_DEPTH), np.uint32)
    o = 0
    while o < n:
        m = np.int64(dawg[o])
        reach[o, 1] = np.uint32(m)
        o += 1 + popcount(m)
    for j in range(2, REACH_DEPTH):
        o = 0
        while o < n:
            m = np.int64(dawg[o])
            k = popcount(m)
            r = np.uint32(0)
            for t in range(k):
                child = np.int64(dawg[o + 1 + t]) >> 1  # a leaf child is a node with mask 0
                r |= reach[child, j - 1]
            reach[o, j] = r
            o += 1 + k
    return reach


_REACH: dict = {}


def reach_for(dawg: np.ndarray) -> np.ndarray:
    """The reach table of a DAWG array (computed once per array, ~10 ms for TWL06)."""
    key = (id(dawg), dawg.shape[0])
    hit = _REACH.get(key)
    if hit is None or hit[0] is not dawg:
        hit = (dawg, reach_table(dawg))
        _REACH[key] = hit
        while len(_REACH) > 4:  # keep the tables of the last few lexicons only
            del _REACH[next(iter(_REACH))]
    return hit[1]
