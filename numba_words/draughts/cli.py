"""``numba-words draughts perft|divide|show`` (``numba-words perft`` is kept as an alias of ``draughts perft``)
and the draughts part of ``numba-words tour``.

Results go to standard output (text, ``--json`` or ``--csv``); timings, cluster notes and progress bars to
standard error (``--quiet`` silences them).
"""
from __future__ import annotations

import time

from .. import _console
from .errors import DraughtsError
from .game import INITIAL_FEN


def register(subparsers) -> None:
    d = subparsers.add_parser("draughts", help="international draughts (10x10): perft, divide, show a position",
                              description="International draughts (FMJD rules, 10x10 board).")
    verbs = d.add_subparsers(dest="draughts_command", metavar="VERB", required=True)
    _perft_options(verbs.add_parser(
        "perft", help="count the move paths to a depth (perft), with nodes/s",
        description="Count the move paths of DEPTH plies from a position (Stockfish-style output: "
                    "'Nodes searched: N'; with --divide one 'move: count' line per root move first)."))
    _perft_options(verbs.add_parser(
        "divide", help="perft of every root move ('move: count' lines, then the total)",
        description="Perft of every root move: 'move: count' lines, then 'Nodes searched: N'."), divide=False)
    s = verbs.add_parser("show", help="print a position: board, FEN, legal moves, game end",
                         description="Print a position (the initial one unless --fen), after --moves if given.")
    s.add_argument("--fen", default=INITIAL_FEN, help="the position (default: the initial position)")
    s.add_argument("--moves", default="", metavar="MOVES", help="moves to play first, e.g. '32-28 19-23'")
    s.add_argument("--svg", default=None, metavar="FILE", help="also write the board as an SVG picture to FILE")
    s.set_defaults(func=_show_cmd)
    from . import dxp, hub

    hub.add_cli(verbs)
    dxp.add_cli(verbs)
    _perft_options(subparsers.add_parser("perft", help="alias of 'draughts perft' (international draughts perft)",
                                         description="Alias of 'numba-words draughts perft'."))


def _perft_options(p, divide: bool = True) -> None:
    p.add_argument("depth_arg", nargs="?", type=int, default=None, metavar="DEPTH", help="plies to count")
    p.add_argument("--depth", type=int, default=None, help="plies to count (the same as DEPTH)")
    p.add_argument("--fen", default=INITIAL_FEN, help="start position (default: the initial position)")
    if divide:
        p.add_argument("--divide", action="store_true", help="print 'move: count' for every root move first")
    p.add_argument("--leaves", action="store_true", help="make every leaf instead of bulk counting the last ply")
    d = p.add_argument_group("distributed (needs numba_words[distributed])")
    d.add_argument("--scheduler", default=None, metavar="ADDR", help="Dask scheduler, e.g. tcp://host:8786")
    d.add_argument("--local-workers", type=int, default=None, metavar="N",
                   help="start a local Dask cluster of N worker processes (--threads each) for this run")
    d.add_argument("--split-depth", type=int, default=None, metavar="D",
                   help="cut the tree D plies below the root into subtrees (default: from the tree's size)")
    d.add_argument("--tasks", type=int, default=None, metavar="N",
                   help="group the subtrees into N tasks (default: from the tree's size, not the cluster's)")
    d.add_argument("--checkpoint", default=None, metavar="FILE",
                   help="record finished tasks in FILE; a re-run with the same FEN, depth and split resumes "
                        "from it, on a cluster of any size")
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


