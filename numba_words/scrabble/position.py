"""Positions, plays and games: the Python API of the crossword-game engine.

Notation follows the engines players use: ``8H`` = across from row 8 column H, ``H8`` = down from column H
row 8; the word lists every letter, letters already on the board in parentheses, blanks in lower case
(``8A eMME(T)``). CGP (Crossword Game Position, as in Macondo, wolges and MAGPIE) is read and written; GCG game
files are read.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from itertools import product

import numpy as np

from ..lexicon import Lexicon
from . import generator as _gen
from .errors import (IllegalPlayError, InvalidCgpError, InvalidGcgError, InvalidNotationError,
                     InvalidRackError, ScrabbleError)
from .generator import COLS, EMPTY, SIZE, Board
from .variants import Variant, get_variant

_LEXICONS: dict = {}


def _lexicon(lexicon, variant: Variant) -> Lexicon:
    if isinstance(lexicon, Lexicon):
        lex = lexicon
    else:
        name = lexicon or variant.lexicon
        if name not in _LEXICONS:
            _LEXICONS[name] = Lexicon.load(name)
        lex = _LEXICONS[name]
    if lex.alphabet.letters != variant.alphabet:
        raise ScrabbleError(f"lexicon alphabet {lex.alphabet.letters!r} differs from variant {variant.name!r}'s "
                            f"alphabet {variant.alphabet!r}")
    return lex


class Play:
    """A thin view of one row of a plays array (see :data:`PLAY_DTYPE`), formatted against its position."""

    __slots__ = ("_row", "_pos")

    def __init__(self, row, position: "Position"):
        self._row = row
        self._pos = position

    row = property(lambda self: int(self._row["row"]))
    col = property(lambda self: int(self._row["col"]))
    direction = property(lambda self: "down" if self._row["dir"] else "across")
    score = property(lambda self: int(self._row["score"]))
    tiles_used = property(lambda self: int(self._row["tiles"]))

    @property
    def coord(self) -> str:
        r, c = self.row, self.col
        return f"{COLS[c]}{r + 1}" if self._row["dir"] else f"{r + 1}{COLS[c]}"

    @property
    def word(self) -> str:
        """The word with played-through letters in parentheses and blanks in lower case."""
        return _format_word(self._row, self._pos)

    @property
    def plain_word(self) -> str:
        """The word in upper case, nothing marked."""
        a = self._pos.alphabet
        return "".join(a[x] for x in self._row["word"][: self._row["length"]])

    @property
    def notation(self) -> str:
        return f"{self.coord} {self.word}"

    def placed(self) -> list:
        """New tiles as ``(row, col, letter, is_blank)``."""
        out = []
        r, c, d = self.row, self.col, int(self._row["dir"])
        new, bl = int(self._row["new"]), int(self._row["blanks"])
        for k in range(int(self._row["length"])):
            if (new >> k) & 1:
                rr, cc = (r + k, c) if d else (r, c + k)
                out.append((rr, cc, self._pos.alphabet[self._row["word"][k]], bool((bl >> k) & 1)))
        return out

    def __str__(self) -> str:
        return f"{self.notation} {self.score}"

    def __repr__(self) -> str:
        return f"<Play {self}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, Play) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self):
        return tuple(sorted(self.placed()))


def _format_word(row, pos: "Position") -> str:
    a = pos.alphabet
    r, c, d = int(row["row"]), int(row["col"]), int(row["dir"])
    new, bl = int(row["new"]), int(row["blanks"])
    s = []
    inpar = False
    for k in range(int(row["length"])):
        ch = a[row["word"][k]]
        if (new >> k) & 1:
            if inpar:
                s.append(")")
                inpar = False
            s.append(ch.lower() if (bl >> k) & 1 else ch)
        else:
            rr, cc = (r + k, c) if d else (r, c + k)
            if not inpar:
                s.append("(")
                inpar = True
            s.append(ch.lower() if pos.board.blanks[rr, cc] else ch)
    if inpar:
        s.append(")")
    return "".join(s)


class Plays:
    """The legal plays of a position: a cheap view over the structured array ``array`` (generation order).

    ``len``, iteration (as :class:`Play`), ``in`` (a :class:`Play` or notation string), ``best(n)``.
    """

    def __init__(self, array: np.ndarray, position: "Position"):
        self.array = array
        self.position = position
        self._keys = None

    def __len__(self) -> int:
        return len(self.array)

    def count(self) -> int:
        return len(self.array)

    def __bool__(self) -> bool:
        return len(self.array) > 0

    def __iter__(self):
        for row in self.array:
            yield Play(row, self.position)

    def __getitem__(self, i):
        return Play(self.array[i], self.position)

    def best(self, n: int = 1) -> list:
        """The ``n`` highest-scoring plays (ties in generation order)."""
        idx = _gen.order_by_score(self.array)[:n]
        return [Play(self.array[i], self.position) for i in idx]

    def sorted(self) -> list:
        return self.best(len(self.array))

    def scores(self) -> np.ndarray:
        return self.array["score"].astype(np.int64)

    def find(self, placed) -> Play | None:
        """The play placing exactly ``placed`` (``(row, col, letter, is_blank)`` tuples), or None."""
        if self._keys is None:
            self._keys = {Play(row, self.position)._key(): i for i, row in enumerate(self.array)}
        i = self._keys.get(tuple(sorted(placed)))
        return None if i is None else Play(self.array[i], self.position)

    def __contains__(self, play) -> bool:
        if isinstance(play, str):
            try:
                play = self.position.parse_play(play)
            except InvalidNotationError:
                return False
            return play is not None
        if isinstance(play, Play):
            return self.find(play.placed()) is not None
        return False

    def __repr__(self) -> str:
        return f"<Plays {len(self)} plays>"


_COORD_ACROSS = re.compile(r"^(\d{1,2})([A-Za-z])$")
_COORD_DOWN = re.compile(r"^([A-Za-z])(\d{1,2})$")


def parse_coord(coord: str):
    """``(row, col, dir)`` from ``8H`` (across) or ``H8`` (down); :class:`InvalidNotationError` otherwise."""
    m = _COORD_ACROSS.match(coord)
    if m:
        r, c, d = int(m.group(1)) - 1, m.group(2).upper(), 0
    else:
        m = _COORD_DOWN.match(coord)
        if not m:
            raise InvalidNotationError(f"coordinate {coord!r}: expected like '8H' (across) or 'H8' (down)")
        r, c, d = int(m.group(2)) - 1, m.group(1).upper(), 1
    if c not in COLS or not 0 <= r < SIZE:
        raise InvalidNotationError(f"coordinate {coord!r} is off the 15x15 board")
    return r, COLS.index(c), d


class Position:
    """A board, the rack on turn (and optionally the opponent's), the scores and the scoreless-turn count.

    >>> p = Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACDINRT/ 0/0 0")
    >>> p.best_play().score
    22
    """

    def __init__(self, variant="scrabble", lexicon=None, *, board: Board | None = None, rack: str = "",
                 opp_rack: str = "", scores=(0, 0), scoreless: int = 0):
        self.variant = get_variant(variant)
        self.lexicon = _lexicon(lexicon, self.variant)
        self.alphabet = self.lexicon.alphabet.letters
        self.board = board if board is not None else Board(self.variant, self.lexicon.dawg)
        self.rack = self._check_rack(rack)
        self.opp_rack = self._check_rack(opp_rack, "opponent rack") if opp_rack else ""
        self.scores = (int(scores[0]), int(scores[1]))
        self.scoreless = int(scoreless)
        self._plays = None

    # ------------------------------------------------------------------ racks
    def _check_rack(self, rack: str, what: str = "rack") -> str:
        if not isinstance(rack, str):
            raise InvalidRackError(f"{what} must be a string, got {rack!r}")
        rack = rack.strip()
        if len(rack) > self.variant.rack_size:
            raise InvalidRackError(f"{what} {rack!r} has {len(rack)} tiles; at most {self.variant.rack_size}")
        for ch in rack:
            if ch != "?" and ch.upper() not in self.alphabet:
                raise InvalidRackError(f"{what} {rack!r}: {ch!r} is neither a letter of {self.alphabet!r} nor '?'")
        return "".join(sorted(ch.upper() for ch in rack if ch != "?")) + "?" * rack.count("?")

    def _rack_arrays(self, rack=None):
        rack = self.rack if rack is None else rack
        return _gen.rack_arrays([self.alphabet.index(ch) for ch in rack if ch != "?"], rack.count("?"))

    # ------------------------------------------------------------------ generation
    def legal_plays(self) -> Plays:
        """Every legal tile placement, scored (cached)."""
        if self._plays is None:
            counts, nb = self._rack_arrays()
            self._plays = Plays(_gen.generate(self.board, counts, nb), self)
        return self._plays

    def best(self, n: int = 1) -> list:
        return self.legal_plays().best(n)

    def best_play(self) -> Play | None:
        """The top-scoring play (found by the best-only kernel, which writes nothing else), or None."""
        counts, nb = self._rack_arrays()
        arr = _gen.generate(self.board, counts, nb, best_only=True)
        return Play(arr[0], self) if len(arr) else None

    def exchanges(self) -> list:
        """Every distinct non-empty sub-multiset of the rack, as sorted strings."""
        cnt = Counter(self.rack)
        keys = sorted(cnt, key=lambda ch: (ch == "?", ch))
        out = []
        for combo in product(*[range(cnt[k] + 1) for k in keys]):
            s = "".join(k * n for k, n in zip(keys, combo))
            if s:
                out.append(s)
        return out

    # ------------------------------------------------------------------ notation
    def parse_play(self, text: str) -> Play:
        """The legal :class:`Play` written as ``"8D CAIRD"`` / ``"H10 F(E)H"`` (parentheses optional, ``.`` for
        a played-through letter, blanks lower case). Raises :class:`InvalidNotationError` /
        :class:`IllegalPlayError`."""
        placed = self._placement(text)
        play = self.legal_plays().find(placed)
        if play is None and self.board.empty:
            # on the empty board only across plays are generated; a down play is the transposed copy
            t = self.legal_plays().find([(c, r, ch, b) for r, c, ch, b in placed])
            if t is not None:
                row = t._row.copy()
                row["row"], row["col"], row["dir"] = t._row["col"], t._row["row"], 1 - t._row["dir"]
                play = Play(row, self)
        if play is None:
            raise IllegalPlayError(f"{text!r} is not a legal play with rack {self.rack!r}")
        return play

    def _placement(self, text: str) -> list:
        if not isinstance(text, str):
            raise InvalidNotationError(f"a play must be a string like '8H WORD', got {text!r}")
        parts = text.split()
        if len(parts) != 2:
            raise InvalidNotationError(f"play {text!r}: expected 'COORD WORD', e.g. '8H QUIZ' or 'H8 QUIZ'")
        r, c, d = parse_coord(parts[0])
        word = parts[1]
        placed = []
        k = 0
        inpar = False
        for ch in word:
            if ch == "(":
                if inpar:
                    raise InvalidNotationError(f"play {text!r}: nested parentheses")
                inpar = True
                continue
            if ch == ")":
                if not inpar:
                    raise InvalidNotationError(f"play {text!r}: unbalanced parentheses")
                inpar = False
                continue
            rr, cc = (r + k, c) if d else (r, c + k)
            if rr >= SIZE or cc >= SIZE:
                raise InvalidNotationError(f"play {text!r} runs off the board")
            on = self.board.letters[rr, cc]
            if ch == ".":
                if on == EMPTY:
                    raise InvalidNotationError(f"play {text!r}: '.' at an empty square {COLS[cc]}{rr + 1}")
            else:
                up = ch.upper()
                if up not in self.alphabet:
                    raise InvalidNotationError(f"play {text!r}: {ch!r} is not a letter of {self.alphabet!r}")
                if on != EMPTY:
                    if self.alphabet[on] != up:
                        raise IllegalPlayError(f"play {text!r}: square {COLS[cc]}{rr + 1} holds "
                                               f"{self.alphabet[on]!r}, not {up!r}")
                elif inpar:
                    raise IllegalPlayError(f"play {text!r}: {ch!r} in parentheses but {COLS[cc]}{rr + 1} is empty")
                else:
                    placed.append((rr, cc, up, ch.islower()))
            k += 1
        if inpar:
            raise InvalidNotationError(f"play {text!r}: unbalanced parentheses")
        if not placed:
            raise IllegalPlayError(f"play {text!r} places no tile")
        return placed

    # ------------------------------------------------------------------ CGP
    @classmethod
    def from_cgp(cls, cgp: str, variant="scrabble", lexicon=None) -> "Position":
        """Read ``rows rack[/opp] score/score scoreless [ops]``; a ``lex NAME;`` op picks the lexicon."""
        if not isinstance(cgp, str):
            raise InvalidCgpError(f"CGP must be a string, got {cgp!r}")
        fields = cgp.split()
        if len(fields) < 4:
            raise InvalidCgpError(f"CGP {cgp!r}: expected 'board rack/rack score/score scoreless', "
                                  f"got {len(fields)} fields")
        ops = " ".join(fields[4:])
        m = re.search(r"\blex\s+([^;]+);", ops)
        if m and lexicon is None:
            name = m.group(1).strip()
            lexicon = name.lower() if name.lower() in ("twl06", "sowpods", "nb-small") else None
        variant = get_variant(variant)
        pos = cls(variant, lexicon)
        alpha = pos.alphabet
        rows = fields[0].split("/")
        if len(rows) != SIZE:
            raise InvalidCgpError(f"CGP {cgp!r}: the board has {len(rows)} rows, expected {SIZE}")
        letters = np.full((SIZE, SIZE), EMPTY, np.uint8)
        blanks = np.zeros((SIZE, SIZE), bool)
        for r, row in enumerate(rows):
            c = 0
            for tok in re.findall(r"\d+|.", row):
                if tok.isdigit():
                    c += int(tok)
                    continue
                if tok.upper() not in alpha:
                    raise InvalidCgpError(f"CGP row {r + 1} {row!r}: {tok!r} is not a letter of {alpha!r}")
                if c >= SIZE:
                    break
                letters[r, c] = alpha.index(tok.upper())
                blanks[r, c] = tok.islower()
                c += 1
            if c != SIZE:
                raise InvalidCgpError(f"CGP row {r + 1} {row!r} covers {c} squares, expected {SIZE}")
        racks = fields[1].split("/")
        if len(racks) != 2:
            raise InvalidCgpError(f"CGP racks {fields[1]!r}: expected 'RACK/' or 'RACK/OPPRACK'")
        sc = fields[2].split("/")
        if len(sc) != 2 or not all(re.fullmatch(r"-?\d+", s) for s in sc):
            raise InvalidCgpError(f"CGP scores {fields[2]!r}: expected like '123/98'")
        if not fields[3].isdigit():
            raise InvalidCgpError(f"CGP scoreless-turn count {fields[3]!r} is not a number")
        try:
            pos.rack = pos._check_rack(racks[0])
            pos.opp_rack = pos._check_rack(racks[1], "opponent rack") if racks[1] else ""
        except InvalidRackError as e:
            raise InvalidCgpError(f"CGP {cgp!r}: {e}") from None
        pos.board = Board(variant, pos.lexicon.dawg, letters, blanks)
        pos.scores = (int(sc[0]), int(sc[1]))
        pos.scoreless = int(fields[3])
        return pos

    def cgp(self) -> str:
        rows = []
        for r in range(SIZE):
            s, run = [], 0
            for c in range(SIZE):
                x = self.board.letters[r, c]
                if x == EMPTY:
                    run += 1
                    continue
                if run:
                    s.append(str(run))
                    run = 0
                ch = self.alphabet[x]
                s.append(ch.lower() if self.board.blanks[r, c] else ch)
            if run:
                s.append(str(run))
            rows.append("".join(s))
        return (f"{'/'.join(rows)} {self.rack}/{self.opp_rack} {self.scores[0]}/{self.scores[1]} "
                f"{self.scoreless}")

    # ------------------------------------------------------------------ display
    def __str__(self) -> str:
        sym = {".": "  ", "l": " '", "L": ' "', "w": " -", "W": " =", "*": " *"}
        lines = ["    " + " ".join(COLS)]
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                x = self.board.letters[r, c]
                if x == EMPTY:
                    cells.append(sym[self.variant.layout[r][c]][1])
                else:
                    ch = self.alphabet[x]
                    cells.append(ch.lower() if self.board.blanks[r, c] else ch)
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        lines.append(f"rack {self.rack or '-'}   scores {self.scores[0]}-{self.scores[1]}   "
                     f"variant {self.variant.name}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Position.from_cgp({self.cgp()!r}, variant={self.variant.name!r})"

    def _repr_html_(self) -> str:
        from .html import position_html

        return position_html(self)

    def copy(self) -> "Position":
        p = object.__new__(Position)
        p.__dict__.update(self.__dict__)
        p.board = self.board.copy()
        p._plays = None
        return p


class Game:
    """A two-player game: board, racks, bag, scores, turn, history (``undo``), end rules.

    Ends when a player goes out with the bag empty (the out player adds the other rack's value, the other
    player loses it) or after six consecutive scoreless turns (each player loses their rack's value).
    """

    def __init__(self, variant="scrabble", lexicon=None, *, seed=None):
        self.variant = get_variant(variant)
        self.lexicon = _lexicon(lexicon, self.variant)
        self.alphabet = self.lexicon.alphabet.letters
        self.rng = random.Random(seed)
        self.board = Board(self.variant, self.lexicon.dawg)
        self.bag = self.variant.bag_list()
        self.rng.shuffle(self.bag)
        self.racks = ["", ""]
        self.scores = [0, 0]
        self.turn = 0
        self.scoreless = 0
        self.over = False
        self.moves: list = []  # (player, text, score)
        self._history: list = []
        for p in (0, 1):
            self.racks[p] = self._draw("", self.variant.rack_size)

    def _draw(self, rack: str, n: int) -> str:
        take = self.bag[:n]
        del self.bag[:n]
        return _sort_rack(rack + "".join(take))

    @property
    def position(self) -> Position:
        """The position for the player on turn (a snapshot; its board is shared, do not mutate)."""
        p = object.__new__(Position)
        p.variant, p.lexicon, p.alphabet = self.variant, self.lexicon, self.alphabet
        p.board = self.board
        p.rack = self.racks[self.turn]
        p.opp_rack = self.racks[1 - self.turn]
        p.scores = (self.scores[self.turn], self.scores[1 - self.turn])
        p.scoreless = self.scoreless
        p._plays = None
        return p

    def legal_plays(self) -> Plays:
        return self.position.legal_plays()

    def best_play(self) -> Play | None:
        return self.position.best_play()

    def _save(self):
        self._history.append((self.board.copy(), list(self.bag), list(self.racks), list(self.scores), self.turn,
                              self.scoreless, self.over, len(self.moves), self.rng.getstate()))

    def undo(self) -> None:
        """Take back the last move (play, exchange or pass)."""
        if not self._history:
            raise ScrabbleError("nothing to undo")
        (self.board, self.bag, self.racks, self.scores, self.turn, self.scoreless, self.over, n,
         st) = self._history.pop()
        self.rng.setstate(st)
        del self.moves[n:]

    def play(self, move) -> int:
        """Make a move: a :class:`Play`, notation ``"8H WORD"``, ``"exchange ABC"`` / ``"-ABC"``, or
        ``"pass"`` / ``"-"``. Returns the score of the move."""
        if self.over:
            raise ScrabbleError("the game is over")
        if isinstance(move, str):
            t = move.strip()
            if t.lower() in ("pass", "-"):
                return self.pass_turn()
            if t.lower().startswith("exchange ") or (t.startswith("-") and len(t) > 1):
                return self.exchange(t.split(None, 1)[1] if t.lower().startswith("exchange ") else t[1:])
            move = self.position.parse_play(t)
        elif isinstance(move, Play):
            found = self.legal_plays().find(move.placed())
            if found is None:
                raise IllegalPlayError(f"{move} is not legal here")
            move = found
        else:
            raise InvalidNotationError(f"a move must be a Play or a string, got {move!r}")
        return self._apply(move)

    def _apply(self, play: Play) -> int:
        self._save()
        placed = play.placed()
        rack = list(self.racks[self.turn])
        for _, _, ch, bl in placed:
            rack.remove("?" if bl else ch)
        self.board.place([p[0] for p in placed], [p[1] for p in placed],
                         [self.alphabet.index(p[2]) for p in placed], [p[3] for p in placed])
        score = play.score
        self.scores[self.turn] += score
        self.moves.append((self.turn, play.notation, score))
        self.scoreless = 0 if score > 0 else self.scoreless + 1
        self.racks[self.turn] = self._draw("".join(rack), len(placed))
        if not self.racks[self.turn] and not self.bag:
            other = self._rack_value(self.racks[1 - self.turn])
            self.scores[self.turn] += other
            self.scores[1 - self.turn] -= other
            self.over = True
        elif self.scoreless >= 6:
            self._end_scoreless()
        self.turn = 1 - self.turn
        return score

    def _rack_value(self, rack: str) -> int:
        return sum(self.variant.values.get(ch, 0) for ch in rack if ch != "?")

    def _end_scoreless(self):
        for p in (0, 1):
            self.scores[p] -= self._rack_value(self.racks[p])
        self.over = True

    def pass_turn(self) -> int:
        if self.over:
            raise ScrabbleError("the game is over")
        self._save()
        self.moves.append((self.turn, "-", 0))
        self.scoreless += 1
        if self.scoreless >= 6:
            self._end_scoreless()
        self.turn = 1 - self.turn
        return 0

    def exchange(self, tiles: str) -> int:
        """Return ``tiles`` to the bag and draw as many (only with at least 7 tiles in the bag)."""
        if self.over:
            raise ScrabbleError("the game is over")
        if len(self.bag) < 7:
            raise IllegalPlayError(f"exchange needs at least 7 tiles in the bag; it has {len(self.bag)}")
        rack = list(self.racks[self.turn])
        for ch in tiles.strip().upper():
            if ch not in rack:
                raise IllegalPlayError(f"exchange {tiles!r}: {ch!r} is not on the rack {self.racks[self.turn]!r}")
            rack.remove(ch)
        self._save()
        n = len(tiles.strip())
        new = self._draw("".join(rack), n)
        self.bag += list(tiles.strip().upper())
        self.rng.shuffle(self.bag)
        self.racks[self.turn] = new
        self.moves.append((self.turn, f"-{tiles.strip().upper()}", 0))
        self.scoreless += 1
        if self.scoreless >= 6:
            self._end_scoreless()
        self.turn = 1 - self.turn
        return 0

    def play_best(self) -> int:
        """Play the top-scoring move; exchange the whole rack (or pass when the bag is low) if there is none."""
        best = self.best_play()
        if best is not None:
            return self._apply(best)
        if len(self.bag) >= 7:
            return self.exchange(self.racks[self.turn])
        return self.pass_turn()

    def __str__(self) -> str:
        return str(self.position) + f"\nbag {len(self.bag)}  turn player {self.turn + 1}"

    def _repr_html_(self) -> str:
        return self.position._repr_html_()


def _sort_rack(rack: str) -> str:
    return "".join(sorted(ch for ch in rack if ch != "?")) + "?" * rack.count("?")


def play_game(seed=0, variant="scrabble", lexicon=None, *, max_turns: int = 200) -> Game:
    """Self-play a whole game with the top-scoring strategy (deterministic for a given seed)."""
    g = Game(variant, lexicon, seed=seed)
    while not g.over and len(g.moves) < max_turns:
        g.play_best()
    return g


# ---------------------------------------------------------------------- GCG
_GCG_MOVE = re.compile(r"^>([^:]+):\s+(\S+)\s+(.*)$")


def read_gcg(text: str, variant="scrabble", lexicon=None) -> list:
    """Read a GCG game: returns the list of :class:`Position` after each tile placement, the last one final.

    Tile placements are put on the board as written (phonies too); exchanges, passes, challenges and end
    adjustments only move the scores. Each position carries the mover's score total from the file.
    """
    variant = get_variant(variant)
    m = re.search(r"^#lexicon\s+(\S+)", text, re.M)
    if m and lexicon is None and m.group(1).lower() in ("twl06", "sowpods"):
        lexicon = m.group(1).lower()
    pos = Position(variant, lexicon)
    players: list = []
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        mm = _GCG_MOVE.match(line)
        if not mm:
            raise InvalidGcgError(f"GCG line {n}: {line!r} is not a '#pragma' or '>player: ...' line")
        who, rack, rest = mm.group(1).strip(), mm.group(2), mm.group(3).split()
        if who not in players:
            players.append(who)
        if len(players) > 2:
            raise InvalidGcgError(f"GCG line {n}: a third player {who!r}")
        if not rest:
            raise InvalidGcgError(f"GCG line {n}: {line!r} has no move")
        total = rest[-1]
        if not re.fullmatch(r"-?\d+", total):
            raise InvalidGcgError(f"GCG line {n}: total {total!r} is not a number")
        if len(rest) >= 3 and re.match(r"^(\d{1,2}[A-Oa-o]|[A-Oa-o]\d{1,2})$", rest[0]):
            coord, word = rest[0], rest[1]
            p = pos.copy()
            p.rack = ""
            try:
                placed = p._placement(f"{coord} {word}")
            except (InvalidNotationError, ScrabbleError) as e:
                raise InvalidGcgError(f"GCG line {n}: {e}") from None
            pos.board.place([q[0] for q in placed], [q[1] for q in placed],
                            [pos.alphabet.index(q[2]) for q in placed], [q[3] for q in placed])
            pos._plays = None
            idx = players.index(who)
            sc = list(pos.scores)
            sc[idx] = int(total)
            pos.scores = tuple(sc)
            try:
                pos.rack = pos._check_rack(rack.strip("()"))
            except InvalidRackError:
                pos.rack = ""
            out.append(pos.copy())
        else:
            idx = players.index(who)
            sc = list(pos.scores)
            sc[idx] = int(total)
            pos.scores = tuple(sc)
    if out:
        out[-1].scores = pos.scores
    return out
