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
import logging
import os
import uuid
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from .errors import NumbaWordsError, quote

__all__ = ["DistributedError", "SCHEMES", "check_address", "get_client", "local_cluster", "cluster_threads",
           "worker_threads", "Checkpoint", "map_chunks"]


class DistributedError(NumbaWordsError):
    """Bad scheduler address, unreachable cluster, or a checkpoint that does not fit the run."""


def _dask():
    try:
        import distributed
    except ImportError:  # pragma: no cover - depends on the install
        raise DistributedError('Dask is not installed: pip install "numba_words[distributed]"') from None
    _quiet_interrupt_noise()
    return distributed


class _InterruptNoise(logging.Filter):
    """Drops the traceback Dask's ``sync`` logs when Ctrl-C lands while it waits (its cancel callback fails on
    a variable it has not bound yet): the interrupt itself is reported, once."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "sync.<locals>.cancel" not in record.getMessage()


def _quiet_interrupt_noise() -> None:
    lg = logging.getLogger("tornado.application")
    if not any(isinstance(f, _InterruptNoise) for f in lg.filters):
        lg.addFilter(_InterruptNoise())


class _LocalWorkersGone(logging.Filter):
    """Drops the client's "Couldn't gather ... rescheduling" warning while a :func:`local_cluster` runs: its
    workers share the caller's process group, so a Ctrl-C stops them too, and the client may see one go before
    the interrupt itself is reported (once)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Couldn't gather")


SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")


def check_address(address: str) -> str:
    """Check that ``address`` reads as a Dask scheduler address, without connecting.

    Parameters
    ----------
    address : str
        ``tcp://host:8786``, ``tls://...``, ``ws://``, ``wss://``, ``ucx://``, ``inproc://``, or ``host:port``
        (meaning tcp); an IPv6 host in brackets, ``[::1]:8786``.

    Returns
    -------
    str
        ``address`` unchanged.

    Raises
    ------
    DistributedError
        Saying what is wrong: an unknown protocol, no host, no port or one outside 1-65535.

    Examples
    --------
    >>> check_address("scheduler:8786")
    'scheduler:8786'
    """
    shown = _cut(address)
    example = "should look like 'tcp://host:8786'"
    scheme, sep, rest = address.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", address.strip()
    if scheme.lower() not in SCHEMES:
        raise DistributedError(f"scheduler address {shown}: unknown protocol {_cut(scheme)} (known: "
                               f"{', '.join(SCHEMES)}); it {example}")
    if scheme.lower() == "inproc":
        if not rest:
            raise DistributedError(f"scheduler address {shown} names no in-process scheduler")
        return address
    if ":" not in rest:
        raise DistributedError(f"scheduler address {shown} needs a host and a port; it {example}")
    if rest.startswith("["):
        host, close, port = rest[1:].partition("]")
        if not close or (port and not port.startswith(":")):
            raise DistributedError(f"scheduler address {shown}: an IPv6 host is written '[::1]:8786'")
        port = port[1:]
    else:
        host, _, port = rest.rpartition(":")
    if not host or any(ch in host for ch in "/?#@ \t") or ":" in host and not rest.startswith("["):
        raise DistributedError(f"scheduler address {shown} has no valid host; it {example}")
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        raise DistributedError(f"scheduler address {shown} needs a port from 1 to 65535; it {example}")
    return address


