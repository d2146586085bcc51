"""Bookworm (hex letter grid) and Boggle: every word on a board, fast, and a driver that plays the game.

``solve(board)`` finds every word on one board with its best-scoring path, ``solve_many(boards)`` a batch,
``boggle_scores(boards)`` the score-only batch; :class:`Position` is a board you can play on, and
:func:`play_game` plays a whole game.
"""
from ._tables import (BOGGLE4, BOGGLE5, BOGGLE_SCORING, BOOKWORM, BOOKWORM_DELUXE, DEFAULT_RULES, KINDS, STRATEGIES,
                      BogglePoints, Grid, Rules, Scoring, boggle_grid, boggle_points, bookworm_grid)
from .errors import BookwormError, InvalidBoardError, InvalidParameterError, InvalidPathError, SearchLimitError
from .game import Game, play_game
from .position import Board, Position
from .search import boggle_scores, random_codes, solve, solve_many, warmup
from .solution import BatchSolution, Found, Solution, Turn

__all__ = [
    "BOGGLE4", "BOGGLE5", "BOGGLE_SCORING", "BOOKWORM", "BOOKWORM_DELUXE", "BatchSolution", "BogglePoints", "Board",
    "BookwormError", "DEFAULT_RULES", "Found", "Game", "Grid", "InvalidBoardError", "InvalidParameterError",
    "InvalidPathError", "KINDS", "Position", "Rules", "STRATEGIES", "Scoring", "SearchLimitError", "Solution", "Turn",
    "boggle_grid", "boggle_points", "boggle_scores", "bookworm_grid", "play_game", "random_codes", "solve",
    "solve_many", "warmup",
]


def __getattr__(name):
    if name == "BoardWidget":  # the notebook widget: needs anywidget (the "widgets" extra), imported on first use
        from .._widget import lazy_widget

        return lazy_widget(__name__ + ".widget", name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
