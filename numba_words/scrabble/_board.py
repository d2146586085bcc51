"""The arrays the kernels read for one board, and the calls that turn them into plays arrays.

:class:`BoardArrays` keeps the letters (``uint8``, :data:`EMPTY` = empty) and blank flags of a 15x15 board
together with the arrays the kernels read, in *orientation* form (index 0 = rows, 1 = columns, i.e. the
transposed board): letters, tile values, 15-bit line occupancies, cross-check masks and cross-word scores.
Cross-checks are updated incrementally when tiles are placed. It knows its :class:`Variant` and
:class:`~numba_words.lexicon.Lexicon` (whose per-lexicon tables the generator reads).

The functions here trust their arguments (the :class:`Position` and :mod:`.search` validate them first).
"""
from __future__ import annotations

import numpy as np

import threading
from concurrent.futures import ThreadPoolExecutor

import numba

from .._background import BackgroundCompile
from .._jit import ThreadsError, compiled_entry
from ..lexicon import Lexicon
from . import _best, _cross, _movegen, _parse
from ._tables import EMPTY, N_CODES, SIZE, reach_for, span_table, sub_for, wtabs_for
from .errors import InvalidBoardError, ScrabbleError, short
from .plays import PLAY_DTYPE
from .variants import Variant

DEFAULT_CAP = _movegen.START_CAP
"""Rows allocated first for all plays by an explicit buffer size's default (doubled when they fill up)."""
SCRATCH_CAP = 8 * DEFAULT_CAP
"""Rows of a thread's first all-plays buffer (:func:`plays_array`): enough for nearly every position (TWL06
mid-games: up to ~7 k plays with one blank, ~28 k with two), so few are asked again from the start that filled
the rows (two-blank racks took 1.05-1.09x the time from 4 k rows, a fresh buffer a call)."""
_SCRATCH = threading.local()  # per thread: ``buf``, the all-plays rows (:func:`plays_array`)

# the kernels write rows in PLAY_DTYPE's byte layout (see _movegen.REC)
_LAYOUT = {"row": 0, "col": 1, "dir": 2, "length": 3, "score": 4, "tiles": 8, "word": 9, "blanks": 24, "new": 26}
if PLAY_DTYPE.itemsize != _movegen.REC or any(PLAY_DTYPE.fields[k][1] != v for k, v in _LAYOUT.items()):
    raise ImportError("plays.PLAY_DTYPE no longer has the byte layout the scrabble kernels write (_movegen.REC)")


class _ReadOnly:
    """A public read-only view of the private writable array ``private`` (made on first use, kept while that
    array is the same object): users read the board's arrays, only :class:`BoardArrays` writes them."""

    __slots__ = ("private", "cache")

    def __init__(self, private: str):
        self.private, self.cache = private, "_ro" + private

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        a = getattr(obj, self.private)
        hit = obj.__dict__.get(self.cache)
        if hit is None or hit[0] is not a:
            v = a.view()
            v.flags.writeable = False
            hit = obj.__dict__[self.cache] = (a, v)
        return hit[1]

    def __set__(self, obj, value):
        raise AttributeError(f"{self.private[1:]} is read-only: change a board through place()")


