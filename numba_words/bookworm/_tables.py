"""Bookworm/Boggle tables: constants, grids, scoring and rules as data, tile codes and the board-text codec,
and the per-lexicon search tables (built once per lexicon through :meth:`Lexicon.derived`).

Grids: a tile list, a neighbour table, and the same table as ``uint64`` bitboard masks. The kernels only see
``Grid.masks`` (bit ``u`` of ``masks[t]`` set when tiles ``t`` and ``u`` touch), so a new grid is a new
table, not new code. At most 64 tiles (one bitboard).

Tile codes (``uint8``, what the kernels read per tile): a letter index of the lexicon's alphabet (< 32),
:data:`QU` for the Qu tile (a two-letter edge Q then U), :data:`HOLE` for an empty square. Board text: a
Bookworm board is ``"col0 col1 ... col6"`` (each column bottom to top, ``q`` the Qu tile, ``.`` empty), a
Boggle board its rows top to bottom separated by spaces (or one string of rows*cols letters).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .._jit import kernel
from ..lexicon import Lexicon
from ..lexicon._dawg import child_slot
from ..lexicon.cache import array_problem
from .errors import InvalidBoardError, InvalidParameterError

# ---------------------------------------------------------------------------------------------- tile codes
QU = 62      # tile code of the Qu tile
HOLE = 63    # tile code of an empty square (matches nothing)
QCOL = 32    # column of the Qu tile in the per-board table ``nbl`` (letters use their index, < 32)
NCOL = 33
HOLE_CHARS = "._"

# ---------------------------------------------------------------------------------------------- grids
BOOKWORM_HEIGHTS = (7, 8, 7, 8, 7, 8, 7)


@dataclass(frozen=True, eq=False)
class Grid:
    """A board shape: ``coords[t]`` (column, row) of tile ``t``, ``neighbours`` (``int8`` table padded with
    -1), ``masks`` (``uint64`` per tile), ``degree`` (``int8`` per tile).

    ``kind`` is ``"bookworm"`` (columns bottom to top, rows counted from the bottom) or ``"boggle"``
    (rows top to bottom, ``coords`` are (row, column)).
    """

    name: str
    kind: str
    coords: tuple
    neighbours: np.ndarray
    degree: np.ndarray
    masks: np.ndarray
    shape: tuple = field(default=())  # bookworm: column heights; boggle: (rows, cols)

    @property
    def n_tiles(self) -> int:
        """The number of tiles on the grid."""
        return len(self.coords)

    @property
    def n_edges(self) -> int:
        """The number of pairs of neighbouring tiles."""
        return int(self.degree.sum()) // 2

    def index(self, a: int, b: int) -> int:
        """Tile index of coordinates ``(a, b)``."""
        try:
            return self._index[(a, b)]
        except (KeyError, TypeError):
            raise InvalidBoardError(f"{_short((a, b))} is not a tile of the {self.name} grid") from None

    @functools.cached_property
    def _index(self):
        return {c: i for i, c in enumerate(self.coords)}

    def __repr__(self) -> str:
        return f"<Grid {self.name}: {self.n_tiles} tiles, {self.n_edges} edges>"

    def __post_init__(self):
        """Checks what the kernels index with: ``masks`` (``uint64``, one a tile) name only tiles of the grid,
        are symmetric and loop-free, and agree with ``neighbours`` and ``degree``. Stored read-only."""
        n = len(self.coords)
        if not 1 <= n <= 64:
            raise InvalidBoardError(f"grid {self.name!r} has {n} tiles; 1 to 64 fit a bitboard")
        if self.kind not in ("bookworm", "boggle"):
            raise InvalidBoardError(f"grid kind must be 'bookworm' or 'boggle', got {self.kind!r}")
        masks = np.asarray(self.masks)
        if masks.dtype != np.uint64 or masks.shape != (n,):
            raise InvalidBoardError(f"grid {self.name!r}: masks must be uint64 of shape ({n},), got {masks.dtype} "
                                    f"{masks.shape}")
        bits = [int(m) for m in masks]
        for t, m in enumerate(bits):
            if m >> n or (m >> t) & 1 or any((bits[u] >> t) & 1 == 0 for u in range(n) if (m >> u) & 1):
                raise InvalidBoardError(f"grid {self.name!r}: the neighbour mask of tile {t} ({m:#x}) names a tile "
                                        f"outside the grid, the tile itself, or a tile that does not name it back")
        want = [sorted(u for u in range(n) if (m >> u) & 1) for m in bits]
        nbrs = np.asarray(self.neighbours)
        deg = np.asarray(self.degree)
        if nbrs.ndim != 2 or nbrs.shape[0] != n or deg.shape != (n,) \
                or [sorted(int(u) for u in row if u >= 0) for row in nbrs] != want \
                or [int(d) for d in deg] != [len(w) for w in want]:
            raise InvalidBoardError(f"grid {self.name!r}: neighbours and degree do not match the masks")
        if self.kind == "bookworm" and (not self.shape or sum(self.shape) != n):
            raise InvalidBoardError(f"grid {self.name!r}: column heights {self.shape!r} do not add up to {n} tiles")
        if self.kind == "boggle" and (len(self.shape) != 2 or self.shape[0] * self.shape[1] != n):
            raise InvalidBoardError(f"grid {self.name!r}: shape {self.shape!r} is not rows x cols = {n} tiles")
        for name, arr in (("masks", masks), ("neighbours", nbrs), ("degree", deg)):
            arr = np.array(arr)  # a private copy: nobody can change a checked table under the kernels
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)


def _make(name, kind, coords, adj, shape) -> Grid:
    n = len(coords)
    if not 1 <= n <= 64:
        raise InvalidBoardError(f"grid {name!r} has {n} tiles; 1 to 64 fit a bitboard")
    deg = np.array([len(a) for a in adj], dtype=np.int8)
    width = max(1, int(deg.max()) if n else 1)
    table = np.full((n, width), -1, dtype=np.int8)
    masks = np.zeros(n, dtype=np.uint64)
    for t, a in enumerate(adj):
        for k, u in enumerate(sorted(a)):
            table[t, k] = u
            masks[t] |= np.uint64(1) << np.uint64(u)
    for arr in (table, deg, masks):
        arr.setflags(write=False)
    return Grid(name, kind, tuple(coords), table, deg, masks, tuple(shape))


def bookworm_grid(heights=BOOKWORM_HEIGHTS) -> Grid:
    """The Bookworm Deluxe hex board: columns of 7, 8, 7, 8, 7, 8, 7 tiles, tile ``(c, r)`` with ``r`` from
    the bottom; odd columns sit half a tile lower. Neighbours of ``(c, r)``: ``(c, r±1)``; even ``c`` also
    ``(c±1, r)`` and ``(c±1, r+1)``; odd ``c`` also ``(c±1, r-1)`` and ``(c±1, r)``."""
    try:
        heights = tuple(heights)
    except TypeError:
        raise InvalidBoardError(f"column heights must be a sequence of whole numbers, got {_short(heights)}") \
            from None
    for h in heights:
        if isinstance(h, (bool, np.bool_)) or not isinstance(h, (int, np.integer)) or h < 1:
            raise InvalidBoardError(f"column heights must be whole numbers >= 1, got {_short(heights)}")
    if not heights or sum(heights) > 64:
        raise InvalidBoardError(f"column heights {_short(heights)} give {sum(heights)} tiles; 1 to 64 fit a bitboard")
    heights = tuple(int(h) for h in heights)
    coords = [(c, r) for c, h in enumerate(heights) for r in range(h)]
    index = {xy: i for i, xy in enumerate(coords)}
    adj = []
    for c, r in coords:
        cand = [(c, r - 1), (c, r + 1)]
        dr = (0, 1) if c % 2 == 0 else (-1, 0)
        for dc in (-1, 1):
            for d in dr:
                cand.append((c + dc, r + d))
        adj.append({index[xy] for xy in cand if xy in index})
    return _make("bookworm", "bookworm", coords, adj, heights)


def boggle_grid(rows: int = 4, cols: int | None = None) -> Grid:
    """A Boggle board of ``rows`` by ``cols`` dice (row-major tiles), each touching up to 8 others."""
    cols = rows if cols is None else cols
    for v, what in ((rows, "rows"), (cols, "cols")):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 1:
            raise InvalidBoardError(f"Boggle {what} must be a positive integer, got {_short(v)}")
    rows, cols = int(rows), int(cols)
    if rows * cols > 64:
        raise InvalidBoardError(f"a {rows}x{cols} Boggle board has {rows * cols} tiles; at most 64")
    coords = [(r, c) for r in range(rows) for c in range(cols)]
    adj = []
    for r, c in coords:
        adj.append({(r + dr) * cols + (c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                    if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols})
    return _make(f"boggle{rows}x{cols}", "boggle", coords, adj, (rows, cols))


BOOKWORM = bookworm_grid()
BOGGLE4 = boggle_grid(4)
BOGGLE5 = boggle_grid(5)
GRIDS = {"bookworm": BOOKWORM, "boggle4": BOGGLE4, "boggle5": BOGGLE5}

# ---------------------------------------------------------------------------------------------- scoring
KINDS = ("plain", "green", "gold", "sapphire", "diamond", "fire")
KIND_CHARS = ".gysdf"  # one character per kind in board text: . plain, g green, y gold, s sapphire, d diamond, f fire
PLAIN, GREEN, GOLD, SAPPHIRE, DIAMOND, FIRE = range(6)


@dataclass(frozen=True)
class Scoring:
    """Score of a word = ``(level + sum of tile values) * (letters + sum of gem bonuses) * multiplier``.

    ``letter_values`` maps a letter (``"QU"`` for the Qu tile) to its value; ``gem_bonus`` a tile kind to its
    bonus. Letters missing from the table are worth ``default_value``.
    """

    name: str
    letter_values: dict
    gem_bonus: dict
    multiplier: int = 10
    default_value: int = 1

    def value(self, letter: str) -> int:
        """The letter's tile value (case-insensitive; letters not in the table take ``default_value``)."""
        return int(self.letter_values.get(letter.upper(), self.default_value))

    def bonus(self, kind: str) -> int:
        """The bonus a tile of ``kind`` adds to the letter count of a word through it (0 for a plain tile)."""
        return int(self.gem_bonus.get(kind, 0))

    def score(self, values, letters: int, bonuses=(), level: int = 1) -> int:
        """Points of a word: ``(level + sum(values)) * (letters + sum(bonuses)) * multiplier``."""
        return (level + sum(values)) * (letters + sum(bonuses)) * self.multiplier


