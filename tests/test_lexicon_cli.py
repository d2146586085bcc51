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
