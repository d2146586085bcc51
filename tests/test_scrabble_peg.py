"""Pre-endgame solver against a plain enumeration: every ordered draw of physical tiles, each candidate played
out move by move on copies of the board (best moves by static equity until the bag is empty, then the endgame
solver at the same depth, or at 0 plies a plain-Python greedy playout: top-scoring plays to the end)."""
from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from numba_words.scrabble import SCRABBLE, Position
from numba_words.scrabble.endgame import solve_endgame
from numba_words.scrabble.errors import ScrabbleError
from numba_words.scrabble.endgame import _Table
from numba_words.scrabble.peg import _endgame_search, draw_orders, endgame_value, peg

from test_scrabble_endgame import greedy, positions_from_games
from test_scrabble_infer import game_turns

ALPHA = SCRABBLE.alphabet


def pts(rack):
    return sum(SCRABBLE.values.get(ch, 0) for ch in rack if ch != "?")


def srt(tiles):
    return "".join(sorted(tiles, key=lambda ch: (ch == "?", ch)))


def line_value(me, opp, board, bag, first, plies, memo):
    """Spread for 'me' after 'first' (notation or None), then best-equity moves, drawing from 'bag' in order."""
    racks = [me, opp]
    side, total, move = 0, 0, first
    while True:
        if move is not None:
            board = board.copy()
            board.place([q[0] for q in move.placed], [q[1] for q in move.placed],
                        [ALPHA.index(q[2]) for q in move.placed], [q[3] for q in move.placed])
            left = Counter(racks[side]) - Counter("?" if q[3] else q[2] for q in move.placed)
            take = min(len(move.placed), len(bag))
            racks[side] = srt(list(left.elements()) + list(bag[:take]))
            bag = bag[take:]
            total += (1 if side == 0 else -1) * move.score
            if not racks[side]:
                return total + (1 if side == 0 else -1) * 2 * pts(racks[1 - side])
        side = 1 - side
        p = Position._make(SCRABBLE, board.lexicon, board, racks[side], racks[1 - side], (0, 0), 0)
        if not bag:
            v = greedy(p, False, memo) if plies == 0 else solve_endgame(p, plies=plies, tt_mb=4).value
            return total + (1 if side == 0 else -1) * v
        m = p.best_move("equity")
        move = m if m is not None and hasattr(m, "placed") else None


def brute(pos, moves, plies):
    """{notation: (win, mean spread)} over every ordered draw of physical tiles."""
    tiles = list(pos.unseen().elements())
    b = len(tiles) - 7
    out, memo = {}, {}
    spread0 = pos.scores[0] - pos.scores[1]
    for m in moves:
        wins = tot = n = 0
        for idx in permutations(range(len(tiles)), b):
            bag = "".join(tiles[i] for i in idx)
            opp = srt(tiles[i] for i in range(len(tiles)) if i not in idx)
            s = spread0 + line_value(pos.rack, opp, pos.board, bag, m, plies, memo)
            wins += 1.0 if s > 0 else 0.5 if s == 0 else 0.0
            tot += s
            n += 1
        out["pass" if m is None else m.notation] = (wins / n, tot / n)
    return out


def peg_positions(bag, k):
    out = []
    for p, _ in game_turns(8, seed=21):
        if p.bag_size() == bag:
            q = p.copy()
            q.opp_rack = ""
            q.scores = (300, 300 + 7 * len(out) - 10)
            out.append(q)
            if len(out) == k:
                break
    return out


def test_zero_plies_is_the_greedy_playout():
    """An endgame searched to 0 plies is its root's greedy playout: the plain-Python one."""
    memo: dict = {}
    for pos in positions_from_games(24, seed=23, max_tiles=7)[:8]:
        assert endgame_value(pos, 0) == greedy(pos, False, memo), pos.cgp()


