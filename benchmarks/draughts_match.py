"""A match of our draughts engine against Moby Dam over DamExchange (DXP), from the two-move ballot openings.

    python benchmarks/draughts_match.py --mobydam PATH/mobydam/main/mobydam [--time 0.1] [--games N]
                                        [--skip N] [--out DIR] [--threads 1] [--hash 64] [--openings FILE]
                                        [--our-time T] [--weights FILE] [--patterns FILE] [--setting _lmr2=10 ...]

Moby Dam is started as the DXP follower (``-p PORT``, its own opening book ``book/book.opn`` beside its
``main`` folder, no endgame databases, its console set to ``time MS``: a hard limit per move); we connect
and send a game request for each game. Each opening of ``test/2-move ballots matchfile.fen`` (79 FEN lines
in Moby Dam's repository) is played twice, colours swapped: 158 games. ``--games N`` plays the first N of
that list (N/2 openings, both colours each) for a quick run, ``--skip K`` starts after its first K games. Both sides get ``--time`` seconds a move and
one thread (``--threads`` for ours); ``--our-time`` gives ours another time a move (time-odds runs).

The rules end a game (no legal move, threefold repetition, the 25-, 16- and 5-move rules; we send the game
end as soon as the position is over, and accept Moby Dam's admission of a loss); 400 plies are adjudicated
a draw (reported). Printed: wins/draws/losses from our side, the score with a 95% interval (normal
approximation over the per-game scores 1, 1/2, 0; the Wilson interval when every game had the same result), the Elo difference of that score and of the interval's
ends, and every irregularity: an illegal move from either side, our moves that took longer than ``--time``
(and the longest). Every game is saved in ``DIR/games.pdn`` with a ``summary.json``; Moby Dam's own logs
land in ``DIR/mobydam/``.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path

from _mobydam import MobyDam, find_binary

from numba_words.draughts import Engine, Position, write_pdn
from numba_words.draughts.dxp import initiate

OPENINGS = "test/2-move ballots matchfile.fen"


def score_summary(results: list[float]) -> dict:
    """Wins, draws, losses, score, its 95% interval and the Elo of each, for per-game scores 1 / 0.5 / 0."""
    n = len(results)
    w = sum(r == 1 for r in results)
    d = sum(r == 0.5 for r in results)
    lo = hi = m = float("nan")
    if n:
        m = sum(results) / n
        var = sum((r - m) ** 2 for r in results) / n
        if var > 0:
            half = 1.96 * math.sqrt(var / n)
            lo, hi = max(0.0, m - half), min(1.0, m + half)
        else:  # every game the same result: the Wilson interval of that proportion
            z2 = 1.96 ** 2
            centre, half = (m + z2 / (2 * n)) / (1 + z2 / n), 1.96 * math.sqrt(z2 / (4 * n * n)) / (1 + z2 / n)
            lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return {"games": n, "wins": w, "draws": d, "losses": n - w - d, "score": m, "score_lo": lo, "score_hi": hi,
            "elo": elo(m), "elo_lo": elo(lo), "elo_hi": elo(hi)}


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (``-inf``/``inf`` at 0 and 1)."""
    if score != score:
        return score
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def read_openings(path: Path) -> list[str]:
    fens = [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    for f in fens:
        Position(f)  # raises on a bad line
    return fens


def apply_settings(engine, settings: list[str], error):
    """``engine`` with each ``NAME=INT`` of ``settings`` set (an experiment setting such as ``_lmr2``); ``error``
    (an argument parser's) is called with a message for a bad one."""
    for kv in settings:
        name, _, value = kv.partition("=")
        if not name.startswith("_") or not hasattr(engine, name) or not value.lstrip("-").isdigit():
            error(f"a setting is NAME=INT with NAME an engine setting such as _lmr2, got {kv!r}")
        setattr(engine, name, int(value))
    return engine


def _mobydam_mean_move(log: Path, start: int) -> float:
    """Moby Dam's mean seconds a move, from the 'engine used N ms' lines its log gained during the match."""
    try:
        with open(log, "rb") as f:
            f.seek(start)
            text = f.read().decode("latin-1")
    except OSError:
        return float("nan")
    ms = [int(x) for x in re.findall(r"engine used (\d+) ms", text)]
    return sum(ms) / len(ms) / 1000 if ms else float("nan")


def _mobydam_effort(log: Path, start: int) -> tuple[float, float]:
    """Moby Dam's mean depth finished and median nodes of its searched moves, from its log since ``start``. Its
    log's ``reached depth=d`` names the iteration the time stopped (``move=m``: after ``m`` root moves of it), so
    the depth it finished is ``d - 1``, the depth our search reports (a depth stopped part way counts as the one
    before it, as ours)."""
    try:
        with open(log, "rb") as f:
            f.seek(start)
            text = f.read().decode("latin-1")
    except OSError:
        return float("nan"), float("nan")
    depths = [int(x) - 1 for x in re.findall(r"reached depth=(\d+)", text)]
    nodes = sorted(int(x) for x in re.findall(r"nodes total=(\d+)", text))
    return (sum(depths) / len(depths) if depths else float("nan"),
            float(nodes[len(nodes) // 2]) if nodes else float("nan"))


class _Recorder:
    """The engine with each search's depth and nodes recorded (searches of more than one legal move)."""

    def __init__(self, engine):
        self.engine = engine
        self.depths: list[int] = []
        self.nodes: list[int] = []

    def search(self, position, **kw):
        res = self.engine.search(position, **kw)
        if res.nodes > 1:
            self.depths.append(res.depth)
            self.nodes.append(res.nodes)
        return res

    def new_game(self) -> None:
        self.engine.new_game()


def _irregular(overruns) -> str:
    """Our moves over the time limit (count and the longest) and illegal ones, for one game's line."""
    over = [o[2] for o in overruns if o[1] == "over time"]
    illegal = [o for o in overruns if o[1].startswith("illegal")]
    text = f"  over time: {len(over)} (longest {max(over):.3f} s)" if over else ""
    return text + (f"  ILLEGAL: {illegal}" if illegal else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mobydam", type=Path, default=None,
                    help="the Moby Dam binary (default: $NUMBA_WORDS_PEERS/mobydam/main/mobydam)")
    ap.add_argument("--openings", type=Path, default=None, help=f"FEN a line, # comments (default: Moby Dam's {OPENINGS!r})")
    ap.add_argument("--games", type=int, default=None, help="play the first N games of the schedule (default all)")
    ap.add_argument("--skip", type=int, default=0,
                    help="start after the first N games of the schedule (to split a match into parts; default 0)")
    ap.add_argument("--time", type=float, default=0.1, help="seconds a move for both sides (default 0.1)")
    ap.add_argument("--our-time", type=float, default=None,
                    help="seconds a move for our engine only, for time-odds runs (default: --time)")
    ap.add_argument("--threads", type=int, default=1, help="our search threads (default 1)")
    ap.add_argument("--hash", type=int, default=64, help="our transposition table, MiB (default 64)")
    ap.add_argument("--mobydam-tt", type=int, default=22, help="Moby Dam's -t: 2^N table entries (default 22)")
    ap.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after this many plies")
    ap.add_argument("--out", type=Path, default=Path("draughts_match"), help="folder for PDN and logs")
    ap.add_argument("--weights", type=Path, default=None,
                    help="our evaluation weights file (default: the package's), for evaluation experiments")
    ap.add_argument("--patterns", default=None,
                    help="our window values, an .npy file or 'none' (default: the package's)")
    ap.add_argument("--setting", action="append", default=[], metavar="NAME=INT",
                    help="an engine search setting for experiments, e.g. _lmr2=10 (repeatable)")
    args = ap.parse_args(argv)

    binary = find_binary(args.mobydam)
    root = binary.parent.parent
    openings = read_openings(args.openings or root / OPENINGS)
    schedule = [(fen, color) for fen in openings for color in (True, False)]
    schedule = schedule[args.skip:]
    if args.games is not None:
        schedule = schedule[:args.games]
    if not args.time > 0:
        ap.error("--time must be > 0")
    our_time = args.time if args.our_time is None else args.our_time
    if not our_time > 0:
        ap.error("--our-time must be > 0")
    args.out.mkdir(parents=True, exist_ok=True)

    engine = apply_settings(Engine(threads=args.threads, hash_mb=args.hash, weights=args.weights,
                                   patterns=False if args.patterns == "none" else args.patterns), args.setting,
                            ap.error)
    engine.search(Position.initial(), depth=1)  # load the kernels before the clock runs
    log = args.out / "mobydam" / "engine.log"
    log_start = log.stat().st_size if log.exists() else 0
    moby = MobyDam(binary, args.out / "mobydam", max(1, round(args.time * 1000)), args.mobydam_tt)
    conn = moby.conn
    reports = []
    rec = _Recorder(engine)
    t0 = time.perf_counter()
    try:
        for i, (fen, color) in enumerate(schedule):
            rep, = initiate(conn, rec, [Position(fen)], colors=[color], move_time=our_time, minutes=999,
                            max_plies=args.max_plies, name="numba_words", stop_last=i == len(schedule) - 1)
            rep.game.headers.update({"Event": f"numba_words - Moby Dam, {our_time:g} / {args.time:g} s a move",
                                     "Round": str(args.skip + i + 1), "Date": time.strftime("%Y.%m.%d")})
            reports.append(rep)
            r = rep.game.result
            ours = 0.5 if r == "1-1" else (1.0 if (r == "2-0") == color else 0.0) if r in ("2-0", "0-2") else None
            print(f"{args.skip + i + 1:3d} {'W' if color else 'B'} {r:4s} {rep.termination:32s} {len(rep.game):3d} plies"
                  f"{'  peer errors: ' + '; '.join(rep.peer_errors) if rep.peer_errors else ''}"
                  f"{_irregular(rep.overruns)}", flush=True)
            rep.ours = ours
    finally:
        moby.close()
    wall = time.perf_counter() - t0
    (args.out / "games.pdn").write_text(write_pdn([r.game for r in reports]))
    scored = [r.ours for r in reports if r.ours is not None]
    md_depth, md_nodes = _mobydam_effort(log, log_start)
    summary = score_summary(scored)
    illegal_ours = sum(1 for r in reports for o in r.overruns if o[1].startswith("illegal"))
    over_time = [o for r in reports for o in r.overruns if o[1] == "over time"]
    summary.update({
        "time_per_move": args.time, "our_time_per_move": our_time, "threads": args.threads, "skipped": args.skip, "unfinished": len(reports) - len(scored),
        "adjudicated": sum("adjudicated" in r.termination for r in reports),
        "illegal_moves_ours": illegal_ours, "illegal_moves_mobydam": sum(len(r.peer_errors) for r in reports),
        "our_mean_move_s": sum(r.our_time for r in reports) / max(1, sum(r.our_moves for r in reports)),
        "mobydam_mean_move_s": _mobydam_mean_move(log, log_start),
        "our_mean_depth": sum(rec.depths) / max(1, len(rec.depths)),
        "our_median_nodes": float(sorted(rec.nodes)[len(rec.nodes) // 2]) if rec.nodes else float("nan"),
        "mobydam_mean_depth": md_depth, "mobydam_median_nodes": md_nodes,
        "our_moves_over_time": len(over_time), "our_longest_move_s": max((r.max_move_time for r in reports),
                                                                         default=0.0),
        "wall_seconds": round(wall, 1), "command": " ".join(sys.argv),
    })
    finite = {k: (v if not isinstance(v, float) or math.isfinite(v) else str(v)) for k, v in summary.items()}
    (args.out / "summary.json").write_text(json.dumps(finite, indent=2) + "\n")
    s = summary
    print(f"\nnumba_words vs Moby Dam, {s['games']} games at {our_time:g} / {args.time:g} s a move: +{s['wins']} ={s['draws']} "
          f"-{s['losses']}, score {100 * s['score']:.1f}% (95%: {100 * s['score_lo']:.1f}-{100 * s['score_hi']:.1f}%),"
          f" Elo {s['elo']:+.0f} ({s['elo_lo']:+.0f} to {s['elo_hi']:+.0f})")
    print(f"unfinished {s['unfinished']}, adjudicated draws {s['adjudicated']}, illegal moves: ours "
          f"{s['illegal_moves_ours']}, Moby Dam {s['illegal_moves_mobydam']}; our moves over {our_time:g} s: "
          f"{s['our_moves_over_time']} (longest {s['our_longest_move_s']:.3f} s, mean {s['our_mean_move_s']:.3f} s); "
          f"Moby Dam's mean {s['mobydam_mean_move_s']:.3f} s; {wall:.0f} s; "
          f"depth finished a move (mean) ours {s['our_mean_depth']:.1f}, Moby Dam {s['mobydam_mean_depth']:.1f}; nodes a move "
          f"(median) ours {s['our_median_nodes']:.0f}, Moby Dam {s['mobydam_median_nodes']:.0f}; "
          f"PDN in {args.out / 'games.pdn'}")
    return 0 if s["illegal_moves_ours"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
