"""Draughts perft side by side with the public engines Moby Dam (and Scan 3.1), in the same run.

    python benchmarks/draughts_vs_peers.py [--peers DIR] [--quick] [--rounds N] [--only TEXT] [--json FILE]

``--peers DIR`` (or the environment variable ``NUMBA_WORDS_PEERS``) names the folder where the peers were
built (``mobydam/test/perft``, and ``draughts/scan_perft`` for Scan: see the peers kit's README). Without
it only our figures are printed, and the table says the peers were not run.

For every row the node counts of both sides are compared first (a row whose counts differ is reported as a
mismatch and the script exits with status 1); then the engines run ALTERNATELY, ``--rounds`` times each, and
each side's best time is kept, so a machine busy with other work slows both sides alike. Rates are
M nodes/s; ``ratio`` is ours over Moby Dam's; ``spread`` is slowest/fastest round (how noisy the row was).

Rows: perft with bulk counting (Moby Dam ``-b``; Scan's driver counts the last ply from its move list) on the
initial position and a suite of king-only, king-heavy and long-capture positions; every-leaf perft
(``leaves=True``, Moby Dam without ``-b``); and our perft on 2 threads against our 1 thread.

The every-leaf rows do equivalent work on both sides: without ``-b`` Moby Dam generates the move list of
every position one ply above the leaves (its list entries are the positions after each move, so the leaf
positions are produced) and then calls its perft once per entry, which returns 1; ours lists every leaf move
into the move list of the next ply as its (a, b, c) XOR masks (the position after it is three XORs away),
and adds up the list lengths; neither counts a leaf without listing its move. Moby Dam's tool
also runs every shallower depth first; only its line for the asked depth (its own timer) is used.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

#: (name, FEN, depth, depth with --quick): depths chosen for about 1-3 s a run on one core.
SUITE = [
    ("initial", "W:W31-50:B1-20", 11, 9),
    ("all kings", "W:WK31-50:BK1-20", 10, 8),
    ("woldouby", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 15, 12),
    ("kings+men middlegame", "W:W28,31,32,33,34,36,37,38,K3,K9:B11,12,13,14,16,17,18,19,K42,K48", 11, 9),
    ("2 kings, men", "W:W36,37,39,43,44,46,48,49:B1,2,4,5,7,8,11,15,19,22,35,K45,K47", 9, 7),
    ("king-heavy", "B:WK2,6,K12,K22,K31,K39,K40,K41,K44,K47,K48,K49:BK3,K15", 7, 6),
    ("2 kings vs man chain", "W:WK46,K50:B7,8,9,12,13,17,18,19,22,23,24,27,28,29,32,33,34", 10, 8),
    ("2 kings, 12-piece captures", "W:WK48,K50:B6,7,8,10,17,21,23,25,29,31,34,39,40,41,42,43", 10, 8),
    # not from the perft suites (counts checked against Moby Dam's on the same FEN): kings of both sides
    # with a few men, and corner kings facing a block of men (long captures on both sides)
    ("3 kings + 2 men a side", "W:WK3,K26,K44,30,35:BK8,K23,K41,12,16", 7, 6),
    ("4 kings + 2 men a side", "B:WK10,K28,K33,K46:BK4,K19,K37,K50,6,15", 10, 8),
    ("corner kings vs king block", "W:WK1,K5,K46,K50,28:BK23,K27,K24,K29,13,14,17,18,33,34,37,38", 10, 8),
]
#: every-leaf rows: (name, FEN, depth, quick depth)
LEAVES = [
    ("initial", "W:W31-50:B1-20", 10, 8),
    ("all kings", "W:WK31-50:BK1-20", 9, 7),
    ("woldouby", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 14, 11),
    ("4 kings + 2 men a side", "B:WK10,K28,K33,K46:BK4,K19,K37,K50,6,15", 9, 7),
]
THREADS = ("initial", "W:W31-50:B1-20", 11, 10)


def _ours(fen, depth, threads=1, leaves=False):
    from numba_words.draughts import perft

    t = time.perf_counter()
    n = perft(fen, depth, threads=threads, leaves=leaves)
    return n, time.perf_counter() - t


def _moby(binary, fen, depth, bulk=True):
    """(nodes, seconds) of Moby Dam's perft tool at ``depth`` (its line for that depth, its own timer)."""
    args = [binary] + (["-b"] if bulk else []) + ["-c", str(depth), fen]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        # "perft(9) 41022423 nodes, 0.21 sec, 198002 kN/s, bulk"
        if line.startswith(f"perft({depth}) "):
            f = line.split()
            nodes, knps = int(f[1]), float(f[5])
            return nodes, nodes / (knps * 1e3) if knps > 0 else float(f[3])
    raise RuntimeError(f"no perft({depth}) line in Moby Dam's output:\n{out}")


def _scan(binary, depth, bulk=True):
    """(nodes, seconds) of the Scan driver (initial position only): "scan perft(9) N nodes, S s, ..."."""
    out = subprocess.run([binary, str(depth), "bulk" if bulk else "nobulk"], capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[2]), float(out[4])


def _best(runs, rounds):
    """Run each of ``runs`` (name -> callable returning (nodes, seconds)) ``rounds`` times, alternating:
    {name: (nodes, best seconds, slowest / fastest)}."""
    times = {k: [] for k in runs}
    nodes = {}
    for _ in range(rounds):
        for k, fn in runs.items():
            n, s = fn()
            nodes[k] = n
            times[k].append(s)
    return {k: (nodes[k], min(v), max(v) / min(v)) for k, v in times.items()}


