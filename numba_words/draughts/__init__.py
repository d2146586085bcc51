"""International draughts (FMJD rules, 10x10): a bitboard move generator in Numba kernels, perft/divide
(serial and ``prange``-parallel), a python-chess-like :class:`Position` API and PDN reading/writing.

>>> from numba_words.draughts import Position, perft
>>> perft(Position.initial(), 5)
27117
"""
from __future__ import annotations

from .errors import AmbiguousMoveError, DraughtsError, IllegalMoveError, InvalidFenError, PdnError
from .pdn import Game, read_pdn, write_pdn
from .perft import divide, perft, warmup
from .position import BLACK, WHITE, LegalMoves, Move, Outcome, Position

__all__ = [
    "Position", "Move", "LegalMoves", "Outcome", "WHITE", "BLACK",
    "perft", "divide", "warmup",
    "Game", "read_pdn", "write_pdn",
    "DraughtsError", "InvalidFenError", "IllegalMoveError", "AmbiguousMoveError", "PdnError",
]
