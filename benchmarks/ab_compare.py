"""Same workloads on two checkouts of numba_words, alternating, in one run: did a change alter speed?

    python benchmarks/ab_compare.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 5]
    python benchmarks/ab_compare.py OLD NEW --cpu --only "new positions"   # thread CPU time: a busy machine

Each round runs every workload once per checkout in a fresh subprocess (``PYTHONPATH`` = the checkout),
old and new alternating so that machine noise falls on both. Kernels are warmed (compiled or loaded from the
cache) before timing. Prints the median rate per workload and checkout and their ratio. Workloads use only
API that has been stable across the project's history, so an older checkout can be measured too.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKLOADS = {
    "draughts perft(9), 1 thread": "draughts",
    "draughts perft(10), 2 threads": "draughts2",
    "draughts perft(7) kings position, 1 thread": "draughts_kings",
    "scrabble all plays, 40 midgame positions": "scrabble_all",
    "scrabble best play, 40 midgame positions": "scrabble_best",
    "scrabble best play by equity, 40 midgame positions": "scrabble_equity",
    "scrabble new positions: from_cgp + best play, 40": "scrabble_new_best",
    "scrabble new positions: from_cgp + best by equity, 40": "scrabble_new_equity",
    "scrabble self-play, equity vs equity, 200 games, 1 thread": "autoplay",
    "bookworm solve_many, 2,000 boards, 1 thread": "bookworm",
    "lexicon anagrams, 8 racks": "anagrams",
}

CHILD = r'''
import json, sys, time
from pathlib import Path
import numpy as np
what = sys.argv[1]

import os
clock = time.thread_time if os.environ.get("AB_CLOCK") == "cpu" else time.perf_counter

def timed(fn, units, min_time=1.0):
    fn()
    n, t0 = 0, clock()
    while True:
        fn(); n += 1
        dt = clock() - t0
        if dt >= min_time and n >= 3:
            return units * n / dt

if what.startswith("draughts"):
    from numba_words.draughts import Position, perft
    if what == "draughts":
        p, depth, threads = Position.initial(), 9, 1
    elif what == "draughts2":
        p, depth, threads = Position.initial(), 10, 2
    else:
        p, depth, threads = Position.from_fen("W:WK31-50:BK1-20"), 7, 1
    nodes = perft(p, depth, threads=threads)
    rate = timed(lambda: perft(p, depth, threads=threads), nodes)
elif what.startswith("scrabble"):
    from numba_words.scrabble import Position
    from numba_words import Lexicon
    lex = Lexicon.load("twl06")
    import numba_words
    root = Path(numba_words.__file__).resolve().parent
    files = list(root.parent.glob("data/scrabble/midgame_twl06.cgp")) + list(root.rglob("*midgame_twl06.cgp"))
    cgps = [ln.strip() for ln in files[0].read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    pos = [Position.from_cgp(c, lexicon=lex) for c in cgps]
    def fresh_plays():
        for p in pos:
            if hasattr(p, "_plays"):
                p._plays = None  # legal_plays() caches its answer
            p.legal_plays()
    if what == "scrabble_all":
        rate = timed(fresh_plays, len(pos))
    elif what == "scrabble_new_best":  # a fresh Position from each CGP string: its reading timed
        rate = timed(lambda: [Position.from_cgp(c, lexicon=lex).best_play() for c in cgps], len(cgps))
    elif what == "scrabble_new_equity":
        rate = timed(lambda: [Position.from_cgp(c, lexicon=lex).best("equity") for c in cgps], len(cgps))
    elif what == "scrabble_equity":
        rate = timed(lambda: [p.best("equity") for p in pos], len(pos))
    else:
        rate = timed(lambda: [p.best_play() for p in pos], len(pos))
elif what == "autoplay":
    from numba_words.scrabble.autoplay import play_games
    rate = timed(lambda: play_games(200, ("equity", "equity"), seed=1, threads=1), 200)
elif what == "bookworm":
    from numba_words import Lexicon
    from numba_words.bookworm import solve_many, random_codes
    lex = Lexicon.load("twl06")
    codes = random_codes(2000, lexicon=lex, seed=1)
    rate = timed(lambda: solve_many(codes, lex, threads=1), 2000)
elif what == "anagrams":
    from numba_words import Lexicon
    lex = Lexicon.load("twl06")
    racks = ["RETAINS", "AEINST?", "QUIZ?ED", "STRANGE", "??ABCDE", "OXYPHEN", "LETTERS", "AEIOU??"]
    rate = timed(lambda: [lex.anagrams(r) for r in racks], len(racks))
print(json.dumps({"rate": rate}))
'''


def run(checkout: str, what: str) -> float:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(checkout))
    out = subprocess.run([sys.executable, "-c", CHILD, what], env=env, capture_output=True, text=True,
                         cwd=os.path.abspath(checkout))
    if out.returncode != 0:
        raise SystemExit(f"{checkout}: {what} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])["rate"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", help="checkout before the change")
    ap.add_argument("new", help="checkout after the change")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--only", default=None, help="run only workloads whose name contains this text")
    ap.add_argument("--cpu", action="store_true", help="time the calling thread's CPU time instead of wall time "
                    "(steadier on a busy machine; only for 1-thread workloads)")
    args = ap.parse_args()
    if args.cpu:
        os.environ["AB_CLOCK"] = "cpu"
    names = [n for n in WORKLOADS if args.only is None or args.only in n]
    for name in names:  # compile or load every kernel once in each checkout before timing
        for c in (args.old, args.new):
            run(c, WORKLOADS[name])
    rates = {(n, c): [] for n in names for c in ("old", "new")}
    for r in range(args.rounds):
        for name in names:
            order = (("old", args.old), ("new", args.new)) if r % 2 == 0 else (("new", args.new), ("old", args.old))
            for label, c in order:
                rates[name, label].append(run(c, WORKLOADS[name]))
    print(f"{'workload':46} {'old /s':>12} {'new /s':>12} {'new/old':>8}   (median of {args.rounds} rounds)")
    for name in names:
        o = statistics.median(rates[name, "old"])
        n = statistics.median(rates[name, "new"])
        spread = max(rates[name, "new"]) / min(rates[name, "new"]) - 1
        print(f"{name:46} {o:12,.0f} {n:12,.0f} {n / o:8.3f}   (new spread {spread:.0%})")


if __name__ == "__main__":
    main()
