"""Background compiling on a machine's first run (numba_words._background, Position.best)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from numba_words import _background
from numba_words._background import BackgroundCompile

ROOT = Path(__file__).resolve().parents[1]


class _Index:
    def __init__(self, entries):
        self.entries = entries

    def _load_index(self):
        return self.entries


class _Cache:
    def __init__(self, entries):
        self._cache_file = _Index(entries)


class FakeKernel:
    """What BackgroundCompile reads of a Numba dispatcher: its overloads and its cache index."""

    def __init__(self, overloads=None, index=None):
        self.overloads = overloads or {}
        self._cache = _Cache(index or {})


def _writer(path: Path, pause: float) -> str:
    """Code that appends a line to ``path``, waits ``pause`` s, and appends another."""
    return (f"import time; f = open({str(path)!r}, 'a'); f.write('start\\n'); f.flush(); time.sleep({pause}); "
            "f.write('done\\n'); f.close()")


@pytest.fixture
def on(monkeypatch):
    monkeypatch.setenv(_background.ENV, "1")


def test_cold_kernel_compiles_in_one_background_process(tmp_path, on):
    log = tmp_path / "log"
    bc = BackgroundCompile(FakeKernel(), _writer(log, 1.0))
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(bc.ready())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [False] * 8 and bc.running
    assert bc.wait(60) is True and not bc.running
    assert log.read_text() == "start\ndone\n"  # one process, which ran to its end
    assert bc.ready() is True


def test_no_background_process_when_not_needed(tmp_path, on, monkeypatch):
    log = tmp_path / "log"
    for kernel in (FakeKernel(overloads={"sig": 1}), FakeKernel(index={"sig": 1})):
        bc = BackgroundCompile(kernel, _writer(log, 0.0))
        assert bc.ready() is True and not bc.running
    monkeypatch.setenv(_background.ENV, "0")
    bc = BackgroundCompile(FakeKernel(), _writer(log, 0.0))
    assert bc.ready() is True and not bc.running
    time.sleep(0.3)
    assert not log.exists()


def test_a_process_that_cannot_start_means_compile_here(tmp_path, on, monkeypatch):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python-here"))
    bc = BackgroundCompile(FakeKernel(), "pass")
    assert bc.ready() is True and not bc.running


def test_a_stuck_background_process_is_stopped(tmp_path, on, monkeypatch):
    monkeypatch.setattr(_background, "LIMIT", 0.5)
    bc = BackgroundCompile(FakeKernel(), _writer(tmp_path / "log", 600))
    assert bc.ready() is False
    t = time.monotonic()
    assert bc.wait() is True and time.monotonic() - t < 60  # the limit, not the 600 s the process would take
    assert not bc.running


def test_a_failed_background_process_means_compile_here(on):
    bc = BackgroundCompile(FakeKernel(), "raise SystemExit(3)")
    assert bc.ready() is False
    assert bc.wait(60) is True


CGP = "15/15/15/15/15/15/15/3CAT9/15/15/15/15/15/15/15 AEINRS?/ 0/0 0 lex TWL06;"

FIRST_RUN = f"""
import json
from numba_words.scrabble import Position, _best
from numba_words.scrabble._board import BEST_SEARCH
p = Position.from_cgp({CGP!r})
out = {{"first": str(p.best()), "first_eq": str(p.best("equity")), "running": BEST_SEARCH.running,
        "compiled_here": len(_best.search_rack.overloads)}}
out["ready"] = BEST_SEARCH.wait(600)
q = Position.from_cgp({CGP!r})
out["later"], out["later_eq"] = str(q.best()), str(q.best("equity"))
out["compiled_after"] = len(_best.search_rack.overloads)
out["all"], out["all_eq"] = str(q.legal_plays().best()), str(q.legal_plays().best("equity"))
print(json.dumps(out))
"""


@pytest.mark.slow
def test_first_run_answers_while_the_search_compiles_elsewhere(tmp_path):
    """A fresh cache: the first best() ranks every play while another process compiles the search; later calls
    load the search from the cache (same plays)."""
    _seed_cache(tmp_path / "numba", leave_out="search_rack")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           _background.ENV: "1"}
    r = subprocess.run([sys.executable, "-c", FIRST_RUN], env=env, cwd=ROOT, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["running"] is True and out["compiled_here"] == 0  # answered without the search
    assert out["ready"] is True and out["compiled_after"] == 1  # then loaded it, one signature for both objectives
    assert out["first"] == out["later"] == out["all"] and out["first"] != "None"
    assert out["first_eq"] == out["later_eq"] == out["all_eq"]
    assert any((tmp_path / "numba").rglob("*search_rack*.nbi"))


def _seed_cache(dest: Path, leave_out: str) -> None:
    """Copy this run's compiled kernels into ``dest`` laid out as a ``NUMBA_CACHE_DIR``, but those whose file names
    contain ``leave_out``: only that kernel is missing there (the others would take minutes to compile again). Where
    nothing is compiled yet, or Numba lays its cache out otherwise, the process under test compiles them itself."""
    import shutil

    from numba.core.caching import _CacheLocator

    here = os.environ.get("NUMBA_CACHE_DIR")
    for src in (ROOT / "numba_words").rglob("*.py"):
        sub = _CacheLocator.get_suitable_cache_subpath(str(src))
        cached = Path(here) / sub if here else src.parent / "__pycache__"
        for f in cached.glob(f"{src.stem}.*.nb[ic]"):
            if leave_out not in f.name:
                (dest / sub).mkdir(parents=True, exist_ok=True)
                shutil.copy2(f, dest / sub / f.name)
