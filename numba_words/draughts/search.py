"""The wrapper around the perft kernels: validation, thread count, frontier split, progress; ``perft``,
``divide``, ``perft_tasks`` (the Dask path) and ``warmup``.

Counting convention: a *move* is a distinct (from-square, to-square, captured-set) triple. Capture sequences
that take the same pieces between the same squares by different routes count once (the convention of the
published numbers: BikDam, damforum perft threads; see ``data/draughts/SOURCES.md``).
"""
from __future__ import annotations

import time
from typing import Callable

import numba
import numpy as np

from .._jit import threads as _threads
from .errors import DraughtsError
from .position import Position

#: Frontier positions per thread to aim for: many small subtrees even out the ``prange`` split.
FRONTIER_PER_THREAD = 256


def _root(position: Position):
    own, opp = (position.white, position.black) if position.turn else (position.black, position.white)
    return own, opp, position.kings, position.turn


def _check(position, depth):
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, got {position!r}")
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise DraughtsError(f"depth must be a non-negative integer, got {depth!r}")
    return int(depth)


def _frontier(own, opp, kings, white, fdepth):
    from ._search import frontier_kernel

    cap = 1024
    while True:
        fo, fp, fk, fw, fr, n = frontier_kernel(own, opp, kings, white, fdepth, cap)
        if n >= 0:
            return fo[:n], fp[:n], fk[:n], fw[:n], fr[:n]
        cap *= 8


def _split(position: Position, depth: int, nthreads: int, min_fdepth: int = 0):
    """Frontier deep enough for ``FRONTIER_PER_THREAD * nthreads`` subtrees (never the last ply)."""
    own, opp, kings, white = _root(position)
    target = FRONTIER_PER_THREAD * nthreads
    fdepth = max(min_fdepth, 1)
    while True:
        f = _frontier(own, opp, kings, white, fdepth)
        if len(f[0]) >= target or fdepth >= depth - 1 or len(f[0]) == 0:
            return fdepth, f
        fdepth += 1


def _run(f, rem, leaves, nthreads, progress, t0, chunks=1):
    from ._search import perft_many_parallel, perft_many_serial

    fo, fp, fk, fw, fr = f
    n = len(fo)
    out = np.zeros(n, dtype=np.int64)
    bounds = np.linspace(0, n, chunks + 1).astype(np.int64)
    kern = perft_many_serial if nthreads == 1 else perft_many_parallel
    done = 0
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if hi <= lo:
            continue
        out[lo:hi] = kern(fo[lo:hi], fp[lo:hi], fk[lo:hi], fw[lo:hi], rem, leaves)
        done += int(out[lo:hi].sum())
        if progress is not None:
            progress(int(hi), n, done, time.perf_counter() - t0)
    if (out < 0).any():
        raise DraughtsError("move list overflow during perft")
    return out


def _resolve_threads(threads):
    if threads is None or threads == 0:
        return numba.get_num_threads()
    return int(threads)


def perft(position: Position, depth: int, threads: int | None = None, leaves: bool = False,
          progress: Callable | None = None, client=None, **distributed) -> int:
    """Number of move paths of length ``depth`` from ``position``.

    ``leaves=False`` counts the last ply's moves without making them (bulk counting); ``leaves=True`` makes
    every leaf. ``threads``: ``None`` = Numba's current thread count, ``1`` = serial kernel (safe to call from
    many Python threads at once). ``progress(done_subtrees, total_subtrees, nodes_so_far, seconds)`` is called
    between chunks when given. ``client``: a Dask ``Client`` or scheduler address to spread the subtrees over a
    cluster (``split_depth=``, ``n_tasks=``, ``checkpoint=`` as in :func:`perft_tasks`).
    """
    depth = _check(position, depth)
    if client is not None and depth > 1:
        counts, _, _ = perft_tasks(position, depth, client, leaves=leaves, **distributed)
        return int(counts.sum())
    nthreads = _resolve_threads(threads)
    if depth <= 2 and progress is None:
        from ._search import perft_kernel

        n = perft_kernel(*_root(position), depth, leaves)
        if n < 0:
            raise DraughtsError("move list overflow during perft")
        return int(n)
    if depth == 0:
        return 1
    with _threads(nthreads if threads else None):
        fdepth, f = _split(position, depth, nthreads)
        out = _run(f, depth - fdepth, leaves, nthreads, progress, time.perf_counter(),
                   chunks=20 if progress is not None else 1)
    return int(out.sum())


