"""Leave tables (rank, KLV2 read/write) and static equity, against plain-Python truths."""
from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from numba_words.scrabble import Position, SCRABBLE, play_game
from numba_words.scrabble import _leaves
from numba_words.scrabble.errors import InvalidLeavesError, InvalidRackError
from numba_words.scrabble.leaves import Exchange, Leaves, load_leaves
from numba_words.scrabble.variants import Variant

TINY = Variant("tiny", SCRABBLE.layout, {"A": 1, "B": 3, "C": 4}, {"A": 3, "B": 1, "C": 2}, blanks=1,
               rack_size=4)
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


def all_leaves(caps, R):
    """Every sorted sequence of 1..R kinds within caps, in Python's tuple order (a prefix first)."""
    out = set()
    pool = [k for k, c in enumerate(caps) for _ in range(c)]
    for n in range(1, R + 1):
        out.update(itertools.combinations(pool, n))
    return sorted(out)


@pytest.mark.parametrize("caps, R", [([1, 3, 1, 2], 4), ([2, 9, 2, 2, 4, 12], 6), ([0, 2, 0, 1], 3), ([3], 2),
                                     ([1, 1, 1, 1, 1, 1, 1, 1], 7)])
def test_rank_is_lexicographic_order(caps, R):
    caps = np.array(caps, np.int64)
    G, P, n = _leaves.rank_tables(caps, R)
    truth = all_leaves(caps, R)
    assert n == len(truth)
    counts = np.zeros(len(caps), np.int64)
    for i, seq in enumerate(truth):
        counts[:] = 0
        for k in seq:
            counts[k] += 1
        assert _leaves.rank(counts, caps, G, P, np.int64(R)) == i
    tiles = np.zeros((n, R), np.int64)
    lens = np.zeros(n, np.int64)
    assert _leaves.unrank_all(caps, np.int64(R), tiles, lens) == n
    assert [tuple(t[:m]) for t, m in zip(tiles.tolist(), lens.tolist())] == truth
    counts[:] = 0
    assert _leaves.rank(counts, caps, G, P, np.int64(R)) == _leaves.NO_LEAVE
    counts[0] = caps[0] + 1
    assert _leaves.rank(counts, caps, G, P, np.int64(R)) == _leaves.TOO_BIG


@pytest.mark.parametrize("caps, R", [([1, 3, 1, 2], 4), ([2, 9, 2, 2, 4, 12], 6), ([3], 2),
                                     ([1, 1, 1, 1, 1, 1, 1, 1], 7), ([1, 2, 2, 1, 3], 3)])
def test_leave_map_values_every_sub_multiset(caps, R):
    """A rack's leave map holds, at each sub-multiset's mixed-radix index, the value of that leave in the table
    (plain-Python order of sorted tuples), 0 for the empty leave and for leaves the table cannot hold."""
    caps = np.array(caps, np.int64)
    G, P, n = _leaves.rank_tables(caps, R)
    truth = {seq: i for i, seq in enumerate(all_leaves(caps, R))}
    rng = random.Random(len(caps) * 100 + R)
    milli = np.array([rng.randrange(-30000, 30000) for _ in range(n)], np.int32)
    pool = [k for k, c in enumerate(caps) for _ in range(c)]
    K = len(caps)
    for _ in range(300):
        rack = np.zeros(K, np.int64)
        for k in rng.sample(pool, rng.randint(0, min(len(pool), R + 2))):
            rack[k] += 1
        stride = np.zeros(K, np.int64)
        lmap = np.full(256, 12345, np.int64)
        size = _leaves.leave_map(rack, milli, caps, G, P, np.int64(R), stride, lmap)
        assert size == int(np.prod(rack + 1))
        for sub in itertools.product(*(range(c + 1) for c in rack)):
            seq = tuple(k for k in range(K) for _ in range(sub[k]))
            want = int(milli[truth[seq]]) if seq in truth else 0
            assert lmap[int(np.dot(sub, stride))] == want, (rack, sub)


def test_english_table_size_and_lookups():
    t = Leaves("scrabble", name="x")
    assert len(t) == 914_624 and t.max_size == 6  # sub-multisets of 1..6 tiles of the 100-tile bag
    rng = np.random.default_rng(1)
    t.assign(rng.integers(-30_000, 30_000, len(t)))
    names = t.leaves()
    assert names[:3] == ["?", "??", "A??"] and len(set(names)) == len(t)
    for i in rng.integers(0, len(t), 300):
        leave = names[i]
        shuffled = "".join(random.Random(int(i)).sample(leave, len(leave))).lower()
        assert t.rank(shuffled) == i and t[shuffled] == t.milli[i] / 1000
    assert t[""] == 0 and t["AEINRST"] == 0  # empty / whole rack kept: no value
    for bad in ("AB1", "QQ", "ZZ", 5):
        with pytest.raises(InvalidRackError):
            t[bad]


