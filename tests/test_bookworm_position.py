"""Position: text round trips, errors, playing (gravity, refill, gems, fire), games and self-play, SVG."""
import numpy as np
import pytest

from numba_words.bookworm import (BOGGLE4, BOGGLE5, STRATEGIES, Board, Game, InvalidBoardError,
                                  InvalidParameterError, InvalidPathError, Position, Rules, play_game)
from numba_words.bookworm._tables import FIRE

TEXT = "nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy"


def test_parse_print_repr():
    b = Board(TEXT, kinds="..g.... ........ ...f... ........ ....... ....d... .......")
    assert b.text == TEXT
    again = eval(repr(b), {"Position": Position})
    assert again.text == b.text and np.array_equal(again.kinds, b.kinds)
    assert repr(Board(TEXT)) == f"Position({TEXT!r})" and Board is Position
    bog = Position("qiet anrs dlme okgt", grid=BOGGLE4, level=3)
    again = eval(repr(bog), {"Position": Position, "BOGGLE4": BOGGLE4})
    assert again.text == bog.text and again.grid is BOGGLE4 and again.level == 3
    assert eval(repr(Position("a" * 25, grid=BOGGLE5)), {"Position": Position, "BOGGLE5": BOGGLE5}).grid is BOGGLE5
    s = str(b)
    assert len(s.splitlines()) == 15 and "Q" in s and "Ef" in s and "Lg" in s
    assert b.letters(b.grid.index(5, 3)) == "qu" and b.kind(b.grid.index(2, 3)) == "fire"


@pytest.mark.parametrize("kinds,match", [("x" * 52, "not a tile kind"), ("." * 50, "gives 50 tiles")])
def test_bad_kinds(kinds, match):
    with pytest.raises(InvalidBoardError, match=match):
        Board(TEXT, kinds=kinds)


def test_bad_level():
    with pytest.raises(InvalidParameterError, match="level"):
        Board(TEXT, level=0)


def test_words_best_and_play_gravity():
    b = Board(TEXT, seed=1)
    best = b.best()
    assert best.word == "squills" and best.score == b.score_path(best.path)
    before = {c: [b.letters(b.grid.index(c, r)) for r in range(h)] for c, h in enumerate(b.grid.shape)}
    turn = b.play(best.path)
    assert turn.score == best.score and b.score == best.score and b.turn == 1
    gone = {}
    for t in best.path:
        c, r = b.grid.coords[t]
        gone.setdefault(c, set()).add(r)
    for c, h in enumerate(b.grid.shape):
        kept = [x for r, x in enumerate(before[c]) if r not in gone.get(c, ())]
        now = [b.letters(b.grid.index(c, r)) for r in range(h)]
        assert now[: len(kept)] == kept  # tiles above fell, new ones on top
    assert (b.kinds == 3).sum() == 1  # squills: 7 letters (Qu counts 2) leaves a sapphire


def test_play_is_seeded():
    a, b = Board(TEXT, seed=3), Board(TEXT, seed=3)
    for _ in range(3):
        a.play(a.best().path)
        b.play(b.best().path)
    assert a.text == b.text and np.array_equal(a.kinds, b.kinds)


def test_bad_paths():
    b = Board(TEXT)
    with pytest.raises(InvalidPathError, match="not adjacent"):
        b.play([0, 5, 6])
    with pytest.raises(InvalidPathError, match="twice"):
        b.play([0, 1, 0])
    with pytest.raises(InvalidPathError, match="not on the board"):
        b.play([0, 1, 99])
    with pytest.raises(InvalidPathError, match="not in"):
        b.play([0, 1, 2])  # n n l
    with pytest.raises(InvalidPathError, match="not a word on this board"):
        b.play("zebra")


