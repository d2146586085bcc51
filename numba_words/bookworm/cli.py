"""``numba-words bookworm``: solve a board, or benchmark random boards against plain Python."""
from __future__ import annotations

import sys
import time

import numba
import numpy as np

from .errors import InvalidParameterError

GRIDS = ("bookworm", "boggle4", "boggle5")


def register(sub) -> None:
    p = sub.add_parser("bookworm", help="Bookworm hex board (or Boggle): every word, best play, throughput",
                       description="Solve a Bookworm board given as 7 columns bottom to top ('q' is the Qu tile), "
                       "e.g. numba-words bookworm \"nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy\"; "
                       "or time random boards with --random N --bench.")
    p.add_argument("board", nargs="?", help="board text: 7 columns bottom to top (Boggle: rows top to bottom)")
    p.add_argument("--kinds", default=None, help="tile kinds in the board's layout: . plain, g green, y gold, "
                   "s sapphire, d diamond, f fire")
    p.add_argument("--grid", default="bookworm", choices=GRIDS)
    p.add_argument("--top", type=int, default=20, help="print the N best words (0 = all)")
    p.add_argument("--min-len", type=int, default=None)
    p.add_argument("--max-len", type=int, default=12)
    p.add_argument("--lexicon", default="twl06")
    p.add_argument("--random", type=int, default=0, metavar="N", help="solve N random boards")
    p.add_argument("--bench", action="store_true", help="with --random: boards/s on 1 thread and all threads "
                   "beside the plain-Python solver")
    p.add_argument("--score-only", action="store_true", help="with --random (Boggle grids): total Boggle score "
                   "per board only, no paths or word lists (what the C++ Boggle solvers report)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=run)


def _grid(name):
    from .geometry import BOGGLE4, BOGGLE5, BOOKWORM

    return {"bookworm": BOOKWORM, "boggle4": BOGGLE4, "boggle5": BOGGLE5}[name]


def run(args) -> int:
    from ..lexicon import Lexicon
    from .board import Board

    lex = Lexicon.load(args.lexicon)
    grid = _grid(args.grid)
    min_len = args.min_len if args.min_len is not None else (4 if args.grid == "boggle5" else 3)
    if args.random:
        if args.random < 1:
            raise InvalidParameterError(f"--random must be positive, got {args.random!r}")
        if args.score_only:
            return _score_only(lex, grid, args.random, args.seed, min_len, args.bench)
        return _random(lex, grid, args.random, args.seed, min_len, args.max_len, args.bench)
    if not args.board:
        raise InvalidParameterError("give a board (7 columns bottom to top) or --random N")
    board = Board(args.board, args.kinds, grid=grid, lexicon=lex)
    from .solver import solve

    t = time.perf_counter()
    sol = solve(board, lex, min_len=min_len, max_len=args.max_len)
    dt = time.perf_counter() - t
    print(board)
    print(f"{len(sol)} words; longest: {', '.join(sol.longest())}")
    for f in sol.top(args.top or None):
        print(f"{f.score:6d}  {f.word:<12}  {' '.join(_coord(grid, t) for t in f.path)}")
    print(f"solved in {dt * 1e3:.2f} ms", file=sys.stderr)
    return 0


def _coord(grid, t):
    a, b = grid.coords[t]
    return f"{a}{b}" if grid.kind == "bookworm" else f"{chr(97 + b)}{a + 1}"


def _throughput(lex, grid, n, seed, run, agrees, python_solver, baseline_boards):
    """Boards/s of ``run(codes, threads)`` on 1 thread and all threads, and of the plain-Python solver on the
    first ``baseline_boards`` boards, where ``agrees(out, b, words)`` checks the kernel against it."""
    from .baseline import grid_lists
    from .solver import code_letters, random_codes

    codes = random_codes(n, grid=grid, lexicon=lex, seed=seed)
    run(codes[:4], 1)  # compile / load cache
    run(codes[:4], None)
    res = {}
    for label, th in (("1 thread", 1), (f"{numba.get_num_threads()} threads", None)):
        t = time.perf_counter()
        out = run(codes, th)
        res[label] = n / (time.perf_counter() - t)
    nbrs = grid_lists(grid)
    m = min(n, baseline_boards)
    t = time.perf_counter()
    same = True
    for b in range(m):
        same &= agrees(out, b, python_solver.solve([code_letters(int(c), lex) for c in codes[b]], nbrs))
    res["python"] = m / (time.perf_counter() - t)
    res["agree"] = same
    return res, out


def _python_solver(lex, min_len, max_len, given):
    """The plain-Python baseline solver (``given`` or a new one) and the seconds it took to build."""
    from .baseline import PythonSolver

    t = time.perf_counter()
    py = given or PythonSolver(lex, min_len, max_len)
    return py, time.perf_counter() - t


def measure(lex, grid, n, seed=0, min_len=3, max_len=12, baseline_boards=20, echo=print, python_solver=None):
    """Boards/s: kernel batch on 1 thread and all threads, and the plain-Python solver, same boards."""
    from .solver import solve_many

    py, build = _python_solver(lex, min_len, max_len, python_solver)
    res, out = _throughput(
        lex, grid, n, seed,
        lambda codes, th: solve_many(codes, lex, grid=grid, min_len=min_len, max_len=max_len, threads=th),
        lambda out, b, words: sorted(words) == sorted(out[b].words), py, baseline_boards)
    res["python_build_s"] = build
    res["words_per_board"] = out.total_words / n
    return res


def _random(lex, grid, n, seed, min_len, max_len, bench) -> int:
    from .solver import solve_many, random_codes

    if not bench:
        codes = random_codes(n, grid=grid, lexicon=lex, seed=seed)
        out = solve_many(codes, lex, grid=grid, min_len=min_len, max_len=max_len)
        for b in range(n):
            best = out[b].best()
            print(f"{b}: {len(out[b])} words, best "
                  f"{best.word if best else '-'} {best.score if best else 0}")
        return 0
    r = measure(lex, grid, n, seed, min_len, max_len)
    print(f"{grid.name}, {lex.name}, {n} random boards, {r['words_per_board']:.0f} words/board (full lists)")
    return _report(r, "words")


def _report(r, what) -> int:
    """Print a throughput report from :func:`measure`/:func:`measure_scores`; exit code 1 if the kernel and the
    plain-Python solver disagreed."""
    for k, v in r.items():
        if k.endswith("thread") or k.endswith("threads"):
            print(f"  numba {k:<10} {v:>12,.0f} boards/s   ({v / r['python']:,.0f}x plain Python)")
    print(f"  plain Python     {r['python']:>12,.1f} boards/s   (prefix set built in {r['python_build_s']:.2f} s; "
          f"same {what}: {'yes' if r['agree'] else 'NO'})")
    return 0 if r["agree"] else 1


def measure_scores(lex, grid, n, seed=0, min_len=3, baseline_boards=20, python_solver=None):
    """Boards/s of the score-only mode (:func:`solver.boggle_scores`, every word length) on 1 thread and all
    threads, and the plain-Python solver scoring its word sets on the first boards (must agree)."""
    from .scoring import boggle_points
    from .solver import boggle_scores

    py, build = _python_solver(lex, min_len, lex.max_len, python_solver)
    res, out = _throughput(
        lex, grid, n, seed,
        lambda codes, th: boggle_scores(codes, lex, grid=grid, min_len=min_len, threads=th),
        lambda out, b, words: int(out[b]) == sum(boggle_points(len(w)) for w in words), py, baseline_boards)
    res["python_build_s"] = build
    res["mean_score"] = float(out.mean())
    return res


def _score_only(lex, grid, n, seed, min_len, bench) -> int:
    from .solver import boggle_scores, random_codes

    if not bench:
        out = boggle_scores(random_codes(n, grid=grid, lexicon=lex, seed=seed), lex, grid=grid, min_len=min_len)
        for b in range(n):
            print(f"{b}: {int(out[b])} points")
        return 0
    r = measure_scores(lex, grid, n, seed, min_len)
    print(f"{grid.name}, {lex.name}, {n} random boards, score only (Boggle points, words of {min_len}+ letters), "
          f"mean {r['mean_score']:.1f} points/board")
    return _report(r, "scores")


def tour(lex, echo) -> None:
    from .board import Board
    from .geometry import BOGGLE4, BOOKWORM

    t = time.perf_counter()
    from .solver import warmup

    warmup(lex)
    echo(f"bookworm: kernels ready in {time.perf_counter() - t:.2f} s")
    b = Board("nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy", lexicon=lex)
    sol = b.words()
    best = sol.best()
    echo(f"  board 'nnloner ceunount ...': {len(sol)} words, longest {', '.join(sol.longest())}, "
         f"best {best.word!r} for {best.score}")
    from .baseline import PythonSolver

    py = PythonSolver(lex, 3, 12)  # the plain-Python baseline's prefix set, built once for both grids
    for grid in (BOOKWORM, BOGGLE4):
        r = measure(lex, grid, 2500 if grid is BOOKWORM else 6000, baseline_boards=6, python_solver=py)
        threads = [k for k in r if k.endswith("threads")][0]
        echo(f"  {grid.name}: {r['1 thread']:,.0f} boards/s on 1 thread, {r[threads]:,.0f} on {threads}; plain "
             f"Python {r['python']:,.0f} boards/s ({r['1 thread'] / r['python']:,.0f}x); "
             f"{r['words_per_board']:.0f} words/board")
