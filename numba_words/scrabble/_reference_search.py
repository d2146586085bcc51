"""Plain-Python searches over the Python API: what the search kernels are measured against.

:func:`reference_endgame` is a memoised minimax over every play (:meth:`Position.legal_plays`) and the pass,
for endgames of a few tiles; :func:`python_playouts` plays simulation-style playouts by calling
:meth:`Position.best_move` at every turn. Both are slow on purpose: no pruning, no arrays.
"""
from __future__ import annotations

import random

from .leaves import tile_points
from .plays import _sort_rack


def reference_endgame(pos, passed: bool = False) -> tuple[int, int]:
    """``(value, nodes)``: the spread the side to move gets from ``pos`` (bag empty, both racks known) with best
    play by both sides, by plain minimax over every play and the pass, memoised on the board, both racks and
    whether the last move was a pass; ``nodes``: positions searched. A play that empties the rack gains twice
    the opponent's tiles; two passes in a row end the game, each side losing its own tiles."""
    memo: dict = {}
    value = _minimax(pos, passed, memo)
    return value, len(memo)


def _minimax(pos, passed, memo):
    from .endgame import _after

    key = (pos.board.letters.tobytes(), pos.board.blanks.tobytes(), pos.rack, pos.opp_rack, passed)
    if key in memo:
        return memo[key]
    v_opp = tile_points(pos.variant, pos.opp_rack)
    if passed:
        best = v_opp - tile_points(pos.variant, pos.rack)
    else:
        best = -_minimax(_after(pos, None), True, memo)
    for play in pos.legal_plays():
        if not play.leave:
            v = play.score + 2 * v_opp
        else:
            v = play.score - _minimax(_after(pos, play), False, memo)
        best = max(best, v)
    memo[key] = best
    return best


def python_playouts(pos, plays, iterations: int, plies: int = 2, seed: int = 0) -> list[float]:
    """Mean spread of each of ``plays`` (plays of ``pos``) over ``iterations`` playouts driven from Python: the
    opponent's rack drawn at random from the unseen tiles, the play made (the mover draws), then each side's
    best move by static equity (:meth:`Position.best_move`) for ``plies`` turns, drawing from the bag; an
    exchange swaps tiles with the bag. The spread counts scores only: a throughput baseline of the simulation
    kernel, not its estimate."""
    from .endgame import _after
    from .leaves import Exchange

    rng = random.Random(seed)
    rs = pos.variant.rack_size
    make = type(pos)._make
    total = [0.0] * len(plays)
    for _ in range(iterations):
        unseen = list(pos.unseen().elements())
        rng.shuffle(unseen)
        opp, bag0 = _sort_rack(unseen[:rs]), unseen[rs:]
        for j, play in enumerate(plays):
            q = _after(pos, play)
            k = min(len(play.placed), len(bag0))
            p = make(pos.variant, pos.lexicon, q.board, opp, _sort_rack(play.leave + "".join(bag0[:k])), q.scores, 0)
            bag = bag0[k:]
            spread, sign = play.score, -1
            for _ply in range(plies):
                p.leaves = pos.leaves
                m = p.best_move("equity")
                if m is None:
                    p = _after(p, None)
                elif isinstance(m, Exchange):  # new tiles first, then the old ones go back
                    k = len(m.tiles)
                    kept = _sort_rack(m.leave + "".join(bag[:k]))
                    bag = bag[k:] + list(m.tiles)
                    rng.shuffle(bag)
                    p = make(p.variant, p.lexicon, p.board, p.opp_rack, kept, (p.scores[1], p.scores[0]), 0)
                else:
                    spread += sign * m.score
                    q = _after(p, m)
                    k = min(len(m.placed), len(bag))
                    if not q.opp_rack and not k:  # went out
                        break
                    p = make(p.variant, p.lexicon, q.board, q.rack, _sort_rack(q.opp_rack + "".join(bag[:k])),
                             q.scores, 0)
                    bag = bag[k:]
                sign = -sign
            total[j] += spread
    return [t / iterations for t in total]
