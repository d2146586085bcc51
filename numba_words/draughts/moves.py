"""Result classes of move generation: :class:`Move` and :class:`LegalMoves`, and the one call that turns the
move-generation kernel's arrays into ``Move`` objects."""
from __future__ import annotations

import dataclasses
from typing import Iterator

from ._tables import BIT2SQ, squares_of
from .errors import AmbiguousMoveError, DraughtsError, IllegalMoveError


@dataclasses.dataclass(frozen=True)
class Move:
    """A legal move: ``from_square``, ``to_square``, the ``captured`` squares (sorted) and one ``path``
    (from-square, every landing square). Two moves are equal when from, to and captured set are equal
    (the path is one representative of possibly several routes that capture the same pieces)."""

    from_square: int
    to_square: int
    captured: tuple[int, ...]
    path: tuple[int, ...] = dataclasses.field(compare=False)
    ambiguous: bool = dataclasses.field(default=False, compare=False)
    _xor: tuple[int, int, int] = dataclasses.field(default=(0, 0, 0), compare=False, repr=False)

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def notation(self) -> str:
        """``32-28`` for a slide, ``28x19`` for a capture, ``28x17x8`` (full path) when from and to alone
        would not say which pieces are taken."""
        if not self.captured:
            return f"{self.from_square}-{self.to_square}"
        if self.ambiguous:
            return "x".join(str(s) for s in self.path)
        return f"{self.from_square}x{self.to_square}"

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Move({self.notation!r})"


class LegalMoves:
    """A cheap view of a position's legal moves: ``len``, ``count()``, ``in``, iteration, ``bool``.
    Generation happens on first use and is cached until the position changes."""

    def __init__(self, position):
        self._pos = position

    def _list(self) -> list[Move]:
        return self._pos._moves()

    def __iter__(self) -> Iterator[Move]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def count(self) -> int:
        return len(self._list())

    def __bool__(self) -> bool:
        return bool(self._list())

    def __contains__(self, move) -> bool:
        if isinstance(move, str):
            try:
                self._pos.parse_move(move)
            except AmbiguousMoveError:
                return True  # several legal moves match the notation: it names legal moves
            except IllegalMoveError:
                return False
            return True
        return isinstance(move, Move) and move in self._list()

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.notation for m in self._list())})>"


def generate(white: int, black: int, kings: int, turn: bool) -> list[Move]:
    """Every legal move of a position given as bitboards (layout of ``_tables``), in generation order (the
    order perft's root moves and ``divide`` use)."""
    from ._movegen import legal_moves_kernel

    own, opp = (white, black) if turn else (black, white)
    moves, path, n = legal_moves_kernel(own, opp, kings, turn)
    if n < 0:
        raise DraughtsError("move list overflow")
    raw = []
    for i in range(n):
        p = []
        for v in path[i]:
            if v >= 64:
                break
            p.append(int(BIT2SQ[v]))
        a, b, c = (int(x) for x in moves[i])
        raw.append((p[0], p[-1], tuple(sorted(squares_of(b))), tuple(p), (a, b, c)))
    ends: dict[tuple[int, int], int] = {}
    for f, t, *_ in raw:
        ends[(f, t)] = ends.get((f, t), 0) + 1
    return [Move(f, t, c, p, ends[(f, t)] > 1, x) for f, t, c, p, x in raw]
