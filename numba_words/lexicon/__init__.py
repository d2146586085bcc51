"""Lexicons: word lists as flat arrays and a minimised DAWG, with word-finder queries."""
from .alphabet import ENGLISH, Alphabet
from .lexicon import NAMED, Lexicon, WordMatch

__all__ = ["Alphabet", "ENGLISH", "Lexicon", "NAMED", "WordMatch", "warmup"]


def warmup() -> None:
    """Compile (or load from Numba's cache) every lexicon kernel: building, the cache-file check, lookups and
    the queries."""
    from . import cache

    lex = Lexicon.from_words(["AB", "BA", "ABA", "BAA"], alphabet="AB")
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
