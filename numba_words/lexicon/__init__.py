"""Lexicons: word lists as flat arrays and a minimised DAWG, with word-finder queries."""
from .alphabet import ENGLISH, Alphabet
from .lexicon import NAMED, Lexicon, WordMatch

__all__ = ["Alphabet", "ENGLISH", "Lexicon", "NAMED", "WordMatch"]
