"""Scoring tables and game rules as data, so another edition's tables can be swapped in."""
from __future__ import annotations

from dataclasses import dataclass, field

KINDS = ("plain", "green", "gold", "sapphire", "diamond", "fire")
KIND_CHARS = ".gysdf"  # one character per kind in board text: . plain, g green, y gold, s sapphire, d diamond, f fire
PLAIN, GREEN, GOLD, SAPPHIRE, DIAMOND, FIRE = range(6)


@dataclass(frozen=True)
class Scoring:
    """Score of a word = ``(level + sum of tile values) * (letters + sum of gem bonuses) * multiplier``.

    ``letter_values`` maps a letter (``"QU"`` for the Qu tile) to its value; ``gem_bonus`` a tile kind to its
    bonus. Letters missing from the table are worth ``default_value``.
    """

    name: str
    letter_values: dict
    gem_bonus: dict
    multiplier: int = 10
    default_value: int = 1

    def value(self, letter: str) -> int:
        return int(self.letter_values.get(letter.upper(), self.default_value))

    def bonus(self, kind: str) -> int:
        return int(self.gem_bonus.get(kind, 0))

    def score(self, values, letters: int, bonuses=(), level: int = 1) -> int:
        return (level + sum(values)) * (letters + sum(bonuses)) * self.multiplier


BOOKWORM_DELUXE = Scoring(
    name="Bookworm Deluxe",
    letter_values=dict(A=1, B=4, C=4, D=3, E=1, F=5, G=3, H=5, I=1, J=8, K=7, L=2, M=4, N=2, O=1, P=4, QU=9,
                       R=2, S=1, T=2, U=2, V=5, W=6, X=8, Y=6, Z=10),
    gem_bonus=dict(green=2, gold=4, sapphire=7, diamond=10),
)

# Boggle: points by word length (letters), 8 and longer worth the last entry.
BOGGLE_POINTS = (0, 0, 0, 1, 1, 2, 3, 5, 11)


def boggle_points(letters: int) -> int:
    return BOGGLE_POINTS[min(letters, len(BOGGLE_POINTS) - 1)]


# Letter weights for new tiles: Bookworm-like (English frequencies, Qu rare), as relative weights.
BOOKWORM_FREQUENCIES = dict(
    A=8.2, B=1.8, C=3.0, D=4.0, E=11.5, F=1.9, G=2.4, H=3.6, I=7.8, J=0.25, K=0.9, L=4.6, M=2.6, N=6.8, O=7.2,
    P=2.4, QU=0.3, R=6.9, S=6.5, T=6.8, U=3.5, V=1.0, W=1.4, X=0.3, Y=1.7, Z=0.3,
)


@dataclass(frozen=True)
class Rules:
    """Game rules for :meth:`Board.play` and :meth:`Board.play_game` (all data, all swappable).

    ``gem_for_letters``: a word of at least that many letters creates that gem among the new tiles (longest
    threshold met wins). ``fire_max_letters``/``fire_chance``: a word of at most that many letters spawns a
    fire tile among the new tiles with that probability; ``fire_chance_any`` times the level per turn regardless.
    Fire tiles burn the tile below them once a turn; a fire tile reaching the bottom row ends the game.
    ``words_per_level``: the level (added to every score) goes up after that many words.
    """

    scoring: Scoring = BOOKWORM_DELUXE
    frequencies: dict = field(default_factory=lambda: dict(BOOKWORM_FREQUENCIES))
    gem_for_letters: tuple = ((5, "green"), (6, "gold"), (7, "sapphire"), (8, "diamond"))
    fire_max_letters: int = 3
    fire_chance: float = 0.6
    fire_chance_any: float = 0.04
    words_per_level: int = 10
    min_len: int = 3
    max_len: int = 12


DEFAULT_RULES = Rules()


# Standard Boggle points by word length in letters (Qu counts 2): 3-4 letters 1, 5 -> 2, 6 -> 3, 7 -> 5,
# 8 or more -> 11; shorter words score nothing.
BOGGLE_POINTS = (0, 0, 0, 1, 1, 2, 3, 5, 11)


def boggle_points(length: int) -> int:
    """Standard Boggle points of a word of ``length`` letters."""
    return BOGGLE_POINTS[min(int(length), len(BOGGLE_POINTS) - 1)]
