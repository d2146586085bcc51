"""The lexicon's command line (`numba-words lexicon ...`, alias `words`) and its tour section."""
from __future__ import annotations

import pytest

from numba_words import Lexicon
from numba_words.cli import main
from numba_words.lexicon.cli import tour


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["lexicon", "words"])
def test_both_command_names(capsys, name):
    code, out, _ = run(capsys, name, "lookup", "qi", "zzz")
    assert code == 0 and "QI: yes" in out and "ZZZ: yes" in out


def test_lexicon_option_anywhere(capsys):
    for argv in (["--lexicon", "nb-small", "lexicon", "prefix", "BR"], ["lexicon", "--lexicon", "nb-small", "prefix",
                                                                       "BR"], ["lexicon", "prefix", "BR", "--lexicon",
                                                                               "nb-small"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and "BRØD" in out.split(), argv


@pytest.mark.parametrize("lexicon", ["nb-small", "tiny", "other-alphabet"])
def test_tour_on_any_lexicon(lexicon):
    if lexicon == "tiny":
        lex = Lexicon.from_words(["CAT", "ACT", "TAC", "AT", "TA"])
    elif lexicon == "other-alphabet":
        lex = Lexicon.from_words(["ΑΒΓ", "ΒΑ", "ΓΑΒΑ", "ΑΑ"], alphabet="ΑΒΓ")
    else:
        lex = Lexicon.load(lexicon)
    lines = []
    tour(lex, lines.append)
    text = "\n".join(lines)
    assert lines[0] == "== Lexicon" and "queries/s" in text and "plain-Python" in text


def test_json_and_csv_on_every_query(capsys, twl):
    import csv
    import io
    import json

    from numba_words.lexicon import _reference as ref

    code, out, err = run(capsys, "lexicon", "anagram", "QI?", "--top", "0", "--json")
    recs = json.loads(out)
    assert code == 0 and {r["word"] for r in recs} == ref.anagrams(twl.words, "QI?") and "-- 18 words" in err
    assert {"word": "QIS", "length": 3, "shown": "QIs", "blanks": [2]} in recs
    code, out, _ = run(capsys, "lexicon", "match", "..R.S", "--rack", "AEIT?", "--csv", "--top", "2")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows == [{"word": "ABRIS", "length": "5", "shown": "AbRIS", "blanks": "[1]"},
                    {"word": "ACRES", "length": "5", "shown": "AcRES", "blanks": "[1]"}]
    code, out, _ = run(capsys, "lexicon", "prefix", "ZYZ", "--json", "--top", "0")
    assert [r["word"] for r in json.loads(out)] == ref.starting_with(twl.words, "ZYZ")
    code, out, _ = run(capsys, "lexicon", "contains", "ZZZ", "--csv", "--top", "0")
    assert [r["word"] for r in csv.DictReader(io.StringIO(out))] == ref.containing(twl.words, "ZZZ")
    code, out, _ = run(capsys, "lexicon", "lookup", "qi", "QX", "--json")
    assert code == 1 and json.loads(out) == [{"word": "QI", "found": True}, {"word": "QX", "found": False}]
    code, out, err = run(capsys, "lexicon", "stats", "--json", "--lexicon", "nb-small")
    [st] = json.loads(out)
    assert code == 0 and st["words"] == 269 and st["alphabet"].endswith("ÆØÅ") and st["cache_load_ms"] > 0
    assert "built from its text" in err
    code, out, _ = run(capsys, "lexicon", "stats", "--csv", "--lexicon", "nb-small")
    [row] = csv.DictReader(io.StringIO(out))
    assert row["words"] == "269" and json.loads(row["length_histogram"])["3"] == 134


def test_top_quiet_and_status(capsys, twl):
    code, out, err = run(capsys, "lexicon", "anagram", "RETAINS", "--top", "0", "-q")
    assert code == 0 and len(out.split()) == len(twl.anagrams("RETAINS")) and err == ""
    code, out, err = run(capsys, "lexicon", "anagram", "RETAINS", "--top", "3")
    assert out.split() == [m.word for m in twl.anagrams("RETAINS")[:3]] and "--top 0 shows all" in err
    code, out, err = run(capsys, "lexicon", "prefix", "QZX")
    assert code == 0 and out == "" and "-- 0 words" in err
    assert run(capsys, "lexicon", "lookup", "qi", "za")[0] == 0
    assert run(capsys, "lexicon", "lookup", "qi", "qx")[0] == 1
    code, _, err = run(capsys, "lexicon", "lookup", "qi", "--json", "--csv")
    assert code == 2 and "not both" in err
    code, _, err = run(capsys, "lexicon", "match", "A[BC")
    assert code == 2 and "never closed" in err


def test_help_on_every_option():
    import argparse

    from numba_words.cli import build_parser

    parser = build_parser()
    lex = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["lexicon"]
    queries = next(a for a in lex._actions if isinstance(a, argparse._SubParsersAction))
    assert set(queries.choices) == {"anagram", "match", "prefix", "contains", "lookup", "stats"}
    for name, q in queries.choices.items():
        for action in q._actions:
            assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)
    assert "2 on an error" in queries.choices["lookup"].format_help()
