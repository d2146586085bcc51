"""International draughts (FMJD rules, 10x10): a bitboard move generator in Numba kernels, perft/divide
(on all cores, or on a Dask cluster), a python-chess-like :class:`Position` API, game
records (:class:`Game`) and PDN reading/writing.

>>> from numba_words.draughts import Position, perft
>>> perft(Position.initial(), 5)
27117
"""
from __future__ import annotations

import sys as _sys

from .engine import Engine, EngineError, SearchResult, WeightsError, load_weights, patterns_array, play_game
from .errors import (AmbiguousMoveError, DraughtsError, IllegalMoveError, InvalidFenError, InvalidPositionError,
                     PdnError)
from .game import Game
from .moves import LegalMoves, Move
from .pdn import read_pdn, write_pdn
from .position import BLACK, WHITE, Outcome, Position
from .search import divide, perft, perft_tasks
from .search import warmup as _perft_warmup
from .svg import svg  # the function: numba_words.draughts.svg(position, ...) (module: numba_words.draughts.svg)

__all__ = [
    "Position", "Move", "LegalMoves", "Outcome", "WHITE", "BLACK",
    "perft", "divide", "perft_tasks", "warmup",
    "Game", "read_pdn", "write_pdn", "svg",
    "Engine", "SearchResult", "play_game", "load_weights", "patterns_array", "EngineError", "WeightsError",
    "DraughtsError", "InvalidPositionError", "InvalidFenError", "IllegalMoveError", "AmbiguousMoveError", "PdnError",
]



def warmup() -> None:
    """Compile (or load from Numba's cache) every kernel of perft, divide, the Position API and the search."""
    from .engine import warmup as _engine_warmup

    _perft_warmup()
    _engine_warmup()


# The wrapper module was ``numba_words.draughts.perft`` before it became ``search``: keep that import path
# working (``from numba_words.draughts.perft import perft_tasks``) without shadowing the function ``perft``.
_sys.modules.setdefault(__name__ + ".perft", _sys.modules[__name__ + ".search"])


def __getattr__(name):
    if name == "BoardWidget":  # the notebook widget: needs anywidget (the "widgets" extra), imported on first use
        from .._widget import lazy_widget

        return lazy_widget(__name__ + ".widget", name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