def test_windowed_and_shared_table_searches_keep_the_exact_value():
    """The exact stage's searches against solve_endgame (iterative deepening, a fresh table, the full window): one
    table shared by every endgame gives each exact value, and a search in the window around a target tells whether
    the value is above, at or below it (the tie exact)."""
    shared = _Table(1)
    for pos in positions_from_games(24, seed=23, max_tiles=4)[:6]:
        v = solve_endgame(pos, tt_mb=4).value
        assert _endgame_search(pos, None, 0, shared) == (v, False), pos.cgp()
        for t in (v - 3, v - 1, v, v + 1, v + 3):
            r, horizon = _endgame_search(pos, None, 0, shared, t)
            assert not horizon and (r > t) == (v > t) and (r < t) == (v < t) and (r == t) == (v == t), pos.cgp()


def test_draw_orders_weights():
    u = Counter("AABCD?")
    orders = draw_orders(u, 2)
    assert sum(w for _, w in orders) == 6 * 5
    assert dict(orders)["AA"] == 2 and dict(orders)["AB"] == 2 and dict(orders)["BA"] == 2


@pytest.mark.parametrize("bag,plies", [(1, 0), (2, 0), pytest.param(1, 1, marks=pytest.mark.slow),
                                       pytest.param(2, 1, marks=pytest.mark.slow)])
def test_peg_matches_plain_enumeration(bag, plies):
    # (two tiles in the bag: one position, the top play and the pass, to keep the plain enumeration short)
    for pos in peg_positions(bag, 2 if bag == 1 else 1):
        res = peg(pos, candidates=3 if bag == 1 else 1, stages=((plies, 4),), exact=False, threads=1)
        moves = [c.move for c in res.candidates]
        want = brute(pos, moves, plies)
        for c in res.candidates:
            w, s = want[c.notation]
            assert abs(c.win - w) < 1e-12 and abs(c.spread - s) < 1e-9, (pos.cgp(), c.notation)
        ranked = sorted(want.items(), key=lambda kv: (-kv[1][0], -kv[1][1]))
        assert (res.candidates[0].win, res.candidates[0].spread) == ranked[0][1]


@pytest.mark.slow
def test_exact_stage_matches_plain_enumeration():
    """The exact stage (shared tables, the second candidate probed for won/tied/lost before its spreads) against the
    plain enumeration with every endgame solved to the end: the best play and its figures; a candidate cut truly
    below it."""
    pos = peg_positions(1, 1)[0]
    moves = [m for m in pos.legal_plays().top(10 ** 6, "equity") if len(m.placed) >= 1][:2]
    res = peg(pos, moves=moves, stages=(), exact=True, threads=1)
    want = brute(pos, moves, None)
    top = res.candidates[0]
    assert top.exact and (top.win, top.spread) == pytest.approx(want[top.notation])
    assert top.notation == sorted(want, key=lambda n: (-want[n][0], -want[n][1]))[0]
    for c in res.candidates[1:]:
        assert c.exact and (c.win, c.spread) == pytest.approx(want[c.notation]) or want[c.notation] < want[top.notation]


def test_peg_stages_threads_and_moves():
    pos = peg_positions(1, 1)[0]
    # pruned on one lane against every candidate scored in full on two: the same survivors with the same figures,
    # and each candidate cut short truly below the keep-th best of its stage
    a = peg(pos, candidates=3, stages=((1, 2), (2, 1)), exact=False, threads=1)
    b = peg(pos, candidates=3, stages=((1, 2), (2, 1)), exact=False, threads=2, prune=False)
    full = {c.notation: c for c in b.candidates}
    assert [c.stage for c in b.candidates] == [2, 2, 1, 1]  # the stage-1 survivors first
    top = a.candidates[0]
    assert top.notation == b.candidates[0].notation and top.stage == 2 and top.plies == 2 and not top.exact
    assert a.bag == 1 and a.endgames <= b.endgames and b.cut == 0
    for c in a.candidates:
        f = full[c.notation]
        if c.stage == f.stage:
            assert (c.win, c.spread) == (f.win, f.spread)
        else:  # cut at stage 2 (keep 1): could not reach the top's win count
            assert c.stage == 1 and f.stage == 2 and f.win < top.win
    want = brute(pos, [top.move], 2)
    assert (top.win, top.spread) == pytest.approx(want[top.notation])
    # a 0-ply first stage scores every candidate (none cut before it has figures)
    z = peg(pos, candidates=3, stages=((0, 2), (1, 1)), exact=False, threads=1)
    assert z.candidates[0].stage == 2 and all(c.stage >= 1 for c in z.candidates)
    one = peg(pos, moves=[top.move.notation], stages=((2, 1),), exact=False, threads=1)
    assert (one.candidates[0].win, one.candidates[0].spread) == (top.win, top.spread)


