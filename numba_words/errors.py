"""Exceptions: every bad input raises a subclass of :class:`ValueError` naming what is wrong and where."""


class NumbaWordsError(ValueError):
    """Base class of every input error raised by numba_words."""


class LexiconError(NumbaWordsError):
    """A word list or lexicon name that cannot be loaded."""


class InvalidWordError(NumbaWordsError):
    """A word, rack or pattern with characters outside the lexicon's alphabet, or of a bad length."""


class WordIndexError(LexiconError, IndexError):
    """A word index outside a lexicon's word list (also an ``IndexError``, as for a list)."""


def quote(x, limit: int = 80) -> str:
    """``repr(x)`` for an error message, cut to ``limit`` characters with ``...`` (inputs can be huge)."""
    text = repr(x)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class MissingExtraError(NumbaWordsError):
    """An optional feature whose packages are not installed; the message names the extra to install."""
