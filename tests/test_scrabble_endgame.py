"""Exact endgames: the kernel's negamax against a plain-Python minimax over every play and the pass on small
endgames from self-played games; the principal variation replays legally and adds up to the value."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from numba_words.scrabble import SCRABBLE, Position
from numba_words.scrabble.autoplay import play_games
from numba_words.scrabble._reference_search import reference_endgame
from numba_words.scrabble.endgame import _after, solve_endgame
from numba_words.scrabble.errors import ScrabbleError

ALPHA = SCRABBLE.alphabet
MAGPIE_TESTS = Path(__file__).resolve().parent / "data" / "scrabble" / "magpie_endgame_tests.cgp"


def positions_from_games(n_games, seed, max_tiles):
    """One position a game: the first turn with the bag empty and both racks of at most ``max_tiles`` tiles."""
    res = play_games(n_games, ("equity", "score"), seed=seed, threads=1)
    out = []
    for g in range(0, n_games, 2):  # both games of a pair start alike
        ag = res.game(g)
        moves = ag.moves
        board = Position("scrabble").board
        for t, m in enumerate(moves):
            opp = moves[t + 1]["rack"] if t + 1 < len(moves) else ag.final_racks[1 - m["seat"]]
            p = Position._make(SCRABBLE, board.lexicon, board, m["rack"], opp, (0, 0), 0)
            if p.bag_size() == 0 and m["rack"] and opp and len(m["rack"]) <= max_tiles and len(opp) <= max_tiles:
                out.append(p)
                break
            if not m["move"].startswith("-"):
                play = p.parse_play(m["move"])
                board = board.copy()
                board.place([q[0] for q in play.placed], [q[1] for q in play.placed],
                            [ALPHA.index(q[2]) for q in play.placed], [q[3] for q in play.placed])
    return out


def tile_pts(rack):
    return sum(SCRABBLE.values.get(ch, 0) for ch in rack if ch != "?")


def brute(pos, passed=False):
    """Plain minimax over every play and the pass (:func:`reference_endgame`): the spread the side to move gets
    from here with best play by both sides."""
    return reference_endgame(pos, passed)[0]


@pytest.fixture(scope="module")
def small():
    # 2-3 tiles a side, at most 5 in all: the plain minimax stays within seconds
    ps = [p for p in positions_from_games(48, seed=11, max_tiles=3) if len(p.rack) + len(p.opp_rack) <= 5]
    assert len(ps) >= 8
    return ps


def replay(pos, res, passed=False):
    """Replay the PV with the Python engine: every play legal with its score; returns the spread it makes."""
    spread, sign, last_pass = 0, 1, passed
    cur = pos
    for m in res.pv:
        if m is None:
            if last_pass:
                return spread + sign * (tile_pts(cur.opp_rack) - tile_pts(cur.rack))
            last_pass = True
            cur = _after(cur, None)
        else:
            play = cur.parse_play(m.notation)
            assert play.score == m.score and sorted(play.placed) == sorted(m.placed)
            spread += sign * play.score
            if not play.leave:
                return spread + sign * 2 * tile_pts(cur.opp_rack)
            last_pass = False
            cur = _after(cur, play)
        sign = -sign
    raise AssertionError(f"the PV {res.pv_notation()} does not end the game")


def test_exact_against_brute_force(small):
    for pos in small:
        res = solve_endgame(pos, tt_mb=1)
        assert res.exact
        assert res.value == brute(pos), pos.cgp()
        assert replay(pos, res) == res.value, (pos.cgp(), res.pv_notation())


def test_after_a_pass_and_tiny_table(small):
    for pos in small[:4]:
        res = solve_endgame(pos, tt_mb=0.001, passed=True)
        assert res.value == brute(pos, True)
        assert replay(pos, res, True) == res.value


def greedy(pos, passed, memo):
    """The depth limit's value, in plain Python: each side plays its top-scoring play (the first of them in the
    generator's order, which ``legal_plays()`` keeps) until the game ends."""
    key = (pos.board.letters.tobytes(), pos.board.blanks.tobytes(), pos.rack, pos.opp_rack, passed)
    if key not in memo:
        plays = list(pos.legal_plays())
        if not plays:
            v = tile_pts(pos.opp_rack) - tile_pts(pos.rack) if passed else -greedy(_after(pos, None), True, memo)
        else:
            top = max(plays, key=lambda m: m.score)
            v = top.score + 2 * tile_pts(pos.opp_rack) if not top.leave else \
                top.score - greedy(_after(pos, top), False, memo)
        memo[key] = v
    return memo[key]


