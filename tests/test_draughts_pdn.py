"""PDN reading and writing: round trips, comments, escapes, results, files, and errors that name the place."""
from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from numba_words.draughts import (BLACK, AmbiguousMoveError, Game, IllegalMoveError, PdnError, Position, read_pdn,
                                  write_pdn)
from numba_words.draughts import _reference as ref

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


# ---- capture paths with some landing squares left out, against the reference's every route ----------------

MOBYDAM = Path(__file__).parent / "data" / "pdn" / "mobydam"


def _subsequence(sub, seq) -> bool:
    it = iter(seq)
    return all(any(x == y for y in it) for x in sub)


def _king_capture_positions(rng: random.Random, n: int):
    """Random positions (plain-Python placement) whose side to move has a king capture of two or more
    pieces: where PDN writers leave landing squares out."""
    found = 0
    while found < n:
        squares = rng.sample(range(1, 51), rng.randint(6, 24))
        half = rng.randint(1, len(squares) - 1)
        w, b = [], []
        for i, s in enumerate(squares):
            white = i < half
            king = rng.random() < 0.4 or (white and s <= 5) or (not white and s >= 46)
            (w if white else b).append(("K" if king else "") + str(s))
        fen = f"{rng.choice('WB')}:W{','.join(w)}:B{','.join(b)}"
        pieces, white = ref.parse_fen(fen)
        paths = ref.capture_paths(pieces, white)
        if not paths:
            continue
        most = max(len(t) for _, _, t in paths)
        paths = [p for p in paths if len(p[2]) == most]
        if most >= 2 and any(pieces[f].isupper() for f, _, _ in paths):
            found += 1
            yield fen, paths


def _expect(paths, f, via, t):
    """The reference's moves (from, to, captured set) with a route from ``f`` to ``t`` whose landing squares
    before the last contain ``via`` in order."""
    return {(f, lands[-1], frozenset(taken)) for g, lands, taken in paths
            if g == f and lands[-1] == t and _subsequence(via, lands[:-1])}


def _check_notation(pos: Position, text: str, want: set) -> str:
    """parse_move(text) gives the one move of ``want``, or names every candidate when there are several,
    or refuses the move when there are none. Returns which happened."""
    if len(want) == 1:
        m = pos.parse_move(text)
        assert {(m.from_square, m.to_square, frozenset(m.captured))} == want, (pos.fen(), text)
        return "one"
    if want:
        with pytest.raises(AmbiguousMoveError) as e:
            pos.parse_move(text)
        named = {(m.from_square, m.to_square, frozenset(m.captured)) for m in pos.legal_moves
                 if re.search(rf"(?<![0-9x]){m.notation}(?![0-9x])", str(e.value))}
        assert named == want, (pos.fen(), text, str(e.value))
        return "ambiguous"
    with pytest.raises(IllegalMoveError) as e:
        pos.parse_move(text)
    assert not isinstance(e.value, AmbiguousMoveError)
    return "none"


def test_partial_capture_paths_match_the_reference_routes():
    """Every subset of a maximal capture's intermediate landing squares (all of them up to 5, else 24 random
    ones), plus squares no route lands on: the move is the one whose routes land there, in order."""
    rng = random.Random(43)
    seen = {"one": 0, "ambiguous": 0, "none": 0}
    for fen, paths in _king_capture_positions(rng, 120):
        pos = Position.from_fen(fen)
        for f, lands, _ in paths:
            inner, t = lands[:-1], lands[-1]
            if len(inner) <= 5:
                subsets = [[x for i, x in enumerate(inner) if k >> i & 1] for k in range(1 << len(inner))]
            else:
                subsets = [sorted(rng.sample(range(len(inner)), rng.randint(0, len(inner)))) for _ in range(24)]
                subsets = [[inner[i] for i in s] for s in subsets]
            for via in subsets:
                seen[_check_notation(pos, "x".join(map(str, [f, *via, t])), _expect(paths, f, via, t))] += 1
            for _ in range(3):  # a wrong square somewhere among the landing squares, or two swapped
                via = list(inner)
                if len(via) >= 2 and rng.random() < 0.5:
                    i = rng.randrange(len(via) - 1)
                    via[i], via[i + 1] = via[i + 1], via[i]
                else:
                    via.insert(rng.randint(0, len(via)), rng.randint(1, 50))
                seen[_check_notation(pos, "x".join(map(str, [f, *via, t])), _expect(paths, f, via, t))] += 1
    assert min(seen.values()) >= 20, seen  # every outcome was tried many times


def test_babasy4_king_capture_with_one_landing_square_given():
    # Moby Dam's babasy4.pdn, move 43: the black king on 2 takes 22, 24 and 34 by 30 and 39 to 17, written 2x30x17
    pos = Position.from_fen("B:W22,24,27,31,34,40,45,48:BK2,7,15,25")
    m = pos.parse_move("2x30x17")
    assert (m.to_square, m.captured, m.path) == (17, (22, 24, 34), (2, 30, 39, 17))
    assert pos.parse_move("2x39x17") == m and pos.parse_move("2x30x39x17") == m
    with pytest.raises(AmbiguousMoveError, match=r"2x30x39x17, 2x35x44x17"):
        pos.parse_move("2x17")  # {22, 24, 34} by 30 and 39, or {22, 24, 40} by 35 and 44
    with pytest.raises(IllegalMoveError):
        pos.parse_move("2x39x30x17")  # both landing squares, in the wrong order


def test_pdn_partial_capture_paths_read_or_name_the_candidates():
    setup = '[FEN "B:W22,24,27,31,34,40,45,48:BK2,7,15,25"]\n'
    game = read_pdn(setup + "1... 2x30x17 *")[0]
    assert game.moves[0].captured == (22, 24, 34) and "1... 2x30x39x17" in write_pdn(game)
    with pytest.raises(PdnError, match=r"line 2, move 1: ambiguous move '2x17': 2x30x39x17, 2x35x44x17"):
        read_pdn(setup + "1... 2x17 *")


@pytest.mark.slow
def test_moby_dam_book_games_read_and_replay():
    """The 26 game files of Moby Dam's opening book (see data/pdn/mobydam/SOURCE.md): every game reads, every
    move is legal where it is played (read_pdn replays each game), and the file with partial capture paths
    comes back the same through write_pdn."""
    files = sorted(MOBYDAM.glob("*.pdn"))
    assert len(files) == 26
    games = plies = 0
    for path in files:
        text = path.read_text()
        got = read_pdn(path)
        assert len(got) == text.count("[Event "), path.name  # a game per tag roster
        games += len(got)
        plies += sum(len(g.moves) for g in got)
        if path.name == "babasy4.pdn":
            again = read_pdn(write_pdn(got))
            assert [g.moves for g in again] == [g.moves for g in got]
            assert [g.end().fen() for g in again] == [g.end().fen() for g in got]
    # 848 games and 51,080 plies in the 25 files besides babasy4.pdn (49 games, 5,177 plies)
    assert (games, plies) == (897, 56_257)
    assert (games - 49, plies - 5_177) == (848, 51_080)
