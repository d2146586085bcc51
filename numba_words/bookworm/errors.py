"""Bookworm/Boggle input errors (all :class:`ValueError` subclasses via :class:`NumbaWordsError`)."""
from ..errors import NumbaWordsError


class InvalidBoardError(NumbaWordsError):
    """A board text, tile letter, tile kind or grid that cannot be read."""


class InvalidPathError(NumbaWordsError):
    """A played path that is not a chain of distinct adjacent tiles spelling a word."""


class InvalidParameterError(NumbaWordsError):
    """A word-length limit, thread count or strategy out of range."""
