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


# ------------------------------------------------------------------ 2. no writable array reaches a kernel
def _arrays_in(obj, depth=3, seen=None):
    """``(path, array)`` for every NumPy array reachable from ``obj`` through attributes, dicts and tuples."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth < 0:
        return
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        yield "", obj
        return
    if isinstance(obj, dict):
        items = obj.items()
    elif isinstance(obj, (tuple, list)):
        items = enumerate(obj)
    elif hasattr(obj, "__dict__") and type(obj).__module__.startswith("numba_words"):
        items = vars(obj).items()
    else:
        return
    for k, v in items:
        for path, a in _arrays_in(v, depth - 1, seen):
            yield f".{k}{path}", a


def test_no_array_a_kernel_trusts_is_writable(tmp_path, monkeypatch):
    """The lexicon's arrays and every table derived from it (Scrabble's word tables, reach and substrings,
    Bookworm's packed DAWG, bit sets, the reversed DAWG), built or loaded from the disk cache, and the draughts
    geometry, are read-only."""
    from numba_words.bookworm import _tables as B
    from numba_words.draughts import _tables as D
    from numba_words.scrabble import _tables as S

    load = _cached(tmp_path, monkeypatch)
    for lex in (load(), load(), Lexicon.from_words(["CAT", "ACT", "DOG"])):  # built, from the cache, in memory
        S.reach_for(lex), S.wtabs_for(lex), S.sub_for(lex), B.tables(lex), lex.bitsets, lex.reversed_dawg
        found = dict(_arrays_in(lex))
        assert {".flat", ".offsets", ".dawg"} <= set(found) and len(found) >= 15, sorted(found)
        assert [p for p, a in found.items() if a.flags.writeable] == []
    assert [k for k, v in vars(D).items() if isinstance(v, np.ndarray) and v.flags.writeable] == []


def test_scrabble_results_are_read_only():
    from numba_words.scrabble.position import Position

    p = Position.from_cgp(CGP)
    plays = p.legal_plays()
    assert len(plays) == 159 and not plays.array.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        plays.array["word"][0] = 200  # (a letter code read back for equities)
    assert str(p.best("equity")) == str(plays.best("equity"))


def test_leave_tables_are_read_only_and_set_through_their_checks():
    from numba_words.scrabble import InvalidLeavesError, Leaves, load_leaves

    for t in (Leaves("scrabble", max_size=2), load_leaves()):
        assert not t.milli.flags.writeable and not t.caps.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            t.milli[:] = 10 ** 9
    t = Leaves("scrabble", max_size=2)
    t.assign(np.arange(len(t)))
    assert t.milli.tolist() == list(range(len(t))) and t["?"] == t.milli[t.rank("?")] / 1000
    for bad in (np.zeros(3, np.int64), np.full(len(t), 0.5), np.full(len(t), 10 ** 10)):
        with pytest.raises(InvalidLeavesError, match="whole millipoints"):
            t.assign(bad)


def test_writing_into_a_lexicon_array_is_refused_not_a_crash():
    r = _python("""
from numba_words import Lexicon
lex = Lexicon.from_words(["CAT", "ACT", "DOG"])
try:
    lex.dawg[1:] = 0xFFFFFFF0
except ValueError as e:
    print("refused:", e)
print(sorted(m.word for m in lex.anagrams("CAT")))
""")
    assert r.returncode == 0, r.stderr[-2000:]  # (a segmentation fault before)
    assert "refused: assignment destination is read-only" in r.stdout and "['ACT', 'CAT']" in r.stdout


def test_the_public_constructor_checks_the_arrays_as_the_cache_loader_does():
    r = _python("""
import numpy as np
from numba_words import Lexicon, LexiconError
lex = Lexicon.from_words(["CAT", "ACT", "DOG"])
bad = lex.dawg.copy()
bad[1:] = 0xFFFFFFF0
try:
    Lexicon(lex.flat, lex.offsets, bad, lex.alphabet, name="x", sha256="")
except LexiconError as e:
    print("refused:", e)
