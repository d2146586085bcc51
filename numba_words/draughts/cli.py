"""``numba-words perft`` and the draughts part of ``numba-words tour``."""
from __future__ import annotations

import sys
import time

from .errors import DraughtsError


def register(subparsers) -> None:
    p = subparsers.add_parser("perft", help="international draughts perft (move path count) with nodes/s")
    p.add_argument("--fen", default="W:W31-50:B1-20", help="start position (default: the initial position)")
    p.add_argument("--depth", type=int, required=True, help="plies to count")
    p.add_argument("--divide", action="store_true", help="print 'move: count' for every root move")
    p.add_argument("--threads", type=int, default=None, help="Numba threads (default: all)")
    p.add_argument("--leaves", action="store_true", help="make every leaf instead of bulk counting")
    d = p.add_argument_group("distributed (needs numba_words[distributed])")
    d.add_argument("--scheduler", default=None, metavar="ADDR", help="Dask scheduler, e.g. tcp://host:8786")
    d.add_argument("--local-workers", type=int, default=None, metavar="N",
                   help="start a local Dask cluster of N worker processes for this run")
    d.add_argument("--split-depth", type=int, default=None, help="depth of the subtree frontier (default: auto)")
    d.add_argument("--checkpoint", default=None, metavar="FILE",
                   help="record finished subtrees here and resume from it after a failure")
    p.set_defaults(func=_perft_cmd)


class _Progress:
    """A one-line progress bar on stderr, shown only once a run has taken more than ~1.5 s."""

    def __init__(self, stream=sys.stderr, after=1.5):
        self.stream, self.after, self.shown = stream, after, False

    def __call__(self, done, total, nodes, seconds):
        if seconds < self.after or not self.stream.isatty() and done < total:
            return
        width = 30
        fill = int(width * done / max(total, 1))
        self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} subtrees  "
                          f"{nodes:,} nodes  {seconds:.1f} s")
        self.stream.flush()
        self.shown = True

    def end(self):
        if self.shown:
            self.stream.write("\n")


def _perft_cmd(args) -> int:
    from .perft import divide, perft, warmup
    from .position import Position

    if args.depth < 0:
        raise DraughtsError(f"--depth must be >= 0, got {args.depth!r}")
    pos = Position.from_fen(args.fen)
    if args.scheduler or args.local_workers:
        return _perft_distributed(args, pos)
    warmup()
    prog = _Progress()
    t = time.perf_counter()
    if args.divide and args.depth >= 1:
        res = divide(pos, args.depth, threads=args.threads, leaves=args.leaves, progress=prog)
        dt = time.perf_counter() - t
        prog.end()
        for mv, n in res.items():
            print(f"{mv}: {n}")
        print()
        total = sum(res.values())
    else:
        total = perft(pos, args.depth, threads=args.threads, leaves=args.leaves, progress=prog)
        dt = time.perf_counter() - t
        prog.end()
    print(f"Nodes searched: {total}")
    rate = total / dt if dt > 0 else float("inf")
    print(f"time {dt:.3f} s, {rate:,.0f} nodes/s ({'every leaf made' if args.leaves else 'bulk counting'}, "
          f"threads={args.threads or 'all'})", file=sys.stderr)
    return 0


