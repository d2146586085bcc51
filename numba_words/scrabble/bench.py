"""Throughput measurement shared by the CLI report, the tour and the benchmarks.

The position set is fixed: self-play games (top-score strategy, seeds 0..n-1) with TWL06, keeping the position
on turn after moves 6, 8, 10, 12 and 14 of each game (midgame boards, the mover's real rack).
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from .._jit import threads as _threads
from . import _movegen
from ._tables import bingo_for, reach_for, span_table
from .generator import SIZE


DATA_FILE = Path(__file__).resolve().parents[2] / "data" / "scrabble" / "midgame_twl06.cgp"


def load_positions(lex, path=DATA_FILE) -> list:
    """The fixed benchmark set (``data/scrabble/midgame_twl06.cgp``, one CGP a line)."""
    from .position import Position

    return [Position.from_cgp(line, lexicon=lex) for line in Path(path).read_text().splitlines() if line.strip()]


def benchmark_positions(lex) -> list:
    """The stored set when the repository's data folder is there, else the same self-play recipe."""
    if DATA_FILE.exists():
        return load_positions(lex)
    return midgame_positions(lex, 8)


def midgame_positions(lex, n_games: int = 8, plies=(6, 8, 10, 12, 14)) -> list:
    """Self-play recipe of the benchmark set (stored in ``data/scrabble/midgame_twl06.cgp``)."""
    from .position import Game

    out = []
    for seed in range(n_games):
        g = Game("scrabble", lex, seed=seed)
        for k in range(max(plies) + 1):
            if g.over:
                break
            if k in plies:
                out.append(g.position.copy())
            g.play_best()
    return out


class Batch:
    """Per-position arrays stacked for the kernels (one variant and lexicon)."""

    def __init__(self, positions, cap: int = 8192):
        b0 = positions[0].board
        self.P = len(positions)
        self.v = b0.variant
        self.dawg = b0.dawg
        self.lm, self.wm, self.values = b0.lm, b0.wm, b0.values
        self.lines = np.stack([p.board.lines for p in positions])
        self.fv = np.stack([p.board.fv for p in positions])
        self.occ = np.stack([p.board.occ for p in positions])
        self.cc = np.stack([p.board.cc for p in positions])
        self.xs = np.stack([p.board.xs for p in positions])
        racks = [p._rack_arrays() for p in positions]
        self.counts = np.stack([r[0] for r in racks])
        self.nblank = np.array([r[1] for r in racks], np.int64)
        self.empty = np.array([p.board.empty for p in positions])
        self.cap = cap
        self.meta = np.zeros((self.P, cap, 6), np.int32)
        self.words = np.zeros((self.P, cap, SIZE), np.uint8)
        self.bm = np.zeros((self.P, cap), np.uint16)
        self.nm = np.zeros((self.P, cap), np.uint16)
        self.nout = np.zeros(self.P, np.int64)
        self.span = span_table()
        self.reach = reach_for(self.dawg)
        self.btab = bingo_for(self.dawg)

    def run_serial(self, best_only=False) -> int:
        """One kernel call per position (the single-position path). Returns total plays."""
        tot = 0
        ri, bi = np.int64(self.v.rack_size), np.int64(self.v.bingo)
        for p in range(self.P):
            tot += _movegen.generate(self.lines[p], self.fv[p], self.occ[p], self.cc[p], self.xs[p], self.lm,
                                     self.wm, self.values, self.counts[p], self.nblank[p], ri, bi, self.dawg,
                                     self.span, self.empty[p], self.meta[p], self.words[p], self.bm[p], self.nm[p],
                                     best_only, self.reach)
        return tot

    def run_best(self) -> np.ndarray:
        """Best play score of every position with the pruned best-only kernel."""
        out = np.zeros(self.P, np.int64)
        ri, bi = np.int64(self.v.rack_size), np.int64(self.v.bingo)
        for p in range(self.P):
            _movegen.best(self.lines[p], self.fv[p], self.occ[p], self.cc[p], self.xs[p], self.lm, self.wm,
                          self.values, self.counts[p], self.nblank[p], ri, bi, self.dawg, self.span, self.empty[p],
                          self.meta[p], self.words[p], self.bm[p], self.nm[p], self.reach, self.btab)
            out[p] = self.meta[p, 0, 4]
        return out

    def run_batch(self, n_threads=None) -> int:
        with _threads(n_threads):
            _movegen.generate_batch(self.lines, self.fv, self.occ, self.cc, self.xs, self.lm, self.wm, self.values,
                                    self.counts, self.nblank, np.int64(self.v.rack_size), np.int64(self.v.bingo),
                                    self.dawg, self.span, self.empty, self.meta, self.words, self.bm, self.nm,
                                    self.nout, False, self.reach)
        return int(self.nout.sum())


