"""``numba-words draughts perft|divide|show`` (and the ``perft`` alias): text, JSON, CSV, errors, pipes,
Ctrl-C, and the tour section on any lexicon."""
from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from numba_words.cli import main

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _python(code_or_args, **kw):
    """A child Python that imports this checkout's package."""
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, *code_or_args], env=env, cwd=REPO, text=True, **kw)


def test_cli_perft_and_divide(capsys):
    code, out, err = _cli(capsys, "draughts", "perft", "5")
    assert code == 0 and out == "Nodes searched: 27117\n" and "nodes/s" in err
    code, out, _ = _cli(capsys, "perft", "--depth", "3", "--divide", "--threads", "1", "--leaves")
    assert code == 0 and "32-28: 70" in out and "Nodes searched: 658" in out
    code, out2, _ = _cli(capsys, "draughts", "divide", "3", "--threads", "1")
    assert code == 0 and out2 == out
    code, out, err = _cli(capsys, "--quiet", "draughts", "perft", "4")
    assert code == 0 and out == "Nodes searched: 4265\n" and err == ""


@pytest.mark.parametrize("argv, fragment", [
    (["draughts", "perft", "--fen", "W:W31-50:B1-99", "--depth", "2"], "1-99"),
    (["draughts", "perft"], "give the depth"),
    (["draughts", "perft", "3", "--depth", "4"], "two depths"),
    (["draughts", "perft", "-1"], "depth must be"),
    (["draughts", "perft", "3", "--threads", "99"], "threads"),
    (["draughts", "perft", "3", "--checkpoint", "x.ckpt"], "--checkpoint is for distributed runs"),
    (["draughts", "perft", "3", "--tasks", "4"], "--tasks is for distributed runs"),
    (["draughts", "perft", "3", "--json", "--csv"], "not both"),
    (["draughts", "perft", "3", "--fen", "W:W" + "9" * 5000], "characters"),
])
def test_cli_errors(capsys, argv, fragment):
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and out == "" and fragment in err and len(err) < 500


def test_cli_json_and_csv(capsys):
    code, out, _ = _cli(capsys, "draughts", "perft", "4", "--json")
    rec = json.loads(out)
    assert code == 0 and rec["nodes"] == 4265 and rec["depth"] == 4 and rec["fen"] == "W:W31-50:B1-20"
    assert rec["seconds"] >= 0 and rec["nodes_per_s"] >= 0 and "moves" not in rec
    code, out, _ = _cli(capsys, "draughts", "divide", "3", "--json", "--fen", "W:WK31-50:BK1-20")
    rec = json.loads(out)
    assert rec["nodes"] == 352 == sum(rec["moves"].values()) and len(rec["moves"]) == 17
    code, out, _ = _cli(capsys, "draughts", "perft", "3", "--divide", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["move"] for r in rows][:2] == ["31-27", "32-28"] and sum(int(r["nodes"]) for r in rows) == 658
    code, out, _ = _cli(capsys, "draughts", "perft", "3", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 1 and rows[0]["nodes"] == "658"


def test_cli_show(capsys, tmp_path):
    svg = tmp_path / "b.svg"
    code, out, _ = _cli(capsys, "draughts", "show", "--moves", "32-28 19-23", "--svg", str(svg))
    assert code == 0 and "FEN: W:W28,31,33-50:B1-18,20,23" in out and "legal moves (1): 28x19" in out
    assert svg.read_text().startswith("<svg") and "#cdd26a" in svg.read_text()  # the last move is marked
    code, _, err = _cli(capsys, "draughts", "show", "--moves", "32-29")
    assert code == 2 and "illegal move '32-29'" in err
    code, out, _ = _cli(capsys, "draughts", "show", "--fen", "W:W46:B41,37", "--json")
    rec = json.loads(out)
    assert rec["legal_moves"] == [] and rec["outcome"] == {"result": "0-2", "termination": "no legal move"}
    assert len(rec["board"]) == 10 and rec["turn"] == "white"
    code, out, _ = _cli(capsys, "draughts", "show", "--csv")
    assert out.splitlines()[0] == "move,from,to,captured" and len(out.splitlines()) == 10


def test_help_on_every_option(capsys):
    for argv in (["draughts", "perft", "--help"], ["draughts", "divide", "--help"], ["draughts", "show", "--help"],
                 ["perft", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        out = capsys.readouterr().out
        lines = out.splitlines()
        for i, line in enumerate(lines):
            s = line.strip()
            if s.startswith("--") and not s.startswith("--help"):
                # an option with its help on the same line or on the next one
                assert len(s.split("  ")) > 1 or not lines[i + 1].strip().startswith("-"), (argv, s)


def test_cli_tour_on_any_lexicon(capsys):
    from numba_words import Lexicon
    from numba_words.draughts import cli

    for lex in (None, Lexicon.load("nb-small")):
        cli.tour(lex, print)
        out, _ = capsys.readouterr()
        assert "perft(9) = 41,022,423 (matches the published" in out and "faster" in out
        assert "numba_words.draughts._reference" in out


def test_broken_pipe_is_quiet():
    p = _python(["-m", "numba_words", "draughts", "perft", "4", "--divide"], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE)
    p.stdout.close()  # the reader is gone before the first line is written
    err = p.stderr.read()
    p.stderr.close()
    assert p.wait() == 0 and "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize("argv", [["draughts", "perft", "14"], ["perft", "14", "--divide", "--threads", "1"]])
def test_ctrl_c_stops_the_cli_at_once(argv):
    p = _python(["-m", "numba_words", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4)  # imports, kernel loading, then well into the count
    assert p.poll() is None
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    elapsed = time.monotonic() - t
    assert p.returncode == 130 and err.strip().splitlines() == ["interrupted"] and out == ""
    assert elapsed < 5, elapsed  # about 0.3 s when the machine is quiet; generous for a shared one
