"""The one timing helper of the package: the CLI reports, the tour and every engine's ``bench.py`` use it.

``once(fn)``             seconds of one call (nothing else: no warm-up)
``timed(fn)``            ``(fn(), seconds)``: one call, keeping its result
``rate(fn, ...)``        calls per second over a time window, after one warm-up call
``best_of(fn, ...)``     the fastest single call, in seconds, over repeats (least disturbed by other processes)
``compare(fn, base...)`` throughput of ``fn`` beside a baseline measured in the same run, and their ratio

All use ``time.perf_counter``. Throughput is reported next to a baseline measured in the same run because
absolute figures depend on the machine and on what else runs on it; the ratio travels better.
"""
from __future__ import annotations

import time
from typing import Callable, NamedTuple


def once(fn: Callable) -> float:
    """Seconds one call of ``fn`` takes."""
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def timed(fn: Callable):
    """``(fn(), seconds)``: the result of one call of ``fn`` and the seconds it took."""
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def rate(fn: Callable, min_time: float = 0.15, min_calls: int = 3, warmup: bool = True) -> float:
    """Calls per second of ``fn``: at least ``min_calls`` calls and ``min_time`` seconds, after one warm-up
    call (compilation, caches) unless ``warmup=False``."""
    if warmup:
        fn()
    n = 0
    t0 = time.perf_counter()
    while True:
        fn()
        n += 1
        dt = time.perf_counter() - t0
        if n >= min_calls and dt >= min_time:
            return n / dt


def best_of(fn: Callable, repeats: int = 3, min_time: float = 0.0, warmup: bool = True) -> float:
    """Seconds of the fastest of at least ``repeats`` calls of ``fn`` (calls go on until ``min_time`` seconds
    have passed), after one warm-up call unless ``warmup=False``."""
    if warmup:
        fn()
    best = float("inf")
    end = time.perf_counter() + min_time
    n = 0
    while n < repeats or time.perf_counter() < end:
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
        n += 1
    return best


class Comparison(NamedTuple):
    """Units of work per second of the measured function and of its baseline, and ``rate / baseline``."""

    rate: float
    baseline: float
    ratio: float

    def __str__(self) -> str:
        return f"{_si(self.rate)}/s vs {_si(self.baseline)}/s ({self.ratio:,.1f}x)"


def compare(fn: Callable, baseline: Callable, units: float = 1, baseline_units: float | None = None, *,
            min_time: float = 0.15, min_calls: int = 3, baseline_min_time: float | None = None) -> Comparison:
    """Throughput of ``fn`` (``units`` of work a call, e.g. words looked up) beside ``baseline``
    (``baseline_units`` a call, default ``units``), both measured now, one after the other.

    ``fn`` gets a warm-up call and at least ``min_calls`` calls; the baseline (plain Python, often slow) no
    warm-up and at least one call; each runs for ``min_time`` seconds (``baseline_min_time`` for the baseline).
    """
    fast = rate(fn, min_time, min_calls) * units
    bu = units if baseline_units is None else baseline_units
    slow = rate(baseline, min_time if baseline_min_time is None else baseline_min_time, 1, warmup=False) * bu
    return Comparison(fast, slow, fast / slow if slow > 0 else float("inf"))


def _si(x: float) -> str:
    """A rate with a metric suffix: ``1.2M``, ``35k``, ``870``."""
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{suffix}"
    return f"{x:.3g}"
