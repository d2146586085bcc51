"""Monte-Carlo simulation (:func:`simulate`, :meth:`Position.simulate`): which of the top plays by static
equity does best when the game is played on a few plies with random draws.

Each iteration draws the opponent's rack (what of it :attr:`Position.opp_rack` does not fix) and the later draws
from the unseen tiles; every live candidate is played out from the same draws (see :mod:`._sim`), so candidates
are compared on the same racks. Outcomes are points from the mover's side: spread + leftover (leave values of the
last two moves). Iterations run in batches of :data:`BATCH`; after each batch (once every live candidate has
``min_iterations``) a candidate whose mean is behind the best's by more than ``z`` standard errors of the
difference is dropped, and the run stops at ``iterations``, at the ``time`` budget (seconds), or when one
candidate is left. Iteration ``i`` depends only on ``seed`` and ``i``: the same estimates at any thread count
and over a Dask cluster (``client=``), whose workers take the batches' iterations in chunks.
"""
from __future__ import annotations

import math
import time as _time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from .._jit import threads as _threads
from . import _sim
from ._autoplay import game_tables
from ._board import BEST_SEARCH
from ._tables import SIZE, span_table
from .errors import ScrabbleError, short
from .leaves import Exchange, exchange_options, rack_kinds, variant_arrays
from .plays import Play

BATCH = 64
"""Iterations between two looks at the candidates (the pruning rule sees the same numbers at any thread count)."""


def _mean_se(total: float, sq: float, n: int) -> tuple:
    mean = total / n
    se = math.sqrt(max(0.0, (sq - n * mean * mean) / (n - 1)) / n) if n > 1 else float("inf")
    return mean, se


@dataclass
class Candidate:
    """One simulated move (a :class:`Play` or an :class:`~.leaves.Exchange`): its static ``equity``, the
    ``mean`` outcome (points) and its standard error ``stderr``, with a win table the mean win probability
    ``win`` and its ``win_stderr``; ``iterations`` played out, and whether it was ``dropped`` as statistically
    behind."""

    play: Play
    equity: float
    mean: float = 0.0
    stderr: float = float("inf")
    iterations: int = 0
    dropped: bool = False
    win: float = float("nan")
    win_stderr: float = float("inf")
    _sum: float = field(default=0.0, repr=False)
    _sq: float = field(default=0.0, repr=False)
    _wsum: float = field(default=0.0, repr=False)
    _wsq: float = field(default=0.0, repr=False)

    def add(self, xs: np.ndarray, wins: np.ndarray | None = None) -> None:
        xs = xs.astype(np.float64) / 1000
        self._sum += float(xs.sum())
        self._sq += float((xs * xs).sum())
        self.iterations += len(xs)
        self.mean, self.stderr = _mean_se(self._sum, self._sq, self.iterations)
        if wins is not None:
            self._wsum += float(wins.sum())
            self._wsq += float((wins * wins).sum())
            self.win, self.win_stderr = _mean_se(self._wsum, self._wsq, self.iterations)

    def key(self) -> tuple:
        """What ranks candidates: win probability first when there is one, then the mean outcome."""
        return (0.0 if math.isnan(self.win) else self.win, self.mean)

    def behind(self, top: "Candidate", z: float) -> bool:
        """Whether this candidate is more than ``z`` standard errors of the difference behind ``top`` (in win
        probability when both have one and it differs, else in mean outcome)."""
        if not math.isnan(self.win) and top.win != self.win:
            return top.win - self.win > z * math.hypot(top.win_stderr, self.win_stderr)
        return top.mean - self.mean > z * math.hypot(top.stderr, self.stderr)

    def to_record(self) -> dict:
        return {"notation": self.play.notation, "score": self.play.score, "leave": self.play.leave,
                "equity": self.equity, "mean": self.mean, "stderr": self.stderr, "iterations": self.iterations,
                "win": self.win, "win_stderr": self.win_stderr, "dropped": self.dropped}