def read_kwg_words(data: bytes):
    """Plain-Python KLV2 reader: (words as tile tuples, values), words in depth-first order."""
    k = int.from_bytes(data[:4], "little")
    nodes = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "little") for i in range(k)]
    m = int.from_bytes(data[4 + 4 * k:8 + 4 * k], "little")
    vals = np.frombuffer(data[8 + 4 * k:], "<f4")
    assert len(vals) == m
    words = []

    def walk(i, prefix):
        while True:
            node = nodes[i]
            w = prefix + (node >> 24,)
            if node & 0x800000:
                words.append(w)
            if node & 0x3FFFFF:
                walk(node & 0x3FFFFF, w)
            if node & 0x400000:
                return
            i += 1

    walk(nodes[0] & 0x3FFFFF, ())
    return words, vals


def test_klv2_writer_and_reader_round_trip(tmp_path):
    t = Leaves(TINY)
    rng = np.random.default_rng(7)
    t.assign(rng.integers(-20_000, 20_000, len(t)))
    truth = t.to_dict()
    data = t.to_klv2(tmp_path / "tiny.klv2")
    assert (tmp_path / "tiny.klv2").read_bytes() == data
    words, vals = read_kwg_words(data)
    kinds = "?" + TINY.alphabet
    got = {"".join(kinds[x] for x in w if x) + "?" * w.count(0): round(float(v), 3) for w, v in zip(words, vals)}
    assert got == truth  # the file lists every leave once, with its value
    back = Leaves.from_klv2(tmp_path / "tiny.klv2", TINY)
    assert (back.milli == t.milli).all()
    assert back["ca?"] == truth["AC?"]


def test_klv2_reader_takes_any_graph_order():
    # a graph with two leaves only, written by hand: A (1.5), AB (-2.25); the rest of the table stays 0
    nodes = [0x400002, 0x400000, (1 << 24) | 0x800000 | 0x400000 | 3, (2 << 24) | 0x800000 | 0x400000]
    data = _leaves_bytes(nodes, [1.5, -2.25])
    t = Leaves.from_klv2(data, TINY)
    assert t["A"] == 1.5 and t["BA"] == -2.25 and t["B"] == 0 and np.count_nonzero(t.milli) == 2


def _leaves_bytes(nodes, values):
    from numba_words.scrabble.klv import write_klv2

    return write_klv2(np.array(nodes, np.uint32), np.array(values, np.float32))


@pytest.mark.parametrize("data, msg", [
    (b"", "too short"),
    (b"\x05\x00\x00\x00\x00\x00\x00\x00", "5 nodes"),
    (_leaves_bytes([0x400002, 0x400000, (1 << 24) | 0x800000 | 0x400000], [1.0, 2.0]), "1 leaves .* 2 values"),
    (_leaves_bytes([0x400002, 0x400000, (40 << 24) | 0x800000 | 0x400000], [1.0]), "tile 40"),
    (_leaves_bytes([0x400002, 0x400000, (2 << 24) | 0x800000 | 0x400000 | 2], [1.0] * 3), "deeper|more of"),
    (_leaves_bytes([0x400002, 0x400000, (1 << 24) | 0x800000 | 0x400000 | 9], [1.0]), "outside"),
    (_leaves_bytes([0x400009, 0x400000], []), "root"),
    (_leaves_bytes([0x400002, 0x400000, (1 << 24) | 0x800000 | 0x400000], [float("nan")]), "finite"),
])
def test_klv2_bad_files(data, msg):
    with pytest.raises(InvalidLeavesError, match=msg):
        Leaves.from_klv2(data, TINY)


@given(st.binary(max_size=64))
def test_klv2_any_bytes(data):
    try:
        Leaves.from_klv2(data, TINY)
    except InvalidLeavesError:
        pass


MAGPIE_KLV = os.environ.get("MAGPIE_TWL06_KLV2", "")


