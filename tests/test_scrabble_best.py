"""The pruned best-only search (by score and by equity) against the full list, on racks with and without blanks,
and the word map it reads against a plain-Python index of the word list."""
from __future__ import annotations

import dataclasses
import random
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from numba_words.lexicon import Lexicon
from numba_words.scrabble import SCRABBLE, Position
from numba_words.scrabble.errors import InvalidRackError
from numba_words.scrabble.leaves import Leaves

BENCH = Path(__file__).resolve().parent.parent / "data" / "scrabble" / "twl06_bench.cgp"


@pytest.fixture(scope="module")
def twl():
    return Lexicon.load("twl06")


def _key(lex, letters, n, short):
    from numba_words.scrabble._tables import MSET_HASH, mset_tag

    k = sum(int(MSET_HASH[c]) for c in lex.alphabet.encode(letters)) + int(mset_tag(n, short))
    return np.int64(np.uint64(k % (1 << 64)).astype(np.int64))


def test_word_map_lists_exactly_the_words_of_each_multiset():
    from numba_words.scrabble._tables import wmap_range, wmap_table

    rng = random.Random(3)
    letters = "ABCDEF"
    words = sorted({"".join(rng.choice(letters) for _ in range(rng.choice((2, 3, 4, 7, 8, 9, 15))))
                    for _ in range(400)})
    lex = Lexicon.from_words(words, alphabet=letters)
    went, wids, wdir, wlet = wmap_table(lex)
    assert wlet.shape[0] == len(words)
    spelled = ["".join(letters[c] for c in row[:len(w)]) for row, w in zip(wlet, words)]
    assert spelled == words  # word ids in alphabetical order
    # each entry holds its word's letters (byte q % 8 of column 1 + q // 8), the rest zero
    inline = went[:, 1:].copy().view(np.uint8)[:, :15]
    assert (inline == wlet[wids]).all()
    want = defaultdict(set)
    for i, w in enumerate(words):
        want[(len(w), 0, "".join(sorted(w)))].add(i)
        for j in range(len(w)):
            want[(len(w), 1, "".join(sorted(w[:j] + w[j + 1:])))].add(i)
    for (n, short, ms), ids in want.items():
        lo, hi = wmap_range(went, wdir, _key(lex, ms, n, short))
        assert sorted(wids[lo:hi].tolist()) == sorted(ids), (n, short, ms)
    absent = 0
    for ms in ("AABCDEF", "FFFFFFFF", "AB", "ABCDEFFF", "AAAAAAAAAAAAAA", "BBBBBBBBBBBBB"):
        for short in (0, 1):
            if (len(ms) + short, short, ms) not in want:  # a multiset of no word of that length
                lo, hi = wmap_range(went, wdir, _key(lex, ms, len(ms) + short, short))
                assert lo == hi
                absent += 1
    assert absent > 4


def _racks(rng, pos, k):
    """``k`` random racks drawn from what the player on turn cannot see (0, 1 and 2 blanks)."""
    pool = list(pos.unseen().elements()) + list(pos.rack)
    real = [t for t in pool if t != "?"]
    out = []
    for j in range(k):
        nb = j % 3
        n = min(7, len(pool))
        if len(real) < n - nb:
            continue
        out.append("".join(rng.sample(real, n - nb)) + "?" * nb)
    return out