class BoardArrays:
    """A 15x15 board with the derived arrays the generator reads. Mutated only through :meth:`place`.

    ``letters``/``blanks``: (15, 15) ``uint8`` letter codes (255 empty) and ``bool`` blank flags. These and the
    derived arrays (``lines``, ``fv``, ``occ``, ``cc``, ``xs``, ``values``, ``lm``, ``wm``) are read-only views:
    the kernels index with them, so only :meth:`place` changes them (through the private writable arrays).
    """

    letters = _ReadOnly("_letters")
    blanks = _ReadOnly("_blanks")
    lines = _ReadOnly("_lines")
    fv = _ReadOnly("_fv")
    occ = _ReadOnly("_occ")
    cc = _ReadOnly("_cc")
    xs = _ReadOnly("_xs")
    values = _ReadOnly("_values")
    lm = _ReadOnly("_lm")
    wm = _ReadOnly("_wm")

    def __init__(self, variant: Variant, lexicon: Lexicon, letters=None, blanks=None):
        if not isinstance(variant, Variant):
            raise ScrabbleError(f"variant must be a Variant, got {short(variant)}")
        if not isinstance(lexicon, Lexicon):
            raise ScrabbleError(f"lexicon must be a Lexicon, got {short(lexicon)}")
        if lexicon.alphabet.letters != variant.alphabet:
            raise ScrabbleError(f"lexicon alphabet {lexicon.alphabet.letters!r} differs from variant "
                                f"{variant.name!r}'s alphabet {variant.alphabet!r}")
        self.variant = variant
        self.lexicon = lexicon
        self.dawg = lexicon.dawg
        n = len(lexicon.alphabet)
        self._letters = np.full((SIZE, SIZE), EMPTY, np.uint8) if letters is None else _grid(letters, "letters")
        self._blanks = np.zeros((SIZE, SIZE), bool) if blanks is None else _grid(blanks, "blanks").astype(bool)
        bad = (self._letters != EMPTY) & (self._letters >= n)
        if bad.any():
            r, c = np.argwhere(bad)[0]
            raise InvalidBoardError(f"letters[{r}, {c}] = {int(self._letters[r, c])}: not a letter code of "
                                    f"{lexicon.alphabet.letters!r} (0..{n - 1}) or {EMPTY} (empty)")
        self._blanks &= self._letters != EMPTY
        self._shared()
        self.version = 0
        self._derive()

    def _shared(self):
        """The arrays every board of its variant and lexicon reads and none writes (made once, see :func:`_tables`)."""
        t = _tables_for(self.variant, self.lexicon)
        self._values, self.full, self.checks, self._lm, self._wm = t.values, t.full, t.checks, t.lm, t.wm
        self._tab = t

    @classmethod
    def from_cgp_board(cls, variant: Variant, lexicon: Lexicon, text: str, racks: str = "", bag=None,
                       n_own: int = 0):
        """``(board, tile_use, (counts, unseen, info, kinds))`` from a CGP board field (15 rows separated by ``/``) in
        one kernel call, or ``None`` when the text is not plain ASCII or is malformed, or the board's tiles and the
        ``racks`` (the letters of both racks, checked: upper case and ``?``; the first ``n_own`` the rack on
        turn's) are more than the ``bag`` holds (by letter code, the blanks last; ``None``: not checked): the
        caller's Python then names the fault. ``counts``, ``unseen`` and ``info``: the rack on turn's letter counts,
        the unseen tiles, the bag size and the opponent's points (see :func:`._parse.read_board`; with a ``bag``);
        ``kinds``: the rack on turn by kind (:func:`.leaves.rack_kinds`).
        ``variant`` and ``lexicon`` are trusted (checked by the caller)."""
        if not text.isascii() or not racks.isascii():
            return None
        t = _tables_for(variant, lexicon)
        b = cls._bare(t)
        # one allocation for the (2, 15, 15) arrays' cleared contents, copied (cheaper than five np.full/zeros)
        b._letters = t.clear_letters.copy()
        b._blanks = np.zeros((SIZE, SIZE), bool)
        b._lines = t.clear_lines.copy()
        # fv, cc, xs, occ and the tile counts: C-contiguous views of one cleared allocation
        sq = 2 * SIZE * SIZE
        nu = t.n_letters + 1
        z = np.zeros(3 * sq + 2 * SIZE + 2 * nu + 1 + N_CODES + 2, np.int64)
        b._fv = z[:sq].reshape(2, SIZE, SIZE)
        b._cc = z[sq:2 * sq].reshape(2, SIZE, SIZE)
        b._xs = z[2 * sq:3 * sq].reshape(2, SIZE, SIZE)
        b._occ = z[3 * sq:3 * sq + 2 * SIZE].reshape(2, SIZE)
        k = 3 * sq + 2 * SIZE
        use = z[k:k + nu]
        unseen = z[k + nu:k + 2 * nu]
        kb = k + 2 * nu  # (the rack's blanks, then its letters: the rack by kind, see .leaves.rack_kinds)
        z[kb] = racks.count("?", 0, n_own)
        counts = z[kb + 1:kb + 1 + N_CODES]
        info = z[kb + 1 + N_CODES:]
        a = (np.frombuffer(text.encode(), np.uint8), t.char_table, b._values, b._letters, b._blanks, b._lines, b._fv,
             b._occ, use, np.frombuffer(racks.encode(), np.uint8), t.no_bag if bag is None else bag, n_own, counts,
             unseen, info)
        read = t.entries.get("read_board")  # (the compiled code, typed once per tables: see _kernel_entry)
        n = _kernel_entry(t, "read_board", _parse.read_board, a) if read is None else read(*a)
        if n < 0:
            return None
        b._empty = n == 0
        b.version = 0
        b._use = (0, use)
        a = (b._lines, b._fv, b.dawg, b.checks, b._cc, b._xs)
        checks = t.entries.get("all_checks")
        if checks is None:
            _kernel_entry(t, "all_checks", _cross.all_checks, a)
        else:
            checks(*a)
        return b, use, (counts, unseen, info, z[kb:kb + nu])

    @classmethod
    def _bare(cls, t: _Tables) -> "BoardArrays":
        """A board of the tables ``t`` without its own arrays yet (for the CGP readers, which fill them in)."""
        b = object.__new__(cls)
        b.variant, b.lexicon = t.key
        b.dawg = b.lexicon.dawg
        b._values, b.full, b.checks, b._lm, b._wm, b._tab = t.values, t.full, t.checks, t.lm, t.wm, t
        return b

    def copy(self) -> "BoardArrays":
        """An independent copy of the board's arrays."""
        b = object.__new__(BoardArrays)
        b.__dict__.update(self.__dict__)
        b.__dict__.pop("_kargs", None)
        for k in ("_letters", "_blanks", "_lines", "_fv", "_occ", "_cc", "_xs"):
            setattr(b, k, getattr(self, k).copy())
        return b

    def _derive(self):
        L = self._letters
        self._lines = np.ascontiguousarray(np.stack([L, L.T]))
        fv = np.where(L == EMPTY, 0, self._values[np.minimum(L, N_CODES - 1)]).astype(np.int64)
        fv[self._blanks] = 0
        self._fv = np.ascontiguousarray(np.stack([fv, fv.T]))
        occ = (self._lines != EMPTY).astype(np.int64)
        self._occ = np.ascontiguousarray((occ << np.arange(SIZE, dtype=np.int64)).sum(axis=2))
        self._cc = np.zeros((2, SIZE, SIZE), np.int64)
        self._xs = np.zeros((2, SIZE, SIZE), np.int64)
        self._empty = None
        _cross.all_checks(self._lines, self._fv, self.dawg, self.checks, self._cc, self._xs)

    @property
    def empty(self) -> bool:
        """Whether no tile is on the board (kept up to date by :meth:`place`)."""
        e = self.__dict__.get("_empty")
        if e is None:
            e = self._empty = not self._occ[0].any()
        return e

    def n_tiles(self) -> int:
        """The number of tiles on the board."""
        return int((self._letters != EMPTY).sum())

    def tile_use(self) -> np.ndarray:
        """Tiles on the board by letter code, the blanks last (``int64``, one more than the alphabet; kept per
        version, and by a copy, which holds the same tiles; never written)."""
        hit = self.__dict__.get("_use")
        if hit is not None and hit[0] == self.version:
            if hit[1].flags.writeable:  # (the CGP kernel's counts, which the caller keeps using: a view)
                v = hit[1].view()
                v.flags.writeable = False
                self._use = hit = (hit[0], v)
            return hit[1]
        n = len(self.lexicon.alphabet)
        on = self._letters != EMPTY
        bl = self._blanks & on
        use = np.bincount(self._letters[on & ~bl], minlength=n + 1)[: n + 1].astype(np.int64)
        use[n] = int(bl.sum())
        use.flags.writeable = False
        self._use = (self.version, use)
        return use

    def place(self, rows, cols, codes, blank_flags) -> None:
        """Put tiles on empty squares (0-based rows and columns, letter codes, blank flags) and update every
        derived array incrementally. Raises :class:`InvalidBoardError` for a square off the board or taken, a
        code outside the alphabet, or lists of different lengths."""
        rows, cols, codes = (list(x) for x in (rows, cols, codes))
        blank_flags = list(blank_flags)
        if not len(rows) == len(cols) == len(codes) == len(blank_flags):
            raise InvalidBoardError(f"place: rows, cols, codes and blank flags differ in length "
                                    f"({len(rows)}, {len(cols)}, {len(codes)}, {len(blank_flags)})")
        n = len(self.lexicon.alphabet)
        seen = set()
        for r, c, x in zip(rows, cols, codes):
            for what, v, hi in (("row", r, SIZE), ("column", c, SIZE), ("letter code", x, n)):
                if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v < hi:
                    raise InvalidBoardError(f"place: {what} {short(v)} is not a whole number from 0 to {hi - 1}")
            if self._letters[r, c] != EMPTY or (r, c) in seen:
                raise InvalidBoardError(f"place: square ({r}, {c}) is already taken")
            seen.add((r, c))
        rows = np.asarray(rows, np.int64).reshape(-1)
        cols = np.asarray(cols, np.int64).reshape(-1)
        for r, c, x, b in zip(rows, cols, codes, blank_flags):
            self._letters[r, c] = x
            self._blanks[r, c] = bool(b)
            self._lines[0, r, c] = self._lines[1, c, r] = x
            v = 0 if b else int(self._values[x])
            self._fv[0, r, c] = self._fv[1, c, r] = v
            self._occ[0, r] |= 1 << int(c)
            self._occ[1, c] |= 1 << int(r)
        _cross.update_checks(self._lines, self._fv, self.dawg, self.checks, self._cc, self._xs, rows, cols)
        self._empty = None
        self.version += 1

    def args(self):
        """The arrays the generator kernels take, in their order (the writable ones the kernels are compiled for:
        not for the caller to change)."""
        return (self._lines, self._fv, self._occ, self._cc, self._xs, self._lm, self._wm, self._values)

    def __repr__(self) -> str:
        return f"<BoardArrays {self.variant.name} {self.lexicon.name}: {self.n_tiles()} tiles>"