def test_peg_errors():
    pos = peg_positions(1, 1)[0]
    with pytest.raises(ScrabbleError):
        peg("x")
    with pytest.raises(ScrabbleError):
        peg(pos, candidates=0)
    with pytest.raises(ScrabbleError):
        peg(pos, stages=((-1, 2),))
    with pytest.raises(ScrabbleError):
        peg(pos, stages="ab")
    known = pos.copy()
    known.opp_rack = "A" if "A" in pos.unseen() else next(iter(pos.unseen()))
    with pytest.raises(ScrabbleError, match="unknown"):
        peg(known)
    with pytest.raises(ScrabbleError, match="bag"):
        peg(Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ABCDEFG/ 0/0 0"))


def test_peg_command(capsys):
    import json

    from numba_words.cli import main

    pos = peg_positions(1, 1)[0]
    assert main(["scrabble", "peg", "--cgp", pos.cgp(), "--candidates", "2", "--stage", "1:2", "--json",
                 "--threads", "1"]) == 0
    rows = json.loads(capsys.readouterr().out)
    res = peg(pos, candidates=2, stages=((1, 2),), threads=1)
    assert [(r["notation"], r["win"], r["spread"]) for r in rows] == [(c.notation, c.win, c.spread)
                                                                       for c in res.candidates]
    assert main(["scrabble", "peg", "--cgp", pos.cgp(), "--stage", "x"]) == 2
    assert main(["scrabble", "peg", "--cgp", pos.cgp(), "--time", "0"]) == 2


def test_include_and_time_budget():
    """A move given by ``include`` is carried through every stage with the figures of the plain enumeration (never
    cut, even below the survivors); a budget already spent after the first stage abandons the second: the first's
    figures stand, as with that stage alone."""
    pos = peg_positions(1, 1)[0]
    low = pos.legal_plays().top(12, "equity")[-1]
    res = peg(pos, candidates=2, stages=((0, 2), (1, 1)), include=[low.notation], threads=1)
    mine = next(c for c in res.candidates if c.notation == low.notation)
    assert mine.stage == 2 and res.candidates[0].stage == 2
    assert (mine.win, mine.spread) == pytest.approx(brute(pos, [low], 1)[low.notation])
    first = peg(pos, candidates=2, stages=((0, 2),), include=[low], threads=1)
    cut = peg(pos, candidates=2, stages=((0, 2), (1, 1)), include=[low], threads=1, time=1e-9)
    assert cut.timed_out and not first.timed_out and len(cut.stage_seconds) == 2
    assert [(c.notation, c.win, c.spread, c.stage) for c in cut.candidates] == \
        [(c.notation, c.win, c.spread, c.stage) for c in first.candidates]
    with pytest.raises(ScrabbleError, match="time"):
        peg(pos, time=0)
    with pytest.raises(ScrabbleError, match="include"):
        peg(pos, include=5)


@pytest.mark.slow
def test_three_tiles_merged_draws_match_plain_enumeration():
    """3 tiles in the bag at 0 plies: plays of 1 and 2 tiles (their draws merged by the multiset the mover draws,
    then the order of the rest; endgames met again searched once) and the pass, against every ordered draw."""
    pos = peg_positions(3, 1)[0]
    plays = pos.legal_plays().top(10 ** 6, "equity")
    moves = [next(m for m in plays if len(m.placed) == k) for k in (1, 2)] + [None]
    res = peg(pos, moves=moves, stages=((0, 3),), threads=1)
    want = brute(pos, moves, 0)
    assert len(res.candidates) == 3
    for c in res.candidates:
        assert (c.win, c.spread) == pytest.approx(want[c.notation]), (pos.cgp(), c.notation)