""")
    assert r.returncode == 0, r.stderr[-2000:]  # (a segmentation fault before, at the first query)
    assert r.stdout.startswith("refused: these are not a lexicon's arrays")
    lex = Lexicon.from_words(["CAT", "ACT", "DOG"])
    flat = lex.flat.copy()
    again = Lexicon(flat, lex.offsets, lex.dawg, lex.alphabet, name="copy", sha256=lex.sha256)
    flat[0] = 9  # the caller's array is copied: changing it changes nothing
    assert again.words == lex.words and not again.flat.flags.writeable
    with pytest.raises(LexiconError, match="dawg must be a one-dimensional uint32 array"):
        Lexicon(lex.flat, lex.offsets, lex.dawg.astype(np.int64), lex.alphabet, name="x", sha256="")
    with pytest.raises(LexiconError, match="alphabet must be an Alphabet"):
        Lexicon(lex.flat, lex.offsets, lex.dawg, "ABC", name="x", sha256="")


def test_result_constructors_check_their_arrays():
    """Plays, Solution and BatchSolution are public classes whose arrays are read back (a plays row's letter codes
    index the equity tables): built from a caller's arrays, they check them and keep read-only copies."""
    from numba_words.bookworm import BatchSolution, InvalidParameterError, Solution, solve_many
    from numba_words.scrabble import Plays, ScrabbleError
    from numba_words.scrabble.position import Position

    p = Position.from_cgp(CGP)
    rows = p.legal_plays().array[::-1].copy()
    mine = Plays(rows, p)
    assert len(mine) == 159 and str(mine.best("equity")) == str(p.best("equity")) and not mine.array.flags.writeable
    rows["word"][0] = 200  # (a letter code the equity kernel would index with)
    assert str(mine.best("equity")) == str(p.best("equity"))  # (a copy was kept)
    for bad, what in ((rows, "row 0 is not a legal play"), (rows.view(np.uint8), "PLAY_DTYPE"),
                      (rows[:2].reshape(1, 2), "one-dimensional")):
        with pytest.raises(ScrabbleError, match=what):
            Plays(bad, p)
    with pytest.raises(ScrabbleError, match="scrabble Position"):
        Plays(p.legal_plays().array, "p")

    text = " ".join(BOARD["columns_bottom_to_top"])
    batch = solve_many([text, text])
    one = batch[1]
    args = [one.lexicon, one.grid, one.codes, one.wid, one._path, one.plen, one.scores]
    again = Solution(*args)
    assert again.best() == one.best() and len(again) == BOARD["n_words"] and not again.wid.flags.writeable
    for k, bad, what in ((3, one.wid + 10 ** 7, "wid values"), (4, one._path[:, :0] - 1, "plen values"),
                         (5, one.plen[:-1], "one row per word"), (2, one.codes[:5], "tiles per board"),
                         (4, np.where(one._path >= 0, 60, -1), "path values")):
        with pytest.raises(InvalidParameterError, match=what):
            Solution(*args[:k], bad, *args[k + 1:])
    bargs = [batch.lexicon, batch.grid, batch.codes, batch.offsets, batch.wid, batch.path, batch.plen, batch.scores]
    assert BatchSolution(*bargs).to_records(3) == batch.to_records(3)
    for bad in (batch.offsets[::-1], batch.offsets + 1, batch.offsets[:2]):
        with pytest.raises(InvalidParameterError, match="offsets"):
            BatchSolution(*bargs[:3], bad, *bargs[4:])


# ------------------------------------------------------------------ 3. wrong answers
def test_word_indices_follow_python():
    from numba_words.errors import WordIndexError

    lex = Lexicon.from_words(["CAT", "ACT", "DOG"])
    assert [lex.word(i) for i in range(-3, 3)] == lex.words + lex.words
    for bad in (3, -4, 10 ** 20):
        with pytest.raises(WordIndexError, match="outside the 3 words"):
            lex.word(bad)
    with pytest.raises(IndexError):  # (also an IndexError, as for a list)
        lex.word(-4)
    for bad in ("1", 1.0, True, None):
        with pytest.raises(WordIndexError, match="whole number"):
            lex.word(bad)


def test_from_words_of_an_open_file_keeps_every_line(tmp_path):
    from numba_words.lexicon.lexicon import SkippedLinesWarning

    p = tmp_path / "w.txt"
    p.write_bytes(b"CAT\nDOG\r\nACT\n")
    with open(p) as f:
        assert Lexicon.from_words(f).words == ["ACT", "CAT", "DOG"]  # (only the last line before)
    with open(p, newline="") as f:  # \r\n kept by the file object
        assert Lexicon.from_words(f).words == ["ACT", "CAT", "DOG"]
    with pytest.warns(SkippedLinesWarning, match="3 lines skipped .* only 1 words kept"):
        assert Lexicon.from_words(["CAT", "ÇA", "DÉJÀ", "1"]).words == ["CAT"]


