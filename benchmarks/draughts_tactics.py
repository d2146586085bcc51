"""Draughts tactics: a set of combinations from real games, and how many each engine solves.

    python benchmarks/draughts_tactics.py run   [--mobydam PATH] [--time 1[,0.1,...]] [--depth 12] [--file F]
    python benchmarks/draughts_tactics.py build --games-dir PATH/mobydam/book/games [--mobydam PATH] [--out F]

``run`` reads the set (``benchmarks/data/draughts_tactics.txt`` by default: FEN, solution move, source, one
position a line) and prints how many positions our engine solves (its move at ``--time`` seconds is the
solution), how many Moby Dam solves at the same time (over DXP, when ``--mobydam`` or ``NUMBA_WORDS_PEERS``
gives it), for each time of ``--time``, and the median time our search takes to reach ``--depth`` plies on 1 and on 2 threads (the two
runs alternate position by position, each from a cleared table, so a busy machine slows both alike).

``build`` makes the set from PDN games (``book/games/*.pdn`` in Moby Dam's repository; a game that does not
read is skipped): a position where the player to move made a quiet move (a sacrifice: no capture was
possible, and it does not crown a man) and was at least one man up 6 and 8 plies later (men 1, kings 3) is
a candidate; it is kept when
our search to ``--depth`` plies plays the game's move with a score at least ``--gain`` men above the material
balance, every other move scores at least ``--margin`` men less (searched to ``depth - 2``), a search two plies
deeper plays the same move, and Moby Dam at ``--confirm-ms`` milliseconds plays it too (skipped, and said, when
Moby Dam is not available).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from numba_words.draughts import Engine, Position, read_pdn
from numba_words.draughts.errors import DraughtsError

DATA = Path(__file__).parent / "data" / "draughts_tactics.txt"


def material(pos: Position) -> int:
    """Men 1, kings 3, from the side to move's view."""
    own, opp = (pos.white, pos.black) if pos.turn else (pos.black, pos.white)
    k = pos.kings
    return (own & ~k).bit_count() + 3 * (own & k).bit_count() - (opp & ~k).bit_count() - 3 * (opp & k).bit_count()


def read_set(path: Path) -> list[tuple[Position, str, str]]:
    """``(position, solution notation, source)`` of each line ``FEN<TAB>move<TAB>source``; ``#`` lines are
    comments. The solution must be legal in its position."""
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fen, move, source = (line.split("\t") + ["", ""])[:3]
        pos = Position(fen)
        pos.parse_move(move)  # raises on an illegal solution
        out.append((pos, move, source))
    return out


def games_of(path: Path):
    """The games of a PDN file, read one by one so that one unreadable game skips only itself:
    ``(index, game)``; prints how many were skipped."""
    text = path.read_text(encoding="latin-1")
    chunks, cur = [], []
    for line in text.splitlines():
        if line.startswith("[Event") and cur:
            chunks.append("\n".join(cur))
            cur = []
        cur.append(line)
    if cur:
        chunks.append("\n".join(cur))
    skipped = 0
    for i, chunk in enumerate(chunks):
        try:
            games = read_pdn(chunk)
        except DraughtsError:
            skipped += 1
            continue
        for g in games:
            yield i, g
    if skipped:
        print(f"{path.name}: {skipped} games skipped (unreadable)", file=sys.stderr)


def candidates(games_dir: Path):
    """``(position, move, source)`` where the side to move played a quiet move and was >= 1 man up 6 and 8
    plies later."""
    seen = set()
    for f in sorted(games_dir.glob("*.pdn")):
        for gi, g in games_of(f):
            positions = list(g.positions())
            last = -100
            for i in range(10, len(g.moves) - 8):
                m = g.moves[i]
                p = positions[i]
                if m.captured or p in seen or i - last < 8:  # one candidate per combination
                    continue
                if (m.to_square <= 5) if p.turn else (m.to_square >= 46):
                    continue  # crowning a man is not a combination
                b0 = material(p)
                # material for the same side: positions i+6 and i+8 have the same side to move
                if material(positions[i + 6]) - b0 >= 1 and material(positions[i + 8]) - b0 >= 1 \
                        and len(list(p.legal_moves)) >= 3:
                    seen.add(p)
                    last = i
                    white, black = g.headers.get("White", "?"), g.headers.get("Black", "?")
                    yield p, m, f"{f.name} game {gi + 1} ({white} - {black}), move {i // 2 + 1}"


