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
    assert "every play ranked by equity" in text and "(the same equity)" in text


def test_tour_play_section():
    """Self-play, simulation and endgame in the tour: each beside the same work driven from Python, with the
    same games, the same estimates at both thread counts and the plain minimax's endgame value."""
    from numba_words.lexicon import Lexicon
    from numba_words.scrabble import Position
    from numba_words.scrabble.cli import TOUR_CGP, _tour_play
    from numba_words.scrabble.search import warmup

    warmup(parts=("games", "sim", "endgame"))
    lex = Lexicon.load("twl06")
    lines = []
    _tour_play(Position.from_cgp(TOUR_CGP, lexicon=lex), lex, lines.append)
    text = "\n".join(lines)
    assert "games/s" in text and "(the same scores, turns and bingos)" in text, text
    assert "playouts/s" in text and "(the same estimates)" in text, text
    assert "exact endgame AAE against W (bag empty): +5 by" in text and "plain minimax" in text, text
    assert "DIFFERENT" not in text, text


def test_json_and_csv_outputs(capsys):
    import csv
    import io
    import json

    assert main(["scrabble", "generate", "--cgp", P05, "--top", "3", "--json"]) == 0
    cap = capsys.readouterr()
    rows = json.loads(cap.out)
    assert isinstance(rows[0].pop("equity"), float)  # its value depends on the shipped leave table
    assert rows[0] == {"coord": "H10", "word": "FEH", "score": 28, "tiles": 3, "leave": "DNQR", "notation": "H10 FEH"}
    assert len(rows) == 3 and cap.err.startswith("-- 159 plays")
    assert main(["--csv", "scrabble", "--cgp", P05, "--top", "2", "--quiet"]) == 0
    cap = capsys.readouterr()
    got = list(csv.DictReader(io.StringIO(cap.out)))
    assert [r["notation"] for r in got] == ["H10 FEH", "G6 EN(U)F"] and got[1]["leave"] == "DHQR"
    assert cap.err == ""  # --quiet: no summary
    assert main(["scrabble", "best", "--cgp", P05, "--json"]) == 0
    best = json.loads(capsys.readouterr().out)
    assert isinstance(best[0].pop("equity"), float)
    assert best == [{"coord": "H10", "word": "FEH", "score": 28, "tiles": 3, "leave": "DNQR", "notation": "H10 FEH"}]
    assert main(["scrabble", "best", "--cgp", P05]) == 0
    assert capsys.readouterr().out == "H10 FEH 28\n"
    assert main(["scrabble", "best", "--rack", "QQ", "--json"]) == 2  # two Qs: more than the bag holds
    assert main(["scrabble", "best", "--rack", "Q", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["scrabble", "generate", "--json", "--csv"]) == 2


def test_selfplay_records_and_files(capsys, tmp_path):
    import json

    from numba_words.scrabble import read_gcg

    gcg, svg = tmp_path / "g.gcg", tmp_path / "g.svg"
    assert main(["scrabble", "selfplay", "--seed", "3", "--games", "2", "--json", "--gcg", str(gcg),
                 "--svg", str(svg)]) == 0
    cap = capsys.readouterr()
    turns = json.loads(cap.out)
    assert {t["game"] for t in turns} == {3, 4}
    first = [t for t in turns if t["game"] == 3]
    assert first[0]["turn"] == 1 and first[0]["player"] == 1 and set(first[0]) == {
        "game", "turn", "player", "rack", "move", "score", "total"}
    assert "2 games" in cap.err
    positions = read_gcg(gcg)
    assert positions and svg.read_text().startswith("<svg")
    assert main(["scrabble", "selfplay", "--seed", "3", "--csv", "--max-turns", "4"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "game,turn,player,rack,move,score,total"


def test_bench_json(capsys):
    import json

    assert main(["scrabble", "bench", "--games", "1", "--reference", "1", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["positions"] >= 1 and res["plays"] > 0 and res["reference_s"] > 0 and res["lexicon"] == "TWL06"
    assert {"serial_s", "best_s", "batch_1t_s", "reference_kernel_s"} <= set(res)


def test_every_option_has_help():
    import argparse

    from numba_words.cli import build_parser

    def parsers(p):
        yield p
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for sub in dict.fromkeys(a.choices.values()):
                    yield from parsers(sub)

    scrabble = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices["scrabble"]
    seen = 0
    for p in parsers(scrabble):
        for a in p._actions:
            if a.option_strings and a.dest != "help":
                assert a.help, (p.prog, a.option_strings)
                seen += 1
    assert seen > 30
