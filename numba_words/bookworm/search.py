"""The search wrapper: validate input, turn it into arrays, call the kernels, wrap the results.

``solve(board)`` solves one board (its start tiles split over threads when asked), ``solve_many(boards)`` a
batch (boards split over threads, or chunks over a Dask cluster with ``client=``), ``boggle_scores(boards)``
the score-only batch. Every word comes back once, with the best-scoring path for it. Words are lower case
(``q`` tiles spell ``qu``).

Everything a kernel indexes with is checked here first (Numba does not check bounds): tile codes, kinds,
lengths, levels, score tables, grids. The work is bounded too: a search visits at most ``max_nodes`` paths
per board (:data:`DEFAULT_MAX_NODES`), since an adversarial lexicon (say words of one repeated letter) makes
the number of paths grow exponentially with ``max_len``; batches run in rounds, so Ctrl-C lands between
rounds.
"""
from __future__ import annotations

import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from .. import _jit
from ..lexicon import Lexicon
from . import _search as K
from ._tables import (BOGGLE4, BOOKWORM, BOOKWORM_DELUXE, BOOKWORM_FREQUENCIES, GRIDS, HOLE, KINDS, NCOL, QU,
                      BogglePoints, Grid, Scoring, as_lexicon, boggle_points, code_tables, default_scoring,
                      parse_kinds, parse_text, split_layout, tables, tile_code)
from .errors import InvalidBoardError, InvalidParameterError, SearchLimitError
from .solution import BatchSolution, Solution

# Paths one board's search may visit before it stops with SearchLimitError. Real lexicons stay far below
# (TWL06: under 30,000 on 20,000 random Bookworm boards, under 100,000 on boards of only common letters and
# on 5x5 Boggle boards with every word length); an adversarial one (words of one repeated letter on a board
# of that letter) reaches it in about half a second.
DEFAULT_MAX_NODES = 20_000_000
MAX_LEVEL = 10 ** 6
MAX_VALUE = 10 ** 4       # |letter value|, |gem bonus|, multiplier, |Boggle points|: scores stay far from int64
MAX_BOARDS = 10 ** 8      # random_codes


def _short(x, limit: int = 80) -> str:
    r = repr(x)
    return r if len(r) <= limit else r[:limit - 5] + " ...>"