def _grid(a, what: str) -> np.ndarray:
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError) as e:
        raise InvalidBoardError(f"{what}: not an array ({e})") from None
    if arr.shape != (SIZE, SIZE):
        raise InvalidBoardError(f"{what} must have shape ({SIZE}, {SIZE}), got {arr.shape}")
    if (arr.dtype == bool and what == "letters") or (arr.dtype != bool and not np.issubdtype(arr.dtype, np.integer)):
        raise InvalidBoardError(f"{what} must hold {'integers' if what == 'letters' else 'booleans'}, got dtype "
                                f"{arr.dtype}")
    if arr.dtype != bool and (arr.min() < 0 or arr.max() > EMPTY):
        raise InvalidBoardError(f"{what} values must be 0..{EMPTY}, got {arr.min()}..{arr.max()}")
    return arr.astype(np.uint8 if what == "letters" else bool)


def rack_arrays(codes, n_blanks):
    """``(counts, n_blanks)``: the rack as 32 per-letter counts (``int64``) and the number of blanks."""
    counts = np.zeros(N_CODES, np.int64)
    for c in codes:
        counts[c] += 1
    return counts, np.int64(n_blanks)


def as_plays(out, n) -> np.ndarray:
    """The first ``n`` kernel rows as a :data:`PLAY_DTYPE` array (a view, no copy; ``frombuffer`` takes a
    third of the time of slicing and viewing, which counts on a best-play call)."""
    return np.frombuffer(out, PLAY_DTYPE, n)


