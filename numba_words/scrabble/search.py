"""The generator's public wrapper: validate -> arrays -> kernel -> plays, for one position, a batch on this
machine (lanes of threads over positions, ``threads=``) or a Dask cluster (``client=``).

Most users call :meth:`Position.legal_plays` / :meth:`Position.best` or :func:`generate_many`; the array
forms (:func:`generate`, :func:`generate_batch`) take a position's :class:`BoardArrays` and its rack as
per-letter counts, and check both before any kernel runs.
"""
from __future__ import annotations

import threading
from itertools import accumulate

import numpy as np

from ._board import (BoardArrays, _kernel_entry, _tables, as_plays, batch_arrays, lane_count, on_lanes, plays_array,
                     rack_arrays)
from ._movegen import REC
from ._tables import EMPTY, N_CODES, SIZE, reach_for, span_table, wtabs_for
from .errors import InvalidBoardError, InvalidRackError, ScrabbleError, short
from .leaves import default_leaves, variant_arrays
from .plays import Play, Plays, _check_by
from . import cgp as _cgp
from .position import Position


def _whole(x, what: str, lo: int = 0, hi: int | None = None, error=ScrabbleError) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or x < lo or (hi is not None and x > hi):
        rng = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
        raise error(f"{what} must be a whole number {rng}, got {short(x)}")
    return int(x)


def _check_rack(board: BoardArrays, counts, n_blanks, where: str = ""):
    """``(counts int64[32], n_blanks int64)`` after checking shape, dtype and range against the board's variant
    and alphabet."""
    at = f" ({where})" if where else ""
    try:
        arr = np.asarray(counts)
    except (TypeError, ValueError) as e:
        raise InvalidRackError(f"rack counts{at}: not an array ({e})") from None
    if arr.ndim != 1 or arr.shape[0] not in (N_CODES, len(board.lexicon.alphabet)):
        raise InvalidRackError(f"rack counts{at} must be 1-D with {N_CODES} (or {len(board.lexicon.alphabet)}, one "
                               f"per letter) entries, got shape {arr.shape}")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidRackError(f"rack counts{at} must be integers, got dtype {arr.dtype}")
    rs = board.variant.rack_size
    if arr.size and (arr.min() < 0 or arr.max() > rs):
        raise InvalidRackError(f"rack counts{at} must be 0..{rs}, got {arr.min()}..{arr.max()}")
    n = len(board.lexicon.alphabet)
    out = np.zeros(N_CODES, np.int64)
    out[: arr.shape[0]] = arr
    if out[n:].any():
        raise InvalidRackError(f"rack counts{at}: letter codes {n} and above are not letters of "
                               f"{board.lexicon.alphabet.letters!r}")
    nb = _whole(n_blanks, f"n_blanks{at}", 0, rs, InvalidRackError)
    if int(out.sum()) + nb > rs:
        raise InvalidRackError(f"rack{at} has {int(out.sum()) + nb} tiles; the {board.variant.name} rack holds {rs}")
    return out, np.int64(nb)


def _check_board(board, where: str = "") -> BoardArrays:
    if not isinstance(board, BoardArrays):
        at = f" ({where})" if where else ""
        raise InvalidBoardError(f"board{at} must be a BoardArrays (Position.board), got {short(board)}")
    return board


MAX_CAP = 1 << 22
"""The most rows ``cap=`` may ask for first (4 M plays, 112 MB; no position has that many: the kernel grows its
rows as needed anyway)."""


def generate(board: BoardArrays, counts, n_blanks=0, *, best_only: bool = False, cap: int | None = None) -> np.ndarray:
    """Every play of ``board`` for a rack of ``counts`` (letter code -> tiles, 32 or one per letter entries)
    and ``n_blanks`` blanks: a structured :data:`PLAY_DTYPE` array in generation order, or with ``best_only`` the
    single best play (pruned search). ``cap`` rows are allocated first (the kernel is asked again when more
    are needed; default: by the rack's blanks)."""
    _check_board(board)
    counts, nb = _check_rack(board, counts, n_blanks)
    if not isinstance(best_only, (bool, np.bool_)):
        raise ScrabbleError(f"best_only must be True or False, got {short(best_only)}")
    if cap is not None:
        cap = _whole(cap, "cap", 1, MAX_CAP)
    return plays_array(board, counts, nb, best_only=bool(best_only), cap=cap)


