"""Self-play kernel: every recorded move checked against the Python engine, invariants, reproducibility."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from numba_words.scrabble import SCRABBLE, Position, read_gcg
from numba_words.scrabble.autoplay import Player, play_games
from numba_words.scrabble.errors import ScrabbleError
from numba_words.scrabble.leaves import Leaves, exchange_options


@pytest.fixture(scope="module")
def table():
    t = Leaves("scrabble", name="random")
    rng = np.random.default_rng(2)
    t.assign(rng.integers(-15_000, 25_000, len(t)))
    return t


@pytest.fixture(scope="module")
def run(table):
    return play_games(12, (table, "score"), seed=4, threads=1)


def check_game(g, players, table):
    """Replay a recorded game in the Python engine: each placement legal with its score and the strategy's
    choice; exchanges only with >= 7 tiles in the bag; tiles conserved; totals add up."""
    v = SCRABBLE
    dist = Counter(v.bag_list())
    moves = g.moves
    racks_at = [m["rack"] for m in moves]
    first = g.index % 2
    pos = Position("scrabble")
    for t, m in enumerate(moves):
        opp = racks_at[t + 1] if t + 1 < len(moves) else g.final_racks[1 - m["seat"]]
        pos.rack = ""
        pos.opp_rack = ""
        pos.rack = m["rack"]
        pos.opp_rack = opp
        player = players[first] if m["seat"] == 0 else players[1 - first]
        on_board = Counter(pos.unseen()) - Counter(opp)
        bag = sum(on_board.values())
        assert bag == pos.bag_size()
        if player.strategy == "equity":
            pos.leaves = player.leaves
        plays = pos.legal_plays()
        if m["move"] == "-":
            assert not len(plays) and (player.strategy == "score" or not pos.exchanges())
        elif m["move"].startswith("-"):
            assert bag >= 7
            if player.strategy == "score":
                assert not len(plays) and sorted(m["move"][1:]) == sorted(m["rack"])
            else:
                best = exchange_options(pos)[0]
                assert m["move"] == best.notation or exchange_options(pos)[0].equity == pos.leaves[
                    "".join(sorted((Counter(m["rack"]) - Counter(m["move"][1:])).elements()))]
                bp = pos.best("equity")
                assert bp is None or best.equity > bp.equity
        else:
            play = pos.parse_play(m["move"])
            assert play.score == m["score"]
            if player.strategy == "score":
                assert play.score == plays.best().score
            else:
                assert play.equity == plays.best("equity").equity
                ex = exchange_options(pos)
                assert not ex or ex[0].equity <= play.equity
            pos.board = pos.board.copy()
            pos.board.place([q[0] for q in play.placed], [q[1] for q in play.placed],
                            [v.alphabet.index(q[2]) for q in play.placed], [q[3] for q in play.placed])
            pos._plays = None
    assert (pos.board.letters != 255).sum() + sum(map(len, g.final_racks)) + g.bag_left == sum(dist.values())
    board_tiles = Counter(v.alphabet[x] if not b else "?" for x, b in zip(pos.board.letters.ravel(),
                                                                           pos.board.blanks.ravel()) if x != 255)
    assert not board_tiles + Counter(g.final_racks[0]) + Counter(g.final_racks[1]) - dist
    for s in (0, 1):
        assert g.scores[s] == g.move_totals[s] + g.end_adjustments[s]
        assert g.move_totals[s] == sum(m["score"] for m in moves if m["seat"] == s)


def test_games_follow_the_rules(run, table):
    assert (run.out[:, 7] != 2).all()  # every game ended by the rules
    for i in range(len(run)):
        g = run.game(i)
        assert (g.scores[0], g.scores[1]) == tuple(run.out[i, :2])
        check_game(g, run.players, table)
        if g.ended == "out":
            assert g.bag_left == 0 and "" in g.final_racks
            out_seat = g.final_racks.index("")
            o = sum(SCRABBLE.values[c] for c in g.final_racks[1 - out_seat] if c != "?")
            assert g.end_adjustments[out_seat] == o and g.end_adjustments[1 - out_seat] == -o


def test_reproducible_and_paired(run, table):
    again = play_games(12, (table, "score"), seed=4, threads=2)
    assert (again.out == run.out).all()
    other = play_games(12, (table, "score"), seed=5, threads=1)
    assert (other.out != run.out).any()
    for k in range(0, 12, 2):  # a pair starts from the same racks, seats swapped
        a, b = run.game(k), run.game(k + 1)
        assert a.moves[0]["rack"] == b.moves[0]["rack"] and a.moves[1]["rack"] == b.moves[1]["rack"]
        assert a.names == b.names[::-1]


def test_stats_and_gcg(run, tmp_path):
    s = run.stats()
    assert s["wins"] + s["ties"] + s["losses"] == s["games"] == 12
    assert s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
    assert s["mean_spread"] == pytest.approx(s["mean_score"][0] - s["mean_score"][1])
    assert "12 games" in run.summary()
    g = run.game(5)
    text = g.gcg()
    positions = read_gcg(text)
    assert positions[-1].scores == g.scores and positions[-1].rows() == g.position().rows()


def test_tournament_rule_and_score_players():
    r = play_games(6, ("score", "score"), seed=9, end_rule="tournament", threads=1)
    for i in range(6):
        g = r.game(i)
        check_game(g, r.players, None)
        if g.ended == "out":
            out_seat = g.final_racks.index("")
            o = sum(SCRABBLE.values[c] for c in g.final_racks[1 - out_seat] if c != "?")
            assert g.end_adjustments == ((2 * o, 0) if out_seat == 0 else (0, 2 * o))


@pytest.mark.parametrize("kw, msg", [
    ({"n": 0}, "n"), ({"players": ("score",)}, "pair"), ({"players": ("score", "x")}, "a player"),
    ({"seed": -1}, "seed"), ({"end_rule": "x"}, "end_rule"), ({"threads": 0.5}, "threads"),
    ({"players": (Player("minimax"), "score")}, "strategy"),
])
def test_bad_arguments(kw, msg):
    args = {"n": 2, "players": ("score", "score"), **kw}
    with pytest.raises(Exception, match=msg) as e:
        play_games(**args)
    assert isinstance(e.value, ValueError)
    with pytest.raises(ScrabbleError, match="out of range"):
        play_games(2, ("score", "score"), threads=1).game(2)


# ---------------------------------------------------------------------- Python-callable players
def score_like(pos):
    """The score strategy written against the public API."""
    b = pos.best()
    if b is None and pos.bag_size() >= 7:
        from numba_words.scrabble.leaves import Exchange

        return Exchange(pos.rack, "", 0.0)
    return b


def test_python_players_replay_the_kernel(table):
    """A callable that plays what a built-in strategy plays gives the kernel's games (the Python loop is an
    independent implementation of the rules, the draws and the end of the game)."""
    k = play_games(8, ("score", "score"), seed=21, threads=2)
    p = play_games(8, (score_like, "score"), seed=21)
    assert (k.out == p.out).all()

    def eq(pos):
        pos.leaves = table
        return pos.best_move("equity")

    k = play_games(8, (table, "score"), seed=22, threads=1)
    p = play_games(8, (eq, "score"), seed=22)
    assert (k.out == p.out).all()
    assert p.stats()["players"] == ["eq", "score"]
    gk, gp = k.game(3), p.game(3)
    assert [m["move"] for m in gk.moves] == [m["move"] for m in gp.moves] and gp.final_racks == gk.final_racks
    read_gcg(gp.gcg())


def test_python_player_errors():
    def bad(pos):
        return "8H QI"

    with pytest.raises(ScrabbleError, match="returned"):
        play_games(2, (bad, "score"))

    def late_exchange(pos):
        from numba_words.scrabble.leaves import Exchange

        return Exchange(pos.rack[:1], "", 0.0) if pos.bag_size() < 7 else score_like(pos)

    with pytest.raises(ScrabbleError, match="exchanged"):
        play_games(2, (late_exchange, "score"))
    other = Position("scrabble", rack="AEINRST")
    with pytest.raises(ScrabbleError, match="another position"):
        play_games(2, (lambda pos: other.best(), "score"))
    with pytest.raises(ScrabbleError, match="callable"):
        play_games(2, (Player("python"), "score"))


def test_win_samples_match_the_game_records(table):
    from numba_words.scrabble.autoplay import win_samples

    x, u, y = win_samples(6, (table, "score"), seed=4, threads=2)
    r = play_games(6, (table, "score"), seed=4, threads=1)
    want = []
    for i in range(6):
        g = r.game(i)
        tiles = dict((t, len(placed)) for t, placed in g._placements)
        totals, on_board = [0, 0], 0
        for t, m in enumerate(g.moves):
            s = m["seat"]
            want.append((totals[s] - totals[1 - s], 100 - on_board - len(m["rack"]),
                         (np.sign(g.scores[s] - g.scores[1 - s]) + 1) / 2))
            totals[s] += m["score"]
            on_board += tiles.get(t, 0)
    assert list(zip(x.tolist(), u.tolist(), y.tolist())) == want
