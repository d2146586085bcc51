"""``Game``: a two-player game you can extend (``play``, ``exchange``, ``pass_turn``, ``undo``), and self-play
with the top-scoring strategy (:func:`play_game`)."""
from __future__ import annotations

import random

from .errors import IllegalPlayError, InvalidNotationError, ScrabbleError, short
from .plays import Play, Plays
from .position import Position, lexicon_for, sort_rack
from ._board import BoardArrays
from .variants import get_variant


class Game:
    """A two-player game: board, racks, bag, scores, turn, history (``undo``), end rules.

    Ends when a player goes out with the bag empty (the out player adds the other rack's value, the other
    player loses it) or after six consecutive scoreless turns (each player loses their rack's value).
    ``moves`` holds ``(player, text, score)`` per turn (``player`` 0 or 1; ``text`` a play's notation,
    ``-ABC`` for an exchange, ``-`` for a pass).
    """

    def __init__(self, variant="scrabble", lexicon=None, *, seed=None):
        self.variant = get_variant(variant)
        self.lexicon = lexicon_for(lexicon, self.variant)
        self.alphabet = self.lexicon.alphabet.letters
        self.seed = seed
        self.rng = random.Random(seed)
        self.board = BoardArrays(self.variant, self.lexicon)
        self.bag = self.variant.bag_list()
        self.rng.shuffle(self.bag)
        self.racks = ["", ""]
        self.scores = [0, 0]
        self.turn = 0
        self.scoreless = 0
        self.over = False
        self.moves: list = []  # (player, text, score)
        self.racks_before: list = []  # the mover's rack before each move
        self.end_adjustments = [0, 0]  # rack values added or taken at the end
        self._history: list = []
        for p in (0, 1):
            self.racks[p] = self._draw("", self.variant.rack_size)

    def _draw(self, rack: str, n: int) -> str:
        take = self.bag[:n]
        del self.bag[:n]
        return sort_rack(rack + "".join(take))

    @property
    def position(self) -> Position:
        """The position for the player on turn (a snapshot; its board is shared, do not mutate)."""
        return Position._make(self.variant, self.lexicon, self.board, self.racks[self.turn],
                              self.racks[1 - self.turn], (self.scores[self.turn], self.scores[1 - self.turn]),
                              self.scoreless)

    def legal_plays(self) -> Plays:
        """Every legal placement for the player to move (see :meth:`Position.legal_plays`)."""
        return self.position.legal_plays()

    def best(self) -> Play | None:
        """The top-scoring play of the player on turn, or None."""
        return self.position.best()

    best_play = best

    def _save(self):
        self._history.append((self.board.copy(), list(self.bag), list(self.racks), list(self.scores), self.turn,
                              self.scoreless, self.over, len(self.moves), list(self.end_adjustments),
                              self.rng.getstate()))

    def undo(self) -> None:
        """Take back the last move (play, exchange or pass)."""
        if not self._history:
            raise ScrabbleError("nothing to undo")
        (self.board, self.bag, self.racks, self.scores, self.turn, self.scoreless, self.over, n,
         self.end_adjustments, st) = self._history.pop()
        self.rng.setstate(st)
        del self.moves[n:]
        del self.racks_before[n:]

    def play(self, move) -> int:
        """Make a move: a :class:`Play`, notation ``"8H WORD"``, ``"exchange ABC"`` / ``"-ABC"``, or
        ``"pass"`` / ``"-"``. Returns the score of the move."""
        if self.over:
            raise ScrabbleError("the game is over")
        if isinstance(move, str):
            t = move.strip()
            if t.lower() in ("pass", "-"):
                return self.pass_turn()
            if t.lower().startswith("exchange"):
                return self.exchange(t[len("exchange"):])
            if t.startswith("-"):
                return self.exchange(t[1:])
            move = self.position.parse_play(t)
        elif isinstance(move, Play):
            found = self.legal_plays().find(move.placed)
            if found is None:
                raise IllegalPlayError(f"{move} is not legal here")
            move = found
        else:
            raise InvalidNotationError(f"a move must be a Play or a string, got {short(move)}")
        return self._apply(move)

    def _apply(self, play: Play) -> int:
        self._save()
        placed = play.placed
        rack = list(self.racks[self.turn])
        for _, _, ch, bl in placed:
            rack.remove("?" if bl else ch)
        self.board.place([p[0] for p in placed], [p[1] for p in placed],
                         [self.alphabet.index(p[2]) for p in placed], [p[3] for p in placed])
        score = play.score
        self.scores[self.turn] += score
        self._record(play.notation, score)
        self.scoreless = 0 if score > 0 else self.scoreless + 1
        self.racks[self.turn] = self._draw("".join(rack), len(placed))
        if not self.racks[self.turn] and not self.bag:
            other = self._rack_value(self.racks[1 - self.turn])
            self.scores[self.turn] += other
            self.scores[1 - self.turn] -= other
            self.end_adjustments[self.turn] += other
            self.end_adjustments[1 - self.turn] -= other
            self.over = True
        elif self.scoreless >= 6:
            self._end_scoreless()
        self.turn = 1 - self.turn
        return score

    def _record(self, text: str, score: int) -> None:
        self.moves.append((self.turn, text, score))
        self.racks_before.append(self.racks[self.turn])

    def _rack_value(self, rack: str) -> int:
        return sum(self.variant.values.get(ch, 0) for ch in rack if ch != "?")

    def _end_scoreless(self):
        for p in (0, 1):
            v = self._rack_value(self.racks[p])
            self.scores[p] -= v
            self.end_adjustments[p] -= v
        self.over = True

    def pass_turn(self) -> int:
        """Pass; six scoreless turns in a row end the game. Returns 0 (the points scored).

        Raises
        ------
        ScrabbleError
            If the game is over.
        """
        if self.over:
            raise ScrabbleError("the game is over")
        self._save()
        self._record("-", 0)
        self.scoreless += 1
        if self.scoreless >= 6:
            self._end_scoreless()
        self.turn = 1 - self.turn
        return 0

    def exchange(self, tiles: str) -> int:
        """Return ``tiles`` (``?`` for a blank) to the bag and draw as many (only with at least a rack's worth
        of tiles in the bag)."""
        if self.over:
            raise ScrabbleError("the game is over")
        if not isinstance(tiles, str):
            raise InvalidNotationError(f"exchange: tiles must be a string, got {short(tiles)}")
        tiles = tiles.strip().upper()
        if not tiles:
            raise IllegalPlayError("exchange: name the tiles to exchange (to skip the turn, pass)")
        if len(self.bag) < self.variant.rack_size:
            raise IllegalPlayError(f"exchange needs at least {self.variant.rack_size} tiles in the bag; it has "
                                   f"{len(self.bag)}")
        rack = list(self.racks[self.turn])
        for ch in tiles:
            if ch not in rack:
                raise IllegalPlayError(f"exchange {short(tiles)}: {ch!r} is not on the rack {self.racks[self.turn]!r}")
            rack.remove(ch)
        self._save()
        new = self._draw("".join(rack), len(tiles))
        self.bag += list(tiles)
        self.rng.shuffle(self.bag)
        self._record(f"-{sort_rack(tiles)}", 0)
        self.racks[self.turn] = new
        self.scoreless += 1
        if self.scoreless >= 6:
            self._end_scoreless()
        self.turn = 1 - self.turn
        return 0

    def play_best(self) -> int:
        """Play the top-scoring move; exchange the whole rack (or pass when the bag is low) if there is none."""
        best = self.best()
        if best is not None:
            return self._apply(best)
        if len(self.bag) >= self.variant.rack_size:
            return self.exchange(self.racks[self.turn])
        return self.pass_turn()

    def to_records(self) -> list[dict]:
        """One dict per turn: ``turn`` (1-based), ``player`` (1 or 2), ``rack`` (before the move), ``move``,
        ``score`` and the mover's running ``total``."""
        totals = [0, 0]
        out = []
        for k, ((who, text, score), rack) in enumerate(zip(self.moves, self.racks_before), 1):
            totals[who] += score
            out.append({"turn": k, "player": who + 1, "rack": rack, "move": text, "score": score,
                        "total": totals[who]})
        return out

    def gcg(self, names=("player1", "player2")) -> str:
        """The game as GCG text (see :func:`.gcg.write_gcg`)."""
        from .gcg import write_gcg

        return write_gcg(self, names)

    def __str__(self) -> str:
        return str(self.position) + f"\nbag {len(self.bag)}  turn player {self.turn + 1}"

    def svg(self, size: int = 480) -> str:
        """The board as SVG, the tiles of the last play highlighted."""
        last = ()
        if self._history:
            before = self._history[-1][0].letters
            last = [tuple(int(v) for v in rc) for rc in zip(*((before != self.board.letters).nonzero()))]
        return self.position.svg(size=size, highlight=last)

    def _repr_svg_(self) -> str:
        return self.svg()


def play_game(seed=0, variant="scrabble", lexicon=None, *, max_turns: int = 200, progress=None) -> Game:
    """Self-play a whole game with the top-scoring strategy (deterministic for a given seed). ``progress``: an
    object with ``update(n)`` (a progress bar) told of every turn."""
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 0:
        raise ScrabbleError(f"max_turns must be a whole number >= 0, got {short(max_turns)}")
    g = Game(variant, lexicon, seed=seed)
    while not g.over and len(g.moves) < max_turns:
        g.play_best()
        if progress is not None:
            progress.update(1)
    return g