def test_best_by_score_and_equity_are_the_full_lists_best(twl):
    """best() and best("equity") (the pruned searches: leave bounds, word map, whole-rack filter) return the same
    play as sorting every play, with a random leave table and the default one, over many racks with and without
    blanks (a roomy bag, so that two-blank racks fit beside any board), on the stored midgame positions, the
    empty board (the opening vowel penalty) and with the bag emptied (going out, tiles kept); a second call (the
    kernel's compiled entry, called without its dispatcher) returns the same play."""
    roomy = dataclasses.replace(SCRABBLE, name="scrabble-roomy", counts={k: 2 * n for k, n in SCRABBLE.counts.items()},
                                blanks=4, _arrays={})
    table = Leaves(roomy, name="random")
    table.assign(np.random.default_rng(11).integers(-25_000, 40_000, len(table)))
    table_std = Leaves(SCRABBLE, name="random")
    table_std.assign(np.random.default_rng(12).integers(-25_000, 40_000, len(table_std)))
    rng = random.Random(7)
    checked = blanks = bingos = empty_bag = 0
    cases = []
    for line in BENCH.read_text().splitlines():
        base = Position.from_cgp(line, roomy, lexicon=twl)
        cases += [(base, rack, None) for rack in _racks(rng, base, 6)]
        # the bag emptied: the real bag, the unseen tiles split between the two racks
        base = Position.from_cgp(line, lexicon=twl)
        pool = list(base.unseen().elements()) + list(base.rack)
        if len(pool) <= 14:
            for _ in range(4):
                rng.shuffle(pool)
                cases.append((base, "".join(pool[:7]), "".join(pool[7:])))
    empty = Position.from_cgp("/".join(["15"] * 15) + " AEINST?/ 0/0 0", roomy, lexicon=twl)
    cases += [(empty, rack, None) for rack in ("AEINST?", "EEIOUA?", "RETAINS", "QUIZ??E", "AEIOU??", "BCDFGHJ")]
    for j, (base, rack, opp) in enumerate(cases):
        p = base.copy()
        if opp is not None:
            p.opp_rack = ""
        p.rack = rack
        if opp is not None:
            p.opp_rack = opp
        if j % 2:
            p.leaves = table if p.variant.name == roomy.name else table_std
        full = p.legal_plays()
        for by in ("score", "equity"):
            a, b = p.best(by), full.best(by)
            assert (a is None) == (b is None), (p.cgp(), by)
            again = p.best(by)  # (a second call: the compiled code for its arguments, called directly)
            assert str(again) == str(a), (p.cgp(), by)
            if a is None:
                continue
            assert str(a) == str(b) and a.score == b.score, (p.cgp(), by, str(a), str(b))
            if by == "equity":
                assert a.equity == b.equity
            checked += 1
            blanks += "?" in rack
            bingos += a.tiles_used == 7
            empty_bag += p.bag_size() == 0
    assert checked > 600 and blanks > 400 and bingos > 100 and empty_bag > 10


