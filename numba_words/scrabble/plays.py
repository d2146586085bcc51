"""What a search returns: the plays array (:data:`PLAY_DTYPE`) and its views :class:`Play` and :class:`Plays`.

Notation follows the engines players use: ``8H`` = across from row 8 column H, ``H8`` = down from column H
row 8; the word lists every letter, letters already on the board in parentheses, blanks in lower case
(``8A eMME(T)``).
"""
from __future__ import annotations

import numpy as np

from ._tables import COLS, SIZE
from .errors import InvalidNotationError, ScrabbleError, short

PLAY_DTYPE = np.dtype([
    ("row", "i1"), ("col", "i1"), ("dir", "i1"), ("length", "i1"), ("score", "i4"), ("tiles", "i1"),
    ("word", "u1", (SIZE,)), ("blanks", "u2"), ("new", "u2"),
])
"""One play: start square, direction (0 across, 1 down), word length and letter codes, bit masks of the
word's letters that are blanks / newly placed tiles, score, number of tiles placed."""

RECORD_FIELDS = ("coord", "word", "score", "tiles", "leave", "notation", "equity")
"""The keys of :meth:`Play.to_record` (and the columns of ``--csv``)."""


def pack_plays(meta, words, bm, nm, n) -> np.ndarray:
    """The first ``n`` kernel output rows as a :data:`PLAY_DTYPE` array."""
    out = np.empty(n, PLAY_DTYPE)
    out["row"] = meta[:n, 0]
    out["col"] = meta[:n, 1]
    out["dir"] = meta[:n, 2]
    out["length"] = meta[:n, 3]
    out["score"] = meta[:n, 4]
    out["tiles"] = meta[:n, 5]
    out["word"] = words[:n]
    out["blanks"] = bm[:n]
    out["new"] = nm[:n]
    return out


def order_by_score(plays: np.ndarray) -> np.ndarray:
    """Indices sorting plays by score (high first), ties in generation order (deterministic)."""
    return np.argsort(-plays["score"].astype(np.int64), kind="stable")


BY = ("score", "equity")


def _check_by(by) -> str:
    if by not in BY:
        raise ScrabbleError(f"by must be 'score' or 'equity', got {short(by)}")
    return by


class Play:
    """A thin view of one row of a plays array (see :data:`PLAY_DTYPE`), formatted against its position."""

    __slots__ = ("_row", "_pos")

    def __init__(self, row, position):
        self._row = row
        self._pos = position

    row = property(lambda self: int(self._row["row"]), doc="0-based row of the first letter")
    col = property(lambda self: int(self._row["col"]), doc="0-based column of the first letter")
    direction = property(lambda self: "down" if self._row["dir"] else "across", doc="'across' or 'down'")
    score = property(lambda self: int(self._row["score"]), doc="points scored (bingo bonus included)")
    tiles_used = property(lambda self: int(self._row["tiles"]), doc="tiles placed from the rack")

    @property
    def position(self):
        """The position this play was generated in."""
        return self._pos

    @property
    def coord(self) -> str:
        """``8H`` (across from row 8, column H) or ``H8`` (down)."""
        r, c = self.row, self.col
        return f"{COLS[c]}{r + 1}" if self._row["dir"] else f"{r + 1}{COLS[c]}"

    @property
    def word(self) -> str:
        """The word with played-through letters in parentheses and blanks in lower case."""
        return _format_word(self._row, self._pos)

    @property
    def plain_word(self) -> str:
        """The word in upper case, nothing marked."""
        a = self._pos.alphabet
        return "".join(a[x] for x in self._row["word"][: self._row["length"]])

    @property
    def notation(self) -> str:
        """``COORD WORD``, e.g. ``H10 F(E)H``."""
        return f"{self.coord} {self.word}"

    @property
    def placed(self) -> list:
        """New tiles as ``(row, col, letter, is_blank)`` (0-based squares, upper-case letters)."""
        out = []
        r, c, d = self.row, self.col, int(self._row["dir"])
        new, bl = int(self._row["new"]), int(self._row["blanks"])
        for k in range(int(self._row["length"])):
            if (new >> k) & 1:
                rr, cc = (r + k, c) if d else (r, c + k)
                out.append((rr, cc, self._pos.alphabet[self._row["word"][k]], bool((bl >> k) & 1)))
        return out

    @property
    def tiles(self) -> str:
        """The rack tiles the play uses, sorted (``?`` for a blank)."""
        return _sort_rack("?" if bl else ch for _, _, ch, bl in self.placed)

    @property
    def leave(self) -> str:
        """What stays on the rack after the play (sorted, ``?`` for a blank)."""
        rack = list(self._pos.rack)
        for _, _, ch, bl in self.placed:
            t = "?" if bl else ch
            if t in rack:
                rack.remove(t)
        return _sort_rack(rack)

    @property
    def equity(self) -> float:
        """Static equity in points: score + the leave's value (the position's :attr:`~Position.leaves`) and the
        opening / end-of-game adjustments (see :mod:`.leaves`)."""
        return self._pos._equities(np.array([self._row], PLAY_DTYPE))[0] / 1000

    @property
    def leave_value(self) -> float:
        """The value of :attr:`leave` in the position's leave table (points)."""
        return self._pos.leaves[self.leave]

    def to_record(self) -> dict:
        """The play as a dict: ``coord``, ``word``, ``score``, ``tiles`` (tiles used), ``leave``, ``notation``,
        ``equity``."""
        return self._record(None)

    def _record(self, equity_milli) -> dict:
        eq = self.equity if equity_milli is None else float(equity_milli) / 1000
        return {"coord": self.coord, "word": self.word, "score": self.score, "tiles": self.tiles_used,
                "leave": self.leave, "notation": self.notation, "equity": eq}

    def __str__(self) -> str:
        return f"{self.notation} {self.score}"

    def __repr__(self) -> str:
        return f"<Play {self}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, Play) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self):
        return tuple(sorted(self.placed))


