"""Python side of the letter-grid search: encode boards, call the kernels, wrap the results.

``solve(board)`` solves one board (``prange`` over start tiles when asked), ``solve_many(boards)`` a batch
(``prange`` over boards). Both return every distinct word with one path for it, the best score over all
paths, and the longest words. Words come back lower case (``q`` tiles spell ``qu``).
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numba
import numpy as np

from .. import _jit
from ..lexicon import Lexicon
from . import _kernels as K
from .errors import InvalidBoardError, InvalidParameterError
from .geometry import BOGGLE4, BOOKWORM, Grid
from .scoring import BOOKWORM_DELUXE, KIND_CHARS, KINDS, Scoring

QU = K.QU
HOLE = K.HOLE
HOLE_CHARS = "._"

_default_lexicon = None
_prepared: "weakref.WeakKeyDictionary[Lexicon, tuple]" = weakref.WeakKeyDictionary()


def default_lexicon() -> Lexicon:
    """TWL06, loaded once."""
    global _default_lexicon
    if _default_lexicon is None:
        _default_lexicon = Lexicon.load("twl06")
    return _default_lexicon


def _lex(lexicon) -> Lexicon:
    if lexicon is None:
        return default_lexicon()
    if isinstance(lexicon, Lexicon):
        return lexicon
    return Lexicon.load(lexicon)


def prepare(lexicon) -> tuple:
    """``(dawg, acc, q, u)`` for a lexicon: ``acc`` is the word-rank table (built once, kept per lexicon);
    ``q``/``u`` the letter indices of Q and U (-1 when the alphabet lacks them: no Qu tiles then)."""
    return _prepared_all(lexicon)[:4]


def packed(lexicon) -> tuple:
    """``(pk, acc2, lay, q, u)``: the DAWG re-laid for the search kernels (:func:`_kernels.pack_dawg`), built
    once per lexicon."""
    return _prepared_all(lexicon)[4:]


def _prepared_all(lexicon) -> tuple:
    lex = _lex(lexicon)
    hit = _prepared.get(lex)
    if hit is None:
        acc = K.word_rank_table(lex.dawg)
        pk, acc2, lay = K.pack_dawg(lex.dawg, acc, len(lex.alphabet.letters))
        letters = lex.alphabet.letters
        q = letters.find("Q")
        u = letters.find("U")
        hit = (lex.dawg, acc, q, u, pk, acc2, lay, q, u)
        _prepared[lex] = hit
    return hit


_scratch = threading.local()


def dedup_scratch(lex: Lexicon, rows: int) -> tuple:
    """``(seen, idx)``: ``rows`` rows of the search kernels' per-board dedup scratch for ``lex`` (a bitset
    over word ranks, all clear, and a rank -> output row table), kept per Python thread and reused: the
    kernels leave ``seen`` clear, and ``idx`` is read only where ``seen`` is set. ``idx`` is 4 bytes a
    word but only the pages of words actually found are ever touched."""
    words = len(lex)
    hit = getattr(_scratch, "arrays", None)
    if hit is None or hit[0]() is not lex or hit[1].shape[0] < rows:
        seen = np.zeros((rows, words // 64 + 1), dtype=np.int64)
        idx = np.empty((rows, words + 1), dtype=np.int32)
        _scratch.arrays = hit = (weakref.ref(lex), seen, idx)
    return hit[1], hit[2]


# ---------------------------------------------------------------------------------------------- encoding
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
    dawg, acc, q, u = prepare(lex)
    letters = lex.alphabet.letters
    lbit = np.zeros(64, dtype=np.int64)
    lval = np.zeros(64, dtype=np.int64)
    for i, ch in enumerate(letters):
        lbit[i] = 1 << i
        lval[i] = scoring.value(ch)
    if q >= 0 and u >= 0:
        lbit[QU] = 1 << q
        lval[QU] = scoring.value("QU")
    kbonus = np.array([scoring.bonus(k) for k in KINDS], dtype=np.int64)
    return lbit, lval, kbonus


def parse_kinds(text, n: int, what: str = "kinds") -> np.ndarray:
    """Kind indices from a string of kind characters (``.gysdf``; spaces ignored) or kind names."""
    if text is None:
        return np.zeros(n, dtype=np.uint8)
    if isinstance(text, str):
        chars = text.replace(" ", "")
        out = []
        for i, ch in enumerate(chars):
            k = KIND_CHARS.find(ch.lower())
            if k < 0:
                raise InvalidBoardError(f"{what} {text!r}: {ch!r} at position {i + 1} is not a tile kind; use "
                                        f"{', '.join(f'{c!r} {k}' for c, k in zip(KIND_CHARS, KINDS))}")
            out.append(k)
    else:
        out = []
        for x in text:
            if isinstance(x, str):
                if x not in KINDS:
                    raise InvalidBoardError(f"unknown tile kind {x!r}; known: {', '.join(KINDS)}")
                out.append(KINDS.index(x))
            else:
                if not 0 <= int(x) < len(KINDS):
                    raise InvalidBoardError(f"tile kind index {x!r} out of range 0..{len(KINDS) - 1}")
                out.append(int(x))
    if len(out) != n:
        raise InvalidBoardError(f"{what} {text!r} gives {len(out)} tiles; the board has {n}")
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


def board_text(codes, grid: Grid, lex: Lexicon) -> str:
    chars = "".join("q" if c == QU else "." if c == HOLE else lex.alphabet.letters[c].lower() for c in codes)
    if grid.kind == "bookworm":
        out, i = [], 0
        for h in grid.shape:
            out.append(chars[i:i + h])
            i += h
        return " ".join(out)
    rows, cols = grid.shape
    return " ".join(chars[r * cols:(r + 1) * cols] for r in range(rows))


def _check_lengths(min_len, max_len, lex: Lexicon, grid: Grid):
    for v, name in ((min_len, "min_len"), (max_len, "max_len")):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise InvalidParameterError(f"{name} must be an integer, got {v!r}")
    if min_len < 1:
        raise InvalidParameterError(f"min_len must be at least 1, got {min_len!r}")
    if max_len < min_len:
        raise InvalidParameterError(f"max_len {max_len!r} is below min_len {min_len!r}")
    limit = 2 * grid.n_tiles
    if max_len > min(limit, 127):
        raise InvalidParameterError(f"max_len {max_len!r} exceeds what a {grid.name} board can spell "
                                    f"({min(limit, 127)} letters)")
    return int(min_len), int(max_len)


def check_codes(codes, grid: Grid, lex: Lexicon, what="board") -> np.ndarray:
    arr = np.asarray(codes)
    if arr.dtype.kind not in "iu":
        raise InvalidBoardError(f"{what} codes must be integers, got dtype {arr.dtype}")
    if arr.shape[-1:] != (grid.n_tiles,):
        raise InvalidBoardError(f"{what} codes have shape {arr.shape}; the {grid.name} grid has {grid.n_tiles} "
                                f"tiles")
    n_letters = len(lex.alphabet)
    bad = (arr < 0) | ((arr >= n_letters) & (arr != QU) & (arr != HOLE))
    if bad.any():
        i = np.argwhere(bad)[0]
        raise InvalidBoardError(f"{what} code {int(arr[tuple(i)])!r} at {tuple(int(x) for x in i)} is not a "
                                f"letter index (< {n_letters}), QU ({QU}) or HOLE ({HOLE})")
    return arr.astype(np.uint8)


# ---------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class Found:
    """One word on a board: the word (lower case), its path (tile indices), and its best score."""

    word: str
    path: tuple
    score: int

    def __len__(self) -> int:
        return len(self.word)


class Solution:
    """Every distinct word on one board with one path each (the best-scoring one), first-found order."""

    def __init__(self, lex: Lexicon, grid: Grid, codes, wid, path, plen, score):
        self.lexicon = lex
        self.grid = grid
        self.codes = codes
        self.wid = wid
        self._path = path
        self.plen = plen
        self.scores = score
        self._words = None

    def __len__(self) -> int:
        return int(self.wid.shape[0])

    @property
    def words(self) -> list:
        """The words, lower case, in first-found order."""
        if self._words is None:
            ws = self.lexicon.words
            self._words = [ws[int(i)].lower() for i in self.wid]
        return self._words

    def path(self, i: int) -> tuple:
        return tuple(int(x) for x in self._path[i, : self.plen[i]])

    def __iter__(self):
        for i, w in enumerate(self.words):
            yield Found(w, self.path(i), int(self.scores[i]))

    def __contains__(self, word) -> bool:
        return isinstance(word, str) and word.lower() in set(self.words)

    def as_dict(self) -> dict:
        """``{word: (path, score)}``."""
        return {f.word: (f.path, f.score) for f in self}

    def top(self, n: int | None = None) -> list:
        """Words by score (highest first), then longer, then alphabetical."""
        items = sorted(self, key=lambda f: (-f.score, -len(f.word), f.word))
        return items if n is None else items[:n]

    def best(self) -> Found | None:
        """The best-scoring word with its best path (ties: longer, then alphabetical); None if no words."""
        t = self.top(1)
        return t[0] if t else None

    def longest(self) -> list:
        """The longest word(s) in letters, alphabetical."""
        if not len(self):
            return []
        lens = np.diff(self.lexicon.offsets)[self.wid]
        m = lens.max()
        return sorted(self.words[i] for i in np.flatnonzero(lens == m))

    def __repr__(self) -> str:
        b = self.best()
        return f"<Solution {len(self)} words, best {b.word!r} {b.score}>" if b else "<Solution 0 words>"


class BatchSolution:
    """Results of :func:`solve_many` as flat arrays: board ``b`` owns rows ``offsets[b]:offsets[b+1]``."""

    def __init__(self, lex, grid, codes, offsets, wid, path, plen, score):
        self.lexicon = lex
        self.grid = grid
        self.codes = codes
        self.offsets = offsets
        self.wid = wid
        self.path = path
        self.plen = plen
        self.scores = score

    def __len__(self) -> int:
        return self.offsets.shape[0] - 1

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.offsets)

    @property
    def total_words(self) -> int:
        return int(self.offsets[-1])

    def __getitem__(self, b: int) -> Solution:
        if not -len(self) <= b < len(self):
            raise IndexError(f"board {b!r} out of range for {len(self)} boards")
        b %= len(self)
        a, z = self.offsets[b], self.offsets[b + 1]
        return Solution(self.lexicon, self.grid, self.codes[b], self.wid[a:z], self.path[a:z], self.plen[a:z],
                        self.scores[a:z])

    def __iter__(self):
        for b in range(len(self)):
            yield self[b]

    def best_scores(self) -> np.ndarray:
        """Best word score per board (0 for a board with no words)."""
        out = np.zeros(len(self), dtype=np.int64)
        nz = self.counts > 0
        out[nz] = np.maximum.reduceat(self.scores, self.offsets[:-1][nz]) if nz.any() else out[nz]
        return out

    def letters(self) -> np.ndarray:
        """Length in letters of every found word (flat, like ``wid``)."""
        return np.diff(self.lexicon.offsets)[self.wid]


# ---------------------------------------------------------------------------------------------- solving
def default_cap(grid: Grid) -> int:
    return 1024 if grid.n_tiles > 25 else 512


def _tile_arrays(codes, kinds, lbit, lval, kbonus):
    c = codes.astype(np.int64)
    return c, lbit[c], lval[c], kbonus[kinds.astype(np.int64)]


def solve_codes(codes, kinds=None, lexicon=None, *, grid: Grid = BOOKWORM, min_len=3, max_len=12, level=1,
                scoring: Scoring = BOOKWORM_DELUXE, parallel=False, threads=None) -> Solution:
    """Solve one board given as tile codes (see :func:`tile_code`) and kind indices."""
    lex = _lex(lexicon)
    min_len, max_len = _check_lengths(min_len, max_len, lex, grid)
    codes = check_codes(codes, grid, lex)
    kinds = np.zeros(grid.n_tiles, dtype=np.uint8) if kinds is None else parse_kinds(kinds, grid.n_tiles)
    pk, acc2, lay, q, u = packed(lex)
    lbit, lval, kbonus = code_tables(lex, scoring)
    tcode, tbit, tval, tbonus = _tile_arrays(codes, kinds, lbit, lval, kbonus)
    cap = default_cap(grid)
    fn = K.solve_board_parallel if parallel else K.solve_board
    with _jit.threads(threads):
        seen, idx = dedup_scratch(lex, numba.config.NUMBA_NUM_THREADS if parallel else 1)
        while True:
            n, wid, path, plen, score = fn(pk, acc2, lay, grid.masks, tcode, tbit, tval, tbonus, q, u, min_len,
                                           max_len, int(level), scoring.multiplier, cap,
                                           *((seen, idx) if parallel else (seen[0], idx[0])))
            if n >= 0:
                break
            cap *= 4
    return Solution(lex, grid, codes, wid[:n].copy(), path[:n].copy(), plen[:n].copy(), score[:n].copy())


def solve(board, lexicon=None, *, grid: Grid | None = None, min_len=3, max_len=12, level=None,
          scoring: Scoring = BOOKWORM_DELUXE, parallel=False, threads=None) -> Solution:
    """Every word on one board: ``board`` is a :class:`~numba_words.bookworm.Board`, board text (Bookworm
    ``"col0 ... col6"`` bottom to top; Boggle rows), or an array of tile codes.

    ``parallel=True`` spreads the start tiles over threads (``threads`` of them; default all).
    """
    lex = _lex(lexicon)
    kinds = None
    if hasattr(board, "codes") and hasattr(board, "grid"):  # a Board
        grid = board.grid if grid is None else grid
        codes = board.codes(lex)
        kinds = board.kinds
        level = board.level if level is None else level
    elif isinstance(board, str):
        grid = BOOKWORM if grid is None else grid
        codes = parse_text(board, grid, lex)
    else:
        grid = BOOKWORM if grid is None else grid
        codes = board
    level = 1 if level is None else level
    return solve_codes(codes, kinds, lex, grid=grid, min_len=min_len, max_len=max_len, level=level,
                       scoring=scoring, parallel=parallel, threads=threads)


def solve_many(boards, lexicon=None, *, kinds=None, grid: Grid | None = None, min_len=3, max_len=12, level=1,
               scoring: Scoring = BOOKWORM_DELUXE, threads=None, chunk: int = 512, client=None,
               chunk_size: int = 2048) -> BatchSolution:
    """Solve a batch: ``boards`` a 2-D array of tile codes (one board a row) or a list of board texts.

    ``prange`` over boards (``threads=1`` runs the serial kernel). Output order is the input order and each
    board's words are in the same order as :func:`solve` gives. ``client``: a Dask ``Client`` or scheduler
    address to solve chunks of ``chunk_size`` boards across a cluster (same result).
    """
    lex = _lex(lexicon)
    grid = BOOKWORM if grid is None else grid
    if isinstance(boards, (list, tuple)) and boards and isinstance(boards[0], str):
        boards = np.stack([parse_text(b, grid, lex) for b in boards])
    codes = check_codes(boards, grid, lex, "boards")
    if codes.ndim != 2:
        raise InvalidBoardError(f"boards must be a 2-D array (one board a row), got shape {codes.shape}")
    min_len, max_len = _check_lengths(min_len, max_len, lex, grid)
    nb = codes.shape[0]
    if kinds is None:
        kinds = np.zeros(codes.shape, dtype=np.uint8)
    else:
        kinds = np.asarray(kinds)
        if kinds.shape != codes.shape or kinds.dtype.kind not in "iu" or (kinds >= len(KINDS)).any():
            raise InvalidBoardError(f"kinds must be kind indices 0..{len(KINDS) - 1} shaped like boards "
                                    f"{codes.shape}, got shape {kinds.shape}")
        kinds = kinds.astype(np.uint8)
    if client is not None:
        return _solve_many_distributed(codes, kinds, lex, grid, client, chunk_size,
                                       dict(min_len=min_len, max_len=max_len, level=level, scoring=scoring))
    pk, acc2, lay, q, u = packed(lex)
    lbit, lval, kbonus = code_tables(lex, scoring)
    with _jit.threads(threads) as nt:
        lanes = 1 if threads == 1 else nt
        counts, wid, path, plen, score = _run_batch(
            (pk, acc2, lay, grid.masks, codes, kinds, lbit, lval, kbonus, q, u, min_len, max_len, int(level),
             scoring.multiplier), nb, max_len, lanes, max(int(chunk), 1), default_cap(grid), dedup_scratch(lex, lanes))
    offsets = np.zeros(nb + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return BatchSolution(lex, grid, codes, offsets, wid, path, plen, score)


def _solve_chunk(chunk, lex, grid, kw):
    """Worker side of :func:`solve_many` with ``client=``: one chunk of boards and kinds."""
    codes, kinds = chunk
    r = solve_many(codes, lex, kinds=kinds, grid=grid, **kw)
    return r.counts, r.wid, r.path, r.plen, r.scores


def _solve_many_distributed(codes, kinds, lex, grid, client, chunk_size, kw) -> "BatchSolution":
    from .. import distributed as D

    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
        raise InvalidParameterError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    chunks = [(codes[a:a + chunk_size], kinds[a:a + chunk_size]) for a in range(0, codes.shape[0], chunk_size)]
    parts = D.map_chunks(_solve_chunk, chunks, client, broadcast=(lex, grid, kw), name="bookworm")
    counts = np.concatenate([p[0] for p in parts])
    offsets = np.zeros(codes.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    cat = [np.concatenate([p[i] for p in parts]) for i in range(1, 5)]
    return BatchSolution(lex, grid, codes, offsets, *cat)


_MAX_PREALLOC = 1 << 22  # rows reserved up front (~100 MB of address space; pages are touched only as used)


def _run_batch(args, nb, max_len, lanes, chunk, cap, scratch):
    """Solve boards ``0..nb-1`` straight into flat output arrays (no per-board buffers, no compaction pass).

    Rounds of ``chunk`` boards; a round splits its boards into ``lanes`` contiguous ranges solved in parallel
    (``lanes == 1``: the serial kernel), each into its own region of the output sized ``est`` words a board
    (plus one board's worst case); regions are then moved down to close the gaps, in board order. A lane
    that runs out of room stops at a board boundary: the round keeps everything before that board, and the
    next round resumes there with more room (``est`` doubled, or a larger per-board table when one board
    alone has more than ``cap`` words).
    """
    est = cap // 2
    hmask = int(K.hash_bits(cap))
    cap = (hmask + 1) // 2
    counts = np.zeros(nb, dtype=np.int64)
    size = min(max(nb, 1) * est, _MAX_PREALLOC) + lanes * cap
    buf = _alloc(size, max_len)
    used = 0
    b = 0
    while b < nb:
        z = min(nb, b + chunk)
        nl = min(lanes, z - b)
        lane_b = np.linspace(b, z, nl + 1).astype(np.int64)
        room = np.diff(lane_b) * est + cap
        start = used + np.concatenate(([0], np.cumsum(room)[:-1])).astype(np.int64)
        limit = start + room
        if limit[-1] > buf[0].shape[0]:
            buf = _grow(buf, used, max(2 * buf[0].shape[0], int(limit[-1])))
        if nl == 1:
            bn, e = K.run_boards(*args, b, z, used, int(limit[0]), hmask, counts, *buf, scratch[0][0], scratch[1][0])
            lane_next, lane_end = (bn,), (e,)
        else:
            lane_next = np.empty(nl, dtype=np.int64)
            lane_end = np.empty(nl, dtype=np.int64)
            K.run_lanes(*args, lane_b, start, limit, hmask, counts, *buf, *scratch, lane_next, lane_end)
        b = z
        for i in range(nl):
            n = int(lane_end[i] - start[i])
            if start[i] != used and n:
                K.move_down(*buf, int(start[i]), used, n)
            used += n
            if lane_next[i] < lane_b[i + 1]:  # lane i stopped early: resume at its board with more room
                b = int(lane_next[i])
                if lane_end[i] + cap <= limit[i]:
                    hmask = 4 * hmask + 3  # one board has more words than a board may write (per_board)
                    cap = (hmask + 1) // 2
                else:
                    est *= 2
                break
    # views: the unused tail of the reservation was never written, so it costs address space, not memory
    return (counts, *(x[:used] for x in buf))


def _alloc(size, max_len):
    return (np.empty(size, dtype=np.int32), np.empty((size, max_len), dtype=np.int8), np.empty(size, dtype=np.int8),
            np.empty(size, dtype=np.int64))


def _grow(buf, used, size):
    new = _alloc(size, buf[1].shape[1])
    for x, y in zip(new, buf):
        x[:used] = y[:used]
    return new


def boggle_scores(boards, lexicon=None, *, grid: Grid | None = None, min_len=3, max_len=None, points=None,
                  threads=None, chunk: int = 4096) -> np.ndarray:
    """Score-only batch: the total Boggle score of the distinct words on each board (``int64``, one a board).

    ``boards`` as for :func:`solve_many` (default grid :data:`BOGGLE4`). A word of ``L`` letters (Qu counts 2)
    between ``min_len`` and ``max_len`` (default: every length the lexicon and grid allow) scores
    ``points(L)`` (default :func:`scoring.boggle_points`: 3-4 letters 1, 5 -> 2, 6 -> 3, 7 -> 5, 8+ -> 11).
    No paths or word lists are built: this is the measure the C++ Boggle solvers report.
    """
    from .scoring import boggle_points

    lex = _lex(lexicon)
    grid = BOGGLE4 if grid is None else grid
    if isinstance(boards, (list, tuple)) and boards and isinstance(boards[0], str):
        boards = np.stack([parse_text(b, grid, lex) for b in boards])
    codes = check_codes(boards, grid, lex, "boards")
    if codes.ndim != 2:
        raise InvalidBoardError(f"boards must be a 2-D array (one board a row), got shape {codes.shape}")
    if max_len is None:
        max_len = max(int(min_len) if isinstance(min_len, (int, np.integer)) else 1,
                      min(lex.max_len, 2 * grid.n_tiles, 127))
    min_len, max_len = _check_lengths(min_len, max_len, lex, grid)
    pts = boggle_points if points is None else points
    table = np.array([pts(n) if n >= min_len else 0 for n in range(max_len + 1)], dtype=np.int64)
    pk, acc2, lay, q, u = packed(lex)
    lbit = code_tables(lex, BOOKWORM_DELUXE)[0]
    nb = codes.shape[0]
    out = np.zeros(nb, dtype=np.int64)
    words = max(len(lex), 1)
    with _jit.threads(threads) as nt:
        lanes = max(1, min(1 if threads == 1 else nt, nb))
        seen = np.zeros((lanes, words // 64 + 1), dtype=np.int64)
        found = np.empty((lanes, words + 1), dtype=np.int32)
        if lanes == 1:
            K.score_boards(pk, acc2, lay, grid.masks, codes, lbit, q, u, min_len, max_len, table, 0, nb, seen[0],
                           found[0], out)
        else:
            # rounds of ``chunk`` boards split into contiguous lanes: a slow stretch of boards holds up one
            # round, not the whole batch
            step = max(int(chunk), lanes)
            for b in range(0, nb, step):
                z = min(nb, b + step)
                lane_b = np.linspace(b, z, lanes + 1).astype(np.int64)
                K.score_lanes(pk, acc2, lay, grid.masks, codes, lbit, q, u, min_len, max_len, table, lane_b, seen,
                              found, out)
    return out


def random_codes(n: int, *, grid: Grid = BOOKWORM, lexicon=None, seed=None, frequencies=None,
                 qu: bool = True) -> np.ndarray:
    """``n`` random boards as tile codes, letters drawn with Bookworm-like frequencies (Qu tiles included
    when ``qu``)."""
    from .scoring import BOOKWORM_FREQUENCIES

    lex = _lex(lexicon)
    freq = dict(BOOKWORM_FREQUENCIES if frequencies is None else frequencies)
    rng = np.random.default_rng(seed)
    codes, weights = [], []
    for letter, w in freq.items():
        if letter == "QU":
            if not qu or "Q" not in lex.alphabet or "U" not in lex.alphabet:
                continue
            codes.append(QU)
        elif letter in lex.alphabet:
            codes.append(lex.alphabet.index(letter))
        else:
            continue
        weights.append(w)
    p = np.array(weights, dtype=np.float64)
    return np.array(codes, dtype=np.uint8)[rng.choice(len(codes), size=(int(n), grid.n_tiles), p=p / p.sum())]


def warmup(lexicon=None) -> None:
    """Compile (or load from Numba's cache) every kernel the solvers and the CLI use."""
    lex = _lex(lexicon)
    for grid in (BOOKWORM, BOGGLE4):
        codes = random_codes(3, grid=grid, lexicon=lex, seed=0)
        solve_codes(codes[0], lexicon=lex, grid=grid)
        solve_codes(codes[0], lexicon=lex, grid=grid, parallel=True)
        solve_many(codes, lex, grid=grid)
        solve_many(codes, lex, grid=grid, threads=1)
    codes = random_codes(3, grid=BOGGLE4, lexicon=lex, seed=0)
    boggle_scores(codes, lex)
    boggle_scores(codes, lex, threads=1)
