"""Tune the draughts evaluation weights from the engine's own self-play games.

1. Self-play: games from random openings (``--random-plies`` random moves from the initial position), both
   sides the engine at a fixed short depth with the current weights; a game unfinished after ``--max-plies``
   counts as a draw.
2. Positions: every quiet position of the games past the opening (no capture for either side), with the
   game's result from the side to move's view (1 win, 0.5 draw, 0 loss).
3. Fit: logistic regression of the result on the evaluation terms, ``P(win) = 1 / (1 + exp(-terms . beta))``
   with soft (draw = 0.5) labels, each row scaled as the evaluation scales its sum (halved when both sides
   have kings, and so on: ``scales``), L2-regularised (``--l2``) toward the old weights (times their best
   scale), by Newton's method; the weights are ``beta / beta[men]`` (one man = 1.0). The material terms
   (``--fix``, default men and kings) keep their ratio (a king = 3 men): fitted freely on these games the king
   comes out near 2.3 men, and those weights lost a check match to the hand-set ones, while the positional
   terms alone are fitted. Games are split into a fit set and a held-out set (every fifth game); the
   log-loss on the held-out positions is reported for the old weights (with their best scale, fitted the
   same way) and for the new ones.
4. Match: the new weights against the old ones and against material only (men 1, kings 3), each opening
   played twice with colours swapped, at the same fixed depth.

Writes ``numba_words/data/draughts_weights.txt`` (``--out`` elsewhere). Usage::

    python benchmarks/draughts_tune.py --games 300 --depth 4 --match-games 40

With ``--mobydam-logs LOG ...`` (Moby Dam's ``engine.log`` from ``draughts_match.py`` folders) the target is
instead the score of each of Moby Dam's searches in those games (its own move, about depth 13 at 0.1 s): the
positions it searched that are quiet for the side to move, without kings, with as many men on each side and
scored within 1.5 men of 0 (with ``--unequal N`` also those where one side has up to N men more, scored within
1.5 men of that many: the men keep their weight, so a breakthrough bought with a man is fitted too); the
positional terms are fitted by least squares with an intercept (Moby Dam,
the stronger side, is ahead on average; the evaluation itself has none), ridge-regularised (``--ridge``), on
four positions of five; the fifth are held out. With ``--tapered`` the fit gives each term an opening and an
endgame weight, blended by the pieces on the board as the evaluation blends them (``tapered_columns``). The material and king terms keep their old weights (no king
is on these boards), and there is no check match: draughts_match.py is the check.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

import numpy as np
from _mobydam import MD_MAN
from draughts_starts import quiet

from numba_words.draughts import Engine, Position
from numba_words.draughts._eval import PHASE_LOW, PHASES, TERMS, UNIT, terms_kernel
from numba_words.draughts.engine import weights_array

OUT = Path(__file__).resolve().parents[1] / "numba_words" / "data" / "draughts_weights.txt"
MATERIAL = {t: 0.0 for t in TERMS} | {"men": 1.0, "kings": 3.0}


def opening(rng: random.Random, plies: int) -> Position:
    while True:
        pos = Position()
        for _ in range(plies):
            moves = list(pos.legal_moves)
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.outcome() is None:
            return pos


def play(engines, start: Position, depth: int, max_plies: int):
    """(positions as (own, opp, kings, white), result for White: 1, 0.5, 0) of one game; ``engines[0]``
    plays White."""
    pos = start.copy()
    seen = []
    for e in engines:
        e.new_game()
    for _ in range(max_plies):
        out = pos.outcome()
        if out is not None:
            return seen, (0.5 if out.winner is None else float(out.winner))
        moves = list(pos.legal_moves)
        if not any(m.captured for m in moves):
            pos.turn = not pos.turn  # the opponent's view: no capture waiting for it either
            pos._cache = None
            calm = not any(m.captured for m in pos.legal_moves)
            pos.turn = not pos.turn
            pos._cache = None
            if calm:
                own, opp = (pos.white, pos.black) if pos.turn else (pos.black, pos.white)
                seen.append((own, opp, pos.kings, pos.turn))
        e = engines[0] if pos.turn else engines[1]
        pos.push(e.search(pos, depth=depth).move)
    return seen, 0.5


def read_mobydam_log(text: str) -> list[tuple[str, float]]:
    """``(FEN, score in men for the side to move)`` of each search in a Moby Dam ``engine.log``: the board it
    printed last (after a ``move=`` line: ten rows of five squares, then ``(w to move)``) and the ``score=`` of
    the search that follows."""
    lines = text.splitlines()
    out, board = [], None
    for i, line in enumerate(lines):
        if line.startswith("move=") and i + 10 < len(lines):
            cells = [c for r in range(10) for c in lines[i + 1 + r].split()[:5]]
            turn = re.search(r"\((\w) to move\)", lines[i + 10])
            if len(cells) == 50 and turn and all(c in "wWbB." for c in cells):
                white = [("K" if c == "W" else "") + str(k + 1) for k, c in enumerate(cells) if c in "wW"]
                black = [("K" if c == "B" else "") + str(k + 1) for k, c in enumerate(cells) if c in "bB"]
                board = f"{turn.group(1).upper()}:W{','.join(white)}:B{','.join(black)}"
        elif line.startswith("evals=") and board is not None and "score=" in line:
            out.append((board, int(line.split("score=")[1]) / MD_MAN))
    return out


def score_rows(logs, unequal: int = 0) -> tuple[list, np.ndarray]:
    """Rows ``(own, opp, kings, white)`` and Moby Dam's scores of the distinct positions of ``logs`` fitted by
    ``--mobydam-logs`` (see the module's docstring); ``unequal``: the most men one side may have more than the
    other (its score then within 1.5 men of that difference)."""
    rows, ys, seen = [], [], set()
    for path in logs:
        for fen, y in read_mobydam_log(Path(path).read_text(encoding="latin-1")):
            if fen in seen:
                continue
            seen.add(fen)
            p = Position(fen)
            own, opp = (p.white, p.black) if p.turn else (p.black, p.white)
            diff = bin(own).count("1") - bin(opp).count("1")
            if p.kings or abs(diff) > unequal or abs(y - diff) > 1.5:
                continue
            if not quiet(p):
                continue
            rows.append((own, opp, p.kings, p.turn))
            ys.append(y)
    return rows, np.array(ys)


def ridge(x, y, l2):
    """Least squares ``x @ b + c ~ y`` with a ridge penalty ``l2 * |b|^2``: ``(b, c)``."""
    xi = np.column_stack([x, np.ones(len(y))])
    pen = l2 * np.eye(xi.shape[1])
    pen[-1, -1] = 0.0
    b = np.linalg.solve(xi.T @ xi + pen, xi.T @ y)
    return b[:-1], b[-1]


def pieces_of(rows) -> np.ndarray:
    """Pieces on the board of each row."""
    return np.array([bin(r[0] | r[1]).count("1") for r in rows])


def opening_share(pieces) -> np.ndarray:
    """The opening weights' share of the evaluation's blend (0 to 1) with ``pieces`` pieces on the board
    (``_eval.phase``)."""
    return np.clip(np.asarray(pieces) - PHASE_LOW, 0, PHASES) / PHASES


def tapered_columns(x, pieces) -> np.ndarray:
    """``x`` as the evaluation weighs it with tapered weights: the columns times the opening's share of the
    blend, then times the endgame's (``_eval.phase``)."""
    share = opening_share(pieces)[:, None]
    return np.column_stack([x * share, x * (1.0 - share)])


def fit_scores(args, old) -> None:
    rows, y = score_rows(args.mobydam_logs, args.unequal)
    if len(y) < 100:
        raise SystemExit(f"{len(y)} usable positions in the logs: too few to fit")
    x = terms_of(rows)
    n = len(TERMS)
    # the columns: the terms as the evaluation weighs them with tapered weights (opening's, then endgame's), or
    # with one weight a term (the same in both phases)
    cols = tapered_columns(x, pieces_of(rows)) if args.tapered else x
    fixed = [TERMS.index(t) for t in ("men", "kings", "kingmob", "diagonal", "kingsq")]
    free = [i for i in range(n) if i not in fixed]
    if args.tapered:
        free = free + [n + i for i in free]
    test = np.arange(len(y)) % 5 == 4
    w0 = (old / UNIT).reshape(-1) if args.tapered else (old[0] / UNIT)
    fixed_cols = [i for i in range(cols.shape[1]) if i not in free]
    offset = cols[:, fixed_cols] @ w0[fixed_cols]  # the material (men) where one side has more
    b, c = ridge(cols[~test][:, free], (y - offset)[~test], args.ridge)
    new = w0.copy()
    new[free] = b
    mse = lambda w, k: float(np.mean((cols[test] @ w + k - y[test]) ** 2))  # noqa: E731
    k_old = float(np.mean(y[~test] - cols[~test] @ w0))
    print(f"{len(y)} positions from {len(args.mobydam_logs)} logs, {int(test.sum())} held out; Moby Dam's mean "
          f"score {y.mean():+.4f}, intercept {c:+.4f}")
    print(f"held-out mean squared error (men^2): zero {mse(np.zeros_like(w0), float(np.mean(y[~test]))):.5f}, "
          f"old weights {mse(w0, k_old):.5f}, new {mse(new, c):.5f}")
    new = np.clip(new.reshape(-1, n), -50, 50)
    w0 = w0.reshape(-1, n)
    for i, t in enumerate(TERMS):
        print(f"  {t:9s} {' '.join(f'{v:+8.4f}' for v in w0[:, i])} -> {' '.join(f'{v:+8.4f}' for v in new[:, i])}")
    form = "'term opening endgame'" if args.tapered else "'term value'"
    lines = [f"# International draughts evaluation weights, in men (1.0 = one man), one {form} line",
             "# per term of numba_words.draughts._eval.TERMS. Written by benchmarks/draughts_tune.py --mobydam-logs:",
             f"# least squares fit of Moby Dam's search scores on {len(y)} quiet positions without kings, "
             + ("as many men on each side" if not args.unequal else f"up to {args.unequal} men more on one side")
             + (", tapered (see numba_words.draughts._eval)." if args.tapered else ".")]
    lines += [f"{t} {' '.join(f'{v:.4f}' for v in new[:, i])}" for i, t in enumerate(TERMS)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


def terms_of(rows) -> np.ndarray:
    own = np.array([r[0] for r in rows], np.uint64)
    opp = np.array([r[1] for r in rows], np.uint64)
    kings = np.array([r[2] for r in rows], np.uint64)
    white = np.array([r[3] for r in rows], np.bool_)
    out = np.zeros((len(rows), len(TERMS)), dtype=np.int64)
    terms_kernel(own, opp, kings, white, out)
    return out.astype(np.float64)


def logloss(z, y):
    p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(x, y, l2, prior=None, iters=50):
    """Newton's method for logistic regression with soft labels, L2-regularised toward ``prior`` (zero when
    ``None``); no intercept: the terms are differences, antisymmetric in the colours."""
    n, k = x.shape
    prior = np.zeros(k) if prior is None else prior
    beta = prior.copy()
    for _ in range(iters):
        z = x @ beta
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        g = x.T @ (p - y) / n + l2 * (beta - prior)
        h = (x * (p * (1 - p))[:, None]).T @ x / n + l2 * np.eye(k)
        step = np.linalg.solve(h, g)
        beta -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return beta


def scales(rows, x, weights) -> np.ndarray:
    """The factor the evaluation applies to each row's weighted sum (``_eval.scale``): 1/2 when both sides
    have kings, and 1/8 more when the side the sum favours (by ``weights``) has at most three pieces against
    a king; so the fit models the evaluation as the search uses it."""
    out = np.ones(len(rows))
    raw = x @ weights
    for i, (own, opp, kings, _w) in enumerate(rows):
        if own & kings and opp & kings:
            out[i] *= 0.5
        strong, weak = (own, opp) if raw[i] > 0 else (opp, own)
        if raw[i] != 0 and bin(strong).count("1") <= 3 and weak & kings:
            out[i] /= 8
    return out


def match(a: Engine, b: Engine, openings, depth, max_plies):
    """(wins, draws, losses) of ``a`` against ``b``, each opening with both colours."""
    w = d = l = 0
    for start in openings:
        for a_white in (True, False):
            white_engine, black_engine = (a, b) if a_white else (b, a)
            _, res = play((white_engine, black_engine), start, depth, max_plies)
            mine = res if a_white else 1 - res
            w += mine == 1
            d += mine == 0.5
            l += mine == 0
    return w, d, l


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--match-games", type=int, default=40, help="openings of the check match (2 games each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--fix", nargs="*", default=["men", "kings"], metavar="TERM",
                    help="terms whose weights keep their old ratios (default: men kings, the material)")
    ap.add_argument("--save", type=Path, default=None, help="save the positions and results (.npz)")
    ap.add_argument("--data", type=Path, default=None, help="fit saved positions (.npz) instead of playing")
    ap.add_argument("--mobydam-logs", nargs="+", type=Path, default=None, metavar="LOG",
                    help="fit Moby Dam's search scores in these engine.log files instead (see above)")
    ap.add_argument("--ridge", type=float, default=100.0, help="ridge penalty of --mobydam-logs (default 100)")
    ap.add_argument("--unequal", type=int, default=0, metavar="MEN",
                    help="--mobydam-logs: also fit positions where one side has up to MEN men more (default 0)")
    ap.add_argument("--tapered", action="store_true",
                    help="--mobydam-logs: fit an opening and an endgame weight a term (see above)")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    old = weights_array(None)
    if args.mobydam_logs:
        return fit_scores(args, old)
    old = old[0]  # the self-play fit gives one weight a term, the same in every phase (from the opening's)
    eng = Engine(hash_mb=16, weights=old / UNIT)
    t0 = time.perf_counter()
    rows, labels, game_of, results = [], [], [], []
    if args.data is not None:
        z = np.load(args.data)
        rows = [tuple(int(v) for v in r[:3]) + (bool(r[3]),) for r in z["rows"]]
        labels, game_of, results = list(z["labels"]), list(z["games"]), list(z["results"])
        args.games = len(results)
    for g in range(args.games if args.data is None else 0):
        seen, res = play((eng, eng), opening(rng, args.random_plies), args.depth, args.max_plies)
        results.append(res)
        for r in seen:
            rows.append(r)
            labels.append(res if r[3] else 1.0 - res)
            game_of.append(g)
        if (g + 1) % 25 == 0:
            print(f"{g + 1} games, {len(rows)} positions, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.save is not None:
        np.savez(args.save, rows=np.array(rows, dtype=np.uint64), labels=np.array(labels),
                 games=np.array(game_of), results=np.array(results))
    x = terms_of(rows)
    x *= scales(rows, x, old / UNIT)[:, None]
    y = np.array(labels)
    test = np.array(game_of) % 5 == 4
    xf, yf, xt, yt = x[~test], y[~test], x[test], y[test]
    z_old = xt @ (old / UNIT)
    k_old = fit((xf @ (old / UNIT))[:, None], yf, 0.0)[0]
    # the fixed terms keep their old ratios: one column, their old weighted sum; the others are fitted
    fixed = [TERMS.index(t) for t in args.fix]
    free = [i for i in range(len(TERMS)) if i not in fixed]
    w0 = old / UNIT
    if fixed:
        cols = lambda m: np.column_stack([m[:, fixed] @ w0[fixed], m[:, free]])  # noqa: E731
        prior = np.concatenate([[k_old], k_old * w0[free]])
        b = fit(cols(xf), yf, args.l2, prior=prior)
        beta = np.zeros(len(TERMS))
        beta[fixed] = b[0] * w0[fixed]
        beta[free] = b[1:]
    else:
        beta = fit(xf, yf, args.l2, prior=k_old * w0)
    men = TERMS.index("men")
    if beta[men] <= 0:
        raise SystemExit(f"fit gave a non-positive man weight {beta[men]:.4g}: more games needed")
    new = beta / beta[men]
    print(f"{len(rows)} positions from {args.games} games (depth {args.depth}), {int(test.sum())} held out; "
          f"White +{results.count(1.0)} ={results.count(0.5)} -{results.count(0.0)}")
    print(f"held-out log-loss: constant 0.5 {logloss(np.zeros(len(yt)), yt):.4f}, old weights (scale "
          f"{k_old:.3f}/man) {logloss(k_old * z_old, yt):.4f}, new weights {logloss(xt @ beta, yt):.4f} "
          f"(fit set {logloss(xf @ beta, yf):.4f})")
    for t, o, n in zip(TERMS, old / UNIT, new):
        print(f"  {t:9s} {o:+8.3f} -> {n:+8.3f}")
    lines = ["# International draughts evaluation weights, in men (1.0 = one man), one 'term value' line per term",
             "# of numba_words.draughts._eval.TERMS. Written by benchmarks/draughts_tune.py: logistic fit of the",
             f"# results of {args.games} self-play games (depth {args.depth}) on {len(rows)} quiet positions,",
             f"# held-out log-loss {logloss(k_old * z_old, yt):.4f} -> {logloss(xt @ beta, yt):.4f}."]
    lines += [f"{t} {v:.4f}" for t, v in zip(TERMS, np.clip(new, -50, 50))]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    if args.match_games:
        mrng = random.Random(args.seed + 1)
        openings = [opening(mrng, args.random_plies) for _ in range(args.match_games)]
        tuned = Engine(hash_mb=16, weights=args.out)
        for name, other in (("old", old), ("material only", MATERIAL)):
            rival = Engine(hash_mb=16, weights=other if isinstance(other, dict) else other / UNIT)
            w, d, l = match(tuned, rival, openings, args.depth, args.max_plies)
            n = w + d + l
            print(f"tuned vs {name}: +{w} ={d} -{l} of {n} (score {(w + d / 2) / n:.1%})")


if __name__ == "__main__":
    main()
