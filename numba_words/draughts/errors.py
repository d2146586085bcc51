"""Draughts input errors: all subclasses of :class:`numba_words.NumbaWordsError` (a ``ValueError``)."""
from __future__ import annotations

from ..errors import NumbaWordsError


class DraughtsError(NumbaWordsError):
    """Base class of draughts input errors."""


class InvalidFenError(DraughtsError):
    """A FEN string that cannot be parsed or describes an impossible position."""


class IllegalMoveError(DraughtsError):
    """A move (object or notation) that is not legal in the position."""


class AmbiguousMoveError(IllegalMoveError):
    """Short notation that matches several legal moves (give the full path, e.g. ``'28x19x8'``)."""


class PdnError(DraughtsError):
    """Malformed PDN, or a PDN game with an illegal move; the message names the line and move number."""
