"""The kernel against the plain-Python reference generator (numba_words/draughts/_reference.py), move for move."""
from __future__ import annotations

import random

import pytest

from numba_words.draughts import _reference as ref
from numba_words.draughts import Position, perft


def kernel_moves(pos: Position):
    return {(m.from_square, m.to_square, frozenset(m.captured)) for m in pos.legal_moves}


def check(fen: str):
    pieces, white = ref.parse_fen(fen)
    pos = Position.from_fen(fen)
    want = ref.legal_moves(pieces, white)
    got = kernel_moves(pos)
    assert got == want, fen
    # resulting positions agree too
    for m in pos.legal_moves:
        child = ref.play(pieces, white, (m.from_square, m.to_square, frozenset(m.captured)))
        pos.push(m)
        assert pos.fen() == Position.from_fen(ref.fen(child, not white)).fen(), (fen, m)
        pos.pop()
    return want


def random_position(rng: random.Random) -> str:
    """Random legal-looking placement with plenty of kings (no men on their crowning row)."""
    squares = rng.sample(range(1, 51), rng.randint(2, 30))
    half = rng.randint(1, len(squares) - 1)
    kp = rng.random()
    w, b = [], []
    for i, s in enumerate(squares):
        white = i < half
        king = rng.random() < kp or (white and s <= 5) or (not white and s >= 46)
        (w if white else b).append(("K" if king else "") + str(s))
    return f"{rng.choice('WB')}:W{','.join(w)}:B{','.join(b)}"


def playout_positions(n_games: int, seed: int, start=None):
    rng = random.Random(seed)
    for _ in range(n_games):
        fen = start or random_position(rng)
        pieces, white = ref.parse_fen(fen)
        for _ply in range(200):
            yield ref.fen(pieces, white)
            moves = sorted(ref.legal_moves(pieces, white), key=lambda m: (m[0], m[1], sorted(m[2])))
            if not moves:
                break
            pieces = ref.play(pieces, white, rng.choice(moves))
            white = not white


def test_reference_agrees_on_random_playouts():
    """Tens of thousands of positions: games from the start, and from random king-rich placements."""
    n = 0
    long_caps = 0
    king_pos = 0
    for fen in list(playout_positions(150, seed=3, start="W:W31-50:B1-20")) + list(playout_positions(1000, seed=4)):
        moves = check_fast(fen)
        n += 1
        long_caps += any(len(c) >= 3 for _, _, c in moves)
        king_pos += "K" in fen
    print(n, long_caps, king_pos)
    assert n >= 20_000
    assert long_caps >= 300 and king_pos >= 5_000


def check_fast(fen):
    pieces, white = ref.parse_fen(fen)
    want = ref.legal_moves(pieces, white)
    got = kernel_moves(Position.from_fen(fen))
    assert got == want, fen
    return want


def test_reference_agrees_on_resulting_positions():
    rng = random.Random(11)
    fens = list(playout_positions(200, seed=12))
    for fen in rng.sample(fens, 1500):
        check(fen)


@pytest.mark.parametrize("fen, depth", [
    ("W:W31-50:B1-20", 4),
    ("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 6),
    ("W:WK31-50:BK1-20", 3),
    ("B:WK3,K47,28,33:BK12,K44,19,24,25", 4),
])
def test_reference_perft(fen, depth):
    pieces, white = ref.parse_fen(fen)
    assert perft(Position.from_fen(fen), depth) == ref.perft(pieces, white, depth)


@pytest.mark.slow
def test_reference_agrees_on_many_more_positions():
    for fen in playout_positions(1500, seed=99):
        check_fast(fen)
