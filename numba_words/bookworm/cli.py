"""``numba-words bookworm solve|random|bench|play``: solve a board, solve random boards, measure throughput
beside plain Python, or watch self-play. The old spellings (``bookworm BOARD``, ``bookworm --random N
[--bench] [--score-only]``) still work."""
from __future__ import annotations

import argparse

from .. import _console
from ._tables import GRIDS, STRATEGIES

VERBS = ("solve", "random", "bench", "play")
EXAMPLE = "nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy"
_GLOBAL_VALUE = ("--lexicon", "--threads")
_GLOBAL_FLAG = ("--quiet", "-q", "--json", "--csv")


class _Parser(argparse.ArgumentParser):
    """The ``bookworm`` parser: rewrites the old flag forms into verbs before parsing."""

    def parse_known_args(self, args=None, namespace=None):
        return super().parse_known_args(None if args is None else legacy_args(list(args)), namespace)


def legacy_args(args: list) -> list:
    """``bookworm BOARD ...`` -> ``solve BOARD ...``; ``--random N [--bench]`` -> ``random N`` / ``bench N``."""
    i = 0
    while i < len(args):  # global options may come before the verb
        a = args[i]
        if a in _GLOBAL_VALUE:
            i += 2
        elif a.split("=", 1)[0] in _GLOBAL_VALUE or a in _GLOBAL_FLAG:
            i += 1
        else:
            break
    if i >= len(args) or args[i] in VERBS or args[i] in ("-h", "--help"):
        return args
    rest = list(args)
    count = None
    for j, a in enumerate(rest):
        if a == "--random" and j + 1 < len(rest):
            count = rest[j + 1]
            del rest[j:j + 2]
            break
        if a.startswith("--random="):
            count = a.split("=", 1)[1]
            del rest[j]
            break
    bench = "--bench" in rest
    if bench:
        rest.remove("--bench")
    if count is None and not bench:
        return ["solve", *rest]
    return ["bench" if bench else "random", *([count] if count is not None else []), *rest]


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return v


