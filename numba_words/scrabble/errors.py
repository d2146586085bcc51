"""Errors of the crossword-game engine (all ``ValueError`` subclasses via :class:`NumbaWordsError`)."""
from __future__ import annotations

from ..errors import NumbaWordsError


class ScrabbleError(NumbaWordsError):
    """Base class of the Scrabble engine's errors."""


class InvalidCgpError(ScrabbleError):
    """A malformed CGP (Crossword Game Position) string."""


class InvalidRackError(ScrabbleError):
    """A rack with too many tiles or characters outside the alphabet."""


class InvalidNotationError(ScrabbleError):
    """A move in notation that cannot be parsed, does not fit the board or is not legal."""


class IllegalPlayError(InvalidNotationError):
    """A well-formed play that is not legal in the position."""


class UnknownVariantError(ScrabbleError):
    """A variant name that is not defined."""


class InvalidGcgError(ScrabbleError):
    """A malformed GCG game file."""
