"""A game record: :class:`Game` (start position, moves, headers, result) that you can extend with ``play`` and
take back with ``undo``, and :meth:`Game.selfplay` (random play-outs that return one). PDN text is
``pdn.write_pdn(game)`` / ``pdn.read_pdn(text)``."""
from __future__ import annotations

import random

from .errors import DraughtsError
from .moves import Move
from .position import Position

INITIAL_FEN = "W:W31-50:B1-20"


class Game:
    """A sequence of legal moves from a start position, with PDN-style ``headers`` and a ``result`` string
    (``2-0``, ``0-2``, ``1-1`` or ``*``). Every move is checked when played.

    >>> g = Game(); g.play("32-28"); g.play("19-23")
    Move('32-28')
    Move('19-23')
    >>> g.position.fen()
    'W:W28,31,33-50:B1-18,20,23'
    """

    def __init__(self, start: Position | str | None = None, moves=(), headers: dict | None = None,
                 result: str = "*", *, tags: dict | None = None, start_fen: str | None = None):
        if start_fen is not None:
            start = start_fen
        if start is None:
            start = Position.initial()
        elif isinstance(start, str):
            start = Position.from_fen(start)
        elif not isinstance(start, Position):
            raise DraughtsError(f"a game starts from a Position or a FEN string, got {start!r}")
        self._start = start.copy(stack=False)
        self._pos = start.copy(stack=False)
        self.headers: dict = dict(headers or {})
        if tags:
            self.headers.update(tags)
        self.result = result
        self.moves: list[Move] = []
        for m in moves:
            self.play(m)

    # ---- the record ------------------------------------------------------------------------------------
    @property
    def tags(self) -> dict:
        """The PDN tag pairs (the same dict as ``headers``)."""
        return self.headers

    @property
    def start_fen(self) -> str:
        """FEN of the position the game started from."""
        return self._start.fen()

    def start(self) -> Position:
        """The start position (a fresh copy)."""
        return self._start.copy(stack=False)

    def end(self) -> Position:
        """The position after the last move (a copy whose move stack holds the game's moves)."""
        return self._pos.copy()

    @property
    def position(self) -> Position:
        """The current (last) position: the same as :meth:`end`."""
        return self.end()

    def positions(self):
        """Every position of the game, start included (independent copies, no move stacks)."""
        p = self.start()
        yield p.copy(stack=False)
        for m in self.moves:
            p.push(m)
            yield p.copy(stack=False)

    def __len__(self) -> int:
        return len(self.moves)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Game) and self.start_fen == other.start_fen and self.moves == other.moves
                and self.result == other.result and self.headers == other.headers)

    def __repr__(self) -> str:
        return f"<Game {self.start_fen!r}: {len(self.moves)} moves, {self.result}>"

    # ---- extending it ----------------------------------------------------------------------------------
    def play(self, move: Move | str) -> Move:
        """Play a legal move (a :class:`Move` or its notation) at the end of the game; returns the move."""
        m = self._pos.parse_move(move) if isinstance(move, str) else move
        self._pos.push(m)
        m = self._pos.move_stack[-1]
        self.moves.append(m)
        return m

    def undo(self) -> Move:
        """Take back the last move; returns it."""
        if not self.moves:
            raise DraughtsError("nothing to undo: the game has no moves")
        self._pos.pop()
        return self.moves.pop()

    def outcome(self):
        """How the game's last position ends the game (:meth:`Position.outcome`), or ``None``."""
        return self._pos.outcome()

    # ---- self-play ---------------------------------------------------------------------------------------
    @classmethod
    def selfplay(cls, start: Position | str | None = None, max_plies: int = 400, seed=None) -> "Game":
        """A game of uniformly random legal moves until the game ends (no legal move or a draw rule) or
        ``max_plies`` moves; ``result`` is set from the outcome (``*`` if unfinished)."""
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 0:
            raise DraughtsError(f"max_plies must be a non-negative integer, got {max_plies!r}")
        rng = random.Random(seed)
        g = cls(start, headers={"Event": "selfplay", "White": "random", "Black": "random"})
        for _ in range(max_plies):
            if g.outcome() is not None:
                break
            g.play(rng.choice(list(g._pos.legal_moves)))
        out = g.outcome()
        g.result = out.result() if out is not None else "*"
        return g
