"""What a search returns: :class:`Found` (one word), :class:`Solution` (every word on one board),
:class:`BatchSolution` (many boards as flat arrays), and :class:`Turn` (one word played in a game).

The result classes keep the kernels' arrays (``Solution.wid``, ``BatchSolution.offsets``, ...) and build
Python objects only when asked. Words are lower case (``q`` tiles spell ``qu``); paths are tile indices.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import InvalidParameterError


@dataclass(frozen=True)
class Found:
    """One word on a board: the word (lower case), its path (tile indices), and its best score."""

    word: str
    path: tuple
    score: int

    def __len__(self) -> int:
        return len(self.word)

    def to_record(self) -> dict:
        """``{"word", "score", "path", "length"}`` (``length`` in letters; ``path`` a list)."""
        return {"word": self.word, "score": self.score, "path": list(self.path), "length": len(self.word)}


@dataclass(frozen=True)
class Turn:
    """One play of a game: the word, its path and score, the level and total score after it, and whether the
    game ended after it (and why)."""

    word: str
    path: tuple
    score: int
    level: int
    total: int
    game_over: bool = False
    reason: str = ""


def _check_n(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise InvalidParameterError(f"n must be a whole number >= 0, got {n!r}")
    return int(n)


def _read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a`` (which its owner may go on changing, as a position its tile codes)."""
    v = a.view()
    v.flags.writeable = False
    return v


def _checked_rows(lex, grid, codes, wid, path, plen, score, offsets=None) -> tuple:
    """The result arrays of a public constructor, checked and copied (read-only), in the kernels' dtypes:
    ``(codes, wid, path, plen, score, offsets)``. Raises :class:`InvalidParameterError` naming the bad array."""
    from ..lexicon import Lexicon
    from ._tables import Grid

    if not isinstance(lex, Lexicon):
        raise InvalidParameterError(f"lexicon must be a Lexicon, got {type(lex).__name__}")
    if not isinstance(grid, Grid):
        raise InvalidParameterError(f"grid must be a Grid, got {type(grid).__name__}")

    def arr(a, what, ndim, dtype, lo, hi):
        try:
            a = np.asarray(a)
        except (TypeError, ValueError) as e:
            raise InvalidParameterError(f"{what}: not an array ({e})") from None
        if a.ndim != ndim or (a.size and a.dtype.kind not in "iu"):
            raise InvalidParameterError(f"{what} must be a {ndim}-dimensional integer array, got shape {a.shape} "
                                        f"dtype {a.dtype}")
        if a.size and (a.min() < lo or a.max() > hi):
            raise InvalidParameterError(f"{what} values must be {lo}..{hi}, got {a.min()}..{a.max()}")
        out = a.astype(dtype)  # (a copy: the caller's array can change, this one cannot)
        out.flags.writeable = False
        return out

    wid = arr(wid, "wid", 1, np.int32, 0, len(lex) - 1)
    n = wid.shape[0]
    path = arr(path, "path", 2, np.int8, -1, grid.n_tiles - 1)
    plen = arr(plen, "plen", 1, np.int8, 1, max(path.shape[1], 1))
    score = arr(score, "scores", 1, np.int64, np.iinfo(np.int64).min, np.iinfo(np.int64).max)
    if not path.shape[0] == plen.shape[0] == score.shape[0] == n:
        raise InvalidParameterError(f"wid, path, plen and scores must have one row per word, got {n}, "
                                    f"{path.shape[0]}, {plen.shape[0]}, {score.shape[0]} rows")
    if n and (path[np.arange(path.shape[1]) < plen[:, None].astype(np.int64)] < 0).any():
        raise InvalidParameterError("path: a word's path holds -1 within its plen tiles")
    codes = arr(codes, "codes", 1 if offsets is None else 2, np.uint8, 0, 255)
    if codes.shape[-1] != grid.n_tiles:
        raise InvalidParameterError(f"codes must hold {grid.n_tiles} tiles per board, got shape {codes.shape}")
    if offsets is not None:
        offsets = arr(offsets, "offsets", 1, np.int64, 0, n)
        if offsets.shape[0] != codes.shape[0] + 1 or offsets[0] != 0 or offsets[-1] != n or \
                (np.diff(offsets) < 0).any():
            raise InvalidParameterError(f"offsets must rise from 0 to {n} (the rows) in {codes.shape[0] + 1} "
                                        f"steps (boards + 1), got {offsets.tolist()[:12]}")
    return codes, wid, path, plen, score, offsets


