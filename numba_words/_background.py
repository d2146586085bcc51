"""Kernels compiled in a background process on a machine's first run, while the caller answers another way.

A large kernel (Scrabble's pruned best-play search: ~10 s of compiling) need not hold up the first call that
wants it when a kernel that is compiled anyway gives the same answer more slowly (ranking every play). On a
machine's first run :meth:`BackgroundCompile.ready` starts one process that compiles the kernel into Numba's
on-disk cache and says ``False`` until that process has finished; from then on the kernel loads from the cache.
Set ``NUMBA_WORDS_BACKGROUND_COMPILE=0`` to compile in the calling process instead (as the test suite does).
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ENV = "NUMBA_WORDS_BACKGROUND_COMPILE"
LIMIT = 300.0
"""Seconds a background compile may take (~10 s on a 2-core machine); past them it is stopped and the kernel
compiles where it is called, so a stuck process never leaves a caller on the slower path."""


def enabled() -> bool:
    """Whether background compiling is allowed (``NUMBA_WORDS_BACKGROUND_COMPILE`` unset or not ``0``)."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def cached(dispatcher) -> bool:
    """Whether Numba's on-disk cache holds an up-to-date compiled version of ``dispatcher``."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # a Numba without these internals: behave as if cached (compile where called)
        return True


class BackgroundCompile:
    """The first-run state of one kernel (``dispatcher``) that ``code`` (Python source run in a fresh process)
    compiles. Thread-safe."""

    def __init__(self, dispatcher, code: str):
        self._disp = dispatcher
        self._code = code
        self._proc = None
        self._started = 0.0
        self._ready = False
        self._lock = threading.Lock()

    def ready(self) -> bool:
        """True when calling the kernel compiles nothing here: it is compiled in this process or cached, or the
        background process has finished (had it failed, the call compiles the kernel here), or background
        compiling is off or cannot start. Else (the first time) starts the background process; False."""
        if self._ready:
            return True
        with self._lock:
            if self._ready:
                return True
            if self._proc is None:
                if self._disp.overloads or not enabled() or not sys.executable or cached(self._disp):
                    self._ready = True
                else:
                    self._proc = _spawn(self._code)
                    self._started = time.monotonic()
                    self._ready = self._proc is None
            elif self._proc.poll() is not None:
                self._ready = True
            elif time.monotonic() - self._started > LIMIT:
                self._proc.kill()
                try:
                    self._proc.wait(10)
                except subprocess.TimeoutExpired:
                    pass
                self._ready = True
            return self._ready

    @property
    def running(self) -> bool:
        """Whether the background process is still compiling."""
        return self._proc is not None and self._proc.poll() is None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: until :data:`LIMIT` after the start) for a background compile;
        returns :meth:`ready`."""
        proc = self._proc
        if proc is not None:
            left = max(0.0, self._started + LIMIT - time.monotonic()) + 0.1
            try:
                proc.wait(left if timeout is None else min(timeout, left))
            except subprocess.TimeoutExpired:
                pass
        return self.ready()


def _spawn(code: str):
    """A Python process running ``code`` with this package importable, quiet; None if it cannot start."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env[ENV] = "0"
    try:
        return subprocess.Popen([sys.executable, "-c", code], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None
