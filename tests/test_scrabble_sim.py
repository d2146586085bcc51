"""Simulation: every playout replayed by a plain-Python playout on the Python engine (same random stream, tiles
conserved, best static replies, same outcome), reproducible at any thread count and over Dask, the obvious
candidate when the margin is clear, bad input."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from numba_words.scrabble import SCRABBLE, Position
from numba_words.scrabble.errors import ScrabbleError
from numba_words.scrabble.leaves import Exchange, Leaves
from numba_words.scrabble.sim import _Setup, _run, simulate

MIDGAME = ("A14/B14/O14/I14/DEAVE2WOOF4/EFS1TALA1HET3/a4MINX6/U2CLADE7/15/15/15/15/15/15/15 ADDERTU/ 173/113 0")
M64 = (1 << 64) - 1
GOLDEN, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
KINDS = "?" + SCRABBLE.alphabet


def nxt(st):
    st[0] = (st[0] + GOLDEN) & M64
    z = st[0]
    z = ((z ^ (z >> 30)) * MIX1) & M64
    z = ((z ^ (z >> 27)) * MIX2) & M64
    return (z ^ (z >> 31)) >> 11


def stream(seed, i):
    st = [(seed ^ ((i * MIX2) & M64)) & M64]
    nxt(st)
    return st


def draw(bag, rack, n, st):
    for _ in range(n):
        if not bag:
            break
        j = nxt(st) % len(bag)
        rack.append(bag[j])
        bag[j] = bag[-1]
        bag.pop()


def rack_str(kinds):
    return "".join(sorted(KINDS[k] for k in kinds if k)) + "?" * sum(1 for k in kinds if k == 0)


def total(pos, racks, bag):
    board = Counter("?" if b else SCRABBLE.alphabet[x] for x, b in zip(pos.board.letters.ravel(),
                                                                       pos.board.blanks.ravel()) if x != 255)
    return board + Counter(rack_str(racks[0])) + Counter(rack_str(racks[1])) + Counter(rack_str(bag))


def ref_playout(pos, play, plies, seed, i, table):
    """One playout in plain Python on the Python engine (the kernel's rules, see numba_words.scrabble._sim)."""
    full = Counter(SCRABBLE.bag_list())
    st = stream(seed, i)
    bag = sorted(KINDS.index(ch) for ch in (pos.unseen() - Counter(pos.opp_rack)).elements())
    opp = [KINDS.index(ch) for ch in pos.opp_rack]
    draw(bag, opp, 7 - len(opp), st)
    racks = [[KINDS.index(ch) for ch in pos.rack], opp]
    leftover = table[play.leave] if plies == 1 and bag else 0.0
    spread = play.score
    board = pos.board.copy()

    def put(rack, p):
        board.place([q[0] for q in p.placed], [q[1] for q in p.placed], [SCRABBLE.alphabet.index(q[2]) for q in p.placed],
                    [q[3] for q in p.placed])
        for q in p.placed:
            rack.remove(0 if q[3] else KINDS.index(q[2]))
        draw(bag, rack, len(p.placed), st)

    if isinstance(play, Exchange):  # draw first, then the tiles go back
        gone = sorted(KINDS.index(ch) for ch in play.tiles)
        for k in gone:
            racks[0].remove(k)
        draw(bag, racks[0], len(gone), st)
        bag.extend(gone)
        leftover = table[play.leave] if plies == 1 else 0.0
    else:
        put(racks[0], play)
    assert total(Position._make(SCRABBLE, pos.lexicon, board, "", "", (0, 0), 0), racks, bag) == full
    if not racks[0] and not bag:
        return spread + 2 * sum(SCRABBLE.values.get(ch, 0) for ch in rack_str(racks[1])), -1
    for ply in range(plies):
        s = 1 - ply % 2
        sign = 1 if s == 0 else -1
        p = Position._make(SCRABBLE, pos.lexicon, board, rack_str(racks[s]), rack_str(racks[1 - s]), (0, 0), 0)
        p.leaves = table
        assert p.bag_size() == len(bag)
        move = p.best_move("equity")
        if isinstance(move, Exchange):
            if ply >= plies - 2:
                leftover += sign * move.equity
            gone = sorted(KINDS.index(ch) for ch in (Counter(rack_str(racks[s])) - Counter(move.leave)).elements())
            for k in gone:
                racks[s].remove(k)
            draw(bag, racks[s], len(gone), st)
            bag.extend(gone)
        elif move is not None:
            if ply >= plies - 2 and bag:
                leftover += sign * move.leave_value
            spread += sign * move.score
            put(racks[s], move)
            if not racks[s]:
                return spread + sign * 2 * sum(SCRABBLE.values.get(ch, 0) for ch in rack_str(racks[1 - s])) + leftover, -1
        assert total(Position._make(SCRABBLE, pos.lexicon, board, "", "", (0, 0), 0), racks, bag) == full
    on_turn = 1 if plies % 2 == 0 else 0
    return spread + leftover, len(bag) + len(racks[1 - on_turn])


@pytest.fixture(scope="module")
def table():
    t = Leaves("scrabble", name="random")
    t.assign(np.random.default_rng(5).integers(-15_000, 25_000, len(t)))
    return t


@pytest.fixture(scope="module")
def midgame(table):
    p = Position.from_cgp(MIDGAME)
    p.leaves = table
    return p


@pytest.mark.parametrize("plies", [1, 2, 3])
def test_playouts_match_a_plain_python_replay(midgame, table, plies):
    plays = midgame.legal_plays().top(4, "equity")
    setup = _Setup(midgame, plays, plies, 7)
    out = _run(setup.arrays, np.int64(7), 3, 5, list(range(len(plays))))
    for x in range(5):
        for j, play in enumerate(plays):
            want, unseen = ref_playout(midgame, play, plies, 7, 3 + x, table)
            assert out[x, j] / 1000 == pytest.approx(want, abs=1e-6), (x, play.notation)
            assert out[x, len(plays) + j] == unseen


def test_python_playouts_baseline(midgame):
    """The tour's Python-driven playouts: with no reply a play's outcome is its score; with replies the
    opponent's best reply only changes it (and the run is reproducible by seed)."""
    from numba_words.scrabble._reference_search import python_playouts

    plays = midgame.legal_plays().top(3, "equity")
    assert python_playouts(midgame, plays, 2, plies=0) == [float(p.score) for p in plays]
    a = python_playouts(midgame, plays, 3, plies=2, seed=4)
    assert a == python_playouts(midgame, plays, 3, plies=2, seed=4)
    assert a != [float(p.score) for p in plays]


@pytest.mark.parametrize("plies", [1, 2])
def test_exchange_candidates_match_a_plain_python_replay(midgame, table, plies):
    from numba_words.scrabble.leaves import exchange_options

    moves = midgame.legal_plays().top(2, "equity") + exchange_options(midgame)[:3] + exchange_options(midgame)[-1:]
    setup = _Setup(midgame, moves, plies, 9)
    out = _run(setup.arrays, np.int64(9), 0, 4, list(range(len(moves))))
    for x in range(4):
        for j, m in enumerate(moves):
            want, unseen = ref_playout(midgame, m, plies, 9, x, table)
            assert out[x, j] / 1000 == pytest.approx(want, abs=1e-6), (x, m.notation)
            assert out[x, len(moves) + j] == unseen
    pos = midgame.copy()
    pos.leaves = table
    pos.rack = "IIUUVGG"
    n = 12
    merged = sorted([(-round(p.equity * 1000), 0, p.notation) for p in pos.legal_plays().top(n, "equity")]
                    + [(-round(e.equity * 1000), 1, e.notation) for e in exchange_options(pos)])[:n]
    res = simulate(pos, candidates=n, plies=2, iterations=64, seed=1)
    assert sorted(c.play.notation for c in res.candidates) == sorted(m[2] for m in merged)
    assert any(m[1] for m in merged) and not all(m[1] for m in merged)  # plays and exchanges both compete here
    assert all(type(c.play).__name__ == "Play" for c in simulate(pos, candidates=n, plies=2, iterations=64, seed=1,
                                                                  exchanges=False).candidates)


def test_known_opponent_tiles(midgame, table):
    p = midgame.copy()
    p.opp_rack = "QZ"
    plays = p.legal_plays().top(2, "equity")
    out = _run(_Setup(p, plays, 2, 3).arrays, np.int64(3), 0, 3, [0, 1])
    for x in range(3):
        for j, play in enumerate(plays):
            assert out[x, j] / 1000 == pytest.approx(ref_playout(p, play, 2, 3, x, table)[0], abs=1e-6)


def test_reproducible_at_any_thread_count(midgame):
    a = simulate(midgame, candidates=6, iterations=192, seed=3, threads=1)
    b = simulate(midgame, candidates=6, iterations=192, seed=3, threads=2)
    assert [c.to_record() for c in a.candidates] == [c.to_record() for c in b.candidates]
    c = simulate(midgame, candidates=6, iterations=192, seed=4, threads=1)
    assert [x.mean for x in c.candidates] != [x.mean for x in a.candidates]
    assert a.iterations % 64 == 0 and len(a.history) == a.iterations // 64
    live = [cand for cand in a.candidates if not cand.dropped]
    assert live and (a.iterations == 192 or len(live) == 1)
    assert a.playouts == sum(cand.iterations for cand in a.candidates)
    for cand in live:
        assert cand.iterations == a.iterations


def test_clear_margin_picks_the_obvious_play():
    # two candidates: the top play and one ~30 points behind; the simulation keeps the top one
    p = Position.from_cgp(MIDGAME)
    p.leaves = "zero"
    plays = p.legal_plays().top(None, "equity")
    top = plays[0]
    worse = next(q for q in plays if q.score <= top.score - 25)
    res = simulate(p, candidates=len(plays), iterations=128, seed=1, threads=1, min_iterations=64)
    assert res.best == top
    assert any(c.dropped and c.play == worse for c in res.candidates)


def test_dask_gives_the_same_estimates(midgame):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0") as c, \
            distributed.Client(c) as client:
        d = simulate(midgame, candidates=4, iterations=64, seed=9, client=client, chunk_size=16)
    s = simulate(midgame, candidates=4, iterations=64, seed=9, threads=1)
    assert [c.to_record() for c in d.candidates] == [c.to_record() for c in s.candidates]


@pytest.mark.parametrize("kw,msg", [({"candidates": 0}, "candidates"), ({"plies": 0}, "plies"),
                                    ({"iterations": 0}, "iterations"), ({"seed": -1}, "seed"),
                                    ({"time": 0}, "time"), ({"z": 0}, "z")])
def test_bad_arguments(midgame, kw, msg):
    with pytest.raises(ScrabbleError, match=msg):
        simulate(midgame, **kw)


def test_positions_it_refuses():
    with pytest.raises(ScrabbleError, match="empty"):
        Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACDINRT/ 0/0 0").simulate()


def test_cli(capsys):
    import json

    from numba_words.cli import main

    assert main(["scrabble", "sim", "--cgp", MIDGAME, "--iterations", "64", "--candidates", "3", "--threads", "1",
                 "--json"]) == 0
    recs = json.loads(capsys.readouterr().out)
    assert len(recs) == 3 and all(r["iterations"] == 64 for r in recs)
    assert [r["mean"] for r in recs] == sorted((r["mean"] for r in recs), reverse=True)
    assert main(["scrabble", "sim", "--cgp", MIDGAME, "--iterations", "0"]) == 2


def test_win_table_fit_and_sim_by_win(midgame):
    from numba_words.scrabble.sim import WinTable

    rng = np.random.default_rng(4)
    u = rng.integers(1, 94, 200_000)
    x = rng.normal(0, 60, len(u)).round()
    a_true, s_true = 5 + u / 10, 10 + u / 2
    y = (rng.random(len(u)) < 1 / (1 + np.exp(-(x + a_true) / s_true))).astype(float)
    w = WinTable.fit(x, u, y, window=2)
    assert np.allclose(w.a[1:], (5 + np.arange(1, 94) / 10), atol=2.5)
    assert np.allclose(w.s[1:], (10 + np.arange(1, 94) / 2), rtol=0.12)
    assert w([5, 0, -5], [-1, 0, -1]).tolist() == [1.0, 0.5, 0.0]
    assert np.allclose(WinTable.from_text(w.to_text()).a, w.a, atol=1e-4)
    with pytest.raises(ScrabbleError, match="win table"):
        WinTable.from_text("0 1 2\n2 1 1")
    # by win probability: ranks and drops by it, and every candidate has one
    res = simulate(midgame, candidates=6, plies=2, iterations=128, seed=2, win_table=w)
    live = [c for c in res.candidates if not c.dropped]
    assert all(0 <= c.win <= 1 for c in res.candidates)
    assert [c.win for c in live] == sorted((c.win for c in live), reverse=True)
    with pytest.raises(ScrabbleError, match="win_table"):
        simulate(midgame, candidates=2, iterations=8, win_table="x")


def test_shipped_win_table(midgame):
    from numba_words.scrabble.sim import default_win_table

    w = default_win_table(SCRABBLE)
    for u in (1, 7, 30, 60, 93):
        p = w(np.arange(-200, 201, 10), np.full(41, u))
        assert (np.diff(p) > 0).all() and 0.5 < w(0, u) < (0.9 if u < 7 else 0.7)  # being on turn is worth a little
    assert w(100, 7) > 0.98 and w(-100, 7) < 0.02 and w(50, 93) < w(50, 20)
    res = simulate(midgame, candidates=3, plies=2, iterations=64, seed=2, win_table=True)
    assert all(0 <= c.win <= 1 for c in res.candidates)
