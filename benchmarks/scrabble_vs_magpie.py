"""Scrabble move generation side by side with MAGPIE, per rack class, in one run.

Runs numba_words on a CGP file (default: the representative set ``data/scrabble/twl06_bench.cgp``) through
the public API (``Position.legal_plays()``, ``Position.best_play()``) and the kernels alone, and, given
MAGPIE's build folder (``--magpie DIR`` or env ``MAGPIE_DIR``: the peers' ROOT, holding
``magpie_bench/magpie_movegen_bench`` and ``MAGPIE/data``), MAGPIE's timing driver on the same positions split
by rack class. Every round runs every measurement once, ours and MAGPIE's alternating; each figure is the best
(lowest) of the rounds. Prints us/position per rack class (no blank / one / two blanks) and overall, and the
ratios MAGPIE time / our time (above 1: we are faster). MAGPIE's "all" is its KWG generator with every move
recorded; its "best" is the word-map (WMP) generator recording the best move by equity (its fastest best-only
mode), KWG best beside it. MAGPIE's best is by equity with its TWL06.klv2 leaves: ``best_play()`` (by score) and
``best(by="equity")`` (our shipped TWL06 leaves, the same kind of search) are both shown beside it.

    PYTHONPATH=. python benchmarks/scrabble_vs_magpie.py --magpie ../peers --rounds 3
    PYTHONPATH=. python benchmarks/scrabble_vs_magpie.py --threads        # also generate_many 1 vs 2 threads
    PYTHONPATH=. python benchmarks/scrabble_vs_magpie.py --magpie ../peers --batch   # also best_many 1 and 2 threads

Two regimes are reported. REPEATED: ``best()``/``legal_plays()`` on the same Position objects round after round
(MAGPIE's load outside its timing). NEW POSITIONS: from a CGP string to the answer, a fresh ``Position.from_cgp``
every call, against MAGPIE's driver with ``LOAD=1`` (``game_load_cgp`` + ``generate_moves`` timed).

Timings on a shared machine are noisy; compare ratios from the same run only.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CGP = HERE.parent / "data" / "scrabble" / "twl06_bench.cgp"
CLASSES = (0, 1, 2)
CLASS_NAME = {0: "no blank", 1: "one blank", 2: "two blanks"}


CLOCK = {"cpu": time.thread_time, "wall": time.perf_counter}
_clock = time.thread_time


def _time_loop(fn, min_time, clock=None):
    """Seconds one call of ``fn`` takes: as many calls as fit in ``min_time`` (at least one), mean."""
    clock = clock or _clock
    n = 0
    t0 = clock()
    while True:
        fn()
        n += 1
        t = clock() - t0
        if t >= min_time:
            return t / n


class Ours:
    """Our measurements for one set of positions (one rack class)."""

    def __init__(self, cgps, lex):
        from numba_words.scrabble import Position
        from numba_words.scrabble.bench import Batch

        self.Position, self.lex, self.cgps = Position, lex, list(cgps)
        self.pos = [Position.from_cgp(c, lexicon=lex) for c in cgps]
        self.batch = Batch(self.pos)
        self.batch.run_serial()
        self.batch.run_best()
        self.n = len(self.pos)

    def legal_plays(self):
        for p in self.pos:
            p._plays = None  # the cache would answer otherwise
            p.legal_plays()

    def best_play(self):
        for p in self.pos:
            p.best_play()

    def best_equity(self):
        for p in self.pos:
            p.best(by="equity")

    # the new-position regime: a CGP string to the answer, a fresh Position each time (nothing kept from an earlier
    # call), against MAGPIE's driver with LOAD=1 (game_load_cgp + generate_moves timed)
    def new_legal_plays(self):
        for c in self.cgps:
            self.Position.from_cgp(c, lexicon=self.lex).legal_plays()

    def new_best_play(self):
        for c in self.cgps:
            self.Position.from_cgp(c, lexicon=self.lex).best_play()

    def new_best_equity(self):
        for c in self.cgps:
            self.Position.from_cgp(c, lexicon=self.lex).best(by="equity")

    def kernel_all(self):
        self.batch.run_serial()

    def kernel_best(self):
        self.batch.run_best()


def magpie_run(root: Path, cgp_file: str, mode: str, movegen: str, sweeps: int, clock: str, load: bool = False) -> float:
    """MAGPIE's us/position (``clock``: wall or cpu time) for one mode on one CGP file; ``load``: each position's
    CGP loaded again inside the timing (its driver's ``LOAD=1``: ``game_load_cgp`` + ``generate_moves``)."""
    exe = root / "magpie_bench" / "magpie_movegen_bench"
    env = dict(os.environ, LOAD="1" if load else "0")
    out = subprocess.run([str(exe), str(root / "MAGPIE" / "data"), cgp_file, mode, movegen, str(sweeps)],
                         capture_output=True, text=True, check=True, env=env).stdout
    m = re.search(r"us_per_position=([0-9.]+) [(]cpu ([0-9.]+)[)]", out)
    if not m:
        raise RuntimeError(f"unexpected MAGPIE output: {out!r}")
    return float(m.group(1 if clock == "wall" else 2))


def _fmt(x):
    return "-" if x is None else f"{x:,.1f}"


def _ratio(a, b):
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cgp", default=str(DEFAULT_CGP), help="CGP file, one position a line (TWL06)")
    ap.add_argument("--magpie", default=os.environ.get("MAGPIE_DIR"),
                    help="the peers' build folder (magpie_bench/ and MAGPIE/data inside); env MAGPIE_DIR")
    ap.add_argument("--rounds", type=int, default=3, help="rounds; each figure is the best of them")
    ap.add_argument("--min-time", type=float, default=0.25, help="seconds per measurement of ours")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu: each side's CPU time (steadier on a shared machine; default), wall: elapsed time")
    ap.add_argument("--threads", action="store_true", help="also generate_many(threads=1) vs threads=2")
    ap.add_argument("--per-position", action="store_true", help="best_play() per position: median, worst")
    ap.add_argument("--batch", action="store_true", help="also best_many(CGP strings, threads=1 and 2) against "
                    "MAGPIE's LOAD=1 best")
    ap.add_argument("--batch-copies", type=int, default=16,
                    help="with --batch, also a batch of the positions this many times (default 16)")
    a = ap.parse_args(argv)
    global _clock
    _clock = CLOCK[a.clock]

    from numba_words.lexicon import Lexicon
    from numba_words.scrabble import warmup

    lex = Lexicon.load("TWL06")
    warmup(lex, parts=("generate", "best", "equity"))
    cgps = [line.strip() for line in open(a.cgp) if line.strip()]
    from numba_words.scrabble import Position
    rack_class = [min(Position.from_cgp(c, lexicon=lex).rack.count("?"), 2) for c in cgps]
    classes = [k for k in CLASSES if k in rack_class]
    ours = {k: Ours([c for c, r in zip(cgps, rack_class) if r == k], lex) for k in classes}
    tmp = tempfile.TemporaryDirectory()
    files = {}
    for k in classes:
        files[k] = os.path.join(tmp.name, f"class{k}.cgp")
        with open(files[k], "w") as f:
            f.write("\n".join(c for c, r in zip(cgps, rack_class) if r == k) + "\n")
    root = Path(a.magpie) if a.magpie else None
    if root is not None and not (root / "magpie_bench" / "magpie_movegen_bench").exists():
        sys.exit(f"no magpie_bench/magpie_movegen_bench under {root}")

    cols = ["kernel_all", "legal_plays", "kernel_best", "best_play", "best_equity", "new_legal_plays",
            "new_best_play", "new_best_equity"]
    mcols = [("all", "kwg"), ("best", "wmp"), ("best", "kwg"), ("all", "kwg", "load"), ("best", "wmp", "load")]
    best = {(k, c): float("inf") for k in classes for c in cols + ["m_" + "_".join(m) for m in mcols]}
    for rnd in range(a.rounds):
        for k in classes:
            o = ours[k]
            for c in cols:
                t = _time_loop(getattr(o, c), a.min_time) / o.n * 1e6
                best[k, c] = min(best[k, c], t)
            if root is not None:
                for mc in mcols:
                    m, g = mc[:2]
                    # sweeps for ~0.2 s of MAGPIE timing at the speeds seen so far
                    guess = best[k, "kernel_all" if m == "all" else "kernel_best"] / (2 if g == "wmp" else 1)
                    sweeps = max(3, int(0.2e6 / max(guess * o.n, 1)))
                    t = magpie_run(root, files[k], m, g, sweeps, a.clock, load=len(mc) > 2)
                    best[k, "m_" + "_".join(mc)] = min(best[k, "m_" + "_".join(mc)], t)
        print(f"round {rnd + 1}/{a.rounds} done", file=sys.stderr)

    n = {k: ours[k].n for k in classes}
    plays = {k: ours[k].batch.run_serial() for k in classes}
    total = sum(n.values())

    def overall(c):
        v = [best[k, c] for k in classes]
        if any(x == float("inf") for x in v):
            return None
        return sum(best[k, c] * n[k] for k in classes) / total

    rows = []
    for k in classes + ["all"]:
        get = (lambda c, k=k: overall(c)) if k == "all" else (lambda c, k=k: None if best[k, c] == float("inf")
                                                              else best[k, c])
        name = "overall" if k == "all" else CLASS_NAME[k]
        npos = total if k == "all" else n[k]
        npl = sum(plays.values()) if k == "all" else plays[k]
        rows.append((name, npos, npl, get("m_all_kwg"), get("kernel_all"), get("legal_plays"),
                     get("m_best_wmp"), get("m_best_kwg"), get("kernel_best"), get("best_play"), get("best_equity")))
    print(f"\nREPEATED POSITIONS (the same Position objects each round; MAGPIE's load outside its timing)\n"
          f"{a.cgp}: {total} positions, best of {a.rounds} rounds, us/position ({a.clock} time; ratio = MAGPIE / "
          "ours, > 1: ours faster)")
    hdr = ("rack class", "pos", "placements", "MAGPIE all", "kernel", "ratio", "legal_plays()", "ratio",
           "MAGPIE best wmp", "(kwg)", "kernel best", "ratio", "best_play()", "ratio", "best(by='equity')", "ratio")
    print(" | ".join(hdr))
    for name, npos, npl, mall, kall, lp, mbw, mbk, kb, bp, be in rows:
        print(" | ".join([name, str(npos), f"{npl:,}", _fmt(mall), _fmt(kall), _ratio(mall, kall), _fmt(lp),
                          _ratio(mall, lp), _fmt(mbw), _fmt(mbk), _fmt(kb), _ratio(mbw, kb), _fmt(bp),
                          _ratio(mbw, bp), _fmt(be), _ratio(mbw, be)]))

    print(f"\nNEW POSITIONS (a CGP string to the answer: a fresh Position.from_cgp each call, nothing cached; MAGPIE's "
          f"driver with LOAD=1 times game_load_cgp + generate_moves), us/position ({a.clock} time; ratio = MAGPIE / "
          "ours)")
    print(" | ".join(("rack class", "pos", "MAGPIE load+all", "from_cgp+legal_plays()", "ratio", "MAGPIE load+best wmp",
                      "from_cgp+best_play()", "ratio", "from_cgp+best(by='equity')", "ratio")))
    for k in classes + ["all"]:
        get = (lambda c, k=k: overall(c)) if k == "all" else (lambda c, k=k: None if best[k, c] == float("inf")
                                                              else best[k, c])
        mall, mbest = get("m_all_kwg_load"), get("m_best_wmp_load")
        lp, bp, be = get("new_legal_plays"), get("new_best_play"), get("new_best_equity")
        print(" | ".join(["overall" if k == "all" else CLASS_NAME[k], str(total if k == "all" else n[k]), _fmt(mall),
                          _fmt(lp), _ratio(mall, lp), _fmt(mbest), _fmt(bp), _ratio(mbest, bp), _fmt(be),
                          _ratio(mbest, be)]))
    if a.batch:
        from numba_words.scrabble import best_many

        mb = overall("m_best_wmp_load")
        best_many(ours[classes[0]].cgps[:2], by="equity", lexicon=lex)  # (its kernel compiled or loaded outside)
        # the benchmark's positions once, and a batch of them ``--batch-copies`` times (every CGP read anew)
        for copies in dict.fromkeys((1, a.batch_copies)):
            allc = [c for k in classes for c in ours[k].cgps] * copies
            npos = len(allc)
            tb = {1: float("inf"), 2: float("inf"), "cpu1": float("inf")}
            for _ in range(a.rounds):
                for th in (1, 2):
                    tb[th] = min(tb[th], _time_loop(lambda th=th: best_many(allc, by="equity", lexicon=lex,
                                                                            threads=th),
                                                    a.min_time, time.perf_counter) / npos * 1e6)
                tb["cpu1"] = min(tb["cpu1"], _time_loop(lambda: best_many(allc, by="equity", lexicon=lex, threads=1),
                                                        a.min_time, time.thread_time) / npos * 1e6)
            print(f"\nBATCH (new positions: {npos:,} CGP strings{f', the {total} positions {copies} times' if copies > 1 else ''}"
                  f", read in the call; a kernel call a chunk of positions): "
                  f"best_many(CGP strings, by='equity'), us/position: 1 thread {tb['cpu1']:.1f} cpu time / {tb[1]:.1f} "
                  f"wall time, 2 threads {tb[2]:.1f} wall time ({tb[1] / tb[2]:.2f}x one thread's wall time); MAGPIE "
                  f"LOAD=1 best wmp 1 thread {_fmt(mb)} ({a.clock} time): 1 thread {_ratio(mb, tb['cpu1'])} (cpu), "
                  f"{_ratio(mb, tb[1])} (wall); 2 threads {_ratio(mb, tb[2])} of MAGPIE's 1-thread rate, "
                  f"{_ratio(mb, 2 * tb[2])} per thread (wall; on a quiet machine give --clock wall for like against like)")
        from boggle_vs_peers import probe_line  # (this folder's script: the same probe beside every batch)

        print(probe_line()[0])

    if a.per_position:
        allpos = [p for k in classes for p in ours[k].pos]
        ts = []
        for p in allpos:
            ts.append(min(_time_loop(p.best_play, 0.02) for _ in range(a.rounds)) * 1e6)
        med = statistics.median(ts)
        w = max(range(len(ts)), key=ts.__getitem__)
        print(f"\nbest_play() per position: median {med:.1f} us, worst {ts[w]:.1f} us ({ts[w] / med:.1f}x median; "
              f"rack {allpos[w].rack})")
    if a.threads:
        from numba_words.scrabble import generate_many

        allpos = [p for k in classes for p in ours[k].pos]
        t1 = t2 = float("inf")
        for _ in range(a.rounds):
            t1 = min(t1, _time_loop(lambda: generate_many(allpos, threads=1), a.min_time, time.perf_counter))
            t2 = min(t2, _time_loop(lambda: generate_many(allpos, threads=2), a.min_time, time.perf_counter))
        print(f"\nBATCH (positions already read): generate_many (wall time): 1 thread {t1 / total * 1e6:.1f} "
              "us/position, 2 threads "
              f"{t2 / total * 1e6:.1f} -> {t1 / t2:.2f}x")


if __name__ == "__main__":
    main()
