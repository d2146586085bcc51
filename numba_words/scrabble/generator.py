"""Python side of the move generator: board arrays, cross-checks, the kernels' calls, the plays array.

:class:`Board` keeps the letters (``uint8``, 255 = empty) and blank flags of a 15x15 board together with the
arrays the kernels read, in *orientation* form (index 0 = rows, 1 = columns, i.e. the transposed board):
letters, tile values, 15-bit line occupancies, cross-check masks and cross-word scores. Cross-checks are
updated incrementally when tiles are placed.
"""
from __future__ import annotations

import numpy as np

from . import _cross, _movegen
from ._tables import bingo_for, reach_for, span_table
from .variants import Variant

SIZE = 15
EMPTY = 255
COLS = "ABCDEFGHIJKLMNO"

PLAY_DTYPE = np.dtype([
    ("row", "i1"), ("col", "i1"), ("dir", "i1"), ("length", "i1"), ("score", "i4"), ("tiles", "i1"),
    ("word", "u1", (SIZE,)), ("blanks", "u2"), ("new", "u2"),
])
"""One play: start square, direction (0 across, 1 down), word length and letter codes, bit masks of the
word's letters that are blanks / newly placed tiles, score, number of tiles placed."""

_DEFAULT_CAP = 4096


class Board:
    """A 15x15 board with the derived arrays the generator reads. Mutated only through :meth:`place`."""

    def __init__(self, variant: Variant, dawg: np.ndarray, letters=None, blanks=None):
        self.variant = variant
        self.dawg = dawg
        self.letters = np.full((SIZE, SIZE), EMPTY, np.uint8) if letters is None else letters.astype(np.uint8)
        self.blanks = np.zeros((SIZE, SIZE), bool) if blanks is None else blanks.astype(bool)
        self.values = variant.value_array()
        self.full = np.int64((1 << len(variant.alphabet)) - 1)
        lm, wm = variant.letter_mult(), variant.word_mult()
        self.lm = np.ascontiguousarray(np.stack([lm, lm.T]))
        self.wm = np.ascontiguousarray(np.stack([wm, wm.T]))
        self._derive()

    def copy(self) -> "Board":
        b = object.__new__(Board)
        b.__dict__.update(self.__dict__)
        for k in ("letters", "blanks", "lines", "fv", "occ", "cc", "xs"):
            setattr(b, k, getattr(self, k).copy())
        return b

    def _derive(self):
        L = self.letters
        self.lines = np.ascontiguousarray(np.stack([L, L.T]))
        fv = np.where(L == EMPTY, 0, self.values[np.minimum(L, 31)]).astype(np.int64)
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

    def place(self, rows, cols, codes, blank_flags):
        """Put tiles on empty squares and update every derived array incrementally."""
        rows = np.asarray(rows, np.int64)
        cols = np.asarray(cols, np.int64)
        for r, c, x, b in zip(rows, cols, codes, blank_flags):
            self.letters[r, c] = x
            self.blanks[r, c] = b
            self.lines[0, r, c] = self.lines[1, c, r] = x
            v = 0 if b else int(self.values[x])
            self.fv[0, r, c] = self.fv[1, c, r] = v
            self.occ[0, r] |= 1 << int(c)
            self.occ[1, c] |= 1 << int(r)
        _cross.update_checks(self.lines, self.fv, self.dawg, self.full, self.cc, self.xs, rows, cols)

    def args(self):
        return (self.lines, self.fv, self.occ, self.cc, self.xs, self.lm, self.wm, self.values)


def rack_arrays(codes, n_blanks):
    counts = np.zeros(32, np.int64)
    for c in codes:
        counts[c] += 1
    return counts, np.int64(n_blanks)


