"""A deliberately simple letter-grid solver: the truth the Numba kernels are checked against.

No bitboards, no DAWG: a Python set of every prefix of every word, plain recursion over tiles, neighbours
written out from the geometry rule in the issue. Slow (about a board a second), obviously correct.
"""
from __future__ import annotations


def bookworm_neighbours():
    """``{(c, r): set of (c, r)}`` straight from the rule: same column r±1; even c also (c±1, r), (c±1, r+1);
    odd c also (c±1, r-1), (c±1, r)."""
    heights = [7, 8, 7, 8, 7, 8, 7]
    tiles = [(c, r) for c in range(7) for r in range(heights[c])]
    on = set(tiles)
    out = {}
    for c, r in tiles:
        if c % 2 == 0:
            near = [(c, r - 1), (c, r + 1), (c - 1, r), (c + 1, r), (c - 1, r + 1), (c + 1, r + 1)]
        else:
            near = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c + 1, r - 1), (c - 1, r), (c + 1, r)]
        out[(c, r)] = {x for x in near if x in on}
    return tiles, out


def boggle_neighbours(rows, cols):
    tiles = [(r, c) for r in range(rows) for c in range(cols)]
    out = {}
    for r, c in tiles:
        out[(r, c)] = {(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1)
                       if (a, b) != (0, 0) and 0 <= r + a < rows and 0 <= c + b < cols}
    return tiles, out


class Reference:
    def __init__(self, words, min_len=3, max_len=12):
        self.words = {w.lower() for w in words}
        self.prefixes = {w[:i] for w in self.words for i in range(1, len(w) + 1)}
        self.min_len = min_len
        self.max_len = max_len

    def solve(self, letters, neighbours):
        """``letters``: ``{tile: str}`` (``"qu"`` for the Qu tile); returns ``{word: set of paths}`` would be
        too big, so ``{word: one path}`` plus every path in ``all_paths`` when asked."""
        found = {}

        def walk(tile, path, text):
            if text not in self.prefixes:
                return
            if self.min_len <= len(text) <= self.max_len and text in self.words:
                found.setdefault(text, []).append(tuple(path))
            if len(text) >= self.max_len:
                return
            for nxt in neighbours[tile]:
                if nxt not in path:
                    walk(nxt, path + [nxt], text + letters[nxt])

        for t in letters:
            walk(t, [t], letters[t])
        return found


def bookworm_letters(columns):
    """``{(c, r): letters}`` from 7 column strings bottom to top (``q`` is Qu)."""
    return {(c, r): ("qu" if ch == "q" else ch) for c, col in enumerate(columns) for r, ch in enumerate(col)}


def boggle_letters(rows_text):
    return {(r, c): ("qu" if ch == "q" else ch) for r, row in enumerate(rows_text) for c, ch in enumerate(row)}