def get_client(client, timeout: float = 10.0):
    """A ``Client`` from a ``Client`` or a scheduler address such as ``'tcp://host:8786'``.

    For an address, ``timeout`` seconds bound everything: reaching the host and Dask's handshake (a server that
    accepts connections but does not speak Dask's protocol is an error, not a hang). Every failure is a
    :class:`DistributedError`.
    """
    distributed = _dask()
    if isinstance(client, distributed.Client):
        if client.status in ("closing", "closed"):
            raise DistributedError(f"the Dask client {_cut(client)} is {client.status}; give an open client or a "
                                   "scheduler address")
        return client
    if not isinstance(client, str):
        raise DistributedError(f"expected a dask.distributed.Client or a scheduler address, got {_cut(client)}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
        raise DistributedError(f"timeout must be a positive number of seconds, got {timeout!r}")
    address = check_address(client)
    if not address.lower().startswith("inproc://"):
        _handshake(address, timeout)
    try:
        return distributed.Client(address, timeout=timeout)
    except Exception as e:  # noqa: BLE001 - whatever Dask raises, the caller gets one error class
        raise DistributedError(f"cannot connect to the Dask scheduler at {_cut(address)} ({_cut(e, 200)})") from None


async def _identity(address: str, timeout: float):
    """The scheduler's ``identity`` reply, all within ``timeout`` seconds."""
    import asyncio

    from distributed.comm import connect
    from distributed.security import Security

    async def ask():
        comm = await connect(address, timeout=timeout, **Security().get_connection_args("client"))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    return await asyncio.wait_for(ask(), timeout)


def _handshake(address: str, timeout: float) -> None:
    """Ask ``address`` who it is (in a thread with its own event loop, so it works under Jupyter's loop too);
    :class:`DistributedError` unless a Dask scheduler answers within ``timeout`` seconds."""
    import asyncio
    import threading

    box: dict = {}

    def run():
        try:
            box["reply"] = asyncio.run(_identity(address, timeout))
        except BaseException as e:  # noqa: BLE001 - reported below, in the caller's thread
            box["error"] = e

    t = threading.Thread(target=run, name="numba-words-dask-handshake", daemon=True)
    t.start()
    t.join(timeout + 5.0)  # the probe cancels itself at ``timeout``; the margin is for the event loop
    err = box.get("error")
    if t.is_alive() or isinstance(err, (asyncio.TimeoutError, TimeoutError)):
        raise DistributedError(f"cannot reach a Dask scheduler at {_cut(address)} within {timeout:g} s "
                               f"(no answer)")
    if isinstance(err, OSError) and not _is_comm_closed(err):
        raise DistributedError(f"cannot reach a Dask scheduler at {_cut(address)} within {timeout:g} s "
                               f"({_cut(err, 200)})")
    reply = box.get("reply")
    if err is not None or not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        why = f"{type(err).__name__}: {_cut(err, 120)}" if err is not None else f"it answered {_cut(reply, 120)}"
        raise DistributedError(f"the server at {_cut(address)} is not a Dask scheduler ({why})")


def _is_comm_closed(e: BaseException) -> bool:
    """A connection that was made and then closed by the other side (not 'unreachable')."""
    try:
        from distributed.comm.core import CommClosedError
    except ImportError:  # pragma: no cover
        return False
    return isinstance(e, CommClosedError)


def _cut(x, limit: int = 80) -> str:
    """``repr(x)`` (the message for an exception) cut to ``limit`` characters with an ellipsis."""
    if isinstance(x, BaseException):
        text = str(x)
        return text if len(text) <= limit else text[: limit - 3] + "..."
    return quote(x, limit)


@contextlib.contextmanager
def local_cluster(n_workers: int = 2, threads_per_worker: int = 1):
    """A ``LocalCluster`` of spawned worker processes and a ``Client`` to it (closed afterwards)."""
    distributed = _dask()
    if n_workers < 1 or threads_per_worker < 1:
        raise DistributedError(f"need at least one worker and one thread, got {n_workers}, {threads_per_worker}")
    import dask

    lg = logging.getLogger("distributed.client")
    quiet = _LocalWorkersGone()
    lg.addFilter(quiet)
    # the worker processes inherit the terminal: their warnings (a task cancelled by Ctrl-C, which reaches them
    # too) would interleave with the command's own lines; they read this from the environment when they start
    env_key = "DASK_LOGGING__DISTRIBUTED"
    old_env = os.environ.get(env_key)
    if old_env is None:
        os.environ[env_key] = "error"
    # and multiprocessing's resource tracker, started with the cluster, reports at exit the semaphores of workers
    # that Ctrl-C ended before the cluster could close (it frees them: a warning on the terminal, nothing leaked)
    old_warn = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = ",".join(filter(None, (old_warn, "ignore:resource_tracker:UserWarning")))
    try:
        with dask.config.set({"distributed.worker.multiprocessing-method": "spawn"}):
            with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker,
                                          processes=True, dashboard_address=":0") as cluster:
                with distributed.Client(cluster) as client:
                    yield client
    finally:
        lg.removeFilter(quiet)
        if old_env is None:
            os.environ.pop(env_key, None)
        if old_warn is None:
            os.environ.pop("PYTHONWARNINGS", None)
        else:
            os.environ["PYTHONWARNINGS"] = old_warn


CLOSE_SECONDS = 5.0
"""How long :func:`close_interrupted` waits for a cluster to close before leaving it to the process's exit."""
EXIT_SECONDS = 15.0
"""How long after an interrupt the process may take to exit (its ``atexit`` handlers included) before
:func:`close_interrupted`'s watchdog ends it with exit status 130."""


