"""Draughts search speed: nodes/s at a fixed depth, and the time to reach a fixed depth on 1 and 2 threads.

Positions: the initial one and quiet positions of the engine's own games from 2-move ballot openings (fixed
FENs below). For each: the search to ``--depth`` on a fresh table, 1 thread (nodes, seconds of the search
thread's CPU and of wall time, nodes/s), then the wall time to finish ``--depth`` on 1 and on 2 threads
(``--rounds`` alternating runs each, median). Prints a table and the median ratio of 2 threads to 1.

    python benchmarks/draughts_search_bench.py --depth 14 --rounds 3
    python benchmarks/draughts_search_bench.py --mobydam PATH/mobydam/main/mobydam --seconds 10 --positions 4

With ``--variant NAME:JSON`` (engine settings, as in ``draughts_shots.py``; repeatable) it prints instead the
nodes each variant needs to finish ``--depth`` on every position (1 thread, a cleared table, no clock: exact on
a busy machine) and their geometric mean against the defaults':

    python benchmarks/draughts_search_bench.py --depth 12 --variant ttpv:'{"_tt_pv": 1}'

With ``--fen FEN`` it prints the nodes at the end of each depth up to ``--depth`` for that position (1 thread,
cleared table, exact), to set beside the depth Moby Dam's ``-o FEN`` search reaches in its node count:

    python benchmarks/draughts_search_bench.py --depth 18 --fen "B:W25-27,29,30,32,34,36,40,46-50:B2-4,6,9,12-19,23"

With ``--mobydam`` it compares search speed with Moby Dam instead: on the first ``--positions`` positions,
alternately, Moby Dam's own timed search (``-o FEN``: 10 s, no book, no endgame databases, 2^22 table
entries; its log's ``reached depth`` less one, the iteration the time stopped, and ``nodes total``) and ours for
``--seconds`` on 1 thread: the depth finished, nodes and nodes/s of wall time (both engines count every node they
enter).
"""
from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from numba_words.draughts import Engine, Position
from numba_words.draughts import _engine as K

FENS = [
    "W:W31-50:B1-20",
    "W:W26,27,31,33,35,37,39-50:B1-10,12,13,16-20,25",
    "W:W26,27,32,33,35,38-41,45-50:B1-7,9,13,16,17,20,23,24,30",
    "W:W27,28,31,32,34,37,40,44,46-50:B1-6,8,12,14-19,23",
    "W:W27,28,31-34,37,40,43,47,49,50:B1-5,11,16-20,24,25",
    "W:W27,29,32,34-36,39,43,45-50:B1-6,9,11,12,14,16,20,21,25",
    "W:W27,30-33,40,46-50:B1,2,4-6,10,16,17,19,21,23",
    "W:W27,31-36,38-40,42-50:B1-6,8-11,14-22",
    "W:W31,33,35-40,42-50:B1-11,13,14,18,19,21,24",
    "W:W31-33,35,36,38-43,45-50:B1-11,13,16,17,19,20,25",
    "W:W32,34,35,42-50:B1-5,7-10,16,19,22",
    "W:W25,27,28,30-33,35,37,39,41,47,49,50:B3,4,6,8,12-19,24,26",
]


def kernel_run(eng: Engine, pos: Position, depth: int, each=None):
    """(nodes, CPU seconds, wall seconds) of iterative deepening to ``depth`` in this thread (kernel only);
    ``each(depth, nodes so far, CPU seconds so far)`` after each depth when given."""
    own, opp = (pos.white, pos.black) if pos.turn else (pos.black, pos.white)
    lane = eng._lanes[0]
    ctl = np.zeros(2, np.int64)
    pv = np.zeros(3 * (K.MAX_PLY + 1), np.uint64)
    info = np.zeros(K.N_INFO, np.int64)
    keys = np.zeros(0, np.uint64)
    c0, w0 = time.thread_time(), time.perf_counter()
    for d in range(1, depth + 1):
        params = np.zeros(K.N_PARAMS, np.int64)
        params[K.P_DEPTH] = d
        eng._settings(params)  # the engine's pruning settings, as its own searches use them
        params[K.P_ALPHA] = -K.INF
        params[K.P_BETA] = K.INF
        K.search_kernel(np.uint64(own), np.uint64(opp), np.uint64(pos.kings), pos.turn, params, ctl, eng._tt,
                        lane["ws"], lane["killers"], lane["history"], eng.table, eng.patterns, keys, pv, info)
        if each is not None:
            each(d, int(ctl[1]), time.thread_time() - c0)
    return int(ctl[1]), time.thread_time() - c0, time.perf_counter() - w0


def mobydam_search(binary: Path, fen: str) -> tuple[int, int, float]:
    """(depth reached, nodes, wall seconds) of Moby Dam's 10-second search of ``fen`` (``-o``)."""
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        subprocess.run([str(binary), "-t", "22", "-o", fen], cwd=tmp, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=False)
        wall = time.perf_counter() - t
        log = (Path(tmp) / "engine.log").read_text(encoding="latin-1")
    depth = re.findall(r"reached depth=(\d+)", log)
    nodes = re.findall(r"nodes total=(\d+)", log)
    if not depth or not nodes:
        raise SystemExit(f"no search report in Moby Dam's log for {fen}")
    return int(depth[-1]) - 1, int(nodes[-1]), wall  # (``reached depth=d``: the iteration the time stopped)


