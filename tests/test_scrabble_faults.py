"""The fault probe's findings, one test each: bad arrays, long CGP rows, the bag's limits, exchanges, GCG
placements off the board, CGP lexicon names, huge numbers and inputs, the tour on any lexicon, the CLI."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from numba_words.errors import NumbaWordsError
from numba_words.lexicon import Lexicon
from numba_words.scrabble import (BoardArrays, Game, IllegalPlayError, InvalidBoardError, InvalidCgpError,
                                  InvalidGcgError, InvalidNotationError, InvalidRackError, InvalidVariantError,
                                  Position, ScrabbleError, generate, generate_batch, read_gcg)
from numba_words.scrabble import GcgWarning

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
P05 = "15/15/15/15/15/7L7/7U7/5BUG7/5I9/5D9/5SH8/6E8/6S8/15/15 DEFHNQR/ 24/15 0"


@pytest.fixture(scope="module")
def p05(twl):
    return Position.from_cgp(P05, lexicon=twl)


# ---------------------------------------------------------------------- 2: exported array functions
@pytest.mark.parametrize("counts, n_blanks, match", [
    (np.zeros(5, np.int64), 0, "entries"),
    (np.zeros((2, 32), np.int64), 0, "1-D"),
    (np.zeros(32, np.float64), 0, "integers"),
    (np.full(32, -1, np.int64), 0, "0..7"),
    (np.full(32, 1, np.int64), 0, "letter codes 26"),
    (np.r_[np.full(8, 1), np.zeros(24)].astype(np.int64), 0, "8 tiles"),
    (np.r_[np.full(6, 1), np.zeros(20)].astype(np.int64), 2, "8 tiles"),
    (np.zeros(32, np.int64), -1, "n_blanks"),
    (np.zeros(32, np.int64), 2.5, "n_blanks"),
    ("ABC", 0, "1-D"),
    (np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")), 0, "integers"),
    (None, 0, "1-D"),
])
def test_generate_checks_rack_arrays(p05, counts, n_blanks, match):
    with pytest.raises(InvalidRackError, match=match):
        generate(p05.board, counts, n_blanks)


def test_generate_array_forms_agree_with_the_position(p05):
    counts, nb = p05._rack_arrays()
    want = p05.legal_plays().array
    np.testing.assert_array_equal(generate(p05.board, counts, nb), want)
    np.testing.assert_array_equal(generate(p05.board, counts[:26].astype(np.int8), nb), want)  # one per letter
    assert generate(p05.board, counts, nb, best_only=True)[0]["score"] == 28
    assert len(generate(p05.board, counts, nb, cap=1)) == len(want)  # regrown
    with pytest.raises(ScrabbleError, match="cap"):
        generate(p05.board, counts, nb, cap=0)
    with pytest.raises(ScrabbleError, match="best_only"):
        generate(p05.board, counts, nb, best_only=np.ones(3))
    with pytest.raises(InvalidBoardError, match="BoardArrays"):
        generate(p05.board.letters, counts, nb)


def test_generate_batch_checks_lengths_and_racks(p05, twl):
    counts, nb = p05._rack_arrays()
    with pytest.raises(ScrabbleError, match="2 boards but 1 racks"):
        generate_batch([p05.board, p05.board], [(counts, nb)])
    with pytest.raises(InvalidRackError, match="#2"):
        generate_batch([p05.board, p05.board], [(counts, nb), (counts, 9)])
    with pytest.raises(InvalidRackError, match="pair"):
        generate_batch([p05.board], [counts])
    other = Position("scrabble", Lexicon.from_words(["AB", "BA"]))
    with pytest.raises(ScrabbleError, match="another variant or lexicon"):
        generate_batch([p05.board, other.board], [(counts, nb), (counts, nb)])
    assert generate_batch([], []) == []
    got = generate_batch([p05.board] * 3, [(counts, nb)] * 3, cap=4, threads=1)
    for a in got:
        np.testing.assert_array_equal(a, p05.legal_plays().array)


def test_board_arrays_check_shapes_codes_and_squares(twl, p05):
    from numba_words.scrabble import SCRABBLE

    with pytest.raises(InvalidBoardError, match="shape"):
        BoardArrays(SCRABBLE, twl, np.zeros((15, 14), np.uint8))
    with pytest.raises(InvalidBoardError, match="integers"):
        BoardArrays(SCRABBLE, twl, np.zeros((15, 15), np.float32))
    with pytest.raises(InvalidBoardError, match="not a letter code"):
        BoardArrays(SCRABBLE, twl, np.full((15, 15), 30, np.uint8))
    with pytest.raises(InvalidBoardError, match="0..255"):
        BoardArrays(SCRABBLE, twl, np.full((15, 15), 300, np.int64))
    with pytest.raises(ScrabbleError, match="alphabet"):
        BoardArrays(SCRABBLE, Lexicon.load("nb-small"))
    b = p05.board.copy()
    for rows, cols, codes, match in (([15], [0], [0], "row 15"), ([-1], [0], [0], "row -1"), ([0], [0], [26], "code"),
                                     ([5], [7], [0], "taken"), ([0, 0], [0, 0], [0, 0], "taken"),
                                     ([0], [0, 1], [0], "length"), ([0.5], [0], [0], "row")):
        with pytest.raises(InvalidBoardError, match=match):
            b.place(rows, cols, codes, [False] * len(codes))
    np.testing.assert_array_equal(b.letters, p05.board.letters)  # nothing half-placed


# ---------------------------------------------------------------------- 3: CGP rows
@pytest.mark.parametrize("row, n", [("14AB", 16), ("15ABC", 18), ("A14B", 16), ("ABCDEFGHIJKLMNOP", 16)])
def test_cgp_row_longer_than_the_board_is_rejected(twl, row, n):
    cgp = f"{row}/" + EMPTY.split("/", 1)[1] + " A/ 0/0 0"
    with pytest.raises(InvalidCgpError, match=f"covers {n} squares"):
        Position.from_cgp(cgp, lexicon=twl)


# ---------------------------------------------------------------------- 6: the bag, exchanges, GCG, lexicons
def test_exchanges_need_a_rack_of_tiles_in_the_bag(twl):
    pos = Position.from_cgp(P05, lexicon=twl)
    assert pos.bag_size() == 100 - pos.board.n_tiles() - 7 and len(pos.exchanges()) == 127
    full = Game("scrabble", twl, seed=1)
    while len(full.bag) > 6 and not full.over:
        full.play_best()
    p = full.position
    unseen = sum(p.unseen().values())
    assert unseen == len(full.bag) + len(full.racks[1 - full.turn])
    assert p.bag_size() == len(full.bag) < 7 and p.exchanges() == []
    q = Position.from_cgp(p.cgp().replace(f"/{p.opp_rack} ", "/ "), lexicon=twl)  # opponent's rack unknown
    assert q.bag_size() == unseen and (q.exchanges() == []) == (unseen < 7)


def test_more_tiles_than_the_bag_holds_is_rejected(twl):
    with pytest.raises(InvalidCgpError, match="3 blanks"):
        Position.from_cgp(f"{EMPTY} ??/? 0/0 0", lexicon=twl)
    with pytest.raises(InvalidCgpError, match="2 'Z' tiles"):
        Position.from_cgp(EMPTY.replace("15", "Z14", 1) + " Z/ 0/0 0", lexicon=twl)
    with pytest.raises(InvalidCgpError, match="3 blanks"):
        Position.from_cgp("a14/b14/" + EMPTY.split("/", 2)[2] + " ?/ 0/0 0", lexicon=twl)
    with pytest.raises(InvalidCgpError, match="5 'K' tiles"):
        Position.from_cgp("KKKKK10/" + EMPTY.split("/", 1)[1] + " / 0/0 0", variant="wordfeud-nb",
                          lexicon="nb-small")
    p = Position.from_cgp(P05, lexicon=twl)
    with pytest.raises(InvalidRackError, match="'Q' tiles"):
        p.opp_rack = "Q"
    with pytest.raises(InvalidRackError, match="blanks"):
        Position("scrabble", twl, rack="???")
    with pytest.raises(InvalidBoardError, match="'Z' tiles"):
        Position.from_rows(["ZZ" + "." * 13] + ["." * 15] * 14, lexicon=twl)


def test_empty_exchange_is_not_a_turn(twl):
    g = Game("scrabble", twl, seed=4)
    for bad in ("", "  ", "exchange", "exchange  "):
        with pytest.raises(IllegalPlayError, match="name the tiles"):
            g.exchange(bad) if bad.strip() != "exchange" else g.play(bad)
    assert g.moves == [] and g.turn == 0 and g.scoreless == 0
    assert g.play("-") == 0 and g.moves[-1][1] == "-"  # '-' alone is a pass


def test_gcg_placement_off_the_board_is_rejected_with_its_line(twl):
    text = "#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n>b: AEINRST 8P RETAINS +70 70\n"
    with pytest.raises(InvalidGcgError, match="line 4.*off the 15x15 board"):
        read_gcg(text, lexicon=twl)
    with pytest.raises(InvalidGcgError, match="line 1.*runs off the board"):
        read_gcg(">a: AEINRST 8J RETAINS +66 66\n", lexicon=twl)
    with pytest.raises(InvalidGcgError, match="line 1.*COORD WORD"):
        read_gcg(">a: AEINRST 8D +66 66\n", lexicon=twl)


def test_gcg_placements_within_the_bag_and_the_next_rack(twl):
    with pytest.raises(InvalidGcgError, match="line 1.*3 'B' tiles"):
        read_gcg(">a: ? 8H BBB +0 +0", lexicon=twl)
    with pytest.warns(GcgWarning, match="line 3: ") as caught:
        positions = read_gcg(">a: ACDINRT 8D CAIRD +22 22\n>b: EHNTT 9D TH +14 14\n>a: ZZ 10A ZA +0 22\n",
                             lexicon=twl)
    assert any("a's rack ZZ cannot be drawn" in str(w.message) for w in caught)
    assert [p.rack for p in positions] == ["EHNTT", "", ""]  # a rack of two Zs does not fit the bag
    with pytest.warns(GcgWarning, match="line 3: ") as caught:
        positions = read_gcg(">a: ACDINRT 8D CAIRD +22 22\n>b: EHNTT?? 9D TH +14 14\n>a: ENT 10A ZA +0 22\n",
                             lexicon=twl)
    assert any("tiles AZ played but not on the rack ENT" in str(w.message) for w in caught)
    assert [p.rack for p in positions] == ["EHNTT??", "ENT", ""]


def test_gcg_withdrawn_phony_takes_its_tiles_back(twl):
    text = "\n".join([">a: ACDINRT 8D CAIRD +22 22", ">b: AEIORSZ 9C ZAS +28 28", ">b: AEIORSZ -- -28 0",
                      ">a: EHNTT?? 9D TH +14 36"])
    positions = read_gcg(text, lexicon=twl)
    assert [p.scores for p in positions] == [(22, 0), (36, 0)]
    assert positions[-1].rows()[8] == "...TH.........."


def test_gcg_from_a_path_and_written_by_a_game(twl, tmp_path):
    from numba_words.scrabble import play_game

    g = play_game(6, lexicon=twl)
    f = tmp_path / "game.gcg"
    f.write_text(g.gcg(("Ann", "Bob")), encoding="utf-8")
    for source in (f, str(f), f.read_text(encoding="utf-8")):
        positions = read_gcg(source)
        np.testing.assert_array_equal(positions[-1].board.letters, g.board.letters)
        np.testing.assert_array_equal(positions[-1].board.blanks, g.board.blanks)
        assert sorted(positions[-1].scores) == sorted(g.scores)
    with pytest.raises(InvalidGcgError, match="cannot read"):
        read_gcg(tmp_path / "missing.gcg")
    with pytest.raises(InvalidGcgError, match="unknown lexicon"):
        read_gcg("#lexicon NWL2023\n>a: AB 8H AB +4 4\n")


@pytest.mark.parametrize("op, name", [("lex TWL06;", "TWL06"), ("lex CSW21;", "SOWPODS"), ("lex sowpods;", "SOWPODS"),
                                      ("lex TWL06", "TWL06"), ("bb 0; lex CSW19; ld english;", "SOWPODS")])
def test_cgp_lex_opcode_is_honoured(op, name):
    p = Position.from_cgp(f"{EMPTY} ACDINRT/ 0/0 0 {op}")
    assert p.lexicon.name == name


def test_cgp_unknown_lexicon_is_rejected():
    with pytest.raises(InvalidCgpError, match="unknown lexicon.*twl06"):
        Position.from_cgp(f"{EMPTY} ACDINRT/ 0/0 0 lex NWL2023;")
    with pytest.raises(InvalidCgpError, match="opcode"):
        Position.from_cgp(f"{EMPTY} ACDINRT/ 0/0 0 ##;")
    assert Position.from_cgp(f"{EMPTY} ACDINRT/ 0/0 0 lex NWL2023;", lexicon="twl06").lexicon.name == "TWL06"
    p = Position.from_cgp(f"{EMPTY} BLÅ/ 0/0 0 lex nb-small;", variant="wordfeud-nb")
    assert p.lexicon.name == "nb-small"


# ---------------------------------------------------------------------- 14: numbers and long inputs
@pytest.mark.parametrize("cgp", [
    f"{EMPTY} A/ ²/0 0", f"{EMPTY} A/ 0/0 ²", f"{EMPTY} A/ {'9' * 5000}/0 0", f"{EMPTY} A/ 0/0 {'1' * 5000}",
    f"{'1' * 5000}/" + EMPTY.split("/", 1)[1] + " A/ 0/0 0", f"²/{EMPTY.split('/', 1)[1]} A/ 0/0 0",
    f"{EMPTY} A/ ٣/0 0",
])
def test_odd_numbers_in_cgp_are_errors(twl, cgp):
    with pytest.raises(InvalidCgpError) as e:
        Position.from_cgp(cgp, lexicon=twl)
    assert len(str(e.value)) < 300


@pytest.mark.parametrize("text", ["²H WORD", "H² WORD", f"{'8' * 5000}H AB", "٨H AB", f"8H {'A' * 5000}", "8H " + "(" * 5000])
def test_odd_numbers_and_long_words_in_notation_are_errors(p05, text):
    with pytest.raises(InvalidNotationError) as e:
        p05.parse_play(text)
    assert len(str(e.value)) < 300


def test_gcg_huge_numbers_and_long_lines(twl):
    for text in (f">a: ABC 8H AB +4 {'9' * 5000}", f">a: ABC 8H AB +4 ²", ">a: " + "x" * 10000, "y" * 10000,
                 f">a: ABC {'8' * 5000}H AB +4 4"):
        with pytest.raises(InvalidGcgError) as e:
            read_gcg(text, lexicon=twl)
        assert len(str(e.value)) < 300, str(e.value)[:400]


def test_error_messages_cut_huge_inputs(twl):
    huge = "Q" * 100000
    for call in (lambda: Position.from_cgp(huge), lambda: Position("scrabble", twl, rack=huge),
                 lambda: Position.from_cgp(f"{EMPTY} {huge}/ 0/0 0", lexicon=twl),
                 lambda: Position.from_rows([huge] * 15, lexicon=twl), lambda: Position(huge),
                 lambda: Game("scrabble", twl, seed=0).play(huge)):
        with pytest.raises(NumbaWordsError) as e:
            call()
        assert len(str(e.value)) < 300, str(e.value)[:400]


def test_variant_data_are_checked():
    import dataclasses

    from numba_words.scrabble import SCRABBLE

    for kw, match in (({"rack_size": 8}, "rack size"), ({"values": {"A": -1}}, "value for 'A'"),
                      ({"counts": {"Ø": 1}}, "outside alphabet"), ({"layout": ("." * 15,) * 14}, "layout"),
                      ({"layout": ("x" * 15,) * 15}, "layout"), ({"alphabet": "AB" * 20}, "alphabet"),
                      ({"centre_word_mult": 9}, "centre_word_mult"), ({"bingo": -5}, "bingo")):
        with pytest.raises(InvalidVariantError, match=match):
            dataclasses.replace(SCRABBLE, **kw)


# ---------------------------------------------------------------------- 15: the tour on any lexicon
@pytest.mark.parametrize("lexicon, expect", [
    ("nb-small", "wordfeud-nb"),
    (["CAT", "AT", "TA"], "plays"),
    (["AB", "BA"], "skipped"),
])
def test_tour_runs_on_any_lexicon(lexicon, expect):
    from numba_words.scrabble.cli import tour

    lex = Lexicon.load(lexicon) if isinstance(lexicon, str) else \
        Lexicon.from_words(lexicon, alphabet="AB" if expect == "skipped" else "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    lines = []
    tour(lex, lines.append)
    text = "\n".join(lines)
    assert expect in text
    if expect != "skipped":
        assert "reference" in text and "positions/s" in text
    else:
        assert len(lines) == 2


# ---------------------------------------------------------------------- 14, 20: the command line
def test_cli_bad_counts_and_broken_pipe(capsys):
    from numba_words.cli import main

    assert main(["scrabble", "bench", "--games", "0"]) == 2
    assert "--games must be 1 or more" in capsys.readouterr().err
    assert main(["scrabble", "selfplay", "--games", "0"]) == 2
    assert main(["scrabble", "generate", "--top", "-1"]) == 2
    assert main(["scrabble", "--cgp", f"{EMPTY} A/ ²/0 0"]) == 2
    assert "scores" in capsys.readouterr().err
    r = subprocess.run(f"{sys.executable} -m numba_words scrabble --rack AEINST? --top 0 | head -1", shell=True,
                       capture_output=True, text=True, timeout=600)
    assert r.stdout == "8B ANESTrI 64\n" and "Traceback" not in r.stderr and "Broken" not in r.stderr
