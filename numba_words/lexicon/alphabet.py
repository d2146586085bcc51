"""Alphabets as data: up to 32 letters, so every letter set fits a 32-bit mask."""
from __future__ import annotations

import numpy as np

from ..errors import InvalidWordError, LexiconError, quote

MAX_LETTERS = 32
ENGLISH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

NEWLINE = -1
SPACE = -2
INVALID = -3


class Alphabet:
    """An ordered set of upper-case letters; letter ``i`` is bit ``i`` of every letter mask."""

    __slots__ = ("letters", "_index", "_lut")

    def __init__(self, letters: str = ENGLISH):
        if not isinstance(letters, str) or not letters:
            raise LexiconError(f"alphabet must be a non-empty string of letters, got {quote(letters)}")
        given = letters
        letters = letters.upper()
        if len(letters) != len(given):
            raise LexiconError(f"alphabet {quote(given)}: a letter is more than one letter in upper case "
                               f"({quote(letters)}); give the upper-case letters")
        if len(letters) > MAX_LETTERS:
            raise LexiconError(f"alphabet {quote(letters)} has {len(letters)} letters; at most {MAX_LETTERS} fit a "
                               "mask")
        for ch in letters:
            if not ch.isalpha():
                raise LexiconError(f"alphabet {quote(letters)}: {ch!r} is not a letter")
        if len(set(letters)) != len(letters):
            raise LexiconError(f"alphabet {quote(letters)} repeats a letter")
        self.letters = letters
        self._index = {ch: i for i, ch in enumerate(letters)}
        top = max(max(ord(c) for c in letters), 127) + 1
        lut = np.full(top, INVALID, dtype=np.int8)
        for i, ch in enumerate(letters):
            lut[ord(ch)] = i
        lut[ord("\n")] = NEWLINE
        for ch in " \t\r\f\v":
            lut[ord(ch)] = SPACE
        self._lut = lut

    def __len__(self) -> int:
        return len(self.letters)

    def __eq__(self, other) -> bool:
        return isinstance(other, Alphabet) and other.letters == self.letters

    def __hash__(self) -> int:
        return hash(self.letters)

    def __repr__(self) -> str:
        return f"Alphabet({self.letters!r})"

    def __contains__(self, ch: str) -> bool:
        return ch in self._index

    def index(self, ch: str) -> int:
        """Letter index of ``ch`` (case-insensitive); :class:`InvalidWordError` if not in the alphabet."""
        j = self._index.get(ch.upper()) if isinstance(ch, str) else None
        if j is None:
            raise InvalidWordError(f"{quote(ch)} is not a letter of the alphabet {self.letters!r}")
        return j

    @property
    def full_mask(self) -> int:
        """Mask with every letter's bit set."""
        return (1 << len(self.letters)) - 1

    def encode(self, word: str, what: str = "word") -> np.ndarray:
        """Letter indices (``uint8``) of ``word``; raises :class:`InvalidWordError` naming the bad character."""
        if not isinstance(word, str):
            raise InvalidWordError(f"{what} must be a string, got {quote(word)}")
        upper = word.upper()  # may be longer than word ('ß' -> 'SS'), as when a word list is read
        out = np.empty(len(upper), dtype=np.uint8)
        idx = self._index
        for i, ch in enumerate(upper):
            j = idx.get(ch)
            if j is None:
                at = f"character {ch!r} at position {i + 1}" if len(upper) == len(word) else f"character {ch!r}"
                raise InvalidWordError(f"{what} {quote(word)}: {at} is not in the alphabet {self.letters!r}")
            out[i] = j
        return out

    def decode(self, codes) -> str:
        """The word spelled by letter indices ``codes``."""
        letters = self.letters
        return "".join(letters[int(c)] for c in codes)

    def map_codepoints(self, cps: np.ndarray) -> np.ndarray:
        """Map Unicode code points to letter indices, ``NEWLINE``, ``SPACE`` or ``INVALID`` (``int8``)."""
        lut = self._lut
        out = np.full(cps.shape, INVALID, dtype=np.int8)
        ok = cps < lut.shape[0]
        out[ok] = lut[cps[ok]]
        return out

    def mask_of(self, letters: str) -> int:
        """32-bit mask of a set of letters."""
        m = 0
        for ch in letters:
            m |= 1 << self.index(ch)
        return m
