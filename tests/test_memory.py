"""Large tables copied onto 2 MB-aligned memory (``numba_words._memory``): same contents, types and flags."""
from __future__ import annotations

import sys

import numpy as np

from numba_words._memory import HUGE_PAGE, MIN_BYTES, on_huge_pages


def test_large_tables_are_copied_aligned_and_small_ones_kept():
    a = np.arange(3 * MIN_BYTES // 8, dtype=np.int64).reshape(-1, 3)
    b = on_huge_pages(a)
    assert b.dtype == a.dtype and b.shape == a.shape and (b == a).all() and b.flags.c_contiguous
    if sys.platform.startswith("linux"):
        assert b.ctypes.data % HUGE_PAGE == 0 and b is not a
    small = np.arange(10)
    assert on_huge_pages(small) is small
    frozen = a.copy()
    frozen.flags.writeable = False
    assert not on_huge_pages(frozen).flags.writeable
    t = on_huge_pages((a, small, "x"))
    assert type(t) is tuple and (t[0] == a).all() and t[1] is small and t[2] == "x"
