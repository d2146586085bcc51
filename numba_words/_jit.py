"""The project's JIT decorators: one place for Numba options.

``kernel``   serial, cached, releases the GIL (callable from several Python threads).
``pkernel``  the same with ``parallel=True``: only for functions whose outer loop is a ``prange``.
``inline``   small helpers inlined at Numba IR level into their callers (no call, no refcount traffic).
"""
from __future__ import annotations

import contextlib

import numba

kernel = numba.njit(cache=True, nogil=True)
pkernel = numba.njit(cache=True, nogil=True, parallel=True)
inline = numba.njit(inline="always", cache=True, nogil=True)


@contextlib.contextmanager
def threads(n: int | None):
    """Run the body with ``numba.set_num_threads(n)``; restore the old count afterwards.

    ``None`` or ``0`` keeps the current setting.
    """
    if not n:
        yield numba.get_num_threads()
        return
    n = int(n)
    if n < 1 or n > numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads must be between 1 and {numba.config.NUMBA_NUM_THREADS}, got {n!r}")
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield n
    finally:
        numba.set_num_threads(old)