def _dataframe(records: list, columns: list):
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("to_pandas() needs pandas (pip install pandas); to_records() gives the same rows as "
                          "dicts") from None
    return pd.DataFrame.from_records(records, columns=columns)


class Solution:
    """Every distinct word on one board with one path each (the best-scoring one), in first-found order.

    Arrays: ``wid`` (word ranks in the lexicon), ``scores`` (by ``scoring``: Bookworm scores, or Boggle
    points on a Boggle grid), ``plen`` (path lengths in tiles) and the ``(n, max_len)`` path rows.
    ``best()`` is the best word (or ``None``), ``top(n)`` the ``n`` best. The arrays are read-only; the
    constructor checks and copies arrays given to it (:class:`InvalidParameterError`).
    """

    def __init__(self, lex, grid, codes, wid, path, plen, score, scoring=None, *, _checked: bool = False):
        if _checked:  # (the search's own fresh arrays: read-only views, no copies)
            codes, wid, path, plen, score = (_read_only(a) for a in (codes, wid, path, plen, score))
        else:
            codes, wid, path, plen, score, _ = _checked_rows(lex, grid, codes, wid, path, plen, score)
        self.lexicon = lex
        self.grid = grid
        self.codes = codes
        self.wid = wid
        self._path = path
        self.plen = plen
        self.scores = score
        self.scoring = scoring
        self._words = None

    def __len__(self) -> int:
        return int(self.wid.shape[0])

    @property
    def words(self) -> list:
        """The words, lower case, in first-found order."""
        if self._words is None:
            ws = self.lexicon.words
            self._words = [ws[int(i)].lower() for i in self.wid]
        return self._words

    def path(self, i: int) -> tuple:
        """The path (tile indices) of word ``i``."""
        return tuple(int(x) for x in self._path[i, : self.plen[i]])

    def __iter__(self):
        for i, w in enumerate(self.words):
            yield Found(w, self.path(i), int(self.scores[i]))

    def __contains__(self, word) -> bool:
        return isinstance(word, str) and word.lower() in set(self.words)

    def as_dict(self) -> dict:
        """``{word: (path, score)}``."""
        return {f.word: (f.path, f.score) for f in self}

    def _order(self) -> np.ndarray:
        """Row order by score (highest first), then longer, then alphabetical (= lexicon rank)."""
        if not len(self):
            return np.zeros(0, dtype=np.int64)
        lens = np.diff(self.lexicon.offsets)[self.wid]
        return np.lexsort((self.wid, -lens, -self.scores))

    def top(self, n: int | None = None) -> list:
        """The ``n`` best words (all when ``n`` is None) as :class:`Found`: by score, then longer, then
        alphabetical."""
        order = self._order()
        if n is not None:
            order = order[:_check_n(n)]
        ws = self.words
        return [Found(ws[i], self.path(i), int(self.scores[i])) for i in order]

    def best(self) -> Found | None:
        """The best-scoring word with its best path (ties: longer, then alphabetical); None if no words."""
        t = self.top(1)
        return t[0] if t else None

    def longest(self) -> list:
        """The longest word(s) in letters, alphabetical."""
        if not len(self):
            return []
        lens = np.diff(self.lexicon.offsets)[self.wid]
        m = lens.max()
        return sorted(self.words[i] for i in np.flatnonzero(lens == m))

    def to_records(self, n: int | None = None) -> list:
        """The words as dicts ``{"word", "score", "path", "length"}``, best first (the ``n`` best, or all)."""
        return [f.to_record() for f in self.top(n)]

    def to_pandas(self, n: int | None = None):
        """:meth:`to_records` as a ``pandas.DataFrame`` (needs pandas, which numba_words does not require)."""
        return _dataframe(self.to_records(n), ["word", "score", "path", "length"])

    def __repr__(self) -> str:
        b = self.best()
        return f"<Solution {len(self)} words, best {b.word!r} {b.score}>" if b else "<Solution 0 words>"


