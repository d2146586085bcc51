"""Errors of the crossword-game engine (all ``ValueError`` subclasses via :class:`NumbaWordsError`)."""
from __future__ import annotations

from ..errors import NumbaWordsError


class ScrabbleError(NumbaWordsError):
    """Base class of the Scrabble engine's errors."""


class InvalidCgpError(ScrabbleError):
    """A malformed CGP (Crossword Game Position) string, or one the variant's tile set cannot hold."""


class InvalidRackError(ScrabbleError):
    """A rack with too many tiles, characters outside the alphabet, or more of a letter than the bag holds."""


class InvalidBoardError(ScrabbleError):
    """Board arrays of the wrong shape, type or range, or tiles placed off the board or on a taken square."""


class InvalidNotationError(ScrabbleError):
    """A move in notation that cannot be parsed, does not fit the board or is not legal."""


class IllegalPlayError(InvalidNotationError):
    """A well-formed play that is not legal in the position."""


class UnknownVariantError(ScrabbleError):
    """A variant name that is not defined."""


class InvalidVariantError(ScrabbleError):
    """A :class:`Variant` whose data do not fit the engine (layout, alphabet, values, counts, rack size)."""


class GcgError(ScrabbleError):
    """Base class of GCG reading errors."""


class InvalidGcgError(GcgError):
    """A malformed GCG game file (a line that cannot be read, a placement off the board, ...); the message names
    the line."""


class GcgInconsistencyError(InvalidGcgError):
    """A GCG file whose record does not hold together (a total that does not add up, a wrong end-of-game rack
    value, a rack the bag cannot hold, an event out of turn or order, ...), refused by ``read_gcg(strict=True)``;
    the message names the line."""


class GcgWarning(UserWarning):
    """An inconsistency in a GCG file that ``read_gcg`` (lenient, the default) took the file's word for; the
    message names the line. ``strict=True`` raises :class:`GcgInconsistencyError` instead."""


def short(x, limit: int = 80) -> str:
    """``repr(x)`` cut to about ``limit`` characters, for error messages that quote input."""
    r = repr(x)
    if len(r) <= limit:
        return r
    return f"{r[:limit - 20]}...{r[-12:]} ({len(x) if hasattr(x, '__len__') else len(r)} long)"


class InvalidLeavesError(ScrabbleError):
    """A leave table or KLV2 leave file that cannot be read or does not fit the variant."""
