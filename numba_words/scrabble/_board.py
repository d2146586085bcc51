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

from .._jit import threads as _threads
from ..lexicon import Lexicon
from . import _cross, _movegen
from ._tables import EMPTY, N_CODES, SIZE, bingo_for, reach_for, span_table
from .errors import InvalidBoardError, ScrabbleError, short
from .plays import pack_plays
from .variants import Variant

DEFAULT_CAP = 4096
"""Rows allocated for one position's plays before the kernel is asked again with room for all."""


class BoardArrays:
    """A 15x15 board with the derived arrays the generator reads. Mutated only through :meth:`place`.

    ``letters``/``blanks``: (15, 15) ``uint8`` letter codes (255 empty) and ``bool`` blank flags.
    """

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
        self.letters = np.full((SIZE, SIZE), EMPTY, np.uint8) if letters is None else _grid(letters, "letters")
        self.blanks = np.zeros((SIZE, SIZE), bool) if blanks is None else _grid(blanks, "blanks").astype(bool)
        bad = (self.letters != EMPTY) & (self.letters >= n)
        if bad.any():
            r, c = np.argwhere(bad)[0]
            raise InvalidBoardError(f"letters[{r}, {c}] = {int(self.letters[r, c])}: not a letter code of "
                                    f"{lexicon.alphabet.letters!r} (0..{n - 1}) or {EMPTY} (empty)")
        self.blanks &= self.letters != EMPTY
        self.values = variant.value_array()
        self.full = np.int64((1 << len(variant.alphabet)) - 1)
        lm, wm = variant.letter_mult(), variant.word_mult()
        self.lm = np.ascontiguousarray(np.stack([lm, lm.T]))
        self.wm = np.ascontiguousarray(np.stack([wm, wm.T]))
        self.version = 0
        self._derive()

    def copy(self) -> "BoardArrays":
        b = object.__new__(BoardArrays)
        b.__dict__.update(self.__dict__)
        for k in ("letters", "blanks", "lines", "fv", "occ", "cc", "xs"):
            setattr(b, k, getattr(self, k).copy())
        return b

    def _derive(self):
        L = self.letters
        self.lines = np.ascontiguousarray(np.stack([L, L.T]))
        fv = np.where(L == EMPTY, 0, self.values[np.minimum(L, N_CODES - 1)]).astype(np.int64)
        fv[self.blanks] = 0
        self.fv = np.ascontiguousarray(np.stack([fv, fv.T]))
        occ = (self.lines != EMPTY).astype(np.int64)
        self.occ = np.ascontiguousarray((occ << np.arange(SIZE, dtype=np.int64)).sum(axis=2))
        self.cc = np.zeros((2, SIZE, SIZE), np.int64)
        self.xs = np.zeros((2, SIZE, SIZE), np.int64)
        _cross.all_checks(self.lines, self.fv, self.dawg, self.full, self.cc, self.xs)

    @property
    def empty(self) -> bool:
        return not self.occ[0].any()

    def n_tiles(self) -> int:
        return int((self.letters != EMPTY).sum())

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
            if self.letters[r, c] != EMPTY or (r, c) in seen:
                raise InvalidBoardError(f"place: square ({r}, {c}) is already taken")
            seen.add((r, c))
        rows = np.asarray(rows, np.int64).reshape(-1)
        cols = np.asarray(cols, np.int64).reshape(-1)
        for r, c, x, b in zip(rows, cols, codes, blank_flags):
            self.letters[r, c] = x
            self.blanks[r, c] = bool(b)
            self.lines[0, r, c] = self.lines[1, c, r] = x
            v = 0 if b else int(self.values[x])
            self.fv[0, r, c] = self.fv[1, c, r] = v
            self.occ[0, r] |= 1 << int(c)
            self.occ[1, c] |= 1 << int(r)
        _cross.update_checks(self.lines, self.fv, self.dawg, self.full, self.cc, self.xs, rows, cols)
        self.version += 1

    def args(self):
        return (self.lines, self.fv, self.occ, self.cc, self.xs, self.lm, self.wm, self.values)

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


def plays_array(board: BoardArrays, counts, n_blanks, *, best_only=False, cap=None) -> np.ndarray:
    """All plays (structured :data:`PLAY_DTYPE` array, generation order) or the single best one.

    One position runs serially: a parallel loop over its 30 lines was measured 7-14x slower here (buffers,
    packing and thread wake-up on a ~200 us job); parallelism is over positions (:func:`batch_arrays`)."""
    v = board.variant
    lex = board.lexicon
    span = span_table()
    cap = 1 if best_only else (cap or DEFAULT_CAP)
    while True:
        meta = np.empty((cap, 6), np.int32)
        words = np.zeros((cap, SIZE), np.uint8)  # letters past a word's length stay 0
        bm = np.empty(cap, np.uint16)
        nm = np.empty(cap, np.uint16)
        if best_only:
            n = _movegen.best(*board.args(), counts, np.int64(n_blanks), np.int64(v.rack_size), np.int64(v.bingo),
                              board.dawg, span, board.empty, meta, words, bm, nm, reach_for(lex), bingo_for(lex))
            return pack_plays(meta, words, bm, nm, min(n, 1))
        n = _movegen.generate(*board.args(), counts, np.int64(n_blanks), np.int64(v.rack_size),
                              np.int64(v.bingo), board.dawg, span, board.empty, meta, words, bm, nm, reach_for(lex))
        if n <= cap:
            return pack_plays(meta, words, bm, nm, n)
        cap = n


def batch_arrays(boards, counts, nblank, *, cap=DEFAULT_CAP, threads=None) -> list:
    """Plays arrays of many boards (one variant and lexicon) with racks ``counts[p]``/``nblank[p]``, in parallel
    over positions; a position with more than ``cap`` plays is redone alone with room for all."""
    P = len(boards)
    b0 = boards[0]
    v, lex = b0.variant, b0.lexicon
    lines = np.stack([b.lines for b in boards])
    fv = np.stack([b.fv for b in boards])
    occ = np.stack([b.occ for b in boards])
    cc = np.stack([b.cc for b in boards])
    xs = np.stack([b.xs for b in boards])
    empty = np.array([b.empty for b in boards])
    meta = np.zeros((P, cap, 6), np.int32)
    words = np.zeros((P, cap, SIZE), np.uint8)
    bm = np.zeros((P, cap), np.uint16)
    nm = np.zeros((P, cap), np.uint16)
    nout = np.zeros(P, np.int64)
    with _threads(threads):
        _movegen.generate_batch(lines, fv, occ, cc, xs, b0.lm, b0.wm, b0.values, counts, nblank,
                                np.int64(v.rack_size), np.int64(v.bingo), b0.dawg, span_table(), empty,
                                meta, words, bm, nm, nout, reach_for(lex))
    out = []
    for p in range(P):
        n = int(nout[p])
        if n > cap:  # rare: redo this one alone with room for all
            out.append(plays_array(boards[p], counts[p], nblank[p], cap=n))
        else:
            out.append(pack_plays(meta[p], words[p], bm[p], nm[p], n))
    return out

