"""The plain-Python solver the CLI and benchmarks measure against (BookwormBot's trie search, seed 003,
with a set of prefixes standing in for the trie): recursion over tiles, no Numba. Same word sets as the
kernels; kept in the package so ``numba-words bookworm --bench`` can time it in the same run."""
from __future__ import annotations


class PythonSolver:
    def __init__(self, lexicon, min_len: int = 3, max_len: int = 12):
        self.words = {w.lower() for w in lexicon.words if len(w) <= max_len}
        self.prefixes = {w[:i] for w in self.words for i in range(1, len(w) + 1)}
        self.min_len, self.max_len = min_len, max_len

    def solve(self, letters, neighbours) -> dict:
        """``letters[t]`` the tile's letters (``"qu"``), ``neighbours[t]`` its neighbour tiles: ``{word: path}``."""
        found = {}
        prefixes, words, lo, hi = self.prefixes, self.words, self.min_len, self.max_len

        def walk(t, path, text):
            if text not in prefixes:
                return
            if lo <= len(text) and text in words and text not in found:
                found[text] = tuple(path)
            if len(text) >= hi:
                return
            for u in neighbours[t]:
                if u not in path:
                    path.append(u)
                    walk(u, path, text + letters[u])
                    path.pop()

        for t in range(len(letters)):
            if letters[t]:
                walk(t, [t], letters[t])
        return found


def grid_lists(grid):
    return [[int(u) for u in row if u >= 0] for row in grid.neighbours]
