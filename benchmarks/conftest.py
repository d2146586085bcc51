"""Benchmarks: run with ``python -m pytest benchmarks --benchmark-enable`` (not part of the quick test run)."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def twl():
    from numba_words import Lexicon

    return Lexicon.load("twl06")


def pytest_collection_modifyitems(config, items):
    """Benchmarks need timing: without ``--benchmark-enable`` they are skipped, not failed."""
    if config.getoption("benchmark_enable", False):
        return
    skip = pytest.mark.skip(reason="throughput benchmarks: run with --benchmark-enable")
    for item in items:
        item.add_marker(skip)
