"""numba_words: Numba-compiled move generators for word and board games.

Importing the package compiles nothing; kernels compile (or load from Numba's on-disk cache) on first use.
"""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import InvalidWordError, LexiconError, NumbaWordsError  # noqa: E402

__all__ = ["Lexicon", "NumbaWordsError", "LexiconError", "InvalidWordError", "__version__"]


def __getattr__(name):
    if name == "Lexicon":
        from .lexicon import Lexicon

        return Lexicon
    raise AttributeError(f"module 'numba_words' has no attribute {name!r}")