def _int(v, name: str, lo: int | None = None, hi: int | None = None, error=InvalidParameterError) -> int:
    """``v`` as an ``int`` (Python or NumPy integer, not bool) within ``lo..hi``, else ``error``."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise error(f"{name} must be a whole number, got {_short(v)}")
    v = int(v)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        span = f"{lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'}"
        raise error(f"{name} must be in {span}, got {v!r}")
    return v


def _flag(v, name: str) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be True or False, got {_short(v)}")
    return bool(v)


# ---------------------------------------------------------------------------------------------- checks
def check_grid(grid, default: Grid = BOOKWORM) -> Grid:
    """A :class:`Grid`, or the name of a standard one (``bookworm``, ``boggle4``, ``boggle5``)."""
    if grid is None:
        return default
    if isinstance(grid, Grid):
        return grid
    if isinstance(grid, str) and grid.lower() in GRIDS:
        return GRIDS[grid.lower()]
    raise InvalidParameterError(f"grid must be a Grid or one of {', '.join(GRIDS)}, got {_short(grid)}")


def check_lengths(min_len, max_len, grid: Grid) -> tuple:
    """``(min_len, max_len)``: whole numbers, ``1 <= min_len <= max_len <= min(2 * tiles, 127)``."""
    min_len = _int(min_len, "min_len")
    max_len = _int(max_len, "max_len")
    if min_len < 1:
        raise InvalidParameterError(f"min_len must be at least 1, got {min_len!r}")
    if max_len < min_len:
        raise InvalidParameterError(f"max_len {max_len!r} is below min_len {min_len!r}")
    limit = min(2 * grid.n_tiles, 127)
    if max_len > limit:
        raise InvalidParameterError(f"max_len {max_len!r} exceeds what a {grid.name} board can spell "
                                    f"({limit} letters)")
    return min_len, max_len


def check_level(level) -> int:
    return _int(level, "level", 1, MAX_LEVEL)


def check_scoring(scoring, grid: Grid):
    """The scoring to use: ``None`` is the grid's default (:func:`._tables.default_scoring`); a
    :class:`Scoring` or :class:`BogglePoints` is checked (every value bounded, so no score overflows)."""
    if scoring is None:
        return default_scoring(grid)
    if isinstance(scoring, BogglePoints):
        if not isinstance(scoring.points, (tuple, list)) or not scoring.points:
            raise InvalidParameterError(f"BogglePoints.points must be a non-empty sequence, got "
                                        f"{_short(scoring.points)}")
        for n, v in enumerate(scoring.points):
            _int(v, f"Boggle points for {n} letters", -MAX_VALUE, MAX_VALUE)
        return scoring
    if not isinstance(scoring, Scoring):
        raise InvalidParameterError(f"scoring must be a Scoring, BogglePoints or None, got {_short(scoring)}")
    _int(scoring.multiplier, "scoring.multiplier", 1, MAX_VALUE)
    for what, table in (("letter value", scoring.letter_values), ("gem bonus", scoring.gem_bonus)):
        if not isinstance(table, dict):
            raise InvalidParameterError(f"scoring {what}s must be a dict, got {_short(table)}")
        for k, v in table.items():
            _int(v, f"scoring {what} of {k!r}", -MAX_VALUE, MAX_VALUE)
    _int(scoring.default_value, "scoring.default_value", -MAX_VALUE, MAX_VALUE)
    return scoring


def check_max_nodes(max_nodes) -> int:
    """The path budget a board may use: ``max_nodes`` (1 .. 2 ** 63 - 1: the kernels count it down in int64)."""
    return DEFAULT_MAX_NODES if max_nodes is None else _int(max_nodes, "max_nodes", 1, 2 ** 63 - 1)


def _qu_ok(lex: Lexicon) -> bool:
    return "Q" in lex.alphabet and "U" in lex.alphabet


def check_codes(codes, grid: Grid, lex: Lexicon, what: str = "board", ndim: int = 1) -> np.ndarray:
    """Tile codes as a C-contiguous ``uint8`` array of ``ndim`` dimensions, the last one the grid's tiles:
    each a letter index of ``lex``'s alphabet, ``QU`` (when it has Q and U) or ``HOLE``."""
    try:
        arr = np.asarray(codes)
    except (TypeError, ValueError) as e:
        raise InvalidBoardError(f"{what} must be an array of tile codes, got {_short(codes)} ({e})") from None
    if arr.dtype.kind not in "iu":
        raise InvalidBoardError(f"{what} codes must be integers, got dtype {arr.dtype} ({_short(codes)})")
    if arr.ndim != ndim or arr.shape[-1] != grid.n_tiles:
        want = f"({grid.n_tiles},)" if ndim == 1 else f"(boards, {grid.n_tiles})"
        raise InvalidBoardError(f"{what} codes have shape {arr.shape}; the {grid.name} grid has {grid.n_tiles} "
                                f"tiles, so they need shape {want}")
    n_letters = len(lex.alphabet)
    ok = (arr >= 0) & ((arr < n_letters) | (arr == HOLE))
    if _qu_ok(lex):
        ok |= arr == QU
    if not ok.all():
        i = tuple(int(x) for x in np.argwhere(~ok)[0])
        qu = f", QU ({QU})" if _qu_ok(lex) else " (no Qu tile: the alphabet lacks Q or U)"
        raise InvalidBoardError(f"{what} code {int(arr[i])!r} at {i if ndim > 1 else i[0]} is not a letter index "
                                f"(< {n_letters}){qu} or HOLE ({HOLE})")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def check_kinds(kinds, shape: tuple, what: str = "kinds") -> np.ndarray:
    """Tile kinds as a C-contiguous ``uint8`` array of ``shape``, each 0..5 (:data:`KINDS`).

    ``kinds``: ``None`` (all plain), kind text (``.gysdf``, one board), a sequence of kind names or indices
    (one board), a list of kind texts (one a board), or an integer array shaped like the boards."""
    if kinds is None:
        return np.zeros(shape, dtype=np.uint8)
    n = shape[-1]
    if isinstance(kinds, str):
        if len(shape) != 1:
            raise InvalidBoardError(f"{what} for a batch must be one kind text a board or an array shaped "
                                    f"{shape}, got one text {_short(kinds)}")
        return parse_kinds(kinds, n, what)
    if isinstance(kinds, (list, tuple)) and len(shape) == 2 and len(kinds) == shape[0] \
            and all(isinstance(k, str) for k in kinds) and (shape[0] != n or any(len(k) > 1 for k in kinds)):
        out = np.zeros(shape, dtype=np.uint8)
        for b, k in enumerate(kinds):
            out[b] = parse_kinds(k, n, f"{what}[{b}]")
        return out
    if isinstance(kinds, (list, tuple)) and len(shape) == 1:
        return parse_kinds(kinds, n, what)
    try:
        arr = np.asarray(kinds)
    except (TypeError, ValueError) as e:
        raise InvalidBoardError(f"{what} must be kind indices 0..{len(KINDS) - 1}, got {_short(kinds)} ({e})") \
            from None
    if arr.dtype.kind not in "iu":
        raise InvalidBoardError(f"{what} must be integer kind indices 0..{len(KINDS) - 1}, got dtype {arr.dtype}")
    if arr.shape != tuple(shape):
        raise InvalidBoardError(f"{what} have shape {arr.shape}; the boards need {tuple(shape)}")
    bad = (arr < 0) | (arr >= len(KINDS))
    if bad.any():
        i = tuple(int(x) for x in np.argwhere(bad)[0])
        raise InvalidBoardError(f"{what} value {int(arr[i])!r} at {i if len(i) > 1 else i[0]} is not a kind index "
                                f"0..{len(KINDS) - 1} ({', '.join(KINDS)})")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _boards(boards, grid: Grid, lex: Lexicon) -> np.ndarray:
    """A batch as a ``(boards, tiles)`` ``uint8`` array: from board texts or tile codes."""
    if isinstance(boards, str):
        raise InvalidBoardError(f"boards must be a list of board texts or a 2-D array of tile codes, got one "
                                f"text {_short(boards)}")
    if isinstance(boards, (list, tuple)) and boards and isinstance(boards[0], str):
        try:
            joined = "".join(boards)  # (a TypeError when some board is not a text: checked as codes below)
        except TypeError:
            joined = None
        if joined is not None:
            codes = _texts_codes(boards, grid, lex, joined)
            return codes if codes is not None else np.stack([parse_text(b, grid, lex) for b in boards])
    if isinstance(boards, (list, tuple)) and not boards:
        return np.zeros((0, grid.n_tiles), dtype=np.uint8)
    return check_codes(boards, grid, lex, "boards", ndim=2)


