"""Constants, board geometry and the tables the kernels read.

Defined once here: the board size, the empty-square code, column letters, the largest rack.

The span table (seed 001): for every 15-bit line occupancy, the valid spans by start square.
``span_ends[k, occ, s]`` is a 15-bit mask of the end squares ``e`` such that the span ``s..e`` of a line with
occupancy ``occ`` is a possible move for a rack of ``k`` tiles: length >= 2, not touching an occupied square
just outside it (the *wiggle* test: widening the span by one square each side adds no tile), and needing
between 1 and ``k`` new tiles. Connection (touching a tile or an anchor) depends on the neighbouring lines and
is tested per position by the generator: spans ending at or after the first connected square at or after
``s`` are kept. It depends on no lexicon and is built once per process.

Per-lexicon tables (the reach table, the whole-rack multiset bit set and the word map) are built once per
:class:`Lexicon` through ``Lexicon.derived`` (:func:`reach_for`, :func:`wtabs_for`).
"""
from __future__ import annotations

import threading

import numpy as np

from .._jit import inline, kernel, prefetch
from .._memory import on_huge_pages
from ..lexicon.cache import array_problem
from ..bits import popcount

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


def _build() -> np.ndarray:
    """The span table, in NumPy (vectorised over the occupancies: no kernel to compile on a first run)."""
    out = np.zeros((MAX_RACK + 1, N_LINES, SIZE), np.uint16)
    occ = np.arange(N_LINES, dtype=np.int32)
    full = N_LINES - 1
    for s in range(SIZE):
        for e in range(s + 1, SIZE):
            span = ((1 << (e + 1)) - 1) ^ ((1 << s) - 1)
            wig = ((span << 1) | (span >> 1) | span) & full
            # wiggle: widening the span adds no occupied square (so neither end touches a tile outside it)
            need = np.bitwise_count(~occ & span)  # new tiles the span needs
            ok = np.flatnonzero(((occ & wig) == (occ & span)) & (need >= 1) & (need <= MAX_RACK))
            out[need[ok], ok, s] |= np.uint16(1 << e)  # (no index twice: one e per call)
    for k in range(1, MAX_RACK + 1):  # a span needing k new tiles suits every rack of k or more
        out[k] |= out[k - 1]
    return out


def span_table() -> np.ndarray:
    """The ``(8, 32768, 15)`` uint16 table (built once per process, ~50 ms)."""
    global _TABLE
    if _TABLE is None:
        with _TABLE_LOCK:
            if _TABLE is None:
                _TABLE = on_huge_pages(_build())  # (read at random: see :mod:`numba_words._memory`)
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
    """The reach table of a :class:`~numba_words.lexicon.Lexicon` (built once per lexicon, ~10 ms and 6 MB for
    TWL06; kept in the disk cache, so that a process's first call need not compile its kernel)."""
    return lex.derived("scrabble.reach", lambda lx: reach_table(lx.dawg), persist=True, check=_check_reach)


def _check_reach(lex, reach) -> str | None:
    """What is wrong with a cached reach table (its values are letter masks, read through a mask of allowed
    letters: only the shape matters to memory safety)."""
    return array_problem(reach, np.uint32, (lex.dawg.shape[0], REACH_DEPTH), "reach table")


# Whole-rack filter: a bit set (one hash of each key) of the letter multisets of every word of 2..15 letters and
# of their sub-multisets one letter short (the word with one letter taken out; with one blank left on the rack,
# the tiles spell a word exactly when they are such a sub-multiset). A multiset's key is additive: the sum of one
# random 64-bit number per letter plus one per (length, short) tag, so a kernel adds a letter to a key in one
# step. Each key sets three bits of one 64-bit word (a blocked Bloom filter: one cache line a lookup). A multiset
# of no word finds all its bits set 0.7% of the time (TWL06: ~1 M keys in 2 ** 24 bits, 2 MB; it was one bit a key
# in 4 MB: 3%): the filter then keeps a span it could have dropped, which costs a word-map probe, never a play.
# (An exact hash set of the keys was 16 MB and each lookup a cache miss.)
MH_LETTERS = 32
MH_MAXLEN = 15
MSET_BITS = 24
_rng = np.random.default_rng(0x5C2AB8)
MSET_HASH = _rng.integers(1, 1 << 62, size=MH_LETTERS + 2 * (MH_MAXLEN + 1), dtype=np.int64)
"""Per letter code ``c`` the number ``MSET_HASH[c]``; per word length ``n`` and ``short`` (0 or 1) the tag
``MSET_HASH[32 + 2 * n + short]``."""
del _rng
_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)
_BIT_SHIFT = np.uint64(64 - (MSET_BITS - 6) - 18)  # a key's product: its word's index, then three 6-bit positions


