"""Position API, FEN, notation, rules on hand-made positions, draw rules, PDN, CLI, bad input."""
from __future__ import annotations

import argparse
import random

import pytest

from numba_words import NumbaWordsError
from numba_words.draughts import (BLACK, WHITE, AmbiguousMoveError, Game, IllegalMoveError, InvalidFenError, PdnError,
                                  Position, read_pdn, write_pdn)


def moves(fen):
    return sorted(m.notation for m in Position.from_fen(fen).legal_moves)


def test_initial_position_and_fen_roundtrip():
    p = Position.initial()
    assert p.fen() == "W:W31-50:B1-20" and p.turn is WHITE
    assert repr(p) == "Position('W:W31-50:B1-20')"
    assert eval(repr(p), {"Position": Position}) == p
    assert len(p.legal_moves) == p.legal_moves.count() == 9 and bool(p.legal_moves)
    assert "32-28" in p.legal_moves and "32-27" in p.legal_moves and "32-29" not in p.legal_moves
    q = Position.from_fen("B:WK3,28,33-36:BK44,1,2")
    assert Position.from_fen(q.fen()) == q and q.turn is BLACK
    assert q.piece_at(3) == "W" and q.piece_at(44) == "B" and q.piece_at(1) == "b" and q.piece_at(4) is None
    assert Position.from_fen("W:WK31-50:BK1-20").fen() == "W:WK31-50:BK1-20"
    assert Position.from_fen('"W:B1,2:W49,50."').fen() == "W:W49,50:B1,2"
    s = str(p)
    assert s.count("w") == 20 and s.count("b") == 20 and "White to move" in s


def test_push_pop_copy():
    p = Position.initial()
    m = p.push_notation("32-28")
    assert str(m) == "32-28" and p.turn is BLACK
    p.push_notation("19-23")
    assert [m.notation for m in p.legal_moves] == ["28x19"]
    c = p.copy()
    p.push(next(iter(p.legal_moves)))
    assert p.fen() == "B:W19,31,33-50:B1-18,20"
    assert p.pop().notation == "28x19"
    assert p == c and p.move_stack == c.move_stack
    with pytest.raises(IndexError):
        Position.initial().pop()


def test_men_move_forward_capture_backward():
    assert moves("W:W28:B") == ["28-22", "28-23"]
    assert moves("B:W:B23") == ["23-28", "23-29"]
    # backward capture by a man
    assert moves("W:W23:B28") == ["23x32"]


def test_majority_capture_counts_pieces_not_kings():
    # the king could take one king; the man can take two men: the man must
    ms = list(Position.from_fen("W:WK50,33:BK44,28,17").legal_moves)
    assert [(m.from_square, m.to_square, m.captured) for m in ms] == [(33, 11, (17, 28))]
    # equal counts: both pieces may capture, and a king capture counts the same as a man capture
    ms = Position.from_fen("W:WK46,33:BK41,28,17").legal_moves
    assert {len(m.captured) for m in ms} == {2} and {m.from_square for m in ms} == {33, 46}


def test_flying_king_moves_and_captures():
    p = Position.from_fen("W:WK46:B")
    assert len(p.legal_moves) == 9  # the long diagonal 46-5
    # king captures from a distance and may land on any empty square beyond
    assert moves("W:WK46:B28") == sorted(["46x23", "46x19", "46x14", "46x10", "46x5"])
    # a king may not jump two pieces at once, nor its own piece
    assert moves("W:WK46:B28,23") == [] or all("x" not in m for m in moves("W:WK46:B28,23"))
    assert "x" not in "".join(moves("W:WK46,37:B28"))


def test_captured_pieces_block_and_are_not_jumped_twice():
    # Turkish-strike situation: a king circling must not jump the same piece twice
    p = Position.from_fen("W:WK1:B7,18,29,40,39,28,17")
    for m in p.legal_moves:
        assert len(set(m.captured)) == len(m.captured)


def test_no_crowning_when_passing_the_far_row():
    # the man on 15 passes square 4 on the far row (15x4 over 10, then 4x13 over 9): it stays a man
    p = Position.from_fen("W:W15:B10,9")
    ms = list(p.legal_moves)
    assert [(m.from_square, m.to_square) for m in ms] == [(15, 13)]
    p.push(ms[0])
    assert p.piece_at(13) == "w"
    q = Position.from_fen("W:W15:B10")
    q.push_notation("15x4")
    assert q.piece_at(4) == "W"


def test_duplicate_captures_count_once_and_full_path_notation():
    # a man taking four pieces round a circle, clockwise or anticlockwise: the same move, counted once
    ms = list(Position.from_fen("W:W38:B33,32,22,23,12").legal_moves)
    assert [(m.from_square, m.to_square, m.captured) for m in ms] == [(38, 38, (22, 23, 32, 33))]
    assert ms[0].notation == "38x38"


def test_ambiguous_short_notation_is_an_error():
    # the black king on 3 reaches 46 taking {12, 22, 41} or {12, 31, 41}: notation must give the path
    p = Position.from_fen("B:WK2,6,K12,K22,K31,K39,K40,K41,K44,K47,K48,K49:BK3,K15")
    ms = [m for m in p.legal_moves if (m.from_square, m.to_square) == (3, 46)]
    assert len(ms) == 2 and {m.captured for m in ms} == {(12, 22, 41), (12, 31, 41)}
    with pytest.raises(AmbiguousMoveError):
        p.parse_move("3x46")
    for m in ms:
        assert m.notation.count("x") >= 3 and m.notation.startswith("3x") and m.notation.endswith("x46")
        assert p.parse_move(m.notation) == m
        assert m.notation in p.legal_moves
    assert [m.notation for m in p.legal_moves if m not in ms] == [
        f"{m.from_square}x{m.to_square}" for m in p.legal_moves if m not in ms]