BOOKWORM_DELUXE = Scoring(
    name="Bookworm Deluxe",
    letter_values=dict(A=1, B=4, C=4, D=3, E=1, F=5, G=3, H=5, I=1, J=8, K=7, L=2, M=4, N=2, O=1, P=4, QU=9,
                       R=2, S=1, T=2, U=2, V=5, W=6, X=8, Y=6, Z=10),
    gem_bonus=dict(green=2, gold=4, sapphire=7, diamond=10),
)

# Standard Boggle points by word length in letters (Qu counts 2): 3-4 letters 1, 5 -> 2, 6 -> 3, 7 -> 5,
# 8 or more -> 11; shorter words score nothing.
BOGGLE_POINTS = (0, 0, 0, 1, 1, 2, 3, 5, 11)


def boggle_points(length: int) -> int:
    """Standard Boggle points of a word of ``length`` letters."""
    return BOGGLE_POINTS[min(int(length), len(BOGGLE_POINTS) - 1)]


@dataclass(frozen=True)
class BogglePoints:
    """Boggle scoring: a word scores ``points[letters]`` (Qu counts 2 letters; the last entry for longer
    words), whatever its path, tile kinds or level. The default scoring on Boggle grids."""

    name: str = "Boggle"
    points: tuple = BOGGLE_POINTS

    def score(self, letters: int) -> int:
        """Boggle points for a word of ``letters`` letters (Qu counts as two)."""
        return int(self.points[min(int(letters), len(self.points) - 1)])

    def table(self, max_len: int) -> np.ndarray:
        """Points by word length ``0..max_len`` (``int64``)."""
        return np.array([self.score(n) for n in range(max_len + 1)], dtype=np.int64)


