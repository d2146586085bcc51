"""Position API, FEN, notation, rules on hand-made positions, draw rules, Game, SVG, bad input."""
from __future__ import annotations

import argparse
import random

import pytest

from numba_words import NumbaWordsError
from numba_words.draughts import (BLACK, WHITE, AmbiguousMoveError, DraughtsError, Game, IllegalMoveError,
                                  InvalidFenError, InvalidPositionError, Position, svg)


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
    pos = Position.from_fen("W:WK46,33:BK1,20")
    pic = pos._repr_svg_()
    assert pic.startswith("<svg") and pic.count("<circle") == 6 and pic == svg(pos)
    # every square's number is drawn, after (above) every piece
    assert all(f">{s}</text>" in pic for s in range(1, 51))
    assert pic.rindex("<circle") < pic.index("<text")
    assert 'width="400"' in svg(pos) and 'width="250"' in svg(pos, size=250)
    # flipped: square 1 (top left seen by White) goes to the bottom right
    def number_at(pic, s):
        import re

        return re.search(rf'<text x="([0-9.]+)" y="([0-9.]+)"[^>]*fill="#fff">{s}</text>', pic).groups()

    assert number_at(svg(pos), 1) == ("42", "9") and number_at(svg(pos, flipped=True), 1) == ("322", "369")
    assert number_at(svg(pos), 50) == number_at(svg(pos, flipped=True), 1)
    # the last move is highlighted (by default the last move of the stack); arrows follow a capture's path
    p = Position.initial()
    assert "#cdd26a" not in svg(p)
    p.push_notation("32-28")
    assert svg(p).count("#cdd26a") == 2 and svg(p) == svg(p, lastmove="32-28")
    q = Position.from_fen("W:W38:B33,32,22,23,12")
    assert svg(q, arrows=["38x38"]).count("<polyline") == 1 and svg(q, arrows=[(38, 29), (40, 35)]).count("<polyline") == 2
    assert svg(q, arrows=list(q.legal_moves)).count(",") >= 5  # the 38x38 circle has five points
    for bad in [dict(size=0), dict(size="big"), dict(arrows=[(1, 51)]), dict(arrows=[(3,)]), dict(arrows=["hello"]),
                dict(lastmove=42), dict(arrows=[object()])]:
        with pytest.raises(DraughtsError):
            svg(q, **bad)
    with pytest.raises(DraughtsError):
        svg("W:W31-50:B1-20")


def test_ambiguous_notation_is_in_legal_moves():
    p = Position.from_fen("B:WK2,6,K12,K22,K31,K39,K40,K41,K44,K47,K48,K49:BK3,K15")
    with pytest.raises(AmbiguousMoveError):
        p.push_notation("3x46")
    assert "3x46" in p.legal_moves  # two legal moves match it: it names legal moves
    assert "3x47" not in p.legal_moves and 5 not in p.legal_moves and None not in p.legal_moves


@pytest.mark.parametrize("fen", ["W:W3\u00b2:B1", "W:W" + "9" * 5000 + ":B1", "W:W1-" + "9" * 5000,
                                 "\u00b2:W1", "W:W\u0663\u0663:B1", "W:WK\u00b9:B2"])
def test_fen_with_odd_digits_or_huge_numbers(fen):
    with pytest.raises(InvalidFenError) as e:
        Position.from_fen(fen)
    assert len(str(e.value)) < 400


@pytest.mark.parametrize("text", ["3\u00b2-4", "9" * 5000 + "-1", "x" * 10_000, "1-2-3", "\u0663\u0662-28"])
def test_move_text_with_odd_digits_or_huge_numbers(text):
    p = Position.initial()
    with pytest.raises(IllegalMoveError) as e:
        p.push_notation(text)
    assert len(str(e.value)) < 400 and text not in p.legal_moves


def test_from_bitboards_validates():
    from numba_words.draughts._tables import bits_of

    w, b = bits_of(range(31, 51)), bits_of(range(1, 21))
    assert Position.from_bitboards(w, b, 0, True) == Position.initial()
    import numpy as np

    assert Position.from_bitboards(np.uint64(w), np.int64(b), 0, np.bool_(True)) == Position.initial()
    for args, fragment in [((w | 1 << 10, b, 0, True), "off the board"), ((w, b | 1 << 60, 0, True), "off the board"),
                           ((w, w, 0, True), "both"), ((w, b, bits_of([25]), True), "kings on empty"),
                           ((bits_of([32, 4]), bits_of([12]), 0, True), "crowning row"), ((bits_of([38]), bits_of([47]), 0, False), "crowning"),
                           ((-1, b, 0, True), "bitboard"), ((1 << 64, b, 0, True), "bitboard"),
                           ((w, "b", 0, True), "bitboard"), ((w, b, 0, 2), "turn"), ((True, b, 0, True), "bitboard")]:
        with pytest.raises(InvalidPositionError, match=fragment):
            Position.from_bitboards(*args)
    assert issubclass(InvalidFenError, InvalidPositionError)


def test_piece_at_checks_the_square():
    p = Position.initial()
    for bad in (0, 51, -1, "1", 1.0, True):
        with pytest.raises(DraughtsError):
            p.piece_at(bad)


def test_game_play_undo_and_selfplay():
    g = Game()
    assert g.play("32-28").notation == "32-28" and g.play("19-23").notation == "19-23"
    assert g.position.fen() == "W:W28,31,33-50:B1-18,20,23" and len(g) == 2
    assert [m.notation for m in g.position.legal_moves] == ["28x19"]
    assert g.undo().notation == "19-23" and len(g.moves) == 1
    with pytest.raises(IllegalMoveError):
        g.play("32-28")
    assert len(g.moves) == 1
    g.undo()
    with pytest.raises(DraughtsError):
        g.undo()
    assert Game("B:W28,33:B19,K1").start().turn is BLACK
    with pytest.raises(DraughtsError):
        Game(42)
    a, b = Game.selfplay(seed=5), Game.selfplay(seed=5)
    assert a == b and a.result in ("2-0", "0-2", "1-1", "*") and len(a) > 0
    out = a.outcome()
    assert (out is None) == (a.result == "*") and (out is None or out.result() == a.result)
    # the record replays: every move legal from the start
    assert Game(a.start(), a.moves).position == a.position
    short = Game.selfplay(max_plies=3, seed=1)
    assert len(short) == 3 and short.result == "*"
    with pytest.raises(DraughtsError):
        Game.selfplay(max_plies=-1)


def test_module_layout_and_old_import_path():
    import numba_words.draughts as d
    from numba_words.draughts import _search, search
    from numba_words.draughts.perft import perft_tasks  # the wrapper's name before it became search.py

    assert _search.__name__ == "numba_words.draughts._search" and hasattr(_search, "perft_kernel")
    assert perft_tasks is search.perft_tasks and callable(d.perft) and d.perft is search.perft
    assert callable(d.svg) and set(d.__all__) <= set(dir(d))
