"""Throughput measurement shared by the CLI report, the tour and the benchmarks, always beside the plain-Python
reference generator (:mod:`._reference`) measured in the same run.

The stored position set (``numba_words/data/scrabble_midgame_twl06.cgp``, shipped in the wheel): self-play
games (top-score strategy, seeds 0..7) with TWL06, keeping the position on turn after moves 6, 8, 10, 12 and
14 of each game (midgame boards, the mover's real rack). :func:`midgame_positions` is the recipe, for any
lexicon.
"""
from __future__ import annotations

import importlib.resources

import numpy as np

from .. import _timing
from ._board import batch_arrays, plays_array
from ._reference import reference_plays
from ._tables import EMPTY, SIZE
from .errors import ScrabbleError, short

DATA_RESOURCE = "data/scrabble_midgame_twl06.cgp"
PLIES = (6, 8, 10, 12, 14)


def stored_cgps() -> list[str]:
    """The stored benchmark positions as CGP lines."""
    text = importlib.resources.files("numba_words").joinpath(DATA_RESOURCE).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


def load_positions(lex) -> list:
    """The stored benchmark set (40 positions) read with ``lex`` (TWL06 for the set as recorded)."""
    from .position import Position

    return [Position.from_cgp(line, lexicon=lex) for line in stored_cgps()]


def benchmark_positions(lex) -> list:
    """The stored set for an English lexicon, else the same self-play recipe with ``lex``."""
    if lex.alphabet.letters == "ABCDEFGHIJKLMNOPQRSTUVWXYZ" and lex.name.lower() in ("twl06", "twl"):
        return load_positions(lex)
    return midgame_positions(lex, 8)


def midgame_positions(lex, n_games: int = 8, plies=PLIES, variant=None, progress=None) -> list:
    """Self-play recipe of the benchmark set: ``n_games`` top-score games (seeds 0..n-1), the position on turn
    after each move number in ``plies``. ``variant``: the variant (default: Scrabble, or Wordfeud in Norwegian
    for a Norwegian lexicon)."""
    from .game import Game

    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise ScrabbleError(f"the number of games must be a whole number >= 1, got {short(n_games)}")
    variant = variant or variant_for(lex)
    out = []
    for seed in range(n_games):
        g = Game(variant, lex, seed=seed)
        for k in range(max(plies) + 1):
            if g.over:
                break
            if k in plies:
                out.append(g.position.copy())
            g.play_best()
        if progress is not None:
            progress.update(1)
    return out


def variant_for(lex):
    """The variant whose alphabet the lexicon's is: Scrabble for English, Wordfeud (Norwegian) for Norwegian;
    ``None`` when none fits."""
    from .variants import VARIANTS

    for name in ("scrabble", "wordfeud-nb"):
        if VARIANTS[name].alphabet == lex.alphabet.letters:
            return VARIANTS[name]
    return None


class Batch:
    """The positions' arrays, ready for the kernels (one variant and lexicon): the kernels alone, no wrapper."""

    def __init__(self, positions, cap: int | None = None):
        if not positions:
            raise ScrabbleError("a benchmark needs at least one position")
        b0 = positions[0].board
        self.P = len(positions)
        self.positions = list(positions)
        self.v = b0.variant
        self.boards = [p.board for p in positions]
        racks = [p._rack_arrays() for p in positions]
        self.counts = np.stack([r[0] for r in racks])
        self.nblank = np.array([r[1] for r in racks], np.int64)
        self.cap = cap  # (None: the calling thread's buffer, as ``legal_plays()``)

    def run_serial(self) -> int:
        """One kernel call per position (the single-position path of ``Position.legal_plays``). Returns total
        plays."""
        tot = 0
        for p, b in enumerate(self.boards):
            tot += len(plays_array(b, self.counts[p], self.nblank[p], cap=self.cap))
        return tot

    def run_best(self) -> np.ndarray:
        """Best play score of every position with the pruned best-only kernel."""
        out = np.zeros(self.P, np.int64)
        for p, b in enumerate(self.boards):
            best = plays_array(b, self.counts[p], self.nblank[p], best_only=True)
            out[p] = best["score"][0] if len(best) else -1
        return out

    def run_best_equity(self) -> np.ndarray:
        """Static equity (millipoints) of every position's best play by the pruned search with the leave in its
        bounds (its objective built per position, the exchange floor on blank racks: as :meth:`Position.best`
        does); -1 where there is no play."""
        from .position import best_array

        out = np.full(self.P, -1, np.int64)
        for p, (pos, b) in enumerate(zip(self.positions, self.boards)):
            best = best_array(pos, b, self.counts[p], self.nblank[p], "equity", blank_floor=True)
            if len(best):
                out[p] = pos._equities(best)[0]
        return out

    def run_rank_equity(self) -> np.ndarray:
        """The same by generating every play and ranking all of them by equity."""
        out = np.full(self.P, -1, np.int64)
        for p, (pos, b) in enumerate(zip(self.positions, self.boards)):
            arr = plays_array(b, self.counts[p], self.nblank[p], cap=self.cap)
            if len(arr):
                out[p] = pos._equities(arr).max()
        return out

    def run_batch(self, n_threads=None) -> int:
        """Every play of every position through the batch path (lanes of threads). Returns total plays."""
        arrs = batch_arrays(self.boards, self.counts, self.nblank, cap=self.cap, threads=n_threads)
        return sum(len(a) for a in arrs)