class BatchSolution:
    """Results of :func:`~numba_words.bookworm.solve_many` as flat arrays: board ``b`` owns rows
    ``offsets[b]:offsets[b+1]`` of ``wid``, ``path``, ``plen`` and ``scores``; ``self[b]`` is its
    :class:`Solution`. ``best()`` / ``top_rows(n)`` / ``to_records(n)`` pick each board's best words with
    NumPy over the flat arrays (no Python object per word). The arrays are read-only; the constructor checks and
    copies arrays given to it (:class:`InvalidParameterError`)."""

    def __init__(self, lex, grid, codes, offsets, wid, path, plen, score, scoring=None, *, _checked: bool = False):
        if _checked:
            codes, offsets, wid, path, plen, score = (_read_only(a) for a in (codes, offsets, wid, path, plen, score))
        else:
            codes, wid, path, plen, score, offsets = _checked_rows(lex, grid, codes, wid, path, plen, score, offsets)
        self.lexicon = lex
        self.grid = grid
        self.codes = codes
        self.offsets = offsets
        self.wid = wid
        self.path = path
        self.plen = plen
        self.scores = score
        self.scoring = scoring

    def __len__(self) -> int:
        return self.offsets.shape[0] - 1

    @property
    def counts(self) -> np.ndarray:
        """Words per board."""
        return np.diff(self.offsets)

    @property
    def total_words(self) -> int:
        """The number of words found over all boards of the batch."""
        return int(self.offsets[-1])

    def __getitem__(self, b: int) -> Solution:
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)):
            raise TypeError(f"boards are indexed by integers, got {b!r}")
        if not -len(self) <= b < len(self):
            raise IndexError(f"board {b!r} out of range for {len(self)} boards")
        b %= len(self)
        a, z = self.offsets[b], self.offsets[b + 1]
        return Solution(self.lexicon, self.grid, self.codes[b], self.wid[a:z], self.path[a:z], self.plen[a:z],
                        self.scores[a:z], self.scoring, _checked=True)

    def __iter__(self):
        for b in range(len(self)):
            yield self[b]

    def best_scores(self) -> np.ndarray:
        """Best word score per board (0 for a board with no words)."""
        out = np.zeros(len(self), dtype=np.int64)
        nz = self.counts > 0
        out[nz] = np.maximum.reduceat(self.scores, self.offsets[:-1][nz]) if nz.any() else out[nz]
        return out

    def letters(self) -> np.ndarray:
        """Length in letters of every found word (flat, like ``wid``)."""
        return np.diff(self.lexicon.offsets)[self.wid]

    def boards(self) -> np.ndarray:
        """The board of every row (flat, like ``wid``)."""
        return np.repeat(np.arange(len(self), dtype=np.int64), self.counts)

    def top_rows(self, n: int | None = 1) -> tuple:
        """``(rows, boards, ranks)``: the rows of each board's ``n`` best words (all when ``n`` is None or
        0), board by board, best first (by score, then longer, then alphabetical, as :meth:`Solution.top`)."""
        n = None if n is None else _check_n(n)
        board = self.boards()
        order = np.lexsort((self.wid, -self.letters(), -self.scores, board))
        rank = np.arange(order.shape[0], dtype=np.int64) - self.offsets[:-1][board[order]]
        if n:
            keep = rank < n
            order, rank = order[keep], rank[keep]
        return order, board[order], rank

    def best_rows(self) -> np.ndarray:
        """Row of each board's best word, -1 for a board with no words."""
        rows, boards, _ = self.top_rows(1)
        out = np.full(len(self), -1, dtype=np.int64)
        out[boards] = rows
        return out

    def row(self, r: int) -> Found:
        """Row ``r`` of the flat arrays as a :class:`Found`."""
        return Found(self.lexicon.words[int(self.wid[r])].lower(), tuple(int(x) for x in self.path[r, :self.plen[r]]),
                     int(self.scores[r]))

    def best(self) -> list:
        """Each board's best word (a :class:`Found`, or ``None`` for a board with no words)."""
        return [None if r < 0 else self.row(r) for r in self.best_rows()]

    def to_records(self, n: int | None = 1) -> list:
        """Each board's ``n`` best words (all when ``n`` is None or 0) as dicts ``{"board", "rank", "word",
        "score", "path", "length"}``, board by board, best first."""
        rows, boards, ranks = self.top_rows(n)
        words = self.lexicon.words
        lens = self.letters()
        return [{"board": int(b), "rank": int(k) + 1, "word": words[int(self.wid[r])].lower(),
                 "score": int(self.scores[r]), "path": [int(x) for x in self.path[r, :self.plen[r]]],
                 "length": int(lens[r])} for r, b, k in zip(rows, boards, ranks)]

    def to_pandas(self, n: int | None = 1):
        """:meth:`to_records` as a ``pandas.DataFrame`` (needs pandas, which numba_words does not require)."""
        return _dataframe(self.to_records(n), ["board", "rank", "word", "score", "path", "length"])

    def __repr__(self) -> str:
        return f"<BatchSolution {len(self)} boards, {self.total_words} words>"
