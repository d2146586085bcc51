"""Bookworm/Boggle input errors: every one a :class:`BookwormError`, itself a
:class:`~numba_words.errors.NumbaWordsError` (a :class:`ValueError`)."""
from ..errors import NumbaWordsError


class BookwormError(NumbaWordsError):
    """Base class of every error the Bookworm engine raises for bad input."""


class InvalidBoardError(BookwormError):
    """A board text, tile letter, tile kind, tile-code array or grid that cannot be read."""


class InvalidPathError(BookwormError):
    """A played path that is not a chain of distinct adjacent tiles spelling a word."""


class InvalidParameterError(BookwormError):
    """A word-length limit, level, count, strategy or other parameter out of range."""


class SearchLimitError(BookwormError):
    """A search that passed its path budget (``max_nodes``): the lexicon makes the paths explode."""
