"""The notebook widgets' Python side without a browser: state in (traitlets set as the view or a script sets
them, the view's messages), state out (traitlets) compared with the engines' own API; the lazy import and
the error naming the extra when anywidget is missing; the static SVG beside the live view."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from numba_words.errors import MissingExtraError

anywidget = pytest.importorskip("anywidget", reason="the widgets need anywidget: pip install 'numba_words[widgets]'")

MIDGAME = "A14/B14/O14/I14/DEAVE2WOOF4/EFS1TALA1HET3/a4MINX6/U2CLADE7/15/15/15/15/15/15/15 ADDERTU/ 173/113 0"
ENDGAMES = Path(__file__).resolve().parent / "data" / "scrabble" / "magpie_endgame_tests.cgp"


@pytest.mark.parametrize("engine", ["scrabble", "draughts", "bookworm"])
def test_missing_anywidget_names_the_extra(engine, monkeypatch):
    import importlib

    mod = importlib.import_module(f"numba_words.{engine}")
    monkeypatch.setitem(sys.modules, "anywidget", None)  # (an import of it raises ImportError)
    with pytest.raises(MissingExtraError, match=r"numba_words\[widgets\]"):
        mod.BoardWidget  # noqa: B018
    with pytest.raises(AttributeError):
        mod.NoSuchThing  # noqa: B018


def test_the_package_imports_without_loading_anywidget():
    code = ("import sys, numba_words.scrabble, numba_words.draughts, numba_words.bookworm; "
            "print('anywidget' in sys.modules, 'ipywidgets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize("engine", ["scrabble", "draughts", "bookworm"])
def test_no_trait_shadows_one_of_the_widget_base(engine):
    """A trait named like one of ipywidgets' (``layout``, ``tooltip``, ...) breaks the view in JupyterLab."""
    import importlib

    cls = importlib.import_module(f"numba_words.{engine}").BoardWidget
    base = anywidget.AnyWidget.class_traits()
    assert [n for n, tr in cls.class_traits().items() if n in base and type(tr) is not type(base[n])] == []


# ---------------------------------------------------------------------------------------------- crossword
@pytest.fixture
def xw():
    from numba_words.scrabble import BoardWidget, Position

    return BoardWidget(Position.from_cgp(MIDGAME)), Position.from_cgp(MIDGAME)


def test_crossword_plays_follow_the_rack(xw):
    w, pos = xw
    assert w.rack == "ADDERTU" and w.plays_for == "ADDERTU"
    for rack in ("A", "AD", "ADE?", "ADERST?", "adErst?", ""):
        for by in ("score", "equity"):
            w.by = by
            w.rack = rack
            pos.rack = rack
            assert w.plays_for == rack and w.error == ""
            top = pos.top(10, by) if rack else []
            assert [p["notation"] for p in w.plays] == [p.notation for p in top]
            assert [p["score"] for p in w.plays] == [p.score for p in top]
            assert [p["equity"] for p in w.plays] == [round(p.equity, 3) for p in top]
            assert [p["squares"] for p in w.plays] == [[[r, c, ch.lower() if bl else ch] for r, c, ch, bl in p.placed]
                                                       for p in top]
            assert w.n_legal == (len(pos.legal_plays()) if rack else 0)
    w.n = 3
    w.rack = "ADERST?"
    assert len(w.plays) == 3


def test_crossword_bad_input_is_an_error_not_a_crash(xw):
    w, _ = xw
    w.rack = "ZZZ"  # one Z in the bag
    assert "Z" in w.error and w.plays == [] and w.plays_for == "ZZZ"
    w.rack = "AB1"
    assert "'1'" in w.error and w.plays == []
    w.rack = "AB"
    assert w.error == "" and w.plays
    old = w.cgp
    w.cgp = "not a cgp"
    assert w.error and w.cgp == "not a cgp" and w.board == w._pos.rows()  # the board stays
    w.cgp = old
    assert w.error == ""
    w.send_state()  # (no front end: nothing to send to, no error)
    w._handle_custom_msg({"type": "nonsense"}, [])
    assert "unknown widget message" in w.error
    w._handle_custom_msg({"type": "square", "row": 99, "col": 0, "letter": "A"}, [])
    assert "not on the 15x15 board" in w.error
    w._handle_custom_msg({"type": "play", "index": 50}, [])
    assert "no play 50" in w.error


