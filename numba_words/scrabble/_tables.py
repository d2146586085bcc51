"""Constants, board geometry and the tables the kernels read.

Defined once here: the board size, the empty-square code, column letters, the largest rack.

The span table (seed 001): for every 15-bit line occupancy, the valid spans by start square.
``span_ends[k, occ, s]`` is a 15-bit mask of the end squares ``e`` such that the span ``s..e`` of a line with
occupancy ``occ`` is a possible move for a rack of ``k`` tiles: length >= 2, not touching an occupied square
just outside it (the *wiggle* test: widening the span by one square each side adds no tile), and needing
between 1 and ``k`` new tiles. Connection (touching a tile or an anchor) depends on the neighbouring lines and
is tested per position by the generator: spans ending at or after the first connected square at or after
``s`` are kept. It depends on no lexicon and is built once per process.

Per-lexicon tables (the reach table and the bingo hash set) are built once per :class:`Lexicon` through
``Lexicon.derived`` (:func:`reach_for`, :func:`bingo_for`).
"""
from __future__ import annotations

import threading

import numpy as np

from .._jit import kernel
from ..bits import lsb_index, popcount

SIZE = 15
"""Squares per side of every board."""
CENTRE = SIZE // 2
EMPTY = 255
"""Letter code of an empty square in the ``uint8`` letter arrays."""
COLS = "ABCDEFGHIJKLMNO"
"""Column letters, left to right."""
N_LINES = 1 << SIZE
MAX_RACK = 7
"""The largest rack any variant may have (the span table and the kernels' fixed arrays are sized for it)."""
N_CODES = 32
"""Length of the per-letter arrays (rack counts, letter values): every alphabet has at most 32 letters."""

_TABLE = None
_TABLE_LOCK = threading.Lock()


@kernel
def _build(out):
    """Fill ``out`` (zeros of shape ``(max_rack + 1, 2 ** size, size)``; allocated by the caller, which keeps
    ``np.zeros`` out of the kernels to compile)."""
    size = out.shape[2]
    n = out.shape[1]
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
                for k in range(empties, out.shape[0]):
                    out[k, occ, s] |= np.uint16(1 << e)


def span_table() -> np.ndarray:
    """The ``(8, 32768, 15)`` uint16 table (built once per process, ~20 ms)."""
    global _TABLE
    if _TABLE is None:
        with _TABLE_LOCK:
            if _TABLE is None:
                out = np.zeros((MAX_RACK + 1, N_LINES, SIZE), np.uint16)
                _build(out)
                _TABLE = out
    return _TABLE


def span_list(occ: int, k: int = MAX_RACK) -> list:
    """The table entry for one line as a list of ``(start, end)`` spans (for tests and docs)."""
    t = span_table()
    return [(s, e) for s in range(SIZE) for e in range(SIZE) if (int(t[k, occ, s]) >> e) & 1]


REACH_DEPTH = 8


def reach_table(dawg) -> np.ndarray:
    """``reach[o, j]`` = letters that can label the ``j``-th edge of a path from the DAWG node at offset ``o``
    (``j = 1``: its children; 0 elsewhere). The generator uses it to drop a prefix before the first square a
    play must cover when no path of the right length reaches a letter allowed there."""
    reach = np.zeros((dawg.shape[0], REACH_DEPTH), np.uint32)
    _fill_reach(dawg, reach)
    return reach


@kernel
def _fill_reach(dawg, reach):
    """Nodes are stored one after another (mask, then one edge per child), so one pass per depth over the
    array fills the table."""
    n = dawg.shape[0]
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


def reach_for(lex) -> np.ndarray:
    """The reach table of a :class:`~numba_words.lexicon.Lexicon` (built once per lexicon, ~10 ms for TWL06)."""
    return lex.derived("scrabble.reach", lambda lx: reach_table(lx.dawg))


# Bingo filter: hash set of the letter multisets (sorted codes, 5 bits each, under a tag) of the 7- to 11-letter
# words (tags 0, 1, 4, 6, 8) and of their sub-multisets one letter short (tags 2, 3, 5, 7, 9: with one blank on
# the rack, rack + blank spells a word exactly when the rack's real tiles are such a sub-multiset). Empty slot: -1.
BINGO_MAX = 11  # 11 codes and a tag below 16 fit an int64 key


@kernel
def bingo_tag(length, sub):
    """Tag of the multisets of ``length``-letter words (7..11), or of their one-short subsets with ``sub``."""
    if length <= 8:
        return length - 7 + 2 * sub
    return 2 * (length - 7) + sub

