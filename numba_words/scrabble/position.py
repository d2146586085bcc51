"""The state class :class:`Position`: a board, the rack on turn, scores; its notation and board text.

Notation follows the engines players use: ``8H`` = across from row 8 column H, ``H8`` = down from column H
row 8; the word lists every letter, letters already on the board in parentheses (or ``.``), blanks in lower
case (``8A eMME(T)``). Positions are read and written as CGP (:mod:`.cgp`) and as board text
(:meth:`Position.from_rows`, ``str(position)``).
"""
from __future__ import annotations

import operator
import re
import threading
from collections import Counter
from itertools import product

import numpy as np

from .._jit import compiled_entry
from ..lexicon import Lexicon
from . import cgp as _cgp
from ._best import search_rack
from ._board import BEST_SEARCH, BoardArrays, _tables_for, as_plays, best_args, plays_array, rack_arrays
from ._movegen import REC
from ._tables import COLS, EMPTY, SIZE
from .errors import (IllegalPlayError, InvalidBoardError, InvalidCgpError, InvalidNotationError,
                     InvalidRackError, ScrabbleError, short)
from .leaves import default_leaves, equity_args, exchange_allowed, variant_arrays  # (used on every best-by-equity call)
from .plays import Play, Plays, _check_by
from .variants import Variant, get_variant

_LEXICONS: dict = {}
_LEXICONS_LOCK = threading.Lock()


def lexicon_for(lexicon, variant: Variant) -> Lexicon:
    """``lexicon`` (a :class:`Lexicon`, a name or path, or ``None`` for the variant's own), loaded once per
    name and checked against the variant's alphabet."""
    if isinstance(lexicon, Lexicon):
        lex = lexicon
    else:
        if lexicon is not None and not isinstance(lexicon, str):
            raise ScrabbleError(f"lexicon must be a Lexicon, a name or a path, got {short(lexicon)}")
        name = lexicon or variant.lexicon
        lex = _LEXICONS.get(name)
        if lex is None:
            with _LEXICONS_LOCK:
                lex = _LEXICONS.get(name)
                if lex is None:
                    lex = _LEXICONS[name] = Lexicon.load(name)
    if lex.alphabet.letters != variant.alphabet:
        raise ScrabbleError(f"lexicon alphabet {lex.alphabet.letters!r} differs from variant {variant.name!r}'s "
                            f"alphabet {variant.alphabet!r}")
    return lex


_COORD_ACROSS = re.compile(r"^([0-9]{1,2})([A-Za-z])$")
_COORD_DOWN = re.compile(r"^([A-Za-z])([0-9]{1,2})$")


def parse_coord(coord: str):
    """``(row, col, dir)`` from ``8H`` (across) or ``H8`` (down); :class:`InvalidNotationError` otherwise."""
    if not isinstance(coord, str):
        raise InvalidNotationError(f"a coordinate must be a string like '8H', got {short(coord)}")
    m = _COORD_ACROSS.match(coord)
    if m:
        r, c, d = int(m.group(1)) - 1, m.group(2).upper(), 0
    else:
        m = _COORD_DOWN.match(coord)
        if not m:
            raise InvalidNotationError(f"coordinate {short(coord)}: expected like '8H' (across) or 'H8' (down)")
        r, c, d = int(m.group(2)) - 1, m.group(1).upper(), 1
    if c not in COLS or not 0 <= r < SIZE:
        raise InvalidNotationError(f"coordinate {coord!r} is off the 15x15 board")
    return r, COLS.index(c), d


_EMPTY_CHARS = set(". -_*'\"=")


def sort_rack(rack) -> str:
    """Tiles sorted, blanks (``?``) last."""
    rack = list(rack)
    return "".join(sorted(ch for ch in rack if ch != "?")) + "?" * rack.count("?")


def best_array(position, board, counts, nb, by: str, exchange_floor: bool = False, blank_floor: bool = False):
    """The pruned search of :meth:`Position._best` on ``position``'s ``board`` and rack arrays: the best play as a
    plays array of one row (none: no play)."""
    eq = None
    floor = False
    if by == "equity":
        eq = equity_args(position, position.leaves)
        floor = exchange_floor or (blank_floor and nb > 0 and exchange_allowed(position))
    arr = plays_array(board, counts, nb, best_only=True, equity=eq, exchange_floor=floor)
    if not len(arr) and floor and not exchange_floor:
        arr = plays_array(board, counts, nb, best_only=True, equity=eq)
    return arr


