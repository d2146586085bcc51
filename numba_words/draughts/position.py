"""The state class :class:`Position`: FEN, legal moves, push/pop, game end and draw rules.

Positions hold three Python-int bitboards (White, Black, kings; the layout of ``_tables``) plus the side to
move and a history stack. Move generation is one call to the perft kernel (collecting the children, through
:func:`moves.generate`); everything else is plain Python.

Draw rules (FMJD, article 8; applied by the driver only, never by perft):

* **Repetition**: the same position with the same side to move for the third time is a draw.
* **25-move rule**: 25 successive moves by each player (50 plies) with only kings moving and no capture.
* **16-move rule**: three kings, two kings and a man, or a king and two men against a lone king: draw after
  16 more moves by each player (32 plies) counted from when that material first arose.
* **5-move rule**: two kings, a king and a man, or a king against a lone king: draw after 5 moves each
  (10 plies) counted the same way.

A side with no legal move (no pieces, or all blocked) loses.
"""
from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from ._movegen import MAX_PATH
from ._tables import BOARD, SQ2BIT, square_rc, squares_of
from .errors import (AmbiguousMoveError, DraughtsError, EmptyStackError, IllegalMoveError, InvalidFenError,
                     InvalidPositionError, quote)
from .moves import LegalMoves, Move, _route, generate

WHITE = True
BLACK = False
BOARD_INT = int(BOARD)


class Outcome(NamedTuple):
    """``winner`` is ``WHITE``, ``BLACK`` or ``None`` (draw); ``termination`` says why."""

    winner: bool | None
    termination: str

    def result(self) -> str:
        """PDN result string: ``2-0``, ``0-2`` or ``1-1``."""
        return "1-1" if self.winner is None else ("2-0" if self.winner else "0-2")


_TOKEN = re.compile(r"(K?)([0-9]{1,2})(?:-([0-9]{1,2}))?")
_SQUARE = re.compile(r"[0-9]{1,2}")


def _parse_fen(fen: str) -> tuple[int, int, int, bool]:
    if not isinstance(fen, str):
        raise InvalidFenError(f"FEN must be a string, got {quote(fen)}")
    text = fen.strip().strip('"').strip()
    if text.endswith("."):
        text = text[:-1]
    parts = [p.strip() for p in text.split(":")]
    if parts[0].upper() not in ("W", "B"):
        raise InvalidFenError(f"FEN must start with 'W' or 'B' (side to move): {quote(fen)}")
    turn = parts[0].upper() == "W"
    white = black = kings = 0
    seen_colours = set()
    owner: dict[int, str] = {}
    for part in parts[1:]:
        if not part:
            continue
        colour = part[0].upper()
        if colour not in ("W", "B"):
            raise InvalidFenError(f"FEN piece list must start with 'W' or 'B': {quote(part)} in {quote(fen)}")
        if colour in seen_colours:
            raise InvalidFenError(f"FEN lists colour {colour!r} twice: {quote(fen)}")
        seen_colours.add(colour)
        body = part[1:].strip()
        if not body:
            continue
        for tok in body.split(","):
            tok = tok.strip()
            m = _TOKEN.fullmatch(tok.upper())
            if not m:
                raise InvalidFenError(f"bad FEN square token {quote(tok)} in {quote(fen)} (want 32, K32 or 31-35)")
            lo = int(m.group(2))
            hi = int(m.group(3)) if m.group(3) else lo
            if not (1 <= lo <= 50 and 1 <= hi <= 50 and lo <= hi):
                raise InvalidFenError(f"FEN square out of range 1-50 in token {tok!r} of {quote(fen)}")
            for s in range(lo, hi + 1):
                if s in owner:
                    raise InvalidFenError(f"square {s} is given twice (token {tok!r}) in {quote(fen)}")
                owner[s] = colour
                is_king = bool(m.group(1))
                if not is_king:
                    if colour == "W" and s <= 5:
                        raise InvalidFenError(f"white man on the crowning row, square {s} (token {tok!r}) in "
                                              f"{quote(fen)}")
                    if colour == "B" and s >= 46:
                        raise InvalidFenError(f"black man on the crowning row, square {s} (token {tok!r}) in "
                                              f"{quote(fen)}")
                b = 1 << int(SQ2BIT[s])
                if colour == "W":
                    white |= b
                else:
                    black |= b
                if is_king:
                    kings |= b
    return white, black, kings, turn


