"""The wrapper around the perft kernels: validation, thread count, frontier split, progress; ``perft``,
``divide``, ``perft_tasks`` (the Dask path) and ``warmup``.

Counting convention: a *move* is a distinct (from-square, to-square, captured-set) triple. Capture sequences
that take the same pieces between the same squares by different routes count once (the convention of the
published numbers: BikDam, damforum perft threads; see ``data/draughts/SOURCES.md``).

How a deep perft runs: the tree is cut at a *frontier* a few plies below the root, deep enough that each
frontier subtree is small (about ``SUBTREE_NODES`` nodes, estimated from the frontier's growth) and that
there are many of them per thread. Worker threads (``threads=``) take chunks of subtrees from a shared
counter and count them with the serial kernel, which releases the GIL; chunks grow or shrink to take about
``CHUNK_SECONDS``. The calling thread only waits, in short steps, and reports progress: Ctrl-C stops a run
at once (the workers finish their current chunk and stop), and a thread that finishes early takes more
work, so nothing waits for the slowest thread but the very last chunk.
"""
from __future__ import annotations

import math
import threading
import time
from typing import Callable

import numpy as np

from .. import _progress
from .._jit import threads as _threads
from .errors import DraughtsError, quote
from .moves import kernel_order
from .position import Position

#: Subtrees per thread the frontier must have at least (so the last chunk's wait stays short).
FRONTIER_PER_THREAD = 64
#: Aim for frontier subtrees of about this many nodes (estimated): large enough that the per-subtree cost
#: (one workspace allocation) vanishes, small enough that chunks stay short.
SUBTREE_NODES = 1 << 22
#: Never hold more frontier positions than this (33 bytes each).
MAX_FRONTIER = 1 << 21
#: Below this many estimated nodes the whole count is one kernel call in the calling thread.
INLINE_NODES = 1 << 21
#: Target length of one kernel call in a worker thread, and the calling thread's wait step.
CHUNK_SECONDS = 0.05
POLL_SECONDS = 0.05
#: Deepest perft accepted (the kernels' per-ply workspace is 24 KiB a ply).
MAX_DEPTH = 500
#: Distributed defaults, functions of the tree only (never of the cluster), so that a checkpoint written on
#: one cluster resumes on any other: split where the frontier has at least ``SPLIT_FRONTIER`` subtrees, one
#: task per ``TASK_NODES`` estimated nodes (about 0.5-1 s on one core), at most ``MAX_TASKS`` tasks.
SPLIT_FRONTIER = 1024
TASK_NODES = 1 << 27
MAX_TASKS = 4096


# ---- validation ------------------------------------------------------------------------------------------
def _position(position) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position.from_fen(position)
    raise DraughtsError(f"expected a Position or a FEN string, got {quote(position)}")


def _depth(depth) -> int:
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or not 0 <= depth <= MAX_DEPTH:
        raise DraughtsError(f"depth must be a whole number from 0 to {MAX_DEPTH}, got {quote(depth)}")
    return int(depth)


def _flag(name, value) -> bool:
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
        return bool(value)
    raise DraughtsError(f"{name} must be True or False, got {quote(value)}")


def _check(position, depth, leaves=False, progress=None, client=None, split_depth=None, n_tasks=None,
           checkpoint=None):
    """Validate every argument before any work; returns ``(position, depth, leaves)``."""
    position, depth, leaves = _position(position), _depth(depth), _flag("leaves", leaves)
    if not (progress is None or isinstance(progress, (bool, np.bool_)) or callable(progress)):
        raise DraughtsError(f"progress must be True, False or a callable, got {quote(progress)}")
    if client is None:
        for name, v in (("split_depth", split_depth), ("n_tasks", n_tasks), ("checkpoint", checkpoint)):
            if v is not None:
                raise DraughtsError(f"{name}= is for distributed runs: give client= as well (a Dask Client or a "
                                    f"scheduler address)")
    return position, depth, leaves


# ---- the tree split --------------------------------------------------------------------------------------
def _root(position: Position):
    """Root arguments of the kernels, in the dtypes the kernels compile for (one specialisation each)."""
    own, opp = (position.white, position.black) if position.turn else (position.black, position.white)
    return np.uint64(own), np.uint64(opp), np.uint64(position.kings), bool(position.turn)


