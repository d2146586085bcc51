"""Result classes of move generation: :class:`Move` and :class:`LegalMoves`, and the one call that turns the
move-generation kernel's arrays into ``Move`` objects."""
from __future__ import annotations

import dataclasses
from typing import Iterator

from ._movegen import MAX_MOVES
from ._tables import BIT2SQ, BOARD, NEXT, RAY, squares_of
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
        """True if the move captures at least one piece."""
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
        """The number of legal moves."""
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


_RAY = [[int(x) for x in row] for row in RAY]
_NEXT = [[int(x) for x in row] for row in NEXT]
_BOARD = int(BOARD)


def _first(d: int, bits: int) -> int:
    """Bit index of the blocker nearest the origin of a ray in direction ``d`` (0, 1 increasing)."""
    return (bits & -bits).bit_length() - 1 if d < 2 else bits.bit_length() - 1


def _route(f: int, t: int, caps: int, occ: int, king: bool,
           via: tuple[int, ...] = ()) -> list[tuple[int, int]] | None:
    """The first route, in search order (directions 0-3, landing squares by increasing bit), by which the
    piece on bit ``f`` takes exactly the pieces ``caps`` and ends on bit ``t``: ``[(direction, landing bit),
    ...]``, or ``None``. ``occ`` holds every piece but the moving one (taken pieces stay on the board until
    the capture ends). ``via``: bits the route must land on, in this order, before its last landing (any
    subset of its intermediate landing squares, as PDN writers give them)."""
    empty = _BOARD & ~occ
    route: list[tuple[int, int]] = []
    n_via = len(via)

    def walk(s: int, left: int, j: int) -> bool:
        # j: how many of ``via`` the route has landed on so far (matching each as early as it comes is
        # enough: an earlier match never leaves fewer ways to match the rest)
        if not left:
            return s == t and j == n_via
        for d in range(4):
            if king:
                bl = _RAY[d][s] & occ
                if not bl:
                    continue
                v = _first(d, bl)
            else:
                nb = _NEXT[d][s]
                if not nb:
                    continue
                v = nb.bit_length() - 1
            vb = 1 << v
            if not vb & left:
                continue
            land = _RAY[d][v] if king else _NEXT[d][v]
            bl = land & ~empty
            if bl:
                w = _first(d, bl)
                land &= ~(_RAY[d][w] | (1 << w))
            while land:
                lb = land & -land
                land ^= lb
                ls = lb.bit_length() - 1
                route.append((d, ls))
                if walk(ls, left ^ vb, j + (j < n_via and left != vb and via[j] == ls)):
                    return True
                route.pop()
        return False

    return route if walk(f, caps, 0) else None


def _slide_key(a: int, own: int, kings: int) -> tuple:
    """Where the API has always listed a slide: men before kings; men by step (5, then 6) and to-square;
    kings by from-square, direction and to-square."""
    fb = a & own
    f, t = fb.bit_length() - 1, (a ^ fb).bit_length() - 1
    if not fb & kings:
        return (0, 0 if abs(t - f) == 5 else 1, t), f, t
    d = next(d for d in range(4) if _RAY[d][f] >> t & 1)
    return (1, f, d, t), f, t


def generate(white: int, black: int, kings: int, turn: bool) -> list[Move]:
    """Every legal move of a position given as bitboards (layout of ``_tables``): slides men first, then
    kings; captures by from-square, then in the order their routes are searched (``_route``)."""
    return [m for _, m in sorted(_generate(white, black, kings, turn), key=lambda km: km[0])]


def kernel_order(white: int, black: int, kings: int, turn: bool) -> list[tuple[int, int, int]]:
    """The (a, b, c) triples of the legal moves in the generator's order (the order of perft's root moves),
    from the children the perft kernel collects one ply down."""
    from ._search import frontier_kernel

    own, opp = (white, black) if turn else (black, white)
    c_own, c_opp, c_k, _, _, n = frontier_kernel(own, opp, kings, turn, 1, MAX_MOVES)
    if n < 0:
        raise DraughtsError("move list overflow")
    return [(own ^ int(x), opp ^ int(y), kings ^ int(k)) for x, y, k in zip(c_opp, c_own, c_k)]


def line_moves(white: int, black: int, kings: int, turn: bool, triples) -> list[Move]:
    """The moves of a line of (a, b, c) triples from a position given as bitboards, as far as each is legal in
    turn. A slide is built from its triple; only a ply whose move is a capture lists its moves in full."""
    out = []
    for t in triples:
        t = tuple(int(x) for x in t)
        if t not in kernel_order(white, black, kings, turn):
            break
        a, b, c = t
        if b:
            m = next(m for m in generate(white, black, kings, turn) if m._xor == t)
        else:
            _, f, to = _slide_key(a, white if turn else black, kings)
            m = Move(int(BIT2SQ[f]), int(BIT2SQ[to]), (), (int(BIT2SQ[f]), int(BIT2SQ[to])), False, t)
        out.append(m)
        if turn:
            white, black = white ^ a, black ^ b
        else:
            black, white = black ^ a, white ^ b
        kings ^= c
        turn = not turn
    return out


def _generate(white: int, black: int, kings: int, turn: bool) -> list[tuple[tuple, Move]]:
    """(sort key, move) of every legal move."""
    own, opp = (white, black) if turn else (black, white)
    raw = []
    home: dict[tuple[int, int, int], int] = {}  # captures that end on the capturing piece's square, seen so far
    for a, b, c in kernel_order(white, black, kings, turn):
        if not b:
            key, f, t = _slide_key(a, own, kings)
            raw.append((key, f, t, [f, t], (a, b, c)))
            continue
        if a:
            fb = a & own
            candidates = [fb]
            t = (a ^ fb).bit_length() - 1
        else:  # the piece came back to its square: any of ours that can take these pieces so
            candidates = [1 << i for i in range(64) if own >> i & 1]
            t = None
        k = home.get((a, b, c), 0) if not a else 0
        for fb in candidates:
            f = fb.bit_length() - 1
            route = _route(f, f if t is None else t, b, (own | opp) ^ fb, bool(fb & kings))
            if route is None:
                continue
            if k:  # an earlier identical triple was this piece's
                k -= 1
                continue
            break
        else:  # pragma: no cover - the generator listed a capture no route makes
            raise DraughtsError(f"no capture route for move {(a, b, c)!r}")
        if not a:
            home[(a, b, c)] = home.get((a, b, c), 0) + 1
        raw.append(((2, f, route), f, route[-1][1], [f] + [s for _, s in route], (a, b, c)))
    ends: dict[tuple[int, int], int] = {}
    for _, f, t, *_ in raw:
        ends[(f, t)] = ends.get((f, t), 0) + 1
    return [(key, Move(int(BIT2SQ[f]), int(BIT2SQ[t]), tuple(sorted(squares_of(x[1]))),
                       tuple(int(BIT2SQ[s]) for s in p), ends[(f, t)] > 1, x))
            for key, f, t, p, x in raw]
