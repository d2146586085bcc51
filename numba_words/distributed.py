"""Scale-out on Dask distributed: perft/divide split into subtrees, board batches in chunks.

Library functions take a ``dask.distributed.Client`` (or a scheduler address) and never create clusters;
:func:`local_cluster` is a convenience for the CLI and notebooks. Workers compute with Numba kernels loaded
from the on-disk cache, each using its own share of threads (its Dask ``nthreads``). Install with
``pip install "numba_words[distributed]"``.
"""
from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Callable

import numpy as np

from .errors import NumbaWordsError


class DistributedError(NumbaWordsError):
    """Bad scheduler address, unreachable cluster, or inconsistent checkpoint/split settings."""


def _dask():
    try:
        import distributed
    except ImportError:  # pragma: no cover - depends on the install
        raise DistributedError('Dask is not installed: pip install "numba_words[distributed]"') from None
    return distributed


def get_client(client, timeout: float = 10.0):
    """A ``Client`` from a ``Client`` or a scheduler address such as ``'tcp://host:8786'``."""
    distributed = _dask()
    if isinstance(client, distributed.Client):
        return client
    if isinstance(client, str):
        if "://" not in client and ":" not in client:
            raise DistributedError(f"scheduler address {client!r} should look like 'tcp://host:8786'")
        try:
            return distributed.Client(client, timeout=timeout)
        except (OSError, TimeoutError) as e:
            raise DistributedError(f"cannot reach the Dask scheduler at {client!r} within {timeout:g} s ({e})") from None
    raise DistributedError(f"expected a dask.distributed.Client or a scheduler address, got {client!r}")


@contextlib.contextmanager
def local_cluster(n_workers: int = 2, threads_per_worker: int = 1):
    """A ``LocalCluster`` of spawned worker processes and a ``Client`` to it (closed afterwards)."""
    distributed = _dask()
    if n_workers < 1 or threads_per_worker < 1:
        raise DistributedError(f"need at least one worker and one thread, got {n_workers}, {threads_per_worker}")
    import dask

    with dask.config.set({"distributed.worker.multiprocessing-method": "spawn"}):
        with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker,
                                      processes=True, dashboard_address=":0") as cluster:
            with distributed.Client(cluster) as client:
                yield client


def _worker_threads() -> int:
    """This worker's share of threads (its Dask ``nthreads``), applied to Numba."""
    import numba

    try:
        from distributed import get_worker

        n = int(get_worker().state.nthreads)
    except (ImportError, ValueError, AttributeError):
        n = numba.config.NUMBA_NUM_THREADS
    n = max(1, min(n, numba.config.NUMBA_NUM_THREADS))
    numba.set_num_threads(n)
    return n


# ---------------------------------------------------------------- draughts perft
def _perft_task(fo, fp, fk, fw, rem, leaves):
    """Worker side: perft of each frontier position (one array per task)."""
    from .draughts._perft import perft_many_parallel, perft_many_serial

    n = _worker_threads()
    kern = perft_many_serial if n == 1 else perft_many_parallel
    return kern(fo, fp, fk, fw, rem, leaves)


class _Checkpoint:
    """Finished task counts as JSON lines after a header that identifies the run."""

    def __init__(self, path, header: dict):
        self.path = Path(path) if path else None
        self.header = header
        self.done: dict[int, list[int]] = {}
        if self.path is None:
            return
        if self.path.exists():
            lines = self.path.read_text().splitlines()
            try:
                head = json.loads(lines[0]) if lines else None
            except json.JSONDecodeError:
                head = None
            if head != header:
                raise DistributedError(f"checkpoint {str(self.path)!r} belongs to another run ({head}); "
                                       f"remove it or choose another file")
            for ln in lines[1:]:
                try:
                    rec = json.loads(ln)
                    self.done[int(rec["task"])] = [int(x) for x in rec["counts"]]
                except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                    continue  # a torn last line from a crash: that task is simply redone
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(header) + "\n")

    def record(self, task: int, counts) -> None:
        self.done[task] = [int(x) for x in counts]
        if self.path is not None:
            with open(self.path, "a") as f:
                f.write(json.dumps({"task": task, "counts": self.done[task]}) + "\n")
                f.flush()
                os.fsync(f.fileno())


