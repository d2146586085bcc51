"""Simulation playouts/s and endgame solve times: numba_words beside MAGPIE's ``sim`` and ``endgame`` commands on the
same positions, alternating runs, 1 thread unless ``--threads``.

    python benchmarks/scrabble_search_magpie.py sim --magpie MAGPIE_DIR [--iterations 1000] [--rounds 3]
    python benchmarks/scrabble_search_magpie.py endgame --magpie MAGPIE_DIR [--plies 4] [--positions 4]
    python benchmarks/scrabble_search_magpie.py endgame --magpie MAGPIE_DIR --plies 6 --cgp benchmarks/data/magpie_endgame_tests.cgp

``sim``: 15 candidates, 2 plies, every candidate played out ``--iterations`` times (no early stopping on either
side: MAGPIE round-robin sampling, ``-minplayiterations``, no stopping threshold) on midgame positions from the package's TWL06 set with the
opponent's rack unknown; a playout = one candidate played out. MAGPIE's figure is its own iteration count over
its own reported time (loading excluded). Both use equity players (ours: ``--klv2`` when given, else the
variant's table). ``endgame``: 7-against-7 endgames from self-played games (first turn with the bag empty), at
``--plies`` on both sides, values printed side by side (equal when both searches reach the end of the game);
``--cgp FILE``: the endgames of a file instead (one CGP a line, ``#`` starts a comment; ``--only TEXT`` keeps the
lines whose comment holds TEXT), all solved with TWL06 on both sides.
MAGPIE runs in a scratch folder linking its ``bin`` and ``data`` (so its saved settings stay there).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
import time
from pathlib import Path


def _magpie(root: Path, script: str, want: str) -> str:
    """MAGPIE's output for the command lines ``script``. Its console runs a command while it reads the next, and
    refuses commands that arrive while one runs: the lines go in one at a time with a pause between them, and a run
    whose output lacks ``want`` is tried again with longer pauses (its own reported times exclude the pauses)."""
    lines = script.splitlines(keepends=True)
    for attempt in range(6):
        with tempfile.TemporaryDirectory() as d:
            for name in ("bin", "data"):
                (Path(d) / name).symlink_to(root / name)
            with tempfile.TemporaryFile("w+") as log:
                proc = subprocess.Popen([str(Path(d) / "bin" / "magpie")], stdin=subprocess.PIPE, stdout=log,
                                        stderr=subprocess.STDOUT, text=True, cwd=d)
                for i, ln in enumerate(lines):
                    if i:
                        time.sleep(0.2 * 2 ** attempt)
                    proc.stdin.write(ln)
                    proc.stdin.flush()
                proc.stdin.close()
                proc.wait()
                log.seek(0)
                out = log.read()
        if want in out:
            return out
    raise RuntimeError(f"MAGPIE did not run the commands: {out[-500:]}")


def magpie_sim(root: Path, cgp: str, iterations: int, threads: int) -> float:
    """Playouts per second MAGPIE reports for its own run (15 plays x ``iterations``)."""
    n = 15 * iterations
    out = _magpie(root, f"set -savesettings false -lex TWL06 -wmp true -s1 equity -s2 equity -numplays 15 "
                        f"-plies 2 -threads {threads} -seed 1 -iterations {n} -minplayiterations {iterations} "
                        f"-scondition 99.999999 -sr rr\ncgp {cgp}\ngsim\n", "Iters:")
    it = int(re.findall(r"Iters:\s+(\d+)", out)[-1])
    sec = float(re.findall(r"Time:\s+([0-9.]+) seconds", out)[-1])
    return it / sec


def magpie_endgame(root: Path, cgp: str, plies: int, threads: int = 1) -> tuple:
    out = _magpie(root, f"set -savesettings false -lex TWL06 -threads {threads} -eplies {plies}\ncgp {cgp}\n"
                        "endgame\n", "Endgame (depth")
    sec = float(re.findall(r"Endgame \(depth: \d+, time: ([0-9.]+)s", out)[-1])
    # the first row of its table: "pass" or the move and its score (and "(RACK +n)" going out), then V (the
    # value) and S
    row = re.findall(r"\n\s*(?:pass|\S+ \S+ -?\d+(?: \(\S+ [+-]\d+\))?)\s+(-?\d+)\s+(-?\d+)",
                     out.split("Endgame (depth")[-1])
    return sec, int(row[0][0]) if row else None


def sim_main(a) -> None:
    from numba_words.scrabble import Position
    from numba_words.scrabble.sim import simulate

    lines = (Path(__file__).resolve().parent.parent / "numba_words" / "data" /
             "scrabble_midgame_twl06.cgp").read_text().splitlines()
    cgps = []
    for ln in lines[1::8][: a.positions]:
        rows, rack = ln.split()[:2]
        cgps.append(f"{rows} {rack.split('/')[0]}/ 0/0 0")
    root = Path(a.magpie) if a.magpie else None
    for cgp in cgps:
        pos = Position.from_cgp(cgp)
        if a.klv2:
            pos.leaves = a.klv2
        simulate(pos, candidates=15, iterations=8, threads=a.threads, z=1e9)  # compile / load
        ours, theirs = [], []
        for _ in range(a.rounds):
            r = simulate(pos, candidates=15, iterations=a.iterations, threads=a.threads, seed=len(ours), z=1e9)
            ours.append(r.playouts / r.seconds)
            if root:
                theirs.append(magpie_sim(root, cgp, a.iterations, a.threads))
        line = f"{cgp[:40]}... rack {pos.rack}: numba_words {max(ours):,.0f} playouts/s"
        if theirs:
            line += f", MAGPIE {max(theirs):,.0f}, ratio {max(ours) / max(theirs):.2f}x"
        print(line + f" (best of {a.rounds}, {a.threads} thread(s))", flush=True)


def cgp_positions(path, only=None) -> list:
    """``(Position, comment)`` for each CGP line of ``path`` (TWL06), the lines whose comment holds ``only``."""
    from numba_words.scrabble import Position

    out = []
    for ln in Path(path).read_text().splitlines():
        cgp, _, note = ln.partition("#")
        if cgp.strip() and (not only or only in note):
            out.append((Position.from_cgp(cgp.strip(), lexicon="twl06"), note.strip()))
    return out


def endgame_main(a) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_scrabble_endgame import positions_from_games

    from numba_words.scrabble.endgame import solve_endgame

    root = Path(a.magpie) if a.magpie else None
    if a.cgp:
        ps = cgp_positions(a.cgp, a.only)
    else:
        ps = [(p, "") for p in positions_from_games(2 * (a.positions + a.skip), seed=a.seed, max_tiles=7)[a.skip:]]
    for pos, note in ps:
        cgp = pos.cgp()
        solve_endgame(pos, plies=1)  # compile / load
        ours, theirs = [], []
        for _ in range(a.rounds):
            t = time.perf_counter()
            r = solve_endgame(pos, plies=a.plies, tt_mb=a.tt_mb, threads=a.threads)
            ours.append(time.perf_counter() - t)
            if root:
                theirs.append(magpie_endgame(root, cgp, a.plies, a.threads))
        line = (f"{note + ': ' if note else ''}{pos.rack}/{pos.opp_rack} {a.plies} plies: numba_words {min(ours):.3f} s value {r.value:+d} "
                f"({'exact' if r.exact else 'depth-limited'}, {r.nodes:,} nodes)")
        if theirs:
            sec = min(t[0] for t in theirs)
            line += f"; MAGPIE {sec:.3f} s value {theirs[0][1]:+d}; time ratio {min(ours) / max(sec, 1e-9):.1f}x"
        print(line + f" ({a.threads} thread(s))", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("sim", "endgame"))
    ap.add_argument("--magpie", default=None, help="MAGPIE build folder (bin/magpie, data/)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=1000, help="sim: iterations per candidate")
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--klv2", default=None, help="sim: leave file for numba_words (MAGPIE uses its TWL06.klv2)")
    ap.add_argument("--plies", type=int, default=4, help="endgame: depth on both sides")
    ap.add_argument("--tt-mb", type=float, default=64)
    ap.add_argument("--seed", type=int, default=5, help="endgame: self-play seed of the positions")
    ap.add_argument("--skip", type=int, default=0, help="endgame: leave out the first positions")
    ap.add_argument("--cgp", default=None, help="endgame: a file of endgame CGPs instead of self-played ones")
    ap.add_argument("--only", default=None, help="endgame --cgp: the lines whose comment holds this text")
    a = ap.parse_args()
    (sim_main if a.what == "sim" else endgame_main)(a)


if __name__ == "__main__":
    main()
