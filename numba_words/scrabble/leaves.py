"""Leave values (:class:`Leaves`) and static equity: what the tiles kept after a play are worth.

A :class:`Leaves` table holds a value in points for every leave of 1..``max_size`` tiles (``rack_size - 1``: a
play uses at least one tile) that the variant's bag can hold: 914,624 leaves for English Scrabble, stored as
whole millipoints in one ``int32`` array indexed by the leave's rank (see :mod:`._leaves`: no hashing, no
search). Tables are read from and written to KLV2 files (:mod:`.klv`), the format MAGPIE and wolges use. The
package ships a TWL06 table learned by self-play (:func:`.autoplay.learn_leaves`).

Static equity (:func:`play_equities`) follows MAGPIE: score + leave value while the bag holds tiles; with the
bag empty, + twice the opponent's rack for going out, else - twice the tiles kept - 10 points; on the empty
board, -0.35 points per premium (word or letter multiplier above 1) beside each square a vowel lands on in the
start row (or column). Values are whole millipoints, so ties break alike everywhere.
"""
from __future__ import annotations

import math

import os
import threading
from importlib import resources
from pathlib import Path

import numpy as np

from .._memory import on_huge_pages
from . import _leaves, _movegen, klv
from ._tables import N_CODES, SIZE
from .errors import InvalidLeavesError, InvalidRackError, short
from .variants import Variant, get_variant

OPENING_PENALTY = -350
"""Millipoints per premium step (a double counts 1, a triple 2) beside the start line, per vowel placed."""
VOWELS = {"scrabble": "AEIOU", "wwf": "AEIOU", "wordfeud": "AEIOU", "wordfeud-nb": "AEIOUYÆØÅ"}
"""Vowels of each variant's alphabet (a blank counts as the letter it stands for)."""
PACKAGED = {"scrabble": "twl06_leaves.klv2"}
"""Leave tables shipped in ``numba_words/data``, by variant."""

_TABLES: dict = {}
_LOCK = threading.Lock()