def divide(position: Position, depth: int, threads: int | None = None, leaves: bool = False,
           progress: Callable | None = None, client=None, **distributed) -> dict:
    """``{move notation: perft(child, depth - 1)}`` for every legal move, in generation order.

    ``client``: as in :func:`perft`, to run the subtrees on a Dask cluster.
    """
    depth = _check(position, depth)
    if depth < 1:
        raise DraughtsError(f"divide needs depth >= 1, got {depth!r}")
    moves = list(position.legal_moves)
    if depth == 1:
        return {m.notation: 1 for m in moves}
    if client is not None:
        counts, fr, _ = perft_tasks(position, depth, client, leaves=leaves, **distributed)
        per_root = np.zeros(len(moves), dtype=np.int64)
        np.add.at(per_root, fr, counts)
        return {m.notation: int(per_root[i]) for i, m in enumerate(moves)}
    nthreads = _resolve_threads(threads)
    with _threads(nthreads if threads else None):
        fdepth, f = _split(position, depth, nthreads, min_fdepth=1)
        out = _run(f, depth - fdepth, leaves, nthreads, progress, time.perf_counter(),
                   chunks=20 if progress is not None else 1)
    per_root = np.zeros(len(moves), dtype=np.int64)
    np.add.at(per_root, f[4], out)
    # the kernel's root-move order is the order legal_moves lists them in (same generator)
    return {m.notation: int(per_root[i]) for i, m in enumerate(moves)}


def _count_chunk(chunk, rem, leaves):
    """Worker side of :func:`perft_tasks`: perft of each frontier position of one chunk."""
    from ._search import perft_many_parallel, perft_many_serial

    kern = perft_many_serial if numba.get_num_threads() == 1 else perft_many_parallel
    return kern(*chunk, rem, leaves)


def perft_tasks(position: Position, depth: int, client, *, split_depth: int | None = None,
                n_tasks: int | None = None, leaves: bool = False, checkpoint=None, progress: Callable | None = None):
    """Perft on a Dask cluster: ``(counts per frontier position, root-move index of each, info dict)``.

    The tree is split at ``split_depth`` (default: the first depth with 64 subtrees per cluster thread) into
    ``n_tasks`` chunks (default: 16 per cluster thread). ``checkpoint``: a file where finished chunks are
    recorded; a re-run with the same position, depth and split resumes from it. ``progress(done, total,
    seconds)`` is called as chunks finish.
    """
    from .. import distributed as D

    depth = _check(position, depth)
    n_threads = D.cluster_threads(client)
    own, opp, kings, white = _root(position)
    if split_depth is None:
        split_depth = 1
        while split_depth < depth - 1 and len(_frontier(own, opp, kings, white, split_depth)[0]) < 64 * n_threads:
            split_depth += 1
    split_depth = int(split_depth)
    if not 1 <= split_depth <= depth - 1:
        raise D.DistributedError(f"split depth must be between 1 and depth - 1 = {depth - 1}, got {split_depth}")
    fo, fp, fk, fw, fr = _frontier(own, opp, kings, white, split_depth)
    n = len(fo)
    n_tasks = min(n, 16 * n_threads) if n_tasks is None else int(n_tasks)
    n_tasks = max(1, min(n_tasks, max(n, 1)))
    bounds = np.linspace(0, n, n_tasks + 1).astype(np.int64)
    chunks = [(fo[a:b], fp[a:b], fk[a:b], fw[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    header = {"fen": position.fen(), "depth": depth, "split_depth": split_depth, "leaves": bool(leaves),
              "frontier": n, "tasks": n_tasks}
    ck = None
    if checkpoint is not None:
        ck = D.Checkpoint(checkpoint, header, expect=lambda i: int(bounds[i + 1] - bounds[i]) if i < n_tasks else -1)
    resumed = len(ck.done) if ck is not None else 0
    t0 = time.perf_counter()
    tick = None if progress is None else (lambda done, total: progress(done, total, time.perf_counter() - t0))
    parts = D.map_chunks(_count_chunk, chunks, client, broadcast=(depth - split_depth, bool(leaves)),
                         checkpoint=ck, name=f"perft{depth}", progress=tick)
    counts = np.concatenate([np.asarray(p, dtype=np.int64) for p in parts]) if parts else np.zeros(0, np.int64)
    if (counts < 0).any():
        raise DraughtsError("move list overflow during perft")
    info = dict(header, resumed_tasks=resumed, seconds=time.perf_counter() - t0, threads=n_threads)
    return counts, fr, info


def warmup() -> None:
    """Compile (or load from Numba's cache) every kernel perft, divide and the Position API use."""
    from ._search import perft_kernel

    p = Position.initial()
    list(p.legal_moves)
    perft_kernel(*_root(p), 3, False)
    perft_kernel(*_root(p), 2, True)
    perft(p, 4, threads=1)
    perft(p, 4, threads=2 if numba.config.NUMBA_NUM_THREADS >= 2 else 1)