@inline
def kadd(a, b):
    """``a + b`` for multiset keys (int64), wrapping modulo 2 ** 64. Numba's int64 arithmetic must not overflow
    (it is compiled as undefined on overflow, and the optimiser was seen to drop plays); uint64 wraps."""
    return np.int64(np.uint64(a) + np.uint64(b))


@inline
def ksub(a, b):
    """``a - b`` for multiset keys, wrapping modulo 2 ** 64 (see :func:`kadd`)."""
    return np.int64(np.uint64(a) - np.uint64(b))


@inline
def mset_tag(length, short):
    """The tag number of ``length``-letter words' multisets (``short`` = 0) or of their one-short subsets (1)."""
    return MSET_HASH[MH_LETTERS + 2 * length + short]


@inline
def _top(key, shift):
    """The top ``64 - shift`` bits of ``key * _HASH_MUL`` (the hash every filter and the word map index by)."""
    return np.int64((np.uint64(key) * _HASH_MUL) >> shift)


@inline
def _has_bits(tab, at, key, shift):
    """Whether the three bits of ``key`` are set in the word of ``tab`` that the key picks (a blocked Bloom filter:
    one cache line a lookup); ``h`` = the top bits of ``key * _HASH_MUL`` (``>> shift``): word ``at + (h >> 18)``,
    bits ``h >> 12``, ``h >> 6`` and ``h``, each ``& 63``."""
    h = _top(key, shift)
    bits = (np.int64(1) << ((h >> 12) & 63)) | (np.int64(1) << ((h >> 6) & 63)) | (np.int64(1) << (h & 63))
    return tab[at + (h >> 18)] & bits == bits


def _set_bits(tab, keys, shift) -> None:
    """Set the three bits of each of ``keys`` (uint64) in ``tab`` (uint64 words), as :func:`_has_bits` tests them."""
    h = (keys * _HASH_MUL) >> shift
    one = np.uint64(1)
    m = np.uint64(63)
    bits = (one << ((h >> np.uint64(12)) & m)) | (one << ((h >> np.uint64(6)) & m)) | (one << (h & m))
    np.bitwise_or.at(tab, (h >> np.uint64(18)).astype(np.int64), bits)


@inline
def mset_hint(tab, key):
    """Prefetch the word of ``tab`` that :func:`mset_has` reads for ``key``."""
    prefetch(tab, _top(key, _BIT_SHIFT) >> 18)


@inline
def mset_has(tab, key):
    """Whether the bits of ``key`` (made by adding letter numbers and a tag) are set in ``tab``: always for a
    word's multiset (or one-short subset), rarely otherwise."""
    return _has_bits(tab, 0, key, _BIT_SHIFT)


# Two-short filter, after the whole-rack bit set in the same array: the bits of every word's sub-multisets two
# letters short (key: their letter numbers + the tag ``mset_tag(length, 1)``), for racks with two blanks: a set of
# tiles + two blanks spells a word exactly when it is such a sub-multiset. TWL06: 2 ** 26 bits (8 MB), three bits a
# key as above: 0.2% of other keys find theirs set (8% with one bit a key).
MSET2_BITS = 26
_BIT2_SHIFT = np.uint64(64 - (MSET2_BITS - 6) - 18)
_MSET2_AT = 1 << (MSET_BITS - 6)  # the two-short bits' first word in the array


@inline
def mset2_has(tab, key):
    """Whether ``key`` (letter numbers + ``mset_tag(length, 1)``) may be a ``length``-letter word's multiset two
    letters short (always when it is one)."""
    return _has_bits(tab, _MSET2_AT, key, _BIT2_SHIFT)


def _two_short_bits(wlet, n) -> np.ndarray:
    """The two-short bit set of the words ``wlet`` (letter codes, lengths ``n``), in NumPy (~0.2 s for TWL06)."""
    h = MSET_HASH.view(np.uint64)
    tab = np.zeros(1 << (MSET2_BITS - 6), np.uint64)
    for ln in range(2, MH_MAXLEN + 1):
        sel = np.flatnonzero(n == ln)
        if not len(sel):
            continue
        lh = h[wlet[sel, :ln]]  # (words, ln)
        acc = lh.sum(axis=1, dtype=np.uint64) + h[MH_LETTERS + 2 * ln + 1]
        js, ks = np.triu_indices(ln, 1)
        _set_bits(tab, (acc[:, None] - lh[:, js] - lh[:, ks]).ravel(), _BIT2_SHIFT)
    return tab