class _Tables:
    """What the kernels read besides the board, per lexicon and variant: made once (:func:`_tables_for`), shared
    by every board of the pair and never written."""

    __slots__ = ("key", "rack_size", "bingo", "span", "_reach", "_wtabs", "values", "full", "checks", "lm", "wm",
                 "n_letters", "char_table", "clear_letters", "clear_lines", "no_bag", "entries", "rack_chars",
                 "__weakref__")

    def __init__(self, v, lex):
        self.key = (v, lex)
        self.rack_size = np.int64(v.rack_size)
        self.bingo = np.int64(v.bingo)
        self.span = span_table()
        self._reach = self._wtabs = None
        self.values = v.value_array().copy()  # (writable, as the kernels are compiled for; the variant's is not)
        self.full = np.int64((1 << len(v.alphabet)) - 1)
        keys, masks = sub_for(lex)
        # what the cross-checks read (see :mod:`._cross`)
        near = _cross.near_table(lex.dawg, self.full, keys, masks)
        near.flags.writeable = False  # (reachable as Position.board.checks; the kernels only read it)
        self.checks = (self.full, keys, masks, near)
        lm, wm = v.letter_mult(), v.word_mult()
        self.lm = np.ascontiguousarray(np.stack([lm, lm.T]))
        self.wm = np.ascontiguousarray(np.stack([wm, wm.T]))
        self.n_letters = len(lex.alphabet)
        self.char_table = _parse.char_table(lex.alphabet.letters)
        self.clear_letters = np.full((SIZE, SIZE), EMPTY, np.uint8)
        self.clear_lines = np.full((2, SIZE, SIZE), EMPTY, np.uint8)
        self.no_bag = np.full(self.n_letters + 1, 1 << 62, np.int64)  # (a bag no board fills: no bag check)
        self.entries = {}  # kernel name -> its compiled code for the boards' argument types (see _kernel_entry)
        self.rack_chars = frozenset(lex.alphabet.letters) | {"?"}

    @property
    def reach(self):  # (built on first use: a board that is only read or placed on never needs them)
        if self._reach is None:
            self._reach = reach_for(self.key[1])
        return self._reach

    @property
    def wtabs(self):
        if self._wtabs is None:
            self._wtabs = wtabs_for(self.key[1])
        return self._wtabs