def _best_plan(position, board, by: str, exchange_floor: bool, blank_floor: bool) -> tuple | None:
    """The kernel call of :func:`best_array` made ready, for a rack of at most two blanks (else ``None``):
    ``(args, n0, again, fn)``: :func:`._best.search_rack`'s arguments but the last two, its ``n0`` (the exchange
    floor), whether to search again without the floor when no play reaches it, and the kernel to call
    (:func:`._best.search_rack`, or its compiled code for these arguments' types once a position of the same
    tables was searched: :func:`_search_entry`)."""
    counts, nb = position._rack_arrays()
    if nb > 2:
        return None
    eq = None
    floor = False
    if by == "equity":
        eq = equity_args(position, position.leaves)
        floor = exchange_floor or (blank_floor and nb > 0 and exchange_allowed(position))
    # (NumPy integer scalars as Python ints: the same int64 to the kernel, dispatched in ~15 against ~60 ns each)
    args = best_args(board, counts, nb, eq)
    a = list(args)
    for i in _INT_ARGS:
        a[i] = int(a[i])
    args = tuple(a)
    hit = _ENTRIES.get(tuple(map(id, _SHARED_ARGS(args))))
    return args, 1 if floor else 0, floor and not exchange_floor, search_rack if hit is None else hit[1]


_INT_ARGS = (9, 10, 11, 23, 24, 25)  # search_rack's integer scalars (n_blanks, rack_size, bingo, R, bag, opp_pts)


# search_rack's arguments that every position of a variant, lexicon and leave table shares (the tables), by index;
# the others are the board's and the rack's arrays, which this package alone makes (C-contiguous, fixed dtypes),
# and Python ints and bools: so these identities fix every argument's type
_SHARED_ARGS = operator.itemgetter(5, 6, 7, 12, 14, 15, 16, 18, 19, 20, 21, 22, 26, 27, 28)
_ENTRIES: dict = {}  # ids of the shared arguments -> (those arguments, search_rack's compiled code for their types)


def _search_entry(args, out, n0):
    """:func:`._best.search_rack`'s compiled code for ``args``' types (a call then skips the dispatcher's type
    checks). Typed once per variant, lexicon, leave table and objective, and reused by every position of theirs:
    typing the 31 arguments of each new position took ~250 us, five times the search."""
    shared = _SHARED_ARGS(args)
    key = tuple(map(id, shared))
    hit = _ENTRIES.get(key)
    if hit is None:
        if len(_ENTRIES) > 256:  # (tables made and dropped by the hundred, as tests do)
            _ENTRIES.clear()
        entry = compiled_entry(search_rack, (*args, out, n0))
        if entry is search_rack:  # (nothing compiled for them yet: the dispatcher, typed again next time)
            return entry
        hit = _ENTRIES[key] = (shared, entry)  # (holding the arguments keeps their ids theirs)
    return hit[1]


_READERS: dict = {}  # (variant, lexicon) as from_cgp takes them -> what _reader gives
_OPS: dict = {}  # a CGP's operations text -> its operations, checked (:func:`.cgp.parse_ops`)


def _reader(variant, lexicon) -> tuple:
    """``(variant, lexicon, tables, bag totals, equity arrays)`` for :meth:`Position.from_cgp`'s ``variant`` and
    ``lexicon`` arguments (checked; kept for names and objects, which stand for the same ever after)."""
    v = get_variant(variant)
    lex = lexicon_for(lexicon, v)
    p = Position._make(v, lex, None, "", "", (0, 0), 0)
    out = (v, lex, _tables_for(v, lex), p._bag_totals(), variant_arrays(v))
    try:
        if len(_READERS) > 64:  # (lexicons made and dropped by the hundred, as tests do)
            _READERS.clear()
        _READERS[variant, lexicon] = out
    except TypeError:
        pass
    return out


def _ops(text: str) -> dict:
    """:func:`.cgp.parse_ops` of ``text``, kept for the next CGP with the same operations (``lex TWL06;``...)."""
    ops = _OPS.get(text)
    if ops is None:
        ops = _cgp.parse_ops(text)
        if len(_OPS) > 256:
            _OPS.clear()
        _OPS[text] = ops
    return ops


_TEMPLATES: dict = {}  # (objective, id(board tables)) -> (tables, search_rack's arguments as a list, compiled code)
_FRESH_ARGS = (0, 1, 2, 3, 4, 8, 9, 13, 17, 24, 25)  # the arguments a new position fills in (see _fresh_best)