class _Bar:
    """Progress for the CLI: a ``_console.progress`` bar, opened once a run has taken half a second (so
    quick runs print nothing), closed by ``close()``."""

    def __init__(self, args, desc, unit):
        self.args, self.desc, self.unit = args, desc, unit
        self.bar, self.n, self.t0 = None, 0, time.perf_counter()

    def __call__(self, done, total, *_):
        if self.bar is None:
            if time.perf_counter() - self.t0 < 0.5:
                return
            self.bar = _console.progress(self.args, total, self.desc, self.unit)
        self.bar.update(done - self.n)
        self.n = done

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _perft_cmd(args) -> int:
    from .position import Position
    from .search import divide, perft, warmup

    depth = _depth(args)
    _console.output_format(args)  # refuse --json with --csv before any work
    threads = getattr(args, "threads", None)
    pos = Position.from_fen(args.fen)
    if args.scheduler or args.local_workers:
        return _perft_distributed(args, pos, depth)
    for flag in ("split_depth", "tasks", "checkpoint"):
        if getattr(args, flag) is not None:
            raise DraughtsError(f"--{flag.replace('_', '-')} is for distributed runs: give --scheduler ADDR or "
                                f"--local-workers N as well")
    warmup()
    bar = _Bar(args, f"perft {depth}", "subtrees")
    t = time.perf_counter()
    try:
        if args.divide and depth >= 1:
            moves = divide(pos, depth, threads=threads, leaves=args.leaves, progress=bar)
        else:
            moves = None
            nodes = perft(pos, depth, threads=threads, leaves=args.leaves, progress=bar)
    finally:
        bar.close()
    dt = time.perf_counter() - t
    if moves is not None:
        nodes = sum(moves.values())
    _report(args, pos, depth, moves, nodes, dt)
    import numba

    _console.note(args, f"time {dt:.3f} s, {_rate(nodes, dt):,.0f} nodes/s "
                        f"({'every leaf made' if args.leaves else 'bulk counting'}, {numba.get_num_threads()} threads)")
    return 0


def _rate(nodes, seconds) -> float:
    return nodes / seconds if seconds > 0 else 0.0


def _report(args, pos, depth, moves, nodes, seconds) -> None:
    """The result on standard output: text (Stockfish style), JSON or CSV."""
    record = {"fen": pos.fen(), "depth": depth, "nodes": nodes, "seconds": round(seconds, 6),
              "nodes_per_s": round(_rate(nodes, seconds)), "leaves": bool(args.leaves)}
    fmt = _console.output_format(args)
    if fmt == "json":
        _console.emit_json({"moves": moves, **record} if moves is not None else record)
    elif fmt == "csv":
        rows = [{"move": m, "nodes": n} for m, n in moves.items()] if moves is not None else [record]
        _console.emit(args, rows)
    else:
        if moves is not None:
            for mv, n in moves.items():
                print(f"{mv}: {n}")
            print()
        print(f"Nodes searched: {nodes}")


def _perft_distributed(args, pos, depth) -> int:
    import contextlib

    from .. import distributed as D

    if args.scheduler and args.local_workers:
        raise DraughtsError("give --scheduler or --local-workers, not both")
    threads = getattr(args, "threads", None)
    t = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if args.local_workers:
            client = _local_cluster(stack, args.local_workers, threads or 1)
        else:
            client = D.get_client(args.scheduler)
            stack.callback(client.close)
        _console.note(args, f"cluster: {len(client.nthreads())} workers, {sum(client.nthreads().values())} threads, "
                            f"ready in {time.perf_counter() - t:.2f} s; dashboard {client.dashboard_link}")
        t = time.perf_counter()
        if depth < 2:
            from .search import divide, perft

            moves = divide(pos, depth) if args.divide and depth else None
            nodes = sum(moves.values()) if moves is not None else perft(pos, depth)
            info = {"tasks": 0, "frontier": 0, "split_depth": 0, "resumed_tasks": 0}
        else:
            from .search import perft_tasks

            bar = _Bar(args, f"perft {depth}", "tasks")
            stack.callback(bar.close)
            counts, roots, info = perft_tasks(pos, depth, client, split_depth=args.split_depth, n_tasks=args.tasks,
                                              leaves=args.leaves, checkpoint=args.checkpoint, progress=bar)
            bar.close()
            legal = list(pos.legal_moves)
            per_root = [0] * len(legal)
            for r, c in zip(roots.tolist(), counts.tolist()):
                per_root[r] += c
            moves = {m.notation: n for m, n in zip(legal, per_root)} if args.divide else None
            nodes = sum(per_root)
        dt = time.perf_counter() - t
    _report(args, pos, depth, moves, nodes, dt)
    _console.note(args, f"time {dt:.3f} s, {_rate(nodes, dt):,.0f} nodes/s over the cluster; {info['tasks']} tasks "
                        f"({info['frontier']} subtrees at split depth {info['split_depth']}, {info['resumed_tasks']} "
                        f"resumed from checkpoint)")
    return 0


