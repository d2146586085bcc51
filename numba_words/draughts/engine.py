"""The playing engine: :class:`Engine` (iterative deepening over the search kernel of ``_engine``, time
management, lazy SMP on several threads), :class:`SearchResult`, :func:`play_game` and the evaluation weights
(:func:`load_weights`).

How a search runs: worker threads (``threads=``) each run the iterative deepening loop, one kernel call a
depth, all on the same root and one shared transposition table (lazy SMP: thread 0 reports, the others fill
the table; odd helpers search one ply deeper). The calling thread only waits in short steps: it hands each
finished depth of thread 0 to the callback, and sets the stop word the kernels poll at every node when the
time is up, when ``stop`` is set or on Ctrl-C (at a time limit the kernels also read the clock themselves and
stop on time however late that thread is scheduled). Depth 1 always finishes, so there is always a move. A depth
stopped part way counts when at least one root move was searched to it (the previous best is searched first,
so the best of those is at least as good): its move and score are returned with the last finished depth.

Scores are in men from the side to move's view; a proven win or loss is ``win_in`` plies.
"""
from __future__ import annotations

import dataclasses
import math
import os
import queue
import threading
import time as _time
from importlib import resources
from pathlib import Path
from typing import Callable

import numpy as np

from .._jit import monotonic_now
from . import _engine as K
from ._eval import N_TERMS, TERMS, UNIT, eval_table
from ._patterns import N_CONF, N_WINDOWS
from .errors import DraughtsError, InvalidPositionError, quote
from .game import Game
from .moves import Move, line_moves
from .position import Position, _material, _searcher
from .search import _position as _search_position
from ._tables import SQ2BIT

#: Deepest nominal depth a search accepts.
MAX_DEPTH = K.MAX_PLY - 8
#: Largest transposition table (MiB).
MAX_HASH_MB = 1 << 16
#: Most threads a search accepts.
MAX_THREADS = 256
WEIGHTS_FILE = "draughts_weights.txt"
#: The package's window values (``patterns_array``).
PATTERNS_FILE = Path(__file__).resolve().parents[1] / "data" / "draughts_patterns.npy"
#: Largest absolute weight accepted (men).
MAX_WEIGHT = 100.0
#: With a time a move, the search is stopped this many seconds before the limit (at most ``MOVE_TIME_MARGIN_FRACTION``
#: of it; from 0.5 s a move, ``MOVE_TIME_MARGIN_SHARE`` of it, up to ``MOVE_TIME_MARGIN_MAX``): ending the search and
#: building its result take the rest, longer on a loaded machine.
MOVE_TIME_MARGIN = 0.004
MOVE_TIME_MARGIN_FRACTION = 0.10
MOVE_TIME_MARGIN_SHARE = 0.02
MOVE_TIME_MARGIN_MAX = 0.050


class EngineError(DraughtsError):
    """Bad engine settings or search limits (depth, time, nodes, threads, hash size, weights)."""


class WeightsError(EngineError):
    """A weights file or array that is not one finite weight per evaluation term."""


# ---- weights -----------------------------------------------------------------------------------------------
def parse_weights(text: str, source: str = "weights") -> dict[str, float | tuple[float, float]]:
    """``{term: weight in men}`` from the text of a weights file: "term value" lines (the same weight in every
    phase) or "term opening endgame" lines (tapered, see ``_eval``), ``#`` comments."""
    out: dict[str, float | tuple[float, float]] = {}
    for no, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) not in (2, 3):
            raise WeightsError(f"{source} line {no}: want 'term value' or 'term opening endgame', got {quote(line)}")
        name, values = parts[0], parts[1:]
        if name not in TERMS:
            raise WeightsError(f"{source} line {no}: unknown term {name!r} (terms: {', '.join(TERMS)})")
        if name in out:
            raise WeightsError(f"{source} line {no}: term {name!r} given twice")
        xs = []
        for value in values:
            try:
                x = float(value)
            except ValueError:
                raise WeightsError(f"{source} line {no}: {quote(value)} is not a number") from None
            if not math.isfinite(x) or abs(x) > MAX_WEIGHT:
                raise WeightsError(f"{source} line {no}: weight of {name!r} must be finite and at most {MAX_WEIGHT} "
                                   f"in size, got {value}")
            xs.append(x)
        out[name] = xs[0] if len(xs) == 1 else (xs[0], xs[1])
    missing = [t for t in TERMS if t not in out]
    if missing:
        raise WeightsError(f"{source}: no weight for {', '.join(missing)}")
    return out


