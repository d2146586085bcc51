"""The plain-Python letter-grid solver: the truth the kernels are tested against, and the baseline the
benchmarks and the tour measure in the same run.

Deliberately simple: no bitboards, no DAWG, no Numba. A Python set of every prefix of every word, plain
recursion over tiles, neighbours written out from the geometry rules (not read from :mod:`._tables`), and the
score formula spelled out. Slow (tens of boards a second), obviously correct.
"""
from __future__ import annotations

BOOKWORM_HEIGHTS = (7, 8, 7, 8, 7, 8, 7)


def bookworm_neighbours():
    """``(tiles, {(c, r): set of (c, r)})`` straight from the rule: same column r±1; even c also (c±1, r),
    (c±1, r+1); odd c also (c±1, r-1), (c±1, r). Tiles are column by column, each bottom to top."""
    tiles = [(c, r) for c in range(7) for r in range(BOOKWORM_HEIGHTS[c])]
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
    """``(tiles, {(r, c): set of (r, c)})``: the up to 8 squares around each square, row-major tiles."""
    tiles = [(r, c) for r in range(rows) for c in range(cols)]
    out = {}
    for r, c in tiles:
        out[(r, c)] = {(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1)
                       if (a, b) != (0, 0) and 0 <= r + a < rows and 0 <= c + b < cols}
    return tiles, out


def neighbour_lists(grid):
    """Neighbour lists by tile index, from a grid's own coordinates and the rules above."""
    if grid.kind == "bookworm":
        tiles, nbrs = bookworm_neighbours()
    else:
        tiles, nbrs = boggle_neighbours(*grid.shape)
    index = {xy: i for i, xy in enumerate(tiles)}
    return [sorted(index[x] for x in nbrs[xy]) for xy in tiles]


def bookworm_letters(columns):
    """``{(c, r): letters}`` from 7 column strings bottom to top (``q`` is Qu, ``.`` an empty square)."""
    return {(c, r): _letters(ch) for c, col in enumerate(columns) for r, ch in enumerate(col)}


def boggle_letters(rows_text):
    """``{(r, c): letters}`` from row strings top to bottom."""
    return {(r, c): _letters(ch) for r, row in enumerate(rows_text) for c, ch in enumerate(row)}


def _letters(ch):
    return "qu" if ch == "q" else "" if ch in "._" else ch


def bookworm_score(values, letters, bonuses, level=1, multiplier=10):
    """Bookworm Deluxe: ``(level + sum of letter values) * (letters + sum of gem bonuses) * 10``."""
    return (level + sum(values)) * (letters + sum(bonuses)) * multiplier


def boggle_points(word):
    """Standard Boggle points of a word (its letters, Qu counting 2): 3-4 letters 1, 5 -> 2, 6 -> 3, 7 -> 5,
    8 and longer 11, shorter 0."""
    n = len(word)
    return 0 if n < 3 else 1 if n <= 4 else {5: 2, 6: 3, 7: 5}.get(n, 11)


class Reference:
    """Every word of ``min_len``..``max_len`` letters (Qu counts 2) a chain of distinct adjacent tiles spells.

    ``solve(letters, neighbours)``: ``letters`` maps a tile to its letters (a dict, or a list by tile index;
    ``"qu"`` for the Qu tile, ``""`` for an empty square), ``neighbours`` a tile to its neighbours. Returns
    ``{word: first path found}``, or with ``all_paths=True`` ``{word: [every path]}``.
    """

    def __init__(self, words, min_len=3, max_len=12):
        self.words = {w.lower() for w in words if len(w) <= max_len}
        self.prefixes = prefixes = set()
        for w in self.words:  # longest prefix first: once one is known, so are all shorter ones
            for i in range(len(w), 0, -1):
                if w[:i] in prefixes:
                    break
                prefixes.add(w[:i])
        self.min_len, self.max_len = min_len, max_len

    @classmethod
    def for_lexicon(cls, lexicon, min_len=3, max_len=12):
        return cls(lexicon.words, min_len, max_len)

    def solve(self, letters, neighbours, all_paths=False) -> dict:
        found = {}
        prefixes, words, lo, hi = self.prefixes, self.words, self.min_len, self.max_len
        tiles = letters.keys() if isinstance(letters, dict) else range(len(letters))

        def walk(t, path, text):
            if text not in prefixes:
                return
            if lo <= len(text) and text in words:
                if all_paths:
                    found.setdefault(text, []).append(tuple(path))
                elif text not in found:
                    found[text] = tuple(path)
            if len(text) >= hi:
                return
            for u in neighbours[t]:
                if u not in path and letters[u]:
                    path.append(u)
                    walk(u, path, text + letters[u])
                    path.pop()

        for t in tiles:
            if letters[t]:
                walk(t, [t], letters[t])
        return found