def perft_tasks(position, depth: int, client, *, split_depth: int | None = None, n_tasks: int | None = None,
                leaves: bool = False, checkpoint=None, progress: Callable | None = None):
    """Distributed perft; returns ``(per-frontier-position counts, root-move index of each, info dict)``."""
    distributed = _dask()
    from .draughts.perft import _check, _frontier, _root

    depth = _check(position, depth)
    client = get_client(client)
    n_threads = sum(client.nthreads().values()) or 1
    if split_depth is None:
        split_depth = 1
        own, opp, kings, white = _root(position)
        while split_depth < depth - 1 and len(_frontier(own, opp, kings, white, split_depth)[0]) < 64 * n_threads:
            split_depth += 1
    split_depth = int(split_depth)
    if not 1 <= split_depth <= depth - 1:
        raise DistributedError(f"split depth must be between 1 and depth - 1 = {depth - 1}, got {split_depth}")
    fo, fp, fk, fw, fr = _frontier(*_root(position), split_depth)
    n = len(fo)
    if n_tasks is None:
        n_tasks = min(n, 16 * n_threads)
    n_tasks = max(1, min(int(n_tasks), max(n, 1)))
    bounds = np.linspace(0, n, n_tasks + 1).astype(np.int64)
    header = {"fen": position.fen(), "depth": depth, "split_depth": split_depth, "leaves": bool(leaves),
              "frontier": n, "tasks": n_tasks}
    ck = _Checkpoint(checkpoint, header)
    rem = depth - split_depth
    t0 = time.perf_counter()
    futures = {}
    for i in range(n_tasks):
        lo, hi = bounds[i], bounds[i + 1]
        if i in ck.done or hi <= lo:
            continue
        fut = client.submit(_perft_task, fo[lo:hi], fp[lo:hi], fk[lo:hi], fw[lo:hi], rem, bool(leaves),
                            key=f"perft-{depth}-{split_depth}-{i}-{_token(header)}",
                            retries=3, pure=False)
        futures[fut] = i
    resumed = len(ck.done)
    for fut in distributed.as_completed(list(futures)):
        i = futures[fut]
        ck.record(i, fut.result())
        if progress is not None:
            progress(len(ck.done), n_tasks, time.perf_counter() - t0)
    counts = np.zeros(n, dtype=np.int64)
    for i, c in ck.done.items():
        counts[bounds[i]:bounds[i + 1]] = c
    if (counts < 0).any():
        raise DistributedError("move list overflow during perft")
    info = dict(header, resumed_tasks=resumed, seconds=time.perf_counter() - t0, workers=len(client.nthreads()),
                threads=n_threads)
    return counts, fr, info


def perft(position, depth: int, client, **kw) -> int:
    """Perft across a Dask cluster: the same count as :func:`numba_words.draughts.perft`."""
    if depth <= 1:
        from .draughts import perft as local

        return local(position, depth)
    counts, _, _ = perft_tasks(position, depth, client, **kw)
    return int(counts.sum())


def divide(position, depth: int, client, **kw) -> dict:
    """Divide across a Dask cluster: ``{move: count}`` in ``legal_moves`` order."""
    from .draughts import divide as local

    if depth <= 1:
        return local(position, depth)
    counts, fr, _ = perft_tasks(position, depth, client, **kw)
    moves = list(position.legal_moves)
    per_root = np.zeros(len(moves), dtype=np.int64)
    np.add.at(per_root, fr, counts)
    return {m.notation: int(per_root[i]) for i, m in enumerate(moves)}


# ---------------------------------------------------------------- batches of boards / positions
def map_batches(fn: Callable, items, client, *, shared=(), chunk_size: int = 256, progress=None) -> list:
    """Apply ``fn(chunk, *shared)`` to chunks of ``items`` on the cluster; results in input order.

    ``shared`` (e.g. lexicon arrays) is scattered once to every worker (``broadcast=True``).
    """
    _dask()
    client = get_client(client)
    if chunk_size < 1:
        raise DistributedError(f"chunk_size must be positive, got {chunk_size!r}")
    n = len(items)
    if n == 0:
        raise DistributedError("empty batch: nothing to compute")
    shared_f = [client.scatter(s, broadcast=True, hash=False) for s in shared]
    futs = []
    for lo in range(0, n, chunk_size):
        futs.append(client.submit(_call_with_threads, fn, items[lo:lo + chunk_size], *shared_f, retries=3,
                                  pure=False))
    return _gather_in_order(futs, progress)


