"""Bit tricks shared by every engine, written once.

All functions are Numba-compiled (``cache=True``) and callable from other kernels or from Python.
``popcount``/``lsb_index``/``msb_index`` map to single LLVM intrinsics (POPCNT, TZCNT, LZCNT).
Arguments are treated as unsigned 64-bit words; results are ``int64``.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._jit import kernel

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def _unary_intrinsic(build):
    """A Numba intrinsic ``int64 f(integer)`` whose body is ``build(builder, value_as_i64)``."""

    def typer(typingctx, x):
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            (val,) = args
            if val.type.width < 64:
                val = builder.zext(val, ir.IntType(64))
            return build(builder, val)

        return types.int64(x), codegen

    return intrinsic(typer)


_FALSE = ir.Constant(ir.IntType(1), 0)
_ctpop = _unary_intrinsic(lambda b, v: b.ctpop(v))
_cttz = _unary_intrinsic(lambda b, v: b.cttz(v, _FALSE))
_ctlz = _unary_intrinsic(lambda b, v: b.ctlz(v, _FALSE))


@kernel
def popcount(x):
    """Number of set bits of ``x`` (as an unsigned 64-bit word)."""
    return _ctpop(x)


@kernel
def lsb_index(x):
    """Index (0..63) of the lowest set bit of ``x``; 64 when ``x == 0``."""
    return _cttz(x)


@kernel
def msb_index(x):
    """Index (0..63) of the highest set bit of ``x``; -1 when ``x == 0``."""
    return 63 - _ctlz(x)


@kernel
def clear_lsb(x):
    """``x`` with its lowest set bit cleared (``x & (x - 1)``), as ``uint64``."""
    x = np.uint64(x)
    return x & (x - ONE)


@kernel
def lsb(x):
    """The lowest set bit of ``x`` as a one-bit ``uint64`` mask (``x & -x``)."""
    x = np.uint64(x)
    return x & (~x + ONE)


@kernel
def bit(i):
    """``1 << i`` as ``uint64`` (``0 <= i < 64``)."""
    return ONE << np.uint64(i)


@kernel
def low_mask(i):
    """The ``i`` lowest bits set, as ``uint64`` (``0 <= i <= 64``)."""
    if i >= 64:
        return ALL64
    return (ONE << np.uint64(i)) - ONE


@kernel
def rank(mask, i):
    """Number of set bits of ``mask`` below bit ``i``: the index of item ``i`` in a popcount-packed list."""
    return _ctpop(np.uint64(mask) & low_mask(i))


@kernel
def set_bits(x, out):
    """Write the indices of the set bits of ``x`` into ``out`` in increasing order; return how many."""
    x = np.uint64(x)
    n = 0
    while x:
        out[n] = _cttz(x)
        n += 1
        x &= x - ONE
    return n


@kernel
def reverse_bits(x, width):
    """The lowest ``width`` bits of ``x`` in reverse order (bit 0 <-> bit width-1)."""
    x = np.uint64(x)
    r = ZERO
    for _ in range(width):
        r = (r << ONE) | (x & ONE)
        x >>= ONE
    return r


@kernel
def transpose_lines(lines, width, out):
    """Transpose a ``width``-by-``width`` bit matrix given as ``lines[r]`` bit ``c``: ``out[c]`` bit ``r``."""
    for c in range(width):
        out[c] = 0
    for r in range(width):
        x = np.uint64(lines[r])
        while x:
            c = _cttz(x)
            out[c] |= 1 << r
            x &= x - ONE
