"""``numba-words bookworm``: the verbs, the old flag forms, JSON/CSV output, stderr summaries, errors, help."""
import argparse
import csv
import io
import json

import pytest

from numba_words.bookworm.cli import legacy_args
from numba_words.cli import build_parser, main

TEXT = "nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("old", [[TEXT, "--top", "3"], ["solve", TEXT, "--top", "3"]])
def test_solve(capsys, old):
    code, out, err = run(capsys, "bookworm", *old)
    assert code == 0 and "187 words" in err and "solved in" in err and "Q" in err  # board and summary: stderr
    lines = out.splitlines()
    assert len(lines) == 3 and lines[0].split()[:2] == ["1190", "squills"]  # data: stdout
    code, out, err = run(capsys, "bookworm", "solve", TEXT, "--top", "0", "--quiet")
    assert code == 0 and len(out.splitlines()) == 187 and err == ""


def test_solve_json_csv_and_boggle_points(capsys):
    code, out, _ = run(capsys, "bookworm", "solve", TEXT, "--top", "2", "--json")
    recs = json.loads(out)
    assert code == 0 and recs[0]["word"] == "squills" and recs[0]["score"] == 1190 and recs[0]["length"] == 7
    assert len(recs[0]["path"]) == len(recs[0]["tiles"]) == 6
    code, out, _ = run(capsys, "bookworm", "solve", "qiet anrs dlme okgt", "--grid", "boggle4", "--csv", "--top", "0")
    rows = list(csv.DictReader(io.StringIO(out)))
    points = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}
    assert code == 0 and len(rows) == 143
    assert all(int(r["score"]) == points.get(int(r["length"]), 11) for r in rows)  # Boggle points on Boggle
    assert rows[0]["word"] == "algerines" and json.loads(rows[0]["path"])[0] == 4


def test_bench_and_errors(capsys):
    code, out, err = run(capsys, "bookworm", "--random", "30", "--bench")
    assert code == 0 and "boards/s" in out and "plain Python" in out and "same words: yes" in out
    assert "prefix set built" in err
    code, out, _ = run(capsys, "bookworm", "bench", "20", "--grid", "boggle4", "--score-only", "--json")
    recs = json.loads(out)
    assert code == 0 and recs[-1]["solver"] == "plain Python" and all(r["agree"] for r in recs)
    code, _, err = run(capsys, "bookworm", "abc")
    assert code == 2 and "has 1 columns" in err
    code, _, err = run(capsys, "bookworm", TEXT, "--max-len", "1")
    assert code == 2 and "below min_len" in err
    code, _, err = run(capsys, "bookworm", "solve", TEXT, "--max-nodes", "100")
    assert code == 2 and "max_nodes=100 paths" in err