BINGO_EMPTY = np.int64(-1)
_HASH_MUL = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64


@kernel
def bingo_key(tag, codes, n):
    """Key of the multiset ``codes[:n]`` (letter codes < 32, sorted ascending) under ``tag``."""
    k = np.int64(tag)
    for j in range(n):
        k = (k << 5) | np.int64(codes[j])
    return k


@kernel
def _bingo_slot(tab, key):
    """Slot of ``key`` in the hash set ``tab`` (size a power of two, linear probing), or of the empty slot
    where it would go."""
    mask = tab.shape[0] - 1
    bits = np.int64(popcount(mask))
    h = ((key * _HASH_MUL) >> (64 - bits)) & mask
    while tab[h] != key and tab[h] != BINGO_EMPTY:
        h = (h + 1) & mask
    return h


@kernel
def bingo_has(tab, key):
    """Whether ``key`` is in the hash set ``tab``."""
    return tab[_bingo_slot(tab, key)] == key


@kernel
def _bingo_insert(tab, key):
    tab[_bingo_slot(tab, key)] = key


@kernel
def _bingo_words(dawg, count_only, out):
    """The 7- to 11-letter words of a DAWG (depth-first, explicit stack of 11 levels: the longest word kept),
    written as rows ``(length, 11 codes)`` of ``out`` unless ``count_only``. Returns how many there are."""
    node = np.zeros(BINGO_MAX + 1, np.int64)
    kid = np.zeros(BINGO_MAX + 1, np.int64)  # index of the next child to try at each level
    path = np.zeros(BINGO_MAX + 1, np.int64)
    n = 0
    dep = 0
    node[0] = 0
    kid[0] = 0
    while dep >= 0:
        o = node[dep]
        m = np.int64(dawg[o])
        k = kid[dep]
        if k >= popcount(m):
            dep -= 1
            continue
        kid[dep] = k + 1
        # letter of the k-th child: the k-th set bit of m
        mm = m
        for _ in range(k):
            mm &= mm - 1
        c = lsb_index(mm)
        e = np.int64(dawg[o + 1 + k])
        path[dep] = c
        ln = dep + 1
        if (e & 1) and 7 <= ln <= BINGO_MAX:
            if not count_only:
                out[n, 0] = ln
                for j in range(ln):
                    out[n, 1 + j] = path[j]
            n += 1
        if ln < BINGO_MAX and (e >> 1) != 0:
            dep += 1
            node[dep] = e >> 1
            kid[dep] = 0
    return n


@kernel
def bingo_table(dawg):
    """The bingo hash set of a DAWG (see ``BINGO_EMPTY``)."""
    nw = _bingo_words(dawg, True, np.zeros((1, BINGO_MAX + 1), np.int64))
    words = np.zeros((max(nw, 1), BINGO_MAX + 1), np.int64)
    _bingo_words(dawg, False, words)
    size = 16
    while size < 2 * (BINGO_MAX + 1) * nw:  # room for every key; rebuilt below at twice the keys' count
        size *= 2
    tab = _bingo_fill(words, nw, size)
    nk = 0
    for h in range(size):
        nk += tab[h] != BINGO_EMPTY
    size = 16
    while size < 2 * nk:
        size *= 2
    return _bingo_fill(words, nw, size)


@kernel
def _bingo_fill(words, nw, size):
    tab = np.full(size, BINGO_EMPTY, np.int64)
    c = np.zeros(BINGO_MAX, np.int64)
    sub = np.zeros(BINGO_MAX, np.int64)
    for w in range(nw):
        ln = words[w, 0]
        for j in range(ln):
            c[j] = words[w, 1 + j]
        c[:ln].sort()
        _bingo_insert(tab, bingo_key(bingo_tag(ln, 0), c, ln))
        for j in range(ln):
            if j > 0 and c[j] == c[j - 1]:
                continue
            t = 0
            for q in range(ln):
                if q != j:
                    sub[t] = c[q]
                    t += 1
            _bingo_insert(tab, bingo_key(bingo_tag(ln, 1), sub, ln - 1))
    return tab


def bingo_for(lex) -> np.ndarray:
    """The bingo hash set of a :class:`~numba_words.lexicon.Lexicon` (built once per lexicon)."""
    return lex.derived("scrabble.bingo", lambda lx: bingo_table(lx.dawg))
