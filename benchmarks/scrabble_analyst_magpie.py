"""Rack inference and the pre-endgame solver beside MAGPIE's ``infer`` and ``peg`` on the same positions, in the
same run::

    python benchmarks/scrabble_analyst_magpie.py infer --magpie MAGPIE_DIR [--positions 4] [--margin 0]
    python benchmarks/scrabble_analyst_magpie.py peg --magpie MAGPIE_DIR [--bag 1 2 3] [--positions 2]

``infer``: placements of self-played games (equity players, TWL06) a few turns in, the board before the play with
the player who made it on turn; both engines enumerate every rack. Reported per position: seconds each (ours after
a warm-up call; MAGPIE's as the wall time of its process less that of the same process without ``infer``), their
ratio, whether the totals of draws agree, and the largest difference in probability over the leaves MAGPIE
prints. ``peg``: positions with 1, 2 and 3 tiles in the bag from the same games, the opponent's rack unknown;
MAGPIE's ``peg`` (its default cascade) against ours with every candidate solved to the end at the last stage
(``peg(..., exact=True)``, with ``--exact``; else its default stages); reported: seconds each, ratio, both best plays and whether they agree. MAGPIE's
exhaustive mode (``-pegtopk all``) is used with ``--exhaustive``. Figures from a busy machine are noisy: compare
ratios from one run.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scrabble_search_magpie import _magpie  # noqa: E402

SET = "set -savesettings false -lex TWL06 -threads {threads}"


def _wall(root, script, want):
    t = time.perf_counter()
    out = _magpie(root, script, want)
    return time.perf_counter() - t, out


def magpie_infer(root: Path, cgp: str, tiles: str, score: int, margin: float, threads: int) -> tuple:
    """``(seconds, total draws, {leave: probability})`` of MAGPIE's ``infer`` for the player on turn (player 1)."""
    head = f"{SET.format(threads=threads)} -imargin {margin}\ncgp {cgp}\n"
    base, _ = _wall(root, head + "show\n", "")
    wall, out = _wall(root, head + f"infer 1 {tiles} {score}\n", "Total target racks")
    total = int(re.findall(r"Total target racks:\s+(\d+)", out)[-1])
    rows = re.findall(r"^\d+\s+([A-Z?]+)\s+([0-9.]+)\s+(\d+)\s+-?[0-9.]+\s*$", out.split("Pct  ")[-1], re.M)
    return max(wall - base, 0.0), total, {leave: int(to) / total for leave, _, to in rows}


def magpie_peg(root: Path, cgp: str, threads: int, exhaustive: bool) -> tuple:
    """``(seconds, best play as printed)`` of MAGPIE's ``peg``."""
    opts = " -pegtopk all" if exhaustive else ""
    wall, out = _wall(root, f"{SET.format(threads=threads)}\ncgp {cgp}\npeg{opts}\n", "peg")
    m = re.search(r"^\s*1\s+(\S+ \S+|pass)", out, re.M)
    return wall, m.group(1) if m else "?"


def positions(games, seed, want):
    from test_scrabble_infer import game_turns

    return [(p, mv) for p, mv in game_turns(games, seed) if want(p, mv)]


def _magpie_cgp(pos, rack, opp):
    rows, _, rest = pos.cgp().partition(" ")
    parts = rest.split(" ")
    return f"{rows} {rack}/{opp} {parts[1]} {parts[2]}"


def infer_main(a) -> None:
    from numba_words.scrabble.infer import infer

    root = Path(a.magpie)
    picks = positions(4, a.seed, lambda p, mv: 40 <= p.bag_size() <= 70 and not mv.startswith("-"))[:a.positions]
    print(f"{'position':<10} {'ours s':>8} {'MAGPIE s':>9} {'ratio':>6} {'totals':>7} {'max |dp|':>9}")
    for i, (p, mv) in enumerate(picks):
        before = p.copy()
        before.rack = ""
        before.opp_rack = ""
        infer(before, mv, margin=a.margin, threads=a.threads)  # compile / load
        t = time.perf_counter()
        res = infer(before, mv, margin=a.margin, threads=a.threads)
        ours = time.perf_counter() - t
        play = p.parse_play(mv)
        tiles = "".join("?" if q[3] else q[2] for q in play.placed)
        theirs, total, probs = magpie_infer(root, _magpie_cgp(before, "", ""), tiles, play.score, a.margin,
                                            a.threads)
        dp = max((abs(res.probability(k) - v) for k, v in probs.items()), default=float("nan"))
        print(f"{i:<10} {ours:8.3f} {theirs:9.3f} {theirs / ours if ours else 0:6.2f} "
              f"{'same' if total == res.total else f'{res.total}/{total}':>7} {dp:9.2e}")


def peg_main(a) -> None:
    from numba_words.scrabble.peg import peg

    root = Path(a.magpie)
    print(f"{'bag':<4} {'ours s':>8} {'MAGPIE s':>9} {'ratio':>6}  ours best / MAGPIE best")
    for bag in a.bag:
        picks = positions(12, a.seed, lambda p, mv, b=bag: p.bag_size() == b)[:a.positions]
        for p, _ in picks:
            q = p.copy()
            q.opp_rack = ""
            t = time.perf_counter()
            res = peg(q, threads=a.threads, exact=a.exact)
            ours = time.perf_counter() - t
            theirs, best = magpie_peg(root, _magpie_cgp(q, q.rack, ""), a.threads, a.exhaustive)
            mine = res.candidates[0].notation
            same = best.replace(".", "").split()[-1:] == [w.replace("(", "").replace(")", "") for w in mine.split()[-1:]]
            print(f"{bag:<4} {ours:8.2f} {theirs:9.2f} {theirs / ours if ours else 0:6.2f}  {mine} / {best}"
                  f"  {'agree' if same else 'DIFFER'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("infer", "peg"))
    ap.add_argument("--magpie", required=True, help="MAGPIE's folder (bin/magpie, data/ with TWL06)")
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--margin", type=float, default=0.0, help="infer: equity margin (points)")
    ap.add_argument("--bag", type=int, nargs="+", default=[1, 2, 3], help="peg: tiles in the bag")
    ap.add_argument("--exhaustive", action="store_true", help="peg: MAGPIE with -pegtopk all")
    ap.add_argument("--exact", action="store_true", help="peg: ours with the survivors solved to the end")
    a = ap.parse_args()
    (infer_main if a.what == "infer" else peg_main)(a)


if __name__ == "__main__":
    main()