def test_random(capsys):
    code, out, err = run(capsys, "bookworm", "random", "5", "--grid", "boggle4")
    assert code == 0 and len(out.splitlines()) == 5 and out.startswith("0: ") and "5 boggle4x4 boards" in err
    code, out2, _ = run(capsys, "bookworm", "--random", "5", "--grid", "boggle4")  # the old spelling
    assert code == 0 and out2 == out
    code, out, _ = run(capsys, "bookworm", "random", "4", "--grid", "boggle4", "--score-only")
    assert code == 0 and out.count("points") == 4
    code, out, _ = run(capsys, "bookworm", "random", "3", "--top", "3")
    assert code == 0 and all(line.count(",") == 3 for line in out.splitlines())  # "N words, best a 1, b 2, c 3"
    code, out, _ = run(capsys, "bookworm", "random", "2", "--top", "0", "--json")
    recs = json.loads(out)
    counts = {r["board"]: r["words"] for r in recs}
    assert code == 0 and len(recs) == sum(counts.values()) and [r["rank"] for r in recs[:3]] == [1, 2, 3]
    code, out, _ = run(capsys, "bookworm", "random", "3", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [int(r["board"]) for r in rows] == [0, 1, 2] and all(r["rank"] == "1" for r in rows)


def test_random_best_matches_each_board(capsys):
    from numba_words.bookworm import random_codes, solve_many

    code, out, _ = run(capsys, "bookworm", "random", "2100", "--json", "--quiet")  # two steps of 2000
    recs = json.loads(out)
    assert code == 0 and [r["board"] for r in recs] == list(range(2100))
    batch = solve_many(random_codes(2100, seed=0))
    for b in (0, 1999, 2000, 2099):
        best = batch[b].best()
        assert (recs[b]["word"], recs[b]["score"], tuple(recs[b]["path"])) == (best.word, best.score, best.path)


def test_play(capsys):
    code, out, err = run(capsys, "bookworm", "play", "--seed", "3", "--max-turns", "4")
    assert code == 0 and len(out.splitlines()) == 4 and "4 turns" in err
    code, out, _ = run(capsys, "bookworm", "play", "--seed", "3", "--max-turns", "4", "--json")
    recs = json.loads(out)
    assert [r["turn"] for r in recs] == [1, 2, 3, 4] and recs[-1]["total"] == sum(r["score"] for r in recs)


def test_legacy_rewrite():
    assert legacy_args([TEXT, "--top", "3"]) == ["solve", TEXT, "--top", "3"]
    assert legacy_args(["--lexicon", "twl06", TEXT]) == ["solve", "--lexicon", "twl06", TEXT]
    assert legacy_args(["--random", "9", "--bench", "--score-only"]) == ["bench", "9", "--score-only"]
    assert legacy_args(["--random=9"]) == ["random", "9"]
    assert legacy_args(["solve", TEXT]) == ["solve", TEXT]
    assert legacy_args(["--json", "play"]) == ["--json", "play"]
    assert legacy_args([]) == []


def test_no_verb_prints_help(capsys):
    code, out, _ = run(capsys, "bookworm")
    assert code == 2 and "solve" in out and "bench" in out


def test_every_option_has_help():
    def parsers(p):
        yield p
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for sub in dict.fromkeys(a.choices.values()):
                    yield from parsers(sub)

    top = build_parser()
    bookworm = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)][0].choices["bookworm"]
    seen = 0
    for p in parsers(bookworm):
        for a in p._actions:
            if not isinstance(a, argparse._SubParsersAction):
                assert a.help and a.help != argparse.SUPPRESS, (p.prog, a.dest)
                seen += 1
    assert seen > 30


def _lexicons(tmp_path):
    from numba_words import Lexicon

    words = tmp_path / "three.txt"
    words.write_text("cat\ndog\nbird\n")
    return [Lexicon.load("nb-small"),                                       # 29 letters, 6-letter max
            Lexicon.load(words),                                            # three words
            Lexicon.load(["ABBA", "BAAB", "ABC", "CAB"], alphabet="ABC"),   # no Q, no U, no example letters
            Lexicon.load(["ΑΒΓ", "ΓΑΒ"], alphabet="ΑΒΓΔ"),                  # no letter of the frequency table
            Lexicon.load(["ZZZ"])]                                          # a board with no words at all


def test_tour_on_any_lexicon(tmp_path):
    from numba_words.bookworm.cli import tour

    for lex in _lexicons(tmp_path):
        lines = []
        tour(lex, lines.append)
        text = "\n".join(lines)
        assert "kernels ready" in text and text.count("boards/s on 1 thread") == 2, text
        assert "disagree" not in text, text


def test_commands_on_other_lexicons(capsys, tmp_path):
    words = tmp_path / "three.txt"
    words.write_text("cat\ndog\nbird\n")
    for lex in ("nb-small", str(words)):
        for argv in (["random", "3"], ["play", "--max-turns", "2"], ["bench", "10", "--baseline-boards", "2"]):
            code, _, err = run(capsys, "bookworm", *argv, "--lexicon", lex)
            assert code == 0, (lex, argv, err)