def build(args) -> int:
    engine = Engine(hash_mb=64)
    engine.search(Position.initial(), depth=1)
    moby = None
    if args.mobydam is not None or _peers():
        from _mobydam import MobyDam, find_binary

        moby = MobyDam(find_binary(args.mobydam), Path(args.workdir) / "mobydam_tactics", args.confirm_ms)
    else:
        print("Moby Dam not given: solutions are checked by our deeper search only", file=sys.stderr)
    kept = []
    n_cand = 0
    try:
        for pos, move, source in candidates(Path(args.games_dir)):
            n_cand += 1
            engine.new_game()
            r = engine.search(pos, depth=args.depth)
            if r.move != move or not (r.win_in is not None and r.win_in > 0 or r.score - material(pos) >= args.gain):
                continue
            others = []
            for x in pos.legal_moves:
                if x == move:
                    continue
                pos.push(x)
                engine.new_game()
                c = engine.search(pos, depth=max(1, args.depth - 3))
                pos.pop()
                others.append(-c.score if c.win_in is None else (-100.0 if c.win_in > 0 else 100.0))
            if others and r.score - max(others) < args.margin:
                continue
            engine.new_game()
            deeper = engine.search(pos, depth=args.depth + 2)
            if deeper.move != move:
                continue
            if moby is not None and moby.best_move(pos) != move:
                print(f"  Moby Dam disagrees: {pos.fen()} {move}", file=sys.stderr)
                continue
            kept.append((pos.fen(), move.notation, source, r.score - material(pos)))
            print(f"{len(kept):3d} {pos.fen()} {move} +{r.score - material(pos):.2f} ({source})", flush=True)
            if len(kept) >= args.count:
                break
    finally:
        if moby is not None:
            moby.close()
    lines = ["# Draughts combinations from real games (Moby Dam's book/games/*.pdn): FEN, the winning move, source.",
             f"# Built by benchmarks/draughts_tactics.py build: our search to depth {args.depth} and "
             f"{args.depth + 2} plays it, it gains >= {args.gain} men over the material balance, every other "
             f"move is >= {args.margin} men worse"
             + (f", Moby Dam plays it at {args.confirm_ms} ms." if moby is not None else ".")]
    lines += [f"{fen}\t{mv}\t{src}" for fen, mv, src, _ in kept]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"{len(kept)} positions kept of {n_cand} candidates -> {args.out}")
    return 0


def _peers() -> bool:
    import os

    return bool(os.environ.get("NUMBA_WORDS_PEERS"))


def run(args) -> int:
    tactics = read_set(Path(args.file))
    engine = Engine(threads=1, hash_mb=args.hash)
    engine.search(Position.initial(), depth=1)
    times = [float(t) for t in str(args.time).split(",")]
    moby = None
    if args.mobydam is not None or _peers():
        from _mobydam import MobyDam, find_binary

        moby = MobyDam(find_binary(args.mobydam), Path(args.workdir) / "mobydam_tactics", 1000)
    try:
        for t in times:
            ours = 0
            for pos, sol, _ in tactics:
                engine.new_game()
                ours += engine.search(pos, time=t).move == pos.parse_move(sol)
            line = f"at {t:g} s a position: numba_words solves {ours} of {len(tactics)}"
            if moby is not None:
                moby.set_time(max(1, round(t * 1000)))
                solved = sum(moby.best_move(pos) == pos.parse_move(sol) for pos, sol, _ in tactics)
                line += f", Moby Dam {solved}"
            print(line, flush=True)
    finally:
        if moby is not None:
            moby.close()
    # 1 vs 2 threads, alternating
    engines = {1: engine, 2: Engine(threads=2, hash_mb=args.hash)}
    engines[2].search(Position.initial(), depth=1)
    spent = {1: [], 2: []}
    for pos, _, _ in tactics:
        for n in (1, 2):
            engines[n].new_game()
            t = time.perf_counter()
            engines[n].search(pos, depth=args.depth)
            spent[n].append(time.perf_counter() - t)
    m1, m2 = statistics.median(spent[1]), statistics.median(spent[2])
    print(f"median time to depth {args.depth}: 1 thread {m1:.4f} s, 2 threads {m2:.4f} s, ratio {m2 / m1:.2f}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="solve the set with our engine and Moby Dam; 1- vs 2-thread time to a depth")
    r.add_argument("--file", default=str(DATA))
    r.add_argument("--time", default="1", help="seconds a position, or several: 1,0.1 (default 1)")
    r.add_argument("--depth", type=int, default=12, help="fixed depth of the 1- vs 2-thread timing (default 12)")
    r.add_argument("--hash", type=int, default=64)
    b = sub.add_parser("build", help="find combinations in PDN games and write the set")
    b.add_argument("--games-dir", required=True, help="folder of .pdn files (Moby Dam's book/games)")
    b.add_argument("--out", default=str(DATA))
    b.add_argument("--depth", type=int, default=12, help="search depth of the check (default 12)")
    b.add_argument("--gain", type=float, default=0.8, help="men the solution must gain (default 0.8)")
    b.add_argument("--margin", type=float, default=0.5, help="men every other move must lose (default 0.5)")
    b.add_argument("--count", type=int, default=80, help="stop after this many positions (default 80)")
    b.add_argument("--confirm-ms", type=int, default=3000, help="Moby Dam's time for its check (default 3000)")
    for p in (r, b):
        p.add_argument("--mobydam", type=Path, default=None,
                       help="Moby Dam binary (default $NUMBA_WORDS_PEERS/mobydam/main/mobydam, if set)")
        p.add_argument("--workdir", default=".", help="where Moby Dam's logs go (default .)")
    args = ap.parse_args(argv)
    return build(args) if args.cmd == "build" else run(args)


if __name__ == "__main__":
    sys.exit(main())