def test_crossword_cgp_in_and_out(xw):
    from numba_words.scrabble import Position

    w, pos = xw
    assert Position.from_cgp(w.cgp).cgp() == pos.cgp() and w.board == pos.rows()
    assert w.scores == [173, 113] and w.premium == list(pos.variant.layout)
    empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"
    w.cgp = empty
    assert w.board == ["." * 15] * 15 and w.rack == "AEINRST" and w.plays[0]["score"] == \
        Position.from_cgp(empty).best().score
    w.undo()
    assert w.cgp == pos.cgp()


def test_crossword_play_it_places_the_tiles_and_scores(xw):
    w, pos = xw
    w.rack = "ADERST?"
    pos.rack = "ADERST?"
    w.by = "equity"
    w.selected = 1
    play = pos.top(10, "equity")[1]
    w._handle_custom_msg({"type": "play", "index": 1}, [])
    rows = [list(r) for r in pos.rows()]
    for r, c, ch, bl in play.placed:
        assert rows[r][c] == "."
        rows[r][c] = ch.lower() if bl else ch
    assert w.board == ["".join(r) for r in rows]
    assert w.scores == [113, 173 + play.score] and w.rack == "" and w.plays == []
    assert w.position.rows() == w.board
    w.undo()
    assert w.board == pos.rows() and w.rack == "ADERST?"
    with pytest.raises(Exception, match="nothing to undo"):
        w.undo()


def test_crossword_squares_set_up_a_position(xw):
    w, pos = xw
    w._handle_custom_msg({"type": "square", "row": 14, "col": 0, "letter": "q"}, [])  # lower case: a blank
    assert w.board[14][0] == "q" and w.error == ""
    w.set_square(14, 1, "I")
    assert w.board[14][:2] == "qI" and w.position.rows()[14][:2] == "qI"
    w.set_square(14, 0, "")
    assert w.board[14][:2] == ".I"
    w._handle_custom_msg({"type": "square", "row": 0, "col": 5, "letter": "7"}, [])
    assert "'7'" in w.error and w.board[0][5] == "."


def test_crossword_slot_finder_asks_the_lexicon(xw):
    w, pos = xw
    w.slot_pattern = ".A[EI].S"
    assert w.slot_count == len(pos.lexicon.match(".A[EI].S")) > 0
    w.slot_rack = "ZAPTIS?"
    want = [str(m) for m in pos.lexicon.match(".A[EI].S", "ZAPTIS?")]
    assert w.slot_words == want[:200] and w.slot_count == len(want)
    w.slot_pattern = "[A"
    assert "never closed" in w.error and w.slot_words == []


def test_crossword_static_svg_beside_the_view(xw):
    w, pos = xw
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["image/svg+xml"] == pos.svg()
    w.selected = 0
    assert w._repr_mimebundle_()["image/svg+xml"] == pos.svg(pos.top(10)[0])


def test_crossword_simulation_in_the_background_and_stop(xw):
    w, pos = xw
    w.sim_candidates, w.sim_plies = 3, 1
    task = w.simulate(iterations=128, threads=1, seed=3)
    task.join(300)
    assert not w.sim_running and w.error == ""
    res = pos.simulate(candidates=3, plies=1, iterations=128, threads=1, seed=3)
    assert [(r["notation"], r["mean"], r["iterations"]) for r in w.sim_rows] == \
        [(c.play.notation, round(c.mean, 3), c.iterations) for c in res.candidates]
    assert w.sim_iterations == res.iterations
    seen = []
    w.observe(lambda ch: seen.append(ch["new"]), "sim_iterations")
    task = w.simulate(iterations=10 ** 7, threads=1)
    w.stop()
    task.join(300)
    assert not w.sim_running and 0 < w.sim_iterations < 10 ** 7 and w.sim_iterations % 64 == 0
    assert seen[0] == 0 and seen[-1] == w.sim_iterations


