"""Rack inference against a plain-Python count: every rack the player could have held, its best move by ranking
every legal play and exchange through the public API, weighted by the ways to draw it."""
from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import pytest

from numba_words.scrabble import SCRABBLE, Position
from numba_words.scrabble.autoplay import play_games
from numba_words.scrabble.errors import IllegalPlayError, InvalidRackError, ScrabbleError
from numba_words.scrabble.infer import infer
from numba_words.scrabble.leaves import exchange_options

ALPHA = SCRABBLE.alphabet


def game_turns(n_games, seed):
    """Every turn of self-played games: ``(position before the move, mover on turn with both racks, move)``."""
    res = play_games(n_games, ("equity", "equity"), seed=seed, threads=1)
    for g in range(n_games):
        ag = res.game(g)
        moves = ag.moves
        board = Position("scrabble").board
        for t, m in enumerate(moves):
            opp = moves[t + 1]["rack"] if t + 1 < len(moves) else ag.final_racks[1 - m["seat"]]
            p = Position._make(SCRABBLE, board.lexicon, board, m["rack"], opp, (0, 0), 0)
            yield p, m["move"]
            if not m["move"].startswith("-"):
                play = p.parse_play(m["move"])
                board = board.copy()
                board.place([q[0] for q in play.placed], [q[1] for q in play.placed],
                            [ALPHA.index(q[2]) for q in play.placed], [q[3] for q in play.placed])


def brute(pos, move, margin=0.0):
    """Plain count: ``{leave: weight}`` over every rack of the played tiles plus tiles of the pool (the unseen
    tiles less the observer's rack) whose best move by equity the play reaches within ``margin``."""
    v = pos.variant
    pool = Counter(pos.unseen()) - Counter(pos.opp_rack)
    probe = pos.copy()
    exch = move.startswith("-")
    if exch:
        played, score, n_ex = "", 0, len(move) - 1
    else:
        placed = pos._placement(move)
        played = "".join("?" if q[3] else q[2] for q in placed)
        probe.opp_rack = ""
        probe.rack = played
        score = probe.parse_play(move).score
        probe.opp_rack = pos.opp_rack
        n_ex = 0
    rest = pool - Counter(played)
    tiles = sorted(rest.elements())
    need = min(v.rack_size - len(played), len(tiles))
    out = Counter()
    for combo in set(combinations(tiles, need)):
        c = Counter(combo)
        w = math.prod(math.comb(rest[ch], k) for ch, k in c.items())
        probe.rack = played + "".join(combo)
        plays = probe.legal_plays()
        cands = [round(p.equity * 1000) for p in plays]
        ex = exchange_options(probe)
        top = max(cands + [round(e.equity * 1000) for e in ex], default=None)
        if exch:
            bp = max(cands, default=None)
            best_ex = ex[0] if ex else None
            if best_ex is not None and (bp is None or round(best_ex.equity * 1000) > bp) \
                    and len(best_ex.tiles) == n_ex:
                out[best_ex.leave] += w
            continue
        leave = "".join(sorted((Counter(probe.rack) - Counter(played)).elements(), key=lambda ch: (ch == "?", ch)))
        nbag = sum(pool.values()) - len(probe.rack)
        if top is None or score * 1000 + round(probe.leaves[leave] * 1000) + round(margin * 1000) >= top or nbag == 0:
            out[leave] += w
    return out


@pytest.fixture(scope="module")
def late_turns():
    """Placements with 1-5 tiles in the bag (small pools: the plain count stays within a second)."""
    out = []
    for p, mv in game_turns(6, seed=5):
        if 1 <= p.bag_size() <= 5 and not mv.startswith("-") and len(out) < 6:
            out.append((p, mv))
    assert len(out) >= 4
    return out


def test_infer_matches_plain_count(late_turns):
    for pos, mv in late_turns:
        before = pos.copy()
        before.rack = ""
        for margin in (0.0, 5.0):
            res = infer(before, mv, margin=margin, threads=1)
            want = brute(before, mv, margin)
            got = dict(res.leaves)
            assert got == dict(want), (pos.cgp(), mv, margin)
            assert res.total == sum(want.values())
            assert abs(sum(res.probabilities().values()) - 1) < 1e-9


def brute_exchanges(pos, known):
    """Plain count for exchanges: ``{n: {leave: weight}}`` over every rack of the ``known`` tiles plus tiles of the
    pool, of the racks whose best move by equity (every legal play and exchange ranked through the public API; an
    exchange only when it beats every play) exchanges ``n`` tiles, the leave it keeps."""
    v = pos.variant
    pool = Counter(pos.unseen()) - Counter(pos.opp_rack)  # (the unseen tiles of a position with no rack on turn)
    rest = pool - Counter(known)
    probe = pos.copy()
    out = {}
    for combo in set(combinations(sorted(rest.elements()), v.rack_size - len(known))):
        c = Counter(combo)
        w = math.prod(math.comb(rest[ch], k) for ch, k in c.items())
        probe.rack = known + "".join(combo)
        plays = [round(p.equity * 1000) for p in probe.legal_plays()]
        ex = exchange_options(probe)
        if ex and round(ex[0].equity * 1000) > max(plays, default=-(1 << 60)):
            got = out.setdefault(len(ex[0].tiles), Counter())
            got[ex[0].leave] += w
    return out


