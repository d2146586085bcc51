"""Variants as data: premium layout + tile distribution + letter values + bingo bonus + rack size.

Layouts are 15 strings of 15 characters: ``.`` plain, ``l`` double letter, ``L`` triple letter,
``w`` double word, ``W`` triple word, ``*`` the centre star (a double word in Scrabble, plain in WWF and
Wordfeud; the start square in all three). A layout array is all a variant needs, so Wordfeud's "random
board" layouts are just other ``layout`` strings.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._tables import MAX_RACK, N_CODES, SIZE
from .errors import InvalidVariantError, UnknownVariantError, short

LAYOUT_SQUARES = ".lLwW*"

ENGLISH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
NORWEGIAN = ENGLISH + "ÆØÅ"


def _mirror(top8: list[str]) -> list[str]:
    """The 15 rows of a layout symmetric about the centre row, from its first 8 rows."""
    rows = [r.replace(" ", "") for r in top8]
    for r in rows:
        assert len(r) == SIZE and r == r[::-1], r
    return rows + rows[-2::-1]


SCRABBLE_LAYOUT = _mirror([
    "W..l...W...l..W",
    ".w...L...L...w.",
    "..w...l.l...w..",
    "l..w...l...w..l",
    "....w.....w....",
    ".L...L...L...L.",
    "..l...l.l...l..",
    "W..l...*...l..W",
])

WWF_LAYOUT = _mirror([
    "...W..L.L..W...",
    "..l..w...w..l..",
    ".l..l.....l..l.",
    "W..L...w...L..W",
    "..l...l.l...l..",
    ".w...L...L...w.",
    "L...l.....l...L",
    "...w...*...w...",
])

WORDFEUD_LAYOUT = _mirror([
    "L...W..l..W...L",
    ".l...L...L...l.",
    "..w...l.l...w..",
    "...L...l...L...",
    "W...w.l.l.w...W",
    ".L...L...L...L.",
    "..l.l.....l.l..",
    "l..w...*...w..l",
])


@dataclass(frozen=True)
class Variant:
    """One crossword game as data. ``values``/``counts`` are keyed by letter; ``blanks`` is the blank count."""

    name: str
    layout: tuple
    values: dict
    counts: dict
    blanks: int = 2
    bingo: int = 50
    rack_size: int = 7
    centre_word_mult: int = 2
    alphabet: str = ENGLISH
    lexicon: str = "twl06"
    _arrays: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __post_init__(self):
        def bad(msg):
            return InvalidVariantError(f"variant {short(self.name)}: {msg}")

        def whole(x, lo, hi):
            return not isinstance(x, bool) and isinstance(x, (int, np.integer)) and lo <= x <= hi

        if not isinstance(self.alphabet, str) or not 1 <= len(self.alphabet) <= N_CODES \
                or len(set(self.alphabet)) != len(self.alphabet) or self.alphabet != self.alphabet.upper():
            raise bad(f"alphabet must be 1..{N_CODES} distinct upper-case letters, got {short(self.alphabet)}")
        if not isinstance(self.layout, (tuple, list)) or len(self.layout) != SIZE \
                or any(not isinstance(r, str) or len(r) != SIZE or set(r) - set(LAYOUT_SQUARES) for r in self.layout):
            raise bad(f"layout must be {SIZE} rows of {SIZE} squares from {LAYOUT_SQUARES!r}")
        for what, table in (("value", self.values), ("tile count", self.counts)):
            if not isinstance(table, dict):
                raise bad(f"{what}s must be a dict keyed by letter, got {short(table)}")
            for ch, x in table.items():
                if not isinstance(ch, str) or ch not in self.alphabet or len(ch) != 1:
                    raise bad(f"{what} for {short(ch)} outside alphabet {self.alphabet!r}")
                if not whole(x, 0, 1000):
                    raise bad(f"{what} for {ch!r} must be a whole number 0..1000, got {short(x)}")
        if not whole(self.rack_size, 1, MAX_RACK):
            raise bad(f"rack size must be 1..{MAX_RACK}, got {short(self.rack_size)}")
        if not whole(self.blanks, 0, 1000) or not whole(self.bingo, 0, 1000):
            raise bad(f"blanks and bingo must be whole numbers 0..1000, got {short(self.blanks)}, {short(self.bingo)}")
        if not whole(self.centre_word_mult, 1, 3):
            raise bad(f"centre_word_mult must be 1, 2 or 3, got {short(self.centre_word_mult)}")

    @property
    def n_tiles(self) -> int:
        """The number of tiles in a full bag, blanks included."""
        return sum(self.counts.values()) + self.blanks

    def letter_mult(self) -> np.ndarray:
        """(15, 15) int64 letter multipliers."""
        return self._premium()[0]

    def word_mult(self) -> np.ndarray:
        """(15, 15) int64 word multipliers."""
        return self._premium()[1]

    def _premium(self):
        if "premium" not in self._arrays:
            lm = np.ones((SIZE, SIZE), dtype=np.int64)
            wm = np.ones((SIZE, SIZE), dtype=np.int64)
            for r, row in enumerate(self.layout):
                for c, ch in enumerate(row):
                    if ch == "l":
                        lm[r, c] = 2
                    elif ch == "L":
                        lm[r, c] = 3
                    elif ch == "w":
                        wm[r, c] = 2
                    elif ch == "W":
                        wm[r, c] = 3
                    elif ch == "*":
                        wm[r, c] = self.centre_word_mult
            lm.flags.writeable = wm.flags.writeable = False
            self._arrays["premium"] = (lm, wm)
        return self._arrays["premium"]

    def value_array(self) -> np.ndarray:
        """int64 letter values indexed by letter code (32 entries; unused codes score 0)."""
        if "values" not in self._arrays:
            v = np.zeros(N_CODES, dtype=np.int64)
            for ch, x in self.values.items():
                v[self.alphabet.index(ch)] = x
            v.flags.writeable = False  # (shared by every caller; the kernels read writable copies)
            self._arrays["values"] = v
        return self._arrays["values"]

    def bag_list(self) -> list:
        """The full tile set as a sorted list of characters (``?`` for blanks)."""
        out = []
        for ch in self.alphabet:
            out += [ch] * self.counts.get(ch, 0)
        return out + ["?"] * self.blanks


def _d(s: str) -> dict:
    out = {}
    for item in s.split():
        k, v = item.split("=")
        out[k] = int(v)
    return out


SCRABBLE = Variant(
    "scrabble", tuple(SCRABBLE_LAYOUT),
    _d("A=1 B=3 C=3 D=2 E=1 F=4 G=2 H=4 I=1 J=8 K=5 L=1 M=3 N=1 O=1 P=3 Q=10 R=1 S=1 T=1 U=1 V=4 W=4 X=8 "
       "Y=4 Z=10"),
    _d("A=9 B=2 C=2 D=4 E=12 F=2 G=3 H=2 I=9 J=1 K=1 L=4 M=2 N=6 O=8 P=2 Q=1 R=6 S=4 T=6 U=4 V=2 W=2 X=1 "
       "Y=2 Z=1"),
    blanks=2, bingo=50, centre_word_mult=2)

WORDS_WITH_FRIENDS = Variant(
    "wwf", tuple(WWF_LAYOUT),
    _d("A=1 B=4 C=4 D=2 E=1 F=4 G=3 H=3 I=1 J=10 K=5 L=2 M=4 N=2 O=1 P=4 Q=10 R=1 S=1 T=1 U=2 V=5 W=4 X=8 "
       "Y=3 Z=10"),
    _d("A=9 B=2 C=2 D=5 E=13 F=2 G=3 H=4 I=8 J=1 K=1 L=4 M=2 N=5 O=8 P=2 Q=1 R=6 S=5 T=7 U=4 V=2 W=2 X=1 "
       "Y=2 Z=1"),
    blanks=2, bingo=35, centre_word_mult=1)

WORDFEUD = Variant(
    "wordfeud", tuple(WORDFEUD_LAYOUT),
    _d("A=1 B=4 C=4 D=2 E=1 F=4 G=3 H=4 I=1 J=10 K=5 L=1 M=3 N=1 O=1 P=4 Q=10 R=1 S=1 T=1 U=2 V=4 W=4 X=8 "
       "Y=4 Z=10"),
    _d("A=10 B=2 C=2 D=5 E=12 F=2 G=3 H=3 I=9 J=1 K=1 L=4 M=2 N=6 O=7 P=2 Q=1 R=6 S=5 T=7 U=4 V=2 W=2 X=1 "
       "Y=2 Z=1"),
    blanks=2, bingo=40, centre_word_mult=1)

# Wordfeud in Norwegian (bokmål): its own alphabet, tile set and values; same board and bingo. The counts and
# values below are a best recollection, not checked against the app (100 tiles here): as data, they are
# corrected in one place. Q, X, Z have values but no tiles.
WORDFEUD_NB = Variant(
    "wordfeud-nb", tuple(WORDFEUD_LAYOUT),
    _d("A=1 B=4 C=10 D=1 E=1 F=2 G=4 H=3 I=2 J=4 K=3 L=2 M=2 N=1 O=3 P=4 Q=10 R=1 S=1 T=1 U=4 V=5 W=10 X=10 "
       "Y=6 Z=10 Æ=8 Ø=4 Å=4"),
    _d("A=7 B=3 C=1 D=5 E=9 F=4 G=4 H=3 I=5 J=2 K=4 L=5 M=3 N=6 O=4 P=2 R=6 S=6 T=6 U=3 V=3 W=1 Y=1 "
       "Æ=1 Ø=2 Å=2"),
    blanks=2, bingo=40, centre_word_mult=1, alphabet=NORWEGIAN, lexicon="nb-small")

VARIANTS = {v.name: v for v in (SCRABBLE, WORDS_WITH_FRIENDS, WORDFEUD, WORDFEUD_NB)}
ALIASES = {"words-with-friends": "wwf", "wordswithfriends": "wwf", "twl06": "scrabble", "nb": "wordfeud-nb",
           "wordfeud-no": "wordfeud-nb"}


def get_variant(name) -> Variant:
    """A :class:`Variant` by name (``scrabble``, ``wwf``, ``wordfeud``, ``wordfeud-nb``) or the variant itself."""
    if isinstance(name, Variant):
        return name
    if not isinstance(name, str):
        raise UnknownVariantError(f"a variant is a name or a Variant, got {short(name)}")
    key = name.lower()
    key = ALIASES.get(key, key)
    try:
        return VARIANTS[key]
    except KeyError:
        raise UnknownVariantError(f"unknown variant {short(name)}; known: {', '.join(sorted(VARIANTS))}") from None