def generate_batch(boards, racks, *, cap: int | None = None, threads: int | None = None) -> list:
    """Plays arrays for many ``(board, (counts, n_blanks))`` positions at once, in parallel over positions
    (``threads``: lanes of threads, default Numba's thread count). Every board must share one variant and
    lexicon. ``cap``: rows each position's kernel allocates first (it grows them as needed; default: by the rack's
    blanks)."""
    boards = list(boards)
    racks = list(racks)
    if len(racks) != len(boards):
        raise ScrabbleError(f"generate_batch: {len(boards)} boards but {len(racks)} racks")
    if cap is not None:
        cap = _whole(cap, "cap", 1, MAX_CAP)
    if not boards:
        return []
    b0 = _check_board(boards[0], "#1")
    counts = np.zeros((len(boards), N_CODES), np.int64)
    nblank = np.zeros(len(boards), np.int64)
    for i, (b, r) in enumerate(zip(boards, racks)):
        _check_board(b, f"#{i + 1}")
        if b.variant is not b0.variant or b.lexicon is not b0.lexicon:
            raise ScrabbleError(f"generate_batch: board #{i + 1} uses another variant or lexicon than board #1")
        try:
            c, nb = r
        except (TypeError, ValueError):
            raise InvalidRackError(f"rack #{i + 1} must be a pair (counts, n_blanks), got {short(r)}") from None
        counts[i], nblank[i] = _check_rack(b, c, nb, f"#{i + 1}")
    return batch_arrays(boards, counts, nblank, cap=cap, threads=threads)


def generate_many(positions, *, variant="scrabble", lexicon=None, threads: int | None = None, client=None,
                  chunk_size: int = 64) -> list[Plays]:
    """Every scored play of each position (``Position`` objects or CGP strings), in input order.

    Runs the kernel in parallel over positions (``threads`` lanes of threads), or, with ``client`` (a Dask ``Client`` or
    scheduler address), in chunks of ``chunk_size`` positions across a cluster (the boards travel as arrays).
    All positions share one variant and lexicon.
    """
    if isinstance(positions, (str, Position)):
        positions = [positions]
    positions = list(positions)
    if not positions:
        raise ScrabbleError("generate_many needs at least one position")
    pos = []
    for i, p in enumerate(positions):
        if isinstance(p, Position):
            pos.append(p)
        elif isinstance(p, str):
            pos.append(Position.from_cgp(p, variant, lexicon=lexicon))
        else:
            raise ScrabbleError(f"position #{i + 1} must be a Position or a CGP string, got {short(p)}")
    lex, var = pos[0].lexicon, pos[0].variant
    for i, p in enumerate(pos):
        if p.lexicon is not lex or p.variant is not var:
            raise ScrabbleError(f"position #{i + 1} uses another lexicon or variant than position #1")
    if client is not None:
        arrays = _generate_distributed(pos, client, chunk_size)
    else:
        racks = [p._rack_arrays() for p in pos]
        arrays = batch_arrays([p.board for p in pos], np.stack([r[0] for r in racks]),
                              np.array([r[1] for r in racks], np.int64), threads=threads)
    return [Plays(a, p, _checked=True) for a, p in zip(arrays, pos)]