def test_exchange_inference_matches_plain_count():
    """Exchanges of 1 to 7 tiles on four boards with 7 to 60 tiles in the bag (the observer's rack known), six of
    the mover's tiles known to the observer (picked one by one for the worst leave value, so that exchanges are
    the best move of many racks), the seventh any unseen tile: every count of tiles exchanged the racks' best
    moves make, and the leaves they keep."""
    seen, leaves = set(), 0
    for pos, mv in game_turns(4, seed=5):
        if not 7 <= pos.bag_size() <= 60 or pos.cgp() in seen or len(seen) == 4:
            continue
        seen.add(pos.cgp())
        before = pos.copy()
        before.rack = ""
        pool = Counter(before.unseen()) - Counter(before.opp_rack)
        known = ""
        for _ in range(6):
            known += min(sorted(pool - Counter(known)), key=lambda ch: before.leaves[known + ch])
        want = brute_exchanges(before, known)
        leaves += sum(len(x) for x in want.values())
        before.rack = known
        for n in range(1, 8):
            res = infer(before, f"-{n}", threads=1)
            assert dict(res.leaves) == dict(want.get(n, {})), (pos.cgp(), known, n)
            assert res.exchanged == n and res.total == sum(want.get(n, Counter()).values())
    assert len(seen) == 4 and leaves >= 8  # (racks that exchange, so the comparison says something)


def test_infer_threads_and_actual_leave(late_turns):
    pos, mv = late_turns[0]
    before = pos.copy()
    before.rack = ""
    a = infer(before, mv, threads=1)
    b = infer(before, mv, threads=2)
    assert a.leaves == b.leaves
    # the play was the mover's best by equity, so the leave it actually kept counts
    kept = pos.parse_play(mv).leave
    assert a.probability(kept) > 0


def test_infer_unknown_observer_rack():
    # the observer's rack unknown too: its tiles join the pool
    for pos, mv in game_turns(2, seed=9):
        if 1 <= pos.bag_size() <= 2 and not mv.startswith("-"):
            before = pos.copy()
            before.opp_rack = ""
            before.rack = ""
            res = infer(before, mv, threads=1)
            assert dict(res.leaves) == dict(brute(before, mv))
            return
    pytest.fail("no turn with 1-2 tiles in the bag")


def test_infer_errors(late_turns):
    pos, mv = late_turns[0]
    before = pos.copy()
    before.rack = ""
    with pytest.raises(ScrabbleError):
        infer("not a position", mv)
    with pytest.raises(ScrabbleError):
        infer(before, mv, margin=-1)
    with pytest.raises(ScrabbleError):
        infer(before, 42)
    with pytest.raises(IllegalPlayError):
        infer(before, "8A ZZZZZZZ")
    with pytest.raises(ScrabbleError):
        infer(before, "-0")
    with pytest.raises(ScrabbleError):  # too few unseen tiles to exchange
        infer(before, "-3")


def test_simulate_draws_the_opponent_leave_from_an_inference(late_turns):
    from numba_words.scrabble.infer import Inference

    pos, _ = next((p, m) for p, m in game_turns(2, seed=5) if 20 <= p.bag_size() <= 40)
    pos = pos.copy()
    leave = "".join(sorted((Counter(pos.unseen()) - Counter(pos.opp_rack)).elements()))[:3]
    pos.opp_rack = ""
    one = Inference([(leave, 5)], 5, 1, 1, "", "x", 0, 0.0)
    a = pos.simulate(candidates=3, plies=1, iterations=16, seed=3, infer=one, threads=1)
    known = pos.copy()
    known.opp_rack = leave  # the same leave fixed as the opponent's known tiles, the rest drawn alike
    b = known.simulate(candidates=3, plies=1, iterations=16, seed=3, threads=1)
    assert [(c.play.notation, c.mean) for c in a.candidates] == [(c.play.notation, c.mean) for c in b.candidates]
    with pytest.raises(ScrabbleError):
        known.simulate(candidates=3, plies=1, iterations=16, infer=one)
    with pytest.raises(ScrabbleError):
        pos.simulate(candidates=3, plies=1, iterations=16, infer="x")


def test_infer_command(late_turns, capsys):
    import json

    from numba_words.cli import main

    pos, mv = late_turns[0]
    before = pos.copy()
    before.rack = ""
    assert main(["scrabble", "infer", "--cgp", before.cgp(), mv, "--json", "--threads", "1"]) == 0
    rows = json.loads(capsys.readouterr().out)
    want = brute(before, mv)
    tot = sum(want.values())
    assert {r["leave"]: r["weight"] for r in rows} == dict(Counter(want).most_common(20))
    assert abs(rows[0]["probability"] - rows[0]["weight"] / tot) < 1e-12
    assert main(["scrabble", "infer", "--cgp", before.cgp(), "8A QQQ"]) == 2