def _frontier(root, fdepth, cap=1024):
    from ._search import frontier_kernel

    while True:
        fo, fp, fk, fw, fr, n = frontier_kernel(*root, fdepth, cap)
        if n == -2:
            raise DraughtsError("move list overflow")
        if n >= 0:
            return fo[:n], fp[:n], fk[:n], fw[:n], fr[:n]
        cap *= 8


class _Split:
    """The frontier ``fdepth`` plies below the root (arrays ``f``: own, opp, kings, white, root-move index)
    and the estimated size of one subtree below it (from the frontier's geometric growth)."""

    def __init__(self, fdepth, f, depth):
        self.fdepth, self.f = fdepth, f
        self.n = len(f[0])
        self.rem = depth - fdepth
        self.branching = self.n ** (1.0 / fdepth) if self.n > 1 else 1.0
        self.subtree = math.exp(min(self.rem * math.log(self.branching), 700.0))  # no float overflow
        self.total = self.n * self.subtree


def _split(root, depth, want, min_fdepth=1, subtree=SUBTREE_NODES) -> _Split:
    """The shallowest frontier (at most ``depth - 1`` plies) with at least ``want`` subtrees of at most about
    ``subtree`` nodes, short of ``MAX_FRONTIER`` positions; or the first one whose whole tree is small enough
    for one kernel call (``INLINE_NODES``)."""
    fdepth = max(1, min_fdepth)
    s = _Split(fdepth, _frontier(root, fdepth), depth)
    while s.fdepth < depth - 1 and s.n > 0 and (s.n < want or s.subtree > subtree):
        if s.n * max(s.branching, 2.0) > MAX_FRONTIER or (subtree == SUBTREE_NODES and s.total <= INLINE_NODES):
            break
        nxt = s.fdepth + 1
        s = _Split(nxt, _frontier(root, nxt, cap=max(1024, int(s.n * s.branching * 2))), depth)
    return s


# ---- running the subtrees --------------------------------------------------------------------------------
def _perft_many(fo, fp, fk, fw, rem, leaves):
    """The perft kernel on every frontier position given (arrays): an ``int64`` array of counts.

    A Python loop, not a kernel: each call is a whole subtree (milliseconds), so the loop costs nothing
    measurable, and a kernel around the perft kernel would compile (optimise) all of its code once more.
    The kernel releases the GIL, so worker threads run it in parallel."""
    from ._search import BULK, LEAVES, NO_OUT, walk_kernel, workspace

    out = np.zeros(len(fo), dtype=np.int64)
    if rem <= 0:
        out[:] = 1
        return out
    rem, mode, ws = np.int64(rem), np.int64(LEAVES if leaves else BULK), workspace(rem)
    for i in range(len(fo)):  # the arrays' items have the kernel's argument types (_search._args)
        out[i] = walk_kernel(fo[i], fp[i], fk[i], bool(fw[i]), rem, mode, NO_OUT, ws)
    return out


