"""The ``numba-words scrabble`` commands and the tour section."""
from __future__ import annotations

from numba_words.cli import main

P05 = "15/15/15/15/15/7L7/7U7/5BUG7/5I9/5D9/5SH8/6E8/6S8/15/15 DEFHNQR/ 24/15 0"


def test_moves_command(capsys):
    assert main(["scrabble", "--cgp", P05, "--top", "3"]) == 0
    cap = capsys.readouterr()
    assert cap.out.splitlines() == ["H10 FEH 28", "G6 EN(U)F 26", "H10 DEF 26"]
    assert cap.err.startswith("-- 159 plays, rack DEFHNQR, 127 exchanges")
    assert main(["scrabble", "generate", "--cgp", P05, "--top", "3"]) == 0
    assert capsys.readouterr().out.splitlines() == ["H10 FEH 28", "G6 EN(U)F 26", "H10 DEF 26"]


def test_moves_rack_override_variant_and_board(capsys):
    assert main(["scrabble", "--rack", "AEINRS?", "--variant", "wordfeud", "--top", "2", "--board"]) == 0
    cap = capsys.readouterr()
    assert "variant wordfeud" in cap.out and cap.err.startswith("-- ")
    assert main(["scrabble", "--rack", "BLÅRØD", "--variant", "wordfeud-nb", "--top", "5"]) == 0
    assert "BLÅ" in capsys.readouterr().out


def test_bad_input_errors(capsys):
    assert main(["scrabble", "--rack", "AEINRSTT"]) == 2
    assert "8 tiles" in capsys.readouterr().err
    assert main(["scrabble", "--variant", "nope"]) == 2
    assert "unknown variant 'nope'" in capsys.readouterr().err
    assert main(["scrabble", "--cgp", "15/15 AB/ 0/0 0"]) == 2
    assert "rows" in capsys.readouterr().err
    assert main(["scrabble", "--rack", "A1"]) == 2
    assert "'1'" in capsys.readouterr().err


def test_selfplay_command(capsys):
    assert main(["scrabble", "selfplay", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "  1. player 1:" in out and out.strip().splitlines()[-1].startswith("final ")
    assert main(["scrabble", "selfplay", "--seed", "3", "--final"]) == 0
    assert "player 1:" not in capsys.readouterr().out


def test_tour_section(twl_lex=None):
    from numba_words.lexicon import Lexicon
    from numba_words.scrabble.cli import tour

    lines = []
    tour(Lexicon.load("twl06"), lines.append)
    text = "\n".join(lines)
    assert "== Scrabble" in text and "8K EMMeT 38" in text and "M plays/s" in text and "reference" in text
