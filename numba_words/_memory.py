"""Large read-only tables on 2 MB pages.

Kernels read tables of megabytes at random (word maps, filters, leave values, the span table): each read of a 4 kB
page not in the CPU's address cache (TLB) first walks the page tables. Linux backs memory with 2 MB pages where a
program asks for them (``madvise``, which NumPy does for allocations of 4 MB and more) and the range is aligned on
2 MB; one TLB entry then covers 512 times as much.
"""
from __future__ import annotations

import sys

import numpy as np

HUGE_PAGE = 2 << 20
"""Bytes of a large page (x86-64 and arm64 Linux)."""
MIN_BYTES = 1 << 20
"""Smaller arrays are left where they are."""


def on_huge_pages(a):
    """``a`` (an array of :data:`MIN_BYTES` or more, on Linux) copied into memory aligned on 2 MB whose size is a
    multiple of 2 MB, so that the kernel can back all of it with large pages; anything else returned as it is.
    A tuple is converted item by item."""
    if isinstance(a, tuple):
        return tuple(on_huge_pages(x) for x in a)
    if not isinstance(a, np.ndarray) or a.nbytes < MIN_BYTES or not sys.platform.startswith("linux") \
            or not a.flags.c_contiguous or a.dtype.hasobject:
        return a
    size = -(-a.nbytes // HUGE_PAGE) * HUGE_PAGE
    buf = np.empty(size + HUGE_PAGE, np.uint8)  # (>= 4 MB: NumPy asks Linux for large pages)
    at = -buf.ctypes.data % HUGE_PAGE
    out = buf[at:at + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    out.flags.writeable = a.flags.writeable
    return out
