"""The project's JIT decorators: one place for Numba options.

``kernel``   serial, cached, releases the GIL (callable from several Python threads).
``pkernel``  the same with ``parallel=True``: only for functions whose outer loop is a ``prange``.
``inline``   small helpers inlined at Numba IR level into their callers (no call, no refcount traffic).
``borrowed`` an array argument passed on to a non-inlined kernel without reference counting.
``ix``       an index (>= 0) that skips Numba's negative-index wraparound, for the hottest array accesses.
``monotonic_ns`` the system's monotonic clock inside a kernel, for deadlines it checks itself.
"""
from __future__ import annotations

import contextlib
import os
import time

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .errors import NumbaWordsError


class ThreadsError(NumbaWordsError):
    """A thread count that is not a whole number from 1 to the number of threads Numba can use."""

def _kernel_sources(folder: str) -> bytes:
    """A digest of every source file a kernel defined in ``folder`` may compile in: the kernel modules
    (``_*.py``) of that engine and of the lexicon, plus ``bits.py`` and this file."""
    import hashlib
    from pathlib import Path

    here = Path(__file__).resolve().parent
    engine = Path(folder)
    files = [here / "bits.py", here / "_jit.py"]
    for folder in dict.fromkeys((here / "lexicon", engine)):
        files += sorted(f for f in folder.glob("_*.py") if f.name not in ("__init__.py", "_reference.py"))
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.digest()


def _stamp_package_kernels() -> None:
    """Make Numba's on-disk cache of this package's kernels stale when any source they may inline changes.

    Numba stamps a cached kernel with its own file only: a kernel whose callee in another module changed would
    load old machine code. Each locator class is wrapped so that, for files of this package, the stamp also
    holds :func:`_kernel_sources` of the file's engine."""
    import functools
    from pathlib import Path

    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list) or any(getattr(c, "_numba_words", False) for c in classes):
        return
    root = str(Path(__file__).resolve().parent)
    digest = functools.lru_cache(maxsize=None)(_kernel_sources)

    def stamped(base):
        class Stamped(base):
            _numba_words = True

            @classmethod
            def from_function(cls, py_func, py_file):
                if not str(Path(py_file).resolve()).startswith(root):
                    return None
                return super().from_function(py_func, py_file)

            def get_source_stamp(self):
                folder = str(Path(self._py_file).resolve().parent)
                return (super().get_source_stamp(), digest(folder))

        Stamped.__name__ = Stamped.__qualname__ = f"NumbaWords{base.__name__.lstrip('_')}"
        return Stamped

    names = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
    bases = [getattr(caching, n, None) or getattr(caching, "_" + n, None) for n in names]
    classes[:0] = [stamped(b) for b in bases if b is not None]


_stamp_package_kernels()

kernel = numba.njit(cache=True, nogil=True)
pkernel = numba.njit(cache=True, nogil=True, parallel=True)
inline = numba.njit(inline="always", cache=True, nogil=True)


@inline
def ix(i):
    """``i`` (>= 0) as an unsigned array index: Numba wraps a signed index that may be negative (two or three
    instructions an access), not an unsigned one. A negative ``i`` turns into an index past the end, which the
    bounds-checked build reports."""
    return np.uint64(i)


def compiled_entry(dispatcher, args):
    """The compiled code of ``dispatcher`` for exactly the types of ``args`` (a Python callable that skips the
    dispatcher's type checks and overload choice: ~0.5 us of a call with 31 arguments), or ``dispatcher`` itself
    while nothing is compiled for them. Only for a caller that passes arguments of those same types on every call
    (the entry converts each argument as its compiled type says, unchecked)."""
    try:
        sig = tuple(dispatcher.typeof_pyval(a) for a in args)
    except Exception:
        return dispatcher
    cres = dispatcher.overloads.get(sig)
    return dispatcher if cres is None else cres.entry_point


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
        env = os.environ.get("NUMBA_NUM_THREADS", "").strip()
        why = f"NUMBA_NUM_THREADS={env} in the environment" if env else "this machine's cores"
        raise ThreadsError(f"threads must be a whole number from 1 to {top} ({why}), got {n!r}")
    n = int(n)
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield n
    finally:
        numba.set_num_threads(old)


@intrinsic
def borrowed(typingctx, arr):
    """``borrowed(a)``: the array ``a`` without its reference count (the same data, shape and strides; no
    meminfo). Passing it to a non-inlined kernel then costs no atomic increment and decrement. Only for an
    array that the caller keeps alive for as long as the view is used: a kernel's argument, or an array the kernel
    made and uses after the view (Numba frees an array after its last use: make the view at the call)."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        view = context.make_array(arr)(context, builder, value=args[0])
        view.meminfo = ir.Constant(view.meminfo.type, None)
        return view._getvalue()

    return arr(arr), codegen


@intrinsic
def unliteral(typingctx, x):
    """``x`` typed as its plain type (``bool``, ``int64``), not as a literal such as ``Literal[bool](True)``.

    Numba types a kernel's arguments while it infers their types: a variable that starts as ``True`` and is
    later ``False`` reaches its callees first as the literal, then as ``bool``, and every callee (the whole
    search under it) compiles twice. Starting the variable as ``unliteral(True)`` compiles them once."""
    plain = types.unliteral(x)

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], x, plain)

    return plain(x), codegen


@intrinsic
def prefetch(typingctx, arr, idx):
    """``prefetch(a, i)``: ask the CPU to bring element ``i`` of the C-contiguous array ``a`` (flat index) into the
    caches; no effect on results (a hint: an index outside the array faults nothing). For a kernel that will read
    scattered entries of a table larger than the caches: hinted together first, the misses overlap."""
    if not (isinstance(arr, types.Array) and arr.layout == "C" and isinstance(idx, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(arr)(context, builder, value=args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        name = "llvm.prefetch.p0" if str(ptr.type) == "ptr" else "llvm.prefetch.p0i8"  # (opaque pointers or not)
        fn = cgutils.get_or_insert_function(builder.module, fnty, name)  # (read, keep in every level, data)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


#: The clock ``monotonic_ns`` reads (``time.CLOCK_MONOTONIC``; None where the C library has no ``clock_gettime``).
MONOTONIC = getattr(time, "CLOCK_MONOTONIC", None)


def monotonic_now() -> int:
    """``monotonic_ns()`` from Python: the same clock, for a deadline a kernel compares with it (0: no clock)."""
    return time.clock_gettime_ns(MONOTONIC) if MONOTONIC is not None else 0


@intrinsic
def monotonic_ns(typingctx):
    """Nanoseconds of the monotonic clock (``clock_gettime(CLOCK_MONOTONIC)``, about 20 ns a call), the clock of
    ``monotonic_now``; always 0 where there is no such clock. A kernel that checks a deadline itself stops on
    time without waiting for a Python thread to be scheduled (or for the GIL)."""
    def codegen(context, builder, signature, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        if MONOTONIC is None:
            return ir.Constant(i64, 0)
        ts = cgutils.alloca_once(builder, ir.ArrayType(i64, 2))  # struct timespec: seconds, nanoseconds
        i8p = ir.IntType(8).as_pointer()
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i32, [i32, i8p]), "clock_gettime")
        builder.call(fn, [ir.Constant(i32, MONOTONIC), builder.bitcast(ts, i8p)])
        zero = ir.Constant(i32, 0)
        sec = builder.load(builder.gep(ts, [zero, zero]))
        nsec = builder.load(builder.gep(ts, [zero, ir.Constant(i32, 1)]))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return types.int64(), codegen