def _check_bitboards(white, black, kings, turn) -> tuple[int, int, int, bool]:
    """The arguments of ``Position.from_bitboards`` as Python ints and a bool, or InvalidPositionError."""
    out = []
    for name, v in (("white", white), ("black", black), ("kings", kings)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) < 1 << 64:
            raise InvalidPositionError(f"{name} must be a bitboard (an integer from 0 to 2**64 - 1), got {quote(v)}")
        v = int(v)
        off = v & ~BOARD_INT
        if off:
            bits = [i for i in range(64) if off >> i & 1]
            raise InvalidPositionError(f"{name} has bits {bits[:8]}{'...' if len(bits) > 8 else ''} off the board "
                                       f"(ghost bits 10, 21, 32, 43 and bits 54-63 are never squares)")
        out.append(v)
    white, black, kings = out
    if white & black:
        raise InvalidPositionError(f"white and black both have a piece on squares {squares_of(white & black)}")
    if kings & ~(white | black):
        raise InvalidPositionError(f"kings on empty squares {squares_of(kings & ~(white | black))}")
    for name, men, row in (("white", white & ~kings, range(1, 6)), ("black", black & ~kings, range(46, 51))):
        on_row = [s for s in squares_of(men) if s in row]
        if on_row:
            raise InvalidPositionError(f"{name} men on their crowning row, squares {on_row} (they would be kings)")
    if not (isinstance(turn, (bool, np.bool_)) or (isinstance(turn, (int, np.integer)) and turn in (0, 1))):
        raise InvalidPositionError(f"turn must be WHITE (True) or BLACK (False), got {quote(turn)}")
    return white, black, kings, bool(turn)


def _fen_list(men: list[int], kings: list[int]) -> str:
    toks = []
    for prefix, sqs in (("", men), ("K", kings)):
        i = 0
        while i < len(sqs):
            j = i
            while j + 1 < len(sqs) and sqs[j + 1] == sqs[j] + 1:
                j += 1
            if j - i >= 2:
                toks.append((sqs[i], f"{prefix}{sqs[i]}-{sqs[j]}"))
            else:
                toks.extend((s, f"{prefix}{s}") for s in sqs[i : j + 1])
            i = j + 1
    toks.sort()
    return ",".join(t for _, t in toks)