def _sort_rack(tiles) -> str:
    tiles = list(tiles)
    return "".join(sorted(ch for ch in tiles if ch != "?")) + "?" * tiles.count("?")


def _format_word(row, pos) -> str:
    a = pos.alphabet
    r, c, d = int(row["row"]), int(row["col"]), int(row["dir"])
    new, bl = int(row["new"]), int(row["blanks"])
    s = []
    inpar = False
    for k in range(int(row["length"])):
        ch = a[row["word"][k]]
        if (new >> k) & 1:
            if inpar:
                s.append(")")
                inpar = False
            s.append(ch.lower() if (bl >> k) & 1 else ch)
        else:
            rr, cc = (r + k, c) if d else (r, c + k)
            if not inpar:
                s.append("(")
                inpar = True
            s.append(ch.lower() if pos.board.blanks[rr, cc] else ch)
    if inpar:
        s.append(")")
    return "".join(s)


def _legal_rows(array, position) -> np.ndarray:
    """A copy of ``array`` when it is a one-dimensional :data:`PLAY_DTYPE` array of legal plays of ``position``
    (rows of its :meth:`~Position.legal_plays`, byte for byte), else :class:`ScrabbleError`."""
    if type(position).__module__ != "numba_words.scrabble.position":  # (not imported here: position imports this)
        raise ScrabbleError(f"position must be a scrabble Position, got {short(position)}")
    if not isinstance(array, np.ndarray) or array.dtype != PLAY_DTYPE or array.ndim != 1:
        raise ScrabbleError(f"plays must be a one-dimensional PLAY_DTYPE array, got {short(array)}")
    raw = f"V{PLAY_DTYPE.itemsize}"
    legal = position.legal_plays().array
    ok = np.isin(np.ascontiguousarray(array).view(raw), legal.view(raw))
    if not ok.all():
        raise ScrabbleError(f"plays: row {int(np.argmin(ok))} is not a legal play of the position")
    return array.copy()