def mset_table(lex, wmap=None) -> np.ndarray:
    """The whole-rack bit set of a lexicon (``int64``, ``2 ** MSET_BITS`` bits): the bits of the word map's keys,
    followed by the two-short bit set (:func:`mset2_has`); ``wmap``: the lexicon's :func:`wmap_table`, made when
    not given."""
    if wmap is None:
        wmap = wmap_table(lex)
    keys, wlet = np.ascontiguousarray(wmap[0][:, 0]), wmap[3]
    tab = np.zeros(1 << (MSET_BITS - 6), np.uint64)
    _set_bits(tab, keys.view(np.uint64), _BIT_SHIFT)
    lens = np.diff(lex.offsets)
    n = lens[(lens >= 2) & (lens <= MH_MAXLEN)]  # the lengths of the words of ``wlet``, in its order
    return np.concatenate([tab, _two_short_bits(wlet, n)]).view(np.int64)


# Word map: the words of 2..15 letters by letter multiset, for the whole-rack end of a span (the multiset is
# fixed there but for the blanks' letters). Keys as in the whole-rack bit set: a word's multiset with tag
# (length, 0) and, once per distinct letter, the multiset one letter short with tag (length, 1). Entries sorted
# by ``key * _HASH_MUL`` (a bijection of 64-bit keys, so equal keys are adjacent); ``wdir[b]`` is the first entry
# of bucket ``b`` (the top WMAP_BITS bits of that product). An entry is one row of three int64: the key and the
# word's letters, one byte each (letter ``q`` in byte ``q % 8`` of column ``1 + q // 8``), so that a lookup reads
# the key and its words' letters from adjacent memory (with the letters apart, each word was one more cache miss).
# Word ids (``wids``, per entry) number the words in DAWG order (alphabetical); ``wlet[id]`` holds the letters.
# TWL06: 1.46 M entries, 35 MB.
WMAP_BITS = 20
_WMAP_SHIFT = np.uint64(64 - WMAP_BITS)


def _wmap_entries(flat, offsets) -> tuple:
    """``(wlet, keys, wids)``: the words of 2..15 letters of a lexicon's word arrays (``flat`` letter codes,
    ``offsets``; words in DAWG order) and the entries in word order: each word's multiset key, then, once per
    distinct letter in the order the letters first appear, its one-short key. In NumPy (no kernel to compile on a
    first run; ~0.2 s for TWL06)."""
    lens = np.diff(offsets)
    sel = (lens >= 2) & (lens <= MH_MAXLEN)
    first_letter = offsets[:-1][sel]
    n = lens[sel]
    cols = np.arange(MH_MAXLEN)
    inside = cols[None, :] < n[:, None]
    wlet = np.zeros((n.shape[0], SIZE), np.uint8)
    let = wlet[:, :MH_MAXLEN]
    let[inside] = flat[(first_letter[:, None] + cols[None, :])[inside]]
    h = MSET_HASH.view(np.uint64)
    lh = np.where(inside, h[let], np.uint64(0))
    acc = lh.sum(axis=1, dtype=np.uint64)  # (uint64 sums wrap modulo 2 ** 64, as kadd does)
    ent = np.empty((n.shape[0], MH_MAXLEN + 1), np.uint64)
    ent[:, 0] = acc + h[MH_LETTERS + 2 * n]
    ent[:, 1:] = (acc + h[MH_LETTERS + 2 * n + 1])[:, None] - lh
    keep = np.empty(ent.shape, bool)
    keep[:, 0] = True
    new = inside.copy()  # the letter's first place in its word
    for j in range(1, MH_MAXLEN):
        for k in range(j):
            new[:, j] &= let[:, j] != let[:, k]
    keep[:, 1:] = new
    return wlet, ent[keep].view(np.int64), np.repeat(np.arange(n.shape[0], dtype=np.int32), keep.sum(axis=1))


def wmap_table(lex) -> tuple:
    """The word map of a lexicon: ``(entries int64 (n, 3), wids int32, wdir int32, wlet uint8 (words, 15))`` (see
    above)."""
    wlet, keys, wids = _wmap_entries(lex.flat, lex.offsets)
    h = keys.view(np.uint64) * _HASH_MUL
    order = np.argsort(h, kind="stable")
    h = h[order]
    wdir = np.searchsorted(h >> _WMAP_SHIFT, np.arange((1 << WMAP_BITS) + 1, dtype=np.uint64)).astype(np.int32)
    wids = np.ascontiguousarray(wids[order])
    padded = np.zeros((wlet.shape[0], 16), np.uint8)
    padded[:, :SIZE] = wlet
    ent = np.empty((keys.shape[0], 3), np.int64)
    ent[:, 0] = keys[order]
    ent[:, 1:] = padded.view("<i8")[wids]
    return ent, wids, wdir, wlet


