"""Crossword-game engine (Scrabble, Words With Friends, Wordfeud): every legal play, scored, by Numba kernels.

Quick start::

    from numba_words.scrabble import Position
    pos = Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACDINRT/ 0/0 0")
    pos.best()                      # the top play (pruned search), or None
    pos.legal_plays().top(5)        # the five best of every legal play
    pos.legal_plays().to_records()  # as dicts (coord, word, score, tiles, leave, notation, equity)
    pos.best("equity")              # the play of highest score + leave value (pos.leaves: a KLV2 table)
    best_many(cgp_lines, by="equity", threads=2)   # the best play of each of many positions (CGP text read too)
    play_games(1000, ("equity", "score"), threads=2).summary()   # self-play statistics
    pos.simulate(candidates=15, plies=2, iterations=1000)         # Monte-Carlo simulation of the top plays
    pos.endgame()                   # exact endgame (bag empty, pos.opp_rack known): value, best play, PV
    infer(before, "8D CAIRD")       # the leaves the opponent may have kept after that play, weighted
    peg(pos)                        # pre-endgame (1-6 in the bag): plays by win probability over every draw
    analyze_game("game.gcg")        # every turn against the engine's choice, the loss, the mistakes ranked
"""
from __future__ import annotations

from ._board import BoardArrays
from .errors import (IllegalPlayError, InvalidBoardError, InvalidCgpError, InvalidGcgError, InvalidLeavesError,
                     InvalidNotationError, InvalidRackError, InvalidVariantError, ScrabbleError, UnknownVariantError)
from .errors import GcgError, GcgInconsistencyError, GcgWarning
from .game import Game, play_game
from .autoplay import AutoplayResult, Player, play_games
from .endgame import EndgameResult, solve_endgame
from .sim import SimResult, simulate
from .infer import Inference, infer
from .peg import PegResult, peg
from .analyze import GameAnalysis, analyze_game, analyze_games
from .gcg import read_gcg, write_gcg
from .leaves import Exchange, Leaves, load_leaves
from .plays import PLAY_DTYPE, Play, Plays
from .position import Position, parse_coord
from .search import WARMUP_PARTS, best_many, generate, generate_batch, generate_many, warmup
from .variants import SCRABBLE, VARIANTS, WORDFEUD, WORDFEUD_NB, WORDS_WITH_FRIENDS, Variant, get_variant

__all__ = [
    "Inference", "infer", "PegResult", "peg", "GameAnalysis", "analyze_game", "analyze_games",
    "AutoplayResult", "EndgameResult", "SimResult", "simulate", "solve_endgame", "Exchange", "InvalidLeavesError", "Leaves", "Player", "load_leaves", "play_games",
    "BoardArrays", "Game", "IllegalPlayError", "InvalidBoardError", "InvalidCgpError", "InvalidGcgError",
    "InvalidNotationError", "InvalidRackError", "InvalidVariantError", "PLAY_DTYPE", "Play", "Plays", "Position",
    "SCRABBLE", "ScrabbleError", "UnknownVariantError", "VARIANTS", "Variant", "WORDFEUD", "WORDFEUD_NB",
    "WORDS_WITH_FRIENDS", "best_many", "generate", "generate_batch", "generate_many", "get_variant", "parse_coord",
    "play_game", "read_gcg", "warmup", "write_gcg",
    "GcgError", "GcgInconsistencyError", "GcgWarning",
]


def __getattr__(name):
    if name == "BoardWidget":  # the notebook widget: needs anywidget (the "widgets" extra), imported on first use
        from .._widget import lazy_widget

        return lazy_widget(__name__ + ".widget", name)
    if name == "Board":  # the old name of BoardArrays (bookworm's Board is a playing board)
        import warnings

        warnings.warn("numba_words.scrabble.Board is now BoardArrays", DeprecationWarning, stacklevel=2)
        return BoardArrays
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