def generate(board: Board, counts, n_blanks, *, best_only=False, cap=None) -> np.ndarray:
    """All plays (structured :data:`PLAY_DTYPE` array, generation order) or the single best one.

    One position runs serially: a parallel loop over its 30 lines was measured 7-14x slower here (buffers,
    packing and thread wake-up on a ~200 us job); parallelism is over positions (:func:`generate_batch`)."""
    v = board.variant
    span = span_table()
    cap = 1 if best_only else (cap or _DEFAULT_CAP)
    while True:
        meta = np.empty((cap, 6), np.int32)
        words = np.zeros((cap, SIZE), np.uint8)  # letters past a word's length stay 0
        bm = np.empty(cap, np.uint16)
        nm = np.empty(cap, np.uint16)
        if best_only:
            n = _movegen.best(*board.args(), counts, np.int64(n_blanks), np.int64(v.rack_size), np.int64(v.bingo),
                              board.dawg, span, board.empty, meta, words, bm, nm, reach_for(board.dawg),
                              bingo_for(board.dawg))
        else:
            n = _movegen.generate(*board.args(), counts, np.int64(n_blanks), np.int64(v.rack_size),
                                  np.int64(v.bingo), board.dawg, span, board.empty, meta, words, bm, nm, False,
                                  reach_for(board.dawg))
        if best_only:
            return _pack(meta, words, bm, nm, min(n, 1))
        if n <= cap:
            return _pack(meta, words, bm, nm, n)
        cap = n


def _pack(meta, words, bm, nm, n) -> np.ndarray:
    out = np.empty(n, PLAY_DTYPE)
    out["row"] = meta[:n, 0]
    out["col"] = meta[:n, 1]
    out["dir"] = meta[:n, 2]
    out["length"] = meta[:n, 3]
    out["score"] = meta[:n, 4]
    out["tiles"] = meta[:n, 5]
    out["word"] = words[:n]
    out["blanks"] = bm[:n]
    out["new"] = nm[:n]
    return out


def generate_batch(boards, racks, *, cap=_DEFAULT_CAP, threads=None) -> list:
    """Plays for many ``(board, (counts, n_blanks))`` positions at once, in parallel over positions."""
    from .._jit import threads as _threads

    P = len(boards)
    if P == 0:
        return []
    v = boards[0].variant
    dawg = boards[0].dawg
    for b in boards:
        if b.variant is not v or b.dawg is not dawg:
            raise ValueError("generate_batch: all boards must share one variant and lexicon")
    lines = np.stack([b.lines for b in boards])
    fv = np.stack([b.fv for b in boards])
    occ = np.stack([b.occ for b in boards])
    cc = np.stack([b.cc for b in boards])
    xs = np.stack([b.xs for b in boards])
    counts = np.stack([r[0] for r in racks])
    nblank = np.array([r[1] for r in racks], np.int64)
    empty = np.array([b.empty for b in boards])
    meta = np.zeros((P, cap, 6), np.int32)
    words = np.zeros((P, cap, SIZE), np.uint8)
    bm = np.zeros((P, cap), np.uint16)
    nm = np.zeros((P, cap), np.uint16)
    nout = np.zeros(P, np.int64)
    with _threads(threads):
        _movegen.generate_batch(lines, fv, occ, cc, xs, boards[0].lm, boards[0].wm, boards[0].values, counts,
                                nblank, np.int64(v.rack_size), np.int64(v.bingo), dawg, span_table(), empty,
                                meta, words, bm, nm, nout, False, reach_for(dawg))
    out = []
    for p in range(P):
        n = int(nout[p])
        if n > cap:  # rare: redo this one alone with room for all
            out.append(generate(boards[p], counts[p], nblank[p], cap=n))
        else:
            out.append(_pack(meta[p], words[p], bm[p], nm[p], n))
    return out


def order_by_score(plays: np.ndarray) -> np.ndarray:
    """Indices sorting plays by score (high first), ties in generation order (deterministic)."""
    return np.argsort(-plays["score"].astype(np.int64), kind="stable")


def warmup() -> None:
    """Compile (or load from the cache) every kernel the engine uses, and build the span table."""
    from ..lexicon import Lexicon
    from .variants import SCRABBLE

    lex = Lexicon.from_words(["AB", "BA", "ABA"], alphabet="AB")
    v = SCRABBLE
    b = Board(v, lex.dawg)
    counts, nb = rack_arrays([0, 1, 0], 1)
    plays = generate(b, counts, nb)
    generate(b, counts, nb, best_only=True)
    p = plays[0]
    b.place([7, 7], [7, 8], [0, 1], [False, False])
    generate_batch([b, b], [(counts, nb), (counts, nb)], cap=8)
    del p