def _keep_template(by: str, board, args, fn) -> None:
    """Keep ``args`` (a position read from a CGP, searched by ``by`` with the shipped leave table, its board's
    tables ``board._tab``) as the template of :func:`_fresh_best`, with ``fn``, the compiled code for their types."""
    if len(_TEMPLATES) > 64:  # (tables made and dropped by the hundred, as tests do)
        _TEMPLATES.clear()
    a = list(args)
    for i in _FRESH_ARGS if by == "equity" else _FRESH_ARGS[:-3]:  # (the position's own: the template holds the
        a[i] = None  # shared tables alone, and by score the equity's placeholders)
    _TEMPLATES[by, id(board._tab)] = (board._tab, a, fn)


def _fresh_best(position, board, fresh, template, by: str, exchange_floor: bool, blank_floor: bool):
    """:meth:`Position._best` of a position read from a CGP (``fresh``: what :meth:`Position.from_cgp` kept, the
    board and racks unchanged since) with the shipped leave table: the search's arguments are the ``template`` of
    a position read before with the same tables, its own arrays and counts put in, and the compiled code called
    directly (a first search of a new position in a few Python calls: the general plan took ~15 us)."""
    _, _, counts, nb, kinds, bag, opp = fresh
    a = template[1].copy()
    a[0], a[1], a[2], a[3], a[4] = board._lines, board._fv, board._occ, board._cc, board._xs
    a[8], a[9], a[13] = counts, nb, board._empty
    floor = exchange_floor
    if by == "equity":
        a[17], a[24], a[25] = kinds, bag, opp
        floor = exchange_floor or (blank_floor and nb > 0 and bag >= position.variant.rack_size)
    fn = template[2]
    out = np.empty(REC, np.uint8)
    n, _ = fn(*a, out, 1 if floor else 0)
    if n == 0 and floor and not exchange_floor:
        n, _ = fn(*a, out, 0)
    return Play(as_plays(out, 1)[0], position) if n else None


