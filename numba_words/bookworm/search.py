"""The search wrapper: validate input, turn it into arrays, call the kernels, wrap the results.

``solve(board)`` solves one board (``prange`` over start tiles when asked), ``solve_many(boards)`` a batch
(``prange`` over boards, or chunks over a Dask cluster with ``client=``), ``boggle_scores(boards)`` the
score-only batch. Every word comes back once, with the best-scoring path for it. Words are lower case
(``q`` tiles spell ``qu``).
"""
from __future__ import annotations

import threading
import weakref

import numba
import numpy as np

from .. import _jit
from ..lexicon import Lexicon
from . import _search as K
from ._tables import (BOGGLE4, BOOKWORM, BOOKWORM_DELUXE, BOOKWORM_FREQUENCIES, HOLE, KINDS, QU, Grid, Scoring,
                      as_lexicon, boggle_points, code_tables, parse_kinds, parse_text, tables)
from .errors import InvalidBoardError, InvalidParameterError
from .solution import BatchSolution, Solution


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


# ---------------------------------------------------------------------------------------------- solving
def default_cap(grid: Grid) -> int:
    return 1024 if grid.n_tiles > 25 else 512


def _tile_arrays(codes, kinds, lbit, lval, kbonus):
    c = codes.astype(np.int64)
    return c, lbit[c], lval[c], kbonus[kinds.astype(np.int64)]


def solve_codes(codes, kinds=None, lexicon=None, *, grid: Grid = BOOKWORM, min_len=3, max_len=12, level=1,
                scoring: Scoring = BOOKWORM_DELUXE, parallel=False, threads=None) -> Solution:
    """Solve one board given as tile codes (see :func:`._tables.tile_code`) and kind indices."""
    lex = as_lexicon(lexicon)
    min_len, max_len = _check_lengths(min_len, max_len, lex, grid)
    codes = check_codes(codes, grid, lex)
    kinds = np.zeros(grid.n_tiles, dtype=np.uint8) if kinds is None else parse_kinds(kinds, grid.n_tiles)
    t = tables(lex)
    pk, acc2, lay, q, u = t.pk, t.acc2, t.lay, t.q, t.u
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
    """Every word on one board: ``board`` is a :class:`~numba_words.bookworm.Position`, board text (Bookworm
    ``"col0 ... col6"`` bottom to top; Boggle rows), or an array of tile codes.

    ``parallel=True`` spreads the start tiles over threads (``threads`` of them; default all).
    """
    lex = as_lexicon(lexicon)
    kinds = None
    if hasattr(board, "codes") and hasattr(board, "grid"):  # a Position (not imported here: it imports us)
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
    lex = as_lexicon(lexicon)
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
    t = tables(lex)
    pk, acc2, lay, q, u = t.pk, t.acc2, t.lay, t.q, t.u
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
    ``points(L)`` (default :func:`boggle_points`: 3-4 letters 1, 5 -> 2, 6 -> 3, 7 -> 5, 8+ -> 11).
    No paths or word lists are built: this is the measure the C++ Boggle solvers report.
    """
    lex = as_lexicon(lexicon)
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
    t = tables(lex)
    pk, acc2, lay, q, u = t.pk, t.acc2, t.lay, t.q, t.u
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
    lex = as_lexicon(lexicon)
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
    lex = as_lexicon(lexicon)
    for grid in (BOOKWORM, BOGGLE4):
        codes = random_codes(3, grid=grid, lexicon=lex, seed=0)
        solve_codes(codes[0], lexicon=lex, grid=grid)
        solve_codes(codes[0], lexicon=lex, grid=grid, parallel=True)
        solve_many(codes, lex, grid=grid)
        solve_many(codes, lex, grid=grid, threads=1)
    codes = random_codes(3, grid=BOGGLE4, lexicon=lex, seed=0)
    boggle_scores(codes, lex)
    boggle_scores(codes, lex, threads=1)
