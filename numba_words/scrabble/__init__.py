"""Crossword-game engine (Scrabble, Words With Friends, Wordfeud): every legal play, scored, by Numba kernels.

Quick start::

    from numba_words.scrabble import Position
    pos = Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACDINRT/ 0/0 0")
    pos.legal_plays().best(5)
"""
from __future__ import annotations

from .batch import generate_many
from .errors import (IllegalPlayError, InvalidCgpError, InvalidGcgError, InvalidNotationError, InvalidRackError,
                     ScrabbleError, UnknownVariantError)
from .generator import PLAY_DTYPE, Board, generate, generate_batch, warmup
from .position import Game, Play, Plays, Position, parse_coord, play_game, read_gcg
from .variants import SCRABBLE, VARIANTS, WORDFEUD, WORDFEUD_NB, WORDS_WITH_FRIENDS, Variant, get_variant

__all__ = [
    "Board", "Game", "IllegalPlayError", "InvalidCgpError", "InvalidGcgError", "InvalidNotationError",
    "InvalidRackError", "PLAY_DTYPE", "Play", "Plays", "Position", "SCRABBLE", "ScrabbleError",
    "UnknownVariantError", "VARIANTS", "Variant", "WORDFEUD", "WORDFEUD_NB", "WORDS_WITH_FRIENDS", "generate",
    "generate_batch", "generate_many", "get_variant", "parse_coord", "play_game", "read_gcg", "warmup",
]