def test_fire_burns_down_and_ends_game():
    rules = Rules(fire_chance=0.0, fire_chance_any=0.0)
    kinds = ["."] * 52
    t = 3  # column 0, row 3
    kinds[t] = "f"
    b = Board(TEXT, kinds="".join(kinds), rules=rules, seed=0)
    fire_rows = []
    while not b.game_over:
        move = b.choose("greedy")
        b.play(move.path)
        fire_rows.append([b.grid.coords[x][1] for x in np.flatnonzero(b.kinds == FIRE)])
        assert len(fire_rows) < 10
    # the fire went down one row a turn (or was played away, which ends the check early)
    rows = [r[0] for r in fire_rows if r]
    assert rows == sorted(rows, reverse=True)
    assert b.reason == "a fire tile reached the bottom row" and rows[-1] == 0
    with pytest.raises(InvalidPathError, match="over"):
        b.play([0, 1, 2])


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_self_play(strategy):
    g1 = play_game(5, strategy, max_turns=15)
    g2 = play_game(5, strategy, max_turns=15)
    assert g1.scores == g2.scores and len(g1.turns) >= 1
    assert g1.score == sum(g1.scores)
    if strategy == "longest":
        assert all(len(t.word) >= 3 for t in g1.turns)


def test_bad_strategy():
    with pytest.raises(InvalidParameterError, match="unknown strategy"):
        play_game(1, "random")


def test_boggle_board_and_svg():
    b = Board("qiet anrs dlme okgt", grid=BOGGLE4)
    assert "quiet" in b.words()
    svg = b.svg(path=b.best().path)
    assert svg.startswith("<svg") and "polyline" in svg
    with pytest.raises(InvalidBoardError, match="Bookworm grid"):
        b.play(b.best().path)
    hexes = Board(TEXT, kinds="f" + "." * 51)._repr_svg_()
    assert hexes.count("<polygon") == 52 and "#ff6a3d" in hexes


def test_lookahead_with_a_played_fire_tile():
    """Regression: the lookahead burned a fire list holding a fire tile its own path had just played (its
    position None), and sorting None beside ints raised TypeError (seed 11, turn ~30)."""
    from numba_words.bookworm import play_game

    game = play_game(11, "lookahead", max_turns=40)
    assert len(game.turns) > 0


def test_game_play_and_undo():
    g = Game(Position(TEXT, seed=4))
    first = g.position.best()
    t1 = g.play(first.path)
    after_one = (g.position.text, g.position.kinds.copy(), g.position.score)
    t2 = g.play(g.position.best().path)
    assert g.scores == [t1.score, t2.score] and g.score == t1.score + t2.score == g.position.score
    assert g.undo() == t2 and len(g) == 1
    assert (g.position.text, g.position.score) == after_one[::2] and np.array_equal(g.position.kinds, after_one[1])
    assert g.play(g.position.best().path) == t2  # the same refill: the generator state came back too
    g.undo()
    g.undo()
    assert g.position.text == TEXT == g.start.text and g.score == 0
    with pytest.raises(InvalidParameterError, match="no turn"):
        g.undo()
    assert g.to_records() == []


def test_play_game_from_a_position():
    g = play_game(Position(TEXT, seed=2), "greedy", max_turns=3)
    assert len(g.turns) == 3 and g.start.text == TEXT and g.reason == "stopped after 3 turns"
    assert [r["word"] for r in g.to_records()] == [t.word for t in g.turns]


@pytest.mark.parametrize("path,match", [
    ([0.0, 1.0, 2.0], "not a tile index"), ([0, 1.5], "not a tile index"), ([True, 1], "not a tile index"),
    ("012", "sequence of tile indices"), (5, "sequence of tile indices"), ([], "at least one tile"),
    ([0, -1], "not on the board"), ([0, 2 ** 70], "not on the board"), ([[0, 1]], "not a tile index"),
    (np.array([[0, 1]]), "sequence of tile indices"),
])
def test_bad_path_values(path, match):
    b = Position(TEXT)
    for f in (b.path_word, b.score_path) + (() if isinstance(path, str) else (b.play,)):  # play("012"): a word
        with pytest.raises(InvalidPathError, match=match):
            f(path)