def _local_cluster(stack, n_workers, threads_per_worker):
    """Start a local cluster whose worker processes ignore Ctrl-C (the terminal sends it to the whole process
    group; only this process should stop, then close the cluster), and close it quietly on the way out."""
    import contextlib
    import logging
    import signal
    import threading

    from .. import distributed as D

    # Worker processes inherit an ignored SIGINT (a handler would be reset by exec, an ignored signal is kept),
    # so the workers started now ignore Ctrl-C. The price: Ctrl-C during the cluster's start (a second or two)
    # is ignored here too.
    main = threading.current_thread() is threading.main_thread()
    if main:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        cm = D.local_cluster(n_workers, threads_per_worker)
        client = cm.__enter__()
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
    with contextlib.suppress(Exception):  # (the in-process scheduler's GC callback swallowed Ctrl-C: see cli.py)
        from distributed.gc import disable_gc_diagnosis

        disable_gc_diagnosis(force=True)

    def close(*exc):
        if exc[0] is None:
            return cm.__exit__(*exc)
        # interrupted or failed: no shutdown chatter from the closing cluster (workers lost mid-task etc.), and a
        # bounded wait for it whatever the load (see D.close_interrupted)
        loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio")]
        levels = [lg.level for lg in loggers]
        for lg in loggers:
            lg.setLevel(logging.CRITICAL + 1)
        try:
            D.close_interrupted(client, lambda: cm.__exit__(*exc), exit_after=D.EXIT_SECONDS)
        finally:
            for lg, level in zip(loggers, levels):
                lg.setLevel(level)
        return False

    stack.push(close)
    return client


def _show_cmd(args) -> int:
    from .position import Position

    pos = Position.from_fen(args.fen)
    for mv in args.moves.replace(",", " ").split():
        pos.push_notation(mv)
    legal = list(pos.legal_moves)
    out = pos.outcome()
    if args.svg:
        from .svg import svg

        lastmove = pos.move_stack[-1] if pos.move_stack else None
        try:
            with open(args.svg, "w", encoding="utf-8") as f:
                f.write(svg(pos, lastmove=lastmove))
        except OSError as e:
            raise DraughtsError(f"cannot write {args.svg!r}: {e.strerror or e}") from None
    fmt = _console.output_format(args)
    if fmt == "json":
        _console.emit_json({"fen": pos.fen(), "turn": "white" if pos.turn else "black",
                            "board": str(pos).splitlines()[:10], "legal_moves": [m.notation for m in legal],
                            "outcome": None if out is None else {"result": out.result(), "termination": out.termination}})
    elif fmt == "csv":
        _console.emit(args, [{"move": m.notation, "from": m.from_square, "to": m.to_square,
                              "captured": " ".join(map(str, m.captured))} for m in legal])
    else:
        print(pos)
        print(f"FEN: {pos.fen()}")
        print(f"legal moves ({len(legal)}): {' '.join(m.notation for m in legal)}")
        if out is not None:
            print(f"game over: {out.termination}, result {out.result()}")
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
    r = measure(depth=9, threads=(1, None), reference_depth=3)
    n, published = r["nodes"], r["published"]
    echo(f"perft({r['depth']}) = {n:,} ({'matches' if n == published else 'DIFFERS FROM'} the published "
         f"{published:,}): " + ", ".join(f"{v / 1e6:.0f} M nodes/s on {th} thread{'s' if th > 1 else ''}"
                                        for th, v in r["rates"].items()))
    echo(f"plain-Python reference generator (numba_words.draughts._reference), measured now: "
         f"{r['reference_nodes_per_s']:,.0f} nodes/s (perft {r['reference_depth']}) -> the kernel is "
         f"{r['speedup']:,.0f}x faster on 1 thread")