def weights_array(weights) -> np.ndarray:
    """Read-only ``int64`` milli-men weights, shape (2, ``N_TERMS``): the opening's and the endgame's (see
    ``_eval``), from a dict ``{term: men}`` or ``{term: (opening, endgame)}``, a sequence of ``N_TERMS`` numbers
    (men, the same in both phases) or of two such rows, a path of a weights file, or ``None`` (the package's
    tuned weights)."""
    if weights is None:
        text = resources.files("numba_words").joinpath("data", WEIGHTS_FILE).read_text(encoding="utf-8")
        weights = parse_weights(text, WEIGHTS_FILE)
    elif isinstance(weights, (str, Path)):
        try:
            text = Path(weights).read_text(encoding="utf-8")
        except OSError as e:
            raise WeightsError(f"cannot read weights file {str(weights)!r}: {e.strerror}") from None
        weights = parse_weights(text, str(weights))
    if isinstance(weights, dict):
        bad = [k for k in weights if k not in TERMS]
        if bad or len(weights) != N_TERMS:
            raise WeightsError(f"weights must give exactly the terms {', '.join(TERMS)}; got {sorted(weights)}")
        try:
            pairs = [tuple(v) if isinstance(v, (tuple, list, np.ndarray)) else (v, v) for v in
                     (weights[t] for t in TERMS)]
        except TypeError:
            raise WeightsError(f"weights must be numbers, got {quote(weights)}") from None
        if any(len(v) != 2 for v in pairs):
            raise WeightsError(f"a term's weight is a number or an (opening, endgame) pair, got {quote(weights)}")
        weights = [[v[0] for v in pairs], [v[1] for v in pairs]]
    try:
        arr = np.array(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise WeightsError(f"weights must be numbers, got {quote(weights)}") from None
    if arr.shape == (N_TERMS,):
        arr = np.stack([arr, arr])
    if arr.shape != (2, N_TERMS) or not np.all(np.isfinite(arr)) or np.any(np.abs(arr) > MAX_WEIGHT):
        raise WeightsError(f"weights must be {N_TERMS} finite numbers of at most {MAX_WEIGHT} in size, or two rows "
                           f"of them (opening, endgame; terms {', '.join(TERMS)}), got {quote(weights)}")
    out = np.round(arr * UNIT).astype(np.int64)
    out.flags.writeable = False
    return out


def patterns_array(patterns=None) -> np.ndarray:
    """The window values the evaluation adds (``_patterns``): read-only ``int16`` (``N_WINDOWS``, ``N_CONF``, 2)
    in milli-men, the opening's and the endgame's, from an array or an ``.npy`` file of that shape or of shape
    (``N_WINDOWS``, ``N_CONF``) (one value for both); ``None``: the package's file, or none (zeros) without one;
    ``False``: none."""
    if patterns is None:
        patterns = PATTERNS_FILE if PATTERNS_FILE.exists() else False
    if patterns is False:
        a = np.zeros((N_WINDOWS, N_CONF, 2), np.int16)
    elif isinstance(patterns, np.ndarray):
        a = patterns
    elif isinstance(patterns, (str, os.PathLike)):
        try:
            a = np.load(Path(patterns), allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise WeightsError(f"cannot read window values from {quote(str(patterns))}: {exc}") from None
    else:
        raise WeightsError(f"window values are an array, an .npy file's path, None or False, got {quote(patterns)}")
    if (not isinstance(a, np.ndarray) or a.shape not in ((N_WINDOWS, N_CONF), (N_WINDOWS, N_CONF, 2))
            or a.dtype.kind not in "iu"):
        raise WeightsError(f"window values must be integers of shape ({N_WINDOWS}, {N_CONF}, 2) or ({N_WINDOWS}, "
                           f"{N_CONF}), got {getattr(a, 'dtype', type(a).__name__)} {getattr(a, 'shape', '')}")
    if a.min() < -(1 << 15) or a.max() >= 1 << 15:
        raise WeightsError("window values must fit in int16 (milli-men)")
    if a.ndim == 2:
        a = np.stack([a, a], axis=-1)
    a = np.array(a, dtype=np.int16)  # a copy of our own: the kernels trust its shape
    a.flags.writeable = False
    return a


def load_weights(path=None) -> dict[str, tuple[float, float]]:
    """The evaluation weights ``{term: (opening, endgame)}`` in men of a weights file (default: the package's
    tuned weights); ``Engine(weights=...)`` takes the dict back, with pairs or single numbers."""
    w = weights_array(path)
    return {t: (int(w[0, i]) / UNIT, int(w[1, i]) / UNIT) for i, t in enumerate(TERMS)}


# ---- results -----------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class SearchResult:
    """The result of a search (and what the per-depth callback receives). ``score`` is in men from the side to
    move's view; ``win_in`` the plies to a forced win (> 0) or loss (< 0) when the search proved one."""

    move: Move | None
    score: float
    win_in: int | None
    pv: list
    ponder: Move | None
    depth: int
    seldepth: int
    nodes: int
    time: float
    nps: float

    def score_text(self) -> str:
        """``+0.35`` (men), or ``win in 7`` / ``loss in 4`` (plies)."""
        if self.win_in is not None:
            return f"win in {self.win_in}" if self.win_in > 0 else f"loss in {-self.win_in}"
        return f"{self.score:+.2f}"


# ---- validation --------------------------------------------------------------------------------------------
def _whole(name, x, lo, hi, none_ok=True):
    if x is None and none_ok:
        return None
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or not lo <= x <= hi:
        raise EngineError(f"{name} must be a whole number from {lo} to {hi}, got {quote(x)}")
    return int(x)


def _seconds(name, x, none_ok=True, zero_ok=False):
    if x is None and none_ok:
        return None
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise EngineError(f"{name} must be a number of seconds, got {quote(x)}")
    x = float(x)
    if not math.isfinite(x) or x < 0 or (x == 0 and not zero_ok) or x > 1e7:
        raise EngineError(f"{name} must be a finite number of seconds {'>= 0' if zero_ok else '> 0'}, got {quote(x)}")
    return x


def _position(position) -> Position:
    try:
        return _search_position(position)
    except DraughtsError as e:
        raise (e if isinstance(e, InvalidPositionError) else EngineError(str(e))) from None


def _history(pos: Position):
    """(game keys since the last irreversible move, oldest first; plies since the last man move or capture;
    plies since the material changed) of a position's move stack."""
    keys = []
    rev = 0
    for k, m in reversed(pos._stack):
        if m.captured or not (k[2] & (1 << int(SQ2BIT[m.from_square]))):
            break
        rev += 1
        keys.append(K.key_of(*k))
    mat = 0
    cur = _material(pos.board_key())
    for k, _m in reversed(pos._stack):
        if _material(k) != cur:
            break
        mat += 1
    return np.array(keys[::-1], dtype=np.uint64), rev, mat


# ---- the engine --------------------------------------------------------------------------------------------
class Engine:
    """A draughts engine: a transposition table, history tables and evaluation weights kept between searches.

    ``threads`` worker threads search each position (lazy SMP); ``hash_mb`` is the transposition table's size
    in MiB (rounded down to a power of two buckets); ``weights`` the evaluation weights (see
    :func:`weights_array`; ``None``: the package's tuned weights); ``patterns`` the learnt values of the men's
    configurations the evaluation adds (see :func:`patterns_array`; ``None``: the package's). Defaults of
    ``__call__`` (what :func:`play_game` uses): ``depth``, ``time``, ``nodes`` given here (0.1 s a move when none
    is)."""

    def __init__(self, threads: int = 1, hash_mb: int = 64, weights=None, *, depth=None, time=None, nodes=None,
                 name: str | None = None, patterns=None):
        self.threads = _whole("threads", threads, 1, MAX_THREADS, none_ok=False)
        self.hash_mb = _whole("hash_mb", hash_mb, 1, MAX_HASH_MB, none_ok=False)
        self.weights = weights_array(weights)
        self._patterns = patterns_array(patterns)
        self._table_of = None
        self.default_depth = _whole("depth", depth, 1, MAX_DEPTH)
        self.default_time = _seconds("time", time)
        self.default_nodes = _whole("nodes", nodes, 1, 1 << 62)
        if self.default_depth is None and self.default_time is None and self.default_nodes is None:
            self.default_time = 0.1
        self.name = name if name is not None else "numba_words"
        buckets = 1 << max(int(self.hash_mb * (1 << 20) // 32).bit_length() - 1, 4)
        raw = np.empty(4 * buckets + 8, dtype=np.uint64)
        skip = (-raw.ctypes.data % 64) // 8
        self._tt = raw[skip: skip + 4 * buckets]  # (a bucket, 32 bytes, never straddles two cache lines)
        self._tt.fill(0)  # touch every page now, not during the first searches
        self._lanes = [self._lane() for _ in range(self.threads)]
        self._workers: list = [None] * self.threads
        self._probcut = K.PC_DEPTH  # least depth of ProbCut, 0: none (for experiments)
        self._lmr_pv = 1  # late move reductions in PV nodes too (for experiments)
        self._lmr2 = K.LMR2  # move number from which late moves are reduced two plies (for experiments)
        self._lmr2_depth = K.LMR2_DEPTH  # and the least depth where they are
        self._etc = K.ETC_DEPTH  # least depth of enhanced transposition cut-offs, 0: none (for experiments)
        self._grain = K.GRAIN  # leaf scores rounded to a multiple of this (milli-men; for experiments)
        self._tt_pv = 0  # table cut-offs in PV nodes too (for experiments)
        self._lmr_depth = K.LMR_DEPTH  # least depth of late move reductions (for experiments)
        self._lmr_all = 0  # reduce late captures, killers and crowning moves too (for experiments)
        self._root_rank = 0  # root moves ordered by when they were last best (for experiments)
        self._root_lmr = 1  # late move reductions at the root too (for experiments)
        self._asp = ASP_WINDOW  # aspiration window (milli-men either side of the last depth's score), 0: none
        self._lazy = 0  # lazy evaluation margin (milli-men), 0: none (for experiments)
        self._threat = 0  # a quiet leaf under a capture threat searched one ply more (for experiments)
        self._sacs = 0  # quiescence plies where a quiet side may offer a man, 0: none (for experiments)
        self._lmr_from = K.LMR_FROM  # first late move (from 0) reduced in non-PV nodes (for experiments)
        self._simplify = 0  # milli-men for the root's side a piece taken off the board (for experiments)
        self._offer_red = 2  # most plies an offer (the opponent must capture after it) is reduced (for experiments)
        self._clock_moves = 0  # a clock's moves left when not given, 0: by the pieces (for experiments)
        self._gen = 0
        self._lock = threading.Lock()

    def _settings(self, params) -> None:
        """Write this engine's pruning settings into a kernel's ``params``."""
        params[K.P_PROBCUT] = self._probcut
        params[K.P_LMR_PV] = self._lmr_pv
        params[K.P_LMR2] = self._lmr2
        params[K.P_LMR2_DEPTH] = self._lmr2_depth
        params[K.P_ETC] = self._etc
        params[K.P_GRAIN] = self._grain
        params[K.P_TT_PV] = self._tt_pv
        params[K.P_LMR_DEPTH] = self._lmr_depth
        params[K.P_LMR_ALL] = self._lmr_all
        params[K.P_ROOT_RANK] = self._root_rank
        params[K.P_ROOT_LMR] = self._root_lmr
        params[K.P_THREAT] = self._threat
        params[K.P_LAZY] = self._lazy
        params[K.P_SACS] = self._sacs
        params[K.P_LMR_FROM] = self._lmr_from
        params[K.P_SIMPLIFY] = self._simplify
        params[K.P_OFFER_RED] = self._offer_red

    def _params(self, nodes, rev, mat, nkeys, exact=False, thread=0):
        """A search kernel's ``params`` (full window, this engine's settings and table generation; the depth
        is set per call): node limit (0: none), the root's plies since the last irreversible move and since
        the material changed, the number of game keys."""
        params = np.zeros(K.N_PARAMS, dtype=np.int64)
        params[K.P_MODE] = K.EXACT if exact else K.NORMAL
        self._settings(params)
        params[K.P_NODES] = nodes
        params[K.P_THREAD] = thread
        params[K.P_REV] = rev
        params[K.P_MAT] = mat
        params[K.P_NKEYS] = nkeys
        params[K.P_ALPHA] = -K.INF
        params[K.P_BETA] = K.INF
        params[K.P_GEN] = self._gen
        return params

    @property
    def table(self) -> np.ndarray:
        """The blended weights the search evaluates with (``_eval.eval_table`` of ``weights``), read-only."""
        if self._table_of is not self.weights:
            w = self.weights
            if not (isinstance(w, np.ndarray) and w.dtype == np.int64 and w.shape == (2, N_TERMS)):
                raise WeightsError(f"Engine.weights must be an int64 array of shape (2, {N_TERMS}) (see "
                                   f"weights_array), got {quote(w)}")
            self._table, self._table_of = eval_table(w), w
        return self._table

    @property
    def patterns(self) -> np.ndarray:
        """The window values the evaluation adds (``patterns_array``), read-only; set it to anything
        ``patterns_array`` takes."""
        return self._patterns

    @patterns.setter
    def patterns(self, value) -> None:
        self._patterns = patterns_array(value)

    @staticmethod
    def _lane():
        return {"ws": K.workspace(), "killers": np.zeros(2 * (K.MAX_PLY + 1), dtype=np.uint64),
                "history": np.zeros(K.HISTORY_LEN, dtype=np.int64)}

    def __repr__(self) -> str:
        return f"Engine(threads={self.threads}, hash_mb={self.hash_mb})"

    def new_game(self) -> None:
        """Forget everything learnt: clear the transposition table, killers and history."""
        self._tt[:] = 0
        for lane in self._lanes:
            lane["killers"][:] = 0
            lane["history"][:] = 0

    def __call__(self, position) -> Move:
        """The best move with this engine's default limits (``None`` if the side to move has no move)."""
        return self.search(position, depth=self.default_depth, time=self.default_time,
                           nodes=self.default_nodes).move

    # ---- search ------------------------------------------------------------------------------------------
    def search(self, position, depth=None, time=None, nodes=None, *, remaining=None, increment=0.0,
               moves_to_go=None, callback: Callable | None = None, stop: threading.Event | None = None,
               exact: bool = False) -> SearchResult:
        """Search ``position`` (a :class:`Position` or FEN; its move stack counts for repetitions and the draw
        rules) and return a :class:`SearchResult`.

        Limits (at least one): ``depth`` plies (1 to ``MAX_DEPTH``), ``time`` seconds for this move (a hard
        limit), ``nodes``, or a clock: ``remaining`` seconds with ``increment`` a move and ``moves_to_go``
        moves to the next time control (without them, the moves :func:`expected_moves` gives for the pieces on
        the board). ``callback(result)`` after each finished depth, from this thread;
        ``stop.set()`` from another thread (or Ctrl-C) ends the search within a few milliseconds with the best
        move of the last finished depth (or of the next one, when its search got through a root move).
        ``exact=True`` turns off every pruning that can change the value (table cut-offs, reductions,
        extensions, ProbCut, rounding of leaf scores): a plain alpha-beta to ``depth`` and the same
        quiescence search (for testing).
        Raises :class:`EngineError` for bad limits."""
        pos = _position(position)
        depth = _whole("depth", depth, 1, MAX_DEPTH)
        time = _seconds("time", time)
        nodes = _whole("nodes", nodes, 1, 1 << 62)
        remaining = _seconds("remaining", remaining, zero_ok=True)
        increment = _seconds("increment", increment, none_ok=False, zero_ok=True)
        moves_to_go = _whole("moves_to_go", moves_to_go, 1, 10_000)
        if callback is not None and not callable(callback):
            raise EngineError(f"callback must be callable, got {quote(callback)}")
        if stop is not None and not (hasattr(stop, "is_set") and hasattr(stop, "set")):
            raise EngineError(f"stop must be a threading.Event, got {quote(stop)}")
        if depth is None and time is None and nodes is None and remaining is None:
            raise EngineError("give a limit: depth=, time=, nodes= or remaining= (a clock)")
        hard, soft = _budget(time, remaining, increment, moves_to_go, (pos.white | pos.black).bit_count(),
                             self._clock_moves)
        t0 = _time.perf_counter()
        legal = list(pos.legal_moves)
        if not legal:
            return SearchResult(None, -K.WIN / UNIT, 0, [], None, 0, 0, 0, 0.0, 0.0)
        if not self._lock.acquire(blocking=False):
            raise EngineError("this engine is already searching (one search at a time per Engine)")
        try:
            return self._run(pos, legal, depth if depth is not None else MAX_DEPTH, nodes, hard, soft, t0,
                             callback, stop, bool(exact))
        finally:
            self._lock.release()

    def _run(self, pos, legal, max_depth, nodes, hard, soft, t0, callback, stop, exact):
        own, opp = (pos.white, pos.black) if pos.turn else (pos.black, pos.white)
        keys, rev, mat = _history(pos)
        root = (np.uint64(own), np.uint64(opp), np.uint64(pos.kings), bool(pos.turn))
        ctl = np.zeros(1 + self.threads, dtype=np.int64)
        self._gen = (self._gen + 1) & 255
        results: queue.Queue = queue.Queue()
        deepest = [0]  # the deepest depth any thread has finished
        n_threads = 1 if (len(legal) == 1 or exact) else self.threads
        deadline = 0  # the kernels stop themselves at the hard limit (the loop below stops them too, later)
        if hard is not None and monotonic_now():
            deadline = monotonic_now() + max(int((t0 + hard - _time.perf_counter()) * 1e9), 1)
        if len(legal) == 1 and (hard is not None or nodes is not None):
            max_depth = min(max_depth, 1)  # a forced move: nothing to think about

        def work(t):
            lane = self._lanes[t]
            lane["history"][K.HIST_SIZE:] = 0  # (a new root: no move ranks yet)
            params = self._params(nodes // n_threads if nodes is not None else 0, rev, mat, len(keys), exact, t)
            params[K.P_DEADLINE] = deadline
            pv = np.zeros(3 * (K.MAX_PLY + 1), dtype=np.uint64)
            info = np.zeros(K.N_INFO, dtype=np.int64)
            d = 1
            prev = None
            try:
                while d <= max_depth and ctl[0] == 0:
                    if t == 0 and d > 1 and soft is not None and _time.perf_counter() - t0 > soft:
                        break
                    params[K.P_DEPTH] = min(d + (t & 1 if d > 1 else 0), max_depth)
                    delta = self._asp
                    if delta > 0 and d >= ASP_DEPTH and prev is not None and abs(prev) < K.WIN_BOUND:
                        lo, hi = prev - delta, prev + delta
                    else:
                        lo, hi = -K.INF, K.INF
                    while True:  # aspiration: a window around the last depth's score, widened when it fails
                        params[K.P_ALPHA], params[K.P_BETA] = lo, hi
                        K.search_kernel(*root, params, ctl, self._tt, lane["ws"], lane["killers"], lane["history"],
                                        self.table, self.patterns, keys, pv, info)
                        score = int(info[K.I_SCORE])
                        if info[K.I_DONE] != 1 or lo < score < hi:
                            break
                        delta *= 4
                        if score <= lo:
                            lo = -K.INF if score - delta <= -K.WIN_BOUND else score - delta
                        else:
                            hi = K.INF if score + delta >= K.WIN_BOUND else score + delta
                    prev = int(info[K.I_SCORE])
                    if info[K.I_DONE] < 0:
                        results.put(("error", t, "a move list overflowed"))
                        return
                    if info[K.I_DONE] == 0:
                        if t == 0 and d > 1 and info[K.I_BEST] >= 0 and info[K.I_PVLEN] > 0:
                            # stopped after at least one root move was searched to depth d: the best of those
                            # (the previous best is searched first) is as good a move as depth d - 1's
                            results.put(("partial", d - 1, info.copy(), pv[: 3 * info[K.I_PVLEN]].copy()))
                        break
                    # every thread reports its finished depths: the deepest so far is the answer (a helper one
                    # ply ahead often finishes a depth before thread 0 does)
                    results.put(("depth", int(params[K.P_DEPTH]), info.copy(), pv[: 3 * info[K.I_PVLEN]].copy()))
                    if int(params[K.P_DEPTH]) > deepest[0]:
                        deepest[0] = int(params[K.P_DEPTH])
                    d += 1
                    if deepest[0] >= d:
                        d = deepest[0] + 1  # another thread has finished this depth: go past it
            except Exception as e:  # (a bug: reported by the calling thread, never left in a worker)
                results.put(("error", t, repr(e)))
            finally:
                results.put(("end", t))

        done = [threading.Event() for _ in range(n_threads)]
        for t in range(n_threads):
            self._submit(t, work, done[t])
        last = None  # (depth, info, pv) of thread 0's last finished depth
        alive = n_threads
        interrupted = False
        try:
            while alive:
                timeout = 0.02
                if hard is not None:
                    left = t0 + hard - _time.perf_counter()
                    if left <= 0 and last is not None:
                        ctl[0] = 1
                    timeout = min(timeout, max(left, 0.0005))
                if stop is not None and stop.is_set() and last is not None:
                    ctl[0] = 1
                try:
                    msg = results.get(timeout=timeout)
                except queue.Empty:
                    continue
                if msg[0] == "end":
                    alive -= 1
                    if msg[1] == 0:
                        ctl[0] = 1  # thread 0 is done: the helpers stop too
                elif msg[0] == "partial":
                    if last is None or msg[1] >= last[0]:
                        last = msg[1:]
                elif msg[0] == "error":
                    ctl[0] = 1
                    raise DraughtsError(f"search failed: {msg[2]} in {pos.fen()!r}")
                elif last is None or msg[1] > last[0]:
                    last = msg[1:]
                    if last[0] >= max_depth:
                        ctl[0] = 1  # the depth asked for: every thread stops
                    if callback is not None:
                        callback(self._result(pos, legal, *last, ctl, t0))
        except KeyboardInterrupt:
            interrupted = True
        finally:
            ctl[0] = 1
            for ev in done:
                ev.wait()
        while last is None and not results.empty():  # interrupted before depth 1 was reported
            msg = results.get_nowait()
            if msg[0] == "depth":
                last = msg[1:]
        if last is None:
            raise KeyboardInterrupt if interrupted else DraughtsError(f"search gave no move in {pos.fen()!r}")
        return self._result(pos, legal, *last, ctl, t0)

    def _submit(self, t, fn, done):
        """Run ``fn(t)`` on this engine's worker thread ``t`` (started once, kept for later searches); ``done``
        is set when it returns."""
        if self._workers[t] is None:
            jobs: queue.SimpleQueue = queue.SimpleQueue()

            def loop():
                while True:
                    job, ev = jobs.get()
                    try:
                        job(t)
                    finally:
                        ev.set()

            th = threading.Thread(target=loop, name=f"numba_words-draughts-search-{t}", daemon=True)
            th.start()
            self._workers[t] = jobs
        self._workers[t].put((fn, done))

    def _result(self, pos, legal, d, info, pv, ctl, t0) -> SearchResult:
        score = int(info[K.I_SCORE])
        triples = [tuple(int(x) for x in pv[i: i + 3]) for i in range(0, len(pv), 3)]
        moves = _pv_moves(pos, triples)
        if not moves:  # (a table cut-off at the root cannot happen; keep the best index as the move)
            order = _kernel_moves(pos, legal)
            moves = [order[int(info[K.I_BEST])]]
        win_in = None
        if abs(score) > K.WIN_BOUND:
            plies = K.WIN - abs(score)
            win_in = plies if score > 0 else -plies
        el = _time.perf_counter() - t0
        n = int(ctl[1:].sum())
        return SearchResult(moves[0], score / UNIT, win_in, moves, moves[1] if len(moves) > 1 else None, d,
                            int(info[K.I_SELDEPTH]), n, el, n / el if el > 0 else 0.0)


def _kernel_moves(pos: Position, legal) -> list[Move]:
    from .moves import kernel_order

    by = {m._xor: m for m in legal}
    return [by[t] for t in kernel_order(pos.white, pos.black, pos.kings, pos.turn)]


def _pv_moves(pos: Position, triples) -> list[Move]:
    """The PV's (a, b, c) triples as moves, as far as they are legal in turn."""
    return line_moves(pos.white, pos.black, pos.kings, pos.turn, triples)


#: Depths from ``ASP_DEPTH`` on are searched with a window of ``ASP_WINDOW`` milli-men either side of the last
#: depth's score, widened four times on the failing side (to the full window past a win) until the score falls
#: inside: 6% fewer nodes to depth 12 (geometric mean of 80 positions of engine games). In exact mode too (no
#: table cut-offs there, so the value found is the same).
ASP_DEPTH = 4
ASP_WINDOW = 500


def expected_moves(pieces: int) -> float:
    """The moves a side is expected still to play with ``pieces`` pieces on the board, for a clock without
    moves to go: 18 + 1.5 a piece (78 from the start position), the mean moves left by the pieces on the board
    over the 790 games of five 158-game matches against Moby Dam (78.6 with 40 pieces, 49.5 with 20, 26.8
    with 6), an overestimate of 30% or less from 6 pieces up."""
    return 18.0 + 1.5 * pieces


def _budget(time, remaining, increment, moves_to_go, pieces=40, fixed_moves=0):
    """(hard limit, soft limit) in seconds: no new depth starts after the soft one; the search stops at the
    hard one. A clock: about remaining / moves to go plus the increment a move; without moves to go, the moves
    left are ``expected_moves(pieces)`` (``fixed_moves``, when not 0, for experiments)."""
    hard = soft = None
    if time is not None:  # the stop is set a little early: ending the search and its result take some time
        # a depth stopped part way still gives its best move (see ``_run``): start one until the stop
        hard = time - min(max(MOVE_TIME_MARGIN, min(MOVE_TIME_MARGIN_SHARE * time, MOVE_TIME_MARGIN_MAX)),
                          MOVE_TIME_MARGIN_FRACTION * time)
        soft = hard
    if remaining is not None:
        mtg = moves_to_go if moves_to_go is not None else (fixed_moves or expected_moves(pieces))
        alloc = remaining / mtg + 0.8 * increment
        h = max(min(2.5 * alloc, 0.4 * remaining + 0.8 * increment, 0.8 * remaining), min(0.005, 0.4 * remaining))
        s = min(0.6 * alloc, h)
        hard = h if hard is None else min(hard, h)
        soft = s if soft is None else min(soft, s)
    return hard, soft


def search(position, depth=None, time=None, nodes=None, threads: int = 1, **kw) -> SearchResult:
    """``Engine(threads).search(position, depth, time, nodes, **kw)`` (a fresh table each call)."""
    hash_mb = kw.pop("hash_mb", 16)
    weights = kw.pop("weights", None)
    patterns = kw.pop("patterns", None)
    return Engine(threads=threads, hash_mb=hash_mb, weights=weights, patterns=patterns).search(
        position, depth, time, nodes, **kw)


_searcher[0] = search


def play_game(engine_a, engine_b, start=None, time=None, max_plies: int = 400) -> Game:
    """A game between two engines (:class:`Engine` objects or callables ``position -> Move``): ``engine_a``
    plays the side to move at ``start`` (a FEN or :class:`Position`; default the initial position). ``time``:
    seconds a move for :class:`Engine` players (else their own defaults). Ends at a rule's end of the game
    (:meth:`Position.outcome`) or after ``max_plies`` plies (result ``*``). Returns a :class:`Game` whose
    headers name the players; ``write_pdn(game)`` gives its PDN."""
    time = _seconds("time", time)
    max_plies = _whole("max_plies", max_plies, 0, 100_000, none_ok=False)
    for e in (engine_a, engine_b):
        if not callable(e):
            raise EngineError(f"players must be Engine objects or callables position -> Move, got {quote(e)}")
    start = _position(start) if start is not None else Position.initial()
    names = [getattr(e, "name", None) or getattr(e, "__name__", None) or type(e).__name__
             for e in (engine_a, engine_b)]
    side_a = start.turn
    white, black = (names[0], names[1]) if side_a else (names[1], names[0])
    game = Game(start, headers={"Event": "numba_words play_game", "White": white, "Black": black})
    for e in (engine_a, engine_b):
        if isinstance(e, Engine):
            e.new_game()
    pos = game.end()
    for _ in range(max_plies):
        if pos.outcome() is not None:
            break
        player = engine_a if pos.turn == side_a else engine_b
        if isinstance(player, Engine) and time is not None:
            move = player.search(pos, time=time).move
        else:
            move = player(pos)
        if isinstance(move, str):
            try:
                move = pos.parse_move(move)
            except DraughtsError:
                pass
        if not isinstance(move, Move) or move not in pos.legal_moves:
            raise EngineError(f"player {names[0] if player is engine_a else names[1]} gave an illegal move "
                              f"{quote(move)} in {pos.fen()!r}")
        game.play(move)
        pos.push(move)
    out = pos.outcome()
    game.result = out.result() if out is not None else "*"
    if out is not None:
        game.headers["Termination"] = out.termination
    return game


def warmup() -> None:
    """Compile (or load from Numba's cache) the search and evaluation kernels."""
    Engine(hash_mb=1).search(Position.initial(), depth=2)