def _perft_distributed(args, pos) -> int:
    import contextlib

    from .. import distributed as D

    if args.scheduler and args.local_workers:
        raise DraughtsError("give --scheduler or --local-workers, not both")
    t = time.perf_counter()
    if args.local_workers:
        ctx = D.local_cluster(args.local_workers, args.threads or 1)
    else:
        ctx = contextlib.nullcontext(D.get_client(args.scheduler))
    with ctx as client:
        print(f"cluster: {len(client.nthreads())} workers, {sum(client.nthreads().values())} threads, "
              f"ready in {time.perf_counter() - t:.2f} s; dashboard {client.dashboard_link}", file=sys.stderr)

        def progress(done, total, seconds):
            if sys.stderr.isatty():
                print(f"\r{done}/{total} subtree tasks done, {seconds:.1f} s", end="", file=sys.stderr, flush=True)

        t = time.perf_counter()
        if args.depth < 2:
            from .perft import divide, perft

            res = divide(pos, args.depth) if args.divide and args.depth else {"": perft(pos, args.depth)}
            info = {"tasks": 0, "frontier": 0, "split_depth": 0, "resumed_tasks": 0}
        else:
            from .perft import perft_tasks

            counts, roots, info = perft_tasks(pos, args.depth, client, split_depth=args.split_depth,
                                                leaves=args.leaves, checkpoint=args.checkpoint, progress=progress)
            if sys.stderr.isatty():
                print(file=sys.stderr)
            moves = list(pos.legal_moves)
            per_root = [0] * len(moves)
            for r, c in zip(roots.tolist(), counts.tolist()):
                per_root[r] += c
            res = {m.notation: n for m, n in zip(moves, per_root)}
        dt = time.perf_counter() - t
    if args.divide:
        for mv, n in res.items():
            print(f"{mv}: {n}")
        print()
    total = sum(res.values())
    print(f"Nodes searched: {total}")
    print(f"time {dt:.3f} s, {total / dt if dt else 0:,.0f} nodes/s over the cluster; {info['tasks']} tasks "
          f"({info['frontier']} subtrees at split depth {info['split_depth']}, {info['resumed_tasks']} resumed "
          f"from checkpoint)", file=sys.stderr)
    return 0


def tour(lex, echo) -> None:
    import pathlib

    import numba

    from .perft import perft, warmup
    from .position import Position

    echo("== international draughts (FMJD 10x10): bitboard move generator, perft")
    t = time.perf_counter()
    warmup()
    echo(f"kernels ready in {time.perf_counter() - t:.2f} s (compile on first run, Numba cache afterwards)")
    pos = Position.initial()
    echo(str(pos))
    echo(f"legal moves: {' '.join(m.notation for m in pos.legal_moves)}")
    depth, published = 9, 41_022_423  # Aart Bik / damforum perft tables (data/draughts/SOURCES.md)
    rates = {}
    for th in (1, numba.get_num_threads()):
        t = time.perf_counter()
        n = perft(pos, depth, threads=th)
        rates[th] = n / (time.perf_counter() - t)
    rate = rates[1]
    echo(f"perft({depth}) = {n:,} ({'matches' if n == published else 'DIFFERS FROM'} the published {published:,}): "
         + ", ".join(f"{r / 1e6:.0f} M nodes/s on {th} thread{'s' if th > 1 else ''}" for th, r in rates.items()))
    base = _reference_rate(pathlib.Path(__file__))
    if base:
        echo(f"plain-Python reference generator: {base:,.0f} nodes/s (perft 4) -> kernel is {rate / base:,.0f}x faster")


def _reference_rate(here) -> float | None:
    """Nodes/s of the plain-Python reference generator (tests/draughts_reference.py) when the source tree is
    present; else of a minimal inline loop over ``Position.legal_moves`` (Python driver + kernel per node)."""
    from .position import Position

    t = time.perf_counter()
    pos = Position.initial()
    nodes = 0

    def walk(p, d):
        nonlocal nodes
        if d == 0:
            nodes += 1
            return
        for m in list(p.legal_moves):
            p.push(m)
            walk(p, d - 1)
            p.pop()

    ref = here.resolve().parents[2] / "tests" / "draughts_reference.py"
    if ref.exists():
        import importlib.util

        spec = importlib.util.spec_from_file_location("_draughts_reference", ref)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        pieces, white = mod.parse_fen("W:W31-50:B1-20")
        t = time.perf_counter()
        nodes = mod.perft(pieces, white, 4)
    else:
        walk(pos, 3)
    return nodes / (time.perf_counter() - t)