def test_crossword_endgame_when_the_bag_is_empty():
    from numba_words.scrabble import BoardWidget, Position

    cgp = next(ln for ln in ENDGAMES.read_text().splitlines() if ln and not ln.startswith("#")).split("#")[0].strip()
    pos = Position.from_cgp(cgp, lexicon="twl06")
    w = BoardWidget(pos)
    assert w.endgame_ready and w.opp_rack == pos.opp_rack
    w.endgame(plies=1).join(300)
    want = pos.endgame(plies=1).to_record()
    got = dict(w.endgame_result)
    assert {k: v for k, v in got.items() if k != "seconds"} == {k: v for k, v in want.items() if k != "seconds"}
    mid = BoardWidget(Position.from_cgp(MIDGAME))
    assert not mid.endgame_ready
    mid._handle_custom_msg({"type": "endgame"}, [])
    assert "empty bag" in mid.error


# ---------------------------------------------------------------------------------------------- draughts
def test_draughts_moves_undo_redo_fen():
    from numba_words.draughts import BoardWidget, Position

    w, pos = BoardWidget(), Position()
    for notation in ("32-28", "19-23", "28x19", "14x23"):
        assert w.fen == pos.fen() and w.turn == ("W" if pos.turn else "B")
        assert [(m["from"], m["to"], m["captured"], m["path"]) for m in w.moves] == \
            [(m.from_square, m.to_square, list(m.captured), list(m.path)) for m in pos.legal_moves]
        assert w.pieces == [pos.piece_at(s) or "" for s in range(1, 51)]
        index = [m["notation"] for m in w.moves].index(notation)
        w._handle_custom_msg({"type": "move", "index": index}, [])
        pos.push_notation(notation)
        assert w.last == list(pos.move_stack[-1].path)
    assert w.history == ["32-28", "19-23", "28x19", "14x23"] and w.fen == pos.fen()
    w.undo()
    w.undo()
    back = Position()
    back.push_notation("32-28")
    back.push_notation("19-23")
    assert w.fen == back.fen() and w.can_redo and w.history == ["32-28", "19-23"]
    w.redo()
    assert w.history == ["32-28", "19-23", "28x19"]
    w.move("14x23")  # a new move clears what could be redone
    assert not w.can_redo
    with pytest.raises(Exception, match="nothing to redo"):
        w.redo()
    w.fen = "W:W28:B12,22,23"
    (cap,) = list(Position("W:W28:B12,22,23").legal_moves)
    assert w.moves == [{"notation": cap.notation, "from": 28, "to": 8, "path": list(cap.path),
                        "captured": sorted(cap.captured)}] and w.history == []


def test_draughts_bad_input_and_game_over():
    from numba_words.draughts import BoardWidget

    w = BoardWidget("W:W28:B12,22,23")
    fen = w.fen
    w.fen = "W:W28:B12,22,99"
    assert "99" in w.error and w.fen == "W:W28:B12,22,99" and w.pieces[27] == "w"  # the board stays
    w._handle_custom_msg({"type": "move", "index": 5}, [])
    assert "no move 5" in w.error
    w._handle_custom_msg({"type": "undo"}, [])
    assert "nothing to undo" in w.error
    w.fen = fen
    w.move(0)
    assert w.error == "" and w.history == ["28x8"] and w.outcome == ""
    w.fen = "B:W46:B41,32"
    w.move("32-37")  # White's man on 46 cannot move: lost
    assert w.outcome == "0-2 (no legal move)" and w.moves == []
    with pytest.raises(Exception, match="illegal"):
        w.move("46-41")


def test_draughts_perft_divide_on_request():
    from numba_words.draughts import BoardWidget, Position, divide

    w = BoardWidget()
    w.move("32-28")
    w.perft_depth = 3
    w._handle_custom_msg({"type": "perft"}, [])
    for _ in range(600):
        if not w.perft_running:
            break
        import time

        time.sleep(0.05)
    pos = Position()
    pos.push_notation("32-28")
    want = divide(pos, 3)
    assert w.perft_result == [[m, n] for m, n in want.items()] and w.perft_total == sum(want.values())
    with pytest.raises(Exception, match="depth"):
        w.perft(0)