class WinTable:
    """Win probability of the side on turn from the spread (points, its side) and the tiles it cannot see:
    a logistic curve per unseen count, ``p = 1 / (1 + exp(-(spread + a[u]) / s[u]))`` (``a``: the worth of
    being on turn, ``s``: the spread's spread). With the game over (``u == -1``) or nothing unseen: 1 for a
    lead, 1/2 for a tie, 0 behind. Fitted to self-play turns (:func:`.autoplay.win_samples`) by
    :meth:`fit`; read and written as text (``u a s`` a line, ``#`` comment lines)."""

    def __init__(self, a, s, name: str = ""):
        self.a = np.asarray(a, np.float64)
        self.s = np.asarray(s, np.float64)
        if self.a.shape != self.s.shape or self.a.ndim != 1 or not (self.s > 0).all():
            raise ScrabbleError("a win table needs two equal-length rows, a positive scale for every unseen count")
        self.name = name

    def __call__(self, spread, unseen) -> np.ndarray:
        x = np.asarray(spread, np.float64)
        u = np.asarray(unseen, np.int64)
        k = np.clip(u, 0, len(self.a) - 1)
        p = 1.0 / (1.0 + np.exp(-(x + self.a[k]) / self.s[k]))
        final = np.where(x > 0, 1.0, np.where(x < 0, 0.0, 0.5))
        return np.where(u <= 0, final, p)

    @classmethod
    def fit(cls, spread, unseen, outcome, *, size: int = 94, window: int = 3, name: str = "") -> "WinTable":
        """Fit ``a``/``s`` for each unseen count ``1 .. size - 1`` by logistic regression (Newton steps) on the
        turns within ``window`` unseen counts of it: ``outcome`` 1 win, 1/2 tie, 0 loss of the side on turn."""
        x = np.asarray(spread, np.float64)
        u = np.asarray(unseen, np.int64)
        y = np.asarray(outcome, np.float64)
        a = np.zeros(size)
        s = np.full(size, 1.0)
        for k in range(1, size):
            m = np.abs(u - k) <= window
            if m.sum() < 50:
                a[k], s[k] = a[k - 1], s[k - 1]
                continue
            X = np.stack([np.ones(m.sum()), x[m] / 100.0], 1)
            b = np.array([0.0, 1.0])
            for _ in range(30):
                p = 1.0 / (1.0 + np.exp(-(X @ b)))
                H = X.T @ (X * (p * (1 - p))[:, None]) + 1e-6 * np.eye(2)
                step = np.linalg.solve(H, X.T @ (y[m] - p))
                b += step
                if np.abs(step).max() < 1e-9:
                    break
            b1 = max(b[1], 1e-3)
            s[k] = 100.0 / b1
            a[k] = b[0] * s[k]
        a[0], s[0] = a[1], s[1]
        return cls(a, s, name)

    def to_text(self) -> str:
        return "".join(f"{k} {a:.4f} {s:.4f}\n" for k, (a, s) in enumerate(zip(self.a, self.s)))

    @classmethod
    def from_text(cls, text: str, name: str = "") -> "WinTable":
        try:
            rows = [[float(x) for x in line.split()] for line in text.splitlines()
                    if line.strip() and not line.startswith("#")]
            if any(len(r) != 3 or r[0] != i for i, r in enumerate(rows)):
                raise ValueError
        except ValueError:
            raise ScrabbleError("a win table is lines 'u a s' for u = 0, 1, 2, ...") from None
        return cls([r[1] for r in rows], [r[2] for r in rows], name)


WIN_PACKAGED = {"scrabble": "twl06_winpct.txt"}
"""Win tables shipped in ``numba_words/data``, by variant."""


def default_win_table(variant) -> WinTable:
    """The win table shipped for the variant (:data:`WIN_PACKAGED`)."""
    from importlib import resources

    fname = WIN_PACKAGED.get(variant.name)
    ref = resources.files("numba_words") / "data" / fname if fname else None
    if ref is None or not ref.is_file():
        raise ScrabbleError(f"no win table is shipped for {variant.name!r}: pass win_table=WinTable(...)")
    return WinTable.from_text(ref.read_text(), name=fname)


