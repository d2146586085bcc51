"""PDN reading and writing: round trips, comments, escapes, results, files, and errors that name the place."""
from __future__ import annotations

import io

import pytest

from numba_words.draughts import BLACK, Game, PdnError, read_pdn, write_pdn

PDN = """[Event "Test game"]
[White "A"]
[Black "B"]
[Result "2-0"]

1. 32-28 19-23 2. 28x19 14x23 {a comment
spanning lines} 3. 33-28 (3. 37-32 10-14) 23x32 4. 37x28 $1 2-0

[Event "Setup"]
[FEN "B:W28,33:B19,K1"]
1... 19-23 2. 28x19 *
"""


def test_pdn_read_write_roundtrip(tmp_path):
    games = read_pdn(PDN)
    assert len(games) == 2
    g = games[0]
    assert g.tags["White"] == "A" and g.result == "2-0"
    assert [m.notation for m in g.moves] == ["32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"]
    assert len(list(g.positions())) == 8
    assert games[1].start().turn is BLACK and len(games[1].moves) == 2
    text = write_pdn(games)
    path = tmp_path / "g.pdn"
    path.write_text(text)
    again = read_pdn(path)
    assert [x.moves for x in again] == [x.moves for x in games]
    assert [x.end() for x in again] == [x.end() for x in games]
    assert "1... 19-23" in text and '[FEN "B:W28,33:BK1,19"]' in text
    assert isinstance(g, Game)


@pytest.mark.parametrize("text, fragment", [
    ('[Event "x"]\n1. 32-28 19-23 2. 28-22 *', "line 2, move 2"),
    ('[Event "x"]\n1. 32-28\n19-24 2. 28x19 *', "line 3, move 2"),
    ('[Event "x"\n1. 32-28 *', "line 1"),
    ('[FEN "W:W3:B1"]\n1. 3-x *', "FEN"),
    ('1. 32-28 ?? *', "line 1, move 1"),
])
def test_bad_pdn(text, fragment):
    with pytest.raises(PdnError) as e:
        read_pdn(text)
    assert fragment in str(e.value)




def test_byte_order_mark_is_skipped(tmp_path):
    text = '\ufeff[Event "bom"]\n1. 32-28 *\n'
    assert read_pdn(text)[0].headers["Event"] == "bom"
    path = tmp_path / "bom.pdn"
    path.write_text(text, encoding="utf-8")
    assert [m.notation for m in read_pdn(path)[0].moves] == ["32-28"]
    assert read_pdn(str(path))[0].headers["Event"] == "bom"
    assert read_pdn(text.encode("utf-8"))[0].headers["Event"] == "bom"
    with open(path, "rb") as f:
        assert read_pdn(f)[0].headers["Event"] == "bom"
    with open(path, encoding="utf-8") as f:
        assert read_pdn(f)[0].headers["Event"] == "bom"


def test_comments_do_not_nest():
    # '{a {b}' is the closed comment 'a {b': the first '}' closes it
    g = read_pdn("1. 32-28 {a {b} 19-23 *")[0]
    assert [m.notation for m in g.moves] == ["32-28", "19-23"]
    # so a second '}' is stray text, and an unclosed '{' is an error naming its line
    with pytest.raises(PdnError, match="line 1.*cannot read '}'"):
        read_pdn("1. 32-28 {a {b}} 19-23 *")
    with pytest.raises(PdnError, match="line 2: unclosed '{' comment"):
        read_pdn("1. 32-28\n{a comment that never ends\n19-23 *")
    # braces and brackets inside comments and line comments are text
    g = read_pdn('1. 32-28 {see [Event "x"] (a)} ; { not a comment\n19-23 *')[0]
    assert len(g.moves) == 2


def test_tag_escapes_round_trip():
    g = Game(headers={"Event": 'back\\slash "quoted" \\"both\\"', "Annotator": "a]b"})
    g.play("32-28")
    text = write_pdn(g)
    assert '[Event "back\\\\slash \\"quoted\\" \\\\\\"both\\\\\\""]' in text
    again = read_pdn(text)[0]
    assert again.headers["Event"] == g.headers["Event"] and again.headers["Annotator"] == "a]b"
    assert again.moves == g.moves and again.result == g.result


@pytest.mark.parametrize("value", ["two\nlines", "tab\there", "cr\r", "nul\x00"])
def test_write_refuses_tag_values_it_cannot_write(value):
    g = Game(headers={"Event": value})
    with pytest.raises(PdnError, match="control character"):
        write_pdn(g)
    with pytest.raises(PdnError, match="tag name"):
        write_pdn(Game(headers={"Bad Name": "x"}))


def test_write_refuses_what_is_not_a_game():
    with pytest.raises(PdnError):
        write_pdn([Game(), "game"])
    with pytest.raises(PdnError):
        write_pdn(42)
    g = Game()
    g.result = "3-0"
    with pytest.raises(PdnError, match="result"):
        write_pdn(g)


def test_a_result_ends_the_game():
    with pytest.raises(PdnError, match=r"line 1: move text '2\.' after the result 2-0"):
        read_pdn("1. 32-28 19-23 2-0 2. 28x19 *")
    with pytest.raises(PdnError, match="after the result"):
        read_pdn("1. 32-28 2-0 32-28")
    # games without tags, one after another, each ended by its result
    games = read_pdn("1. 32-28 19-23 2-0\n1. 33-28 0-2\n\n1. 34-30 *")
    assert [g.result for g in games] == ["2-0", "0-2", "*"]
    assert [[m.notation for m in g.moves] for g in games] == [["32-28", "19-23"], ["33-28"], ["34-30"]]
    # a result inside a variation does not end the game
    g = read_pdn("1. 32-28 (1. 33-28 2-0) 19-23 *")[0]
    assert len(g.moves) == 2 and g.result == "*"
    # the tag Result stands when the move text has none
    assert read_pdn('[Result "1-1"]\n1. 32-28')[0].result == "1-1"


def test_missing_files_are_named(tmp_path):
    for missing in ("games.pdn", "GAMES.PDN", str(tmp_path / "nope"), tmp_path / "nope.pdn"):
        with pytest.raises(PdnError, match="cannot read the PDN file"):
            read_pdn(missing)
    with pytest.raises(PdnError, match="cannot read the PDN file"):
        read_pdn(tmp_path)  # a directory
    bad = tmp_path / "latin1.pdn"
    bad.write_bytes('[Event "Caf\xe9"]\n*'.encode("latin-1"))
    with pytest.raises(PdnError, match="not UTF-8"):
        read_pdn(bad)
    with pytest.raises(PdnError, match="takes PDN text"):
        read_pdn(42)
    assert read_pdn("") == [] and read_pdn(io.StringIO("  \n")) == []


def test_errors_cut_huge_input():
    with pytest.raises(PdnError) as e:
        read_pdn("1. " + "x" * 100_000)
    assert len(str(e.value)) < 300
    with pytest.raises(PdnError) as e:
        read_pdn("1. 32-28 " + "9" * 5000 + ". 19-23 *")
    assert len(str(e.value)) < 300


def test_a_path_with_a_nul_character_is_named():
    with pytest.raises(PdnError, match="cannot read"):
        read_pdn("/\x00")