class Position:
    """An international draughts position with a move stack, in the spirit of ``chess.Board``.

    >>> p = Position.initial()
    >>> p.push_notation("32-28"); p.fen()
    Move('32-28')
    'B:W28,31,33-50:B1-20'
    """

    __slots__ = ("white", "black", "kings", "turn", "_stack", "_cache")

    def __init__(self, fen: str | None = None):
        if fen is None:
            fen = "W:W31-50:B1-20"
        self.white, self.black, self.kings, self.turn = _parse_fen(fen)
        self._stack: list[tuple[tuple[int, int, int, bool], Move]] = []
        self._cache: list[Move] | None = None

    # ---- construction ---------------------------------------------------------------------------------
    @classmethod
    def initial(cls) -> "Position":
        """The starting position: White on 31-50, Black on 1-20, White to move."""
        return cls()

    @classmethod
    def from_fen(cls, fen: str) -> "Position":
        """A position from a FEN string such as ``'W:W31-50:B1-20'`` (kings as ``K12``, ranges allowed).

        Raises
        ------
        InvalidFenError
            If the text is not a valid FEN (the message says which part).
        """
        return cls(fen)

    @classmethod
    def from_bitboards(cls, white: int, black: int, kings: int, turn: bool) -> "Position":
        """A position from three bitboards in the layout of ``_tables`` (bit ``s - 1 + (s - 1) // 10`` for
        square ``s``) and the side to move; bad boards raise :class:`InvalidPositionError`."""
        p = cls.__new__(cls)
        p.white, p.black, p.kings, p.turn = _check_bitboards(white, black, kings, turn)
        p._stack = []
        p._cache = None
        return p

    def copy(self, stack: bool = True) -> "Position":
        """An independent copy; ``stack=False`` leaves out the move stack (so ``pop()`` cannot go back)."""
        p = Position.__new__(Position)
        p.white, p.black, p.kings, p.turn = self.white, self.black, self.kings, self.turn
        p._stack = []
        p._cache = None
        if stack:
            p._stack = list(self._stack)
        return p

    # ---- description ----------------------------------------------------------------------------------
    def fen(self) -> str:
        """The position as FEN text, e.g. ``'W:W31-50:B1-20'`` (kings prefixed with ``K``)."""
        wk = squares_of(self.white & self.kings)
        bk = squares_of(self.black & self.kings)
        wm = squares_of(self.white & ~self.kings)
        bm = squares_of(self.black & ~self.kings)
        return f"{'W' if self.turn else 'B'}:W{_fen_list(wm, wk)}:B{_fen_list(bm, bk)}"

    def piece_at(self, square: int) -> str | None:
        """``'w'``/``'b'`` man, ``'W'``/``'B'`` king, or ``None`` for an empty square."""
        if isinstance(square, bool) or not isinstance(square, (int, np.integer)) or not 1 <= square <= 50:
            raise DraughtsError(f"square must be a number from 1 to 50, got {quote(square)}")
        b = 1 << int(SQ2BIT[square])
        if self.white & b:
            return "W" if self.kings & b else "w"
        if self.black & b:
            return "B" if self.kings & b else "b"
        return None

    def board_key(self) -> tuple[int, int, int, bool]:
        """``(white, black, kings, white_to_move)``: the bitboards and side to move, a hashable key for repetition."""
        return (self.white, self.black, self.kings, self.turn)

    def __eq__(self, other) -> bool:
        return isinstance(other, Position) and self.board_key() == other.board_key()

    def __hash__(self) -> int:
        return hash(self.board_key())

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    def __str__(self) -> str:
        rows = []
        for r in range(10):
            cells = []
            for c in range(10):
                cells.append(".")
            rows.append(cells)
        for s in range(1, 51):
            r, c = square_rc(s)
            p = self.piece_at(s)
            rows[r][c] = p if p else "-"
        body = "\n".join(" ".join(row) for row in rows)
        return body + f"\n{'White' if self.turn else 'Black'} to move"

    def _repr_svg_(self) -> str:
        from .svg import svg

        return svg(self)

    # ---- moves ----------------------------------------------------------------------------------------
    def _moves(self) -> list[Move]:
        if self._cache is None:
            try:
                self._cache = generate(self.white, self.black, self.kings, self.turn)
            except DraughtsError as e:
                raise DraughtsError(f"{e} in {self.fen()!r}") from None
        return self._cache

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves (a cheap view: ``count()``, ``in``, iteration, ``bool``), captures only when one exists."""
        return LegalMoves(self)

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``: ``32-28`` (a slide), ``28x19`` or ``28:19`` (a capture), ``28x19x8``
        (a capture with landing squares between its from- and to-square, needed when from and to alone are
        ambiguous). The landing squares may be any of the capture's, in their order (``2x30x17`` for the king
        capture ``2x30x39x17``): the move is the one legal capture that lands on them. Raises
        :class:`IllegalMoveError`, or :class:`AmbiguousMoveError` (naming the candidates) when several legal
        moves fit."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"move must be a string, got {quote(text)}")
        t = text.strip().lower().rstrip("!?+*#")
        parts = re.split(r"[x:-]", t)
        if not 2 <= len(parts) <= MAX_PATH or not all(_SQUARE.fullmatch(p) for p in parts):
            raise IllegalMoveError(f"not a move: {quote(text)} (want 32-28, 28x19 or a capture path 28x19x10)")
        sq = [int(p) for p in parts]
        if any(not 1 <= s <= 50 for s in sq):
            raise IllegalMoveError(f"square out of range 1-50 in move {quote(text)}")
        capture = "-" not in t
        if not capture and len(sq) != 2:
            raise IllegalMoveError(f"not a move: {quote(text)} (a slide has two squares)")
        cands = [m for m in self._moves()
                 if m.from_square == sq[0] and m.to_square == sq[-1] and m.is_capture == capture]
        if len(sq) > 2 and cands:
            cands = [m for m in cands if self._lands_on(m, sq[1:-1])]
        if not cands:
            raise IllegalMoveError(f"illegal move {quote(text)} in {self.fen()!r}")
        if len(cands) > 1:
            raise AmbiguousMoveError(
                f"ambiguous move {quote(text)}: {', '.join(m.notation for m in cands)} in {self.fen()!r}"
            )
        return cands[0]

    def _lands_on(self, m: Move, via: list[int]) -> bool:
        """Whether some route of the capture ``m`` lands on the squares ``via``, in order, before its last
        landing square."""
        fb = 1 << int(SQ2BIT[m.from_square])
        caps = sum(1 << int(SQ2BIT[s]) for s in m.captured)
        return _route(int(SQ2BIT[m.from_square]), int(SQ2BIT[m.to_square]), caps,
                      (self.white | self.black) ^ fb, bool(self.kings & fb),
                      tuple(int(SQ2BIT[s]) for s in via)) is not None

    def push(self, move: Move) -> None:
        """Make ``move`` (a :class:`Move` or its notation) and put it on the move stack.

        Raises
        ------
        IllegalMoveError
            If the move is not legal here.
        AmbiguousMoveError
            If notation matches more than one capture path.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        legal = self._moves()
        try:
            m = legal[legal.index(move)]
        except ValueError:
            raise IllegalMoveError(f"illegal move {quote(move)} in {self.fen()!r}") from None
        a, b, c = m._xor
        self._stack.append((self.board_key(), m))
        if self.turn:
            self.white ^= a
            self.black ^= b
        else:
            self.black ^= a
            self.white ^= b
        self.kings ^= c
        self.turn = not self.turn
        self._cache = None

    def push_notation(self, text: str) -> Move:
        """Parse ``text`` (``'32-28'``, ``'28x19'``, a capture path ``'3x17x28'``), make the move and return it.

        Raises
        ------
        IllegalMoveError, AmbiguousMoveError
            As :meth:`push`.
        """
        m = self.parse_move(text)
        self.push(m)
        return m

    def pop(self) -> Move:
        """Take back the last move made and return it.

        Raises
        ------
        EmptyStackError
            If no move was pushed (a :class:`DraughtsError` and, as python-chess's ``pop`` raises, an
            ``IndexError``).
        """
        if not self._stack:
            raise EmptyStackError("pop from a position with an empty move stack (no move was pushed)")
        key, m = self._stack.pop()
        self.white, self.black, self.kings, self.turn = key
        self._cache = None
        return m

    @property
    def move_stack(self) -> list[Move]:
        """The moves made since the position was set up, first to last."""
        return [m for _, m in self._stack]

    # ---- game end -------------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` if it goes on (see the module docs for the draw rules)."""
        if not self._moves():
            return Outcome(not self.turn, "no legal move")
        key = self.board_key()
        # repetition: only positions since the last man move or capture can repeat
        reps = 1
        for k, m in reversed(self._stack):
            if k == key:
                reps += 1
            if m.captured or not (k[2] & (1 << int(SQ2BIT[m.from_square]))):
                break
        if reps >= 3:
            return Outcome(None, "threefold repetition")
        n = 0
        for k, m in reversed(self._stack):
            was_king = k[2] & (1 << int(SQ2BIT[m.from_square]))
            if m.captured or not was_king:
                break
            n += 1
        if n >= 50:
            return Outcome(None, "25-move rule")
        cls = _endgame_class(self.white, self.black, self.kings)
        if cls:
            n = 0
            for k, _m in reversed(self._stack):
                if _material(k) != _material(key):
                    break
                n += 1
            if n >= (32 if cls == 16 else 10):
                return Outcome(None, f"{cls}-move rule")
        return None

    def is_game_over(self) -> bool:
        """True when :meth:`outcome` is not ``None`` (no legal move, or a draw rule applies)."""
        return self.outcome() is not None

    # ---- search ---------------------------------------------------------------------------------------
    def search(self, depth=None, time=None, nodes=None, threads: int = 1, **kw):
        """Search this position (its move stack counts for the draw rules) with a fresh
        :class:`~numba_words.draughts.engine.Engine`; returns a :class:`~numba_words.draughts.engine.SearchResult`
        (best move, score in men, principal variation, ...). See :meth:`Engine.search` for the limits."""
        return _searcher[0](self, depth, time, nodes, threads=threads, **kw)


def _no_search(*args, **kw):
    raise DraughtsError("the search is not loaded: import numba_words.draughts")


#: The function behind :meth:`Position.search`: ``engine.search``, which registers itself when the package loads
#: (the engine builds on this module, so this module does not import it).
_searcher = [_no_search]


def _material(k) -> tuple[int, int, int, int]:
    w, b, kg = k[0], k[1], k[2]
    return ((w & ~kg).bit_count(), (w & kg).bit_count(), (b & ~kg).bit_count(), (b & kg).bit_count())


def _endgame_class(white: int, black: int, kings: int) -> int:
    """16 or 5 when the material falls under the 16-move or 5-move rule, else 0."""
    wm, wk, bm, bk = _material((white, black, kings))
    for m1, k1, m2, k2 in ((wm, wk, bm, bk), (bm, bk, wm, wk)):
        if m2 == 0 and k2 == 1 and k1 >= 1:
            if (k1, m1) in ((3, 0), (2, 1), (1, 2)):
                return 16
            if (k1, m1) in ((2, 0), (1, 1), (1, 0)):
                return 5
    return 0


