"""Draughts input errors: all subclasses of :class:`numba_words.NumbaWordsError` (a ``ValueError``)."""
from __future__ import annotations

from ..errors import NumbaWordsError


class DraughtsError(NumbaWordsError):
    """Base class of draughts input errors."""


class InvalidPositionError(DraughtsError):
    """Bitboards or a FEN string that do not describe a position (pieces off the board, on one square twice,
    a man on its crowning row)."""


class InvalidFenError(InvalidPositionError):
    """A FEN string that cannot be parsed or describes an impossible position."""


class IllegalMoveError(DraughtsError):
    """A move (object or notation) that is not legal in the position."""


class AmbiguousMoveError(IllegalMoveError):
    """Short notation that matches several legal moves (give the full path, e.g. ``'28x19x8'``)."""


class EmptyStackError(DraughtsError, IndexError):
    """``Position.pop()`` with no move pushed (also an ``IndexError``, as python-chess raises there)."""


class PdnError(DraughtsError):
    """Malformed PDN, or a PDN game with an illegal move; the message names the line and move number."""


def quote(x, limit: int = 80) -> str:
    """``repr(x)`` for an error message, cut to about ``limit`` characters so a huge input stays readable."""
    r = repr(x)
    if len(r) <= limit:
        return r
    size = f" ({len(x):,} characters)" if isinstance(x, (str, bytes)) else ""
    return f"{r[:limit]}...{size}"


class ProtocolError(DraughtsError):
    """A malformed Hub or DamExchange (DXP) message: the message names what is wrong."""