def _read_only(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


def _rank_tables(variant: Variant, R: int):
    key = (variant.name, variant.blanks, tuple(sorted(variant.counts.items())), R)
    with _LOCK:
        t = _TABLES.get(key)
        if t is None:
            t = _TABLES[key] = _leaves.rank_tables(_caps(variant), R)
    return t


def _caps(variant: Variant) -> np.ndarray:
    return np.array([variant.blanks] + [variant.counts.get(ch, 0) for ch in variant.alphabet], np.int64)


class Leaves:
    """Leave values of one variant: ``leaves["EIS?"]`` (points, a float), ``len(leaves)`` leaves.

    ``variant``: a :class:`Variant` or name; ``values``: points per leave in rank order (``None``: all 0);
    ``max_size``: the longest leave (default ``rack_size - 1``). Leave strings are tiles in any order, ``?`` a
    blank, letters in either case. A leave longer than ``max_size`` (the whole rack kept) is worth 0."""

    def __init__(self, variant="scrabble", values=None, *, max_size: int | None = None, name: str = ""):
        self.variant = get_variant(variant)
        rs = self.variant.rack_size
        if max_size is None:
            max_size = rs - 1
        if isinstance(max_size, bool) or not isinstance(max_size, (int, np.integer)) or not 1 <= max_size <= rs:
            raise InvalidLeavesError(f"max_size must be a whole number from 1 to {rs}, got {short(max_size)}")
        self.max_size = int(max_size)
        self.name = name
        self._caps = _caps(self.variant)
        self._G, self._P, n = _rank_tables(self.variant, self.max_size)
        if values is None:
            self._milli = on_huge_pages(np.zeros(n, np.int32))  # (read at random: see :mod:`numba_words._memory`)
        else:
            v = np.asarray(values, np.float64)
            if v.shape != (n,):
                raise InvalidLeavesError(f"values must have shape ({n},) for {self.variant.name} leaves of up to "
                                         f"{self.max_size} tiles, got {v.shape}")
            if not np.isfinite(v).all() or np.abs(v).max(initial=0) > 1e6:
                raise InvalidLeavesError("leave values must be finite numbers of at most 10^6 points")
            self._milli = on_huge_pages(np.round(v * 1000).astype(np.int32))
        self.tiles = "?" + self.variant.alphabet
        self._kind = {ch: k for k, ch in enumerate(self.tiles)}

    @property
    def milli(self) -> np.ndarray:
        """Every leave's value in millipoints (``int32``, rank order): a read-only view (the kernels index with
        the table unchecked; set a value with ``leaves[leave] = points``)."""
        return _read_only(self._milli)

    def assign(self, milli) -> None:
        """Set every leave's value at once: ``milli``, whole millipoints in rank order (``len(self)`` of them, each
        of at most 10^6 points); :class:`InvalidLeavesError` otherwise."""
        v = np.asarray(milli)
        if v.shape != self._milli.shape or v.dtype.kind not in "iu" or (v.size and np.abs(v).max() > 10 ** 9):
            raise InvalidLeavesError(f"values must be {len(self)} whole millipoints of at most 10^9, got "
                                     f"{v.dtype} {v.shape}")
        self._milli[:] = v

    @property
    def caps(self) -> np.ndarray:
        """Tiles of each kind in the bag (``int64``, blank first): a read-only view."""
        return _read_only(self._caps)

    # ------------------------------------------------------------------ lookups
    def __len__(self) -> int:
        return len(self._milli)

    @property
    def values(self) -> np.ndarray:
        """Every leave's value in points (float64, rank order; a new array)."""
        return self._milli / 1000.0

    def counts(self, leave: str) -> np.ndarray:
        """Tiles per kind (0 blank, 1 + letter code) of a leave string; :class:`InvalidRackError` for a
        character outside the alphabet or more of a tile than the bag holds."""
        if not isinstance(leave, str):
            raise InvalidRackError(f"a leave must be a string of tiles, got {short(leave)}")
        c = np.zeros(len(self.tiles), np.int64)
        for ch in leave.strip():
            k = self._kind.get(ch.upper() if ch != "?" else ch)
            if k is None:
                raise InvalidRackError(f"leave {short(leave)}: {ch!r} is neither a letter of "
                                       f"{self.variant.alphabet!r} nor '?'")
            c[k] += 1
        over = np.nonzero(c > self._caps)[0]
        if len(over):
            k = int(over[0])
            raise InvalidRackError(f"leave {short(leave)} holds {int(c[k])} of {self.tiles[k]!r}; the "
                                   f"{self.variant.name} bag has {int(self._caps[k])}")
        return c

    def rank(self, leave: str) -> int:
        """The leave's index in :attr:`values` (-1: the empty leave, -2: longer than ``max_size``)."""
        return int(_leaves.rank(self.counts(leave), self._caps, self._G, self._P, np.int64(self.max_size)))

    def __getitem__(self, leave: str) -> float:
        """The value in points of keeping ``leave`` (letters, ``?`` for a blank, any order); 0.0 for a leave not in the table."""
        r = self.rank(leave)
        return float(self._milli[r]) / 1000 if r >= 0 else 0.0

    value = __getitem__

    def __setitem__(self, leave: str, points: float) -> None:
        r = self.rank(leave)
        if r < 0:
            raise InvalidLeavesError(f"leave {short(leave)} has no entry (empty or longer than {self.max_size})")
        if isinstance(points, (bool, np.bool_)) or not isinstance(points, (int, float, np.integer, np.floating)) \
                or abs(points) > 1e6 or not math.isfinite(points):  # (abs first: a huge int is no float)
            raise InvalidLeavesError(f"the value of leave {short(leave)} must be a finite number of at most 10^6 "
                                     f"points, got {short(points)}")
        self._milli[r] = int(round(float(points) * 1000))

    def leaves(self) -> list:
        """Every leave string in rank order, written as racks are (letters sorted, blanks ``?`` last)."""
        tiles, lens = self._unrank()
        t = self.tiles
        out = []
        for row, n in zip(tiles.tolist(), lens.tolist()):
            b = row[:n].count(0)
            out.append("".join(t[k] for k in row[b:n]) + "?" * b)
        return out

    def _unrank(self):
        n = len(self._milli)
        tiles = np.zeros((n, self.max_size), np.int64)
        lens = np.zeros(n, np.int64)
        _leaves.unrank_all(self._caps, np.int64(self.max_size), tiles, lens)
        return tiles, lens

    def sizes(self) -> np.ndarray:
        """Tiles in each leave (rank order)."""
        return self._unrank()[1]

    def to_dict(self) -> dict:
        """``{leave: points}`` for every leave (keys as :meth:`leaves` writes them)."""
        return dict(zip(self.leaves(), (self._milli / 1000.0).tolist()))

    def best_by_size(self) -> np.ndarray:
        """``best[k]`` = the highest value (millipoints) of a leave of ``k`` tiles (``best[0] = 0``): the leave
        part of an upper bound on a play's equity, for a pruned best-by-equity search."""
        sizes = self.sizes()
        best = np.zeros(self.variant.rack_size + 1, np.int64)
        for k in range(1, self.max_size + 1):
            sel = self._milli[sizes == k]
            best[k] = int(sel.max()) if len(sel) else 0
        return best

    def _kernel_args(self):
        """``(milli, caps, G, P, R)``: what the kernels read."""
        return self._milli, self._caps, self._G, self._P, np.int64(self.max_size)

    def copy(self) -> "Leaves":
        """An independent copy (the values array is copied)."""
        out = object.__new__(Leaves)
        out.__dict__.update(self.__dict__)
        out._milli = self._milli.copy()
        return out

    def __repr__(self) -> str:
        return f"<Leaves {self.name or self.variant.name}: {len(self)} leaves of 1..{self.max_size} tiles>"

    # ------------------------------------------------------------------ files
    @classmethod
    def from_klv2(cls, source, variant="scrabble", *, name: str | None = None) -> "Leaves":
        """A table from a KLV2 file (path or bytes). Leaves the file lacks are worth 0; a tile outside the
        variant's alphabet, or more of one than its bag holds, is an :class:`InvalidLeavesError`."""
        variant = get_variant(variant)
        nodes, values = klv.read_klv2(source)
        where = "KLV2 data" if isinstance(source, (bytes, bytearray, memoryview)) else f"KLV2 file {short(str(source))}"
        root = int(nodes[0]) & klv.ARC_MASK
        if root >= len(nodes):
            raise InvalidLeavesError(f"{where}: root index {root} is past its {len(nodes)} nodes")
        m = len(values)
        tiles = np.zeros((m, _leaves.MAX_WORD), np.int64)
        lens = np.zeros(m, np.int64)
        n = int(_leaves.kwg_words(nodes, np.int64(root), tiles, lens))
        if n < 0:
            raise InvalidLeavesError(f"{where}: its word graph " + ("points outside its nodes or runs deeper than "
                                     f"{_leaves.MAX_WORD} tiles" if n == -1 else "loops"))
        if n != m:
            raise InvalidLeavesError(f"{where}: {n} leaves in its word graph but {m} values")
        if m and lens.max() > variant.rack_size:
            raise InvalidLeavesError(f"{where}: a leave of {int(lens.max())} tiles; the {variant.name} rack holds "
                                     f"{variant.rack_size}")
        if m and tiles.max() > len(variant.alphabet):
            raise InvalidLeavesError(f"{where}: tile {int(tiles.max())} is not a tile of {variant.name} (0 = blank, "
                                     f"1..{len(variant.alphabet)} = {variant.alphabet})")
        max_size = int(lens.max()) if m else variant.rack_size - 1
        max_size = max(max_size, variant.rack_size - 1)
        out = cls(variant, max_size=max_size, name=name if name is not None else Path(str(source)).stem
                  if not isinstance(source, (bytes, bytearray, memoryview)) else "")
        ranks = np.zeros(m, np.int64)
        _leaves.rank_sequences(tiles, lens, out._caps, out._G, out._P, np.int64(out.max_size), ranks)
        bad = np.nonzero(ranks < 0)[0]
        if len(bad):
            i = int(bad[0])
            s = "".join(out.tiles[k] for k in tiles[i, :lens[i]])
            raise InvalidLeavesError(f"{where}: leave #{i} {s!r} holds more of a tile than the {variant.name} bag")
        out._milli[ranks] = np.round(values.astype(np.float64) * 1000).astype(np.int32)
        return out

    def to_klv2(self, path=None) -> bytes:
        """This table as KLV2 bytes (every leave, values as float32 points); written to ``path`` when given."""
        data = klv.write_klv2(klv.leave_graph(self._caps, self.max_size), self._milli / 1000.0)
        if path is not None:
            try:
                Path(path).write_bytes(data)
            except OSError as e:
                raise InvalidLeavesError(f"cannot write {short(str(path))}: {e}") from None
        return data


_DEFAULT: dict = {}


def default_leaves(variant="scrabble") -> Leaves:
    """The leave table shipped for ``variant`` (:data:`PACKAGED`), or an all-zero table where none is."""
    t = _DEFAULT.get(getattr(variant, "name", None))  # (every best-by-equity call comes here: no lock once made)
    if t is not None:
        return t
    variant = get_variant(variant)
    with _LOCK:
        t = _DEFAULT.get(variant.name)
    if t is None:
        fname = PACKAGED.get(variant.name)
        t = None
        if fname is not None:
            ref = resources.files("numba_words") / "data" / fname
            if ref.is_file():
                t = _shipped(ref.read_bytes(), variant)
        if t is None:
            t = Leaves(variant, name=f"{variant.name} (zero)")
        with _LOCK:
            t = _DEFAULT.setdefault(variant.name, t)
    return t


def _shipped(raw: bytes, variant: Variant) -> Leaves:
    """The shipped KLV2 table ``raw``, its values kept in the lexicon cache (:mod:`..lexicon.cache`): a first
    best-by-equity call then compiles no KLV2 reader (~1 s)."""
    import hashlib

    from ..lexicon import cache

    name = f"{variant.name} (shipped)"
    key = cache.derived_key(hashlib.sha256(raw + variant.name.encode()).hexdigest(), "leaves", Leaves.from_klv2)
    got = cache.load_derived(key)
    if got is not None and len(got) == 2 and got[1].shape == (1,):
        try:
            t = Leaves(variant, max_size=int(got[1][0]), name=name)
        except InvalidLeavesError:
            t = None
        if t is not None and got[0].dtype == np.int32 and got[0].shape == t._milli.shape:
            t._milli[:] = got[0]
            return t
    t = Leaves.from_klv2(raw, variant, name=name)
    cache.save_derived(key, (t._milli, np.array([t.max_size], np.int64)))
    return t


def load_leaves(source=None, variant="scrabble") -> Leaves:
    """A :class:`Leaves` from ``source``: a table (returned as is), a KLV2 path, ``"zero"`` (all 0) or ``None``
    (the shipped table, :func:`default_leaves`)."""
    if isinstance(source, Leaves):
        return source
    if source is None or source == "default":
        return default_leaves(variant)
    if source == "zero":
        return Leaves(variant, name="zero")
    if isinstance(source, (str, os.PathLike, bytes)):
        return Leaves.from_klv2(source, variant)
    raise InvalidLeavesError(f"leaves must be a Leaves table, a KLV2 path, 'zero' or None, got {short(source)}")


# ---------------------------------------------------------------------- equity
def opening_penalties(variant: Variant) -> np.ndarray:
    """``pen[dir, square]`` (millipoints, int64 (2, 15)) for a vowel placed on ``square`` of the start row
    (``dir`` 0) or column (1) on the empty board: :data:`OPENING_PENALTY` per premium step of the squares beside
    it (the rows above and below the start row; the columns beside the start column)."""
    lm, wm = variant.letter_mult(), variant.word_mult()
    c = SIZE // 2
    pen = np.zeros((2, SIZE), np.int64)
    half = OPENING_PENALTY  # MAGPIE adds (-0.7 / 2) * (multiplier - 1) for the word and the letter premium
    for j in range(SIZE):
        for q in (c - 1, c + 1):
            pen[0, j] += half * (wm[q, j] - 1) + half * (lm[q, j] - 1)
            pen[1, j] += half * (wm[j, q] - 1) + half * (lm[j, q] - 1)
    return pen


def variant_arrays(variant: Variant):
    """``(tile_pts int64[K], vowel int64[32], pen int64[2, 15])`` for the equity kernels (cached)."""
    key = "equity"
    arr = variant._arrays.get(key)
    if arr is None:
        tile_pts = np.array([0] + [variant.values.get(ch, 0) for ch in variant.alphabet], np.int64)
        vowel = np.zeros(N_CODES, np.int64)
        for ch in VOWELS.get(variant.name, "AEIOU"):
            if ch in variant.alphabet:
                vowel[variant.alphabet.index(ch)] = 1
        arr = variant._arrays[key] = (tile_pts, vowel, opening_penalties(variant))
    return arr


def rack_kinds(variant: Variant, rack: str) -> np.ndarray:
    """Tiles per kind (0 blank, 1 + letter code) of a rack string (checked by the caller)."""
    kind = variant._arrays.get("kinds")
    if kind is None:
        kind = variant._arrays["kinds"] = {ch: k + 1 for k, ch in enumerate(variant.alphabet)} | {"?": 0}
    c = [0] * (len(variant.alphabet) + 1)
    for ch in rack:
        c[kind[ch]] += 1
    return np.array(c, np.int64)


def _rack_kinds_shared(variant: Variant, rack: str) -> np.ndarray:
    """:func:`rack_kinds` shared between calls with the same rack (racks seen recently): for kernels that only
    read it."""
    seen = variant._arrays.get("rack_kinds")
    if seen is None:
        seen = variant._arrays["rack_kinds"] = {}
    out = seen.get(rack)
    if out is None:
        if len(seen) >= 4096:
            seen.clear()
        out = seen[rack] = rack_kinds(variant, rack)
    return out


def tile_points(variant: Variant, tiles) -> int:
    """Points of tiles (a string or counter of letters, ``?`` worth 0)."""
    return sum(variant.values.get(ch, 0) for ch in tiles if ch != "?")


def _equity_inputs(position, leaves: Leaves):
    """``(tile_pts, vowel, pen, bag, opp_pts)`` of ``position`` for the equity kernels (leaves checked; kept on
    the position until its board or racks change: counting the unseen tiles is most of the Python time)."""
    v = position.variant
    if leaves.variant.name != v.name:
        raise InvalidLeavesError(f"leaves for {leaves.variant.name!r} used in a {v.name!r} position")
    key = (position.board.version, position.rack, position.opp_rack)
    hit = position.__dict__.get("_equity_in")
    if hit is not None and hit[2] is position.board and hit[0] == key:
        return hit[1]
    tile_pts, vowel, pen = variant_arrays(v)
    bag = position.bag_size()
    opp = position.opp_rack if position.opp_rack or bag else "".join(position.unseen().elements())
    out = (tile_pts, vowel, pen, bag, tile_points(v, opp))
    position.__dict__["_equity_in"] = (key, out, position.board)
    return out


def exchange_allowed(position) -> bool:
    """Whether the bag holds a rack's worth of tiles (:meth:`Position.exchanges`), through the inputs the equity
    kernels keep on the position."""
    return _equity_inputs(position, position.leaves)[3] >= position.variant.rack_size


def equity_args(position, leaves: Leaves) -> tuple:
    """The arguments of :func:`._movegen.equity_obj` but the last for ``position``'s rack: ``(rk, tile_pts, milli,
    caps, G, P, R, bag, opp_pts, vowel, pen)`` (kept on the position for its board, racks and table)."""
    key = (position.board.version, position.rack, position.opp_rack)
    hit = position.__dict__.get("_equity_args")
    if hit is not None and hit[0] == key and hit[1] is leaves and hit[2] is position.board:
        return hit[3]
    tile_pts, vowel, pen, bag, opp_pts = _equity_inputs(position, leaves)
    rk = position.__dict__.get("_kinds")  # (counted by the kernel that read the position's CGP)
    rk = rk[1] if rk is not None and rk[0] == position.rack else _rack_kinds_shared(position.variant, position.rack)
    out = (rk, tile_pts, *leaves._kernel_args(), np.int64(bag),
           np.int64(opp_pts), vowel, pen)
    position.__dict__["_equity_args"] = (key, leaves, position.board, out)
    return out


def equity_objective(position, leaves: Leaves) -> tuple:
    """The objective of the pruned best-by-equity search (:func:`._best.best`) for ``position``'s rack:
    the same equity as :func:`play_equities`."""
    return _movegen.equity_obj(*equity_args(position, leaves), bool(position.board.empty))


def play_equities(plays: np.ndarray, position, leaves: Leaves) -> np.ndarray:
    """Static equity (millipoints, int64) of each row of a plays array (:data:`PLAY_DTYPE`) in ``position``."""
    v = position.variant
    tile_pts, vowel, pen, bag, opp_pts = _equity_inputs(position, leaves)
    out = np.zeros(len(plays), np.int64)
    if not len(plays):
        return out
    cols = [np.ascontiguousarray(plays[f]) for f in ("word", "new", "blanks", "length", "row", "col", "dir", "score",
                                                     "tiles")]
    _leaves.plays_equity(*cols, rack_kinds(v, position.rack), tile_pts, *leaves._kernel_args(), np.int64(bag),
                         np.int64(opp_pts), vowel, pen, bool(position.board.empty), out)
    return out


class Exchange:
    """An exchange of ``tiles`` (sorted, ``?`` a blank) keeping ``leave``; ``equity`` = the leave's value."""

    __slots__ = ("tiles", "leave", "equity")
    score = 0

    def __init__(self, tiles: str, leave: str, equity: float):
        self.tiles, self.leave, self.equity = tiles, leave, equity

    @property
    def notation(self) -> str:
        """The exchange written as ``-TILES`` (``-?`` for a blank)."""
        return f"-{self.tiles}"

    def to_record(self) -> dict:
        """The exchange as a dict with the same keys as a play's record (no coordinate or word, score 0)."""
        return {"coord": "", "word": "", "score": 0, "tiles": len(self.tiles), "leave": self.leave,
                "notation": self.notation, "equity": self.equity}

    def __eq__(self, other) -> bool:
        return isinstance(other, Exchange) and (self.tiles, self.leave) == (other.tiles, other.leave)

    def __hash__(self) -> int:
        return hash(("exchange", self.tiles))

    def __str__(self) -> str:
        return f"{self.notation} {self.equity:g}"

    def __repr__(self) -> str:
        return f"<Exchange {self}>"


def exchange_options(position) -> list:
    """Every exchange :meth:`Position.exchanges` allows, as :class:`Exchange`, best equity first (ties in the
    order of ``exchanges()``)."""
    if not position.rack or not exchange_allowed(position):
        return []
    keys, cnt, grid, vals = _exchange_values(position)
    out = [_exchange(keys, cnt, grid[:, j], vals[j]) for j in range(1, len(vals))]
    out.sort(key=lambda e: -round(e.equity * 1000))
    return out


def best_exchange(position):
    """The first of :func:`exchange_options` (``None`` when exchanging is not allowed), without making the
    others."""
    if not position.rack or not exchange_allowed(position):
        return None
    keys, cnt, grid, vals = _exchange_values(position)
    j = 1 + int(np.argmax(vals[1:]))  # (the first of the highest: ties in the order of exchanges())
    return _exchange(keys, cnt, grid[:, j], vals[j])


def _exchange_values(position):
    """``(keys, cnt, grid, millis)``: the rack's distinct tiles in the order of :meth:`Position.exchanges` and
    their counts, the count of each exchanged per column, in that method's order (column 0: none), and the leave's
    value of each column, from the rack's leave map (:func:`._leaves.leave_map`)."""
    v = position.variant
    rack = position.rack
    rk = _rack_kinds_shared(v, rack)
    stride = np.zeros(len(rk), np.int64)
    lmap = np.zeros(256, np.int64)
    _leaves.leave_map(rk, *position.leaves._kernel_args(), stride, lmap)
    keys = sorted(set(rack), key=lambda ch: (ch == "?", ch))
    kind = [0 if ch == "?" else v.alphabet.index(ch) + 1 for ch in keys]
    cnt = np.array([rk[k] for k in kind], np.int64)
    grid = np.indices(tuple(cnt + 1)).reshape(len(keys), -1)  # exchanged counts, the last key fastest
    idx = ((cnt[:, None] - grid) * stride[kind][:, None]).sum(axis=0)
    return keys, cnt, grid, lmap[idx]


def _exchange(keys, cnt, counts, milli) -> "Exchange":
    """The exchange of ``counts[i]`` of each ``keys[i]`` from a rack holding ``cnt[i]`` of it (``keys`` sorted,
    ``?`` last: the leave written as racks are)."""
    tiles = "".join(k * int(n) for k, n in zip(keys, counts))
    leave = "".join(k * int(c - n) for k, c, n in zip(keys, cnt, counts))
    return Exchange(tiles, leave, float(milli) / 1000)


def best_move(position, by: str = "equity"):
    """See :meth:`Position.best_move`: the best play or exchange, or ``None``."""
    from .plays import _check_by

    if _check_by(by) == "score":
        best = position.best()
        return best_exchange(position) if best is None else best
    if not exchange_allowed(position):
        return position.best("equity")
    # the best exchange's equity is the search's floor: a play reaching it beats it (ties go to the play), and
    # none reaching it makes the exchange the move
    best = position._best("equity", exchange_floor=True)
    return best_exchange(position) if best is None else best