@pytest.mark.parametrize("fen, fragment", [
    ("X:W31-50:B1-20", "'X:W31-50:B1-20'"),
    ("W:W31-50:B1-20:C5", "'C5'"),
    ("W:W31-5a:B1-20", "'31-5a'"),
    ("W:W31-51:B1-20", "'31-51'"),
    ("W:W31-50:B1-31", "square 31"),
    ("W:W3:B1", "white man on the crowning row"),
    ("W:W33:B47", "black man on the crowning row"),
    ("W:W31-50:W1-20", "twice"),
    (42, "42"),
])
def test_bad_fen(fen, fragment):
    with pytest.raises(InvalidFenError) as e:
        Position.from_fen(fen)
    assert fragment in str(e.value)
    assert isinstance(e.value, NumbaWordsError) and isinstance(e.value, ValueError)


@pytest.mark.parametrize("text", ["32-29", "32x28", "hello", "0-5", "32-", "51-46", "28x19x"])
def test_illegal_move_strings(text):
    p = Position.initial()
    with pytest.raises(IllegalMoveError) as e:
        p.push_notation(text)
    assert repr(text) in str(e.value)
    assert text not in p.legal_moves


def test_outcomes():
    assert Position.from_fen("W:W:B1").outcome().winner is BLACK
    blocked = Position.from_fen("W:W46:B41,37")  # white man on 46 blocked by 41; 41 defended by 37
    assert blocked.outcome() == (BLACK, "no legal move") and blocked.is_game_over()
    assert not Position.initial().is_game_over()
    # repetition with kings shuffling
    p = Position.from_fen("W:WK45,K50:BK6,K16")
    for _ in range(2):
        for mv in ("45-40", "6-1", "40-45", "1-6"):
            assert p.outcome() is None
            p.push_notation(mv)
    assert p.outcome() == (None, "threefold repetition")
    # 5-move rule: king + man against king, 5 moves each without a capture or a change of material
    q = Position.from_fen("W:WK47,38:BK1")
    for mv in ("38-32", "1-6", "32-27", "6-1", "27-21", "1-6", "21-16", "6-1", "47-42", "1-6"):
        assert q.outcome() is None, mv
        q.push_notation(mv)
    assert q.outcome() == (None, "5-move rule") and q.outcome().result() == "1-1"
    # 25-move rule: 50 plies with only king moves and no capture (a seeded walk that never repeats a
    # position and never allows a capture); the 49th ply is not yet a draw
    rng = random.Random(0)
    r = Position.from_fen("W:WK46,K47,K48,36,37:BK3,K4,K5,14,15")
    seen = {r.board_key()}
    for ply in range(50):
        assert r.outcome() is None, ply
        cands = [m for m in r.legal_moves if not m.captured and r.piece_at(m.from_square) in "WB"]
        rng.shuffle(cands)
        for m in cands:
            r.push(m)
            if r.board_key() not in seen and not any(x.captured for x in r.legal_moves):
                seen.add(r.board_key())
                break
            r.pop()
        else:  # pragma: no cover - the seed is chosen so that this does not happen
            pytest.fail("walk got stuck")
    assert r.outcome() == (None, "25-move rule")


def test_svg():
    svg = Position.from_fen("W:WK46,33:BK1,20")._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 6


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


def _cli(capsys, *argv):
    from numba_words.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_perft_and_divide(capsys):
    code, out, err = _cli(capsys, "draughts", "perft", "5")
    assert code == 0 and "Nodes searched: 27117" in out and "nodes/s" in err
    code, out, _ = _cli(capsys, "perft", "--depth", "3", "--divide", "--threads", "1", "--leaves")
    assert code == 0 and "32-28: 70" in out and "Nodes searched: 658" in out
    code, out2, _ = _cli(capsys, "draughts", "divide", "3", "--threads", "1")
    assert code == 0 and out2 == out
    code, _, err = _cli(capsys, "draughts", "perft", "--fen", "W:W31-50:B1-99", "--depth", "2")
    assert code == 2 and "1-99" in err
    code, _, err = _cli(capsys, "draughts", "perft")
    assert code == 2 and "give the depth" in err


def test_cli_show(capsys, tmp_path):
    svg = tmp_path / "b.svg"
    code, out, _ = _cli(capsys, "draughts", "show", "--moves", "32-28 19-23", "--svg", str(svg))
    assert code == 0 and "FEN: W:W28,31,33-50:B1-18,20,23" in out and "legal moves (1): 28x19" in out
    assert svg.read_text().startswith("<svg")
    code, _, err = _cli(capsys, "draughts", "show", "--moves", "32-29")
    assert code == 2 and "illegal move '32-29'" in err


def test_cli_tour(capsys):
    from numba_words.draughts import cli

    cli.tour(None, print)
    out, _ = capsys.readouterr()
    assert "perft(9) = 41,022,423 (matches the published" in out and "faster" in out