@pytest.mark.skipif(not os.path.isfile(MAGPIE_KLV), reason="set MAGPIE_TWL06_KLV2 to MAGPIE's TWL06.klv2")
def test_magpie_twl06_klv2():
    t = Leaves.from_klv2(MAGPIE_KLV)
    assert len(t) == 914_624
    words, vals = read_kwg_words(Path(MAGPIE_KLV).read_bytes())
    kinds = "?" + SCRABBLE.alphabet
    for i in np.random.default_rng(3).integers(0, len(words), 2000):
        assert t["".join(kinds[x] for x in words[i])] == round(float(vals[i]), 3)
    # static equities MAGPIE's `gen` printed for this rack with this file (2 decimals)
    pos = Position.from_cgp(f"{EMPTY} AEINRSX/ 0/0 0")
    pos.leaves = t
    magpie = {"8D XENIA": 49.30, "8D XENIAS": 42.15, "8H AX": 41.41, "8G AX": 40.71, "8G XI": 39.44,
              "8H XI": 38.74, "8G NIX": 38.67, "8F NIX": 37.97, "8H NIX": 37.97, "8G RAX": 36.38, "8F RAX": 35.68}
    top = pos.top(11, "equity")
    assert [p.notation for p in top] == list(magpie)
    for p in top:
        assert abs(p.equity - magpie[p.notation]) < 0.006
    assert t.to_klv2() and Leaves.from_klv2(t.to_klv2()).milli.tolist() == t.milli.tolist()


# ---------------------------------------------------------------------- static equity vs plain Python
def brute_equity(play, pos, table: dict) -> float:
    """Static equity from the rules, in plain Python (leave values from a dict)."""
    v = pos.variant
    unseen = pos.unseen()
    bag = sum(unseen.values()) - len(pos.opp_rack)
    eq = play.score
    leave = play.leave
    if bag > 0:
        eq += table.get(leave, 0.0) if leave else 0.0
    elif leave:
        eq -= 2 * sum(v.values[c] for c in leave if c != "?") + 10
    else:
        opp = pos.opp_rack or "".join(unseen.elements())
        eq += 2 * sum(v.values[c] for c in opp if c != "?")
    if pos.board.empty:
        lm, wm = v.letter_mult(), v.word_mult()
        for r, c, ch, _ in play.placed:
            if ch in "AEIOU":
                line = [(6, c), (8, c)] if play.direction == "across" else [(r, 6), (r, 8)]
                eq += sum(-0.35 * (wm[q] - 1) - 0.35 * (lm[q] - 1) for q in line)
    return eq


@pytest.fixture(scope="module")
def random_table():
    t = Leaves("scrabble", name="random")
    t.assign(np.random.default_rng(11).integers(-25_000, 40_000, len(t)))
    return t


def game_positions(seeds, every=3):
    out = []
    for seed in seeds:
        g = play_game(seed)
        from numba_words.scrabble import Game

        h = Game(seed=seed)
        for k, (who, text, _) in enumerate(g.moves):
            if k % every == 0 or len(h.bag) < 8:
                out.append(h.position.copy())
            h.play(text)
    return out


def test_equity_matches_plain_python(random_table):
    rng = random.Random(5)
    positions = game_positions(range(3))
    positions.append(Position.from_cgp(f"{EMPTY} AEIOU?S/ 0/0 0"))
    positions.append(Position.from_cgp(f"{EMPTY} EEIINOU/ 0/0 0"))
    checked = 0
    for pos in positions:
        pos.leaves = random_table
        plays = pos.legal_plays()
        if not len(plays):
            continue
        eq = plays.equities()
        # the table through a dict: an independent lookup path
        sample = rng.sample(range(len(plays)), min(40, len(plays)))
        table = {p.leave: random_table[p.leave] for p in (plays[i] for i in sample)}
        for i in sample:
            assert eq[i] == pytest.approx(brute_equity(plays[i], pos, table), abs=1e-6), (pos.cgp(), plays[i])
            checked += 1
        best = pos.best("equity")
        assert best.equity == eq.max() and eq.argmax() == int(np.flatnonzero(eq == eq.max())[0])
        top = pos.top(5, "equity")
        assert [p.equity for p in top] == sorted(eq, reverse=True)[:5]
    assert checked > 200


def test_endgame_equity_rules():
    v = SCRABBLE
    rack, opp = "AEIRST", "BCDGLMN"
    rest = Counter(v.bag_list()) - Counter(rack) - Counter(opp) - Counter("QUIXOTE")
    tiles = sorted(rest.elements())  # 80 tiles: the far rows hold them all, so the bag is empty
    cells = [ch.lower() if ch != "?" else "e" for ch in tiles]  # a blank shown as a lower-case letter
    cells = [c.upper() if t != "?" else c for c, t in zip(cells, tiles)]
    rows = ["." * 15] * 15
    rows[7] = "...QUIXOTE....."
    far = [r for r in range(15) if r < 5 or r > 9]
    for k, r in enumerate(far):
        chunk = "".join(cells[15 * k:15 * k + 15])
        rows[r] = chunk + "." * (15 - len(chunk))
    pos = Position.from_rows(rows, rack=rack, opp_rack=opp)
    assert pos.bag_size() == 0 and not pos.unseen() - Counter(opp)
    pos.leaves = Leaves("scrabble")
    plays = pos.legal_plays()
    assert len(plays) > 5
    for p in plays:
        assert p.equity == pytest.approx(brute_equity(p, pos, {}))
        if p.tiles_used < len(rack):
            leave_pts = sum(v.values[c] for c in p.leave if c != "?")
            assert p.equity == p.score - 2 * leave_pts - 10
    pos.opp_rack = ""  # unknown opponent rack: with the bag empty it is every unseen tile
    pos._plays = None
    assert [p.equity for p in pos.legal_plays()] == [p.equity for p in plays]