def _bookworm_chunk(codes, lex, kinds, kw):
    from .bookworm import solve_many

    _worker_threads()
    r = solve_many(codes, lex, kinds=kinds, **kw)
    return r.counts, r.wid, r.path, r.plen, r.scores


def solve_many(boards, client, lexicon=None, *, kinds=None, chunk_size: int = 2048, progress=None, **kw):
    """Bookworm/Boggle batch on a cluster: the same :class:`~numba_words.bookworm.solver.BatchSolution` as
    :func:`numba_words.bookworm.solve_many`, boards in input order. The lexicon is scattered once to every
    worker; boards go in chunks of ``chunk_size``."""
    _dask()
    from .bookworm import solver as S

    lex = S._lex(lexicon)
    grid = kw.get("grid") or S.BOOKWORM
    kw["grid"] = grid
    if isinstance(boards, (list, tuple)) and boards and isinstance(boards[0], str):
        boards = np.stack([S.parse_text(b, grid, lex) for b in boards])
    codes = S.check_codes(boards, grid, lex, "boards") if len(boards) else np.zeros((0, grid.n_tiles), np.uint8)
    if codes.ndim != 2 or codes.shape[0] == 0:
        raise DistributedError("empty batch: nothing to solve" if codes.shape[0] == 0 else
                               f"boards must be a 2-D array (one board a row), got shape {codes.shape}")
    if kinds is None:
        kinds = np.zeros(codes.shape, dtype=np.uint8)
    if chunk_size < 1:
        raise DistributedError(f"chunk_size must be positive, got {chunk_size!r}")
    client = get_client(client)
    [lex_f] = client.scatter([lex], broadcast=True, hash=False)
    futs = [client.submit(_bookworm_chunk, codes[a:a + chunk_size], lex_f, kinds[a:a + chunk_size], kw,
                          retries=3, pure=False) for a in range(0, codes.shape[0], chunk_size)]
    parts = _gather_in_order(futs, progress)
    counts = np.concatenate([p[0] for p in parts])
    offsets = np.zeros(codes.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    cat = [np.concatenate([p[i] for p in parts]) for i in range(1, 5)]
    return S.BatchSolution(lex, grid, codes, offsets, *cat)


def _scrabble_chunk(cgps, lex, variant):
    from .scrabble import Position, generate_batch

    _worker_threads()
    pos = [Position.from_cgp(c, variant, lexicon=lex) for c in cgps]
    return generate_batch([p.board for p in pos], [p._rack_arrays() for p in pos])


def generate_many(positions, client, *, variant="scrabble", lexicon=None, chunk_size: int = 64, progress=None):
    """Every scored play of many crossword positions on a cluster: a list of structured arrays (the
    ``Plays.array`` of each position), in input order. ``positions``: CGP strings or ``Position`` objects
    (sent as CGP); the lexicon is scattered once to every worker."""
    _dask()
    from .scrabble import Position

    positions = list(positions)
    if not positions:
        raise DistributedError("empty batch: no positions to generate for")
    if chunk_size < 1:
        raise DistributedError(f"chunk_size must be positive, got {chunk_size!r}")
    first = positions[0]
    if isinstance(first, Position):
        lex = first.lexicon
        variant = first.variant.name
    else:
        lex = Position(variant, lexicon).lexicon
    cgps = [p.cgp() if isinstance(p, Position) else Position.from_cgp(p, variant, lexicon=lex).cgp()
            for p in positions]  # validates every position on the client, before anything is sent
    client = get_client(client)
    [lex_f] = client.scatter([lex], broadcast=True, hash=False)
    futs = [client.submit(_scrabble_chunk, cgps[a:a + chunk_size], lex_f, variant, retries=3, pure=False)
            for a in range(0, len(cgps), chunk_size)]
    parts = _gather_in_order(futs, progress)
    return [a for part in parts for a in part]


def _gather_in_order(futs, progress=None) -> list:
    """Results of ``futs`` in submission order, collected as they complete (``progress(done, total)``)."""
    distributed = _dask()
    index = {f.key: i for i, f in enumerate(futs)}
    out = [None] * len(futs)
    for done, f in enumerate(distributed.as_completed(futs), 1):
        out[index[f.key]] = f.result()
        if progress is not None:
            progress(done, len(futs))
    return out


def _call_with_threads(fn, chunk, *shared):
    _worker_threads()
    return fn(chunk, *shared)


def _token(obj) -> str:
    import hashlib

    return hashlib.sha1(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]