def limited(pos, depth, passed, memo):
    """Minimax to ``depth`` plies over every play and the pass, leaves valued by :func:`greedy`."""
    if depth == 0:
        return greedy(pos, passed, memo)
    best = tile_pts(pos.opp_rack) - tile_pts(pos.rack) if passed else -limited(_after(pos, None), depth - 1, True, memo)
    for play in pos.legal_plays():
        v = play.score + 2 * tile_pts(pos.opp_rack) if not play.leave else \
            play.score - limited(_after(pos, play), depth - 1, False, memo)
        best = max(best, v)
    return best


def test_depth_limited_values_against_plain_python():
    """At a depth limit the kernel values a node by a greedy playout whose lists are the ones two plies up, kept
    off the lines touched since, plus a generation on those lines; the same values from a plain-Python minimax
    whose leaves play the game out from the full list of plays at every turn."""
    ps = positions_from_games(24, seed=23, max_tiles=7)
    assert len(ps) >= 8
    memo: dict = {}
    seen = 0
    for pos in ps[:8]:
        for depth in (1, 2) if len(pos.rack) + len(pos.opp_rack) <= 6 else (1,):
            res = solve_endgame(pos, plies=depth)
            if res.exact:
                continue
            assert res.value == limited(pos, depth, False, memo), (pos.cgp(), depth)
            seen += 1
    assert seen >= 5


def test_a_forced_pass_reuses_the_playout_of_the_node_before_it():
    """A leaf reached by the pass of a side that had no play takes the value the previous depth's playout gave the
    node before the pass, negated (that playout passed first): on eldar_v_stick (AEEIRUW against a V that 365 of the
    436 replies leave stuck) at 2 plies, the same value as the plain-Python minimax whose leaves play out."""
    cgp = next(ln for ln in MAGPIE_TESTS.read_text().splitlines() if "eldar_v_stick" in ln).split("#")[0].strip()
    pos = Position.from_cgp(cgp, lexicon="twl06")
    stuck = [p for p in pos.legal_plays() if p.leave and not any(True for _ in _after(pos, p).legal_plays())]
    assert len(stuck) > 300
    res = solve_endgame(pos, plies=2)
    assert not res.exact
    assert res.value == limited(pos, 2, False, {})


def test_blank_racks_play_out_by_the_pruned_search():
    """At the depth limit a side that holds a blank plays the top play the pruned best-play search finds (its list
    would run to thousands of plays), and its next turn generates every play again; the values equal a plain-Python
    minimax whose greedy leaves rank every play at every turn."""
    ps = [p for p in positions_from_games(40, seed=41, max_tiles=5) if "?" in p.rack + p.opp_rack]
    assert len(ps) >= 3
    memo: dict = {}
    for pos in ps:
        for depth in (1, 2) if len(pos.rack) + len(pos.opp_rack) <= 8 else (1,):
            assert solve_endgame(pos, plies=depth).value == limited(pos, depth, False, memo), (pos.cgp(), depth)


def test_endgame_lexicon_searches_the_same_tree():
    """The endgame's own lexicon (words of the racks' tiles, and of each line's tiles with them) generates the
    same plays and cross-checks as the full one: the same value, node count and principal variation, blanks
    included. It fails when a kind of word the endgame can make (across a line's tiles, a cross word) is left
    out."""
    import numpy as np

    from numba_words.scrabble.endgame import _Table, _search, endgame_lexicon

    lines = [ln.partition("#")[0].strip() for ln in MAGPIE_TESTS.read_text().splitlines() if ln.strip()
             and not ln.startswith("#")]
    ps = positions_from_games(12, seed=31, max_tiles=7)[:4]
    ps += [Position.from_cgp(lines[k] + " lex TWL06;") for k in (0, 5, 7)]  # vs_joey, kue, via_opp (blanks)
    for pos in ps:
        lex = endgame_lexicon(pos)
        assert len(lex.words) < len(pos.lexicon.words) // 4
        full = _search(pos, 2, _Table(1), False)
        own = _search(pos, 2, _Table(1), False, lex=lex)
        assert full[:3] == own[:3], pos.cgp()
        assert [np.asarray(r).tobytes() for r in full[3]] == [np.asarray(r).tobytes() for r in own[3]], pos.cgp()