class Plays:
    """The legal plays of a position: a cheap view over the structured array ``array`` (generation order;
    read-only).

    ``len``, iteration (as :class:`Play`), indexing, ``in`` (a :class:`Play` or notation string), ``best()``
    (the top play or ``None``), ``top(n)`` (the ``n`` best, a list), ``to_records()``, ``to_pandas()``.
    """

    def __init__(self, array: np.ndarray, position, *, _checked: bool = False):
        if not _checked:  # (rows are read back for equities and notation: a kernel indexes with their codes)
            array = _legal_rows(array, position)
        array.flags.writeable = False  # (no edits after the check)
        self.array = array
        self.position = position
        self._keys = None
        self._order = None
        self._eq = None  # (leave table, equities in millipoints)
        self._eq_order = None

    def __len__(self) -> int:
        return len(self.array)

    def count(self) -> int:
        """The number of plays."""
        return len(self.array)

    def __bool__(self) -> bool:
        return len(self.array) > 0

    def __iter__(self):
        for row in self.array:
            yield Play(row, self.position)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [Play(row, self.position) for row in self.array[i]]
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"plays are indexed by integers or slices, not {type(i).__name__}")
        if not -len(self.array) <= i < len(self.array):
            raise IndexError(f"play index {i} out of range for {len(self.array)} plays")
        return Play(self.array[i], self.position)

    def _sorted_idx(self, by: str = "score") -> np.ndarray:
        if _check_by(by) == "equity":
            eq = self.equity_millis()
            if self._eq_order is None or self._eq_order[0] is not eq:
                self._eq_order = (eq, np.argsort(-eq, kind="stable"))
            return self._eq_order[1]
        if self._order is None:
            self._order = order_by_score(self.array)
        return self._order

    def equity_millis(self) -> np.ndarray:
        """Every play's static equity in whole millipoints (int64, generation order; cached per leave table)."""
        leaves = self.position.leaves
        if self._eq is None or self._eq[0] is not leaves:
            eq = self.position._equities(self.array)
            eq.flags.writeable = False  # (kept: every later call returns it)
            self._eq = (leaves, eq)
        return self._eq[1]

    def equities(self) -> np.ndarray:
        """Every play's static equity in points (float64, generation order)."""
        return self.equity_millis() / 1000

    def best(self, by: str = "score") -> Play | None:
        """The play with the highest score (``by="equity"``: equity), the first in generation order among
        equals, or ``None``."""
        if not len(self.array):
            _check_by(by)
            return None
        return Play(self.array[self._sorted_idx(by)[0]], self.position)

    def top(self, n: int | None = 10, by: str = "score") -> list:
        """The ``n`` best plays by score (or ``by="equity"``), best first (ties in generation order); ``None``:
        all of them."""
        if n is not None and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0):
            raise ScrabbleError(f"top(n): n must be a whole number >= 0 or None, got {short(n)}")
        idx = self._sorted_idx(by) if n is None else self._sorted_idx(by)[:n]
        return [Play(self.array[i], self.position) for i in idx]

    def sorted(self, by: str = "score") -> list:
        """Every play, best first."""
        return self.top(None, by)

    def scores(self) -> np.ndarray:
        """The plays' scores in points, an ``int64`` array in list order."""
        return self.array["score"].astype(np.int64)

    def find(self, placed) -> Play | None:
        """The play placing exactly ``placed`` (``(row, col, letter, is_blank)`` tuples), or None."""
        if self._keys is None:
            self._keys = {Play(row, self.position)._key(): i for i, row in enumerate(self.array)}
        i = self._keys.get(tuple(sorted(placed)))
        return None if i is None else Play(self.array[i], self.position)

    def __contains__(self, play) -> bool:
        if isinstance(play, str):
            try:
                play = self.position.parse_play(play)
            except InvalidNotationError:
                return False
            return play is not None
        if isinstance(play, Play):
            return self.find(play.placed) is not None
        return False

    def to_records(self, n: int | None = None, *, by_score: bool = True, by: str = "score") -> list[dict]:
        """The plays as dicts (see :meth:`Play.to_record`): the ``n`` best (``None``: all) by ``by``, best
        first, or in generation order with ``by_score=False``."""
        if n is not None and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0):
            raise ScrabbleError(f"to_records(n): n must be a whole number >= 0 or None, got {short(n)}")
        idx = self._sorted_idx(by) if by_score else np.arange(len(self.array))
        eq = self.equity_millis()
        return [Play(self.array[i], self.position)._record(eq[i]) for i in idx[:n]]

    def to_pandas(self, n: int | None = None):
        """:meth:`to_records` as a ``pandas.DataFrame`` (needs pandas, which numba_words does not require)."""
        try:
            import pandas as pd
        except ImportError:
            raise ScrabbleError("to_pandas() needs pandas: pip install pandas (or use to_records())") from None
        return pd.DataFrame.from_records(self.to_records(n), columns=list(RECORD_FIELDS))

    def __repr__(self) -> str:
        return f"<Plays {len(self)} plays>"
