"""Self-play on a game clock: two settings of our engine, each with its own clock, from the 2-move ballots.

    python benchmarks/draughts_clock.py --openings FILE --clock 10 [--inc 0] [--games N] [--skip K]
                                        [--a NAME=INT ...] [--b NAME=INT ...] [--out DIR]

Each opening of ``FILE`` (Moby Dam's ``test/2-move ballots matchfile.fen``) is played twice, colours swapped.
Each side has ``--clock`` seconds for the whole game (plus ``--inc`` a move) and searches with ``remaining=``
and ``increment=`` (no moves to go: the engine spreads its time by the pieces on the board, or
``_clock_moves`` for a fixed count); a side whose clock runs out loses. ``--a``/``--b`` set an engine setting
of either side. Printed: the score of A with a 95% interval, losses on time, and each side's mean seconds a
move by the pieces on the board (how the time was spread) and the time left when games ended. 400 plies are
a draw; every game goes to ``DIR/games.pdn``.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

from draughts_match import apply_settings, read_openings, score_summary

from numba_words.draughts import Engine, Game, Position, write_pdn

BANDS = ((33, 40), (25, 32), (17, 24), (9, 16), (0, 8))


def play(engines, fen: str, a_white: bool, clock: float, inc: float, max_plies: int, spent):
    """One game: ``engines`` (A, B); returns the game, A's score and how it ended. ``spent[side]`` gains
    ``(pieces, seconds)`` for every search."""
    pos = Position(fen)
    game = Game(pos.copy())
    left = {0: clock, 1: clock}
    for e in engines:
        e.new_game()
    while True:
        out = pos.outcome()
        if out is not None:
            a = 0.5 if out.winner is None else (1.0 if out.winner == a_white else 0.0)
            return game, a, out.termination, left
        if len(game) >= max_plies:
            return game, 0.5, f"{max_plies} plies", left
        side = 0 if pos.turn == a_white else 1
        left[side] += inc
        pieces = (pos.white | pos.black).bit_count()
        t0 = time.perf_counter()
        res = engines[side].search(pos, remaining=left[side], increment=inc)
        dt = time.perf_counter() - t0
        left[side] -= dt
        spent[side].append((pieces, dt))
        if left[side] < 0:
            return game, 1.0 if side == 1 else 0.0, "time", left
        pos.push(res.move)
        game.play(res.move)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--openings", type=Path, required=True, help="FEN a line (# comments)")
    ap.add_argument("--clock", type=float, required=True, help="seconds a side for the whole game")
    ap.add_argument("--inc", type=float, default=0.0, help="seconds added to a side's clock before each move")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--a", action="append", default=[], metavar="NAME=INT", help="a setting of side A")
    ap.add_argument("--b", action="append", default=[], metavar="NAME=INT", help="a setting of side B")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--out", type=Path, default=Path("draughts_clock"))
    args = ap.parse_args(argv)
    if not args.clock > 0 or args.inc < 0:
        ap.error("--clock must be > 0 and --inc >= 0")
    if not args.openings.is_file():
        ap.error(f"no openings file {str(args.openings)!r}")
    schedule = [(f, c) for f in read_openings(args.openings) for c in (True, False)][args.skip:]
    if args.games is not None:
        schedule = schedule[:args.games]
    engines = (apply_settings(Engine(), args.a, ap.error), apply_settings(Engine(), args.b, ap.error))
    for e in engines:
        e.search(Position(), depth=2)  # load the kernels before any clock runs
    args.out.mkdir(parents=True, exist_ok=True)
    spent: dict = {0: [], 1: []}
    scores, games, on_time, left_at_end = [], [], 0, {0: [], 1: []}
    for i, (fen, a_white) in enumerate(schedule):
        game, a, how, left = play(engines, fen, a_white, args.clock, args.inc, args.max_plies, spent)
        white_score = a if a_white else 1.0 - a
        game.result = "1-1" if white_score == 0.5 else ("2-0" if white_score == 1.0 else "0-2")
        scores.append(a)
        on_time += how == "time"
        for s in (0, 1):
            left_at_end[s].append(left[s])
        game.tags["Round"] = str(args.skip + i + 1)
        game.tags["White"], game.tags["Black"] = ("A", "B") if a_white else ("B", "A")
        games.append(game)
        print(f"{args.skip + i + 1:3d} {'W' if a_white else 'B'} A {a:.1f} {how:24s} {len(game):3d} plies  "
              f"left A {left[0]:6.2f} s, B {left[1]:6.2f} s", flush=True)
    (args.out / "games.pdn").write_text(write_pdn(games))
    s = score_summary(scores)
    print(f"\nA {' '.join(args.a) or 'defaults'} against B {' '.join(args.b) or 'defaults'}, {s['games']} games, "
          f"{args.clock:g} s + {args.inc:g} s a move each: +{s['wins']} ={s['draws']} -{s['losses']}, "
          f"A {100 * s['score']:.1f}% (95%: {100 * s['score_lo']:.1f}-{100 * s['score_hi']:.1f}%); "
          f"losses on time {on_time}")
    for side, name in ((0, "A"), (1, "B")):
        by = defaultdict(list)
        for pieces, dt in spent[side]:
            for lo, hi in BANDS:
                if lo <= pieces <= hi:
                    by[(lo, hi)].append(dt)
        bands = ", ".join(f"{lo}-{hi} pieces {sum(v) / len(v):.3f} s" for (lo, hi) in BANDS if (v := by[(lo, hi)]))
        ends = sorted(left_at_end[side])
        print(f"{name}: mean seconds a move by pieces: {bands}; time left at the end (median) "
              f"{ends[len(ends) // 2]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
