"""Bit tricks shared by every engine, written once.

All functions are Numba-compiled (``cache=True``) and callable from other kernels or from Python.
``popcount``/``lsb_index``/``msb_index`` map to single LLVM intrinsics (POPCNT, TZCNT, LZCNT).
Arguments are treated as unsigned 64-bit words; results are ``int64``.

``ONE``, ``ZERO`` and ``ALL64`` are ``uint64`` constants for kernels that need bit 63: in Numba a ``uint64`` mixed
with a plain literal (``x << 5``, ``x & 1``) becomes ``int64``; mixed with these it stays ``uint64``.
Other bit idioms (``x & (x - 1)`` to clear the lowest bit, the DAWG child rank in
``numba_words.lexicon._dawg.child_rank``) are written where they are used.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._jit import kernel

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
