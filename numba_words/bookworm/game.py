"""Games: :class:`Game` (a start position and the turns played from it; ``play``/``undo``) and
:func:`play_game`, self-play with the ``greedy``, ``longest`` and ``lookahead`` strategies."""
from __future__ import annotations

import numpy as np

from ._tables import DEFAULT_RULES, STRATEGIES, Rules
from .errors import InvalidParameterError
from .position import Position
from .solution import Turn

__all__ = ["Game", "Turn", "STRATEGIES", "play_game"]


def _check_strategy(strategy) -> str:
    if strategy not in STRATEGIES:
        raise InvalidParameterError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
    return strategy


class Game:
    """A game record you can extend: the start position, the :class:`Turn` of every word played, and the
    live position after them (``position``; ``board`` is the same object under its old name).

    ``play(move)`` plays a path or a word on the live position and records the turn; ``undo()`` takes the
    last turn back. Self-play (:func:`play_game`) returns one, with its ``strategy``, ``seed`` and the
    ``reason`` it stopped.
    """

    def __init__(self, position: Position | None = None, *, strategy: str | None = None, seed=None):
        if position is None:
            position = Position.random(seed)
        if not isinstance(position, Position):
            raise InvalidParameterError(f"a Game starts from a Position, got {position!r}")
        self.start = position.copy()
        self.position = position
        self.strategy = strategy
        self.seed = seed
        self.turns: list = []
        self.reason = ""
        self._before: list = []

    @property
    def board(self) -> Position:
        """The current position (an alias of ``position``)."""
        return self.position

    def play(self, move) -> Turn:
        """Play ``move`` (a path of tile indices or a word on the board) and record the turn."""
        before = self.position.copy()
        turn = self.position.play(move)
        self._before.append(before)
        self.turns.append(turn)
        if turn.game_over:
            self.reason = turn.reason
        return turn

    def undo(self) -> Turn:
        """Take the last turn back (the live position returns to what it was before it)."""
        if not self.turns:
            raise InvalidParameterError("no turn to undo")
        before = self._before.pop()
        self.position.__dict__.clear()
        self.position.__dict__.update(before.__dict__)
        self.reason = ""
        return self.turns.pop()

    @property
    def score(self) -> int:
        """The total score so far, in game points."""
        return self.turns[-1].total if self.turns else 0

    @property
    def scores(self) -> list:
        """The points of each turn, in order."""
        return [t.score for t in self.turns]

    def to_records(self) -> list:
        """The turns as dicts ``{"turn", "word", "score", "path", "level", "total"}``."""
        return [{"turn": i + 1, "word": t.word, "score": t.score, "path": list(t.path), "level": t.level,
                 "total": t.total} for i, t in enumerate(self.turns)]

    def __len__(self) -> int:
        return len(self.turns)

    def __repr__(self) -> str:
        return f"<Game {self.strategy or 'manual'}: {len(self.turns)} turns, score {self.score}, {self.reason}>"


def play_game(seed=None, strategy: str = "greedy", *, max_turns: int = 100, rules: Rules = DEFAULT_RULES,
              lexicon=None) -> Game:
    """Self-play until a fire reaches the bottom, no word is left, or ``max_turns`` turns: from a board dealt
    with ``seed`` (the same seed gives the same game), or from a :class:`Position` given as ``seed`` (played
    on in place)."""
    _check_strategy(strategy)
    if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or max_turns < 0:
        raise InvalidParameterError(f"max_turns must be a whole number >= 0, got {max_turns!r}")
    if isinstance(seed, Position):
        game = Game(seed, strategy=strategy)
    else:
        game = Game(Position.random(seed, rules=rules, lexicon=lexicon), strategy=strategy, seed=seed)
    pos = game.position
    while not pos.game_over and pos.turn < max_turns:
        move = pos.choose(strategy)
        if move is None:
            pos.game_over, pos.reason = True, "no word left on the board"
            break
        game.play(move.path)
    game.reason = pos.reason or f"stopped after {max_turns} turns"
    return game
