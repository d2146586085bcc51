"""numba_words: Numba-compiled move generators for word and board games.

Importing the package compiles nothing; kernels compile (or load from Numba's on-disk cache) on first use.
"""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import InvalidWordError, LexiconError, NumbaWordsError  # noqa: E402

__all__ = ["Lexicon", "NumbaWordsError", "LexiconError", "InvalidWordError", "warmup", "__version__"]

ENGINES = ("lexicon", "draughts", "scrabble", "bookworm")


def warmup(engines=ENGINES) -> dict:
    """Compile (first run) or load from Numba's on-disk cache every kernel of the named engines, so that
    later calls and timings exclude compilation. Returns seconds spent per engine."""
    import importlib
    import time

    out = {}
    for name in engines:
        if name not in ENGINES:
            raise NumbaWordsError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}")
        t = time.perf_counter()
        importlib.import_module(f"{__name__}.{name}").warmup()
        out[name] = time.perf_counter() - t
    return out


def __getattr__(name):
    if name == "Lexicon":
        from .lexicon import Lexicon

        return Lexicon
    raise AttributeError(f"module 'numba_words' has no attribute {name!r}")
