"""``numba-words draughts perft|divide|show`` (``numba-words perft`` is kept as an alias of ``draughts perft``)
and the draughts part of ``numba-words tour``."""
from __future__ import annotations

import sys
import time

from .errors import DraughtsError
from .game import INITIAL_FEN


def register(subparsers) -> None:
    d = subparsers.add_parser("draughts", help="international draughts (10x10): perft, divide, show a position",
                              description="International draughts (FMJD rules, 10x10 board).")
    verbs = d.add_subparsers(dest="draughts_command", metavar="VERB", required=True)
    _perft_options(verbs.add_parser("perft", help="count move paths to a depth (perft), with nodes/s",
                                    description="Count the move paths of DEPTH plies from a position."))
    _perft_options(verbs.add_parser("divide", help="perft per root move ('move: count' lines)",
                                    description="Perft of every root move: 'move: count' lines, then the total."),
                   divide=False)
    s = verbs.add_parser("show", help="print a position: board, FEN, legal moves",
                         description="Print a position (the initial one unless --fen), after --moves if given.")
    s.add_argument("--fen", default=INITIAL_FEN, help="the position (default: the initial position)")
    s.add_argument("--moves", default="", metavar="MOVES", help="moves to play first, e.g. '32-28 19-23'")
    s.add_argument("--svg", default=None, metavar="FILE", help="also write the board as an SVG picture to FILE")
    s.set_defaults(func=_show_cmd)
    _perft_options(subparsers.add_parser("perft", help="alias of 'draughts perft'",
                                         description="Alias of 'numba-words draughts perft'."))


def _perft_options(p, divide: bool = True) -> None:
    p.add_argument("depth_arg", nargs="?", type=int, default=None, metavar="DEPTH", help="plies to count")
    p.add_argument("--depth", type=int, default=None, help="plies to count (the same as DEPTH)")
    p.add_argument("--fen", default=INITIAL_FEN, help="start position (default: the initial position)")
    if divide:
        p.add_argument("--divide", action="store_true", help="print 'move: count' for every root move")
    p.add_argument("--leaves", action="store_true", help="make every leaf instead of bulk counting the last ply")
    d = p.add_argument_group("distributed (needs numba_words[distributed])")
    d.add_argument("--scheduler", default=None, metavar="ADDR", help="Dask scheduler, e.g. tcp://host:8786")
    d.add_argument("--local-workers", type=int, default=None, metavar="N",
                   help="start a local Dask cluster of N worker processes for this run")
    d.add_argument("--split-depth", type=int, default=None, help="depth of the subtree frontier (default: auto)")
    d.add_argument("--checkpoint", default=None, metavar="FILE",
                   help="record finished subtrees here and resume from it after a failure")
    p.set_defaults(func=_perft_cmd)
    if not divide:
        p.set_defaults(divide=True)


def _depth(args) -> int:
    if args.depth is not None and args.depth_arg is not None and args.depth != args.depth_arg:
        raise DraughtsError(f"two depths given: {args.depth_arg} and --depth {args.depth}")
    depth = args.depth if args.depth is not None else args.depth_arg
    if depth is None:
        raise DraughtsError("give the depth: numba-words draughts perft DEPTH (or --depth DEPTH)")
    if depth < 0:
        raise DraughtsError(f"depth must be >= 0, got {depth!r}")
    return depth


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
    from .position import Position
    from .search import divide, perft, warmup

    depth = _depth(args)
    threads = getattr(args, "threads", None)
    pos = Position.from_fen(args.fen)
    if args.scheduler or args.local_workers:
        return _perft_distributed(args, pos, depth)
    warmup()
    prog = _Progress()
    t = time.perf_counter()
    if args.divide and depth >= 1:
        res = divide(pos, depth, threads=threads, leaves=args.leaves, progress=prog)
        dt = time.perf_counter() - t
        prog.end()
        for mv, n in res.items():
            print(f"{mv}: {n}")
        print()
        total = sum(res.values())
    else:
        total = perft(pos, depth, threads=threads, leaves=args.leaves, progress=prog)
        dt = time.perf_counter() - t
        prog.end()
    print(f"Nodes searched: {total}")
    rate = total / dt if dt > 0 else float("inf")
    print(f"time {dt:.3f} s, {rate:,.0f} nodes/s ({'every leaf made' if args.leaves else 'bulk counting'}, "
          f"threads={threads or 'all'})", file=sys.stderr)
    return 0


def _perft_distributed(args, pos, depth) -> int:
    import contextlib

    from .. import distributed as D

    if args.scheduler and args.local_workers:
        raise DraughtsError("give --scheduler or --local-workers, not both")
    threads = getattr(args, "threads", None)
    t = time.perf_counter()
    if args.local_workers:
        ctx = D.local_cluster(args.local_workers, threads or 1)
    else:
        ctx = contextlib.nullcontext(D.get_client(args.scheduler))
    with ctx as client:
        print(f"cluster: {len(client.nthreads())} workers, {sum(client.nthreads().values())} threads, "
              f"ready in {time.perf_counter() - t:.2f} s; dashboard {client.dashboard_link}", file=sys.stderr)

        def progress(done, total, seconds):
            if sys.stderr.isatty():
                print(f"\r{done}/{total} subtree tasks done, {seconds:.1f} s", end="", file=sys.stderr, flush=True)

        t = time.perf_counter()
        if depth < 2:
            from .search import divide, perft

            res = divide(pos, depth) if args.divide and depth else {"": perft(pos, depth)}
            info = {"tasks": 0, "frontier": 0, "split_depth": 0, "resumed_tasks": 0}
        else:
            from .search import perft_tasks

            counts, roots, info = perft_tasks(pos, depth, client, split_depth=args.split_depth,
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


def _show_cmd(args) -> int:
    from .position import Position

    pos = Position.from_fen(args.fen)
    for mv in args.moves.replace(",", " ").split():
        pos.push_notation(mv)
    print(pos)
    print(f"FEN: {pos.fen()}")
    print(f"legal moves ({len(pos.legal_moves)}): {' '.join(m.notation for m in pos.legal_moves)}")
    out = pos.outcome()
    if out is not None:
        print(f"game over: {out.termination}, result {out.result()}")
    if args.svg:
        from .svg import board_svg

        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(board_svg(pos))
    return 0


def tour(lex, echo) -> None:
    """The draughts section of ``numba-words tour`` (draughts uses no lexicon: ``lex`` is ignored)."""
    from .bench import measure
    from .position import Position
    from .search import warmup

    echo("== international draughts (FMJD 10x10): bitboard move generator, perft")
    t = time.perf_counter()
    warmup()
    echo(f"kernels ready in {time.perf_counter() - t:.2f} s (compile on first run, Numba cache afterwards)")
    pos = Position.initial()
    echo(str(pos))
    echo(f"legal moves: {' '.join(m.notation for m in pos.legal_moves)}")
    r = measure(depth=9, threads=(1, None), reference_depth=4)
    n, published = r["nodes"], r["published"]
    echo(f"perft({r['depth']}) = {n:,} ({'matches' if n == published else 'DIFFERS FROM'} the published "
         f"{published:,}): " + ", ".join(f"{v / 1e6:.0f} M nodes/s on {th} thread{'s' if th > 1 else ''}"
                                        for th, v in r["rates"].items()))
    echo(f"plain-Python reference generator: {r['reference_nodes_per_s']:,.0f} nodes/s (perft {r['reference_depth']})"
         f" -> kernel is {r['speedup']:,.0f}x faster on 1 thread")
