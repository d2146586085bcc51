"""The timing helper on a fake clock: how many calls, what it returns (no wall-clock limits)."""
from __future__ import annotations

import pytest

from numba_words import _timing


class Clock:
    """``time.perf_counter`` stand-in; each call of a timed function advances it by ``step``."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(_timing.time, "perf_counter", c)
    return c


def work(clock, seconds, calls):
    def fn():
        calls.append(1)
        clock.now += seconds(len(calls)) if callable(seconds) else seconds
        return len(calls)

    return fn


def test_once_and_timed(clock):
    calls = []
    assert _timing.once(work(clock, 0.5, calls)) == 0.5 and len(calls) == 1
    assert _timing.timed(work(clock, 0.25, calls)) == (2, 0.25)


def test_rate_warms_up_then_runs_long_enough(clock):
    calls = []
    r = _timing.rate(work(clock, 0.1, calls), min_time=0.35, min_calls=2)
    assert len(calls) == 1 + 4 and r == pytest.approx(4 / 0.4)
    calls.clear()
    r = _timing.rate(work(clock, 1.0, calls), min_time=0.1, min_calls=3, warmup=False)
    assert len(calls) == 3 and r == pytest.approx(1.0)


def test_best_of_takes_the_fastest_call(clock):
    calls = []
    t = _timing.best_of(work(clock, lambda i: [9, 3, 1, 2, 5][i - 1], calls), repeats=4)
    assert len(calls) == 5 and t == 1  # the warm-up call (9 s) is not counted


def test_compare_units_and_ratio(clock):
    fast, slow = [], []
    c = _timing.compare(work(clock, 0.01, fast), work(clock, 0.5, slow), units=100, baseline_units=10,
                        min_time=0.05, baseline_min_time=0.0)
    assert c.rate == pytest.approx(100 / 0.01) and c.baseline == pytest.approx(10 / 0.5)
    assert c.ratio == pytest.approx(500) and len(slow) == 1 and len(fast) == 1 + 5
    assert str(c) == "10k/s vs 20/s (500.0x)"