_TEXT_TABLES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # lexicon -> its char_codes table


def _char_codes(lex: Lexicon) -> np.ndarray:
    """``uint8[256]``: the tile code each ASCII byte stands for on a board (:func:`tile_code`), 255 for a byte
    that is none (white space included: board texts are split on it first)."""
    table = _TEXT_TABLES.get(lex)
    if table is None:
        table = np.full(256, 255, np.uint8)
        for b in range(128):
            ch = chr(b)
            if ch.isspace():
                continue
            try:
                table[b] = tile_code(ch, lex)
            except InvalidBoardError:
                pass
        _TEXT_TABLES[lex] = table
    return table


def _texts_codes(texts, grid: Grid, lex: Lexicon, joined: str | None = None):
    """Tile codes ``(boards, tiles)`` of board texts in NumPy, no Python per character or board (~8 us a board
    in :func:`parse_text`, ~0.1 us here), when every text has one layout: the letters alone (Boggle grids) or
    :func:`split_layout`'s, one space between rows (columns for Bookworm). ``None`` otherwise, or for any text
    that is not ASCII or holds a character that is no tile: :func:`parse_text` then reads each board (and names
    what is wrong)."""
    n = grid.n_tiles
    width = len(texts[0])
    if joined is None:
        joined = "".join(texts)
    if len(joined) != width * len(texts) or not joined.isascii():
        return None
    raw = np.frombuffer(joined.encode("ascii"), np.uint8).reshape(len(texts), width)
    if width != n or grid.kind == "bookworm":
        layout = np.frombuffer(split_layout("x" * n, grid).encode("ascii"), np.uint8)
        if layout.shape[0] != width:
            return None
        gaps = layout == 32
        if not (raw[:, gaps] == 32).all():
            return None
        raw = raw[:, ~gaps]
    codes = _char_codes(lex).take(raw)  # (take: about half the time of indexing)
    if codes.size and codes.max() == 255:
        return None
    return codes


def _kernel_qu(t) -> tuple:
    """Q and U letter indices for the kernels: 63 (no letter has that bit) when the alphabet lacks either,
    so no shift ever sees a negative count."""
    return (t.q, t.u) if t.q >= 0 and t.u >= 0 else (63, 63)


def _limit_error(b, max_nodes, lex, max_len, grid) -> SearchLimitError:
    return SearchLimitError(
        f"board {b}: the search passed max_nodes={max_nodes:,} paths on the {grid.name} grid; the lexicon "
        f"{lex.name!r} has so many prefixes that the paths spelling them grow exponentially with max_len="
        f"{max_len}. Give a larger max_nodes= (or --max-nodes) or a smaller max_len=")


# ---------------------------------------------------------------------------------------------- lanes
_pool = None
_pool_size = 0
_pool_lock = threading.Lock()


def run_lanes(calls: list) -> list:
    """Run ``calls`` (functions of no argument, each calling a kernel on its own lane: its own boards, output
    region and scratch rows) at the same time, the first on the calling thread and the others on a shared
    pool of threads; results in order. The kernels release the GIL, so lanes run in parallel: the parallel
    form of every batch is the serial kernel dispatched on lanes, with no ``prange`` kernel to compile."""
    if len(calls) == 1:
        return [calls[0]()]
    global _pool, _pool_size
    with _pool_lock:
        if _pool_size < len(calls) - 1:
            _pool_size = max(len(calls) - 1, numba.config.NUMBA_NUM_THREADS)
            _pool = ThreadPoolExecutor(_pool_size, thread_name_prefix="numba-words-bookworm")
        pool = _pool
    futures = [pool.submit(c) for c in calls[1:]]
    try:
        first = calls[0]()
    finally:
        rest = [f.result() for f in futures]  # every lane done before its arrays are reused
    return [first, *rest]


def _lane_bounds(a: int, z: int, lanes: int, speed=None) -> np.ndarray:
    """Boards ``a..z-1`` cut into ``lanes`` contiguous ranges of at least one board each (``z - a >= lanes``):
    equal ranges, or ranges in proportion to ``speed`` (each lane's boards a second, held within a factor of
    two of their mean)."""
    if speed is None or lanes == 1:
        return np.linspace(a, z, lanes + 1).astype(np.int64)
    w = np.clip(speed, speed.mean() / 2, speed.mean() * 2)
    cut = a + np.rint(np.cumsum(w) / w.sum() * (z - a)).astype(np.int64)
    bounds = np.concatenate(([a], cut))
    for k in range(1, lanes):
        bounds[k] = min(max(bounds[k], bounds[k - 1] + 1), z - (lanes - k))
    bounds[lanes] = z
    return bounds


# ---------------------------------------------------------------------------------------------- scratch
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


# ---------------------------------------------------------------------------------------------- solving
def default_cap(grid: Grid) -> int:
    return 1024 if grid.n_tiles > 25 else 512


