"""Scale-out on Dask distributed, for any engine: a client, a local cluster, chunks mapped over workers.

Nothing here knows an engine. An engine's batch function takes ``client=`` and calls :func:`map_chunks` with
a module-level chunk function of its own (``fn(chunk, *broadcast)``, run on a worker with Numba's threads set to
the worker's share) and the arrays every chunk needs, scattered once (``broadcast``). Results come back in
chunk order; with a :class:`Checkpoint` finished chunks are written to disk and a re-run resumes from them.

Library functions take a ``dask.distributed.Client`` (or a scheduler address) and never create clusters;
:func:`local_cluster` is a convenience for the CLI and notebooks. Install with
``pip install "numba_words[distributed]"``.
"""
from __future__ import annotations

import contextlib
import json
import os
import uuid
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from .errors import NumbaWordsError


class DistributedError(NumbaWordsError):
    """Bad scheduler address, unreachable cluster, or a checkpoint that does not fit the run."""


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


def cluster_threads(client) -> int:
    """Total worker threads of the cluster behind ``client`` (at least 1)."""
    return max(1, sum(get_client(client).nthreads().values()))


def worker_threads() -> int:
    """Set Numba's thread count to this worker's share (its Dask ``nthreads``) and return it."""
    import numba

    try:
        from distributed import get_worker

        n = int(get_worker().state.nthreads)
    except (ImportError, ValueError, AttributeError):
        n = numba.config.NUMBA_NUM_THREADS
    n = max(1, min(n, numba.config.NUMBA_NUM_THREADS))
    numba.set_num_threads(n)
    return n


def _run_chunk(fn, chunk, *shared):
    worker_threads()
    return fn(chunk, *shared)


class Checkpoint:
    """Finished chunk results (1-D integer arrays) as JSON lines after a header that identifies the work.

    The header must describe the split of the work (what each chunk is), not the cluster, so that a run that
    lost machines resumes on what is left. A re-run with another header is refused; a record that does not
    fit its chunk (``expect(i)`` gives the length chunk ``i`` returns) is ignored and that chunk recomputed.
    """

    def __init__(self, path, header: dict, expect: Callable[[int], int] | None = None):
        self.path = Path(path)
        self.header = json.loads(json.dumps(header))
        self.expect = expect
        self.done: dict[int, np.ndarray] = {}
        if self.path.exists():
            self._load()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.header) + "\n")

    def _load(self) -> None:
        try:
            lines = self.path.read_text().splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise DistributedError(f"checkpoint {str(self.path)!r} cannot be read as a text file ({e})") from None
        try:
            head = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            head = None
        if head != self.header:
            raise DistributedError(f"checkpoint {str(self.path)!r} belongs to another run "
                                   f"({str(head)[:200]}); remove it or choose another file")
        for ln in lines[1:]:
            try:
                rec = json.loads(ln)
                i = int(rec["task"])
                counts = np.asarray(rec["counts"], dtype=np.int64)
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, OverflowError):
                continue  # a torn last line from a crash: that chunk is simply redone
            if counts.ndim != 1 or (self.expect is not None and (i < 0 or counts.shape[0] != self.expect(i))):
                continue
            self.done[i] = counts

    def record(self, i: int, counts) -> None:
        self.done[i] = np.asarray(counts, dtype=np.int64)
        with open(self.path, "a") as f:
            f.write(json.dumps({"task": int(i), "counts": self.done[i].tolist()}) + "\n")
            f.flush()
            os.fsync(f.fileno())


def map_chunks(fn: Callable, chunks: Sequence, client, *, broadcast: Sequence = (), checkpoint: Checkpoint | None = None,
               name: str = "chunk", retries: int = 3, progress: Callable | None = None) -> list:
    """``[fn(chunk, *broadcast) for chunk in chunks]``, computed on the cluster, in chunk order.

    ``fn`` must be a module-level function (workers import it). ``broadcast`` values are scattered once to every
    worker. With ``checkpoint`` the chunks it already holds are not recomputed and each finished chunk is
    recorded as it arrives. ``progress(done, total)`` is called as chunks finish. A worker that dies loses only
    its running chunks, which are retried (``retries``).
    """
    distributed = _dask()
    client = get_client(client)
    n = len(chunks)
    if n == 0:
        raise DistributedError("empty batch: nothing to compute")
    out: list = [None] * n
    if checkpoint is not None:
        for i, r in checkpoint.done.items():
            if 0 <= i < n:
                out[i] = r
    todo = [i for i in range(n) if out[i] is None]
    shared = [client.scatter(s, broadcast=True, hash=False) for s in broadcast] if todo else []
    tag = uuid.uuid4().hex[:12]
    futs = {client.submit(_run_chunk, fn, chunks[i], *shared, key=f"{name}-{tag}-{i}", retries=retries,
                          pure=False): i for i in todo}
    done = n - len(todo)
    if progress is not None and done:
        progress(done, n)
    for fut in distributed.as_completed(list(futs)):
        i = futs[fut]
        out[i] = fut.result()
        if checkpoint is not None:
            checkpoint.record(i, out[i])
        done += 1
        if progress is not None:
            progress(done, n)
    return out
