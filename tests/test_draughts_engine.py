"""The draughts search and evaluation against the plain-Python reference (``_reference.py``: its own move
generator, evaluation terms and a negamax without pruning), plus legality, limits, threads and the API."""
from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from numba_words.draughts import (Engine, EngineError, Game, Position, SearchResult, WeightsError, play_game,
                                  read_pdn, write_pdn)
from numba_words.draughts import _reference as ref
from numba_words.draughts._eval import TERMS, UNIT, evaluate_kernel, terms_kernel
from numba_words.draughts._patterns import N_CONF, N_WINDOWS, indices_kernel
from numba_words.draughts._tables import bits_of, squares_of
from numba_words.draughts.engine import _budget, load_weights, parse_weights, patterns_array, weights_array


def random_fen(rng: random.Random, lo: int = 1, hi: int = 12, king_p: float | None = None) -> str:
    """A random placement: ``lo..hi`` pieces a side, men never on their crowning row."""
    kp = rng.random() * 0.6 if king_p is None else king_p
    squares = rng.sample(range(1, 51), rng.randint(lo, hi) + rng.randint(lo, hi))
    half = rng.randint(1, len(squares) - 1)
    w, b = [], []
    for i, s in enumerate(squares):
        white = i < half
        king = rng.random() < kp or (white and s <= 5) or (not white and s >= 46)
        (w if white else b).append(("K" if king else "") + str(s))
    return f"{rng.choice('WB')}:W{','.join(w)}:B{','.join(b)}"


def side_arrays(positions):
    own, opp, kings, white = [], [], [], []
    for p in positions:
        o, q = (p.white, p.black) if p.turn else (p.black, p.white)
        own.append(o)
        opp.append(q)
        kings.append(p.kings)
        white.append(p.turn)
    return (np.array(own, np.uint64), np.array(opp, np.uint64), np.array(kings, np.uint64),
            np.array(white, np.bool_))


def sample_positions(n: int, seed: int):
    """Random placements and positions of random games (crowded openings, middle games, endings)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        if rng.random() < 0.5:
            out.append(Position(random_fen(rng, 1, 20)))
        else:
            out.append(Game.selfplay(max_plies=rng.randrange(0, 150), seed=rng.randrange(1 << 30)).end())
    return out


def config_positions(seed: int, each: int = 6):
    """Positions holding each configuration of the reference's ``CONFIGS``, ``OUTPOSTS`` and free paths (for either
    colour, Black's squares turned as 51 - s), the other squares filled at random: they are rare in random play."""
    rng = random.Random(seed)
    shapes = [(own, opp, free) for _, own, opp, free, _ in ref.CONFIGS]
    shapes += [({post} | set(rng.sample(sorted(sup), rng.randint(1, 3))), set(), set()) for post, sup in
               ref.OUTPOSTS.items() for _ in range(3)]
    shapes += [({28, 32} | set(rng.sample([27, 33], rng.randint(0, 2))), set(), set())]
    # men two and three moves from crowning with their way clear, a guard beside or ahead now and then
    shapes += [({13}, set(rng.sample([15, 19, 20, 24], rng.randint(0, 1))), {2, 3, 4, 8, 9}),
               ({18}, set(rng.sample([5, 10, 14, 20, 23], rng.randint(0, 1))), {1, 2, 3, 4, 7, 8, 9, 12, 13})]
    out = []
    for own, opp, free in shapes:
        for _ in range(each):
            white = rng.random() < 0.5  # the colour holding the configuration
            turn = lambda s: s if white else 51 - s  # noqa: E731
            pieces = {turn(s): "w" if white else "b" for s in own} | {turn(s): "b" if white else "w" for s in opp}
            blocked = {turn(s) for s in free}
            for s in rng.sample(range(1, 51), rng.randint(4, 24)):
                if s not in pieces and s not in blocked:
                    colour = rng.choice("wb")
                    crowned = (colour == "w" and s <= 5) or (colour == "b" and s >= 46) or rng.random() < 0.05
                    pieces[s] = colour.upper() if crowned else colour
            out.append(Position(ref.fen(pieces, rng.random() < 0.5)))
    return out