def _tile_arrays(codes, kinds, lbit, lval, kbonus):
    c = codes.astype(np.int64)
    return c, lbit[c], lval[c], kbonus[kinds.astype(np.int64)]


def solve_codes(codes, kinds=None, lexicon=None, *, grid: Grid = BOOKWORM, min_len=3, max_len=12, level=1,
                scoring=None, parallel=False, threads=None, max_nodes=None) -> Solution:
    """Solve one board given as tile codes (see :func:`._tables.tile_code`) and kinds (see
    :func:`check_kinds`)."""
    lex = as_lexicon(lexicon)
    grid = check_grid(grid)
    min_len, max_len = check_lengths(min_len, max_len, grid)
    level = check_level(level)
    scoring = check_scoring(scoring, grid)
    parallel = _flag(parallel, "parallel")
    budget = check_max_nodes(max_nodes)
    codes = check_codes(codes, grid, lex)
    kinds = check_kinds(kinds, (grid.n_tiles,))
    t = tables(lex)
    q, u = _kernel_qu(t)
    run_scoring = BOOKWORM_DELUXE if isinstance(scoring, BogglePoints) else scoring
    lbit, lval, kbonus = code_tables(lex, run_scoring)
    cap = default_cap(grid)
    with _jit.threads(threads):
        if parallel:
            n, wid, path, plen, score = _solve_tiles(t, q, u, grid, codes, kinds, lbit, lval, kbonus, min_len,
                                                     max_len, level, run_scoring.multiplier, cap, lex, budget)
        else:  # the batch kernel with one board: one compiled search serves solve and solve_many
            seen, idx = dedup_scratch(lex, 1)
            counts = np.zeros(1, dtype=np.int64)
            while True:
                wid, path, plen, score = _alloc(cap, max_len)
                _, n, status = K.run_boards(t.pk, t.acc2, t.lay, grid.masks, codes.reshape(1, -1),
                                            kinds.reshape(1, -1), lbit, lval, kbonus, q, u, min_len, max_len, level,
                                            run_scoring.multiplier, 0, 1, 0, cap, 2 * cap - 1, counts, wid, path, plen,
                                            score, seen[0], idx[0], budget)
                n = -2 if status == -2 else n
                if status != -1:
                    break
                cap *= 4
    if n == -2:
        raise _limit_error(0, budget, lex, max_len, grid)
    wid, score = wid[:n].copy(), score[:n].copy()
    if isinstance(scoring, BogglePoints):
        score = _boggle_scores(scoring, lex, wid, max_len)
    return Solution(lex, grid, codes, wid, path[:n].copy(), plen[:n].copy(), score, scoring, _checked=True)


def _boggle_scores(scoring: BogglePoints, lex: Lexicon, wid: np.ndarray, max_len: int) -> np.ndarray:
    """Boggle points of the words ``wid`` (by their length in letters)."""
    return _word_points(scoring, lex, max_len)[wid].astype(np.int64)


def _word_points(scoring: BogglePoints, lex: Lexicon, max_len: int) -> np.ndarray:
    """Each word's Boggle points (words longer than ``max_len`` as ``max_len``), kept per lexicon and table in the
    smallest type that holds them, so that a batch's gather reads from cache (int8: ~3x faster than int64)."""
    table = scoring.table(max_len)
    small = table.astype(np.result_type(np.min_scalar_type(int(table.min())), np.min_scalar_type(int(table.max()))))
    return lex.derived(f"bookworm.points.{table.tobytes().hex()}",
                       lambda x: small[np.minimum(np.diff(x.offsets), max_len)])