def test_draughts_static_svg_and_engine_guard():
    import numba_words.draughts as D
    from numba_words.draughts import BoardWidget, Position

    w = BoardWidget()
    w.selected = 32
    arrows = [m for m in Position().legal_moves if m.from_square == 32]
    assert w._repr_mimebundle_()["image/svg+xml"] == D.svg(Position(), arrows=arrows)
    assert w.engine_available == hasattr(D, "Engine")
    if not w.engine_available:
        w._handle_custom_msg({"type": "engine"}, [])
        assert "no search engine" in w.error


@pytest.mark.skipif(not hasattr(__import__("numba_words.draughts").draughts, "Engine"),
                    reason="the draughts search engine is not in this version")
def test_draughts_engine_move_and_play_against_it():
    from numba_words.draughts import BoardWidget, Position

    w = BoardWidget()
    w.engine_move(time=0.2).join(60)
    assert len(w.history) == 1 and w.error == "" and w.eval_text
    assert Position().parse_move(w.history[0]) in Position().legal_moves
    w.engine_side = "W"  # it is Black's move: the engine waits for it
    black = w.moves[0]["notation"]
    w.engine_time = 0.2
    w.move(black)
    w._task.join(60)
    assert len(w.history) == 3 and 0.0 <= w.eval_white <= 1.0
    assert w.eval_white == round(w.eval_white, 2)  # whole percent, as the bar draws it


# ---------------------------------------------------------------------------------------------- bookworm
def test_bookworm_words_paths_and_best_of_each_length():
    from numba_words.bookworm import BoardWidget, Position

    pos = Position.random(seed=1)
    w = BoardWidget(pos)
    sol = pos.words()
    assert w.n_words == len(sol) and w.words == [f.to_record() for f in sol.top(200)]
    best = {}
    for f in sol:  # every word: the best score of each length
        best[len(f.word)] = max(best.get(len(f.word), 0), f.score)
    assert {int(k): w.words[i]["score"] for k, i in w.best_by_length.items()} == best
    for i in (0, 7, len(w.words) - 1):
        w.selected = i
        assert w.path == w.words[i]["path"] and pos.path_word(w.path) == w.words[i]["word"]
    assert len(w.tiles) == pos.grid.n_tiles and w.hex
    assert [t["label"] for t in w.tiles] == [("Qu" if pos.letters(k) == "qu" else pos.letters(k).upper())
                                             for k in range(pos.grid.n_tiles)]
    assert w._repr_mimebundle_()["image/svg+xml"] == pos.svg(w.path)


def test_bookworm_play_with_gravity_and_undo():
    from numba_words.bookworm import BoardWidget, Position

    pos = Position.random(seed=2)
    w = BoardWidget(pos)
    w.selected = 3
    word = w.words[3]
    w._handle_custom_msg({"type": "play", "index": 3}, [])
    turn = pos.play(tuple(word["path"]))  # the same seeded generator refills the same tiles
    assert w.score == turn.total == pos.score and w.history == [[turn.word, turn.score]]
    assert [t["label"] for t in w.tiles] == [("Qu" if pos.letters(k) == "qu" else pos.letters(k).upper())
                                             for k in range(pos.grid.n_tiles)]
    assert [t["kind"] for t in w.tiles] == [pos.kind(k) for k in range(pos.grid.n_tiles)]
    assert w.words == [f.to_record() for f in pos.words().top(200)] and w.selected == -1
    w.undo()
    assert w.score == 0 and w.history == []
    w._handle_custom_msg({"type": "play", "index": 10 ** 6}, [])
    assert "no word" in w.error


def test_boggle_board_traces_but_does_not_play():
    from numba_words.bookworm import BOGGLE4, BoardWidget, Position

    pos = Position("sers tpie gnsl detr", grid=BOGGLE4)
    w = BoardWidget(pos)
    assert not w.hex and not w.can_play and len(w.tiles) == 16
    w.selected = 0
    assert pos.path_word(w.path) == w.words[0]["word"]
    w._handle_custom_msg({"type": "play", "index": 0}, [])
    assert "Bookworm grid" in w.error
