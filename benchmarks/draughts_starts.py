"""Start positions for phase matches: level, quiet, men-only positions of a given size from our match games.

    python benchmarks/draughts_starts.py MATCH_DIR [MATCH_DIR ...] --pieces 16-20 [--count 79] [--out FILE]

A match from the two-move ballots mixes every phase of the game; a match from positions of one size says
where the points go. From each game of the match folders (``games.pdn`` of ``benchmarks/draughts_match.py``)
this takes the positions with White to move, no kings, as many white men as black, no capture to make, and
a piece count in ``--pieces``; keeps the middle one of each game; shuffles them (fixed seed); and writes,
one FEN a line, the first ``--count`` distinct ones that our search scores within ``--level`` men of 0 at
``--nodes`` nodes (one thread; one engine for all, so its table carries over). The file is for
``draughts_match.py --openings FILE``, which plays each position twice, colours swapped, so what is left
of an edge cancels out.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from numba_words.draughts import Engine, read_pdn


def quiet(position) -> bool:
    """Whether the side to move has moves and no capture."""
    moves = list(position.legal_moves)
    return bool(moves) and not any(m.captured for m in moves)


def candidates(dirs, lo: int, hi: int) -> list:
    out = []
    for d in dirs:
        for game in read_pdn((Path(d) / "games.pdn").read_text()):
            fits = [p for p in game.positions()
                    if p.turn and not p.kings and lo <= bin(p.white | p.black).count("1") <= hi
                    and bin(p.white).count("1") == bin(p.black).count("1") and quiet(p)]
            if fits:
                out.append(fits[len(fits) // 2])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="match folders (games.pdn)")
    ap.add_argument("--pieces", default="16-20", help="piece count range, LO-HI (default 16-20)")
    ap.add_argument("--count", type=int, default=79, help="positions to write (default 79)")
    ap.add_argument("--nodes", type=int, default=300_000, help="our search's nodes a position (default 300000)")
    ap.add_argument("--level", type=float, default=0.15, help="largest |score| kept, men (default 0.15)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("starts.fen"))
    args = ap.parse_args(argv)
    lo, _, hi = args.pieces.partition("-")
    lo, hi = int(lo), int(hi or lo)
    pool = candidates(args.dirs, lo, hi)
    random.Random(args.seed).shuffle(pool)
    engine = Engine()
    chosen: list[str] = []
    for p in pool:
        fen = p.fen()
        if fen in chosen:
            continue
        score = engine.search(p, nodes=args.nodes).score
        if isinstance(score, float) and abs(score) <= args.level:
            chosen.append(fen)
            if len(chosen) >= args.count:
                break
    args.out.write_text("".join(f + "\n" for f in chosen))
    print(f"{len(pool)} games with such positions, {len(chosen)} level ones to {args.out}")
    return 0 if chosen else 1


if __name__ == "__main__":
    sys.exit(main())