def _count(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return v


def _grid_options(p, lengths: bool = True) -> None:
    p.add_argument("--grid", default="bookworm", choices=tuple(GRIDS),
                   help="board shape: the Bookworm hex board (default) or a 4x4 / 5x5 Boggle board")
    if lengths:
        p.add_argument("--min-len", type=_positive, default=None, metavar="N",
                       help="shortest word in letters, Qu counting 2 (default 3; 4 on boggle5)")
        p.add_argument("--max-len", type=_positive, default=12, metavar="N",
                       help="longest word in letters (default 12)")


def register(sub) -> None:
    p = sub.add_parser(
        "bookworm", help="Bookworm hex board (or Boggle): every word, best play, throughput, self-play",
        description="Every word on a Bookworm board (7 columns bottom to top, 'q' is the Qu tile) or a Boggle "
        f"board. Verbs: solve, random, bench, play. Example: numba-words bookworm solve \"{EXAMPLE}\". The old "
        "forms 'bookworm BOARD' and 'bookworm --random N [--bench] [--score-only]' still work.")
    p.__class__ = _Parser
    p.set_defaults(func=_no_verb, parser=p)
    verbs = p.add_subparsers(dest="verb", metavar="VERB", parser_class=argparse.ArgumentParser)

    s = verbs.add_parser("solve", help="every word on one board, best first",
                         description=f"Every word on one board, best score first. Example: \"{EXAMPLE}\".")
    s.add_argument("board", help="board text: 7 columns bottom to top (Boggle: rows top to bottom)")
    s.add_argument("--kinds", default=None, help="tile kinds in the board's layout: . plain, g green, y gold, "
                   "s sapphire, d diamond, f fire")
    s.add_argument("--level", type=_positive, default=1, help="game level (added to every letter-value sum)")
    s.add_argument("--top", type=_count, default=20, metavar="N", help="print the N best words (0 = all)")
    _grid_options(s)
    s.set_defaults(func=_solve)

    r = verbs.add_parser("random", help="solve N random boards: words and best word per board",
                         description="Deal N random boards (Bookworm letter frequencies) and solve them in one "
                         "batch; one line per board with its word count and best word.")
    r.add_argument("count", type=_positive, metavar="N", help="number of boards")
    r.add_argument("--seed", type=int, default=0, help="random seed of the boards (default 0)")
    r.add_argument("--score-only", action="store_true", help="total Boggle points per board only, no word "
                   "lists (what the C++ Boggle solvers report)")
    _grid_options(r)
    r.set_defaults(func=_random)

    b = verbs.add_parser("bench", help="boards/s on 1 thread and all threads beside plain Python",
                         description="Throughput on N random boards (1 thread and all threads) beside the "
                         "plain-Python reference solver on the first boards, measured in the same run; exit "
                         "code 1 if they disagree.")
    b.add_argument("count", type=_positive, nargs="?", default=2000, metavar="N",
                   help="number of boards (default 2000)")
    b.add_argument("--seed", type=int, default=0, help="random seed of the boards (default 0)")
    b.add_argument("--score-only", action="store_true", help="time the score-only mode (total Boggle points "
                   "per board) instead of full word lists")
    b.add_argument("--baseline-boards", type=_positive, default=20, metavar="N",
                   help="boards the plain-Python solver does (default 20)")
    _grid_options(b)
    b.set_defaults(func=_bench)

    g = verbs.add_parser("play", help="self-play one game and print its turns",
                         description="Self-play from a board dealt with --seed: greedy (best score now), "
                         "longest (longest word) or lookahead (score now plus the best next word).")
    g.add_argument("--seed", type=int, default=0, help="random seed of the deal and the refills (default 0)")
    g.add_argument("--strategy", default="greedy", choices=STRATEGIES, help="how to pick each word")
    g.add_argument("--max-turns", type=_count, default=100, metavar="N", help="stop after N turns (default 100)")
    g.set_defaults(func=_play)


def _no_verb(args) -> int:
    args.parser.print_help()
    return 2


def _lexicon(args):
    from ..lexicon import Lexicon

    return Lexicon.load(getattr(args, "lexicon", None) or "twl06")


def _min_len(args) -> int:
    return args.min_len if args.min_len is not None else (4 if args.grid == "boggle5" else 3)


def _coord(grid, t):
    a, b = grid.coords[t]
    return f"{a}{b}" if grid.kind == "bookworm" else f"{chr(97 + b)}{a + 1}"


def _solve(args) -> int:
    from .. import _timing
    from .position import Position
    from .search import solve

    lex = _lexicon(args)
    grid = GRIDS[args.grid]
    board = Position(args.board, args.kinds, grid=grid, lexicon=lex, level=args.level)
    box = []
    dt = _timing.once(lambda: box.append(solve(board, lex, min_len=_min_len(args), max_len=args.max_len)))
    sol = box[0]
    print(board)
    print(f"{len(sol)} words; longest: {', '.join(sol.longest())}")
    for f in sol.top(args.top or None):
        print(f"{f.score:6d}  {f.word:<12}  {' '.join(_coord(grid, t) for t in f.path)}")
    _console.note(args, f"solved in {dt * 1e3:.2f} ms")
    return 0


def _random(args) -> int:
    from .search import boggle_scores, random_codes, solve_many

    lex = _lexicon(args)
    grid = GRIDS[args.grid]
    n = args.count
    codes = random_codes(n, grid=grid, lexicon=lex, seed=args.seed)
    if args.score_only:
        out = boggle_scores(codes, lex, grid=grid, min_len=_min_len(args))
        for b in range(n):
            print(f"{b}: {int(out[b])} points")
        return 0
    out = solve_many(codes, lex, grid=grid, min_len=_min_len(args), max_len=args.max_len)
    for b in range(n):
        best = out[b].best()
        print(f"{b}: {len(out[b])} words, best {best.word if best else '-'} {best.score if best else 0}")
    return 0


def _bench(args) -> int:
    from .bench import measure, measure_scores, report

    lex = _lexicon(args)
    grid = GRIDS[args.grid]
    n, m = args.count, args.baseline_boards
    if args.score_only:
        r = measure_scores(lex, grid, n, args.seed, _min_len(args), baseline_boards=m)
        print(f"{grid.name}, {lex.name}, {n} random boards, score only (Boggle points, words of {_min_len(args)}+ "
              f"letters), mean {r['mean_score']:.1f} points/board")
        what = "scores"
    else:
        r = measure(lex, grid, n, args.seed, _min_len(args), args.max_len, baseline_boards=m)
        print(f"{grid.name}, {lex.name}, {n} random boards, {r['words_per_board']:.0f} words/board (full lists)")
        what = "words"
    for line in report(r, what):
        print(line)
    return 0 if r["agree"] else 1


def _play(args) -> int:
    from .game import play_game

    game = play_game(args.seed, args.strategy, max_turns=args.max_turns, lexicon=_lexicon(args))
    for i, t in enumerate(game.turns, 1):
        print(f"{i:3d}  {t.word:<12} {t.score:6d}  total {t.total:7d}  level {t.level}")
    print(f"{game.strategy}: {len(game.turns)} turns, score {game.score} ({game.reason})")
    return 0


def _tour_board(lex):
    """The example board when the lexicon spells words on it, else the wordiest of 64 random boards."""
    from ._tables import BOOKWORM, board_text
    from .errors import InvalidBoardError
    from .position import Position
    from .search import random_codes, solve_many

    try:
        b = Position(EXAMPLE, lexicon=lex)
        if len(b.words()):
            return b, "board 'nnloner ceunount ...'"
    except InvalidBoardError:  # a letter of the example is not in this alphabet
        pass
    codes = random_codes(64, lexicon=lex, seed=0)
    i = int(solve_many(codes, lex).counts.argmax())
    return Position(board_text(codes[i], BOOKWORM, lex), lexicon=lex), f"random board {board_text(codes[i], BOOKWORM, lex)!r}"


def tour(lex, echo) -> None:
    """The tour section: a board's words and best play, then boards/s beside plain Python (any lexicon)."""
    from .. import _timing
    from ._tables import BOGGLE4, BOOKWORM
    from .bench import measure, reference
    from .search import warmup

    dt = _timing.once(lambda: warmup(lex))
    echo(f"bookworm: kernels ready in {dt:.2f} s")
    b, name = _tour_board(lex)
    sol = b.words()
    best = sol.best()
    if best is None:
        echo(f"  {name}: no words of 3 to 12 letters ({lex.name} has {len(lex)} words)")
    else:
        echo(f"  {name}: {len(sol)} words, longest {', '.join(sol.longest())}, best {best.word!r} for {best.score}")
    ref = reference(lex, 3, 12)  # the plain-Python baseline's prefix set, built once for both grids
    for grid in (BOOKWORM, BOGGLE4):
        r = measure(lex, grid, 2500 if grid is BOOKWORM else 6000, baseline_boards=6, reference_solver=ref)
        threads = [k for k in r if k.endswith("thread") or k.endswith("threads")][-1]
        echo(f"  {grid.name}: {r['1 thread']:,.0f} boards/s on 1 thread, {r[threads]:,.0f} on {threads}; plain "
             f"Python {r['python']:,.0f} boards/s ({r['1 thread'] / r['python']:,.0f}x); "
             f"{r['words_per_board']:.1f} words/board")
        if not r["agree"]:
            echo("  WARNING: the kernel and the plain-Python solver disagree")