def _solve_tiles(t, q, u, grid, codes, kinds, lbit, lval, kbonus, min_len, max_len, level, mult, cap, lex, budget):
    """One board with its start tiles split into lanes (one a thread), merged in start-tile order."""
    n_tiles = grid.n_tiles
    lanes = max(1, min(numba.get_num_threads(), n_tiles))
    seen, idx = dedup_scratch(lex, lanes)
    tcode, tbit, tval, tbonus = _tile_arrays(codes, kinds, lbit, lval, kbonus)
    nl = np.empty(n_tiles, dtype=np.int64)
    nbl = np.empty((n_tiles, NCOL), dtype=np.uint64)
    K.neighbour_tables(grid.masks, tcode, tbit, nl, nbl)
    share = -(-budget // n_tiles)  # each start tile has its own budget: share the board's out
    bounds = _lane_bounds(0, n_tiles, lanes)
    while True:
        p_wid, p_path, p_plen, p_score = (np.empty((n_tiles, cap), dtype=np.int32),
                                          np.empty((n_tiles, cap, max_len), dtype=np.int8),
                                          np.empty((n_tiles, cap), dtype=np.int8),
                                          np.empty((n_tiles, cap), dtype=np.int64))
        p_n = np.zeros(n_tiles, dtype=np.int64)
        run_lanes([lambda i=i: K.tiles_into(t.pk, t.acc2, t.lay, grid.masks, nl, nbl, tcode, tbit, tval, tbonus, q,
                                            u, min_len, max_len, level, mult, cap, bounds[i], bounds[i + 1], seen[i],
                                            idx[i], share, p_wid, p_path, p_plen, p_score, p_n)
                   for i in range(lanes)])
        out = K.merge_tiles(p_wid, p_path, p_plen, p_score, p_n, cap)
        if out[0] != -1:
            return out
        cap *= 4


def solve(board, lexicon=None, *, kinds=None, grid: Grid | None = None, min_len=3, max_len=12, level=None,
          scoring=None, parallel=False, threads=None, max_nodes=None) -> Solution:
    """Every word on one board: ``board`` is a :class:`~numba_words.bookworm.Position`, board text (Bookworm
    ``"col0 ... col6"`` bottom to top; Boggle rows), or an array of tile codes; ``kinds`` its tile kinds
    (kind text ``.gysdf`` in the board's layout, or kind indices 0..5; default: the position's, or plain).

    ``scoring``: Bookworm Deluxe scores on a Bookworm grid and Boggle points on a Boggle grid by default (or
    a :class:`Scoring` / :class:`BogglePoints`); ``level`` (default 1, or the position's) is added to every
    letter-value sum of a Bookworm score; ``parallel=True`` spreads
    the start tiles over threads (``threads`` of them; default all); ``max_nodes`` bounds the paths visited
    (:data:`DEFAULT_MAX_NODES`; :class:`SearchLimitError` beyond it).
    """
    lex = as_lexicon(lexicon)
    if hasattr(board, "codes") and hasattr(board, "grid") and hasattr(board, "kinds"):
        # a Position (not imported here: it imports this module)
        grid = board.grid if grid is None else check_grid(grid)
        codes = board.codes(lex)
        kinds = getattr(board, "_kinds", board.kinds) if kinds is None else kinds
        level = board.level if level is None else level
    elif isinstance(board, str):
        grid = check_grid(grid)
        codes = parse_text(board, grid, lex)
    else:
        grid = check_grid(grid)
        codes = board
    level = 1 if level is None else level
    return solve_codes(codes, kinds, lex, grid=grid, min_len=min_len, max_len=max_len, level=level,
                       scoring=scoring, parallel=parallel, threads=threads, max_nodes=max_nodes)


def solve_many(boards, lexicon=None, *, kinds=None, grid: Grid | None = None, min_len=3, max_len=12, level=1,
               scoring=None, threads=None, chunk: int = 4096, client=None,
               chunk_size: int = 2048, max_nodes=None) -> BatchSolution:
    """Every word of every board of a batch, each with its best path and score, as flat arrays.

    Boards split into one lane a thread, in rounds of ``chunk`` boards. Output order is the input order and
    each board's words are in the order :func:`solve` gives.

    Parameters
    ----------
    boards : numpy.ndarray or list of str
        A 2-D array of tile codes (one board a row, see :func:`random_codes`) or a list of board texts.
    lexicon : Lexicon or str, optional
        The word list (default: TWL06).
    kinds : numpy.ndarray or list of str, optional
        Tile kinds shaped like ``boards`` (kind indices 0..5) or a list of kind texts; default all plain.
    grid : Grid, optional
        ``BOOKWORM`` (the default), ``BOGGLE4`` or ``BOGGLE5``.
    min_len, max_len : int
        Word lengths kept, in letters (Qu counts as two).
    level : int
        Bookworm's level count, added to each tile value sum.
    scoring : optional
        As for :func:`solve` (by default Bookworm scores on a Bookworm grid, Boggle points on a Boggle grid).
    threads : int, optional
        Worker threads (``None``: Numba's thread count; ``1``: the calling thread only).
    chunk : int
        Boards a round (split between the lanes; each round ends with the lanes' output moved together, ~0.2 ms).
    client : dask.distributed.Client or str, optional
        A Dask client or scheduler address: chunks of ``chunk_size`` boards are solved on the cluster (the same
        result).
    max_nodes : int, optional
        Paths one board may visit (default 20 million).

    Returns
    -------
    BatchSolution
        ``batch[b]`` is board ``b``'s :class:`Solution`; ``batch.best()`` each board's best word.

    Raises
    ------
    InvalidBoardError
        If a board or its kinds do not fit the grid or the lexicon's alphabet.
    InvalidParameterError
        If another argument is out of range.
    SearchLimitError
        If a board needs more than ``max_nodes`` paths.
    """
    lex = as_lexicon(lexicon)
    grid = check_grid(grid)
    codes = _boards(boards, grid, lex)
    min_len, max_len = check_lengths(min_len, max_len, grid)
    level = check_level(level)
    scoring = check_scoring(scoring, grid)
    chunk = _int(chunk, "chunk", 1)
    budget = check_max_nodes(max_nodes)
    nb = codes.shape[0]
    kinds = check_kinds(kinds, codes.shape)
    if client is not None and nb:  # (no boards: the empty result, computed here, as without a client)
        return _solve_many_distributed(codes, kinds, lex, grid, client, chunk_size,
                                       dict(min_len=min_len, max_len=max_len, level=level, scoring=scoring,
                                            max_nodes=budget))
    t = tables(lex)
    q, u = _kernel_qu(t)
    run_scoring = BOOKWORM_DELUXE if isinstance(scoring, BogglePoints) else scoring
    lbit, lval, kbonus = code_tables(lex, run_scoring)
    with _jit.threads(threads) as nt:
        lanes = 1 if threads == 1 else nt
        points = _word_points(scoring, lex, max_len) if isinstance(scoring, BogglePoints) else None
        counts, wid, path, plen, score = _run_batch(
            (t.pk, t.acc2, t.lay, grid.masks, codes, kinds, lbit, lval, kbonus, q, u, min_len, max_len, level,
             run_scoring.multiplier), nb, max_len, lanes, chunk, default_cap(grid), dedup_scratch(lex, lanes), budget,
            lambda b: _limit_error(b, budget, lex, max_len, grid), points)
    offsets = np.zeros(nb + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return BatchSolution(lex, grid, codes, offsets, wid, path, plen, score, scoring, _checked=True)


def _solve_chunk(chunk, lex, grid, kw):
    """Worker side of :func:`solve_many` with ``client=``: one chunk of boards and kinds."""
    codes, kinds = chunk
    r = solve_many(codes, lex, kinds=kinds, grid=grid, **kw)
    return r.counts, r.wid, r.path, r.plen, r.scores


def _solve_many_distributed(codes, kinds, lex, grid, client, chunk_size, kw) -> "BatchSolution":
    from .. import distributed as D

    chunk_size = _int(chunk_size, "chunk_size", 1)
    chunks = [(codes[a:a + chunk_size], kinds[a:a + chunk_size]) for a in range(0, codes.shape[0], chunk_size)]
    parts = D.map_chunks(_solve_chunk, chunks, client, broadcast=(lex, grid, kw), name="bookworm")
    counts = np.concatenate([p[0] for p in parts])
    offsets = np.zeros(codes.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    cat = [np.concatenate([p[i] for p in parts]) for i in range(1, 5)]
    return BatchSolution(lex, grid, codes, offsets, *cat, kw["scoring"], _checked=True)


_MAX_PREALLOC = 1 << 22  # rows reserved up front (~100 MB of address space; pages are touched only as used)


def _run_batch(args, nb, max_len, lanes, chunk, cap, scratch, budget, limit_error, points=None):
    """Solve boards ``0..nb-1`` into flat output arrays (no per-board buffers, no compaction pass).

    Rounds of ``chunk`` boards; a round splits its boards into ``lanes`` contiguous ranges solved in parallel
    (:func:`run_lanes`; ``lanes == 1``: on the calling thread), each lane given room for ``est`` words a board
    plus one board's worst case. Lane 0 writes straight into the output after the rows kept so far; every
    other lane writes into a buffer of its own, whose rows its thread copies to their place in the output at
    the start of its next round (while the other lanes search), or all lanes together after the last round.
    A round's boards are split by the lanes' speeds in the round before (copies included), so a lane slowed
    by its copy or by the machine gets fewer boards; the output does not depend on the split. A lane that
    runs out of room stops at a board boundary: the round keeps everything before that board, and the next
    round resumes there with more room (``est`` doubled, or a larger per-board table when one board alone
    has more than ``cap`` words). A board past the path ``budget`` raises ``limit_error(board)``.
    """
    est = cap // 2
    hmask = int(K.hash_bits.py_func(cap))  # its plain-Python body: no compile for this
    cap = (hmask + 1) // 2
    counts = np.zeros(nb, dtype=np.int64)
    buf = _alloc(min(max(nb, 1) * est, _MAX_PREALLOC) + cap, max_len)
    own = [None] * lanes  # lane i >= 1: its own output buffer
    due = [None] * lanes  # lane i >= 1: (rows, output row) of its buffer still to be copied into the output
    speed = np.ones(lanes)
    used = 0
    b = 0
    while b < nb:
        z = min(nb, b + chunk)
        nl = min(lanes, z - b)
        lane_b = _lane_bounds(b, z, nl, speed[:nl])
        room = np.diff(lane_b) * est + cap
        if used + room[0] > buf[0].shape[0]:
            buf = _grow(buf, used, max(2 * buf[0].shape[0], int(used + room[0])))
        res = run_lanes([lambda i=i, buf=buf, used=used: _lane(
            args, i, int(lane_b[i]), int(lane_b[i + 1]), used, int(room[i]), hmask, counts, buf, own[i], due[i],
            scratch[0][i], scratch[1][i], budget, points) for i in range(nl)])
        for i in range(1, nl):
            own[i], due[i] = res[i][3], None
        for i in range(nl):
            if res[i][2] == -2:
                raise limit_error(int(res[i][0]))
        b = z
        for i in range(nl):
            b_next, end, _, _, seconds = res[i]
            n = int(end - used) if i == 0 else int(end)
            if i and n:
                due[i] = (n, used)
            used += n
            if b_next < lane_b[i + 1]:  # lane i stopped early: resume at its board with more room
                b = int(b_next)
                if n + cap <= room[i]:
                    hmask = 4 * hmask + 3  # one board has more words than a board may write (per_board)
                    cap = (hmask + 1) // 2
                else:
                    est *= 2
                break
            speed[i] = (lane_b[i + 1] - lane_b[i]) / max(seconds, 1e-6)
    if used > buf[0].shape[0]:
        buf = _grow(buf, used, used)
    copies = [(own[i], 0, due[i][1], due[i][0]) for i in range(lanes) if due[i] is not None]
    if copies:  # the last round's rows of lanes 1.. (private sources, disjoint targets: any split is safe)
        run_lanes([lambda p=p: _copy_rows(buf, p) for p in _split_copies(copies, lanes)])
    # views: the unused tail of the reservation was never written, so it costs address space, not memory
    return (counts, *(x[:used] for x in buf))


def _lane(args, i, b0, b1, used, room, hmask, counts, buf, own, due, seen, idx, budget, points):
    """Lane ``i`` of a round of :func:`_run_batch`, on its thread: boards ``b0..b1-1`` with ``room`` rows, then
    (for Boggle points) their words' points. Lane 0 writes into ``buf`` from row ``used``; another lane first
    copies its previous round's rows (``due``: rows, output row) from its buffer ``own`` into ``buf``, then
    writes into ``own`` from row 0 (a new buffer when short of room). Returns ``(b_next, end, status, own,
    seconds)``."""
    t0 = time.perf_counter()
    if i == 0:
        out, start = buf, used
    else:
        if due is not None:
            _copy_rows(buf, [(own, 0, due[1], due[0])])
        if own is None or own[0].shape[0] < room:
            own = _alloc(max(room, 2 * own[0].shape[0] if own is not None else 0), buf[1].shape[1])
        out, start = own, 0
    b_next, end, status = K.run_boards(*args, b0, b1, start, start + room, hmask, counts, *out, seen, idx, budget)
    if points is not None:
        out[3][start:end] = points[out[0][start:end]]
    return b_next, end, status, own, time.perf_counter() - t0


def _timed(f, *args):
    """``(f(*args), seconds it took)``."""
    t0 = time.perf_counter()
    return f(*args), time.perf_counter() - t0


def _copy_rows(buf, copies) -> None:
    """``buf``'s rows ``dest..dest+n-1`` from rows ``src..src+n-1`` of ``source``, for each ``(source, src, dest,
    n)`` of ``copies`` (NumPy copies of plain arrays release the GIL)."""
    for source, src, dest, n in copies:
        for x, y in zip(buf, source):
            x[dest:dest + n] = y[src:src + n]


def _split_copies(copies, parts: int) -> list:
    """``copies`` (as for :func:`_copy_rows`) cut into ``parts`` lists of about equal rows."""
    total = sum(c[3] for c in copies)
    share = -(-total // parts)
    out, cur, room = [], [], share
    for source, src, dest, n in copies:
        while n:
            k = min(n, room)
            cur.append((source, src, dest, k))
            src, dest, n, room = src + k, dest + k, n - k, room - k
            if room == 0:
                out.append(cur)
                cur, room = [], share
    return out + [cur] if cur else out


def _alloc(size, max_len):
    return (np.empty(size, dtype=np.int32), np.empty((size, max_len), dtype=np.int8), np.empty(size, dtype=np.int8),
            np.empty(size, dtype=np.int64))


def _grow(buf, used, size):
    """``buf`` in arrays of ``size`` rows, its first ``used`` rows (those it has) copied."""
    new = _alloc(size, buf[1].shape[1])
    used = min(used, buf[0].shape[0])
    for x, y in zip(new, buf):
        x[:used] = y[:used]
    return new


def _points_table(points, min_len: int, max_len: int) -> np.ndarray:
    """Points by word length ``0..max_len`` (0 below ``min_len``) from a function of the length or a sequence
    (its last entry for longer words)."""
    if points is None:
        points = boggle_points
    table = np.zeros(max_len + 1, dtype=np.int64)
    for n in range(min_len, max_len + 1):
        try:
            v = points(n) if callable(points) else points[min(n, len(points) - 1)]
        except (TypeError, ValueError, IndexError, KeyError) as e:
            raise InvalidParameterError(f"points must be a function of the word length or a sequence of "
                                        f"points by length, got {_short(points)} ({e})") from None
        table[n] = _int(v, f"points for {n} letters", -MAX_VALUE, MAX_VALUE)
    return table


def boggle_scores(boards, lexicon=None, *, grid: Grid | None = None, min_len=3, max_len=None, points=None,
                  threads=None, chunk: int = 4096, max_nodes=None) -> np.ndarray:
    """Score-only batch: the total Boggle score of the distinct words on each board (``int64``, one a board).

    ``boards`` as for :func:`solve_many` (default grid :data:`BOGGLE4`). A word of ``L`` letters (Qu counts 2)
    between ``min_len`` and ``max_len`` (default: every length the lexicon and grid allow) scores
    ``points(L)`` (a function or a sequence by length; default :func:`boggle_points`: 3-4 letters 1, 5 -> 2,
    6 -> 3, 7 -> 5, 8+ -> 11). No paths or word lists are built: this is the measure the C++ Boggle solvers
    report. Boards run in rounds of ``chunk``; ``max_nodes`` bounds the paths a board may visit.
    """
    lex = as_lexicon(lexicon)
    grid = check_grid(grid, BOGGLE4)
    codes = _boards(boards, grid, lex)
    if max_len is None:
        lo = min_len if isinstance(min_len, (int, np.integer)) and not isinstance(min_len, bool) else 1
        max_len = max(int(lo), min(max(lex.max_len, 1), 2 * grid.n_tiles, 127))
    min_len, max_len = check_lengths(min_len, max_len, grid)
    chunk = _int(chunk, "chunk", 1)
    budget = check_max_nodes(max_nodes)
    table = _points_table(points, min_len, max_len)
    t = tables(lex)
    q, u = _kernel_qu(t)
    lbit = code_tables(lex, BOOKWORM_DELUXE)[0]
    nb = codes.shape[0]
    out = np.zeros(nb, dtype=np.int64)
    words = max(len(lex), 1)
    with _jit.threads(threads) as nt:
        lanes = max(1, min(1 if threads == 1 else nt, nb))
        seen = np.zeros((lanes, words // 64 + 1), dtype=np.int64)
        found = np.empty((lanes, words + 1), dtype=np.int32)
        # rounds of ``chunk`` boards (split into contiguous lanes when parallel): Ctrl-C lands between rounds,
        # and a slow stretch of boards holds up one round, not the whole batch
        # (a round's boards split by the lanes' speeds in the round before, as in solve_many)
        step = max(chunk, lanes)
        speed = np.ones(lanes)
        for b in range(0, nb, step):
            z = min(nb, b + step)
            lane_b = _lane_bounds(b, z, lanes, speed)
            res = run_lanes([lambda i=i: _timed(K.score_boards, t.pk, t.acc2, t.lay, grid.masks, codes, lbit, q, u,
                                                min_len, max_len, table, int(lane_b[i]), int(lane_b[i + 1]), seen[i],
                                                found[i], out, budget) for i in range(lanes)])
            bad = [x for x, _ in res if x >= 0]
            if bad:
                raise _limit_error(min(bad), budget, lex, max_len, grid)
            speed = np.diff(lane_b) / np.maximum([seconds for _, seconds in res], 1e-6)
    return out


def random_codes(n: int, *, grid: Grid = BOOKWORM, lexicon=None, seed=None, frequencies=None,
                 qu: bool = True) -> np.ndarray:
    """``n`` random boards as tile codes (``uint8``, shape ``(n, tiles)``), letters drawn with Bookworm-like
    frequencies (``frequencies``: letter -> relative weight; Qu tiles included when ``qu`` and the alphabet
    has Q and U). Letters of the alphabet the table does not name get weight 1 when no letter of the table
    is in the alphabet at all (so any alphabet gets boards)."""
    lex = as_lexicon(lexicon)
    grid = check_grid(grid)
    n = _int(n, "n", 0, MAX_BOARDS)
    qu = _flag(qu, "qu")
    codes, weights = letter_weights(lex, frequencies, qu)
    try:
        rng = np.random.default_rng(seed)
    except (TypeError, ValueError) as e:
        raise InvalidParameterError(f"seed must be None or a whole number >= 0, got {_short(seed)} ({e})") from None
    p = np.array(weights, dtype=np.float64)
    return np.array(codes, dtype=np.uint8)[rng.choice(len(codes), size=(n, grid.n_tiles), p=p / p.sum())]


def letter_weights(lex: Lexicon, frequencies=None, qu: bool = True) -> tuple:
    """``(codes, weights)``: the tile codes new tiles are drawn from and their relative weights."""
    freq = BOOKWORM_FREQUENCIES if frequencies is None else frequencies
    if not isinstance(freq, dict):
        raise InvalidParameterError(f"frequencies must be a dict letter -> weight, got {_short(freq)}")
    codes, weights = [], []
    for letter, w in freq.items():
        if not isinstance(letter, str):
            raise InvalidParameterError(f"frequencies: {_short(letter)} is not a letter")
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, float, np.integer, np.floating)) \
                or not 0 <= w <= 1e12:
            raise InvalidParameterError(f"frequencies: the weight of {letter!r} must be a number from 0 to 1e12, "
                                        f"got {_short(w)}")
        if letter.upper() == "QU":
            if not qu or not _qu_ok(lex):
                continue
            codes.append(QU)
        elif len(letter) == 1 and letter.upper() in lex.alphabet:
            codes.append(lex.alphabet.index(letter))
        else:
            continue
        weights.append(float(w))
    if not any(weights) and (frequencies is None or frequencies == BOOKWORM_FREQUENCIES):
        codes, weights = list(range(len(lex.alphabet))), [1.0] * len(lex.alphabet)
    if not any(weights):
        raise InvalidParameterError(f"frequencies give no letter of the alphabet {lex.alphabet.letters!r} a "
                                    f"weight above 0")
    return codes, weights


WARMUP_PARTS = ("solve", "scores", "tiles")


def warmup(lexicon=None, parts=WARMUP_PARTS) -> None:
    """Compile (or load from Numba's cache) the kernels behind ``parts``: ``"solve"`` (:func:`solve` and
    :func:`solve_many`, one kernel for both), ``"scores"`` (:func:`boggle_scores`), ``"tiles"``
    (``solve(parallel=True)``). Parallel batches run the same serial kernels on several threads, so nothing
    else needs compiling."""
    lex = as_lexicon(lexicon)
    unknown = set(parts) - set(WARMUP_PARTS) if not isinstance(parts, str) else {parts}
    if unknown:
        raise InvalidParameterError(f"warmup parts must be among {', '.join(WARMUP_PARTS)}, got {_short(parts)}")
    codes = random_codes(2, grid=BOGGLE4, lexicon=lex, seed=0)
    if "solve" in parts:
        solve_many(codes, lex, grid=BOGGLE4)
    if "scores" in parts:
        boggle_scores(codes, lex)
    if "tiles" in parts:
        solve_codes(codes[0], lexicon=lex, grid=BOGGLE4, parallel=True)