def test_score_path_needs_a_word():
    b = Position(TEXT)
    assert b.path_word([0, 1, 2]) == "nnl"  # letters, not a word: path_word spells any chain
    with pytest.raises(InvalidPathError, match="'nnl', which is not in"):
        b.score_path([0, 1, 2])
    with pytest.raises(InvalidPathError, match="words have 3 to 12"):
        b.score_path([0, 1])
    best = b.best()
    assert b.score_path(np.array(best.path)) == best.score  # NumPy integers are tile indices too
    assert b.path_word(tuple(np.int8(t) for t in best.path)) == best.word


@pytest.mark.parametrize("kw,err,match", [
    (dict(level=0), InvalidParameterError, "level"), (dict(level=-3), InvalidParameterError, "level"),
    (dict(level=1.0), InvalidParameterError, "level"), (dict(level=10 ** 7), InvalidParameterError, "level"),
    (dict(seed=-1), InvalidParameterError, "seed"), (dict(seed="x"), InvalidParameterError, "seed"),
    (dict(grid="hex"), InvalidParameterError, "grid"), (dict(rules=object()), InvalidParameterError, "rules"),
    (dict(kinds=[0.5] * 52), InvalidBoardError, "kind"), (dict(kinds=np.full(52, 7)), InvalidBoardError, "kind"),
])
def test_bad_position_arguments(kw, err, match):
    with pytest.raises(err, match=match):
        Position(TEXT, **kw)


def test_solve_rejects_level_zero():
    from numba_words.bookworm import solve

    for level in (0, -1, 1.5, True):
        with pytest.raises(InvalidParameterError, match="level"):
            solve(TEXT, level=level)
    assert solve(TEXT, level=3).best().score > solve(TEXT).best().score


def test_tile_accessors_and_choose_reject_bad_input():
    b = Position(TEXT)
    for t in (52, -1, 1.0, "3"):
        with pytest.raises(InvalidPathError, match="not a tile index"):
            b.letters(t)
        with pytest.raises(InvalidPathError, match="not a tile index"):
            b.kind(t)
    with pytest.raises(InvalidParameterError, match="top_k"):
        b.choose("lookahead", top_k=0)
    with pytest.raises(InvalidParameterError, match="unknown strategy"):
        b.choose(["greedy"])
    with pytest.raises(InvalidParameterError, match="size"):
        b.svg(size=-4)
    with pytest.raises(InvalidPathError, match="not on the board"):
        b.svg(path=[60])


@pytest.mark.parametrize("kw,match", [
    (dict(fire_chance=2.0), "fire_chance"), (dict(min_len=-1), "min_len"),
    (dict(gem_for_letters=((5, "ruby"),)), "gem_for_letters"), (dict(scoring="boggle"), "scoring"),
])
def test_bad_rules(kw, match):
    with pytest.raises(InvalidParameterError, match=match):
        Rules(**kw)


def test_bad_grids_from_parts():
    from numba_words.bookworm import Grid, bookworm_grid

    g = BOGGLE4
    with pytest.raises(InvalidBoardError, match="names a tile"):
        Grid("bad", "boggle", g.coords, g.neighbours, g.degree, np.full(16, 1 << 20, dtype=np.uint64), g.shape)
    with pytest.raises(InvalidBoardError, match="uint64"):
        Grid("bad", "boggle", g.coords, g.neighbours, g.degree, g.masks.astype(np.int64), g.shape)
    with pytest.raises(InvalidBoardError, match="do not match"):
        Grid("bad", "boggle", g.coords, g.neighbours, g.degree + 1, g.masks, g.shape)
    with pytest.raises(InvalidBoardError, match="heights"):
        bookworm_grid((7, 0, 7))
    with pytest.raises(InvalidBoardError, match="64"):
        bookworm_grid((9,) * 8)
    assert not g.masks.flags.writeable
