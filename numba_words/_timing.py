"""Throughput measurement shared by the CLI reports and the benchmarks."""
from __future__ import annotations

import time


def rate(fn, min_time: float = 0.15, min_calls: int = 3) -> float:
    """Calls per second of ``fn`` after one warm-up call (at least ``min_calls`` calls, ``min_time`` s)."""
    fn()
    n = 0
    t0 = time.perf_counter()
    while True:
        fn()
        n += 1
        dt = time.perf_counter() - t0
        if n >= min_calls and dt >= min_time:
            return n / dt


def once(fn) -> float:
    """Seconds one call of ``fn`` takes."""
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t