_TABLES: dict = {}  # (id(variant), id(lexicon)) -> _Tables (holding both, so the ids stay theirs)
_TABLES_LOCK = threading.Lock()


def _kernel_entry(t: _Tables, name: str, kernel, args):
    """``kernel(*args)``, and its compiled code for these arguments' types kept in ``t.entries[name]`` for the next
    board of the same tables (whose arrays this package makes with the same types: a call then skips Numba's
    typing of each argument)."""
    out = kernel(*args)
    entry = compiled_entry(kernel, args)
    if entry is not kernel:
        t.entries[name] = entry
    return out


def _tables_for(variant: Variant, lexicon: Lexicon) -> _Tables:
    t = _TABLES.get((id(variant), id(lexicon)))
    if t is None or t.key[0] is not variant or t.key[1] is not lexicon:
        with _TABLES_LOCK:
            if len(_TABLES) > 64:  # (lexicons made and dropped by the hundred, as tests do)
                _TABLES.clear()
            t = _TABLES[id(variant), id(lexicon)] = _Tables(variant, lexicon)
    return t


def _tables(board: BoardArrays) -> _Tables:
    t = board.__dict__.get("_tab")
    if t is None or t.key[0] is not board.variant or t.key[1] is not board.lexicon:
        t = board._tab = _tables_for(board.variant, board.lexicon)
    return t


def _kernel_args(board: BoardArrays) -> tuple:
    """``(head, tail)``: the generator's arguments before and after the rack's ``(counts, n_blanks)``, kept on
    the board until it changes (its arrays change in place; ``empty`` does not)."""
    hit = board.__dict__.get("_kargs")
    if hit is not None and hit[0] == board.version and hit[1] is board.__dict__.get("_tab") and \
            hit[2][0][0] is board._lines:
        return hit[2]
    t = _tables(board)
    out = ((board._lines, board._fv, board._occ, board._cc, board._xs, board._lm, board._wm, board._values),
           (t.rack_size, t.bingo, board.dawg, t.span, board.empty, t.reach, t.wtabs))
    board._kargs = (board.version, t, out)
    return out


def plays_array(board: BoardArrays, counts, n_blanks, *, best_only=False, cap=None, equity=None,
                exchange_floor=False) -> np.ndarray:
    """All plays (structured :data:`PLAY_DTYPE` array, generation order) or the single best one: by score, or by
    static equity with ``equity`` = the arguments of :func:`._movegen.equity_obj` (``(rk, tile_pts, milli, caps, G,
    P, R, bag, opp_pts, vowel, pen)``, see :func:`.leaves.equity_args`); with ``exchange_floor``, only a play whose
    objective reaches the best exchange's (none when the best does not).

    One position runs serially: a parallel loop over its 30 lines was measured 7-14x slower here (buffers,
    packing and thread wake-up on a ~200 us job); parallelism is over positions (:func:`batch_arrays`)."""
    head, tail = _kernel_args(board)
    args = (*head, counts, n_blanks, *tail)
    if best_only:  # (the choice of :func:`._best.best`, made here: a kernel calling another compiles it again)
        out = np.empty(_movegen.REC, np.uint8)
        n0 = np.int64(1 if exchange_floor else 0)
        if n_blanks <= 2:
            n, _ = _best.search_rack(*best_args(board, counts, n_blanks, equity), out, n0)
        else:
            o = _SCORE_OBJ if equity is None else _movegen.equity_obj(*equity, board.empty)
            n, _, _ = _movegen.search_best(*args, o, out, np.int64(0), n0, _movegen.NO_TRIE)
        return as_plays(out, n)
    if cap:
        n, out = _all_plays(args, np.empty(cap * _movegen.REC, np.uint8))
        return as_plays(out, n)
    # the rows go to a buffer of the thread's, kept from call to call, and the plays are copied out of it: a
    # fresh buffer a call took 1.1x the time (batches of positions, 1 and 2 threads)
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None:
        buf = np.empty(SCRATCH_CAP * _movegen.REC, np.uint8)
    n, buf = _all_plays(args, buf)
    _SCRATCH.buf = buf
    return as_plays(buf[: n * _movegen.REC].copy(), n)


