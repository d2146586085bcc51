"""Benchmarks: run with ``python -m pytest benchmarks --benchmark-enable`` (not part of the quick test run)."""
from __future__ import annotations

import time

import pytest


def rate(fn, min_time: float = 0.3, min_calls: int = 3) -> float:
    """Calls per second of ``fn`` after one warm-up call: the in-run baseline for throughput ratios."""
    fn()
    n = 0
    t0 = time.perf_counter()
    while True:
        fn()
        n += 1
        dt = time.perf_counter() - t0
        if n >= min_calls and dt >= min_time:
            return n / dt


@pytest.fixture(scope="session")
def twl():
    from numba_words import Lexicon

    return Lexicon.load("twl06")