@dataclass
class SimResult:
    """Candidates best first (live ones by mean, then the dropped ones), ``best`` (the top live candidate's play),
    ``iterations`` (of the run), ``playouts`` (candidate playouts made), ``seconds``, ``history``
    (``(iterations, means, stderrs)`` after each batch, for convergence plots)."""

    candidates: list
    iterations: int
    playouts: int
    seconds: float
    plies: int
    seed: int
    history: list

    @property
    def best(self) -> Play:
        """The candidate ranked first (a play or an exchange)."""
        return self.candidates[0].play

    def to_records(self) -> list:
        """One dict of plain values per candidate, best first."""
        return [c.to_record() for c in self.candidates]

    def summary(self) -> str:
        """A text table of the candidates: score, static equity, simulated mean with its standard error, win rate, iterations."""
        lines = [f"{self.iterations} iterations, {self.plies} plies, {self.playouts} playouts in {self.seconds:.2f} s"]
        for c in self.candidates:
            mark = " (dropped)" if c.dropped else ""
            lines.append(f"  {c.play.notation:<24} {c.play.score:>4}  eq {c.equity:7.2f}  sim {c.mean:8.2f} "
                         f"+- {c.stderr:5.2f}" + ("" if math.isnan(c.win) else f"  win {100 * c.win:5.1f}% +- "
                         f"{100 * c.win_stderr:4.1f}") + f"  n {c.iterations}{mark}")
        return "\n".join(lines)


def _whole(x, what, lo):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < lo:
        raise ScrabbleError(f"{what} must be a whole number >= {lo}, got {short(x)}")
    return int(x)


class _Setup:
    """Everything a batch of playouts reads, as arrays (also what a Dask worker receives)."""

    def __init__(self, position, plays, plies, seed):
        v = position.variant
        b = position.board
        lex = position.lexicon
        leaves = position.leaves
        n = len(plays)
        cmeta = np.zeros((n, 6), np.int32)
        cwords = np.zeros((n, SIZE), np.uint8)
        cbm = np.zeros(n, np.uint16)
        cnm = np.zeros(n, np.uint16)
        rk = rack_kinds(v, position.rack)
        stride = np.cumprod(np.concatenate([[1], rk[:-1] + 1]))  # mixed radix of kept leaves (absent kinds: 0)
        for i, p in enumerate(plays):
            if isinstance(p, Exchange):
                cmeta[i, 0] = int((rack_kinds(v, p.leave) * stride).sum())
                cmeta[i, 2] = _sim.EXCHANGE
                continue
            r = p._row
            cmeta[i] = (r["row"], r["col"], r["dir"], r["length"], r["score"], r["tiles"])
            cwords[i] = r["word"]
            cbm[i] = r["blanks"]
            cnm[i] = r["new"]
        cleave = np.array([int(round(leaves[p.leave] * 1000)) if position.bag_size() > 0 else 0 for p in plays],
                          np.int64)
        unseen = Counter(position.unseen()) - Counter(position.opp_rack)
        kinds = "?" + v.alphabet
        bag = np.array([kinds.index(ch) for ch in sorted(unseen.elements())], np.int64)
        tile_pts, vowel, pen = variant_arrays(v)
        milli, caps, G, P, R = leaves._kernel_args()
        self.arrays = (cmeta, cwords, cbm, cnm, cleave, np.int64(plies), b._lines, b._fv, b._occ, b._cc, b._xs,
                       rack_kinds(v, position.rack), rack_kinds(v, position.opp_rack), bag, np.int64(v.rack_size),
                       np.int64(v.bingo), tile_pts, vowel, pen, milli, caps, G, P, R, b._lm, b._wm, b._values, b.dawg,
                       span_table(), game_tables(lex), b.checks)
        self.seed = np.int64(seed)


def _run(setup_arrays, seed, first, n, live):
    out = np.zeros((n, 2 * len(live)), np.int64)
    _sim.playouts(seed, np.int64(first), np.int64(n), np.asarray(live, np.int64), *setup_arrays, out)
    return out


def _inferred(position, infer, setup) -> tuple:
    """``(cumulative weights, per-leave setup arrays)`` of the leaves of an :class:`~.infer.Inference` that the
    unseen tiles can hold: each leave's arrays fix it as the opponent's known tiles and take it out of the bag."""
    from .infer import Inference

    if not isinstance(infer, Inference):
        raise ScrabbleError(f"simulate: infer must be an Inference (numba_words.scrabble.infer), got {short(infer)}")
    if position.opp_rack:
        raise ScrabbleError("simulate: infer= needs the opponent's rack unknown (Position.opp_rack empty)")
    v = position.variant
    unseen = Counter(position.unseen())
    kinds = "?" + v.alphabet
    cum, arrays = [], []
    total = 0
    for leave, w in infer.leaves:
        rest = unseen - Counter(leave)
        if len(leave) > v.rack_size or sum(rest.values()) != sum(unseen.values()) - len(leave):
            continue  # a tile of the leave is not unseen any more
        bag = np.array([kinds.index(ch) for ch in sorted(rest.elements())], np.int64)
        a = setup.arrays
        arrays.append(a[:12] + (rack_kinds(v, leave), bag) + a[14:])
        total += w
        cum.append(total)
    if not arrays:
        raise ScrabbleError("simulate: no leave of the inference fits the unseen tiles of this position")
    return np.array(cum, np.float64) / total, arrays