def test_contains_many_takes_words_not_a_string():
    from numba_words import InvalidWordError

    lex = Lexicon.from_words(["CAT", "ACT", "DOG"])
    assert lex.contains_many(["CAT", "cat", "C", "XYZ"]).tolist() == [True, True, False, False]
    with pytest.raises(InvalidWordError, match="not the string 'CAT'"):
        lex.contains_many("CAT")  # (answered per letter before)
    with pytest.raises(InvalidWordError, match="word #2 is 5, not a string"):
        lex.contains_many(["CAT", 5])  # (False before, while encode(5) raises)
    with pytest.raises(InvalidWordError, match="iterable of words"):
        lex.contains_many(5)


# ------------------------------------------------------------------ 4, 5. library errors, consistent checks
def test_leave_values_are_checked_on_assignment():
    from numba_words.scrabble import InvalidLeavesError, Leaves

    t = Leaves("scrabble", max_size=2)
    t["Q"] = -7.5
    assert t["Q"] == -7.5
    for bad in (float("nan"), float("inf"), 1e7, "x", None, True):
        with pytest.raises(InvalidLeavesError, match="finite number"):
            t["Q"] = bad
    assert t["Q"] == -7.5


def test_generate_refuses_a_huge_first_allocation():
    from numba_words.scrabble import ScrabbleError, generate
    from numba_words.scrabble.search import MAX_CAP
    from numba_words.scrabble.position import Position

    p = Position("scrabble", rack="AB")
    counts, nb = p._rack_arrays()
    with pytest.raises(ScrabbleError, match="cap must be a whole number from 1 to"):
        generate(p.board, counts, nb, cap=2 ** 33)  # (tried to allocate 224 GiB before)
    assert len(generate(p.board, counts, nb, cap=MAX_CAP // 1024)) > 0


def test_pop_on_an_empty_stack():
    from numba_words.draughts import DraughtsError, Position
    from numba_words.draughts.errors import EmptyStackError

    with pytest.raises(EmptyStackError, match="empty move stack") as e:
        Position.initial().pop()
    assert isinstance(e.value, DraughtsError) and isinstance(e.value, IndexError)


def test_endgame_passed_must_be_a_boolean():
    from numba_words.scrabble import ScrabbleError, solve_endgame
    from numba_words.scrabble.position import Position

    p = Position.from_cgp("15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AB/CD 0/0 0")
    for bad in ("no", 0, None):
        with pytest.raises(ScrabbleError, match="passed must be True or False"):
            solve_endgame(p, plies=1, passed=bad)


def test_lexicon_load_of_an_empty_string():
    with pytest.raises(LexiconError, match="'' is not a lexicon name or a path: give a name"):
        Lexicon.load("")
    with pytest.raises(LexiconError, match="is not a lexicon name or a path"):
        Lexicon.load("  ")


def test_self_play_player_with_bad_exchange_tiles():
    from numba_words.scrabble import Exchange, ScrabbleError, play_games

    for tiles in ("1", "aei"):
        with pytest.raises(ScrabbleError, match="exchanged .*not tiles of"):
            play_games(1, (lambda pos, t=tiles: Exchange(t, "", 0.0), "score"))


# ------------------------------------------------------------------ 4, 5, 6. the command line: one line each
def _cli(capsys, *argv):
    from numba_words.cli import main

    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv,where", [(["lexicon", "lookup"], "lexicon lookup"),
                                        (["bookworm", "solve"], "bookworm solve"),
                                        (["--threads", "abc", "lexicon", "lookup", "CAT"], ""),
                                        (["draughts", "perft", "x"], "draughts perft"),
                                        (["scrabble", "generate", "--top", "many"], "scrabble generate"),
                                        (["nosuch"], "")])
def test_usage_errors_are_one_line(capsys, argv, where):
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("numba-words: error: " + (where + ": " if where else ""))
    assert err.rstrip().endswith(f"(see 'numba-words{' ' + where if where else ''} --help')")


def test_draughts_show_svg_to_an_unwritable_path(capsys, tmp_path):
    code, out, err = _cli(capsys, "draughts", "show", "--svg", str(tmp_path))  # a directory
    assert code == 2 and err.startswith("numba-words: error: cannot write") and len(err.splitlines()) == 1


