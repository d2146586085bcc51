"""The generator's public wrapper: validate -> arrays -> kernel -> plays, for one position, a batch on this
machine (lanes of threads over positions, ``threads=``) or a Dask cluster (``client=``).

Most users call :meth:`Position.legal_plays` / :meth:`Position.best` or :func:`generate_many`; the array
forms (:func:`generate`, :func:`generate_batch`) take a position's :class:`BoardArrays` and its rack as
per-letter counts, and check both before any kernel runs.
"""
from __future__ import annotations

import numpy as np

from ._board import BoardArrays, batch_arrays, on_lanes, plays_array, rack_arrays
from ._tables import N_CODES, reach_for, span_table, wtabs_for
from .errors import InvalidBoardError, InvalidRackError, ScrabbleError, short
from .plays import Play, Plays, _check_by
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

    CGP strings are read on the lanes (``threads`` lanes of threads, default Numba's thread count; each takes
    the next position, reads it and searches it; the kernels release the GIL, so lanes overlap one's reading
    with another's search). ``variant`` and ``lexicon`` as for :meth:`Position.from_cgp` (a ``lex`` operation in
    a CGP picks the lexicon unless ``lexicon`` is given). A position that cannot be read raises its error
    (:class:`InvalidCgpError`, ...) after the others are done: the first such position's.
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
    errors: dict = {}

    def work(i):
        p = items[i]
        try:
            if isinstance(p, str):
                p = Position.from_cgp(p, variant, lexicon=lexicon)
            out[i] = p.best(by)
        except Exception as e:  # (raised in the caller's thread below, the first position's first)
            errors[i] = e

    on_lanes(n, work, threads)
    if errors:
        raise errors[min(errors)]
    return out


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


WARMUP_PARTS = ("generate", "best", "equity", "games", "sim", "endgame")


def warmup(lexicon=None, parts=WARMUP_PARTS) -> None:
    """Compile (or load from Numba's cache) the kernels behind ``parts``: ``"generate"`` (every play, batches,
    placing tiles), ``"best"`` (the pruned best-play search), ``"equity"`` (the equity of a plays array, and the
    shipped leave table kept in the lexicon cache) and ``"games"`` (the self-play kernels of
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
