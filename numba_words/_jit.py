"""The project's JIT decorators: one place for Numba options.

``kernel``   serial, cached, releases the GIL (callable from several Python threads).
``pkernel``  the same with ``parallel=True``: only for functions whose outer loop is a ``prange``.
``inline``   small helpers inlined at Numba IR level into their callers (no call, no refcount traffic).
"""
from __future__ import annotations

import contextlib

import numba
import numpy as np

from .errors import NumbaWordsError


class ThreadsError(NumbaWordsError):
    """A thread count that is not a whole number from 1 to the number of threads Numba can use."""

kernel = numba.njit(cache=True, nogil=True)
pkernel = numba.njit(cache=True, nogil=True, parallel=True)
inline = numba.njit(inline="always", cache=True, nogil=True)


@contextlib.contextmanager
def threads(n: int | None):
    """Run the body with ``numba.set_num_threads(n)``; restore the old count afterwards.

    ``None`` or ``0`` keeps the current setting.
    """
    if n is None or (n == 0 and not isinstance(n, bool)):
        yield numba.get_num_threads()
        return
    top = numba.config.NUMBA_NUM_THREADS
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= top:
        raise ThreadsError(f"threads must be a whole number from 1 to {top} (this machine's cores), got {n!r}")
    n = int(n)
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield n
    finally:
        numba.set_num_threads(old)