class _Pool:
    """Count subtrees ``f`` (rem plies each) on ``n`` worker threads, chunk by chunk; see the module docs."""

    def __init__(self, f, rem, leaves, n):
        self.f, self.rem, self.leaves, self.n = f[:4], np.int64(rem), bool(leaves), n
        self.total = len(f[0])
        self.out = np.zeros(self.total, dtype=np.int64)
        self.lock = threading.Lock()
        self.next = 0
        self.done = 0
        self.nodes = 0
        self.stop = False
        self.error: BaseException | None = None

    def _take(self, size):
        with self.lock:
            lo = self.next
            if self.stop or lo >= self.total:
                return lo, lo
            # keep the tail fine-grained: no chunk larger than a fair share of what is left
            size = max(1, min(size, (self.total - lo) // (2 * self.n)))
            self.next = hi = min(self.total, lo + size)
            return lo, hi

    def _work(self):
        fo, fp, fk, fw = self.f
        size = 1
        try:
            while True:
                lo, hi = self._take(size)
                if hi <= lo:
                    return
                t = time.perf_counter()
                part = _perft_many(fo[lo:hi], fp[lo:hi], fk[lo:hi], fw[lo:hi], self.rem, self.leaves)
                dt = time.perf_counter() - t
                self.out[lo:hi] = part
                with self.lock:
                    self.done += hi - lo
                    self.nodes += int(part.sum())
                size = max(1, min(4 * size, int(size * CHUNK_SECONDS / max(dt, 1e-6))))
        except BaseException as e:  # pragma: no cover - a kernel error; re-raised in the calling thread
            self.error = e
            self.stop = True

    def run(self, report=None):
        workers = [threading.Thread(target=self._work, daemon=True, name=f"perft-{i}") for i in range(self.n)]
        for w in workers:
            w.start()
        try:
            for w in workers:
                while w.is_alive():
                    w.join(POLL_SECONDS)
                    if report is not None:
                        report(self.done, self.total, self.nodes)
        except BaseException:
            self.stop = True  # Ctrl-C (or a failing progress callback): workers stop after their chunk
            raise
        if self.error is not None:
            raise self.error
        if report is not None:
            report(self.done, self.total, self.nodes)
        return self.out


def _reporter(progress, desc, unit="subtrees"):
    """``report(done, total, nodes)`` for ``progress``: a callable gets ``(done, total, nodes, seconds)``;
    ``True`` shows a progress bar (``numba_words._progress``) once a run has taken half a second."""
    if progress is None or (isinstance(progress, (bool, np.bool_)) and not progress):
        return None, lambda: None
    t0 = time.perf_counter()
    if callable(progress) and not isinstance(progress, (bool, np.bool_)):
        return (lambda done, total, nodes: progress(done, total, nodes, time.perf_counter() - t0)), lambda: None
    state = {"bar": None, "n": 0}

    def report(done, total, nodes):
        if state["bar"] is None:
            if time.perf_counter() - t0 < 0.5:
                return
            state["bar"] = _progress.bar(total, desc=desc, unit=unit)
        state["bar"].update(done - state["n"])
        state["n"] = done

    def close():
        if state["bar"] is not None:
            state["bar"].close()

    return report, close


def _count(f, rem, leaves, n_threads, progress=None, desc="", inline=False):
    """Perft of every frontier position of ``f`` (``rem`` plies each): one array of counts, in frontier order.
    ``inline``: one kernel call in the calling thread (for small trees, where threads cost more than they
    give); else the worker threads of :class:`_Pool`."""
    if len(f[0]) == 0:
        return np.zeros(0, dtype=np.int64)
    report, close = _reporter(progress, desc)
    try:
        if inline and report is None:
            out = _perft_many(*f[:4], np.int64(rem), bool(leaves))
        else:
            out = _Pool(f, rem, leaves, n_threads).run(report)
    finally:
        close()
    if (out < 0).any():
        raise DraughtsError("move list overflow during perft")
    return out


# ---- public functions ------------------------------------------------------------------------------------
def perft(position: Position | str, depth: int, threads: int | None = None, leaves: bool = False,
          progress: bool | Callable | None = None, client=None, *, split_depth: int | None = None,
          n_tasks: int | None = None, checkpoint=None) -> int:
    """Number of move paths of length ``depth`` from ``position`` (a :class:`Position` or a FEN string).

    A capture counts once per from-square, to-square and set of captured pieces (the convention of the
    published counts). Ctrl-C stops a run within a fraction of a second at any depth.

    Parameters
    ----------
    position : Position or str
        The root: a position or its FEN text.
    depth : int
        Plies to count, ``>= 0`` (``perft(p, 0) == 1``).
    threads : int, optional
        Worker threads (``None``: Numba's thread count; at most the machine's cores).
    leaves : bool
        ``False`` counts the last ply's moves without making them (bulk counting); ``True`` makes every leaf.
    progress : bool or callable, optional
        ``True`` shows a progress bar on a terminal or in a notebook once a run takes half a second; a callable
        gets ``(done_subtrees, total_subtrees, nodes_so_far, seconds)`` as subtrees finish.
    client : dask.distributed.Client or str, optional
        A Dask client or scheduler address: the subtrees are counted on the cluster (the same count).
    split_depth, n_tasks, checkpoint : optional
        As in :func:`perft_tasks` (only with ``client``).

    Returns
    -------
    int
        The number of leaf nodes.

    Raises
    ------
    InvalidFenError
        If ``position`` is text that is not a valid FEN.
    DraughtsError
        If ``depth`` or another argument is out of range, or the distributed options come without ``client``.

    Examples
    --------
    >>> perft("W:W31-50:B1-20", 4)
    4265
    """
    position, depth, leaves = _check(position, depth, leaves, progress, client, split_depth, n_tasks, checkpoint)
    with _threads(threads) as n_threads:
        if client is not None and depth > 1:
            counts, _, _ = perft_tasks(position, depth, client, split_depth=split_depth, n_tasks=n_tasks,
                                       leaves=leaves, checkpoint=checkpoint, progress=_task_progress(progress))
            return int(counts.sum())
        root = _root(position)
        if depth <= 2:
            from ._search import perft_kernel

            n = perft_kernel(*root, np.int64(depth), leaves)
            if n < 0:
                raise DraughtsError(f"move list overflow during perft of {position.fen()!r}")
            return int(n)
        s = _split(root, depth, FRONTIER_PER_THREAD * n_threads)
        return int(_count(s.f, s.rem, leaves, n_threads, progress, f"perft {depth}", s.total <= INLINE_NODES).sum())


def divide(position: Position | str, depth: int, threads: int | None = None, leaves: bool = False,
           progress: bool | Callable | None = None, client=None, *, split_depth: int | None = None,
           n_tasks: int | None = None, checkpoint=None) -> dict:
    """``{move notation: perft(child, depth - 1)}`` for every legal move, in generation order.

    Parameters and errors as in :func:`perft` (``client`` to run the subtrees on a Dask cluster); ``depth``
    must be at least 1.

    Returns
    -------
    dict
        Move notation to the node count below that move; the values add up to ``perft(position, depth)``.

    Examples
    --------
    >>> divide("W:W31-50:B1-20", 2)["32-28"]
    9
    """
    position, depth, leaves = _check(position, depth, leaves, progress, client, split_depth, n_tasks, checkpoint)
    if depth < 1:
        raise DraughtsError(f"divide needs depth >= 1, got {depth!r}")
    with _threads(threads) as n_threads:
        moves = list(position.legal_moves)
        if depth == 1:
            return {m.notation: 1 for m in moves}
        if client is not None:
            counts, fr, _ = perft_tasks(position, depth, client, split_depth=split_depth, n_tasks=n_tasks,
                                        leaves=leaves, checkpoint=checkpoint, progress=_task_progress(progress))
        else:
            s = _split(_root(position), depth, FRONTIER_PER_THREAD * n_threads, min_fdepth=1)
            counts = _count(s.f, s.rem, leaves, n_threads, progress, f"divide {depth}", s.total <= INLINE_NODES)
            fr = s.f[4]
    order = kernel_order(position.white, position.black, position.kings, position.turn)
    per_root = np.zeros(len(order), dtype=np.int64)
    np.add.at(per_root, fr, counts)  # fr: index of the root move in the generator's order
    # equal (a, b, c) triples are moves to the same position (pieces coming home after taking the same
    # pieces): their subtrees are equal, so any pairing of the two lists is right
    by_xor: dict = {}
    for x, c in zip(order, per_root):
        by_xor.setdefault(x, []).append(int(c))
    return {m.notation: by_xor[m._xor].pop() for m in moves}


def _task_progress(progress):
    """``perft_tasks``' ``progress(done, total, seconds)`` from a ``perft``-style ``progress`` argument."""
    report, close = _reporter(progress, "perft", unit="tasks")
    if report is None:
        return None

    def tick(done, total, seconds):
        report(done, total, 0)
        if done >= total:
            close()

    return tick


def _count_chunk(chunk, rem, leaves):
    """Worker side of :func:`perft_tasks`: perft of each frontier position of one chunk, on the worker's
    threads (set by the distributed layer)."""
    import numba

    n = numba.get_num_threads()
    return _count(tuple(chunk), rem, leaves, n, inline=n == 1)


def _whole(name, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise DraughtsError(f"{name} must be a whole number from {lo} to {hi}, got {quote(v)}")
    return int(v)


def perft_tasks(position: Position | str, depth: int, client, *, split_depth: int | None = None,
                n_tasks: int | None = None, leaves: bool = False, checkpoint=None, progress: Callable | None = None):
    """Perft on a Dask cluster: ``(counts per frontier position, root-move index of each, info dict)``.

    The tree is split at ``split_depth`` (default: the first depth with at least ``SPLIT_FRONTIER`` subtrees)
    into ``n_tasks`` chunks (default: one per ``TASK_NODES`` estimated nodes, at most ``MAX_TASKS``). Both
    defaults depend on the position and depth only, never on the cluster, so ``checkpoint`` (a file where
    finished chunks are recorded) resumes a run on a cluster of any size: a re-run with the same position,
    depth, leaves and split picks up the chunks already counted. ``progress(done, total, seconds)`` is called as
    chunks finish.
    """
    from .. import distributed as D

    position, depth, leaves = _check(position, depth, leaves, None, client, split_depth, n_tasks, checkpoint)
    if progress is not None and not callable(progress):
        raise DraughtsError(f"progress must be a callable progress(done, total, seconds), got {quote(progress)}")
    if depth < 2:
        raise DraughtsError(f"a distributed perft needs depth >= 2, got {depth}")
    client = D.get_client(client)
    root = _root(position)
    if split_depth is None:
        s = _split(root, depth, SPLIT_FRONTIER, subtree=math.inf)
    else:
        if isinstance(split_depth, bool) or not isinstance(split_depth, (int, np.integer)) or \
                not 1 <= split_depth <= depth - 1:
            raise D.DistributedError(f"split depth must be between 1 and depth - 1 = {depth - 1}, "
                                     f"got {quote(split_depth)}")
        s = _Split(int(split_depth), _frontier(root, int(split_depth)), depth)
    fo, fp, fk, fw, fr = s.f
    n = s.n
    if n == 0:
        return np.zeros(0, np.int64), fr, {"fen": position.fen(), "depth": depth, "split_depth": s.fdepth,
                                           "leaves": leaves, "frontier": 0, "tasks": 0, "resumed_tasks": 0,
                                           "seconds": 0.0, "threads": D.cluster_threads(client)}
    if n_tasks is None:
        n_tasks = min(n, MAX_TASKS, max(1, math.ceil(min(s.total / TASK_NODES, MAX_TASKS))))
    n_tasks = _whole("n_tasks", n_tasks, 1, 10**9)
    n_tasks = min(n_tasks, n)
    bounds = np.linspace(0, n, n_tasks + 1).astype(np.int64)
    chunks = [(fo[a:b], fp[a:b], fk[a:b], fw[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    header = {"fen": position.fen(), "depth": depth, "split_depth": s.fdepth, "leaves": leaves,
              "frontier": n, "tasks": n_tasks}
    ck = None
    if checkpoint is not None:
        ck = D.Checkpoint(checkpoint, header, expect=lambda i: int(bounds[i + 1] - bounds[i]) if i < n_tasks else -1)
    resumed = len(ck.done) if ck is not None else 0
    t0 = time.perf_counter()
    tick = None if progress is None else (lambda done, total: progress(done, total, time.perf_counter() - t0))
    parts = D.map_chunks(_count_chunk, chunks, client, broadcast=(depth - s.fdepth, leaves),
                         checkpoint=ck, name=f"perft{depth}", progress=tick)
    counts = np.concatenate([np.asarray(p, dtype=np.int64) for p in parts])
    if (counts < 0).any():
        raise DraughtsError("move list overflow during perft")
    info = dict(header, resumed_tasks=resumed, seconds=time.perf_counter() - t0, threads=D.cluster_threads(client))
    return counts, fr, info


def warmup() -> None:
    """Compile (or load from Numba's cache) every kernel perft, divide and the Position API use."""
    from ._search import perft_kernel

    p = Position.initial()
    list(p.legal_moves)
    root = _root(p)
    for leaves in (False, True):
        perft_kernel(*root, np.int64(2), leaves)
        f = _frontier(root, 1)
        _perft_many(*f[:4], np.int64(2), leaves)
