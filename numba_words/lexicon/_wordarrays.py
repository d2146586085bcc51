"""Word lists as ``(flat, offsets)`` arrays: splitting text into words, sorting, deduplicating, gathering.

Plain NumPy, no kernels: each runs once per lexicon build or per query result, in a few milliseconds for
TWL06, and NumPy costs no compile time on a machine's first run. Word ``i`` is ``flat[offsets[i]:offsets[i+1]]``
(letter indices, ``uint8``).
"""
from __future__ import annotations

import numpy as np

NEWLINE, SPACE = -1, -2  # mapped code points (see Alphabet.map_codepoints); other negatives are invalid


def split_lines(mapped: np.ndarray, max_bad: int):
    """Split mapped code points (letter index, -1 newline, -2 space, -3 invalid) into words.

    Returns ``(flat uint8, offsets int64, bad_lines int64[:n_bad_kept], n_bad, n_lines)``: blank lines are
    skipped; a line with an invalid character or an inner space is bad (1-based line numbers, the first
    ``max_bad`` kept); a final newline ends the last line rather than starting an empty one.
    """
    mapped = np.asarray(mapped)
    n = mapped.shape[0]
    is_nl = mapped == NEWLINE
    n_lines = int(np.count_nonzero(is_nl)) + (1 if n and not is_nl[-1] else 0)
    line = np.cumsum(is_nl) - is_nl  # line (0-based) of every code point, a newline in the line it ends
    solid = np.flatnonzero(~is_nl & (mapped != SPACE))  # letters and invalid characters
    if not solid.size:
        return np.zeros(0, np.uint8), np.zeros(1, np.int64), np.zeros(0, np.int64), 0, n_lines
    lines = line[solid]
    starts = np.flatnonzero(np.r_[True, lines[1:] != lines[:-1]])
    ids = lines[starts]  # the non-blank lines, in order
    counts = np.diff(np.r_[starts, solid.size])
    first = solid[starts]
    last = solid[np.r_[starts[1:], solid.size] - 1]
    invalid = np.zeros(n_lines, dtype=bool)
    invalid[line[mapped < SPACE]] = True
    ok = (last - first + 1 == counts) & ~invalid[ids]  # no inner space, no invalid character
    bad = ids[~ok] + 1
    keep = np.repeat(ok, counts)
    flat = mapped[solid[keep]].astype(np.uint8)
    offsets = np.zeros(int(ok.sum()) + 1, dtype=np.int64)
    np.cumsum(counts[ok], out=offsets[1:])
    return flat, offsets, bad[:max_bad].astype(np.int64), int(bad.size), n_lines


def gather_words(flat: np.ndarray, offsets: np.ndarray, order: np.ndarray):
    """Words ``order[0], order[1], ...`` as new ``(flat, offsets)``."""
    order = np.asarray(order, dtype=np.int64)
    start = offsets[order]
    lengths = offsets[order + 1] - start
    offs = np.zeros(order.shape[0] + 1, dtype=np.int64)
    np.cumsum(lengths, out=offs[1:])
    idx = np.arange(offs[-1], dtype=np.int64) + np.repeat(start - offs[:-1], lengths)
    return flat[idx], offs


def reverse_words(flat: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Every word spelled backwards (the offsets stay the same)."""
    lengths = np.diff(offsets)
    return flat[np.repeat(offsets[:-1] + offsets[1:] - 1, lengths) - np.arange(flat.shape[0], dtype=np.int64)]


def padded(flat: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """One row per word, letters shifted up by one and zero-padded: rows compare as the words sort."""
    lengths = np.diff(offsets)
    n = lengths.shape[0]
    out = np.zeros((n, int(lengths.max()) if n else 0), dtype=np.uint8)
    rows = np.repeat(np.arange(n), lengths)
    out[rows, np.arange(flat.shape[0]) - offsets[rows]] = flat + 1
    return out


def _keys(flat, offsets) -> np.ndarray:
    """The words as fixed-width byte strings that compare (``<``, ``==``) as the words sort."""
    p = padded(flat, offsets)
    return np.ascontiguousarray(p).view(f"S{p.shape[1]}").ravel() if p.size else np.zeros(p.shape[0], "S1")


def sorted_status(flat: np.ndarray, offsets: np.ndarray) -> int:
    """0: strictly increasing (sorted, no duplicates); 1: sorted with duplicates; 2: not sorted."""
    k = _keys(flat, offsets)
    if (k[1:] < k[:-1]).any():
        return 2
    return 1 if (k[1:] == k[:-1]).any() else 0


def dedupe_sorted(flat: np.ndarray, offsets: np.ndarray):
    """Drop repeated words from a sorted list; returns new ``(flat, offsets)``."""
    k = _keys(flat, offsets)
    return gather_words(flat, offsets, np.flatnonzero(np.r_[True, k[1:] != k[:-1]]))


def sort_words(flat: np.ndarray, offsets: np.ndarray):
    """The words in sorted order (duplicates kept) as new ``(flat, offsets)``."""
    return gather_words(flat, offsets, np.argsort(_keys(flat, offsets), kind="stable"))