def _timeit(fn, min_time=0.3, min_runs=3):
    fn()
    best = float("inf")
    t_end = time.perf_counter() + min_time
    n = 0
    while n < min_runs or time.perf_counter() < t_end:
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
        n += 1
    return best


def measure(positions, *, threads=(1, 2), reference_sample: int = 2, reference_rack: int = 3,
            min_time=0.3) -> dict:
    """Positions/s and plays/s: kernel per position, batch kernel at each thread count, best-only; and, in the
    same run, the plain-Python reference generator against the kernel on ``reference_sample`` positions with
    racks cut to ``reference_rack`` tiles (the reference needs about a minute for one full 7-tile rack)."""
    b = Batch(positions)
    res = {"positions": b.P}
    plays = b.run_serial()
    res["plays"] = plays
    t = _timeit(b.run_serial, min_time)
    res["serial_s"] = t
    for n in threads:
        t = _timeit(lambda: b.run_batch(n), min_time)
        res[f"batch_{n}t_s"] = t
    t = _timeit(b.run_best, min_time)
    res["best_s"] = t
    if reference_sample:
        small = []
        for p in positions[:reference_sample]:
            q = p.copy()
            q.rack = q.rack[:reference_rack]
            small.append(q)
        res.update(_reference_rate(small))
        bs = Batch(small, cap=1024)
        res["reference_kernel_s"] = _timeit(bs.run_serial, min_time / 3)
        res["reference_rack"] = reference_rack
    return res


def _reference_rate(positions) -> dict:
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tests" / "scrabble_reference.py"
    if not path.exists():
        return {}
    spec = importlib.util.spec_from_file_location("_scrabble_reference", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("_scrabble_reference", mod)
    spec.loader.exec_module(mod)
    words = set(positions[0].lexicon.words)
    v = positions[0].variant
    n = 0
    t = time.perf_counter()
    for p in positions:
        L, B = p.board.letters, p.board.blanks
        board = [[None if L[r, c] == 255 else (p.alphabet[L[r, c]].lower() if B[r, c] else p.alphabet[L[r, c]])
                  for c in range(15)] for r in range(15)]
        n += len(mod.reference_plays(board, p.rack, words, values=v.values, layout=v.layout, alphabet=p.alphabet,
                                     bingo=v.bingo, rack_size=v.rack_size, centre_word_mult=v.centre_word_mult))
    return {"reference_s": time.perf_counter() - t, "reference_positions": len(positions), "reference_plays": n}


def report(res, echo=print) -> None:
    P, n = res["positions"], res["plays"]
    echo(f"{P} self-play midgame TWL06 positions, {n:,} plays ({n / P:,.0f} a position)")
    t = res["serial_s"]
    echo(f"  full generation, 1 thread, one call a position: {t / P * 1e6:8.1f} us/position "
         f"{P / t:9,.0f} positions/s {n / t / 1e6:6.2f} M plays/s")
    for k in sorted(x for x in res if x.startswith("batch_")):
        t = res[k]
        nt = k.split("_")[1].rstrip("t")
        echo(f"  full generation, batch kernel, {nt:>2} threads:    {t / P * 1e6:8.1f} us/position "
             f"{P / t:9,.0f} positions/s {n / t / 1e6:6.2f} M plays/s")
    t = res["best_s"]
    echo(f"  best play only (pruned), 1 thread:             {t / P * 1e6:8.1f} us/position {P / t:9,.0f} positions/s")
    if "reference_s" in res:
        rp, rt = res["reference_positions"], res["reference_s"]
        kt = res["reference_kernel_s"]
        echo(f"  plain-Python reference, {rp} positions, racks cut to {res['reference_rack']} tiles: "
             f"{rt / rp * 1e3:,.0f} ms/position, {res['reference_plays'] / rt:,.0f} plays/s; kernel on the same: "
             f"{kt / rp * 1e6:,.1f} us/position -> {rt / kt:,.0f}x")