def test_exchanges_by_leave(random_table):
    pos = Position.from_cgp(f"{EMPTY} AQUUVVW/ 0/0 0")
    pos.leaves = random_table
    ex = pos.best_move()
    opts = __import__("numba_words.scrabble.leaves", fromlist=["x"]).exchange_options(pos)
    assert len(opts) == len(pos.exchanges()) and all(isinstance(e, Exchange) for e in opts)
    for e in opts:
        assert e.equity == random_table[e.leave] and sorted(e.tiles + e.leave) == sorted(pos.rack)
    assert [e.equity for e in opts] == sorted((e.equity for e in opts), reverse=True)
    best_play = pos.best("equity")
    want = opts[0] if opts[0].equity > best_play.equity else best_play
    assert ex == want
    # fewer than a rack's worth of tiles in the bag: no exchange
    g = game_positions([1], every=1)
    late = [p for p in g if p.bag_size() < 7]
    assert late and all(p.exchanges() == [] for p in late)


def test_leaves_argument_and_errors(tmp_path):
    pos = Position.from_cgp(f"{EMPTY} AEINRST/ 0/0 0")
    assert load_leaves("zero").milli.max() == 0
    pos.leaves = "zero"
    # a zero table: equity is the score plus the opening penalty (-0.35 per premium step beside a vowel)
    for p in pos.top(20, "equity"):
        assert p.equity == pytest.approx(brute_equity(p, pos, {}))
    with pytest.raises(InvalidLeavesError):
        pos.leaves = 3.5
    with pytest.raises(InvalidLeavesError, match="cannot read"):
        pos.leaves = str(tmp_path / "missing.klv2")
    with pytest.raises(InvalidLeavesError, match="shape"):
        Leaves("scrabble", np.zeros(5))
    with pytest.raises(Exception, match="by must be"):
        pos.best("leave")
    with pytest.raises(Exception, match="by must be"):
        pos.legal_plays().top(3, by="x")
    recs = pos.legal_plays().to_records(3, by="equity")
    assert [r["equity"] for r in recs] == sorted((r["equity"] for r in recs), reverse=True)
    assert set(recs[0]) == {"coord", "word", "score", "tiles", "leave", "notation", "equity"}


def test_shipped_table_from_the_cache_equals_the_klv2_file(tmp_path, monkeypatch):
    """The shipped table's values kept in the lexicon cache are the KLV2 file's, both when the cache is written
    and when it is read; a cached entry of the wrong shape is ignored and rebuilt."""
    from importlib import resources

    from numba_words.lexicon import cache
    from numba_words.scrabble import leaves as L

    raw = (resources.files("numba_words") / "data" / L.PACKAGED["scrabble"]).read_bytes()
    want = Leaves.from_klv2(raw, SCRABBLE)
    monkeypatch.setenv("NUMBA_WORDS_CACHE_DIR", str(tmp_path))
    first = L._shipped(raw, SCRABBLE)  # built, then saved
    assert list(tmp_path.glob("*leaves*.npz"))
    second = L._shipped(raw, SCRABBLE)  # read back
    for t in (first, second):
        assert t.max_size == want.max_size and np.array_equal(t.milli, want.milli)
    for f in tmp_path.glob("*leaves*.npz"):
        cache.save_derived(f.name[:-4], (np.zeros(5, np.int32), np.array([6], np.int64)))
    third = L._shipped(raw, SCRABBLE)
    assert np.array_equal(third.milli, want.milli)


def test_unliteral_types_a_constant_as_its_plain_type():
    import numba
    from numba import types

    from numba_words._jit import unliteral

    @numba.njit
    def f():
        return unliteral(True), unliteral(7)

    assert f() == (True, 7)
    ret = f.nopython_signatures[0].return_type
    assert ret == types.Tuple((types.boolean, types.int64)), ret