def test_play_buffers_grow_in_the_search():
    """Lists longer than the play buffers make them grow in the kernel, every row kept: buffers of 8 rows a ply
    give the value, node count and principal variation of buffers that never fill, on positions whose lists run to
    thousands of plays (blanks). It fails when a grown buffer loses rows or a list made before the growth."""
    import numpy as np

    from numba_words.scrabble.endgame import _Table, _search

    lines = [ln.partition("#")[0].strip() for ln in MAGPIE_TESTS.read_text().splitlines() if ln.strip()
             and not ln.startswith("#")]
    ps = positions_from_games(12, seed=31, max_tiles=7)[:2]
    ps += [Position.from_cgp(lines[k] + " lex TWL06;") for k in (0, 7)]  # vs_joey, via_opp (a blank: 6,763 plays)
    for pos in ps:
        roomy = _Table(1)
        roomy.cap = 1 << 15
        full = _search(pos, 2, roomy, False)
        small_table = _Table(1)
        small_table.cap = 8
        grown = _search(pos, 2, small_table, False)
        assert small_table.cap > 8
        assert roomy.cap == 1 << 15
        assert full[:3] == grown[:3], pos.cgp()
        assert [np.asarray(r).tobytes() for r in full[3]] == [np.asarray(r).tobytes() for r in grown[3]], pos.cgp()


def test_depth_limit_and_deepening(small):
    pos = small[0]
    full = solve_endgame(pos)
    one = solve_endgame(pos, plies=1)
    assert one.depth == 1 and len(one.iterations) == 1
    assert one.exact == (full.depth == 1)
    assert [i[0] for i in full.iterations] == list(range(1, full.depth + 1))
    assert full.to_record()["value"] == full.value
    quick = solve_endgame(pos, time=1e-6)  # stops after the first depth
    assert quick.depth == 1 and quick.value == one.value


@pytest.mark.parametrize("kw,msg", [({"plies": 0}, "plies"), ({"time": -1}, "time"), ({"tt_mb": 0}, "tt_mb")])
def test_bad_arguments(small, kw, msg):
    with pytest.raises(ScrabbleError, match=msg):
        solve_endgame(small[0], **kw)


def test_needs_an_empty_bag_and_known_racks():
    pos = Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACDINRT/ 0/0 0")
    with pytest.raises(ScrabbleError, match="opponent"):
        pos.endgame()
    pos.opp_rack = "EEEE"
    with pytest.raises(ScrabbleError, match="bag"):
        pos.endgame()


ENDGAME_CGP = ("7ELEVATOR/7O4HIE/1LIGHTEN4O2/WINO4JAVAS2/I7U3E2/E7R6/N6OY3Q2/I3BOXY3ZILL/E2TOFUS4SI1/2C1N2t5ED/"
               "2O1G2E5FA/2AMI2R3D1ED/2PAN1PEDICABs1/2TAG2R3W1T1/3R3STEAK3 MNR/UU 0/0 0")


