"""Learn the draughts evaluation's window values (``numba_words/draughts/_patterns.py``) from self-play.

``gen``: self-play games from random openings (2-8 random plies), each move a search of ``--nodes`` nodes with
the current engine, one move in 25 a random one (so that the games leave the engine's own lines). Every
position met that is quiet for the side to move and has no king is saved with the score of its search
(milli-men, side to move): an ``.npy`` array of rows ``(own, opp, white, score, game)``, rewritten every
minute, so a run can be stopped at any time.

``fit``: least squares of what the search found beyond the evaluation without windows (the score, both
clipped to 3 men, less that evaluation, clipped to ``--clip``) on the windows' configurations, two values a
configuration of a window (the opening's and the endgame's, their columns weighted by the phase of the
position as the evaluation blends them; ``--phases 1``: one value), ridge-damped (``--damp``); every fifth
game is held out, and the mean squared
error of the evaluation against the scores is printed for the held-out games with and without the windows.
The values are written as ``int16`` milli-men (``--out``; the package's file is
``numba_words/data/draughts_patterns.npy``). Usage::

    python benchmarks/draughts_patterns.py gen --minutes 40 --seed 1 --out data1.npy
    python benchmarks/draughts_patterns.py fit data1.npy data2.npy --out patterns.npy
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
from draughts_tune import opening, opening_share

from numba_words.draughts import Engine
from numba_words.draughts._eval import evaluate_kernel
from numba_words.draughts._patterns import N_CONF, N_WINDOWS, indices_kernel
from numba_words.draughts.engine import load_weights, patterns_array, weights_array

CAP = 3000  # milli-men: scores beyond three men are clipped


def generate(args) -> None:
    rng = random.Random(args.seed)
    engine = Engine(hash_mb=args.hash, patterns=False if args.patterns == "none" else args.patterns)
    rows: list = []
    t_end = time.time() + 60 * args.minutes
    saved = time.time()
    game = 0
    while time.time() < t_end:
        pos = opening(rng, rng.randint(2, 8))
        engine.new_game()
        for _ in range(args.max_plies):
            if pos.outcome() is not None:
                break
            moves = list(pos.legal_moves)
            r = engine.search(pos, nodes=args.nodes)
            if not pos.kings and r.win_in is None and not any(m.captured for m in moves):
                own, opp = (pos.white, pos.black) if pos.turn else (pos.black, pos.white)
                rows.append((own, opp, int(pos.turn), int(round(r.score * 1000)), game))
            pos.push(rng.choice(moves) if len(moves) > 1 and rng.random() < 0.04 else r.move)
        game += 1
        if time.time() - saved > 60:
            np.save(args.out, np.array(rows, np.int64))
            saved = time.time()
    np.save(args.out, np.array(rows, np.int64).reshape(-1, 5))
    print(f"{game} games, {len(rows)} positions -> {args.out}")


def design(own, opp, white, phases=2):
    """The sparse rows of window configurations of many positions (no kings): one 1 a window, or with two
    phases the opening's share ``p / PHASES`` in the opening's column and the rest in the endgame's."""
    import scipy.sparse as sp

    n = own.shape[0]
    idx = np.zeros((n, N_WINDOWS), np.int64)
    indices_kernel(own, opp, white, idx)
    rows = np.repeat(np.arange(n), N_WINDOWS)
    cols = (idx + np.arange(N_WINDOWS) * N_CONF).ravel() * phases
    if phases == 1:
        return sp.csr_matrix((np.ones(n * N_WINDOWS), (rows, cols)), shape=(n, N_WINDOWS * N_CONF))
    pieces = np.array([bin(int(a) | int(b)).count("1") for a, b in zip(own, opp)])
    share = np.repeat(opening_share(pieces), N_WINDOWS)
    return sp.csr_matrix((np.concatenate([share, 1 - share]), (np.concatenate([rows, rows]),
                                                               np.concatenate([cols, cols + 1]))),
                         shape=(n, N_WINDOWS * N_CONF * 2))


def fit(args) -> None:
    from scipy.sparse.linalg import lsqr

    parts = []
    for k, f in enumerate(args.data):
        a = np.load(f)
        a[:, 4] += k << 32  # games of different files stay apart
        parts.append(a)
    a = np.concatenate(parts)
    own, opp = a[:, 0].astype(np.uint64), a[:, 1].astype(np.uint64)
    white, score, game = a[:, 2].astype(np.bool_), np.clip(a[:, 3], -CAP, CAP), a[:, 4]
    n = len(a)
    base = np.zeros(n, np.int64)
    evaluate_kernel(own, opp, np.zeros(n, np.uint64), white, weights_array(load_weights(args.weights)),
                    patterns_array(False), base)
    resid = np.clip(score - np.clip(base, -CAP, CAP), -args.clip, args.clip).astype(np.float64)
    x = design(own, opp, white, args.phases)
    held = (np.unique(game, return_inverse=True)[1] % 5) == 4
    w = lsqr(x[~held], resid[~held], damp=args.damp, atol=1e-9, btol=1e-9, iter_lim=args.iters)[0]
    pred = x @ w

    def mse(v, m):
        return float(np.mean((np.clip(v[m], -CAP, CAP) - score[m]) ** 2)) / 1e6

    print(f"{n} positions of {len(np.unique(game))} games, {held.sum()} held out")
    print(f"mean squared error (men^2): fitted games {mse(base, ~held):.4f} -> {mse(base + pred, ~held):.4f}, "
          f"held-out games {mse(base, held):.4f} -> {mse(base + pred, held):.4f}")
    values = np.clip(np.round(w), -(1 << 15) + 1, (1 << 15) - 1).astype(np.int16)
    values = values.reshape(N_WINDOWS, N_CONF, args.phases)
    values = values[..., 0] if args.phases == 1 else values
    print(f"values: {int((values != 0).sum())} not 0, largest {int(np.abs(values).max())} milli-men")
    if args.out:
        np.save(args.out, values)
        print(f"-> {args.out}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="self-play positions scored by the search")
    g.add_argument("--minutes", type=float, default=10.0)
    g.add_argument("--nodes", type=int, default=200_000, help="nodes a move (default 200,000)")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--hash", type=int, default=64, help="transposition table, MiB")
    g.add_argument("--max-plies", type=int, default=300)
    g.add_argument("--patterns", default=None, help="window values of the engine that plays (default: the "
                   "package's; 'none': without)")
    g.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="fit the window values")
    f.add_argument("data", nargs="+", type=Path)
    f.add_argument("--damp", type=float, default=10.0, help="ridge damping (default 10)")
    f.add_argument("--clip", type=float, default=1500.0, help="largest residual, milli-men (default 1500)")
    f.add_argument("--phases", type=int, choices=(1, 2), default=2, help="values a configuration (default 2)")
    f.add_argument("--iters", type=int, default=3000)
    f.add_argument("--weights", type=Path, default=None, help="the evaluation's weights (default: the package's)")
    f.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    generate(args) if args.cmd == "gen" else fit(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
