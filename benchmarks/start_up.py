"""Start-up and compile time as a user meets them: `numba-words tour` cold and warm, and the first call of each
engine in a fresh process with an empty Numba cache.

    python benchmarks/start_up.py [--warm-runs 5] [--skip-cold] [--skip-first-calls]

Cold runs use a new empty ``NUMBA_CACHE_DIR`` each (the lexicon's own cache, e.g. TWL06's arrays, is kept:
``--cold-lexicon`` empties that too). Wall seconds are measured around the whole process (start-up and exit
included); CPU seconds are the process's and its children's user + system time. Run it with nothing else
running: compile time is CPU-bound and every figure moves with other load.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

FIRST_CALLS = {
    "lexicon: load TWL06, lookups, anagrams, match": (
        "from numba_words import Lexicon; lex = Lexicon.load('twl06'); 'CAT' in lex; lex.anagrams('RETAINS'); "
        "lex.match('..R.S')"),
    "draughts: perft(6)": (
        "from numba_words.draughts import Position, perft; perft(Position.initial(), 6)"),
    "draughts: legal moves": (
        "from numba_words.draughts import Position; list(Position.initial().legal_moves)"),
    "scrabble: legal_plays()": (
        "from numba_words.scrabble import Position; p = Position.from_cgp(" + repr(
            "15/15/15/15/15/15/15/3CAT9/15/15/15/15/15/15/15 AEINRS?/ 0/0 0 lex TWL06;") + "); p.legal_plays()"),
    "scrabble: best_play()": (
        "from numba_words.scrabble import Position; p = Position.from_cgp(" + repr(
            "15/15/15/15/15/15/15/3CAT9/15/15/15/15/15/15/15 AEINRS?/ 0/0 0 lex TWL06;") + "); p.best_play()"),
    "scrabble: best(by=\"equity\")": (
        "from numba_words.scrabble import Position; p = Position.from_cgp(" + repr(
            "15/15/15/15/15/15/15/3CAT9/15/15/15/15/15/15/15 AEINRS?/ 0/0 0 lex TWL06;") + "); p.best('equity')"),
    "scrabble: play_games(2) (self-play)": (
        "from numba_words.scrabble import play_games; play_games(2, seed=1)"),
    "scrabble: simulate()": (
        "from numba_words.scrabble import Position; p = Position.from_cgp(" + repr(
            "15/15/15/15/15/15/15/3CAT9/15/15/15/15/15/15/15 AEINRS?/ 0/0 0 lex TWL06;")
        + "); p.simulate(candidates=3, iterations=8, seed=1)"),
    "bookworm: solve a board": (
        "from numba_words.bookworm import Position; Position.random(seed=1).words()"),
}


def _run(argv, env=None) -> tuple[float, float, int, str]:
    """``(wall s, CPU s, exit status, stderr tail)`` of one process (CPU includes its children that it waited
    for). A process it left compiling in the background (``numba_words._background``) is waited for before the
    next run, outside the figures."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    err = p.communicate()[1]
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    end = time.monotonic() + 300
    while time.monotonic() < end:  # its session's other processes
        try:
            os.killpg(p.pid, 0)
        except (ProcessLookupError, PermissionError):
            break
        time.sleep(0.1)
    return wall, cpu, p.returncode, err[-400:]


def _env(cold: bool, cold_lexicon: bool) -> dict:
    env = dict(os.environ)
    if cold:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="nw-numba-")
    if cold_lexicon:
        env["NUMBA_WORDS_CACHE_DIR"] = tempfile.mkdtemp(prefix="nw-lex-")
    return env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--warm-runs", type=int, default=5)
    ap.add_argument("--cold-runs", type=int, default=1)
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--skip-first-calls", action="store_true")
    ap.add_argument("--cold-lexicon", action="store_true", help="empty the lexicon cache too")
    a = ap.parse_args()
    tour = [sys.executable, "-m", "numba_words", "tour"]
    rows = []
    _run(tour)  # fill the cache for the warm runs
    warm = [_run(tour) for _ in range(a.warm_runs)]
    rows.append(("tour, warm (best / median)", warm))
    if not a.skip_cold:
        rows.append(("tour, cold: empty Numba cache", [_run(tour, _env(True, a.cold_lexicon))
                                                         for _ in range(a.cold_runs)]))
    if not a.skip_first_calls:
        for label, code in FIRST_CALLS.items():
            rows.append((f"first call, cold: {label}", [_run([sys.executable, "-c", code],
                                                             _env(True, a.cold_lexicon))]))
    print(f"{'':58} {'wall s':>14} {'CPU s':>14}")
    for label, runs in rows:
        bad = [r for r in runs if r[2] != 0]
        if bad:
            print(f"{label:58} FAILED: {bad[0][3]}")
            continue
        walls = sorted(r[0] for r in runs)
        cpus = sorted(r[1] for r in runs)
        if len(runs) > 1:
            w = f"{walls[0]:.2f} / {walls[len(walls) // 2]:.2f}"
            c = f"{cpus[0]:.2f} / {cpus[len(cpus) // 2]:.2f}"
        else:
            w, c = f"{walls[0]:.2f}", f"{cpus[0]:.2f}"
        print(f"{label:58} {w:>14} {c:>14}")


if __name__ == "__main__":
    main()