def test_cli(capsys):
    import json

    from numba_words.cli import main

    assert main(["scrabble", "endgame", "--cgp", ENDGAME_CGP, "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)[0]
    pos = Position.from_cgp(ENDGAME_CGP)
    assert rec["value"] == brute(pos) and rec["exact"] and rec["pv"][0] == rec["best"]
    assert main(["scrabble", "endgame", "--cgp", ENDGAME_CGP, "--plies", "2"]) == 0
    assert "depth 2" in capsys.readouterr().out
    assert main(["scrabble", "endgame", "--cgp", ENDGAME_CGP.replace("MNR/UU", "MNR/")]) == 2


def _ply_arrays(positions, K):
    """Board arrays of ``positions`` stacked as the kernel's per-ply arrays."""
    import numpy as np

    BL = np.ascontiguousarray(np.stack([np.asarray(p.board.lines, np.uint8) for p in positions]))
    FV, OC, CC, XS = (np.ascontiguousarray(np.stack([getattr(p.board, a) for p in positions]))
                      for a in ("fv", "occ", "cc", "xs"))
    RK = np.zeros((len(positions), 2, K), np.int64)
    return BL, FV, OC, CC, XS, RK


def _rows(M, W, B, N, o, n, TK=None):
    """The plays of buffer ``o``, sorted; with ``TK``: with the keys :func:`_endgame._plays` adds (tiles taken,
    line; squares)."""
    return sorted((tuple(M[o, i, :6]), bytes(W[o, i, :M[o, i, 3]]), int(B[o, i]), int(N[o, i]),
                   None if TK is None else tuple(TK[o, i])) for i in range(n))


def test_a_moves_lines_put_back_restore_the_board():
    """A node's later moves start from the board its last move left with that move's lines put back
    (``_undo_lines``): on plays of self-played endgame positions, the board after the play (made by
    ``Board.place``) with those lines put back equals the board before it, every array and the racks. And the
    squares :func:`_endgame._changes` names are every square where an array differs (letters, values, cross-checks,
    cross scores), by line of each orientation, but for cross-checks that only lose letters."""
    import random

    import numpy as np

    from numba_words.scrabble import _endgame

    rnd = random.Random(5)
    checked = 0
    for pos in positions_from_games(12, seed=7, max_tiles=7):
        K = len(pos.variant.alphabet) + 1
        plays = list(pos.legal_plays())
        for play in rnd.sample(plays, min(len(plays), 25)):
            after = _after(pos, play)
            BL, FV, OC, CC, XS, RK = _ply_arrays([pos, after], K)
            before = [a[0].copy() for a in (BL, FV, OC, CC, XS)]
            RK[0] = np.arange(2 * K).reshape(2, K)
            rows = np.array([q[0] for q in play.placed], np.int64)
            cols = np.array([q[1] for q in play.placed], np.int64)
            chg = np.zeros(30, np.int64)
            tr, tc = _endgame._changes(OC[1], rows, cols, len(rows), chg)
            for a in (BL, FV, CC, XS):
                for d, i, j in zip(*np.nonzero(a[1] != a[0])):
                    # (elsewhere a cross-check may only lose letters: the in-line part that Board.place updates and
                    # the endgame's boards leave out, which no play changes by)
                    assert (chg[d * 15 + i] >> j) & 1 or (a is CC and a[1, d, i, j] & ~a[0, d, i, j] == 0), \
                        (pos.cgp(), str(play), d, i, j)
            assert tr == sum(1 << i for i in range(15) if chg[i])
            assert tc == sum(1 << i for i in range(15) if chg[15 + i])
            _endgame._undo_lines(BL, FV, OC, CC, XS, RK, 0, tr, tc)
            for a, b in zip((BL, FV, OC, CC, XS), before):
                assert np.array_equal(a[1], b), (pos.cgp(), str(play))
            assert np.array_equal(RK[1], RK[0])
            checked += 1
    assert checked >= 100


def test_move_cache_matches_a_full_generation():
    """A side's plays two moves later, built from its earlier list and the squares the two moves changed, are the
    plays a full generation finds (every field), on random move pairs from self-played endgames."""
    import random

    import numpy as np

    from numba_words.scrabble import _endgame, _movegen
    from numba_words.scrabble._autoplay import game_tables, gen_plays
    from numba_words.scrabble._tables import span_table
    from numba_words.scrabble.leaves import rack_kinds

    rnd = random.Random(3)
    checked = singles = 0
    for pos in positions_from_games(24, seed=7, max_tiles=7):
        v, b = pos.variant, pos.board
        K = len(v.alphabet) + 1
        tabs = game_tables(pos.lexicon)
        for _ in range(3):
            m1 = rnd.choice(list(pos.legal_plays()) + [None])
            p1 = _after(pos, m1)
            if not p1.rack:
                continue
            m2 = rnd.choice(list(p1.legal_plays()) + [None])
            p2 = _after(p1, m2)
            if m1 is not None and not p1.opp_rack or m2 is not None and not p2.opp_rack:
                continue  # a move went out
            plies = [pos, p1, p2]
            BL, FV, OC, CC, XS, RK = _ply_arrays(plies, K)
            rk0 = rack_kinds(v, pos.rack)
            rk2 = rack_kinds(v, p2.rack)
            cap = 4096
            M = np.zeros((3, cap, 6), np.int32)
            TK = np.zeros((3, cap, 2), np.int64)
            every = np.full(30, (1 << 15) - 1, np.int64)
            W = np.zeros((3, cap, 15), np.uint8)
            B = np.zeros((3, cap), np.uint16)
            N = np.zeros((3, cap), np.uint16)
            fmap = _endgame._tile_fields(np.stack([rk0, rack_kinds(v, pos.opp_rack)]))
            counts = np.zeros(32, np.int64)
            common = (fmap, b._lm, b._wm, b._values, np.int64(v.rack_size), np.int64(v.bingo), b.dawg,
                      span_table(), tabs, counts, np.empty(cap * _movegen.REC, np.uint8))
            n0 = _endgame._plays(BL, FV, OC, CC, XS, 0, rk0, M, W, B, N, TK, 0, -1, 0, every, *common)
            chg = np.zeros(30, np.int64)
            for q, m in ((1, m1), (2, m2)):
                if m is not None:
                    rows = np.array([s[0] for s in m.placed], np.int64)
                    cols = np.array([s[1] for s in m.placed], np.int64)
                    c1 = np.zeros(30, np.int64)
                    _endgame._changes(OC[q], rows, cols, len(rows), c1)
                    chg |= c1
            n2 = _endgame._plays(BL, FV, OC, CC, XS, 2, rk2, M, W, B, N, TK, 2, 0, n0, chg, *common)
            n1 = _endgame._plays(BL, FV, OC, CC, XS, 2, rk2, M, W, B, N, TK, 1, -1, 0, every, *common)
            assert n1 == len(p2.legal_plays())
            assert _rows(M, W, B, N, 2, n2, TK) == _rows(M, W, B, N, 1, n1, TK), (pos.cgp(), m1, m2)
            checked += 1
            # one tile (each of the rack's, and a blank): the cross-check scan against the generator, and (tiles
            # the rack held two plies up) built from that list and the changed squares
            for tile in sorted(set(p2.rack)) + ["?"]:
                rk1 = rack_kinds(v, tile)
                n_s = _endgame._single(BL, FV, OC, CC, XS, 2, rk1, M, W, B, N, 1, b._lm, b._wm, b._values, every)
                if tile in pos.rack:
                    n_i = _endgame._plays(BL, FV, OC, CC, XS, 2, rk1, M, W, B, N, TK, 2, 0, n0, chg, *common)
                    assert _rows(M, W, B, N, 2, n_i) == _rows(M, W, B, N, 1, n_s), (pos.cgp(), m1, m2, tile)
                n_g = gen_plays(BL[2], FV[2], OC[2], CC[2], XS[2], b._lm, b._wm, b._values, rk1, np.int64(v.rack_size),
                                np.int64(v.bingo), b.dawg, span_table(), False, M[2], W[2], B[2], N[2], tabs,
                                counts, np.empty(M.shape[1] * _movegen.REC, np.uint8))  # (a full generation)
                assert _rows(M, W, B, N, 1, n_s) == _rows(M, W, B, N, 2, n_g), (p2.cgp(), tile)
                singles += 1
    assert checked >= 30 and singles >= 60


def test_threads_give_the_same_value(small):
    for pos in small[:4]:
        assert solve_endgame(pos, threads=2, tt_mb=1).value == brute(pos)
    big = positions_from_games(6, seed=5, max_tiles=7)[0]
    for plies in (2, 3):
        assert solve_endgame(big, plies=plies, threads=2).value == solve_endgame(big, plies=plies).value
    with pytest.raises(ValueError, match="threads"):
        solve_endgame(small[0], threads=-1)


def test_kernel_generator_goes_on_when_its_rows_fill_up():
    """The game kernels' generator (``gen_plays``) with room for a few rows only: it goes on from the start that
    overflowed in rows that grow, and lists exactly what it lists with room for every play (blank racks too)."""
    import numpy as np

    from numba_words.scrabble import _movegen
    from numba_words.scrabble._autoplay import game_tables, gen_plays
    from numba_words.scrabble._tables import span_table
    from numba_words.scrabble.leaves import rack_kinds

    checked = 0
    positions = positions_from_games(6, seed=11, max_tiles=7)[:4]
    for pos in positions:
        v, b = pos.variant, pos.board
        K = len(v.alphabet) + 1
        tabs = game_tables(pos.lexicon)
        BL, FV, OC, CC, XS, _ = _ply_arrays([pos], K)
        for rack in (pos.rack, "AEINST?", "ER??"):
            rk = rack_kinds(v, rack)
            cap = 20000
            M = np.zeros((2, cap, 6), np.int32)
            W = np.zeros((2, cap, 15), np.uint8)
            B = np.zeros((2, cap), np.uint16)
            N = np.zeros((2, cap), np.uint16)
            counts = np.zeros(32, np.int64)
            args = (BL[0], FV[0], OC[0], CC[0], XS[0], b.lm, b.wm, b.values, rk, np.int64(v.rack_size),
                    np.int64(v.bingo), b.dawg, span_table(), False)
            n_room = gen_plays(*args, M[0], W[0], B[0], N[0], tabs, counts, np.empty(cap * _movegen.REC, np.uint8))
            n_few = gen_plays(*args, M[1], W[1], B[1], N[1], tabs, counts, np.empty(3 * _movegen.REC, np.uint8))
            assert n_room > 3 and n_few == n_room, (pos.cgp(), rack)
            assert _rows(M, W, B, N, 0, n_room) == _rows(M, W, B, N, 1, n_few), (pos.cgp(), rack)
            checked += 1
    assert len(positions) >= 3 and checked == 3 * len(positions)