def _run_inferred(setup, inferred, first, n, live, threads):
    """Iterations ``first .. first + n - 1``, each with the opponent's leave drawn from the inference (iteration
    ``i``'s leave depends only on the seed and ``i``), each run on the leave's arrays."""
    cum, arrays = inferred
    out = np.zeros((n, 2 * len(live)), np.int64)
    with _threads(threads):
        for j in range(n):
            u = np.random.default_rng([int(setup.seed), first + j, 0x1F3]).random()
            k = min(int(np.searchsorted(cum, u, side="right")), len(cum) - 1)
            out[j] = _run(arrays[k], setup.seed, first + j, 1, live)[0]
    return out


def _sim_chunk(chunk, setup_arrays):
    """Worker side of ``client=``: iterations ``first .. first + n - 1`` for the live candidates."""
    seed, first, n, live = chunk
    return _run(setup_arrays, seed, first, n, live)


def simulate(position, candidates: int = 15, plies: int = 2, iterations: int = 1000, *, time: float | None = None,
             threads: int | None = None, seed: int = 0, client=None, z: float = 2.576, min_iterations: int = 128,
             chunk_size: int = 16, exchanges: bool = True, win_table=None, progress=None,
             on_batch=None, infer=None, include=()) -> SimResult:
    """Simulate the top ``candidates`` plays of ``position`` by static equity for ``iterations`` iterations
    (``plies`` replies each) or ``time`` seconds, dropping candidates more than ``z`` standard errors behind
    once each has ``min_iterations``. ``threads``: Numba threads; ``client``: a Dask client or address (then
    ``chunk_size`` iterations per task). ``exchanges``: exchanges compete for the candidate places by static
    equity too (with >= 7 tiles in the bag). ``win_table``: ``True`` (the variant's shipped table) or a
    :class:`WinTable`: each playout also scores the win probability of its final spread (the game's spread
    included) and unseen tiles, and candidates rank and drop by it first (as MAGPIE does); ``None``: by the
    mean outcome. ``progress``: ``update(n)`` told of finished iterations. ``on_batch``: called after each batch
    with the :class:`SimResult` so far; a true return value stops the run there (the notebook widget's stop).
    ``infer``: an
    :class:`~.infer.Inference` of the opponent's last play (:func:`.infer.infer`): each iteration draws the leave
    the opponent kept from it (by weight, among the leaves the unseen tiles can hold) and the rest of their rack
    from the bag (the opponent's rack must be unknown; not with ``client``). ``include``: moves of ``position`` (a
    :class:`Play` or :class:`~.leaves.Exchange`) simulated besides the top candidates (the move made in a game, as
    MAGPIE's analysis does)."""
    from .endgame import _is_position

    if not _is_position(position):
        raise ScrabbleError(f"simulate: expected a Position, got {short(position)}")
    candidates = _whole(candidates, "candidates", 1)
    plies = _whole(plies, "plies", 1)
    if plies > 20:
        raise ScrabbleError(f"plies must be at most 20, got {plies}")
    iterations = _whole(iterations, "iterations", 1)
    seed = _whole(seed, "seed", 0)
    if seed >= 1 << 63:
        raise ScrabbleError(f"seed must be below 2**63, got {seed}")
    min_iterations = _whole(min_iterations, "min_iterations", 1)
    chunk_size = _whole(chunk_size, "chunk_size", 1)
    if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0):
        raise ScrabbleError(f"time must be a positive number of seconds, got {short(time)}")
    if isinstance(z, bool) or not isinstance(z, (int, float)) or not z > 0:
        raise ScrabbleError(f"z must be a positive number, got {short(z)}")
    if position.board.empty:
        raise ScrabbleError("simulate: the board is empty (plays there are all symmetric; simulate a later position)")
    if not position.rack:
        raise ScrabbleError("simulate: the rack on turn is empty")
    if position.bag_size() == 0 and position.opp_rack:
        raise ScrabbleError("simulate: the bag is empty and the opponent's rack known: use Position.endgame()")
    # a machine's first run: the replies' search compiles in a background process while the candidates are
    # generated here (the playout kernel then loads it from the cache: ~8 s less)
    compiling = client is None and not BEST_SEARCH.ready()
    plays = position.legal_plays().top(candidates, "equity")
    if exchanges:
        moves = [(round(p.equity * 1000), 0, i, p) for i, p in enumerate(plays)]
        moves += [(round(e.equity * 1000), 1, i, e) for i, e in enumerate(exchange_options(position)[:candidates])]
        plays = [m[3] for m in sorted(moves, key=lambda m: (-m[0], m[1], m[2]))[:candidates]]
    plays = list(plays)
    for m in include:
        if not isinstance(m, (Play, Exchange)):
            raise ScrabbleError(f"simulate: include must hold Play or Exchange moves, got {short(m)}")
        if all(p.notation != m.notation for p in plays):
            plays.append(m)
    if not plays:
        raise ScrabbleError(f"simulate: rack {position.rack!r} has no play on this board")
    cands = [Candidate(p, p.equity) for p in plays]
    wt = default_win_table(position.variant) if win_table is True else win_table or None
    if wt is not None and not isinstance(wt, WinTable):
        raise ScrabbleError(f"win_table must be True, None or a WinTable, got {short(win_table)}")
    lead = position.scores[0] - position.scores[1]
    setup = _Setup(position, plays, plies, seed)
    inferred = None if infer is None else _inferred(position, infer, setup)
    if inferred is not None and client is not None:
        raise ScrabbleError("simulate: infer= runs on this machine only (not with client=)")
    if compiling:
        BEST_SEARCH.wait()
    t0 = _time.perf_counter()
    done = 0
    playouts = 0
    history = []
    live = list(range(len(cands)))
    batch_time = 0.0
    while done < iterations and live:
        n = min(BATCH, iterations - done)
        if time is not None and done and _time.perf_counter() - t0 + batch_time > time:
            break
        t1 = _time.perf_counter()
        if client is not None:
            from .. import distributed as D

            chunks = [(setup.seed, done + a, min(chunk_size, n - a), np.array(live, np.int64))
                      for a in range(0, n, chunk_size)]
            out = np.concatenate(D.map_chunks(_sim_chunk, chunks, client, broadcast=(setup.arrays,),
                                              name="scrabble-sim"))
        elif inferred is not None:
            out = _run_inferred(setup, inferred, done, n, live, threads)
        else:
            with _threads(threads):
                out = _run(setup.arrays, setup.seed, done, n, live)
        batch_time = _time.perf_counter() - t1
        nl = len(live)
        for j, c in enumerate(live):
            wins = None
            if wt is not None:  # the side on turn at the end: the opponent after an even number of plies
                x = lead + out[:, j] / 1000.0
                u = out[:, nl + j]
                wins = wt(x, u) if plies % 2 else 1.0 - wt(-x, u)
            cands[c].add(out[:, j], wins)
        done += n
        playouts += n * len(live)
        if progress is not None:
            progress.update(n)
        history.append((done, [c.mean for c in cands], [c.stderr for c in cands]))
        if len(live) > 1 and min(cands[c].iterations for c in live) >= min_iterations:
            top = max(live, key=lambda c: cands[c].key())
            keep = []
            for c in live:
                if c != top and cands[c].behind(cands[top], z):
                    cands[c].dropped = True
                else:
                    keep.append(c)
            live = keep
            if len(live) == 1:
                break
        if on_batch is not None and on_batch(_result(cands, done, playouts, t0, plies, seed, history)):
            break
    return _result(cands, done, playouts, t0, plies, seed, history)


def _result(cands, done, playouts, t0, plies, seed, history) -> SimResult:
    """The candidates ranked (live ones by :meth:`Candidate.key`, then the dropped ones) in a :class:`SimResult`."""
    order = sorted(range(len(cands)), key=lambda c: (cands[c].dropped, tuple(-x for x in cands[c].key()), c))
    return SimResult([cands[c] for c in order], done, playouts, _time.perf_counter() - t0, plies, seed, list(history))