def _all_plays(args, out) -> tuple:
    """``(n, out)``: every play of the generator's ``args`` (but ``obj, out, t0, n0, tri``) in the first ``n`` rows
    of ``out``, or of a larger buffer that replaced it when it filled up (the rows written kept, the generator
    called again from the start that filled them)."""
    # the kernel called from here, not through a kernel wrapper: a kernel calling another compiles its code again
    n = start = 0
    tri = _movegen.NO_TRIE
    while True:
        n, start, tri = _movegen.search_all(*args, _SCORE_OBJ, out, start, n, tri)
        if start < 0:
            return n, out
        bigger = np.empty(2 * out.shape[0], np.uint8)
        bigger[: n * _movegen.REC] = out[: n * _movegen.REC]
        out = bigger


def best_args(board: BoardArrays, counts, n_blanks, equity=None) -> tuple:
    """:func:`._best.search_rack`'s arguments but ``(out, n0)`` for a rack of at most two blanks: by score, or by
    static equity with ``equity`` (as :func:`plays_array`)."""
    head, (rack_size, bingo, _, span, empty, _, wtabs) = _kernel_args(board)
    return (*head, counts, n_blanks, rack_size, bingo, span, empty, wtabs[0], wtabs[1], wtabs[3],
            *(equity or _NO_EQUITY), equity is not None)


_SCORE_OBJ = _movegen.score_obj.py_func()  # (the kernels never write it)
_NO_EQUITY = (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int32), np.zeros(1, np.int64),
              np.zeros((1, 1, 1), np.int64), np.zeros((1, 1), np.int64), np.int64(0), np.int64(0), np.int64(0),
              np.zeros(1, np.int64), np.zeros((1, 1), np.int64))  # equity_obj's argument types, for a search by score

BEST_SEARCH = BackgroundCompile(_best.search_rack,
                                "from numba_words.scrabble.search import warmup; warmup(parts=('equity', 'best'))")
"""The pruned best-play search on a machine's first run: :meth:`Position.best` ranks every play (the same play)
until this says ``ready()``, while a background process compiles the search (see :mod:`numba_words._background`);
that process first readies what ranking by equity needs (~2 s; the caller's own generation takes longer), so
that a first ``best(by="equity")`` finds it in the caches."""

_POOL: list = []  # the shared thread pool, made on first use
_POOL_LOCK = threading.Lock()


def _thread_pool() -> ThreadPoolExecutor:
    with _POOL_LOCK:
        if not _POOL:
            _POOL.append(ThreadPoolExecutor(numba.config.NUMBA_NUM_THREADS, thread_name_prefix="numba-words-scrabble"))
        return _POOL[0]


def lane_count(threads) -> int:
    """Lanes for ``threads`` (``None``/0: Numba's current thread count), checked like :func:`_jit.threads`."""
    if threads is None or (threads == 0 and not isinstance(threads, bool)):
        return numba.get_num_threads()
    top = numba.config.NUMBA_NUM_THREADS
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= top:
        raise ThreadsError(f"threads must be a whole number from 1 to {top} (this machine's cores), got {threads!r}")
    return int(threads)


def on_lanes(n: int, work, threads=None) -> None:
    """``work(i)`` for ``i`` in ``0..n-1`` on lanes of threads (``threads``, as :func:`lane_count`): each lane takes
    the next ``i``; the calling thread is one of them. ``work`` calls kernels that release the GIL, so the lanes run
    at the same time."""
    lanes = min(lane_count(threads), n)
    nxt = iter(range(n))
    lock = threading.Lock()

    def lane():
        while True:
            with lock:
                i = next(nxt, None)
            if i is None:
                return
            work(i)

    if lanes <= 1:
        lane()
        return
    helpers = [_thread_pool().submit(lane) for _ in range(lanes - 1)]
    try:
        lane()
    finally:
        for h in helpers:
            h.result()


def batch_arrays(boards, counts, nblank, *, cap=None, threads=None) -> list:
    """Plays arrays of many boards (one variant and lexicon) with racks ``counts[p]``/``nblank[p]``, in parallel
    over positions: lanes of threads each take the next position (the kernel releases the GIL)."""
    out = [None] * len(boards)

    def work(p):
        out[p] = plays_array(boards[p], counts[p], nblank[p], cap=cap)

    on_lanes(len(boards), work, threads)
    return out