def _seconds(fn, min_time: float) -> float:
    """Seconds a call of ``fn`` takes (mean over at least ``min_time`` s, after one warm-up call)."""
    return 1.0 / _timing.rate(fn, min_time=min_time, min_calls=3)


def measure(positions, *, threads=(1, 2), reference_sample: int = 2, reference_rack: int = 3,
            min_time=0.3, progress=None) -> dict:
    """Positions/s and plays/s: kernel per position, batch (lanes of threads) at each thread count, best-only; and,
    in the same run, the plain-Python reference generator against the kernel on ``reference_sample`` positions with
    racks cut to ``reference_rack`` tiles (the reference needs about a minute for one full 7-tile rack).
    ``progress``: an object with ``update(n)`` told of each step."""
    import numba

    def step():
        if progress is not None:
            progress.update(1)

    b = Batch(positions)
    res = {"positions": b.P}
    plays = b.run_serial()
    res["plays"] = plays
    res["serial_s"] = _seconds(b.run_serial, min_time)
    step()
    for n in threads:
        if 1 <= n <= numba.config.NUMBA_NUM_THREADS:
            res[f"batch_{n}t_s"] = _seconds(lambda: b.run_batch(n), min_time)
        step()
    res["best_s"] = _seconds(b.run_best, min_time)
    step()
    res["best_equity_same"] = bool((b.run_best_equity() == b.run_rank_equity()).all())
    res["best_equity_s"] = _seconds(b.run_best_equity, min_time)
    res["rank_equity_s"] = _seconds(b.run_rank_equity, min_time)
    step()
    if reference_sample:
        small = []
        for p in positions[:reference_sample]:
            q = p.copy()
            q.rack = q.rack[:reference_rack]
            small.append(q)
        res.update(reference_rate(small))
        bs = Batch(small, cap=256)
        res["reference_kernel_s"] = _seconds(bs.run_serial, min_time / 3)
        res["reference_rack"] = reference_rack
    step()
    return res


def steps(threads=(1, 2)) -> int:
    """How many times :func:`measure` reports progress."""
    return 4 + len(threads)


def reference_rate(positions) -> dict:
    """Seconds the plain-Python reference takes for ``positions`` (one pass), and its play count."""
    words = set(positions[0].lexicon.words)
    v = positions[0].variant
    n = 0
    secs = 0.0
    for p in positions:
        board = reference_board(p)
        out = []
        secs += _timing.once(lambda: out.append(reference_plays(
            board, p.rack, words, values=v.values, layout=v.layout, alphabet=p.alphabet, bingo=v.bingo,
            rack_size=v.rack_size, centre_word_mult=v.centre_word_mult)))
        n += len(out[0])
    return {"reference_s": secs, "reference_positions": len(positions), "reference_plays": n}


def reference_board(pos) -> list:
    """A position's board in the reference's form: 15 lists of 15 entries, ``None`` or a letter (lower case
    for a blank)."""
    L, B = pos.board.letters, pos.board.blanks
    return [[None if L[r, c] == EMPTY else (pos.alphabet[L[r, c]].lower() if B[r, c] else pos.alphabet[L[r, c]])
             for c in range(SIZE)] for r in range(SIZE)]


def report(res, echo=print) -> None:
    P, n = res["positions"], res["plays"]
    echo(f"{P} self-play midgame positions, {n:,} plays ({n / P:,.0f} a position)")
    t = res["serial_s"]
    echo(f"  full generation, 1 thread, one call a position: {t / P * 1e6:8.1f} us/position "
         f"{P / t:9,.0f} positions/s {n / t / 1e6:6.2f} M plays/s")
    for k in sorted(x for x in res if x.startswith("batch_")):
        t = res[k]
        nt = k.split("_")[1].rstrip("t")
        echo(f"  full generation, batch (lanes), {nt:>2} threads:   {t / P * 1e6:8.1f} us/position "
             f"{P / t:9,.0f} positions/s {n / t / 1e6:6.2f} M plays/s")
    t = res["best_s"]
    echo(f"  best play only (pruned), 1 thread:             {t / P * 1e6:8.1f} us/position {P / t:9,.0f} positions/s")
    if "best_equity_s" in res:
        t, tr = res["best_equity_s"], res["rank_equity_s"]
        same = "the same equity" if res["best_equity_same"] else "A DIFFERENT EQUITY (a bug: please report it)"
        echo(f"  best play by equity (pruned, leaves in bounds): {t / P * 1e6:6.1f} us/position {P / t:9,.0f} "
             f"positions/s; every play ranked by equity: {tr / P * 1e6:,.1f} us/position -> {tr / t:,.1f}x ({same})")
    if "reference_s" in res:
        rp, rt = res["reference_positions"], res["reference_s"]
        kt = res["reference_kernel_s"]
        echo(f"  plain-Python reference, {rp} positions, racks cut to {res['reference_rack']} tiles: "
             f"{rt / rp * 1e3:,.0f} ms/position, {res['reference_plays'] / rt:,.0f} plays/s; kernel on the same: "
             f"{kt / rp * 1e6:,.1f} us/position -> {rt / kt:,.0f}x")