BOGGLE_SCORING = BogglePoints()


def default_scoring(grid) -> "Scoring | BogglePoints":
    """Bookworm Deluxe scores on a Bookworm grid, Boggle points on a Boggle grid."""
    return BOOKWORM_DELUXE if grid.kind == "bookworm" else BOGGLE_SCORING


# Letter weights for new tiles: Bookworm-like (English frequencies, Qu rare), as relative weights.
BOOKWORM_FREQUENCIES = dict(
    A=8.2, B=1.8, C=3.0, D=4.0, E=11.5, F=1.9, G=2.4, H=3.6, I=7.8, J=0.25, K=0.9, L=4.6, M=2.6, N=6.8, O=7.2,
    P=2.4, QU=0.3, R=6.9, S=6.5, T=6.8, U=3.5, V=1.0, W=1.4, X=0.3, Y=1.7, Z=0.3,
)


@dataclass(frozen=True)
class Rules:
    """Game rules for :meth:`Position.play` and self-play (all data, all swappable).

    ``gem_for_letters``: a word of at least that many letters creates that gem among the new tiles (longest
    threshold met wins). ``fire_max_letters``/``fire_chance``: a word of at most that many letters spawns a
    fire tile among the new tiles with that probability; ``fire_chance_any`` times the level per turn regardless.
    Fire tiles burn the tile below them once a turn; a fire tile reaching the bottom row ends the game.
    ``words_per_level``: the level (added to every score) goes up after that many words. ``scoring``:
    ``None`` scores by the grid (:func:`default_scoring`).
    """

    scoring: "Scoring | BogglePoints | None" = None  # None: by grid (Bookworm Deluxe, or Boggle points)
    frequencies: dict = field(default_factory=lambda: dict(BOOKWORM_FREQUENCIES))
    gem_for_letters: tuple = ((5, "green"), (6, "gold"), (7, "sapphire"), (8, "diamond"))
    fire_max_letters: int = 3
    fire_chance: float = 0.6
    fire_chance_any: float = 0.04
    words_per_level: int = 10
    min_len: int = 3
    max_len: int = 12

    def __post_init__(self):
        if self.scoring is not None and not isinstance(self.scoring, (Scoring, BogglePoints)):
            raise InvalidParameterError(f"Rules.scoring must be a Scoring, BogglePoints or None, got "
                                        f"{_short(self.scoring)}")
        for name in ("fire_max_letters", "words_per_level", "min_len", "max_len"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise InvalidParameterError(f"Rules.{name} must be a whole number >= 0, got {_short(v)}")
        for name in ("fire_chance", "fire_chance_any"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
                raise InvalidParameterError(f"Rules.{name} must be a probability 0..1, got {_short(v)}")
        try:
            gems = [(int(n), k) for n, k in self.gem_for_letters]
        except (TypeError, ValueError):
            gems = None
        if gems is None or any(k not in KINDS[1:5] for _, k in gems):
            raise InvalidParameterError(f"Rules.gem_for_letters must be (letters, gem) pairs with gems among "
                                        f"{', '.join(KINDS[1:5])}, got {_short(self.gem_for_letters)}")


DEFAULT_RULES = Rules()
STRATEGIES = ("greedy", "longest", "lookahead")


# ---------------------------------------------------------------------------------------------- lexicons
_default_lexicon = None


def default_lexicon() -> Lexicon:
    """TWL06, loaded once."""
    global _default_lexicon
    if _default_lexicon is None:
        _default_lexicon = Lexicon.load("twl06")
    return _default_lexicon


def as_lexicon(lexicon) -> Lexicon:
    """``lexicon`` as a :class:`Lexicon`: ``None`` is TWL06, a name or path is loaded."""
    if lexicon is None:
        return default_lexicon()
    if isinstance(lexicon, Lexicon):
        return lexicon
    return Lexicon.load(lexicon)


# ---------------------------------------------------------------------------------------------- board text
def tile_code(ch: str, lex: Lexicon) -> int:
    """Tile code of one board character: a letter index, ``QU`` for ``q``, ``HOLE`` for ``.``."""
    if ch in HOLE_CHARS:
        return HOLE
    if ch.lower() == "q" and "U" in lex.alphabet and "Q" in lex.alphabet:
        return QU
    try:
        return lex.alphabet.index(ch)
    except ValueError:
        raise InvalidBoardError(f"tile {ch!r} is not a letter of the alphabet {lex.alphabet.letters!r}, "
                                f"'q' (Qu) or '.' (empty)") from None


def code_letters(code: int, lex: Lexicon) -> str:
    """Letters a tile code spells (``"qu"``, ``""`` for a hole), lower case."""
    if code == QU:
        return "qu"
    if code == HOLE:
        return ""
    return lex.alphabet.letters[code].lower()


def code_tables(lex: Lexicon, scoring: Scoring) -> tuple:
    """``(lbit, lval, kbonus)``: per tile code its first-letter bit and value; per kind index its gem bonus."""
    t = tables(lex)
    letters = lex.alphabet.letters
    lbit = np.zeros(64, dtype=np.int64)
    lval = np.zeros(64, dtype=np.int64)
    for i, ch in enumerate(letters):
        lbit[i] = 1 << i
        lval[i] = scoring.value(ch)
    if t.q >= 0 and t.u >= 0:
        lbit[QU] = 1 << t.q
        lval[QU] = scoring.value("QU")
    # (search.check_scoring has bounded every value, so these fit int64 and no score overflows)
    kbonus = np.array([scoring.bonus(k) for k in KINDS], dtype=np.int64)
    return lbit, lval, kbonus


def _short(x, limit: int = 80) -> str:
    r = repr(x)
    return r if len(r) <= limit else r[:limit - 5] + " ...>"


def parse_kinds(text, n: int, what: str = "kinds") -> np.ndarray:
    """Kind indices (``uint8``, ``n`` of them) from a string of kind characters (``.gysdf``; spaces ignored)
    or a sequence of kind names or indices 0..5."""
    if text is None:
        return np.zeros(n, dtype=np.uint8)
    out = []
    if isinstance(text, str):
        for i, ch in enumerate(text.replace(" ", "")):
            k = KIND_CHARS.find(ch.lower())
            if k < 0 or not ch.strip():
                raise InvalidBoardError(f"{what} {_short(text)}: {ch!r} at position {i + 1} is not a tile kind; use "
                                        f"{', '.join(f'{c!r} {k}' for c, k in zip(KIND_CHARS, KINDS))}")
            out.append(k)
    else:
        try:
            items = list(text)
        except TypeError:
            raise InvalidBoardError(f"{what} must be kind text or a sequence of kinds, got {_short(text)}") from None
        for i, x in enumerate(items):
            if isinstance(x, str):
                if x not in KINDS:
                    raise InvalidBoardError(f"{what}: unknown tile kind {_short(x)} at {i}; known: {', '.join(KINDS)}")
                out.append(KINDS.index(x))
            elif isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) and 0 <= x < len(KINDS):
                out.append(int(x))
            else:
                raise InvalidBoardError(f"{what}: {_short(x)} at {i} is not a tile kind (a name or an index "
                                        f"0..{len(KINDS) - 1})")
    if len(out) != n:
        raise InvalidBoardError(f"{what} {_short(text)} gives {len(out)} tiles; the board has {n}")
    return np.array(out, dtype=np.uint8)


def parse_text(text: str, grid: Grid, lex: Lexicon) -> np.ndarray:
    """Tile codes from board text: Bookworm ``"col0 col1 ... col6"`` (each column bottom to top), Boggle
    rows top to bottom separated by spaces (or one string of rows*cols letters)."""
    if not isinstance(text, str):
        raise InvalidBoardError(f"board text must be a string, got {text!r}")
    parts = text.split()
    shape = grid.shape
    if grid.kind == "bookworm":
        if len(parts) != len(shape):
            raise InvalidBoardError(f"board {text!r} has {len(parts)} columns; a Bookworm board has "
                                    f"{len(shape)} (heights {', '.join(map(str, shape))}), bottom to top")
        for c, (col, h) in enumerate(zip(parts, shape)):
            if len(col) != h:
                raise InvalidBoardError(f"board {text!r}: column {c} {col!r} has {len(col)} tiles; it needs {h}")
    else:
        rows, cols = shape
        if len(parts) == 1 and len(parts[0]) == rows * cols:
            parts = [parts[0][i * cols:(i + 1) * cols] for i in range(rows)]
        if len(parts) != rows or any(len(p) != cols for p in parts):
            raise InvalidBoardError(f"board {text!r} is not {rows} rows of {cols} letters")
    chars = "".join(parts)
    codes = np.empty(len(chars), dtype=np.uint8)
    for i, ch in enumerate(chars):
        codes[i] = tile_code(ch, lex)
    return codes


def split_layout(chars: str, grid: Grid) -> str:
    """One character a tile, laid out as board text: Bookworm columns or Boggle rows, space separated."""
    if grid.kind == "bookworm":
        out, i = [], 0
        for h in grid.shape:
            out.append(chars[i:i + h])
            i += h
        return " ".join(out)
    rows, cols = grid.shape
    return " ".join(chars[r * cols:(r + 1) * cols] for r in range(rows))


def board_text(codes, grid: Grid, lex: Lexicon) -> str:
    """Board text of tile codes (the inverse of :func:`parse_text`)."""
    return split_layout("".join("q" if c == QU else "." if c == HOLE else lex.alphabet.letters[c].lower()
                                for c in codes), grid)


# ---------------------------------------------------------------------------------------------- per lexicon
class LexiconTables(NamedTuple):
    """What the search kernels need of a lexicon: the DAWG and its word-rank table ``acc``
    (:func:`word_rank_table`), the DAWG re-laid for the search (``pk``, ``acc2``, ``lay``: :func:`pack_dawg`),
    and the letter indices ``q``/``u`` of Q and U (-1 when the alphabet lacks them: no Qu tiles then)."""

    dawg: np.ndarray
    acc: np.ndarray
    pk: np.ndarray
    acc2: np.ndarray
    lay: np.ndarray
    q: int
    u: int


def _pack(lex: Lexicon) -> tuple:
    edges = dawg_edges(lex.dawg)
    acc = word_rank_table(lex.dawg, edges)
    return (acc, *pack_dawg(lex.dawg, acc, len(lex.alphabet.letters), edges=edges))


def _build_tables(lex: Lexicon) -> LexiconTables:
    acc, pk, acc2, lay = lex.derived("bookworm.pack", _pack, persist=True, check=_check_pack)
    for a in (acc, pk, acc2, lay):  # (read-only whether built here or read from the cache: one compile of a kernel)
        a.flags.writeable = False
    letters = lex.alphabet.letters
    return LexiconTables(lex.dawg, acc, pk, acc2, lay, letters.find("Q"), letters.find("U"))


def _check_pack(lex: Lexicon, t) -> str | None:
    """What is wrong with a cached packed DAWG (:func:`pack_dawg`): shapes and dtypes, the layout ``lay`` the
    DAWG and alphabet imply, and every edge's child (its first edge plus its edge count) inside ``pk``. (The
    rank steps are bound to what was written by the cache file's seal, see ``lexicon.cache.load_derived``.)"""
    if type(t) is not tuple or len(t) != 4:
        return "not the packed DAWG's four arrays"
    acc, pk, acc2, lay = t
    n_pk = pk.shape[0] if isinstance(pk, np.ndarray) and pk.ndim == 1 else 0
    for a, dtype, shape, what in ((acc, np.int32, (lex.dawg.shape[0],), "rank table"), (pk, np.int64, (n_pk,), "pk"),
                                  (acc2, np.int32, (None,), "acc2"), (lay, np.int64, (6,), "lay")):
        problem = array_problem(a, dtype, shape, what)
        if problem:
            return problem
    n_edges = n_pk - 1
    a_bits = len(lex.alphabet.letters)
    bbits = max(1, n_edges.bit_length())
    root, n_letters, bshift, bmask, ashift, amask = (int(x) for x in lay)
    if (n_edges < 0 or n_edges >= lex.dawg.shape[0] or root != int(lex.dawg[0]) or n_letters != a_bits
            or bshift != a_bits + 1 or bmask != (1 << bbits) - 1 or not (ashift == 64 or bshift + bbits <= ashift < 64)
            or acc2.shape[0] != (n_pk if ashift == 64 else 1) or pk[n_edges] != 0
            or _popcount32(np.array([root], np.uint32))[0] > n_edges):
        return "the packed DAWG's layout does not fit the lexicon"
    x = pk[:n_edges].view(np.uint64)
    mask = (x & np.uint64((1 << a_bits) - 1)).astype(np.uint32)
    first = ((x >> np.uint64(bshift)) & np.uint64(bmask)).astype(np.int64)
    if np.any(first + _popcount32(mask) > n_edges):
        return "a packed DAWG edge leads outside the table"
    return None


def tables(lexicon) -> LexiconTables:
    """The search tables of a lexicon, built once and kept with it (``Lexicon.derived("bookworm.packed")``)."""
    return as_lexicon(lexicon).derived("bookworm.packed", _build_tables)


# The tables are built with NumPy, not Numba: they are built once per lexicon and process (a fraction of a
# second for TWL06), while compiling two more kernels cost seconds on every cold first call.
def _popcount32(x: np.ndarray) -> np.ndarray:
    """Set bits of each (32-bit) value, as ``int64``."""
    if hasattr(np, "bitwise_count"):  # NumPy 2
        return np.bitwise_count(x).astype(np.int64)
    pop16 = np.unpackbits(np.arange(1 << 16, dtype=">u2").view(np.uint8)).reshape(-1, 16).sum(1)
    return (pop16[x & 0xFFFF] + pop16[(x >> 16) & 0xFFFF]).astype(np.int64)


class DawgEdges(NamedTuple):
    """Every node and edge of a DAWG: ``nodes`` (node offsets, ascending), ``first`` (index of each node's
    first edge), ``k`` (its edge count) and ``ep`` (the DAWG position of every edge, node by node)."""

    nodes: np.ndarray
    first: np.ndarray
    k: np.ndarray
    ep: np.ndarray


def dawg_edges(dawg) -> DawgEdges:
    """Walks the DAWG breadth first from the root (one vectorised step a level); every node is reachable."""
    d = np.asarray(dawg).astype(np.int64)
    seen = np.zeros(d.shape[0], dtype=bool)
    seen[0] = True
    front = np.zeros(1, dtype=np.int64)
    parts = [front]
    while front.size:
        k = _popcount32(d[front])
        total = int(k.sum())
        if not total:
            break
        pos = np.repeat(front + 1, k) + (np.arange(total) - np.repeat(np.cumsum(k) - k, k))
        child = np.unique(d[pos] >> 1)
        child = child[~seen[child]]
        seen[child] = True
        parts.append(child)
        front = child
    nodes = np.sort(np.concatenate(parts))
    k = _popcount32(d[nodes])
    first = np.cumsum(k) - k
    n_edges = int(k.sum())
    if nodes.shape[0] + n_edges != d.shape[0]:
        raise ValueError("DAWG layout: nodes and edges do not tile the array")  # pragma: no cover - invariant
    ep = np.repeat(nodes + 1, k) + (np.arange(n_edges) - np.repeat(first, k))
    return DawgEdges(nodes, first, k, ep)


def word_rank_table(dawg, edges: DawgEdges | None = None) -> np.ndarray:
    """``acc`` (``int32``, same length as ``dawg``): at an edge position ``p = o + 1 + k`` the number of words
    below node ``o`` that sort before the words through edge ``k``, plus that edge's terminal flag.

    Summing ``acc`` over the edges spelling a word and subtracting one gives the word's sorted index.
    """
    d = np.asarray(dawg).astype(np.int64)
    nodes, first, k, ep = dawg_edges(dawg) if edges is None else edges
    e = d[ep]
    term = e & 1
    child = np.searchsorted(nodes, e >> 1)
    owner = np.repeat(np.arange(nodes.shape[0]), k)
    # words below each node (suffixes, the empty one excluded): relax until nothing changes; every pass
    # settles one more level from the bottom, so it takes the longest word's length plus one passes
    count = np.zeros(nodes.shape[0], dtype=np.int64)
    while True:
        new = np.bincount(owner, weights=term + count[child], minlength=nodes.shape[0]).astype(np.int64)
        if np.array_equal(new, count):
            break
        count = new
    w = term + count[child]
    before = np.cumsum(w) - w
    before -= np.repeat(np.append(before, 0)[first], k)
    acc = np.zeros(d.shape[0], dtype=np.int32)
    acc[ep] = before + term
    return acc


def pack_dawg(dawg, acc, n_letters, wide=False, edges: DawgEdges | None = None) -> tuple:
    """The DAWG re-laid for the search: ``(pk, acc2, lay)``.

    ``pk`` (``int64``) holds only edges, node by node in DAWG order; the edge to a child carries everything
    the search needs about that child, so one load per step replaces the edge -> child-mask chain of two
    dependent loads (and the separate ``acc`` load):

    bits ``0 .. A-1``      the child's letter mask (``A = n_letters``)
    bit  ``A``             terminal flag (the prefix ending here is a word)
    bits ``A+1 ..``        index in ``pk`` of the child's first edge (``lay[BMASK]`` wide)
    bits ``lay[ASHIFT]..`` the rank step ``acc`` of this edge, when it fits; otherwise ``lay[ASHIFT] == 64``
                           and the rank step is ``acc2[q]`` (same index as the edge; also when ``wide``)

    ``lay`` = ``[root mask, A, bshift, bmask, ashift, amask]``; the root's edges start at index 0. A spare
    zero edge at the end keeps the search's speculative loads in bounds.
    """
    d = np.asarray(dawg).astype(np.int64)
    nodes, first, k, ep = dawg_edges(dawg) if edges is None else edges
    n_edges = ep.shape[0]
    base = np.zeros(d.shape[0], dtype=np.int64)  # index in pk of a node's first edge
    base[nodes] = nodes - np.arange(nodes.shape[0])
    max_acc = int(acc.max()) if acc.shape[0] else 0
    bbits = max(1, n_edges.bit_length())
    abits = max(1, max_acc.bit_length())
    bshift = n_letters + 1
    ashift = bshift + bbits
    e = d[ep]
    c = e >> 1
    x = d[c].astype(np.uint64) | ((e & 1).astype(np.uint64) << np.uint64(n_letters)) \
        | (base[c].astype(np.uint64) << np.uint64(bshift))
    if wide or ashift + abits > 64:
        ashift = 64
        acc2 = np.zeros(n_edges + 1, dtype=np.int32)
        acc2[:n_edges] = acc[ep]
    else:
        acc2 = np.zeros(1, dtype=np.int32)
        x |= acc[ep].astype(np.uint64) << np.uint64(ashift)
    pk = np.zeros(n_edges + 1, dtype=np.uint64)
    pk[:n_edges] = x
    lay = np.array([d[0], n_letters, bshift, (1 << bbits) - 1, ashift, (1 << abits) - 1], dtype=np.int64)
    return pk.view(np.int64), acc2, lay


@kernel
def word_ranks(dawg, acc, flat, offsets, out):
    """``out[i]`` = rank computed through ``acc`` for word ``i`` (a self-check: must equal ``i``)."""
    for i in range(offsets.shape[0] - 1):
        node = 0
        s = 0
        for k in range(offsets[i], offsets[i + 1]):
            c = np.int64(flat[k])
            p = child_slot(node, np.int64(dawg[node]), c)
            e = np.int64(dawg[p])
            s += acc[p]
            node = e >> 1
        out[i] = s - 1
