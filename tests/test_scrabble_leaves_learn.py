"""Learning leave values by self-play: the kernels against plain Python on small bags, the recorded rack
outcomes against a Python replay of the same games, the learned table's shape."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from numba_words.scrabble import _leaves
from numba_words.scrabble.autoplay import learn_leaves, play_games, rack_outcomes
from numba_words.scrabble.errors import ScrabbleError
from numba_words.scrabble.leaves import Leaves
from numba_words.scrabble.variants import get_variant


def multisets(caps, size):
    """Every multiset of ``size`` tiles within ``caps``, as count tuples."""
    return [c for c in itertools.product(*[range(x + 1) for x in caps]) if sum(c) == size]


def rank_of(counts, caps, G, P, R):
    return int(_leaves.rank(np.array(counts, np.int64), caps, G, P, np.int64(R)))


@pytest.mark.parametrize("caps, rs", [([1, 3, 1, 2], 4), ([2, 4, 1, 3, 2], 5), ([1, 2, 2, 1, 1, 3], 4)])
def test_leave_means_plain_python(caps, rs):
    caps = np.array(caps, np.int64)
    R = rs - 1
    G, P, n = _leaves.rank_tables(caps, R)
    G7, P7, n7 = _leaves.rank_tables(caps, rs)
    rng = np.random.default_rng(rs)
    racks = multisets(caps, rs)
    rsum = np.zeros(n7, np.int64)
    rcnt = np.zeros(n7, np.int64)
    seen = {}
    for c in racks:
        if rng.random() < 0.7:
            k = int(rng.integers(1, 4))
            s = int(rng.integers(-20_000, 60_000)) * k
            r = rank_of(c, caps, G7, P7, rs)
            rsum[r], rcnt[r] = s, k
            seen[c] = (s / k, k)
    binom = np.array([[math.comb(a, b) for b in range(rs + 1)] for a in range(int(caps.max()) + 1)], np.float64)
    lsum, lw, lobs = np.zeros(n), np.zeros(n), np.zeros(n, np.int64)
    tot, totw = _leaves.leave_means(rsum, rcnt, caps, np.int64(rs), G, P, np.int64(R), binom, lsum, lw, lobs)
    # plain Python: every observed rack, every sub-multiset of 1..R tiles, weight = ways to draw the rest
    esum, ew, eobs = np.zeros(n), np.zeros(n), np.zeros(n, np.int64)
    et = etw = 0.0
    for c, (mean, k) in seen.items():
        w_all = math.prod(math.comb(int(caps[j]), c[j]) for j in range(len(c)))
        et += mean * w_all
        etw += w_all
        for sub in itertools.product(*[range(x + 1) for x in c]):
            if 0 < sum(sub) < rs:
                w = math.prod(math.comb(int(caps[j]) - sub[j], c[j] - sub[j]) for j in range(len(c)))
                r = rank_of(sub, caps, G, P, R)
                esum[r] += mean * w
                ew[r] += w
                eobs[r] += k
    assert np.allclose(lsum, esum) and np.allclose(lw, ew) and (lobs == eobs).all()
    assert math.isclose(tot, et) and math.isclose(totw, etw)


def test_smooth_leaves_plain_python():
    caps = np.array([1, 3, 1, 2, 2], np.int64)
    R = 3
    G, P, n = _leaves.rank_tables(caps, R)
    rng = np.random.default_rng(5)
    raw = rng.normal(0, 5000, n)
    obs = rng.choice([0.0, 3.0, 80.0, 400.0], n)
    k_prior, min_obs = 20.0, 50
    out = np.zeros(n)
    _leaves.smooth_leaves(raw, obs, caps, G, P, np.int64(R), k_prior, np.int64(min_obs), out)
    leaves = [c for s in range(1, R + 1) for c in multisets(caps, s)]
    rank = {c: rank_of(c, caps, G, P, R) for c in leaves}
    val = {}

    def minus(c, t):
        return tuple(x - (j == t) for j, x in enumerate(c))

    for s in range(1, R + 1):
        size_s = [c for c in leaves if sum(c) == s]
        marg = {}
        for t in range(len(caps)):
            pairs = [(obs[rank[c]], raw[rank[c]] - (val[minus(c, t)] if s > 1 else 0.0)) for c in size_s
                     if c[t] and obs[rank[c]] >= min_obs]
            w = sum(o for o, _ in pairs)
            marg[t] = sum(o * d for o, d in pairs) / w if w else 0.0
        for c in size_s:
            ts = [t for t in range(len(caps)) if c[t]]
            prior = sum((val[minus(c, t)] if s > 1 else 0.0) + marg[t] for t in ts) / len(ts)
            o = obs[rank[c]]
            val[c] = (o * raw[rank[c]] + k_prior * prior) / (o + k_prior)
    assert np.allclose(out, [val[c] for c in sorted(val, key=rank.get)])


def test_recorded_outcomes_match_a_python_replay():
    """The learning kernel's per-rack sums equal the best-move equities a Python replay of the same games sees
    (the callable path, the same random streams) on every turn with tiles in the bag."""
    v = get_variant("scrabble")
    table = Leaves(v, name="random")
    table.assign(np.random.default_rng(8).integers(-15_000, 25_000, len(table)))
    G7, P7, n7 = _leaves.rank_tables(table.caps, v.rack_size)
    seen = {}

    def recorder(pos):
        move = pos.best_move("equity")
        if pos.bag_size() > 0 and move is not None and len(pos.rack) == v.rack_size:
            r = rank_of(Leaves(v).counts(pos.rack), table.caps, G7, P7, v.rack_size)
            eq = round(move.equity * 1000)
            s, k = seen.get(r, (0, 0))
            seen[r] = (s + eq, k + 1)
        return move

    def eq_player(pos):
        pos.leaves = table
        return recorder(pos)

    games = 4
    py = play_games(games, (eq_player, eq_player), seed=3)
    rsum, rcnt = rack_outcomes(games, table, seed=3, threads=2)
    assert (rack_outcomes(games, table, seed=3, threads=1)[0] == rsum).all()
    got = {int(r): (int(rsum[r]), int(rcnt[r])) for r in np.nonzero(rcnt)[0]}
    assert got == seen and sum(k for _, k in seen.values()) > 60


def test_learn_leaves_small_run():
    rounds = []
    table, hist = learn_leaves(16, 2, seed=1, threads=1, on_round=lambda i, t, rd: rounds.append((i, rd)))
    assert len(hist) == 2 and [i for i, _ in rounds] == [0, 1]
    assert isinstance(table, Leaves) and len(table) == 914_624
    v = table.values
    assert np.isfinite(v).all() and v.std() > 0
    for rd in hist:
        assert rd.games == 16 and rd.turns > 16 * 10 and 0 < rd.racks <= rd.turns and rd.average > 10
        assert rd.well_seen <= rd.seen <= len(table)
    assert table["?"] > table["Q"]  # a blank beats a Q even after 32 games
    again, _ = learn_leaves(16, 2, seed=1, threads=2)
    assert (again.milli == table.milli).all()  # the same table at any thread count
    with pytest.raises(ScrabbleError, match="games"):
        learn_leaves(1)
    with pytest.raises(ScrabbleError, match="rounds"):
        learn_leaves(10, 0)


def test_cli_leaves(tmp_path, capsys):
    import json

    from numba_words.cli import main

    out = tmp_path / "t.klv2"
    assert main(["scrabble", "leaves", "--games", "6", "--rounds", "2", "--out", str(out), "--threads", "1",
                 "--json"]) == 0
    recs = json.loads(capsys.readouterr().out)
    assert [r["round"] for r in recs] == [1, 2] and all(r["games"] == 6 and r["turns"] > 60 for r in recs)
    t = Leaves.from_klv2(out)
    assert len(t) == 914_624 and t.milli.any()
    assert main(["scrabble", "leaves", "--games", "1", "--out", str(out)]) == 2


def test_shipped_table():
    """The learned TWL06 table in the package: every leave, and the values any Scrabble player knows the order
    of (a blank and an S are worth keeping, a Q and duplicates are not)."""
    from numba_words.scrabble.leaves import PACKAGED, default_leaves

    t = default_leaves("scrabble")
    assert PACKAGED["scrabble"] in t.name or "shipped" in t.name
    assert len(t) == 914_624 and np.abs(t.values).max() < 150  # rare two-blank leaves are the noisiest
    assert t["?"] > t["S"] > 0 > t["Q"] and t["ERS"] > t["E"] and t["QU"] > t["Q"]
    assert t["??"] > t["?"] and t["UU"] < t["U"] and t["IIII"] < t["II"] < 0
    assert t["AEINST"] > 15