def _row(section, name, depth, res, mine="ours", peer="moby"):
    n, s, spread = res[mine]
    row = {"section": section, "position": name, "depth": depth, "nodes": n, "ours_mnps": n / s / 1e6,
           "ours_spread": spread}
    if peer in res:
        pn, ps, pspread = res[peer]
        row.update(peer_mnps=pn / ps / 1e6, peer_spread=pspread, ratio=(pn / ps) and (n / s) / (pn / ps))
    if "scan" in res:
        sn, ss, _ = res["scan"]
        row.update(scan_mnps=sn / ss / 1e6, scan_ratio=(n / s) / (sn / ss))
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peers", default=os.environ.get("NUMBA_WORDS_PEERS"),
                    help="folder of the built peers (default: $NUMBA_WORDS_PEERS); without it only ours run")
    ap.add_argument("--quick", action="store_true", help="smaller depths (a fraction of a second a run)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs per engine and row (best kept)")
    ap.add_argument("--only", default="", help="only rows whose position name contains this text")
    ap.add_argument("--no-leaves", action="store_true", help="skip the every-leaf rows")
    ap.add_argument("--no-threads", action="store_true", help="skip the 2-thread row")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON to FILE ('-': standard output)")
    a = ap.parse_args(argv)

    import numba

    from numba_words.draughts import warmup

    moby = scan = None
    if a.peers:
        moby = os.path.join(a.peers, "mobydam", "test", "perft")
        scan = os.path.join(a.peers, "draughts", "scan_perft")
        if not os.access(moby, os.X_OK):
            sys.exit(f"no Moby Dam perft tool at {moby}")
        if not os.access(scan, os.X_OK):
            scan = None
    warmup()
    pick = 3 if a.quick else 2
    rows, bad = [], []

    def run(section, name, fen, depth, leaves=False):
        runs = {"ours": lambda: _ours(fen, depth, leaves=leaves)}
        if moby:
            runs["moby"] = lambda: _moby(moby, fen, depth, bulk=not leaves)
        if scan and name == "initial":
            runs["scan"] = lambda: _scan(scan, depth, bulk=not leaves)
        first = {k: fn()[0] for k, fn in runs.items()}  # counts agree before any timing
        if len(set(first.values())) > 1:
            bad.append((section, name, depth, first))
            print(f"MISMATCH {section} {name} depth {depth}: {first}", file=sys.stderr)
            return
        rows.append(_row(section, name, depth, _best(runs, a.rounds)))
        _print_row(rows[-1])

    print(f"draughts perft, 1 thread unless said, best of {a.rounds} alternating runs; "
          f"{platform.machine()} {os.cpu_count()} CPUs; peers: {a.peers if moby else 'NOT RUN (no --peers)'}")
    print(f"{'section':8} {'position':28} {'depth':>5} {'nodes':>14} {'ours M/s':>9} {'Moby M/s':>9} "
          f"{'ratio':>6} {'spread':>12}")
    for name, fen, depth, qdepth in SUITE:
        if a.only in name:
            run("bulk", name, fen, depth if pick == 2 else qdepth)
    if not a.no_leaves:
        for name, fen, depth, qdepth in LEAVES:
            if a.only in name:
                run("leaves", name, fen, depth if pick == 2 else qdepth, leaves=True)
    if not a.no_threads and numba.config.NUMBA_NUM_THREADS >= 2 and a.only in THREADS[0]:
        name, fen, depth, qdepth = THREADS
        d = depth if pick == 2 else qdepth
        res = _best({"one": lambda: _ours(fen, d, threads=1), "two": lambda: _ours(fen, d, threads=2)}, a.rounds)
        n1, s1, sp1 = res["one"]
        n2, s2, sp2 = res["two"]
        row = {"section": "threads", "position": name, "depth": d, "nodes": n2, "ours_mnps": n2 / s2 / 1e6,
               "ours_spread": sp2, "one_thread_mnps": n1 / s1 / 1e6, "scaling": s1 / s2}
        rows.append(row)
        print(f"{'2 thr':8} {name:28} {d:5d} {n2:14,d} {row['ours_mnps']:9.1f} {'':9} {'':6} "
              f"{sp2:12.2f}   {row['scaling']:.2f}x our 1 thread ({row['one_thread_mnps']:.1f} M/s)")
    if not moby:
        print("peers were not run: give --peers DIR (or set NUMBA_WORDS_PEERS) to compare with Moby Dam")
    if a.json:
        doc = {"date": time.strftime("%Y-%m-%d"), "machine": platform.machine(), "cpus": os.cpu_count(),
               "rounds": a.rounds, "quick": a.quick, "peers_run": bool(moby), "rows": rows,
               "mismatches": [dict(section=s, position=p, depth=d, nodes=n) for s, p, d, n in bad]}
        text = json.dumps(doc, indent=1)
        if a.json == "-":
            print(text)
        else:
            with open(a.json, "w") as f:
                f.write(text + "\n")
    return 1 if bad else 0


def _print_row(r):
    peer = f"{r['peer_mnps']:9.1f} {r['ratio']:6.2f}" if "peer_mnps" in r else f"{'-':>9} {'-':>6}"
    spread = f"{r['ours_spread']:.2f}/{r['peer_spread']:.2f}" if "peer_spread" in r else f"{r['ours_spread']:.2f}"
    scan = f"   Scan {r['scan_mnps']:.1f} M/s (ours {r['scan_ratio']:.2f}x)" if "scan_mnps" in r else ""
    print(f"{r['section']:8} {r['position']:28} {r['depth']:5d} {r['nodes']:14,d} {r['ours_mnps']:9.1f} {peer} "
          f"{spread:>12}{scan}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
