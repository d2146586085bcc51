"""The playing board: :class:`Position` (``Board`` is the same class under its old name): letters and tile
kinds on a grid plus the game state, its text notation, every word on it, and playing a word (gravity,
refill, gems and fire).

Notation: ``Position("col0 col1 ... col6", kinds="...")``: seven columns, each bottom to top (7, 8, 7, 8, 7,
8, 7 tiles), lower case letters, ``q`` for the Qu tile, ``.`` for an empty square; ``kinds`` in the same
layout (``.`` plain, ``g`` green, ``y`` gold, ``s`` sapphire, ``d`` diamond, ``f`` fire). A Boggle position
is its rows top to bottom. ``repr()`` round-trips; ``str()`` draws the staggered board.
"""
from __future__ import annotations

import numpy as np

from . import search as S
from ._tables import (BOOKWORM, DEFAULT_RULES, FIRE, GRIDS, HOLE, KIND_CHARS, KINDS, PLAIN, QU, STRATEGIES,
                      BogglePoints, Grid, Rules, as_lexicon, board_text, code_letters, default_scoring, parse_text,
                      split_layout)
from .errors import InvalidBoardError, InvalidParameterError, InvalidPathError
from .solution import Found, Solution, Turn


class Position:
    """A Bookworm (or Boggle) position: letters and kinds per tile, plus the game state (level, score, turn,
    random tile generator).

    ``Position("col0 col1 ... col6")``: seven columns, each bottom to top (7, 8, 7, 8, 7, 8, 7 tiles), lower
    case letters, ``q`` for the Qu tile. ``kinds``: the same layout in kind characters (``.`` plain,
    ``g`` green, ``y`` gold, ``s`` sapphire, ``d`` diamond, ``f`` fire). ``Position.random(seed)`` deals one.
    ``words()`` is every word on it (a :class:`Solution`), ``best()`` the best play, ``play(move)`` plays one.
    """

    def __init__(self, text: str, kinds: str | None = None, *, grid: Grid = BOOKWORM, level: int = 1,
                 seed=None, rules: Rules = DEFAULT_RULES, lexicon=None):
        self.grid = grid = S.check_grid(grid)
        if not isinstance(rules, Rules):
            raise InvalidParameterError(f"rules must be a Rules, got {S._short(rules)}")
        self.rules = rules
        self.lexicon = as_lexicon(lexicon)
        codes = parse_text(text, grid, self.lexicon)
        self._codes = codes
        self._kinds = S.check_kinds(kinds, (grid.n_tiles,)).copy()
        self.level = S.check_level(level)
        self.score = 0
        self.turn = 0
        self.words_played = 0
        self.game_over = False
        self.reason = ""
        self.history: list = []
        self.rng = _rng(seed)
        self._solution = None
        self._letters = self._weights = None  # what new tiles are drawn from: set on the first draw

    # ------------------------------------------------------------------ construction and text
    @classmethod
    def random(cls, seed=None, *, grid: Grid = BOOKWORM, rules: Rules = DEFAULT_RULES, lexicon=None) -> "Position":
        """A board dealt from the rules' letter frequencies with a seeded generator (which then refills)."""
        lex = as_lexicon(lexicon)
        grid = S.check_grid(grid)
        b = cls(board_text(np.zeros(grid.n_tiles, dtype=np.uint8), grid, lex), grid=grid, seed=seed,
                rules=rules, lexicon=lex)
        b._codes = np.array([b._draw() for _ in range(grid.n_tiles)], dtype=np.uint8)
        return b

    def _tile_distribution(self):
        codes, weights = S.letter_weights(self.lexicon, self.rules.frequencies)
        p = np.array(weights)
        return np.array(codes, dtype=np.uint8), p / p.sum()

    def _draw(self) -> int:
        if self._letters is None:
            self._letters, self._weights = self._tile_distribution()
        return int(self._letters[self.rng.choice(len(self._letters), p=self._weights)])

    @property
    def text(self) -> str:
        """The board as text: columns (Bookworm) or rows (Boggle) separated by spaces, ``q`` for Qu."""
        return board_text(self._codes, self.grid, self.lexicon)

    @property
    def kinds(self) -> np.ndarray:
        """The tile kinds (``uint8`` indices into :data:`KINDS`, one per tile; a read-only view: the position
        changes them as words are played)."""
        k = self._kinds
        hit = self.__dict__.get("_kinds_view")
        if hit is None or hit.base is not k:
            hit = self._kinds_view = k.view()
            hit.flags.writeable = False
        return hit

    @property
    def kinds_text(self) -> str:
        """The tile kinds in board-text layout (``.`` plain, ``g`` green, ``y`` gold, ``s`` sapphire, ``d``
        diamond, ``f`` fire)."""
        return split_layout("".join(KIND_CHARS[k] for k in self._kinds), self.grid)

    def codes(self, lexicon=None) -> np.ndarray:
        """Tile codes (letter indices, ``QU``, ``HOLE``) for ``lexicon`` (default: the board's)."""
        lex = self.lexicon if lexicon is None else as_lexicon(lexicon)
        if lex is self.lexicon:
            return self._codes.copy()
        return parse_text(self.text, self.grid, lex)

    def _tile(self, t) -> int:
        if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)) \
                or not 0 <= t < self.grid.n_tiles:
            raise InvalidPathError(f"tile {S._short(t)} is not a tile index 0..{self.grid.n_tiles - 1}")
        return int(t)

    def letters(self, t: int) -> str:
        """The letters tile ``t`` spells (``"qu"`` for the Qu tile, ``""`` for an empty square)."""
        return code_letters(int(self._codes[self._tile(t)]), self.lexicon)

    def kind(self, t: int) -> str:
        """The kind of tile ``t`` (``"plain"``, ``"green"``, ...)."""
        return KINDS[int(self._kinds[self._tile(t)])]

    def __repr__(self) -> str:
        args = [repr(self.text)]
        if self._kinds.any():
            args.append(f"kinds={self.kinds_text!r}")
        if self.grid is not BOOKWORM:
            known = {id(g): name.upper() for name, g in GRIDS.items()}
            args.append(f"grid={known.get(id(self.grid)) or 'boggle_grid' + repr(self.grid.shape)}")
        if self.level != 1:
            args.append(f"level={self.level}")
        return f"{type(self).__name__}({', '.join(args)})"

    def __str__(self) -> str:
        """The board as it looks: staggered columns, top row first; a kind marks the letter (``G`` green,
        ``Y`` gold, ``S`` sapphire, ``D`` diamond, ``F`` fire after the letter), ``Q`` is the Qu tile."""
        mark = {0: " ", 1: "g", 2: "y", 3: "s", 4: "d", 5: "f"}
        if self.grid.kind != "bookworm":
            rows, cols = self.grid.shape
            return "\n".join(" ".join(self.letters(r * cols + c).upper().ljust(2) for c in range(cols)).rstrip()
                             for r in range(rows))
        heights = self.grid.shape
        top = 2 * max(heights)
        lines = []
        for y in range(top, -1, -1):
            cells = []
            for c, h in enumerate(heights):
                r2 = y - (1 if c % 2 == 0 else 0)
                if r2 % 2 == 0 and 0 <= r2 // 2 < h:
                    t = self.grid.index(c, r2 // 2)
                    letter = "Q" if self._codes[t] == QU else self.letters(t).upper() or "."
                    cells.append(f"{letter}{mark[int(self._kinds[t])]}")
                else:
                    cells.append("  ")
            line = " ".join(cells).rstrip()
            if line:
                lines.append(line)
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        from .svg import board_svg

        return board_svg(self)

    def svg(self, path=None, size: int = 28) -> str:
        """SVG drawing of the board, with ``path`` (tile indices) highlighted."""
        from .svg import board_svg

        path = () if path is None else self._path(path)
        if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, float, np.integer, np.floating)) \
                or not 4 <= size <= 1000:
            raise InvalidParameterError(f"size must be a number of pixels from 4 to 1000, got {S._short(size)}")
        return board_svg(self, path=path, size=size)

    def copy(self) -> "Position":
        """An independent copy (tiles, gem kinds and history copied)."""
        b = object.__new__(type(self))
        b.__dict__.update(self.__dict__)
        b._codes = self._codes.copy()
        b._kinds = self._kinds.copy()
        b.history = list(self.history)
        if hasattr(self, "_ids"):
            b._ids = self._ids.copy()
        b.rng = np.random.default_rng()
        b.rng.bit_generator.state = self.rng.bit_generator.state
        return b

    # ------------------------------------------------------------------ words
    def words(self) -> Solution:
        """Every word on the board (cached until the board changes)."""
        if self._solution is None:
            self._solution = S.solve_codes(self._codes, self._kinds, self.lexicon, grid=self.grid,
                                           min_len=self.rules.min_len, max_len=self.rules.max_len,
                                           level=self.level, scoring=self.scoring)
        return self._solution

    @property
    def scoring(self):
        """How words score here: the rules' scoring, or by grid (Bookworm Deluxe, or Boggle points)."""
        return self.rules.scoring if self.rules.scoring is not None else default_scoring(self.grid)

    def best(self) -> Found | None:
        """The best-scoring word with its best path."""
        return self.words().best()

    def _path(self, path) -> tuple:
        """``path`` as a tuple of tile indices (whole numbers on the board), else :class:`InvalidPathError`."""
        if isinstance(path, (str, bytes, dict)) or (isinstance(path, np.ndarray) and path.ndim != 1):
            raise InvalidPathError(f"a path is a sequence of tile indices, got {S._short(path)}")
        try:
            items = list(path)
        except TypeError:
            raise InvalidPathError(f"a path is a sequence of tile indices, got {S._short(path)}") from None
        n = self.grid.n_tiles
        for t in items:
            if isinstance(t, (bool, np.bool_)) or not isinstance(t, (int, np.integer)):
                raise InvalidPathError(f"path {S._short(path)}: {S._short(t)} is not a tile index (a whole number)")
            if not 0 <= t < n:
                raise InvalidPathError(f"path {S._short(path)}: tile {int(t)!r} is not on the board (0..{n - 1})")
        return tuple(int(t) for t in items)

    def path_word(self, path) -> str:
        """The letters a path spells; :class:`InvalidPathError` unless it is a non-empty chain of distinct
        adjacent tiles (whole-number indices) with no empty square. The letters need not be a word."""
        path = self._path(path)
        if not path:
            raise InvalidPathError("a path needs at least one tile")
        if len(set(path)) != len(path):
            raise InvalidPathError(f"path {path!r} uses a tile twice")
        for a, b in zip(path, path[1:]):
            if not (int(self.grid.masks[a]) >> b) & 1:
                raise InvalidPathError(f"path {path!r}: tiles {a} and {b} are not adjacent")
        if any(self._codes[t] == HOLE for t in path):
            raise InvalidPathError(f"path {path!r} crosses an empty square")
        return "".join(self.letters(t) for t in path)

    def _word(self, path) -> tuple:
        """``(path, word)`` for a playable path: :class:`InvalidPathError` unless it spells a word of the
        lexicon within the rules' lengths."""
        word = self.path_word(path)
        path = self._path(path)
        r = self.rules
        if not r.min_len <= len(word) <= r.max_len:
            raise InvalidPathError(f"path {path!r} spells {word!r} ({len(word)} letters); words have "
                                   f"{r.min_len} to {r.max_len}")
        if word.upper() not in self.lexicon:
            raise InvalidPathError(f"path {path!r} spells {word!r}, which is not in {self.lexicon.name}")
        return path, word

    def score_path(self, path) -> int:
        """Score of playing ``path`` now; :class:`InvalidPathError` unless it spells a word (see :meth:`play`)."""
        path, word = self._word(path)
        sc = self.scoring
        if isinstance(sc, BogglePoints):
            return sc.score(len(word))
        values = [sc.value("QU" if self._codes[t] == QU else self.letters(t)) for t in path]
        bonuses = [sc.bonus(self.kind(t)) for t in path]
        return sc.score(values, len(word), bonuses, self.level)

    # ------------------------------------------------------------------ playing
    def play(self, move) -> Turn:
        """Play a word given as a path (tile indices) or as a word (its best path is used).

        The tiles are removed, the tiles above fall, new tiles enter from the top (seeded generator); a long
        word puts a gem among the new tiles, a short one may put a fire tile there; then every older fire
        tile burns the tile below it. A fire tile on the bottom row ends the game.
        """
        if self.game_over:
            raise InvalidPathError(f"the game is over ({self.reason})")
        if self.grid.kind != "bookworm":
            raise InvalidBoardError(f"play() needs a Bookworm grid, not {self.grid.name!r}")
        if isinstance(move, str):
            sol = self.words()
            hit = [f for f in sol if f.word == move.lower()]
            if not hit:
                raise InvalidPathError(f"{S._short(move)} is not a word on this board")
            path = hit[0].path
        else:
            path = move
        path, word = self._word(path)
        r = self.rules
        score = self.score_path(path)
        old_fires = set(self._fire_ids())
        new_tiles = self._remove(path)
        gem = None
        for n_letters, kind in r.gem_for_letters:
            if len(word) >= n_letters:
                gem = kind
        if gem is not None and new_tiles:
            self._kinds[new_tiles[int(self.rng.integers(len(new_tiles)))]] = KINDS.index(gem)
        spawn = (len(word) <= r.fire_max_letters and self.rng.random() < r.fire_chance) \
            or self.rng.random() < r.fire_chance_any * self.level
        plain_new = [t for t in new_tiles if self._kinds[t] == PLAIN]
        if spawn and plain_new:
            self._kinds[plain_new[int(self.rng.integers(len(plain_new)))]] = FIRE
        self._burn(old_fires)
        self.score += score
        self.turn += 1
        self.words_played += 1
        if r.words_per_level and self.words_played % r.words_per_level == 0:
            self.level += 1
        if any(self.grid.coords[t][1] == 0 for t in self._fire_tiles()):
            self.game_over, self.reason = True, "a fire tile reached the bottom row"
        self._solution = None
        turn = Turn(word, path, score, self.level, self.score, self.game_over, self.reason)
        self.history.append(turn)
        return turn

    # tiles carry an identity while they fall, so old fires can be told from new ones
    def _fire_tiles(self):
        return [t for t in range(self.grid.n_tiles) if self._kinds[t] == FIRE]

    def _fire_ids(self):
        if not hasattr(self, "_ids"):
            self._ids = np.arange(self.grid.n_tiles, dtype=np.int64)
            self._next_id = self.grid.n_tiles
        return [int(self._ids[t]) for t in self._fire_tiles()]

    def _remove(self, tiles, refill: bool = True) -> list:
        """Remove ``tiles``; columns fall; new tiles (or holes) enter at the top. Returns the new tiles."""
        self._fire_ids()
        gone = set(tiles)
        new = []
        for c, h in enumerate(self.grid.shape):
            col = [self.grid.index(c, r) for r in range(h)]
            keep = [t for t in col if t not in gone]
            if len(keep) == h:
                continue
            codes = [self._codes[t] for t in keep]
            kinds = [self._kinds[t] for t in keep]
            ids = [self._ids[t] for t in keep]
            for t in col[len(keep):]:
                codes.append(self._draw() if refill else HOLE)
                kinds.append(PLAIN)
                ids.append(self._next_id)
                self._next_id += 1
                new.append(t)
            for t, a, k, i in zip(col, codes, kinds, ids):
                self._codes[t], self._kinds[t], self._ids[t] = a, k, i
        return new

    def _burn(self, fire_ids, refill: bool = True):
        where = {fid: self._where(fid) for fid in fire_ids}
        # fires already played or burnt (no tile) are left out before sorting: None does not compare with int
        for fid in sorted((f for f in fire_ids if where[f] is not None), key=where.__getitem__):
            t = self._where(fid)
            if t is None:
                continue  # played or burnt
            c, r = self.grid.coords[t]
            if r == 0:
                continue
            below = self.grid.index(c, r - 1)
            if self._kinds[below] == FIRE:
                continue
            self._remove([below], refill)

    def _where(self, tile_id):
        hit = np.flatnonzero(self._ids == tile_id)
        return int(hit[0]) if hit.size else None

    # ------------------------------------------------------------------ self-play
    def choose(self, strategy: str = "greedy", top_k: int = 12) -> Found | None:
        """The move a strategy picks here (None when no word is left): ``greedy`` the best score now,
        ``longest`` the longest word, ``lookahead`` the best of the ``top_k`` by score now plus the best next
        word from the tiles known to stay."""
        if not isinstance(strategy, str) or strategy not in STRATEGIES:
            raise InvalidParameterError(f"unknown strategy {S._short(strategy)}; known: {', '.join(STRATEGIES)}")
        top_k = S._int(top_k, "top_k", 1)
        sol = self.words()
        if not len(sol):
            return None
        if strategy == "greedy":
            return sol.best()
        if strategy == "longest":
            return max(sol, key=lambda f: (len(f.word), f.score, [-ord(ch) for ch in f.word]))
        best, best_v = None, None
        for f in sol.top(top_k):
            v = f.score + self._after(f.path)
            if best_v is None or v > best_v:
                best, best_v = f, v
        return best

    def _after(self, path) -> float:
        """Value of the board left by ``path`` from known tiles only: new tiles are unknown (holes), so the
        lookahead cannot peek at the generator. A fire that would reach the bottom costs the game."""
        b = self.copy()
        old = set(b._fire_ids())
        b._remove(path, refill=False)
        b._burn(old, refill=False)
        fires = b._fire_tiles()
        if any(b.grid.coords[t][1] == 0 for t in fires):
            return -1e12
        danger = sum(500.0 for t in fires if b.grid.coords[t][1] <= 2)
        b._solution = None
        nxt = b.words().best()
        return (nxt.score if nxt else 0) - danger


def _rng(seed) -> np.random.Generator:
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError) as e:
        raise InvalidParameterError(f"seed must be None or a whole number >= 0, got {S._short(seed)} ({e})") \
            from None


Board = Position  # the old name