def read_only(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only, as the engine's own weights are (the kernel then compiles for one array type)."""
    a.flags.writeable = False
    return a


def test_terms_and_evaluation_match_the_reference():
    positions = sample_positions(150, 1) + config_positions(3)
    arrays = side_arrays(positions)
    got = np.zeros((len(positions), len(TERMS)), dtype=np.int64)
    terms_kernel(*arrays, got)
    assert ref.EVAL_TERMS == TERMS
    rng = np.random.default_rng(2)
    weight_sets = [weights_array(None), read_only(rng.integers(-3000, 3000, (2, len(TERMS))).astype(np.int64))]
    pattern_sets = [patterns_array(False), patterns_array(None),
                    patterns_array(rng.integers(-300, 300, (N_WINDOWS, N_CONF, 2)).astype(np.int16))]
    for weights, patterns in zip(weight_sets + weight_sets[:1], pattern_sets):
        scores = np.zeros(len(positions), dtype=np.int64)
        evaluate_kernel(*arrays, weights, patterns, scores)
        table = patterns.tolist()
        for i, p in enumerate(positions):
            pieces, white = ref.parse_fen(p.fen())
            assert list(got[i]) == ref.eval_terms(pieces, white), p.fen()
            assert scores[i] == ref.evaluate(pieces, white, weights.tolist(), table), p.fen()
    # every term varies over the sample (none is stuck at zero)
    assert np.all(np.any(got != 0, axis=0))


def colour_flip(pos: Position) -> Position:
    """The position turned half a turn with the colours swapped (square s -> 51 - s, White <-> Black)."""
    def flip(bb):
        return bits_of(51 - s for s in squares_of(bb))

    return Position.from_bitboards(flip(pos.black), flip(pos.white), flip(pos.kings), not pos.turn)


def test_evaluation_is_colour_symmetric():
    """Each term and the score (side to move's view) are the same after the board is turned and the colours
    swapped; 2000 random placements and 300 positions of random games."""
    rng = random.Random(11)
    positions = ([Position(random_fen(rng, 1, 20)) for _ in range(2000)] + sample_positions(300, 11) +
                 config_positions(12))
    flipped = [colour_flip(p) for p in positions]
    a = side_arrays(positions)
    b = side_arrays(flipped)
    ta = np.zeros((len(positions), len(TERMS)), dtype=np.int64)
    tb = np.zeros_like(ta)
    terms_kernel(*a, ta)
    terms_kernel(*b, tb)
    assert np.array_equal(ta, tb)
    sa = np.zeros(len(positions), dtype=np.int64)
    sb = np.zeros_like(sa)
    weights = weights_array(None)
    evaluate_kernel(*a, weights, patterns_array(None), sa)
    evaluate_kernel(*b, weights, patterns_array(None), sb)
    assert np.array_equal(sa, sb)
    assert len(set(sa.tolist())) > 100
    # the evaluation sums the terms as it computes them: the same as the weighted sum of ``terms_kernel``'s rows
    rand = read_only(np.random.default_rng(3).integers(-3000, 3000, (2, len(TERMS))).astype(np.int64))
    for weights in (weights, rand):
        evaluate_kernel(*a, weights, patterns_array(False), sa)
        assert sa.tolist() == [scaled(tapered(int(x), int(y), int(o), int(q)), int(o), int(q), int(k))
                               for x, y, o, q, k in zip(ta @ weights[0], ta @ weights[1], a[0], a[1], a[2])]


def tapered(opening: int, endgame: int, own: int, opp: int) -> int:
    """The blend of the opening's and the endgame's sums by the pieces on the board: the opening's alone from
    40 pieces, the endgame's alone at 8 or fewer, linear in 32nds between (toward 0)."""
    p = min(max(bin(own | opp).count("1") - 8, 0), 32)
    x = opening * p + endgame * (32 - p)
    return x // 32 if x >= 0 else -(-x // 32)


def scaled(raw: int, own: int, opp: int, kings: int) -> int:
    """``_eval.scale`` on Python ints: halved when both sides have kings, divided by 8 when the side ahead has at
    most three pieces and the other a king (toward 0)."""
    def toward0(x, d):
        return x // d if x >= 0 else -(-x // d)

    if own & kings and opp & kings:
        raw = toward0(raw, 2)
    strong, weak = (own, opp) if raw > 0 else (opp, own)
    if raw != 0 and bin(strong).count("1") <= 3 and weak & kings:
        raw = toward0(raw, 8)
    return raw


def kernel_value(pos: Position, depth: int, weights=None, sacs: int | None = None) -> int:
    eng = Engine(hash_mb=1, weights=weights)
    if sacs is not None:
        eng._sacs = sacs
    return round(eng.search(pos, depth=depth, exact=True).score * UNIT)


def reference_value(pos: Position, depth: int, sacs: int | None = None) -> int:
    """The reference negamax with the position's move stack as history (as the engine reads it), with the
    engine's sacrifices in the quiescence search (``sacs``, default the engine's)."""
    from numba_words.draughts.engine import _history

    pieces, white = ref.parse_fen(pos.fen())
    history = []
    for k, _m in pos._stack:
        hp, hw = ref.parse_fen(Position.from_bitboards(*k).fen())
        history.append((frozenset(hp.items()), hw))
    _keys, rev, mat = _history(pos)
    weights = weights_array(None).tolist()
    if sacs is None:
        sacs = Engine(hash_mb=1)._sacs
    return ref.negamax(pieces, white, depth, weights, tuple(history), rev, mat, sacs=sacs,
                       patterns=patterns_array(None).tolist())


def small_cases(seed: int, n: int) -> list[tuple[Position, int]]:
    """``n`` random positions of 1-5 pieces a side that are not over, each with a depth (1-3 plies with kings,
    2-4 without)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = Position(random_fen(rng, 1, 5))
        if pos.outcome() is None:
            out.append((pos, rng.choice((1, 2, 3)) if pos.kings else rng.choice((2, 3, 4))))
    return out


def test_search_value_matches_plain_negamax():
    """The kernel's exact mode (alpha-beta without pruning that changes values) gives the minimax value."""
    for pos, depth in small_cases(3, 20):
        assert kernel_value(pos, depth) == reference_value(pos, depth), (pos.fen(), depth)


def test_sacrifices_in_the_quiescence_search_match_the_reference():
    """With sacrifices in the quiescence search (one and two plies of it), the kernel's exact value is the
    reference's, on men-only positions of random games; and the sacrifices change some values."""
    rng = random.Random(23)
    changed = checked = 0
    while checked < 24:
        pos = Game.selfplay(max_plies=rng.randrange(16, 70), seed=rng.randrange(1 << 30)).end()
        if pos.outcome() is not None or pos.kings:
            continue
        depth = rng.choice((1, 2, 3))
        sacs = 1 + checked % 2
        got = kernel_value(pos, depth, sacs=sacs)
        assert got == reference_value(pos, depth, sacs=sacs), (pos.fen(), depth, sacs)
        changed += got != reference_value(pos, depth, sacs=0)
        checked += 1
    assert changed >= 2


def test_leaf_scores_are_rounded_to_the_grain_outside_exact_mode():
    """With a grain (an experiment's setting), every score outside exact mode is a multiple of it (leaf scores
    are rounded toward 0) or a proven result; exact mode keeps the evaluation's own values."""
    grain = 20
    rng = random.Random(12)
    eng = Engine(hash_mb=1)
    eng._grain = grain
    unrounded = 0
    for pos in sample_positions(40, 13):
        if pos.outcome() is not None:
            continue
        r = eng.search(pos, depth=rng.randint(1, 4))
        if r.win_in is None:
            assert round(r.score * UNIT) % grain == 0, pos.fen()
        unrounded += kernel_value(pos, 1) % grain != 0
    assert unrounded > 0


def king_shuffle(rng: random.Random, fen: str, plies: int) -> Position:
    """``fen`` after up to ``plies`` random king moves that leave the opponent no capture (a history for
    the draw rules)."""
    pos = Position(fen)
    for _ in range(plies):
        safe = []
        for m in pos.legal_moves:
            if m.captured:
                continue
            pos.push(m)
            if not any(x.captured for x in pos.legal_moves) and pos.outcome() is None:
                safe.append(m)
            pos.pop()
        if not safe:
            break
        pos.push(rng.choice(safe))
    return pos


def test_draw_rules_inside_the_search_match_the_reference():
    """Kings-only endings with move histories: repetitions, the 5- and 16-move rules and the 25-move rule fall
    inside the search tree; the kernel's value is the reference's."""
    rng = random.Random(4)
    draws = n = 0
    while n < 16:
        (k1, k2), plies = rng.choice((((2, 1), 8), ((1, 1), 9), ((3, 1), 30), ((1, 2), 8), ((2, 2), 48),
                                      ((3, 1), 6)))
        sqs = rng.sample(range(1, 51), k1 + k2)
        fen = (f"{rng.choice('WB')}:W{','.join('K%d' % s for s in sqs[:k1])}"
               f":B{','.join('K%d' % s for s in sqs[k1:])}")
        pos = king_shuffle(rng, fen, plies)
        if pos.outcome() is not None or len(pos.move_stack) < plies:
            continue
        want = reference_value(pos, 2)
        assert kernel_value(pos, 2) == want, pos.fen()
        draws += want == 0
        n += 1
    assert draws >= 3  # the rules did decide some of them


def test_repetition_is_the_only_escape():
    """White's lone king against a won black army: every move loses but 36-31, which repeats the position
    after White's first 36-31 (a draw by the search's repetition rule): the search plays it, scoring 0."""
    pos = Position("W:WK36:BK5,1,2,3,6,7,8")
    for mv in ("36-31", "5-10", "31-36", "10-5"):
        pos.push_notation(mv)
    r = Engine(hash_mb=1).search(pos, depth=4)
    assert r.move.notation == "36-31" and r.score == 0.0
    assert Engine(hash_mb=1).search(pos.copy(stack=False), depth=4).score < -2  # without the history: lost
    assert reference_value(pos, 2) == kernel_value(pos, 2) == 0


def assert_plays_out(pos: Position, r) -> None:
    """``r``'s move is legal in ``pos`` and heads its PV, every move of which is legal in turn."""
    assert r.move in pos.legal_moves and r.pv[0] == r.move
    p = pos.copy()
    for m in r.pv:
        assert m in p.legal_moves
        p.push(m)


def test_moves_are_legal_and_pv_plays_out():
    rng = random.Random(5)
    eng = Engine(hash_mb=4)
    for pos in sample_positions(80, 6):
        if pos.outcome() is not None:
            continue
        r = eng.search(pos, depth=rng.randint(1, 6), nodes=rng.choice((None, 50, 3000)))
        assert isinstance(r, SearchResult)
        assert_plays_out(pos, r)
        assert r.ponder == (r.pv[1] if len(r.pv) > 1 else None)
        assert r.depth >= 1 and r.nodes >= 1



def test_moby_dam_style_settings_keep_moves_legal_and_exact_values():
    """Moby Dam's search variants (table cut-offs in PV nodes, its reductions, its root order), the capture
    threat extension, Scan's reductions from the second move and the sacrifices still return legal moves whose
    PV plays out, and change no exact value (the plain negamax, offering the same men)."""
    eng = Engine(hash_mb=4)
    eng._tt_pv, eng._lmr_depth, eng._lmr_all, eng._root_rank, eng._root_lmr, eng._lmr_pv = 1, 4, 1, 1, 0, 0
    eng._threat, eng._lmr_from, eng._sacs = 1, 1, 1
    for pos in sample_positions(20, 7):
        if pos.outcome() is not None:
            continue
        assert_plays_out(pos, eng.search(pos, depth=6))
    for pos, depth in small_cases(11, 6):
        assert (round(eng.search(pos, depth=depth, exact=True).score * UNIT) ==
                reference_value(pos, depth, sacs=eng._sacs))


def test_aspiration_windows_that_fail_find_the_plain_negamax_value():
    """A window of 1 milli-man around each depth's last score (every search fails high or low and is widened
    until the score falls inside) gives the plain negamax value in exact mode, where no table cut-off can
    change it; outside it, with the lazy evaluation too, every move and PV stays legal."""
    eng = Engine(hash_mb=1)
    eng._asp = 1
    rng = random.Random(41)
    checked = 0
    while checked < 8:
        pos = Position(random_fen(rng, 3, 5, king_p=0.0))
        if pos.outcome() is not None:
            continue
        depth = rng.choice((4, 5))
        assert round(eng.search(pos, depth=depth, exact=True).score * UNIT) == reference_value(pos, depth), \
            (pos.fen(), depth)
        checked += 1
    eng._lazy = 1500
    for pos in sample_positions(12, 9):
        if pos.outcome() is not None:
            continue
        assert_plays_out(pos, eng.search(pos, depth=7))


def test_limits_by_counts():
    eng = Engine(hash_mb=4)
    pos = Position()
    r = eng.search(pos, nodes=3000)
    assert 1 <= r.nodes <= 3000
    depths = []
    caller = threading.get_ident()
    r = eng.search(pos, depth=5, callback=lambda res: depths.append((res.depth, threading.get_ident())))
    assert r.depth == 5 and [d for d, _ in depths] == [1, 2, 3, 4, 5]
    assert all(t == caller for _, t in depths)
    stop = threading.Event()
    stop.set()  # stopped before it starts: depth 1 still gives a legal move
    r = eng.search(pos, depth=40, stop=stop)
    assert r.move in pos.legal_moves and r.depth < 40
    r = eng.search(pos, time=1e-4)  # ends (eventually) with a legal move
    assert r.move in pos.legal_moves
    r = eng.search(pos, remaining=0.05, increment=0.01, moves_to_go=10)
    assert r.move in pos.legal_moves
    # a stop from another thread ends a search with no other limit
    stop = threading.Event()
    timer = threading.Timer(0.05, stop.set)
    timer.start()
    r = eng.search(pos, depth=100, stop=stop)
    timer.join()
    assert r.move in pos.legal_moves and r.depth < 100


@pytest.mark.parametrize("inc", [0.0, 0.5])
def test_a_clock_is_spread_over_the_game_and_never_runs_out(inc):
    # a sudden-death clock (or with an increment) spent to every move's hard limit over 400 moves, the pieces
    # thinning from 40 to 2: the clock never runs out, and a move gets a larger share of what is left as the
    # board empties (about remaining / 78 from the start position)
    left, shares = 60.0, []
    for move in range(400):
        pieces = max(2, 40 - move // 3)
        left += inc
        hard, soft = _budget(None, left, inc, None, pieces)
        assert 0 < soft <= hard < left
        shares.append((hard - 0.8 * inc) / left)
        left -= hard
    assert left > 0
    assert inc or all(b >= a - 1e-12 for a, b in zip(shares, shares[1:]))
    hard, soft = _budget(None, 78.0, 0.0, None, 40)
    assert soft == pytest.approx(0.6) and hard == pytest.approx(2.5)
    # moves to go, when given, decide instead of the pieces
    assert _budget(None, 60.0, 0.0, 10, 40) == _budget(None, 60.0, 0.0, 10, 4) == (pytest.approx(15.0),
                                                                                   pytest.approx(3.6))


def test_a_kernel_stops_itself_at_its_deadline():
    """With a deadline in ``params`` the search kernel stops a depth part way by itself (it sets the stop word
    its threads share), where nothing else stops it before its node limit; without one only that limit does."""
    from numba_words._jit import MONOTONIC, monotonic_now
    from numba_words.draughts import _engine as K

    if MONOTONIC is None:
        pytest.skip("no monotonic clock in this C library")
    eng = Engine(hash_mb=4)
    pos = Position()
    own, opp = pos.white, pos.black
    lane = eng._lanes[0]
    for deadline in (1, 0):
        params = eng._params(200_000_000, 0, 0, 0)
        params[K.P_DEPTH] = 40
        params[K.P_DEADLINE] = monotonic_now() + 20_000_000 if deadline else 0
        ctl = np.zeros(2, dtype=np.int64)
        pv = np.zeros(3 * (K.MAX_PLY + 1), dtype=np.uint64)
        info = np.zeros(K.N_INFO, dtype=np.int64)
        if not deadline:
            params[K.P_NODES] = 300_000
        K.search_kernel(np.uint64(own), np.uint64(opp), np.uint64(pos.kings), True, params, ctl, eng._tt,
                        lane["ws"], lane["killers"], lane["history"], eng.table, eng.patterns, np.zeros(1, dtype=np.uint64),
                        pv, info)
        assert info[K.I_DONE] == 0
        assert ctl[0] == deadline
        assert ctl[1] < 200_000_000 if deadline else ctl[1] == 300_000


def test_lines_of_triples_become_the_moves_positions_make():
    """``line_moves`` (the PV's triples as moves, slides built directly) gives the moves, paths and notation
    that the positions' own move lists give, on random lines of random games, and stops at a triple that is not
    legal."""
    from numba_words.draughts.moves import line_moves

    rng = random.Random(17)
    checked = 0
    for pos in sample_positions(120, 23):
        line, p = [], pos.copy(stack=False)
        for _ in range(rng.randint(1, 14)):
            legal = list(p.legal_moves)
            if not legal:
                break
            line.append(rng.choice(legal))
            p.push(line[-1])
        triples = [m._xor for m in line] + [(1, 2, 3)]
        got = line_moves(pos.white, pos.black, pos.kings, pos.turn, triples)
        assert got == line and [m.path for m in got] == [m.path for m in line]
        assert [m.notation for m in got] == [m.notation for m in line]
        assert [m._xor for m in got] == [m._xor for m in line]
        checked += len(line)
    assert checked > 500


def test_child_keys_are_the_keys_of_the_children():
    """The search's Zobrist key of a child, made from its parent's key and the move's XOR triple, is the key of
    the position the move makes, on every move (captures by kings, crownings) of random positions."""
    from numba_words.draughts._engine import child_key, key_of

    checked = 0
    for pos in sample_positions(300, 29):
        parent = key_of(pos.white, pos.black, pos.kings, pos.turn)
        for m in pos.legal_moves:
            child = pos.copy(stack=False)
            child.push(m)
            a, b, c = (np.uint64(x) for x in m._xor)
            got = child_key(np.uint64(parent), a, b, c, 0 if pos.turn else 1)
            assert int(got) == key_of(child.white, child.black, child.kings, child.turn), (pos.fen(), str(m))
            checked += 1
    assert checked > 1000


def test_ctrl_c_returns_the_best_move_so_far():
    import _thread

    pos = Position()
    timer = threading.Timer(0.05, _thread.interrupt_main)
    timer.start()
    r = Engine(hash_mb=4).search(pos, depth=100)  # no KeyboardInterrupt escapes: the search ends with a move
    timer.join()
    assert r.move in pos.legal_moves and r.depth < 100


def test_forced_win_is_reported_in_plies():
    # the side to move takes the last opposing piece: a win in one ply
    for fen, move in (("W:WK28:B23", "28x"), ("B:WK28:B23", "23x32")):
        r = Engine(hash_mb=1).search(Position(fen), depth=3)
        assert r.move.notation.startswith(move) and r.win_in == 1 and r.score_text() == "win in 1"


def test_two_threads():
    pos = Game(moves=["32-28", "18-23", "37-32", "12-18"]).end()
    one = Engine(hash_mb=8).search(pos, depth=6)
    depths = []
    two = Engine(threads=2, hash_mb=8).search(pos, depth=6, callback=lambda r: depths.append((r.depth, r.move)))
    assert two.move in pos.legal_moves and two.depth == 6
    assert abs(one.score - two.score) < 1.0
    # each finished depth once, deepest first from whichever thread finished it, up to the depth asked for
    assert [d for d, _ in depths] == sorted({d for d, _ in depths}) and depths[-1][0] == 6
    assert all(m in pos.legal_moves for _, m in depths)


def test_play_game_and_pdn():
    a = Engine(hash_mb=2, depth=2, name="a")
    b = Engine(hash_mb=2, depth=1, name="b")
    g = play_game(a, b, start="B:W31-50:B1-20", max_plies=40)
    assert g.headers["White"] == "b" and g.headers["Black"] == "a" and len(g) <= 40
    assert g.start_fen == "B:W31-50:B1-20"
    back = read_pdn(write_pdn(g))[0]
    assert back.moves == g.moves and back.result == g.result
    # a finished game: a king ending the 5-move rule draws (or one side wins)
    g = play_game(Engine(hash_mb=1, depth=3), Engine(hash_mb=1, depth=3), start="W:WK46,K50:BK5", time=None)
    assert g.result in ("1-1", "2-0", "0-2") and g.outcome() is not None
    with pytest.raises(EngineError):
        play_game(lambda p: "32-29", Engine(depth=1), max_plies=2)


def test_position_search_and_bad_input():
    r = Position().search(depth=3)
    assert r.depth == 3 and r.move in Position().legal_moves
    eng = Engine(hash_mb=1)
    for kw in ({}, {"depth": 0}, {"depth": 1.5}, {"depth": True}, {"time": -1}, {"time": float("nan")},
               {"nodes": 0}, {"time": "1"}, {"depth": 2, "callback": 3}, {"depth": 2, "stop": 1},
               {"remaining": -1.0}, {"depth": 2, "moves_to_go": 0}):
        with pytest.raises(EngineError):
            eng.search(Position(), **kw)
    for kw in ({"threads": 0}, {"threads": "2"}, {"hash_mb": 0}, {"hash_mb": 1.5}, {"depth": 0}):
        with pytest.raises(EngineError):
            Engine(**kw)
    with pytest.raises(EngineError):
        eng.search(42, depth=1)
    assert Engine(hash_mb=1).search("W:W50:B1", depth=3).move is not None
    assert Engine(hash_mb=1).search("W:W46:B37,41", depth=2).move is None  # blocked: no legal move


def test_weights_files_are_validated(tmp_path):
    good = "\n".join(f"{t} 0.5" for t in TERMS)
    assert parse_weights(good)["men"] == 0.5
    for text in (good + "\nmen 1", good.replace("men 0.5", "men x"), good.replace("men 0.5", "men inf"),
                 good.replace("men 0.5", ""), good + "\nfoo 1", good.replace("men 0.5", "men 1 2 3")):
        with pytest.raises(WeightsError):
            parse_weights(text)
    f = tmp_path / "w.txt"
    f.write_text(good)
    e = Engine(hash_mb=1, weights=str(f))
    assert not e.weights.flags.writeable and e.weights.shape == (2, len(TERMS))
    assert e.weights[0, 0] == e.weights[1, 0] == 500
    # tapered: an opening and an endgame weight, from a file line or a dict pair
    tapered_text = good.replace("centre 0.5", "centre 0.25 -0.125")
    assert parse_weights(tapered_text)["centre"] == (0.25, -0.125)
    f.write_text(tapered_text)
    c = TERMS.index("centre")
    e = Engine(hash_mb=1, weights=str(f))
    assert e.weights[:, c].tolist() == [250, -125]
    # the search's table: 32nds of the blend for each count of pieces, read-only
    assert not e.table.flags.writeable
    assert [e.table[n, c] for n in (40, 24, 8, 2)] == [32 * 250, 16 * 250 - 16 * 125, -32 * 125, -32 * 125]
    e.weights = np.zeros(3)  # (set by hand: checked before it reaches a kernel)
    with pytest.raises(WeightsError):
        e.table
    loaded = load_weights(str(f))
    assert loaded["centre"] == (0.25, -0.125) and loaded["men"] == (0.5, 0.5)
    assert Engine(hash_mb=1, weights=loaded).weights.tolist() == Engine(hash_mb=1, weights=str(f)).weights.tolist()
    for bad in ([1.0] * 3, {"men": 1.0}, str(tmp_path / "missing.txt"), [float("nan")] * len(TERMS),
                [[1.0] * len(TERMS)] * 3, {t: (1.0, 2.0, 3.0) for t in TERMS}, {t: "x" for t in TERMS}):
        with pytest.raises(WeightsError):
            Engine(hash_mb=1, weights=bad)


def test_window_numbers_match_the_reference():
    positions = sample_positions(150, 5) + config_positions(2)
    own, opp, kings, white = side_arrays(positions)
    got = np.zeros((len(positions), N_WINDOWS), dtype=np.int64)
    indices_kernel(own & ~kings, opp & ~kings, white, got)
    for i, p in enumerate(positions):
        assert list(got[i]) == ref.windows(*ref.parse_fen(p.fen())), p.fen()


def test_window_values_are_checked(tmp_path):
    a = patterns_array(None)
    assert a.shape == (N_WINDOWS, N_CONF, 2) and a.dtype == np.int16 and not a.flags.writeable
    assert not patterns_array(False).any()
    one = np.arange(N_WINDOWS * N_CONF, dtype=np.int64).reshape(N_WINDOWS, N_CONF) % 2000 - 1000
    assert np.array_equal(patterns_array(one)[..., 0], one) and np.array_equal(patterns_array(one)[..., 1], one)
    bad_file = tmp_path / "bad.npy"
    bad_file.write_bytes(b"not an array")
    for bad in (np.zeros((N_WINDOWS, N_CONF - 1), np.int16), np.zeros((N_WINDOWS, N_CONF)),
                np.zeros((N_WINDOWS, N_CONF, 3), np.int16), np.zeros((N_WINDOWS, N_CONF, 2), np.float32),
                np.full((N_WINDOWS, N_CONF), 1 << 15), bad_file, tmp_path / "missing.npy", True, 3):
        with pytest.raises(WeightsError):
            Engine(hash_mb=1, patterns=bad)
    np.save(bad_file, np.zeros(3, np.int16))
    engine = Engine(hash_mb=1)
    for bad in (bad_file, np.zeros((2, 2), np.int16)):
        with pytest.raises(WeightsError):
            engine.patterns = bad  # an array the kernel would read out of bounds is refused when set
    assert engine.patterns.shape == (N_WINDOWS, N_CONF, 2)
    good = tmp_path / "good.npy"
    np.save(good, np.ones((N_WINDOWS, N_CONF), np.int32))
    arrays = side_arrays(sample_positions(20, 3))
    scores = [np.zeros(20, np.int64) for _ in range(2)]
    for table, out in zip((False, good), scores):
        evaluate_kernel(*arrays, weights_array(None), Engine(hash_mb=1, patterns=table).patterns, out)
    no_kings = arrays[2] == 0  # every window adds 1 milli-man for the side to move (before the kings' scaling)
    assert no_kings.any() and np.all((scores[1] - scores[0])[no_kings] == N_WINDOWS)
