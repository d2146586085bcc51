"""Autoplay games/s: numba_words' ``play_games`` beside MAGPIE's ``autoplay`` in the same run, alternating.

    python benchmarks/scrabble_autoplay_magpie.py --games 2000 --rounds 3 [--magpie MAGPIE_DIR] [--threads 1]

Both sides play equity against equity on TWL06 in game pairs (MAGPIE: ``-gp true``, best move by equity with
its word map, or ``--no-wmp`` for its KWG generator). numba_words reads ``--klv2`` (MAGPIE's TWL06.klv2) when
given, else its shipped table. MAGPIE's time is the wall time of its process minus that of a 2-game run
(loading its data), run in a scratch folder linking its ``bin`` and ``data``; ours is the kernel run in this process after a warm-up. Best of ``--rounds`` per side.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from scrabble_search_magpie import _magpie  # runs MAGPIE in a scratch folder, away from its saved settings


def magpie_seconds(root: Path, games: int, threads: int, wmp: bool) -> float:
    cmd = (f"set -lex TWL06 -wmp {'true' if wmp else 'false'} -s1 equity -s2 equity -r1 best -r2 best "
           f"-threads {threads} -gp true\nautoplay games {max(1, games // 2)}\n")
    t = time.perf_counter()
    _magpie(root, cmd, "Games Played")
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--magpie", default=None, help="MAGPIE build folder (bin/magpie, data/)")
    ap.add_argument("--klv2", default=None, help="leave file for numba_words (default: the shipped table)")
    ap.add_argument("--no-wmp", action="store_true", help="MAGPIE without its word map")
    a = ap.parse_args()
    from numba_words.scrabble.autoplay import play_games

    players = (a.klv2 or "equity", a.klv2 or "equity")
    play_games(4, players, threads=a.threads)  # compile / load the kernels
    root = Path(a.magpie) if a.magpie else None
    ours, theirs = [], []
    base = magpie_seconds(root, 2, a.threads, not a.no_wmp) if root else 0.0
    for _ in range(a.rounds):
        t = time.perf_counter()
        play_games(a.games, players, seed=len(ours), threads=a.threads)
        ours.append(time.perf_counter() - t)
        if root:
            theirs.append(magpie_seconds(root, a.games, a.threads, not a.no_wmp) - base)
    g_ours = a.games / min(ours)
    print(f"numba_words: {g_ours:,.0f} games/s (best of {a.rounds}, {a.threads} thread(s))")
    if root:
        g_theirs = a.games / max(min(theirs), 1e-9)
        print(f"MAGPIE ({'KWG' if a.no_wmp else 'word map'}): {g_theirs:,.0f} games/s (load time {base:.2f} s "
              f"subtracted)\nratio numba_words / MAGPIE: {g_ours / g_theirs:.2f}x")


if __name__ == "__main__":
    main()
