"""Reliability: caches are input (tampered derived tables are rebuilt), no array a kernel trusts is writable,
and the reproducers of crashes and wrong answers found by hostile probing. Crash-prone reproducers run in a
subprocess, so that a regression fails its test instead of killing the test run."""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from numba_words import Lexicon, LexiconError, NumbaWordsError
from numba_words.lexicon import cache
from numba_words.lexicon.cache import CacheWarning

REPO = Path(__file__).resolve().parents[1]
CGP = "15/15/15/15/15/7L7/7U7/5BUG7/5I9/5D9/5SH8/6E8/6S8/15/15 DEFHNQR/ 24/15 0"
BOARD = json.loads((REPO / "tests" / "data" / "bookworm" / "boards.jsonl").read_text().splitlines()[0])


def _python(code: str, cache_dir=None, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -c code`` in a fresh process (warnings shown once each), optionally with its own lexicon cache."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if cache_dir is not None:
        env["NUMBA_WORDS_CACHE_DIR"] = str(cache_dir)
    return subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True, env=env,
                          timeout=timeout)


# ------------------------------------------------------------------ 1. derived tables in the cache are input
USE = f"""
from numba_words.scrabble import Position
from numba_words.bookworm import solve
p = Position.from_cgp({CGP!r})
print(len(p.legal_plays()), p.best())
print(len(solve({" ".join(BOARD["columns_bottom_to_top"])!r})))
"""


def _tamper_like_the_issue(cache_dir) -> int:
    """Values changed inside valid archives (new CRCs): the issue's reproducer. Returns the files changed."""
    files = glob.glob(str(cache_dir / "derived-*.npz"))
    for f in files:
        z = dict(np.load(f))
        for k, a in z.items():
            if k != "n" and a.dtype.kind in "iu":
                a = a.copy()
                a.reshape(-1)[::7] = np.iinfo(a.dtype).max if a.itemsize < 8 else 2 ** 40
                z[k] = a
        with open(f, "wb") as fh:
            np.savez(fh, **z)
    return len(files)


@pytest.mark.slow  # two fresh processes, each loading TWL06 and building its tables
def test_tampered_derived_tables_are_rebuilt_with_a_warning(tmp_path):
    first = _python(USE, tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    assert first.stdout.split("\n")[:2] == ["159 H10 FEH 28", str(BOARD["n_words"])]
    assert _tamper_like_the_issue(tmp_path) >= 4  # Scrabble's word tables, reach, substrings; Bookworm's pack
    second = _python(USE, tmp_path)
    assert second.returncode == 0, second.stderr[-2000:]  # (a segmentation fault before)
    assert second.stdout == first.stdout  # (130 plays and 0 Bookworm words before)
    assert second.stderr.count("CacheWarning") >= 4 and "rebuilding" in second.stderr


def _cached(tmp_path, monkeypatch, words=("CAT", "ACT", "DOG", "GOD", "TACT", "CATS", "ACTS", "DOGS")):
    monkeypatch.setenv("NUMBA_WORDS_CACHE_DIR", str(tmp_path))
    src = tmp_path / "list.txt"
    src.write_text("\n".join(words) + "\n")
    Lexicon.load(src)
    return lambda: Lexicon.load(src)


def test_a_derived_table_changed_within_its_value_ranges_is_rebuilt(tmp_path, monkeypatch):
    """A change no range check can see (two word ids swapped) is caught by the seal of the file's contents."""
    from numba_words.scrabble._tables import wtabs_for

    fresh = _cached(tmp_path, monkeypatch)
    want = wtabs_for(fresh())
    (f,) = tmp_path.glob("derived-*wtabs*.npz")
    z = dict(np.load(f))
    wids = z["a2"].copy()
    wids[[0, 1]] = wids[[1, 0]]
    assert not np.array_equal(wids, z["a2"])
    z["a2"] = wids
    with open(f, "wb") as fh:
        np.savez(fh, **z)
    with pytest.warns(CacheWarning, match="contents are not the ones written.*rebuilding"):
        got = wtabs_for(fresh())
    assert all(np.array_equal(a, b) for a, b in zip(got, want))


@pytest.mark.parametrize("table", ["reach", "wtabs", "substrings", "pack", "reversed"])
def test_each_derived_table_check_refuses_out_of_range_values(tmp_path, monkeypatch, table):
    """Each table's own check (what a forged seal would still meet) refuses values kernels would index with."""
    from numba_words.bookworm import _tables as B
    from numba_words.lexicon import lexicon as L
    from numba_words.scrabble import _tables as S

    lex = _cached(tmp_path, monkeypatch)()
    check, good = {"reach": (S._check_reach, S.reach_for), "wtabs": (S._check_wtabs, S.wtabs_for),
                   "substrings": (S._check_sub, S.sub_for), "pack": (B._check_pack, B._pack),
                   "reversed": (L._check_reversed, L._build_reversed)}[table]
    t = good(lex)
    assert check(lex, t) is None
    bad = tuple(a.copy() for a in t) if isinstance(t, tuple) else t.copy()
    if table == "reach":
        bad = bad[:-1]
    elif table == "wtabs":
        bad[3][5] = bad[1].shape[0] + 9  # a directory entry past the entries
    elif table == "substrings":
        bad[0][bad[0] == 0] = 12345  # no empty slot: a probe would never end
    elif table == "pack":
        bad[1][0] |= np.int64(1) << int(bad[3][2] + int(bad[3][3]).bit_length() - 1)  # a child index far out
    else:
        bad[1] = np.uint32((bad.shape[0] + 5) << 1)
    assert check(lex, bad)


# ------------------------------------------------------------------ 7. no litter when a cache write fails
def test_failed_cache_writes_leave_no_temporary_files(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_WORDS_CACHE_DIR", str(tmp_path))
    lex = Lexicon.load(["ALPHA", "BETA", "GAMMA"])
    key = lex._cache_key
    cache.path_for(key).unlink()
    cache.path_for(key).mkdir()  # the entry is a directory: the rename fails
    assert cache.save(key, {"flat": lex.flat, "offsets": lex.offsets, "dawg": lex.dawg}, lex.sha256, "AB", 0, []) \
        is None
    (tmp_path / "derived-x.npz").mkdir()
    cache.save_derived("derived-x", np.arange(5))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([cache.path_for(key).name, "derived-x.npz"])

    def refuse(*a):  # a read-only folder (tests run as root, who may write anywhere)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    cache.save_derived("derived-y", (np.arange(5), np.zeros(3)))
    assert not list(tmp_path.glob("*tmp*")) and not (tmp_path / "derived-y.npz").exists()