def test_numba_thread_environment_errors_are_one_line():
    env = dict(os.environ, PYTHONPATH=str(REPO), NUMBA_NUM_THREADS="0")
    r = subprocess.run([sys.executable, "-m", "numba_words", "lexicon", "lookup", "CAT"], capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 2 and r.stderr.splitlines() == [
        "numba-words: error: NUMBA_NUM_THREADS=0 in the environment: it must be a whole number of at least 1, or "
        "unset"]  # (a Numba traceback before)
    env["NUMBA_NUM_THREADS"] = "1"
    r = subprocess.run([sys.executable, "-m", "numba_words", "--threads", "2", "lexicon", "lookup", "CAT"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 2 and r.stderr.splitlines() == [
        "numba-words: error: threads must be a whole number from 1 to 1 (NUMBA_NUM_THREADS=1 in the environment), "
        "got 2"]


# ------------------------------------------------------------------ 8. Ctrl-C ends the program whatever happens
def test_ctrl_c_swallowed_by_a_gc_callback_still_ends_the_program():
    """Python raises Ctrl-C's KeyboardInterrupt wherever the main thread is; inside a garbage-collector callback
    (Dask's scheduler installs one) it is printed and dropped, and the command ran on (the hang of
    ``perft 13 --local-workers 2`` under load). The CLI's handler bounds the time to stop anyway."""
    r = _python("""
import gc, signal, sys, time
import numba_words.cli as cli
cli.INTERRUPT_EXIT_SECONDS = 1.0

def swallow(phase, info):
    if phase == "start" and not gc.callbacks.remove(swallow):
        signal.raise_signal(signal.SIGINT)  # handled inside this callback: its KeyboardInterrupt is dropped

def busy(args):
    gc.callbacks.append(swallow)
    gc.collect()
    time.sleep(60)
    print("never interrupted")
    return 0

cli._warmup = busy
sys.exit(cli.main(["warmup"]))
""", timeout=120)
    assert r.returncode == 130 and r.stdout == "", (r.returncode, r.stdout, r.stderr[-2000:])
    assert r.stderr.splitlines()[-1] == "interrupted" and "KeyboardInterrupt" in r.stderr  # (the dropped one)


# ------------------------------------------------------------------ 2. the whole package: no writable array
def _public_classes():
    """Every public class of the package (in an ``__all__``), but errors and warnings."""
    import importlib
    import inspect

    out = set()
    for name in ("numba_words", "numba_words.lexicon", "numba_words.scrabble", "numba_words.bookworm",
                 "numba_words.draughts", "numba_words.distributed"):
        mod = importlib.import_module(name)
        for n in mod.__all__:
            o = getattr(mod, n)
            if inspect.isclass(o) and not issubclass(o, (BaseException, Warning)) and \
                    o.__module__.startswith("numba_words"):
                out.add(o)
    return out


def _samples(tmp_path) -> list:
    """A representative object of every public class, each after the calls that fill its caches, and the
    package's public constants."""
    from numba_words import bookworm as B
    from numba_words import distributed as X
    from numba_words import draughts as D
    from numba_words import lexicon as L
    from numba_words import scrabble as S

    lex = Lexicon.from_words(["CAT", "ACT", "DOG", "CATS"])
    out = [lex, lex.anagrams("CAT"), L.Alphabet(), L.NAMED]
    p = S.Position.from_cgp(CGP)
    out += [p, p.legal_plays(), p.best(), p.best("equity"), p.exchanges(), p.board, p.top(2, "equity"),
            S.Position("scrabble", rack="AB"), S.Leaves("scrabble", max_size=2), S.Player("score"),
            S.Exchange("Q", "DEFHNR", 0.0),
            S.SCRABBLE, S.VARIANTS]
    out.append(p.simulate(candidates=2, plies=1, iterations=4, seed=1, threads=1))
    g = S.Game(seed=3)
    g.play_best(), g.play_best()
    out.append(g)
    out.append(S.play_games(1, ("score", "score"), seed=1, threads=1))
    late = S.play_game(seed=4)
    out.append(S.analyze_game(late, threads=1, peg_max=1, peg_candidates=2, peg_stages=((1, 2),), endgame_plies=1))
    an = out[-1]
    t1 = next(t for t in an.turns if 1 <= t.bag <= 2 and t.move[0] != "-")
    out += [S.infer(S.Position.from_cgp(t1.cgp), t1.move, threads=1),
            S.peg(S.Position.from_cgp(t1.cgp), candidates=2, stages=((1, 2),), threads=1)]
    end = S.Position.from_cgp(next(t for t in an.turns if t.bag == 0).cgp)
    end.opp_rack = "".join(end.unseen().elements())
    out.append(S.solve_endgame(end, plies=1, tt_mb=1))

    words = B.solve(" ".join(BOARD["columns_bottom_to_top"]))
    bp = B.Position(" ".join(BOARD["columns_bottom_to_top"]))
    bp.words(), bp.best()
    out += [words, words.best(), bp, B.solve_many([" ".join(BOARD["columns_bottom_to_top"])] * 2),
            B.BOOKWORM, B.BOGGLE4, B.BOGGLE5, B.BOOKWORM_DELUXE, B.BOGGLE_SCORING, B.DEFAULT_RULES]
    bg = B.Game(B.Position.random(seed=1), strategy="greedy")
    bg.play(bg.position.choose().path)
    out += [bg, bg.position.history]
    boggle = B.Position("ABCDEFGHIJKLMNOP", grid=B.BOGGLE4)
    boggle.words()
    out.append(boggle)

    d = D.Position.initial()
    dg = D.Game(d)
    dg.play(next(iter(d.legal_moves)))
    engine = D.Engine(hash_mb=1)
    out += [d, d.legal_moves, dg, engine, engine.search(d, depth=2), D.Outcome(D.WHITE, "test")]
    ck = X.Checkpoint(tmp_path / "ck.json", {"what": "test"})
    ck.record(0, np.arange(3))
    out += [ck, X.Checkpoint(tmp_path / "ck.json", {"what": "test"})]  # (recorded, and read back)
    return out


def _arrays_reached(obj, path="", seen=None):
    """``(path, array, fresh)`` for every NumPy array reachable from ``obj`` through public attributes and
    properties, public methods of no argument annotated to return arrays, and the items of lists, tuples and
    dicts; ``fresh``: the array came from a property or method that gives a new array each time (no memory
    shared with a second call's), which the caller may write without harm."""
    import inspect

    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, (str, bytes, int, float, type)) or obj is None:
        return
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        yield path, obj, False
        return
    if isinstance(obj, dict):
        items = [(f"[{k!r}]", v, None) for k, v in obj.items()]
    elif isinstance(obj, (tuple, list)):
        items = [(f"[{i}]", v, None) for i, v in enumerate(obj[:20])]
    elif type(obj).__module__.startswith("numba_words"):
        items = []
        names = set(getattr(obj, "__dict__", {}))
        for cls in type(obj).__mro__:
            names |= set(getattr(cls, "__slots__", ())) | set(vars(cls))
        for k in sorted(n for n in names if not n.startswith("_")):
            attr = inspect.getattr_static(obj, k, None)
            if isinstance(attr, property) or k in getattr(obj, "__dict__", {}) or \
                    any(k in getattr(c, "__slots__", ()) for c in type(obj).__mro__):
                again = (lambda k=k: getattr(obj, k)) if isinstance(attr, property) else None
            elif inspect.isfunction(attr) and "ndarray" in str(attr.__annotations__.get("return", "")) and \
                    all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                        for p in list(inspect.signature(attr).parameters.values())[1:]):
                again = getattr(obj, k)
            else:
                continue
            try:
                items.append((f".{k}" + ("()" if inspect.isfunction(attr) else ""), again() if again else
                              getattr(obj, k), again))
            except Exception:  # (a property that does not apply to this object)
                continue
    else:
        return
    for k, v, again in items:
        if isinstance(v, np.ndarray) and again is not None:
            seen.add(id(v))
            yield path + k, v, not np.shares_memory(v, again())
        else:
            yield from _arrays_reached(v, path + k, seen)


def test_no_public_object_holds_a_writable_array(tmp_path, monkeypatch):
    """The whole-package rule: no array reachable from a public object (its attributes, properties, array
    methods, nested objects and containers) is writable, but fresh copies. A new public class needs a sample
    here (the test fails until it has one)."""
    monkeypatch.chdir(tmp_path)
    samples = _samples(tmp_path)
    missing = {c.__name__ for c in _public_classes()} - {type(o).__name__ for o in _all_objects(samples)}
    assert missing == set(), f"no sample of {sorted(missing)}"
    writable, n = [], 0
    for i, o in enumerate(samples):
        for path, a, fresh in _arrays_reached(o):
            n += 1
            if a.flags.writeable and not fresh:
                writable.append(f"{type(o).__name__}{path}")
    assert n >= 50 and writable == []


def _all_objects(samples):
    """The samples and every object reached from them (as :func:`_arrays_reached` walks)."""
    out, stack, seen = [], list(samples), set()
    while stack:
        o = stack.pop()
        if id(o) in seen or o is None or isinstance(o, (str, bytes, int, float, np.ndarray, type)):
            continue
        seen.add(id(o))
        out.append(o)
        if isinstance(o, dict):
            stack += list(o.values())
        elif isinstance(o, (list, tuple)):
            stack += list(o[:20])
        elif type(o).__module__.startswith("numba_words"):
            stack += [v for k, v in getattr(o, "__dict__", {}).items() if not k.startswith("_")]
    return out
