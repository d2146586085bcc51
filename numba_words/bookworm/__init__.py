"""Bookworm (hex letter grid) and Boggle: every word on a board, fast, and a driver that plays the game."""
from .board import STRATEGIES, Board, Game, Turn, play_game
from .errors import InvalidBoardError, InvalidParameterError, InvalidPathError
from .geometry import BOGGLE4, BOGGLE5, BOOKWORM, Grid, boggle_grid, bookworm_grid
from .scoring import BOOKWORM_DELUXE, DEFAULT_RULES, KINDS, Rules, Scoring

from .solver import BatchSolution, Found, Solution, boggle_scores, random_codes, solve, solve_many, warmup

__all__ = [
    "Board", "Game", "STRATEGIES", "Turn", "play_game", "BOGGLE4", "BOGGLE5", "BOOKWORM", "BOOKWORM_DELUXE", "BatchSolution", "DEFAULT_RULES", "Found", "Grid",
    "InvalidBoardError", "InvalidParameterError", "InvalidPathError", "KINDS", "Rules", "Scoring", "Solution",
    "boggle_grid", "boggle_scores", "bookworm_grid", "random_codes", "solve", "solve_many", "warmup",
]