def close_interrupted(client, close: Callable[[], object], seconds: float = CLOSE_SECONDS,
                      exit_after: float | None = None) -> bool:
    """Stop a :func:`local_cluster` after Ctrl-C within a few seconds, whatever the load; ``True`` if it closed.

    Its nannies are told not to restart their workers (a nanny restarts a worker whose process ends: under load
    the new process took tens of seconds to start, and closing the cluster waited for it), the worker processes
    are killed (closing the client would cancel their running tasks, which they report on their own stderr),
    then ``close()`` runs in a thread, waited for ``seconds``. With ``exit_after``, a daemon timer ends the
    process (``os._exit(130)``) that many seconds later if it is still running then: Dask's own ``atexit``
    handlers wait for clusters that did not close."""
    import threading

    if exit_after is not None:
        timer = threading.Timer(exit_after, os._exit, (130,))
        timer.daemon = True
        timer.start()
    nannies = list(getattr(getattr(client, "cluster", None), "workers", {}).values())
    for nanny in nannies:
        with contextlib.suppress(Exception):
            nanny.close_gracefully("interrupted")
    for nanny in nannies:
        proc = getattr(getattr(nanny, "process", None), "process", None)
        with contextlib.suppress(Exception):
            if proc is not None and proc.is_alive():
                proc.kill()
    done = threading.Event()

    def run():
        try:
            close()
        except BaseException:  # noqa: BLE001 - the interrupt is what gets reported
            pass
        finally:
            done.set()

    threading.Thread(target=run, name="numba-words-close-cluster", daemon=True).start()
    return done.wait(seconds)


@contextlib.contextmanager
def _connected(client):
    """A ``Client`` for ``client``; one made here from an address is closed afterwards (no stray clients)."""
    c = get_client(client)
    try:
        yield c
    finally:
        if c is not client:
            c.close()


def cluster_threads(client) -> int:
    """Total worker threads of the cluster behind ``client`` (at least 1)."""
    with _connected(client) as c:
        return max(1, sum(c.nthreads().values()))


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
        try:
            self.path = Path(path)
            self.header = json.loads(json.dumps(header))
        except (TypeError, ValueError) as e:
            raise DistributedError(f"checkpoint path {_cut(path)} with header {_cut(header)}: {_cut(e, 120)}") from None
        self.expect = expect
        self.done: dict[int, np.ndarray] = {}
        where = f"checkpoint {_cut(str(self.path))}"
        try:
            if self.path.exists() or self.path.is_symlink():
                if self.path.is_dir():
                    raise DistributedError(f"{where} is a directory; give a file name (it need not exist yet)")
                if not self.path.is_file():
                    raise DistributedError(f"{where} is not a regular file")
                self._load(where)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.path.write_text(json.dumps(self.header) + "\n")
        except (OSError, ValueError) as e:  # ValueError: e.g. a NUL byte in the path
            if isinstance(e, DistributedError):
                raise
            raise DistributedError(f"{where} cannot be used ({_cut(e, 200)})") from None

    def _load(self, where: str) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            raise DistributedError(f"{where} is not a checkpoint (binary data, not JSON lines); remove it or choose "
                                   "another file") from None
        try:
            head = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            raise DistributedError(f"{where} is not a checkpoint (its first line is not a JSON header); remove it "
                                   "or choose another file") from None
        if head != self.header:
            raise DistributedError(f"{where} belongs to another run ({_cut(head, 200)}); remove it or choose "
                                   "another file")
        for ln in lines[1:]:
            try:
                rec = json.loads(ln)
                i = int(rec["task"])
                counts = np.asarray(rec["counts"], dtype=np.int64)
                fits = counts.ndim == 1 and (self.expect is None or (i >= 0 and counts.shape[0] == self.expect(i)))
            except Exception:  # noqa: BLE001 - a torn last line from a crash, or a record of no chunk: redone
                continue
            if fits:
                counts.flags.writeable = False  # (results: read-only, as every array users reach)
                self.done[i] = counts

    def record(self, i: int, counts) -> None:
        """Append chunk ``i``'s result (and flush it to disk, so a crash loses at most the line being written)."""
        kept = np.array(counts, dtype=np.int64)  # (a copy: the caller's array can change, the record cannot)
        kept.flags.writeable = False
        self.done[i] = kept
        try:
            with open(self.path, "a") as f:
                f.write(json.dumps({"task": int(i), "counts": self.done[i].tolist()}) + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            raise DistributedError(f"cannot write checkpoint {_cut(str(self.path))} ({_cut(e, 200)})") from None


def map_chunks(fn: Callable, chunks: Sequence, client, *, broadcast: Sequence = (), checkpoint: Checkpoint | None = None,
               name: str = "chunk", retries: int = 3, progress: Callable | None = None) -> list:
    """``[fn(chunk, *broadcast) for chunk in chunks]``, computed on the cluster, in chunk order.

    ``fn`` must be a module-level function (workers import it). ``broadcast`` values are scattered once to every
    worker. With ``checkpoint`` the chunks it already holds are not recomputed and each finished chunk is
    recorded as it arrives. ``progress(done, total)`` is called as chunks finish. A worker that dies loses only
    its running chunks, which are retried (``retries``).
    """
    n = len(chunks)
    if n == 0:
        raise DistributedError("empty batch: nothing to compute")
    with _connected(client) as c:
        return _map_chunks(fn, chunks, c, broadcast, checkpoint, name, retries, progress)


def _map_chunks(fn, chunks, client, broadcast, checkpoint, name, retries, progress) -> list:
    distributed = _dask()
    n = len(chunks)
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
