"""Perft's move generators (``count_moves``, ``perft_gen``, ``perft_captures``) against
``legal_moves`` move for move, on the positions of random games and on random capture-rich boards (where
``legal_moves`` is also checked against the plain-Python reference); and the geometric fact
that lets ``perft_captures`` skip the duplicate scan for short captures, checked with the reference."""
from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest

from numba_words.draughts import Position, _reference as ref, perft
from numba_words.draughts._movegen import DUP_MIN, MOVES_OFF, count_moves, make_workspace, perft_captures
from numba_words.draughts._search import perft_gen
from numba_words.draughts.search import _root

STARTS = [
    "W:W31-50:B1-20",
    "W:WK31-50:BK1-20",
    "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    "W:W28,31,32,33,34,36,37,38,K3,K9:B11,12,13,14,16,17,18,19,K42,K48",
    "B:WK2,6,K12,K22,K31,K39,K40,K41,K44,K47,K48,K49:BK3,K15",
    "W:WK46,K50:B7,8,9,12,13,17,18,19,22,23,24,27,28,29,32,33,34",
    "W:WK48,K50:B6,7,8,10,17,21,23,25,29,31,34,39,40,41,42,43",
    "B:WK3,K47,28,33:BK12,K44,19,24,25",
    "B:W21,22,31,32,34-36,38-50:B1-11,13-20",  # 17x17: a man takes four pieces round and comes home
]


def _listed(fn, root, ws):
    n = fn(*root, ws, np.int64(MOVES_OFF))
    return n, sorted(tuple(int(x) for x in ws[MOVES_OFF + 3 * i:MOVES_OFF + 3 * i + 3]) for i in range(max(n, 0)))


def _check(pos, ws):
    """Every perft generator against ``legal_moves`` on one position; returns whether it has a capture."""
    root = _root(pos)
    want = sorted(m._xor for m in pos.legal_moves)
    n, got = _listed(perft_gen, root, ws)
    assert got == want, pos.fen()
    c = count_moves(*root)
    assert c == len(want) or (c == -1 and want and want[0][1] != 0), pos.fen()
    capture = bool(want) and any(b for _, b, _ in want)
    if capture:
        _, full = _listed(perft_captures, root, ws)
        assert full == want, pos.fen()
        assert c == -1 or all(bin(b).count("1") <= 3 for _, b, _ in want)
    return capture


@pytest.mark.parametrize("fen", STARTS)
def test_perft_generators_agree_with_legal_moves_in_random_games(fen):
    rng = random.Random(fen)
    ws = make_workspace(np.int64(1))
    captures = 0
    for _ in range(60):
        pos = Position.from_fen(fen)
        for _ in range(60):
            captures += _check(pos, ws)
            moves = list(pos.legal_moves)
            if not moves:
                break
            pos.push(rng.choice(moves))
    assert captures > 100  # the games went through captures, not only slides


def _capture_rich(rng, king_share=0.6):
    """A random board where one to three pieces (men or kings) of the side to move face many opponents."""
    squares = rng.sample(range(1, 51), rng.randint(5, 32) if king_share > 0.3 else rng.randint(20, 40))
    k = rng.randint(1, 3)
    white, black, kings = [], [], []
    for i, s in enumerate(squares):
        if i < k:
            white.append(s)
            if s <= 5 or rng.random() < king_share:
                kings.append(s)
        else:
            black.append(s)
            if s >= 46 or rng.random() < 0.2:
                kings.append(s)
    return white, black, kings


def test_perft_generators_on_capture_rich_boards():
    from numba_words.draughts._tables import bits_of

    rng = random.Random(9)
    ws = make_workspace(np.int64(1))
    long = home = 0
    for i in range(4000):
        w, b, k = _capture_rich(rng, 0.6 if i % 2 else 0.05)  # every other board: men in a crowd
        white_to_move = i % 4 < 2
        if not white_to_move:  # the board mirrored: Black attacks (men move and crown the other way)
            w, b, k = [51 - s for s in b], [51 - s for s in w], [51 - s for s in k]
        pos = Position.from_bitboards(bits_of(w), bits_of(b), bits_of(k), white_to_move)
        _check(pos, ws)
        moves = list(pos.legal_moves)
        pieces, white = ref.parse_fen(pos.fen())  # and legal_moves, which the kernel lists, against plain Python
        assert {(m.from_square, m.to_square, frozenset(m.captured)) for m in moves} == ref.legal_moves(pieces, white)
        long += bool(moves) and len(moves[0].captured) >= DUP_MIN
        home += any(m.captured and m.from_square == m.to_square and m.from_square not in k for m in moves)
    assert long > 50 and home > 10  # long captures, and men taking pieces round back to their square


def test_short_captures_have_no_second_route():
    """Two routes that take the same pieces between the same squares need at least ``DUP_MIN`` captures (a
    closed loop), so shorter captures skip the duplicate scan. Checked with the reference, which lists
    every capture route (every landing square, every order), on random capture-rich boards."""
    rng = random.Random(4)
    shortest = 99
    for _ in range(4000):
        w, b, k = _capture_rich(rng)
        pieces = {s: ("W" if s in k else "w") for s in w} | {s: ("B" if s in k else "b") for s in b}
        orders = defaultdict(set)
        for f, t, taken in ref.captures(pieces, True):
            orders[(f, t, frozenset(taken))].add(taken)
        for (_, _, taken), seen in orders.items():
            if len(seen) > 1:
                shortest = min(shortest, len(taken))
    assert shortest == DUP_MIN == 4


@pytest.mark.parametrize("fen, depth", [(f, d) for f, d in zip(STARTS, (5, 5, 7, 5, 3, 5, 5, 5, 5))])
def test_leaves_mode_equals_bulk_counting_and_the_reference(fen, depth):
    pos = Position.from_fen(fen)
    bulk = perft(pos, depth)
    assert perft(pos, depth, leaves=True) == bulk
    pieces, white = ref.parse_fen(pos.fen())
    assert perft(pos, 3) == ref.perft(pieces, white, 3)