def versus_mobydam(binary: Path, seconds: float, positions: int, hash_mb: int) -> None:
    eng = Engine(threads=1, hash_mb=hash_mb)
    eng.search(Position(), depth=2)
    print(f"Moby Dam -o (10 s) against ours ({seconds:g} s, 1 thread); nodes/s of wall time")
    print(f"{'position':58s} {'MD depth':>8s} {'MD Mn/s':>8s} {'depth':>6s} {'Mn/s':>6s}")
    md_n = md_t = n_ours = t_ours = 0.0
    for fen in FENS[:positions]:
        d1, n1, _ = mobydam_search(binary, fen)
        eng.new_game()
        r = eng.search(Position(fen), time=seconds)
        md_n += n1
        md_t += 10.0
        n_ours += r.nodes
        t_ours += r.time
        print(f"{fen[:58]:58s} {d1:8d} {n1 / 10.0 / 1e6:8.2f} {r.depth:6d} {r.nodes / r.time / 1e6:6.2f}")
    print(f"all: Moby Dam {md_n / md_t / 1e6:.2f} M nodes/s, ours {n_ours / t_ours / 1e6:.2f} M nodes/s")


def per_depth(fen: str, depth: int, hash_mb: int) -> None:
    eng = Engine(threads=1, hash_mb=hash_mb)
    eng.search(Position(), depth=2)
    eng.new_game()
    print(f"{fen}: nodes at the end of each depth, 1 thread, cleared table (exact; CPU seconds are noisy)")
    kernel_run(eng, Position(fen), depth,
               lambda d, n, c: print(f"depth {d:3d} {n:12d} nodes  {c:8.2f} CPU s", flush=True))


def nodes_to_depth(depth: int, variants: list[str], hash_mb: int) -> None:
    from draughts_shots import engine_for

    named = [("defaults", {})] + [(v.partition(":")[0], json.loads(v.partition(":")[2] or "{}")) for v in variants]
    print(f"nodes to depth {depth}, 1 thread, cleared table (exact); CPU seconds and nodes/s are noisy")
    base = None
    for name, settings in named:
        eng = engine_for(settings, hash_mb)
        eng.search(Position(), depth=2)
        ns, cpu = [], 0.0
        for fen in FENS:
            eng.new_game()
            n, c, _ = kernel_run(eng, Position(fen), depth)
            ns.append(n)
            cpu += c
        geo = math.exp(sum(math.log(n) for n in ns) / len(ns))
        base = geo if base is None else base
        print(f"{name:24s} geo. mean {geo:11.0f}  x{geo / base:.3f}  total {sum(ns):11d}  "
              f"{sum(ns) / cpu / 1e6:.2f} M nodes/s  per position: {' '.join(str(n) for n in ns)}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hash-mb", type=int, default=64)
    ap.add_argument("--mobydam", type=Path, default=None, help="compare with this Moby Dam binary instead")
    ap.add_argument("--seconds", type=float, default=10.0, help="our search time with --mobydam (default 10)")
    ap.add_argument("--positions", type=int, default=4, help="positions with --mobydam (default 4)")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME:JSON",
                    help="nodes to --depth of these engine settings against the defaults instead")
    ap.add_argument("--fen", default=None, help="nodes at the end of each depth for this position instead")
    args = ap.parse_args(argv)
    if args.fen is not None:
        per_depth(args.fen, args.depth, args.hash_mb)
        return
    if args.variant:
        nodes_to_depth(args.depth, args.variant, args.hash_mb)
        return
    if args.mobydam is not None:
        versus_mobydam(args.mobydam, args.seconds, args.positions, args.hash_mb)
        return
    one = Engine(threads=1, hash_mb=args.hash_mb)
    two = Engine(threads=2, hash_mb=args.hash_mb)
    one.search(Position(), depth=2)
    two.search(Position(), depth=2)
    total_n = total_c = 0.0
    ratios = []
    print(f"depth {args.depth}; nodes/s = nodes / CPU seconds of the search thread; t1, t2 = median wall seconds "
          f"to depth on 1 and 2 threads ({args.rounds} alternating runs)")
    print(f"{'position':58s} {'nodes':>10s} {'cpu s':>7s} {'Mnodes/s':>8s} {'t1':>7s} {'t2':>7s} {'t2/t1':>6s}")
    for fen in FENS:
        pos = Position(fen)
        one.new_game()
        n, c, _ = kernel_run(one, pos, args.depth)
        total_n += n
        total_c += c
        t1, t2 = [], []
        for _ in range(args.rounds):
            for eng, ts in ((one, t1), (two, t2)):
                eng.new_game()
                t = time.perf_counter()
                eng.search(pos, depth=args.depth)
                ts.append(time.perf_counter() - t)
        m1, m2 = statistics.median(t1), statistics.median(t2)
        ratios.append(m2 / m1)
        print(f"{fen[:58]:58s} {n:10d} {c:7.3f} {n / c / 1e6:8.2f} {m1:7.3f} {m2:7.3f} {m2 / m1:6.2f}")
    print(f"all: {total_n / total_c / 1e6:.2f} M nodes/s; median time to depth {args.depth}, 2 threads / 1: "
          f"{statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
