"""Exact endgames: the kernel's negamax against a plain-Python minimax over every play and the pass on small
endgames from self-played games; the principal variation replays legally and adds up to the value."""
from __future__ import annotations

from collections import Counter

import pytest

from numba_words.scrabble import SCRABBLE, Position
from numba_words.scrabble.autoplay import play_games
from numba_words.scrabble.endgame import _after, solve_endgame
from numba_words.scrabble.errors import ScrabbleError

ALPHA = SCRABBLE.alphabet


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


MEMO: dict = {}


def brute(pos, passed=False, memo=None):
    """Plain minimax (memoised on the board, both racks and the pass flag): the spread the side to move gets
    from here with best play by both sides."""
    memo = MEMO if memo is None else memo
    key = (pos.board.letters.tobytes(), pos.board.blanks.tobytes(), pos.rack, pos.opp_rack, passed)
    if key not in memo:
        memo[key] = _brute(pos, passed, memo)
    return memo[key]


def _brute(pos, passed, memo):
    best = None
    for play in pos.legal_plays():
        if not play.leave:
            v = play.score + 2 * tile_pts(pos.opp_rack)
        else:
            v = play.score - brute(_after(pos, play), False, memo)
        best = v if best is None else max(best, v)
    if passed:
        v = tile_pts(pos.opp_rack) - tile_pts(pos.rack)
    else:
        v = -brute(_after(pos, None), True, memo)
    return v if best is None else max(best, v)


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