def best_many(positions, *, by: str = "equity", variant="scrabble", lexicon=None,
              threads: int | None = None) -> list[Play | None]:
    """The best play of each position (``Position`` objects or CGP strings), in input order: what
    :meth:`Position.best` gives (``by="equity"``: highest static equity, ``"score"``: highest score), ``None``
    where a rack has no play.

    One kernel call a chunk of positions (:func:`._batch.best_batch`, up to 64) reads each CGP's board, makes its
    cross-checks and searches it; chunks run on ``threads`` lanes of threads (default Numba's thread count; the
    kernel releases the GIL). Each :class:`Play` holds its position (for a CGP string, the :class:`Position`
    :meth:`Position.from_cgp` gives). ``variant`` and ``lexicon`` as for
    :meth:`Position.from_cgp` (a ``lex`` operation in a CGP picks the lexicon unless ``lexicon`` is given).
    Positions with their own leave table (``Position.leaves`` set) and racks of three blanks or more are searched
    one by one. A position that cannot be read raises its error (:class:`InvalidCgpError`, ...), the first such
    position's, its number in the message.
    """
    if by != "score" and by != "equity":
        _check_by(by)
    if isinstance(positions, (str, Position)):
        positions = [positions]
    try:
        items = list(positions)
    except TypeError:
        raise ScrabbleError(f"best_many needs a list of positions or CGP strings, got {short(positions)}") from None
    for i, p in enumerate(items):
        if not isinstance(p, (str, Position)):
            raise ScrabbleError(f"position #{i + 1} must be a Position or a CGP string, got {short(p)}")
    n = len(items)
    out: list = [None] * n
    if not n:
        return out
    # chunks of positions handed out to lanes of threads: a lane reads its chunk's CGP fields, searches them in one
    # kernel call (which releases the GIL) and makes their plays, so one lane's Python overlaps another's kernel.
    # Chunks shrink towards the end (a position takes ~10 to ~300 us): the lanes finish nearly together (a chunk of
    # 4 positions took 1.35x the time of one of 64 on one thread, 16 1.1x). The first few are small too: a lane
    # reads its chunk holding the GIL, and the next lane starts when it is done
    lanes = min(lane_count(threads), n)
    chunks = []
    a = 0
    while a < n:
        step = 64 if lanes == 1 else 4 if len(chunks) < lanes else max(4, min(32, (n - a) // (2 * lanes)))
        chunks.append(range(a, min(a + step, n)))
        a += step
    errors: dict = {}
    alone: list = []  # positions searched one by one
    by_equity = by == "equity"
    plain = _plain_reader(items, variant, lexicon)
    on_lanes(len(chunks), lambda k: _best_chunk(items, chunks[k], by_equity, variant, lexicon, out, errors, alone,
                                                plain), lanes)
    for i in sorted(alone):
        p = items[i]
        try:
            out[i] = (Position.from_cgp(p, variant, lexicon=lexicon) if isinstance(p, str) else p).best(by)
        except ScrabbleError as e:
            errors[i] = e
    if errors:
        i = min(errors)
        e = errors[i]
        raise type(e)(f"position #{i + 1}: {e}") from None
    return out


def _plain_reader(items, variant, lexicon):
    """``(tables, operations)`` of the first CGP string of ``items`` (``None`` without one, or when it cannot be
    read): the CGPs of a batch with the same operations (none, or ``lex TWL06;``...) have the same tables, and
    their fields are split in a kernel (:func:`._batch.split_cgps`)."""
    first = next((p for p in items if isinstance(p, str)), None)
    if first is None:
        return None
    try:
        r = Position._read_fields(first, variant, lexicon)[1]
        ops = _cgp.cgp_fields(first)[5]
    except ScrabbleError:
        return None
    if not ops.isascii():
        return None
    return r[2], np.frombuffer(ops.encode(), np.uint8)


def _best_chunk(items, chunk, by_equity: bool, variant, lexicon, out, errors, alone, plain) -> None:
    """:func:`best_many` for ``items[i]``, ``i`` in ``chunk``: each position's best play to ``out[i]``, its error to
    ``errors[i]``, and to ``alone`` the indexes of positions to search one by one. ``plain``: see
    :func:`_plain_reader`."""
    from ._batch import split_cgps

    groups: dict = {}  # id(tables) -> (tables, [(i, position, reader or None, board text or None, rack, opp)])
    rest = chunk
    if plain is not None:  # (CGP strings split in one kernel call: no Python a position)
        t, ref = plain
        cg = [i for i in chunk if isinstance(items[i], str)]
        texts = [items[i] for i in cg]
        joined = "\n".join(texts)
        if texts and joined.count("\n") == len(texts) - 1:
            # (any character outside ASCII, a lone surrogate too, gives bytes no field takes: read by Python)
            raw = np.frombuffer(joined.encode("utf-8", "surrogatepass"), np.uint8)
            m = len(texts)
            ok = np.empty(m, np.bool_)
            braw, rk = np.empty((2, raw.shape[0]), np.uint8)
            boffs, roffs = np.empty((2, m + 1), np.int64)
            n_own = np.empty(m, np.int64)
            q = split_cgps(raw, ref, t.char_table, t.rack_size, ok, braw, boffs, rk, roffs, n_own)
            if q:
                braw.flags.writeable = rk.flags.writeable = False  # (as the Positions' path gives them: one compile)
                good = ok.tolist()
                _best_group(t, [(i, None, None, items[i], None, None) for i, g in zip(cg, good) if g], by_equity, out,
                            alone, (braw, boffs[:q + 1], rk, roffs[:q + 1], n_own[:q]), (variant, lexicon))
                rest = [i for i in chunk if not isinstance(items[i], str)] + [i for i, g in zip(cg, good) if not g]
    for i in rest:
        p = items[i]
        if isinstance(p, str):
            try:
                pos, r, text, rack, opp = Position._read_fields(p, variant, lexicon)
            except ScrabbleError as e:
                errors[i] = e
                continue
            if not text.isascii():  # (the Python decoder names what is wrong)
                alone.append(i)
                continue
            t = r[2]
            groups.setdefault(id(t), (t, []))[1].append((i, pos, r, text, rack, opp))
        elif "_leaves" in p.__dict__ or p.variant.blanks > 2 and p.rack.count("?") > 2:
            alone.append(i)
        else:
            t = _tables(p.board)
            groups.setdefault(id(t), (t, []))[1].append((i, p, None, None, p.rack, p.opp_rack))
    for t, group in groups.values():
        _best_group(t, group, by_equity, out, alone)


def _best_group(t, group, by_equity: bool, out, alone, split=None, read=None) -> None:
    """:func:`_best_chunk` for the positions of one variant and lexicon (tables ``t``) in one kernel call: ``group``
    of ``(index, position, reader, board text, rack, opp rack)`` (a CGP's: ``position`` without a board yet; a
    ``Position``'s: ``reader`` and text ``None``). Writes each position's best play to ``out[index]``; the indexes
    of positions the kernel leaves (a CGP it cannot read, racks of three blanks or more) to ``alone``. ``split``:
    the fields of CGP strings as :func:`._batch.split_cgps` gives them (``group`` of ``(index, None, None, CGP,
    None, None)``; their positions read when first used, with ``read``: ``(variant, lexicon)``)."""
    from ._batch import WALK, best_batch

    m = len(group)
    gix = np.empty(m, np.int64)  # (a Position's board: its text is none, its grids at gix)
    gix.fill(-1)
    if split is not None:
        raw, offs, rk, roffs, n_own = split
        grids = np.zeros((1, SIZE, SIZE), np.uint8)
        gblanks = np.zeros((1, SIZE, SIZE), bool)
    else:
        texts = [g[3] or "" for g in group]
        raw = np.frombuffer("".join(texts).encode(), np.uint8)
        # (array building by C methods and iterators: np.cumsum and np.full on short lists cost ~10 us a call here)
        offs = np.fromiter(accumulate(map(len, texts), initial=0), np.int64, m + 1)
        grid_of = [k for k, g in enumerate(group) if g[3] is None]
        grids = np.zeros((len(grid_of) or 1, SIZE, SIZE), np.uint8)
        gblanks = np.zeros((len(grid_of) or 1, SIZE, SIZE), bool)
        for j, k in enumerate(grid_of):
            b = group[k][1].board
            grids[j], gblanks[j], gix[k] = b.letters, b.blanks, j
        racks = "".join(g[4] + g[5] for g in group)
        rk = np.frombuffer(racks.encode(), np.uint8)
        roffs = np.fromiter(accumulate((len(g[4]) + len(g[5]) for g in group), initial=0), np.int64, m + 1)
        n_own = np.fromiter((len(g[4]) for g in group), np.int64, m)
    tables = t.entries.get("best_batch tables")  # (the kernel's arguments every chunk of these tables shares)
    if tables is None:
        v, lex = t.key
        tables = t.entries["best_batch tables"] = (
            (t.char_table, t.values, Position._make(v, lex, None, "", "", (0, 0), 0)._bag_totals(), lex.dawg,
             t.checks, t.lm, t.wm, t.rack_size, t.bingo, t.span, *(t.wtabs[k] for k in (0, 1, 3)),
             variant_arrays(v)[0], *default_leaves(v)._kernel_args(), *variant_arrays(v)[1:]), variant_arrays(v))
    nu = t.n_letters + 1
    letters = np.empty((m, SIZE, SIZE), np.uint8)
    letters.fill(EMPTY)
    blanks = np.zeros((m, SIZE, SIZE), bool)
    lines = np.empty((m, 2, SIZE, SIZE), np.uint8)
    lines.fill(EMPTY)
    fv, cc, xs = np.zeros((3, m, 2, SIZE, SIZE), np.int64)  # (each C-contiguous)
    occ = np.zeros((m, 2, SIZE), np.int64)
    z = np.zeros((m, 2 * nu + 1 + N_CODES + 2), np.int64)
    rows = np.empty((m, REC), np.uint8)
    res = np.zeros((m, 3), np.int64)
    args = (raw, offs, gix, grids, gblanks, rk, roffs, n_own, *tables[0], by_equity, True, letters, blanks, lines, fv,
            occ, cc, xs, z, rows, res)
    fn = t.entries.get("best_batch")  # (the compiled code, typed once per tables: see _kernel_entry)
    if fn is None:
        _kernel_entry(t, "best_batch", best_batch, args)
    else:
        fn(*args)
    # each play (and a CGP's position) is made from the batch arrays when first used (_BatchPlay): the lanes' Python
    # holds the GIL, and a lane waiting for it while the other makes objects is what 2 threads lose
    src = None
    done = res.tolist()
    for k, (status, found, _) in enumerate(done):
        if status == WALK or status < 0:  # (a CGP that cannot be read: read again in Python, which names why)
            alone.append(group[k][0])
        elif found:
            if src is None:
                src = _Batch(t, group, tables[1], (letters, blanks, lines, fv, occ, cc, xs, z), rows, done, read)
            out[group[k][0]] = _BatchPlay(src, k)


_ROW, _POS = Play.__dict__["_row"], Play.__dict__["_pos"]  # (the slots a _BatchPlay fills on first use)
_BATCH_LOCK = threading.Lock()


class _Batch:
    """The arrays of one :func:`best_batch` call, from which :class:`_BatchPlay` makes its play and position."""

    __slots__ = ("t", "group", "eq_arrays", "arrays", "rows", "done", "read")

    def __init__(self, t, group, eq_arrays, arrays, rows, done, read):
        self.t, self.group, self.eq_arrays, self.arrays, self.rows, self.done = t, group, eq_arrays, arrays, rows, done
        self.read = read

    def play(self, k: int) -> tuple:
        """``(row, position)`` of position ``k``'s best play; a CGP's position made as :meth:`Position.from_cgp`
        makes it."""
        _, pos, r, text, rack, opp = self.group[k]
        if pos is None:  # (a CGP whose fields a kernel split: read them now)
            pos, r, _, rack, opp = Position._read_fields(text, *self.read)
        if r is not None:
            t = self.t
            letters, blanks, lines, fv, occ, cc, xs, z = self.arrays
            nu = t.n_letters + 1
            c = 2 * nu + 1  # (z[k]: use, unseen, the rack by kind = its blanks then c.. its 32 letter counts, info)
            zk = z[k]
            b = BoardArrays._bare(t)
            b._letters, b._blanks, b._lines, b._fv, b._occ, b._cc, b._xs = (
                letters[k], blanks[k], lines[k], fv[k], occ[k], cc[k], xs[k])
            b._empty = self.done[k][0] == 0  # (status: the tiles on the board)
            b.version = 0
            b._use = (0, zk[:nu])
            pos._keep_read(b, rack, opp, zk[c:c + N_CODES], zk[nu:2 * nu], zk[c + N_CODES:], zk[2 * nu:3 * nu],
                           self.eq_arrays)
            pos.board = b
            pos._rack, pos._opp_rack = rack, opp
        return as_plays(self.rows[k], 1)[0], pos


class _BatchPlay(Play):
    """A :func:`best_many` play: its row and position are made from the batch's arrays when first used."""

    __slots__ = ("_src", "_k")

    def __init__(self, src: _Batch, k: int):
        self._src, self._k = src, k

    def _fill(self) -> None:
        with _BATCH_LOCK:
            if self._src is not None:
                row, pos = self._src.play(self._k)
                _ROW.__set__(self, row)
                _POS.__set__(self, pos)
                self._src = None

    @property
    def _row(self):
        if self._src is not None:
            self._fill()
        return _ROW.__get__(self, Play)

    @property
    def _pos(self):
        if self._src is not None:
            self._fill()
        return _POS.__get__(self, Play)


def _generate_chunk(chunk, lex, variant) -> list:
    """Worker side of :func:`generate_many` with ``client=``: boards rebuilt from their letters, then the batch."""
    letters, blanks, counts, nblanks = chunk
    boards = [BoardArrays(variant, lex, letters[i], blanks[i]) for i in range(letters.shape[0])]
    return batch_arrays(boards, counts, nblanks)


def _generate_distributed(pos: list, client, chunk_size) -> list:
    from .. import distributed as D

    chunk_size = _whole(chunk_size, "chunk_size", 1)
    letters = np.stack([p.board.letters for p in pos])
    blanks = np.stack([p.board.blanks for p in pos])
    racks = [p._rack_arrays() for p in pos]
    counts = np.stack([r[0] for r in racks])
    nblanks = np.array([r[1] for r in racks], np.int64)
    chunks = [(letters[a:a + chunk_size], blanks[a:a + chunk_size], counts[a:a + chunk_size],
               nblanks[a:a + chunk_size]) for a in range(0, len(pos), chunk_size)]
    parts = D.map_chunks(_generate_chunk, chunks, client, broadcast=(pos[0].lexicon, pos[0].variant),
                         name="scrabble")
    return [a for part in parts for a in part]


def _warmup_lexicon():
    """The lexicon AB, ABA, BA written out as arrays (the encoding of ``lexicon._dawg``), so that warming the
    engine does not also compile the word-list builder's kernels."""
    from ..lexicon import Lexicon
    from ..lexicon.alphabet import Alphabet
    from .variants import ENGLISH

    flat = np.array([0, 1, 0, 1, 0, 1, 0], np.uint8)
    offsets = np.array([0, 2, 5, 7], np.int64)
    dawg = np.array([3, 3 << 1, 5 << 1, 1 << 1, (5 << 1) | 1, 1 << 0, (7 << 1) | 1, 0], np.uint32)
    return Lexicon(flat, offsets, dawg, Alphabet(ENGLISH), name="<warmup>", sha256="")


WARMUP_PARTS = ("generate", "best", "equity", "batch", "games", "sim", "endgame")


def warmup(lexicon=None, parts=WARMUP_PARTS) -> None:
    """Compile (or load from Numba's cache) the kernels behind ``parts``: ``"generate"`` (every play, batches,
    placing tiles), ``"best"`` (the pruned best-play search), ``"equity"`` (the equity of a plays array, and the
    shipped leave table kept in the lexicon cache), ``"batch"`` (:func:`best_many`'s kernel, ~7 s CPU on a
    machine's first run) and ``"games"`` (the self-play kernels of
    :func:`play_games` with the pruned equity search, ~25 s CPU on a machine's first run), ``"sim"``
    (:meth:`Position.simulate`, ~17 s more) and ``"endgame"`` (:meth:`Position.endgame`, ~15 s more); build the span table;
    with a ``lexicon`` (a :class:`Lexicon`) also build its tables, so that later timings are the search alone."""
    from ..lexicon import Lexicon
    from .variants import SCRABBLE

    if lexicon is not None and not isinstance(lexicon, Lexicon):
        raise ScrabbleError(f"warmup(lexicon): expected a Lexicon, got {short(lexicon)}")
    parts = (parts,) if isinstance(parts, str) else tuple(parts)
    unknown = set(parts) - set(WARMUP_PARTS)
    if unknown:
        raise ScrabbleError(f"warmup parts must be among {', '.join(WARMUP_PARTS)}, got {sorted(unknown)}")
    lex = _warmup_lexicon()
    b = BoardArrays(SCRABBLE, lex)
    BoardArrays.from_cgp_board(SCRABBLE, lex, "/".join(["15"] * 15))  # (the CGP reader of Position.from_cgp)
    counts, nb = rack_arrays([0, 1, 0], 1)
    span_table()
    if "equity" in parts:  # before the search: Position.best's background compile needs this done soonest
        from .leaves import default_leaves, play_equities
        from .plays import PLAY_DTYPE

        play_equities(np.zeros(1, PLAY_DTYPE), Position(SCRABBLE, lex, rack="AB"), default_leaves(SCRABBLE))
    if "generate" in parts:
        plays_array(b, counts, nb)
    if "best" in parts:  # (racks of three blanks or more, in variants that have them, compile the walk on first use)
        plays_array(b, counts, nb, best_only=True)
    if "generate" in parts:
        b.place([7, 7], [7, 8], [0, 1], [False, False])
        batch_arrays([b, b], np.stack([counts, counts]), np.array([nb, nb]), cap=8)
    if "batch" in parts:
        best_many(["/".join(["15"] * 15) + " AB/ 0/0 0"], threads=1)
    if "games" in parts:
        from .autoplay import play_games

        play_games(2, ("equity", "score"), lexicon=lex, threads=1)
    if "sim" in parts:
        sb = BoardArrays(SCRABBLE, lex)
        sb.place([7, 7], [7, 8], [0, 1], [False, False])
        Position(SCRABBLE, lex, board=sb, rack="AB").simulate(candidates=2, plies=2, iterations=2, threads=1)
    if "endgame" in parts:  # a bag that two racks of AB empty
        import dataclasses

        tiny = dataclasses.replace(SCRABBLE, name="<warmup>", counts={"A": 2, "B": 2}, blanks=0, _arrays={})
        Position(tiny, lex, rack="AB", opp_rack="AB").endgame()
    if lexicon is not None:
        reach_for(lexicon)
        wtabs_for(lexicon)
