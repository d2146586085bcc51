"""The command line: lexicon queries, errors, help, and the tour."""
from __future__ import annotations

import subprocess
import sys

import pytest

from numba_words.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_commands(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "tour" in out and "words" in out


def test_no_command_prints_help(capsys):
    code, out, _ = run(capsys)
    assert code == 2 and "usage" in out


def test_words_queries(capsys):
    code, out, err = run(capsys, "words", "anagram", "QI?", "--top", "0")
    assert code == 0 and "QIs" in out.split() and len(out.split()) == 18 and "-- 18 words" in err
    code, out, err = run(capsys, "words", "match", "..R.S", "--rack", "AEIT?", "--top", "3")
    assert code == 0 and out.splitlines()[0] == "AbRIS" and "-- 60 words" in err
    code, out, _ = run(capsys, "words", "lookup", "qi", "qx")
    assert code == 1 and "QI: yes" in out and "QX: no" in out
    code, out, _ = run(capsys, "words", "--lexicon", "nb-small", "prefix", "BR")
    assert code == 0 and "BRØD" in out.split()
    code, out, _ = run(capsys, "words", "contains", "ZZZ")
    assert code == 0 and out.split()[0] == "ZZZ"


def test_words_bad_input_is_an_error_message(capsys):
    code, _, err = run(capsys, "words", "anagram", "AB1")
    assert code == 2 and "error" in err and "'1' at position 3" in err
    code, _, err = run(capsys, "words", "--lexicon", "nosuchlexicon", "anagram", "AB")
    assert code == 2 and "unknown lexicon name" in err


def test_module_entry_point():
    r = subprocess.run([sys.executable, "-m", "numba_words", "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "numba-words" in r.stdout


def test_tour_runs_every_engine(capsys):
    code, out, _ = run(capsys, "tour")
    assert code == 0
    assert "== Lexicon" in out and "queries/s" in out and "tour finished" in out


def test_warmup_command(capsys):
    code, out, _ = run(capsys, "warmup", "lexicon", "draughts")
    assert code == 0 and "lexicon:" in out and "draughts:" in out and "total:" in out
    code, _, err = run(capsys, "warmup", "chess")
    assert code == 2 and "unknown engine 'chess'" in err


def test_warmup_plan_covers_every_part_once():
    import importlib

    import numba_words as nw

    for engine in nw.ENGINES:
        mod = importlib.import_module(f"numba_words.{engine}")
        parts = [p for e, p, *_ in nw._PLAN if e == engine]
        assert parts, engine
        if None in parts:  # the whole warm-up in one task
            assert parts == [None], engine
        else:
            flat = [x for p in parts for x in ((p,) if isinstance(p, str) else p)]
            known = getattr(mod, "WARMUP_PARTS", None) or importlib.import_module(f"{mod.__name__}.search").WARMUP_PARTS
            assert sorted(flat) == sorted(known), engine
    plan = [(e, p) for e, p, *_ in nw._PLAN]
    for processes in (2, 3, 4):
        mine, theirs = nw._share(plan, processes)
        assert mine and theirs and sorted(map(repr, mine + theirs)) == sorted(map(repr, plan))
        assert mine[0] == plan[0]  # this process starts with the first task (the lexicon's build kernels)


def test_warmup_in_two_processes_reports_every_engine(capsys):
    import numba_words as nw

    seen = []
    res = nw.warmup(["lexicon", "draughts"], processes=2, progress=lambda name, s: seen.append(name))
    assert sorted(seen) == ["draughts", "lexicon"] and {"lexicon", "draughts", "wall"} <= set(res)
    code, out, _ = run(capsys, "warmup", "lexicon", "draughts", "--processes", "2")
    assert code == 0 and "lexicon:" in out and "draughts:" in out


def test_program_exit_keeps_output_and_status(tmp_path):
    """``python -m numba_words`` ends with a fast exit: its output is flushed and its exit status kept."""
    words = tmp_path / "w.txt"
    words.write_text("CAT\nDOG\n")
    cmd = [sys.executable, "-m", "numba_words", "lexicon", "--lexicon", str(words), "lookup", "cat", "cow"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert r.stdout.splitlines() == ["CAT: yes", "COW: no"]
    r = subprocess.run([sys.executable, "-m", "numba_words", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("numba-words ")