@inline
def wmap_letter(ent, j, q):
    """Letter ``q`` of the word of word-map entry ``j``."""
    return (ent[j, 1 + (q >> 3)] >> (8 * (q & 7))) & 255


@inline
def wmap_bucket(wdir, key):
    """``(lo, hi)``: the entries of the word map's directory bucket of ``key`` (to narrow with
    :func:`wmap_find`; a caller with many keys reads their buckets first, so that the loads overlap)."""
    b = _top(key, _WMAP_SHIFT)
    return np.int64(wdir[b]), np.int64(wdir[b + 1])


@inline
def wmap_hint(wdir, key):
    """Prefetch the word map's directory entry of ``key`` (see :func:`wmap_bucket`)."""
    prefetch(wdir, _top(key, _WMAP_SHIFT))


@inline
def wmap_find(ent, lo, hi, key):
    """``(lo, hi)``: the entries with ``key`` among ``lo..hi-1``, those of its bucket (empty when none)."""
    while lo < hi and ent[lo, 0] != key:
        lo += 1
    j = lo
    while j < hi and ent[j, 0] == key:
        j += 1
    return lo, j


@inline
def wmap_range(ent, wdir, key):
    """``(lo, hi)``: the entries ``lo..hi-1`` of the word map with ``key`` (empty when none)."""
    lo, hi = wmap_bucket(wdir, key)
    return wmap_find(ent, lo, hi, key)


def _wtabs(lex) -> tuple:
    wmap = wmap_table(lex)
    return (mset_table(lex, wmap),) + wmap


def wtabs_for(lex) -> tuple:
    """What the generator reads for whole-rack ends: ``(mset bit set, *word map)`` of a lexicon (built once per
    lexicon, ~0.3 s and 22 MB for TWL06)."""
    return lex.derived("scrabble.wtabs", _wtabs, persist=True, check=_check_wtabs)


def _check_wtabs(lex, t) -> str | None:
    """What is wrong with cached whole-rack tables: shapes and dtypes, the word map's directory (ascending, from
    0 to the entry count: kernels scan ``ent[wdir[b]:wdir[b + 1]]``), word ids below the word count and the word
    letters ``wlet`` below the alphabet's size (kernels index per-letter arrays with them)."""
    if type(t) is not tuple or len(t) != 5:
        return "not the five whole-rack arrays"
    mset, ent, wids, wdir, wlet = t
    lens = np.diff(lex.offsets)
    n_words = int(np.count_nonzero((lens >= 2) & (lens <= MH_MAXLEN)))
    n = ent.shape[0] if isinstance(ent, np.ndarray) and ent.ndim == 2 else -1
    for a, dtype, shape, what in ((mset, np.int64, ((1 << (MSET_BITS - 6)) + (1 << (MSET2_BITS - 6)),), "bit set"),
                                  (ent, np.int64, (n, 3), "word map"), (wids, np.int32, (n,), "word ids"),
                                  (wdir, np.int32, ((1 << WMAP_BITS) + 1,), "word map directory"),
                                  (wlet, np.uint8, (n_words, SIZE), "word letters")):
        problem = array_problem(a, dtype, shape, what)
        if problem:
            return problem
    if wdir[0] != 0 or wdir[-1] != n or np.any(wdir[1:] < wdir[:-1]):
        return "the word map's directory is not ascending from 0 to the entry count"
    if n and (int(wids.min()) < 0 or int(wids.max()) >= n_words):
        return "a word id outside the word list"
    if wlet.size and int(wlet.max()) >= len(lex.alphabet):
        return "a letter code outside the alphabet"
    # (the entries' copies of the letters are bound to what was written by the file's seal: a byte-wise check of
    # TWL06's 23 MB took 11-38 ms, a tenth of the table's load)
    return None


