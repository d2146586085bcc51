"""Bit helpers against plain Python integers, including bit 63."""
from __future__ import annotations

import numba
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from numba_words import bits
from numba_words._jit import kernel

u64 = st.integers(min_value=0, max_value=(1 << 64) - 1)


@given(u64)
def test_popcount_lsb_msb(x):
    v = np.uint64(x)
    assert bits.popcount(v) == bin(x).count("1")
    assert bits.lsb_index(v) == ((x & -x).bit_length() - 1 if x else 64)
    assert bits.msb_index(v) == x.bit_length() - 1
    assert int(bits.clear_lsb(v)) == x & (x - 1)
    assert int(bits.lsb(v)) == x & -x


@given(u64, st.integers(min_value=0, max_value=64))
def test_rank_and_low_mask(x, i):
    assert int(bits.low_mask(i)) == (1 << i) - 1
    assert bits.rank(np.uint64(x), i) == bin(x & ((1 << i) - 1)).count("1")


@given(u64)
def test_set_bits_and_reverse(x):
    out = np.empty(64, dtype=np.int64)
    n = bits.set_bits(np.uint64(x), out)
    assert list(out[:n]) == [i for i in range(64) if x >> i & 1]
    w = 15
    low = x & ((1 << w) - 1)
    assert int(bits.reverse_bits(np.uint64(low), w)) == int(format(low, f"0{w}b")[::-1], 2)


@given(st.lists(st.integers(min_value=0, max_value=(1 << 15) - 1), min_size=15, max_size=15))
def test_transpose_lines(lines):
    a = np.array(lines, dtype=np.int64)
    out = np.empty(15, dtype=np.int64)
    bits.transpose_lines(a, 15, out)
    for r in range(15):
        for c in range(15):
            assert (lines[r] >> c & 1) == (int(out[c]) >> r & 1)


@kernel
def _types_probe(x):
    return bits.clear_lsb(x), bits.lsb(x), bits.bit(63), bits.low_mask(64)


def test_unsigned_results_keep_bit_63():
    r = _types_probe(np.uint64(1 << 63))
    (sig,) = _types_probe.nopython_signatures  # boxed results are Python ints: check the compiled types
    assert list(sig.return_type) == [numba.uint64] * 4
    assert int(r[0]) == 0 and int(r[1]) == 1 << 63 and int(r[2]) == 1 << 63 and int(r[3]) == (1 << 64) - 1
