"""Lexicons: word lists as flat arrays and a minimised DAWG, with word-finder queries."""
from .alphabet import ENGLISH, Alphabet
from ..errors import LexiconError
from .lexicon import NAMED, Lexicon, WordMatch

__all__ = ["Alphabet", "ENGLISH", "Lexicon", "NAMED", "WordMatch", "warmup"]


WARMUP_PARTS = ("build", "queries")


def warmup(parts=WARMUP_PARTS) -> None:
    """Compile (or load from Numba's cache) the lexicon kernels of ``parts``: ``"build"`` (building a lexicon
    from words) and ``"queries"`` (the cache-file check, lookups and the word-finder queries)."""
    from . import cache

    parts = (parts,) if isinstance(parts, str) else tuple(parts)
    unknown = set(parts) - set(WARMUP_PARTS)
    if unknown:
        raise LexiconError(f"warmup parts must be among {', '.join(WARMUP_PARTS)}, got {sorted(unknown)}")
    lex = Lexicon.from_words(["AB", "BA", "ABA", "BAA"], alphabet="AB")
    if "queries" not in parts:
        return
    cache.check_arrays({"flat": lex.flat, "offsets": lex.offsets, "dawg": lex.dawg}, len(lex.alphabet))
    "ABA" in lex  # noqa: B015
    lex.contains_many(["AB", "Q"])
    lex.anagrams("AB?")
    lex.match("A.", rack="B?", method="bitset")
    lex.match("A.", rack="B?", method="dawg")
    lex.starting_with("A")
    lex.containing("B")
    _ = lex.reversed_dawg
    lex.stats()