# Substring table (in-line checks): every substring of every word (TWL06: 1.06 M), each with the letters that can
# come before it and after it in some word, in an open-addressing hash table keyed by a 64-bit hash of the string.
# An empty square next to a run of tiles in its line takes only a letter ``c`` such that (run on the left) + c +
# (run on the right) is a substring of a word: the cross-checks (:mod:`._cross`) hold that beside the
# perpendicular word's check, so that no walk or bound spends time on spans no word can fill. Two strings of one
# hash share an entry (their letters merged): a check can only let more letters through, never drop a play.
SUB_P = np.int64(0x100000001B3)
"""The polynomial hash's base: ``h(s) = sum((s[k] + 1) * SUB_P ** k)`` (wrapping 64-bit arithmetic)."""
SUB_POW = np.array([SUB_P ** k for k in range(SIZE + 2)], np.int64)  # (numpy wraps the powers as the kernels do)


@inline
def sub_key(h, n):
    """The table key of a string of hash ``h`` and length ``n`` (never 0, the empty slot)."""
    x = (h ^ (n * np.int64(0x2545F4914F6CDD1D))) * np.int64(-7046029254386353131)
    x ^= (x >> 29) & np.int64(0x7FFFFFFFF)
    return x | 1


@inline
def sub_find(keys, masks, h, n):
    """``(found, entry)`` of the string of hash ``h`` and length ``n``: whether it is in a word, and bits 0-31 the
    letters that can come before it in a word, 32-63 those after it (0 when it is in none)."""
    size = keys.shape[0]
    key = sub_key(h, n)
    slot = (key >> 20) & (size - 1)
    while True:
        k = keys[slot]
        if k == key:
            return True, masks[slot]
        if k == 0:
            return False, np.int64(0)
        slot = (slot + 1) & (size - 1)


@kernel
def _sub_insert_all(flat, offsets, keys, masks):
    """Insert every substring of every word; returns the number of entries, or -1 when the table got more than
    0.6 full (the caller doubles it)."""
    size = keys.shape[0]
    n_ent = 0
    for w in range(offsets.shape[0] - 1):
        a0 = offsets[w]
        n = offsets[w + 1] - a0
        for a in range(n):
            h = np.int64(0)
            for b in range(a + 1, min(n, a + SIZE) + 1):  # (no longer string fits on a line)
                h += (np.int64(flat[a0 + b - 1]) + 1) * SUB_POW[b - 1 - a]
                key = sub_key(h, b - a)
                add = np.int64(0)
                if a > 0:
                    add |= np.int64(1) << np.int64(flat[a0 + a - 1])
                if b < n:
                    add |= np.int64(1) << (32 + np.int64(flat[a0 + b]))
                slot = (key >> 20) & (size - 1)
                while keys[slot] != 0 and keys[slot] != key:
                    slot = (slot + 1) & (size - 1)
                if keys[slot] == 0:
                    keys[slot] = key
                    masks[slot] = add
                    n_ent += 1
                    if n_ent * 10 > size * 6:
                        return -1
                else:
                    masks[slot] |= add
    return n_ent


def sub_table(lex) -> tuple:
    """``(keys, masks)``: the substring table of a lexicon (see above; TWL06: 2 ** 21 slots, 32 MB, ~0.5 s)."""
    flat = np.ascontiguousarray(lex.flat)
    offsets = np.ascontiguousarray(lex.offsets, dtype=np.int64)
    n = np.diff(offsets)
    size = 1 << 16  # (about one distinct substring in eight: start where that fills 0.6 of the table)
    while size * 6 * 8 < int((n * (n + 1) // 2).sum()) * 10:
        size *= 2
    while True:
        keys = np.zeros(size, np.int64)
        masks = np.zeros(size, np.int64)
        if _sub_insert_all(flat, offsets, keys, masks) >= 0:
            return keys, masks
        size *= 2


def sub_for(lex) -> tuple:
    """The substring table of a lexicon, built once (kept in the disk cache)."""
    return lex.derived("scrabble.substrings", sub_table, persist=True, check=_check_sub)


def _check_sub(lex, t) -> str | None:
    """What is wrong with a cached substring table: two int64 arrays of one power-of-two size with an empty slot
    (:func:`sub_find` probes until it meets the key or an empty slot; the masks are letter sets, read through
    masks of allowed letters)."""
    if type(t) is not tuple or len(t) != 2:
        return "not the substring table's two arrays"
    keys, masks = t
    size = keys.shape[0] if isinstance(keys, np.ndarray) else 0
    for a, what in ((keys, "substring keys"), (masks, "substring masks")):
        problem = array_problem(a, np.int64, (size,), what)
        if problem:
            return problem
    if size < 2 or size & (size - 1) or np.count_nonzero(keys) == size:
        return "the substring table is not a power-of-two size with an empty slot"
    return None