class Position:
    """A board, the rack on turn (and optionally the opponent's), the scores and the scoreless-turn count.

    >>> p = Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACDINRT/ 0/0 0")
    >>> p.best().score
    22

    ``rack``/``opp_rack`` are checked when set (at most the variant's rack size; letters of the alphabet or
    ``?``; with the board no more of a tile than the variant's bag holds). ``legal_plays()`` is cached until
    the rack or the board changes.
    """

    def __init__(self, variant="scrabble", lexicon=None, *, board: BoardArrays | None = None, rack: str = "",
                 opp_rack: str = "", scores=(0, 0), scoreless: int = 0):
        self.variant = get_variant(variant)
        self.lexicon = lexicon_for(lexicon, self.variant)
        self.alphabet = self.lexicon.alphabet.letters
        if board is None:
            board = BoardArrays(self.variant, self.lexicon)
        elif not isinstance(board, BoardArrays):
            raise InvalidBoardError(f"board must be a BoardArrays (Position.board of another position), got "
                                    f"{short(board)}")
        elif board.variant is not self.variant or board.lexicon is not self.lexicon:
            raise InvalidBoardError("board was built for another variant or lexicon than this position's")
        self.board = board
        self._rack = ""
        self._opp_rack = ""
        self.opp_rack = opp_rack
        self.rack = rack
        self.scores = _scores(scores)
        if isinstance(scoreless, bool) or not isinstance(scoreless, (int, np.integer)) or scoreless < 0:
            raise ScrabbleError(f"scoreless must be a whole number >= 0, got {short(scoreless)}")
        self.scoreless = int(scoreless)
        self._plays = None
        self._plays_key = None

    @classmethod
    def _make(cls, variant, lexicon, board, rack, opp_rack, scores, scoreless) -> "Position":
        """A position from parts already checked (no validation)."""
        p = object.__new__(cls)
        p.variant, p.lexicon, p.alphabet = variant, lexicon, lexicon.alphabet.letters
        p.board = board
        p._rack, p._opp_rack = rack, opp_rack
        p.scores = tuple(scores)
        p.scoreless = scoreless
        p._plays = p._plays_key = None
        return p

    # ------------------------------------------------------------------ racks and the bag
    @property
    def rack(self) -> str:
        """The rack on turn, sorted, blanks (``?``) last."""
        return self._rack

    @rack.setter
    def rack(self, rack: str) -> None:
        rack = self._check_rack(rack)
        self._check_bag(self.board.letters, self.board.blanks, rack, self._opp_rack, "rack")
        self._rack = rack

    @property
    def opp_rack(self) -> str:
        """The opponent's rack when known ("" otherwise)."""
        return self._opp_rack

    @opp_rack.setter
    def opp_rack(self, rack: str) -> None:
        rack = self._check_rack(rack, "opponent rack")
        self._check_bag(self.board.letters, self.board.blanks, self._rack, rack, "opponent rack")
        self._opp_rack = rack

    def _check_rack(self, rack: str, what: str = "rack") -> str:
        if not isinstance(rack, str):
            raise InvalidRackError(f"{what} must be a string, got {short(rack)}")
        rack = rack.strip()
        if len(rack) > self.variant.rack_size:
            raise InvalidRackError(f"{what} {short(rack)} has {len(rack)} tiles; at most {self.variant.rack_size}")
        if rack.isascii():  # (upper case letter by letter, so the whole string's check is each letter's)
            up = rack.upper()
            if not set(up) - self._rack_chars():
                return "".join(sorted(up.replace("?", ""))) + "?" * up.count("?")
        for ch in rack:
            if ch != "?" and (ch.upper() not in self.alphabet or len(ch.upper()) != 1):
                raise InvalidRackError(f"{what} {rack!r}: {ch!r} is neither a letter of {self.alphabet!r} nor '?'")
        return sort_rack(ch.upper() for ch in rack)

    def _rack_chars(self) -> frozenset:
        """The alphabet's letters and ``?`` (kept on the variant)."""
        key = ("rack chars", self.alphabet)
        chars = self.variant._arrays.get(key)
        if chars is None:
            chars = self.variant._arrays[key] = frozenset(self.alphabet) | {"?"}
        return chars

    def _tile_counts(self, letters, blanks, *racks) -> Counter:
        cnt = Counter()
        on = letters != EMPTY
        for x in letters[on & ~blanks]:
            cnt[self.alphabet[x]] += 1
        cnt["?"] += int((on & blanks).sum())
        for r in racks:
            cnt.update(r)
        return cnt

    def _check_bag(self, letters, blanks, rack, opp_rack, what, error=InvalidRackError) -> None:
        """No more of a tile on the board and racks than the variant's bag holds."""
        cnt = self._tile_counts(letters, blanks, rack, opp_rack)
        v = self.variant
        for ch, n in cnt.items():
            have = v.blanks if ch == "?" else v.counts.get(ch, 0)
            if n > have:
                tile = "blanks" if ch == "?" else f"{ch!r} tiles"
                raise error(f"{what}: the board and racks hold {n} {tile}; the {v.name} bag has only {have}")

    def _bag_totals(self) -> np.ndarray:
        """The variant's bag by letter code of this alphabet, the blanks last (``int64``, kept on the variant)."""
        tot = self.variant._arrays.get(("unseen", self.alphabet))
        if tot is None:
            tot = np.array([self.variant.counts.get(ch, 0) for ch in self.alphabet] + [self.variant.blanks], np.int64)
            self.variant._arrays[("unseen", self.alphabet)] = tot
        return tot

    def unseen(self) -> Counter:
        """Tiles the player on turn cannot see: the bag and the opponent's rack (``?`` = blank)."""
        a = self._unseen_array()
        out = Counter()
        for ch in self.variant.counts:  # (the variant's order, then the blank: draws from it stay reproducible)
            i = self.alphabet.find(ch)
            if i >= 0 and a[i] > 0:
                out[ch] = int(a[i])
        if a[-1] > 0:
            out["?"] = int(a[-1])
        return out

    def bag_size(self) -> int:
        """Tiles in the bag: the unseen tiles less the opponent's rack (all of them when it is unknown)."""
        return max(0, int(self._unseen_array().sum()) - len(self._opp_rack))

    def _unseen_array(self) -> np.ndarray:
        """:meth:`unseen` as counts by letter code, the blanks last (NumPy; kept until the board or rack changes:
        counting the board's tiles in Python took ~20 us, most of a first ``best(by="equity")`` on a position)."""
        b = self.board
        hit = self.__dict__.get("_unseen_arr")
        if hit is not None and hit[0] == b.version and hit[1] == self._rack and hit[2] is b:
            return hit[3]
        n = len(self.alphabet)
        tot = self._bag_totals()
        counts, nb = self._rack_arrays()
        out = tot - b.tile_use()
        out[:n] -= counts[:n]
        out[n] -= nb
        np.maximum(out, 0, out=out)
        self.__dict__["_unseen_arr"] = (b.version, self._rack, b, out)
        return out

    def _rack_arrays(self, rack=None):
        """``(counts, n_blanks)`` of ``rack`` (default: the rack on turn, cached; the kernels never write them)."""
        if rack is None:
            hit = self.__dict__.get("_rack_arr")
            if hit is not None and hit[0] == self._rack:
                return hit[1]
            arr = self._rack_arrays(self._rack)
            self._rack_arr = (self._rack, arr)
            return arr
        return rack_arrays([self.alphabet.index(ch) for ch in rack if ch != "?"], rack.count("?"))

    # ------------------------------------------------------------------ generation
    def legal_plays(self) -> Plays:
        """Every legal tile placement, scored (cached until the rack or the board changes).

        On the empty board only across plays are listed (a down play is the transposed copy)."""
        key = (id(self.board), self.board.version, self._rack)
        if self._plays is None or self._plays_key != key:
            counts, nb = self._rack_arrays()
            self._plays = Plays(plays_array(self.board, counts, nb), self, _checked=True)
            self._plays_key = key
        return self._plays

    def best(self, by: str = "score") -> Play | None:
        """The top-scoring play (found by the pruned best-only kernel, which writes nothing else), or None.
        Ties are broken as in :meth:`Plays.best`. ``by="equity"``: the play of highest static equity (score +
        leave value, see :mod:`.leaves`), by the same pruned search with the leave in its bounds (exchanges:
        :meth:`best_move`)."""
        if by != "score" and by != "equity":
            _check_by(by)
        return self._best(by, blank_floor=True)

    def _best(self, by: str, exchange_floor: bool = False, blank_floor: bool = False) -> Play | None:
        """:meth:`best`; with ``exchange_floor`` (by equity, exchanging allowed), only a play whose equity reaches
        the best exchange's. ``blank_floor``: that floor first when the rack holds a blank (a play nearly always
        beats the best exchange then; the floor bounds the search from its first start on, two-blank racks take
        ~0.6x the time, which saves more than searching again when no play reaches it)."""
        if not BEST_SEARCH.ready():
            # a machine's first run: the search compiles in a background process (~10 s); every play ranked
            # meanwhile gives the same play
            best = self.legal_plays().best(by)
            if best is not None and exchange_floor:
                from .leaves import best_exchange

                if round(best.equity * 1000) < round(best_exchange(self).equity * 1000):
                    return None
            return best
        board = self.board
        fresh = self.__dict__.get("_fresh")
        if fresh is not None and fresh[0] is board and fresh[1] == (board.version, self._rack, self._opp_rack) \
                and "_leaves" not in self.__dict__:
            t = _TEMPLATES.get((by, id(board._tab)))
            if t is not None and t[0] is board._tab:
                return _fresh_best(self, board, fresh, t, by, exchange_floor, blank_floor)
        # the kernel's arguments kept on the position, one set per objective, while its board, racks and leave
        # table stay (a call then costs the kernel and ~1 us of Python: ~5 us went into making them, positions in
        # turn)
        key = (board.version, self._rack, self._opp_rack)
        leaves = self.__dict__.get("_leaves")  # (None: the variant's shipped table, which never changes)
        plans = self.__dict__.get("_plans")
        if plans is None:
            plans = self._plans = {}
        plan = plans.get((by, exchange_floor, blank_floor))
        if plan is None or plan[0] != key or plan[1] is not board or plan[2] is not leaves:
            plan = [key, board, leaves, _best_plan(self, board, by, exchange_floor, blank_floor)]
            plans[(by, exchange_floor, blank_floor)] = plan
        call = plan[3]
        if call is None:  # three blanks or more: the walk
            arr = best_array(self, board, *self._rack_arrays(), by, exchange_floor, blank_floor)
            return Play(arr[0], self) if len(arr) else None
        args, n0, again, fn = call
        out = np.empty(REC, np.uint8)
        n, _ = fn(*args, out, n0)
        if n == 0 and again:
            n, _ = fn(*args, out, 0)
        if fn is search_rack:  # the compiled code for these arguments' types, called directly from now on
            plan[3] = (args, n0, again, _search_entry(args, out, n0))
        elif fresh is not None and leaves is None and (by, id(board._tab)) not in _TEMPLATES:
            _keep_template(by, board, args, fn)
        return Play(as_plays(out, 1)[0], self) if n else None

    best_play = best

    def top(self, n: int | None = 10, by: str = "score") -> list:
        """The ``n`` best plays by score or ``by="equity"`` (see :meth:`Plays.top`)."""
        return self.legal_plays().top(n, by)

    # ------------------------------------------------------------------ equity (see .leaves)
    @property
    def leaves(self):
        """The leave table equity reads (a :class:`~.leaves.Leaves`; default: the variant's shipped table).
        Set it to a table, a KLV2 path, ``"zero"`` or ``None``."""
        t = self.__dict__.get("_leaves")
        if t is None:
            t = default_leaves(self.variant)
        return t

    @leaves.setter
    def leaves(self, source) -> None:
        from .leaves import load_leaves

        t = load_leaves(source, self.variant)
        if t.variant.name != self.variant.name:
            raise InvalidRackError(f"leaves for {t.variant.name!r} set on a {self.variant.name!r} position")
        self.__dict__["_leaves"] = t

    def _equities(self, plays_arr) -> np.ndarray:
        from .leaves import play_equities

        return play_equities(plays_arr, self, self.leaves)

    def best_move(self, by: str = "equity"):
        """The best move: a :class:`Play` or (when exchanging is allowed, :meth:`exchanges`) an
        :class:`~.leaves.Exchange`, by equity (or ``by="score"``: the top-scoring play); ``None`` when there is
        neither (pass)."""
        from .leaves import best_move

        return best_move(self, by)

    def exchanges(self) -> list:
        """Every distinct non-empty sub-multiset of the rack, as sorted strings; none when the bag holds fewer
        tiles than a rack (:meth:`bag_size`)."""
        if self.bag_size() < self.variant.rack_size:
            return []
        cnt = Counter(self._rack)
        keys = sorted(cnt, key=lambda ch: (ch == "?", ch))
        out = []
        for combo in product(*[range(cnt[k] + 1) for k in keys]):
            s = "".join(k * n for k, n in zip(keys, combo))
            if s:
                out.append(s)
        return out

    # ------------------------------------------------------------------ search (see .endgame, .sim)
    def endgame(self, plies: int | None = None, time: float | None = None, tt_mb: float = 64, passed: bool = False,
                threads: int = 1):
        """The solved endgame (bag empty, :attr:`opp_rack` known): best move, principal variation and final
        spread change; see :func:`.endgame.solve_endgame`."""
        from .endgame import solve_endgame

        return solve_endgame(self, plies=plies, time=time, tt_mb=tt_mb, passed=passed, threads=threads)

    def simulate(self, candidates: int = 15, plies: int = 2, iterations: int = 1000, *, time: float | None = None,
                 threads: int | None = None, seed: int = 0, client=None, **kw):
        """Monte-Carlo simulation of the top ``candidates`` plays by static equity; see :func:`.sim.simulate`."""
        from .sim import simulate

        return simulate(self, candidates=candidates, plies=plies, iterations=iterations, time=time,
                        threads=threads, seed=seed, client=client, **kw)

    # ------------------------------------------------------------------ notation
    def parse_play(self, text: str) -> Play:
        """The legal :class:`Play` written as ``"8D CAIRD"`` / ``"H10 F(E)H"`` (parentheses optional, ``.`` for
        a played-through letter, blanks lower case). Raises :class:`InvalidNotationError` /
        :class:`IllegalPlayError`."""
        placed = self._placement(text)
        plays = self.legal_plays()
        play = plays.find(placed)
        if play is None and self.board.empty:
            # on the empty board only across plays are generated; a down play is the transposed copy
            t = plays.find([(c, r, ch, b) for r, c, ch, b in placed])
            if t is not None:
                row = t._row.copy()
                row["row"], row["col"], row["dir"] = t._row["col"], t._row["row"], 1 - t._row["dir"]
                play = Play(row, self)
        if play is None:
            raise IllegalPlayError(f"{short(text)} is not a legal play with rack {self._rack!r}")
        return play

    def _placement(self, text: str) -> list:
        """The new tiles ``(row, col, LETTER, is_blank)`` a play in notation puts down (not checked for
        legality beyond the squares)."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"a play must be a string like '8H WORD', got {short(text)}")
        parts = text.split()
        if len(parts) != 2:
            raise InvalidNotationError(f"play {short(text)}: expected 'COORD WORD', e.g. '8H QUIZ' or 'H8 QUIZ'")
        r, c, d = parse_coord(parts[0])
        word = parts[1]
        placed = []
        k = 0
        inpar = False
        for ch in word:
            if ch == "(":
                if inpar:
                    raise InvalidNotationError(f"play {short(text)}: nested parentheses")
                inpar = True
                continue
            if ch == ")":
                if not inpar:
                    raise InvalidNotationError(f"play {short(text)}: unbalanced parentheses")
                inpar = False
                continue
            rr, cc = (r + k, c) if d else (r, c + k)
            if rr >= SIZE or cc >= SIZE:
                raise InvalidNotationError(f"play {short(text)} runs off the board")
            on = self.board.letters[rr, cc]
            if ch == ".":
                if on == EMPTY:
                    raise InvalidNotationError(f"play {short(text)}: '.' at an empty square {COLS[cc]}{rr + 1}")
            else:
                up = ch.upper()
                if up not in self.alphabet or len(up) != 1 or ch not in (up, up.lower()):
                    raise InvalidNotationError(f"play {short(text)}: {ch!r} is not a letter of {self.alphabet!r}")
                if on != EMPTY:
                    if self.alphabet[on] != up:
                        raise IllegalPlayError(f"play {short(text)}: square {COLS[cc]}{rr + 1} holds "
                                               f"{self.alphabet[on]!r}, not {up!r}")
                elif inpar:
                    raise IllegalPlayError(f"play {short(text)}: {ch!r} in parentheses but {COLS[cc]}{rr + 1} "
                                           "is empty")
                else:
                    placed.append((rr, cc, up, ch != up))
            k += 1
        if inpar:
            raise InvalidNotationError(f"play {short(text)}: unbalanced parentheses")
        if not placed:
            raise IllegalPlayError(f"play {short(text)} places no tile")
        return placed

    # ------------------------------------------------------------------ CGP
    @classmethod
    def from_cgp(cls, cgp: str, variant="scrabble", lexicon=None) -> "Position":
        """Read ``rows rack[/opp] score/score scoreless [ops]`` (see :mod:`.cgp`). A ``lex NAME;`` operation
        picks the lexicon unless ``lexicon`` is given; a name this library has no word list for is an error."""
        pos, r, text, rack, opp = cls._read_fields(cgp, variant, lexicon)
        variant, lex, _, bag_totals, eq_arrays = r
        # the board in one kernel call (and its tiles counted there); the Python decoder names what is wrong
        fast = BoardArrays.from_cgp_board(variant, lex, text, rack + opp, bag_totals, len(rack))
        if fast is not None:  # (the rack's counts, the unseen tiles and the equity's inputs counted there too)
            board, _, (counts, unseen, info, kinds) = fast
            pos._keep_read(board, rack, opp, counts, unseen, info, kinds, eq_arrays)
        else:
            letters, blanks = _cgp.decode_board(text.split("/"), lex.alphabet.letters)
            pos._check_bag(letters, blanks, rack, opp, f"CGP {short(cgp)}", InvalidCgpError)
            board = BoardArrays(variant, lex, letters, blanks)
        pos.board = board
        pos._rack, pos._opp_rack = rack, opp
        return pos

    @classmethod
    def _read_fields(cls, cgp: str, variant, lexicon) -> tuple:
        """``(position, reader, board text, rack, opp rack)``: a CGP's fields but the board read and checked, the
        racks sorted, in a position without a board yet, and :func:`_reader`'s answer for its variant and lexicon
        (a ``lex`` operation picks the lexicon unless ``lexicon`` is given). Raises :class:`InvalidCgpError`."""
        text, rack, opp, scores, scoreless, ops = _cgp.cgp_fields(cgp)
        if ops:
            ops = _ops(ops)
            if lexicon is None:
                lexicon = _cgp.lexicon_name(ops)
        try:  # (what a variant and lexicon argument stand for, found once)
            r = _READERS.get((variant, lexicon))
        except TypeError:  # (an argument that is no key: the checks below name it)
            r = None
        if r is None:
            r = _reader(variant, lexicon)
        variant, lex, t = r[:3]
        pos = cls._make(variant, lex, None, "", "", scores, scoreless)
        chars = t.rack_chars
        if len(rack) <= variant.rack_size and len(opp) <= variant.rack_size and chars.issuperset(rack) and \
                chars.issuperset(opp):  # (the alphabet's letters and blanks, few enough: what the checks give)
            rack = "".join(sorted(rack.replace("?", ""))) + "?" * rack.count("?")
            opp = "".join(sorted(opp.replace("?", ""))) + "?" * opp.count("?")
        else:
            try:
                rack = pos._check_rack(rack)
                opp = pos._check_rack(opp, "opponent rack")
            except InvalidRackError as e:
                raise InvalidCgpError(f"CGP {short(cgp)}: {e}") from None
        return pos, r, text, rack, opp

    def _keep_read(self, board, rack, opp, counts, unseen, info, kinds, eq_arrays) -> None:
        """Keep what the kernel that read a CGP's ``board`` (version 0) counted for the racks ``rack``/``opp``: the
        rack's ``counts``, the ``unseen`` tiles, ``info`` (bag size, opponent's points) and the rack by ``kinds``,
        with the variant's ``eq_arrays`` (:func:`.leaves.variant_arrays`), as if computed here (computing them in
        Python took ~25 us, a fifth of a first best(by="equity"))."""
        d = self.__dict__
        nb = kinds.item(0)
        d["_rack_arr"] = (rack, (counts, np.int64(nb)))
        d["_kinds"] = (rack, kinds)
        d["_unseen_arr"] = (0, rack, board, unseen)
        bag, opp_pts = info.item(0), info.item(1)
        d["_equity_in"] = ((0, rack, opp), (*eq_arrays, bag, opp_pts), board)
        if nb <= 2:  # (the search by word groups, see _fresh_best)
            d["_fresh"] = (board, (0, rack, opp), counts, nb, kinds, bag, opp_pts)

    def cgp(self) -> str:
        """The position as one CGP line (round-trips through :meth:`from_cgp`)."""
        return _cgp.format_cgp(self.board.letters, self.board.blanks, self.alphabet, self._rack, self._opp_rack,
                               self.scores, self.scoreless)

    # ------------------------------------------------------------------ board text
    @classmethod
    def from_rows(cls, rows, variant="scrabble", lexicon=None, *, rack: str = "", opp_rack: str = "",
                  scores=(0, 0), scoreless: int = 0) -> "Position":
        """A position from board text: 15 rows of 15 squares (a list, or one string of 15 lines), a letter for
        a tile (lower case: a blank), any of ``. -_*'"=`` for an empty square."""
        if isinstance(rows, str):
            rows = [line for line in rows.splitlines() if line.strip()]
        try:
            rows = list(rows)
        except TypeError:
            raise InvalidBoardError(f"board rows must be a string or a list of strings, got {short(rows)}") from None
        if len(rows) != SIZE:
            raise InvalidBoardError(f"board text has {len(rows)} rows, expected {SIZE}")
        variant = get_variant(variant)
        lex = lexicon_for(lexicon, variant)
        alpha = lex.alphabet.letters
        letters = np.full((SIZE, SIZE), EMPTY, np.uint8)
        blanks = np.zeros((SIZE, SIZE), bool)
        for r, row in enumerate(rows):
            if not isinstance(row, str) or len(row) != SIZE:
                raise InvalidBoardError(f"board row {r + 1} {short(row)}: expected a string of {SIZE} squares")
            for c, ch in enumerate(row):
                if ch in _EMPTY_CHARS:
                    continue
                up = ch.upper()
                if up not in alpha or len(up) != 1 or ch not in (up, up.lower()):
                    raise InvalidBoardError(f"board row {r + 1} {row!r}: {ch!r} is not a letter of {alpha!r} "
                                            "or an empty square ('.')")
                letters[r, c] = alpha.index(up)
                blanks[r, c] = ch != up
        pos = cls._make(variant, lex, None, "", "", (0, 0), 0)
        pos._check_bag(letters, blanks, "", "", "board", InvalidBoardError)
        pos.board = BoardArrays(variant, lex, letters, blanks)
        pos.opp_rack = opp_rack
        pos.rack = rack
        pos.scores = _scores(scores)
        pos.scoreless = int(scoreless)
        return pos

    def rows(self) -> list:
        """The board as 15 strings of 15 squares (``.`` empty, lower case a blank); :meth:`from_rows` reads it."""
        out = []
        for r in range(SIZE):
            s = []
            for c in range(SIZE):
                x = self.board.letters[r, c]
                if x == EMPTY:
                    s.append(".")
                else:
                    ch = self.alphabet[x]
                    s.append(ch.lower() if self.board.blanks[r, c] else ch)
            out.append("".join(s))
        return out

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
        lines.append(f"rack {self._rack or '-'}   scores {self.scores[0]}-{self.scores[1]}   "
                     f"variant {self.variant.name}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Position.from_cgp({self.cgp()!r}, variant={self.variant.name!r})"

    def svg(self, play: Play | str | None = None, *, size: int = 480, highlight=()) -> str:
        """The board as SVG text (premium squares, tiles with values, blanks marked) with ``play`` (a
        :class:`Play` or notation) drawn on it and highlighted, or the ``(row, col)`` squares in ``highlight``
        marked. Save it as a ``.svg`` file, or show it in a notebook."""
        from .svg import position_svg

        if isinstance(play, str):
            play = self.parse_play(play)
        elif play is not None and not isinstance(play, Play):
            raise InvalidNotationError(f"play must be a Play, notation or None, got {short(play)}")
        return position_svg(self, play, size=size, highlight=highlight)

    def _repr_svg_(self) -> str:
        return self.svg()

    def copy(self) -> "Position":
        """An independent copy: board, racks and bag are copied, tables (lexicon, leaves) shared."""
        p = object.__new__(Position)
        p.__dict__.update(self.__dict__)
        p.__dict__.pop("_plans", None)
        p.board = self.board.copy()
        p._plays = p._plays_key = None
        return p


def _scores(scores) -> tuple:
    try:
        a, b = scores
    except (TypeError, ValueError):
        raise ScrabbleError(f"scores must be two whole numbers, got {short(scores)}") from None
    for s in (a, b):
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or abs(s) >= 10 ** 9:
            raise ScrabbleError(f"scores must be two whole numbers (|score| < 10^9), got {short(scores)}")
    return int(a), int(b)
