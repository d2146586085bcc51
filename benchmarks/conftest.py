"""Benchmarks: run with ``python -m pytest benchmarks --benchmark-enable`` (not part of the quick test run)."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def twl():
    from numba_words import Lexicon

    return Lexicon.load("twl06")
