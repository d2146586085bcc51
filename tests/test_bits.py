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


@given(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1))
def test_signed_words_are_read_as_unsigned(x):
    u = x & ((1 << 64) - 1)
    v = np.int64(x)
    assert bits.popcount(v) == bin(u).count("1")
    assert bits.lsb_index(v) == ((u & -u).bit_length() - 1 if u else 64)
    assert bits.msb_index(v) == u.bit_length() - 1


@given(st.integers(min_value=0, max_value=(1 << 32) - 1))
def test_narrow_integers_are_zero_extended(x):
    assert bits.popcount(np.uint32(x)) == bin(x).count("1")
    assert bits.msb_index(np.uint32(x)) == x.bit_length() - 1
    assert bits.lsb_index(np.uint8(x & 0xFF)) == (((x & 0xFF) & -(x & 0xFF)).bit_length() - 1 if x & 0xFF else 64)


@kernel
def _types_probe(x):
    top = bits.ONE << np.uint64(63)
    clear = x & (x - bits.ONE)
    return top, clear, bits.ALL64 ^ x, bits.ZERO | x, bits.popcount(top), bits.msb_index(top)


def test_named_constants_keep_bit_63():
    r = _types_probe(np.uint64(1 << 63))
    (sig,) = _types_probe.nopython_signatures  # boxed results are Python ints: check the compiled types
    assert list(sig.return_type)[:4] == [numba.uint64] * 4
    assert list(sig.return_type)[4:] == [numba.int64] * 2
    assert [int(v) for v in r] == [1 << 63, 0, (1 << 63) - 1, 1 << 63, 1, 63]


def test_prefetch_is_a_hint_that_changes_nothing():
    """``prefetch`` compiles for 1-D and C-contiguous N-D arrays of any dtype (flat index) and leaves every result
    as it was, also for indices outside the array (a hint faults nothing)."""
    from numba_words._jit import prefetch

    @numba.njit
    def gather(a, flat, ix):
        s = 0
        for i in ix:
            prefetch(a, i)
            prefetch(a, i + (1 << 40))
        for i in ix:
            s += flat[i]
        return s

    rng = np.random.default_rng(1)
    for a in (rng.integers(0, 100, 1 << 16), rng.integers(0, 100, (8, 64, 15)).astype(np.uint16)):
        ix = rng.integers(0, a.size, 200)
        assert gather(a, a.ravel(), ix) == int(a.ravel()[ix].astype(np.int64).sum())


def test_kernel_clock_is_the_python_monotonic_clock():
    """``monotonic_ns`` in a kernel reads the clock ``monotonic_now`` reads from Python: never backwards, and a
    kernel's reading falls between two Python readings around the call."""
    from numba_words._jit import MONOTONIC, monotonic_now, monotonic_ns

    @numba.njit
    def readings(n):
        out = np.empty(n, dtype=np.int64)
        for i in range(n):
            out[i] = monotonic_ns()
        return out

    readings(1)
    before = monotonic_now()
    r = readings(10_000)
    after = monotonic_now()
    if MONOTONIC is None:
        assert before == after == 0 and not r.any()
    else:
        assert before <= r[0] and r[-1] <= after and (np.diff(r) >= 0).all()