def test_best_move_is_the_best_of_every_play_and_exchange(twl):
    """best_move() (the search with the best exchange's equity as its floor, and best("equity") with it on blank
    racks) chooses what ranking every play and every exchange chooses: the play on ties, the exchange when no play
    reaches it (random leave tables make that common), over racks with 0, 1 and 2 blanks."""
    from numba_words.scrabble.leaves import exchange_options

    rng = random.Random(21)
    tables = []
    for seed, lo, hi in ((31, -25_000, 40_000), (32, -90_000, -35_000)):  # the second: keeping nothing is best
        t = Leaves(SCRABBLE, name="random")
        t.assign(np.random.default_rng(seed).integers(lo, hi, len(t)))
        tables.append(t)
    plays = exchanges = blank_floor_missed = 0
    for line in BENCH.read_text().splitlines():
        base = Position.from_cgp(line, lexicon=twl)
        if base.bag_size() < 7:
            continue
        for j, rack in enumerate(_racks(rng, base, 9)):  # blanks: j % 3; leaves: j // 3
            p = base.copy()
            try:
                p.rack = rack
            except InvalidRackError:  # tiles of the opponent's known rack drawn
                continue
            if j >= 3:
                p.leaves = tables[j // 3 - 1]
            full = p.legal_plays()
            top = full.best("equity")
            ex = exchange_options(p)[0]
            got = p.best_move()
            if top is not None and round(top.equity * 1000) >= round(ex.equity * 1000):
                assert str(got) == str(top) and got.equity == top.equity, (p.cgp(), str(got), str(top))
                plays += 1
            else:
                assert got == ex, (p.cgp(), got, ex)
                exchanges += 1
                blank_floor_missed += "?" in rack
            a = p.best("equity")  # a blank rack's floor missed: searched again without it
            assert (a is None) == (top is None) and (a is None or str(a) == str(top)), (p.cgp(), str(a), str(top))
    assert plays > 100 and exchanges > 30 and blank_floor_missed > 5


def test_best_move_with_an_empty_rack_is_a_pass():
    from numba_words.scrabble.leaves import best_exchange, exchange_options

    p = Position.from_cgp("/".join(["15"] * 15) + " / 0/0 0")
    assert p.rack == "" and p.bag_size() >= 7
    assert p.best_move() is None and p.best_move("score") is None and p.best("equity") is None
    assert exchange_options(p) == [] and best_exchange(p) is None


def test_word_groups_search_is_the_walks_on_self_play_positions(twl):
    """The word-group search (:func:`._best.search_words`) against the DAWG walk (:func:`._movegen.search_best`,
    written independently): the same play (every byte of its row) and value, by score and by equity (random leave
    tables, every leave of the second one so costly that exchanging everything often wins; the exchange floor on
    and off), on every position of four games played by score, with three racks each of no blank, one and two."""
    from numba_words.scrabble import Game, _best, _movegen
    from numba_words.scrabble._board import _SCORE_OBJ, _tables
    from numba_words.scrabble.leaves import equity_objective

    roomy = dataclasses.replace(SCRABBLE, name="scrabble-roomy", counts={k: 2 * n for k, n in SCRABBLE.counts.items()},
                                blanks=4, _arrays={})
    tables = [Leaves(roomy, name="random"), Leaves(roomy, name="costly")]
    tables[0].assign(np.random.default_rng(5).integers(-25_000, 40_000, len(tables[0])))
    tables[1].assign(np.random.default_rng(6).integers(-90_000, -35_000, len(tables[1])))
    rng = random.Random(11)
    compared = found = floored = 0
    for seed in range(4):
        table = tables[seed % 2]
        g = Game(lexicon=twl, seed=seed)
        while not g.over:
            p = Position.from_cgp(g.position.cgp(), roomy, lexicon=twl)
            p.leaves = table
            pool = [t for t in p.unseen().elements() if t != "?"]
            for j in range(9):
                nb = j % 3
                p.rack = "".join(rng.sample(pool, min(7, len(pool)) - nb)) + "?" * nb
                b, t = p.board, _tables(p.board)
                counts, nblank = p._rack_arrays()
                # (the board's own arrays, as the API passes them: the kernels compile for one set of types)
                args = (b._lines, b._fv, b._occ, b._cc, b._xs, b._lm, b._wm, b._values, counts, nblank, t.rack_size,
                        t.bingo, b.dawg, t.span, b.empty, t.reach, t.wtabs)
                for obj, floor in ((_SCORE_OBJ, 0), (equity_objective(p, table), 0), (equity_objective(p, table), 1)):
                    walk = np.zeros(_movegen.REC, np.uint8)
                    words = np.zeros(_movegen.REC, np.uint8)
                    n1, v1, _ = _movegen.search_best(*args, obj, walk, np.int64(0), np.int64(floor), _movegen.NO_TRIE)
                    n2, v2 = _best.search_words(*args[:12], t.span, b.empty, t.wtabs[0], t.wtabs[1], t.wtabs[3], obj,
                                                words, np.int64(floor), np.int64(_movegen.NEG))
                    assert n1 == n2, (p.cgp(), floor)
                    if n1:
                        assert v1 == v2 and bytes(walk) == bytes(words), (p.cgp(), floor, walk, words)
                    compared += 1
                    found += n1
                    floored += floor and not n1
            g.play(g.best() or "pass")
    assert compared > 2500 and found > 1500 and floored > 30


def test_best_through_the_api_is_the_full_list_first_with_many_blanks(twl):
    """``Position.best`` by score and by equity (one kernel call for racks of up to two blanks, the walk with its
    objective made in Python for more) is the first play of every play ranked, with a random leave table whose
    leaves are mostly worth more than the points a tile scores (so the best by equity keeps tiles, and differs
    from the best by score), on racks of zero to four blanks in a variant whose bag holds four."""
    from numba_words.scrabble import Game

    roomy = dataclasses.replace(SCRABBLE, name="scrabble-roomy", counts={k: 2 * n for k, n in SCRABBLE.counts.items()},
                                blanks=4, _arrays={})
    table = Leaves(roomy, name="random")
    table.assign(np.random.default_rng(7).integers(-25_000, 90_000, len(table)))
    rng = random.Random(13)
    g = Game(lexicon=twl, seed=21)
    checked = many = differ = 0
    turn = 0
    while not g.over:
        if turn % 3 == 1:
            p = Position.from_cgp(g.position.cgp(), roomy, lexicon=twl)
            p.leaves = table
            pool = [t for t in p.unseen().elements() if t != "?"]
            nb = min(rng.choice((0, 1, 2, 3, 3, 4)), p.unseen()["?"] + p.rack.count("?"))
            p.rack = "".join(rng.sample(pool, min(5 if nb < 3 else 3, len(pool)))) + "?" * nb
            full = p.legal_plays()
            differ += nb > 2 and str(full.best("score")) != str(full.best("equity"))
            for by in ("score", "equity"):
                want = full.best(by)
                got = p.best(by)
                assert str(got) == str(want), (p.cgp(), by)
                if want is not None and by == "equity":
                    assert round(got.equity * 1000) == round(want.equity * 1000)
                checked += 1
            many += nb > 2
        g.play(g.best() or "pass")
        turn += 1
    assert checked > 10 and many > 2 and differ > 0


def test_best_follows_the_position_as_its_board_and_racks_change(twl):
    """The arguments the best-play search keeps on a board and a position (per objective, board version, rack and
    leave table) never outlive a change: through a game that plays on one position object in place, and on copies of
    it that play on, ``best`` by equity and by score stays the first of every play ranked, on both."""
    from numba_words.scrabble import Game

    g = Game(seed=11)
    checked = 0
    while not g.over and checked < 12:
        p = g.position
        for by in ("equity", "score"):
            b = p.best(by=by)  # fills the caches for this board version and rack
            full = p.legal_plays().best(by)
            assert (b is None) == (full is None)
            if b is not None:
                assert (b.word, b.coord, b.score) == (full.word, full.coord, full.score)
        q = p.copy()
        mv = q.best(by="equity")
        if mv is not None:
            tiles = mv.placed
            q.board.place([t[0] for t in tiles], [t[1] for t in tiles], [q.alphabet.index(t[2]) for t in tiles],
                          [t[3] for t in tiles])
            q.rack = p.rack[:2]
            for pos in (q, p):
                for by in ("equity", "score"):  # (a kept set of arguments per objective)
                    b, full = pos.best(by=by), pos.legal_plays().best(by)
                    assert (b is None) == (full is None)
                    if b is not None:
                        assert (b.word, b.coord, b.score) == (full.word, full.coord, full.score)
        mv = p.best_move()
        g.play("pass" if mv is None else (mv.notation if not hasattr(mv, "word") else mv))
        checked += 1
    assert checked == 12


def test_squares_only_a_blank_fits_are_marked_for_the_leave_bounds(twl):
    """The squares the search marks as taking a blank (``pmask[line, 7]`` of :func:`._movegen._starts_best`, whose
    spans' bounds then hold only leaves that play a blank on each) are exactly the empty squares whose cross-check
    allows some letter but none of the rack's real tiles, on every line with a start, by a plain-Python scan."""
    from numba_words.scrabble._board import _tables
    from numba_words.scrabble._movegen import _starts_best
    from numba_words.scrabble.leaves import equity_objective

    lines = [ln.split("#")[0].strip() for ln in BENCH.read_text().splitlines() if ln.strip()]
    checked = marked = 0
    for cgp in lines:
        p = Position.from_cgp(cgp, lexicon=twl)
        real_tiles = p.rack.replace("?", "")
        for rack in (p.rack, real_tiles[:6] + "?", real_tiles[:5] + "??"):
            try:
                p.rack = rack
            except InvalidRackError:  # the board holds a blank already
                continue
            b, t = p.board, _tables(p.board)
            counts, nblank = p._rack_arrays()
            starts, m, *_, pmask, lw = _starts_best(b.lines, b.fv, b.occ, b.cc, b.xs, b.lm, b.wm, b.values, counts,
                                                   nblank, t.rack_size, t.bingo, t.span, b.empty,
                                                   equity_objective(p, p.leaves), t.wtabs[0])
            real = sum(1 << c for c in range(32) if counts[c] > 0)
            for d, i in {(int(starts[0, x]), int(starts[1, x])) for x in range(m)}:
                want = 0
                for q in range(15):
                    cc = int(b.cc[d, i, q])
                    if nblank and b.lines[d, i, q] == 255 and cc and not cc & real:
                        want |= 1 << q
                assert int(pmask[d * 15 + i, 7]) == want, (cgp, rack, d, i)
                checked += 1
                marked += want != 0
            # leave bounds by blanks played: each at most the best of any leave of its size
            for r in (2, 3):
                assert (lw[r] <= lw[0]).all()
    assert checked > 1000 and marked > 100


def test_sub_racks_sums_are_a_plain_enumerations():
    """:func:`._best._sub_racks` counts the sub-racks up like an odometer and makes each one's prefix sums of tile
    values (highest first) from the sub-rack one tile smaller: every sub-multiset of random racks, with its size,
    letter codes' sum, letter mask and prefix sums, equals a plain enumeration's."""
    from itertools import product

    from numba_words.scrabble import _best
    from numba_words.scrabble._board import best_args

    rng = random.Random(5)
    alpha = SCRABBLE.alphabet
    for _ in range(60):
        rack = "".join(rng.sample("AAEEEIIOORRSSTTNNLDDGBCMPQXZ??", rng.randint(1, 7)))
        p = Position(rack=rack)
        counts, nb = p._rack_arrays()
        lval = best_args(p.board, counts, nb)[7]
        obj = (np.zeros(1, np.int64), np.zeros(33, np.int64), np.int64(0))
        sz, sk, spre, sl, sm, co, cofs, scs = _best._sub_racks(counts, lval, np.int64(nb), obj[0], obj[1], obj[2])
        got = sorted((int(sz[i]), int(scs[i]), int(sm[i]), tuple(int(x) for x in spre[i])) for i in range(len(sz)))
        real = sorted(set(c for c in rack if c != "?"))
        codes = [alpha.index(c) for c in real]
        want = []
        for take in product(*(range(rack.count(c) + 1) for c in real)):
            tiles = sorted((v for c, k in zip(codes, take) for v in [int(lval[c])] * k), reverse=True)
            pre = [sum(tiles[:j]) for j in range(9)]
            want.append((sum(take), sum(c * k for c, k in zip(codes, take)),
                         sum(1 << c for c, k in zip(codes, take) if k), tuple(pre)))
        assert got == sorted(want), rack
