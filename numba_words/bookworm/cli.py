"""``numba-words bookworm solve|random|bench|play``: solve a board, solve random boards, measure throughput
beside plain Python, or watch self-play. The old spellings (``bookworm BOARD``, ``bookworm --random N
[--bench] [--score-only]``) still work.

Results go to standard output (text, or ``--json`` / ``--csv``); the board picture, summaries and timings go
to standard error (``--quiet`` drops them).
"""
from __future__ import annotations

import argparse

from .. import _console
from ._tables import GRIDS, STRATEGIES

VERBS = ("solve", "random", "bench", "play")
EXAMPLE = "nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy"
RANDOM_CHUNK = 2000  # boards a step of `random`: the progress bar moves and memory stays bounded
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


def _whole(lo: int):
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if v < lo:
            raise argparse.ArgumentTypeError(f"expected a number >= {lo}, got {text!r}")
        return v
    return parse


def _grid_options(p, lengths: bool = True, nodes: bool = True) -> None:
    p.add_argument("--grid", default="bookworm", choices=tuple(GRIDS),
                   help="board shape: the Bookworm hex board (default) or a 4x4 / 5x5 Boggle board")
    if lengths:
        p.add_argument("--min-len", type=_whole(1), default=None, metavar="N",
                       help="shortest word in letters, Qu counting 2 (default 3; 4 on boggle5)")
        p.add_argument("--max-len", type=_whole(1), default=None, metavar="N",
                       help="longest word in letters (default 12; with --score-only every length)")
    if nodes:
        p.add_argument("--max-nodes", type=_whole(1), default=None, metavar="N",
                       help="paths one board's search may visit before it stops with an error (default 20 million; "
                       "only adversarial word lists come near it)")


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
                         description="Every word on one board with its best path, best first: Bookworm scores on "
                         "the hex board, Boggle points on Boggle grids. Data on stdout (--json/--csv: word, "
                         f"score, path, length, tiles); the board and a summary on stderr. Example: \"{EXAMPLE}\".")
    s.add_argument("board", help="board text: 7 columns bottom to top (Boggle: rows top to bottom); 'q' is the Qu "
                   "tile, '.' an empty square")
    s.add_argument("--kinds", default=None, help="tile kinds in the board's layout: . plain, g green, y gold, "
                   "s sapphire, d diamond, f fire (Bookworm scores only)")
    s.add_argument("--level", type=_whole(1), default=1, help="game level, added to every letter-value sum "
                   "(default 1; Bookworm scores only)")
    s.add_argument("--top", type=_whole(0), default=20, metavar="N", help="the N best words (default 20; 0 = all)")
    _grid_options(s)
    s.set_defaults(func=_solve)

    r = verbs.add_parser("random", help="solve N random boards: each board's word count and best words",
                         description="Deal N random boards (Bookworm letter frequencies) and solve them in steps "
                         "of 2000 boards with a progress bar: one line per board with its word count and best "
                         "word(s), taken from the batch arrays. --json/--csv: one row per board and rank.")
    r.add_argument("count", type=_whole(1), metavar="N", help="number of boards")
    r.add_argument("--seed", type=int, default=0, help="random seed of the boards (default 0)")
    r.add_argument("--top", type=_whole(0), default=1, metavar="K",
                   help="the K best words of each board (default 1; 0 = every word)")
    r.add_argument("--score-only", action="store_true", help="total Boggle points per board only, no word "
                   "lists (what the C++ Boggle solvers report)")
    _grid_options(r)
    r.set_defaults(func=_random)

    b = verbs.add_parser("bench", help="boards/s on 1 thread and all threads beside plain Python",
                         description="Throughput on N random boards (1 thread and all threads) beside the "
                         "plain-Python reference solver on the first boards, measured in the same run; exit "
                         "code 1 if they disagree. Timings vary with the machine's load.")
    b.add_argument("count", type=_whole(1), nargs="?", default=2000, metavar="N",
                   help="number of boards (default 2000)")
    b.add_argument("--seed", type=int, default=0, help="random seed of the boards (default 0)")
    b.add_argument("--score-only", action="store_true", help="time the score-only mode (total Boggle points "
                   "per board) instead of full word lists")
    b.add_argument("--baseline-boards", type=_whole(1), default=20, metavar="N",
                   help="boards the plain-Python solver does (default 20)")
    _grid_options(b, nodes=False)
    b.set_defaults(func=_bench)

    g = verbs.add_parser("play", help="self-play one game and print its turns",
                         description="Self-play from a board dealt with --seed: greedy (best score now), "
                         "longest (longest word) or lookahead (score now plus the best next word). One line a "
                         "turn (--json/--csv: turn, word, score, path, level, total); the result on stderr.")
    g.add_argument("--seed", type=int, default=0, help="random seed of the deal and the refills (default 0)")
    g.add_argument("--strategy", default="greedy", choices=STRATEGIES, help="how to pick each word")
    g.add_argument("--max-turns", type=_whole(0), default=100, metavar="N", help="stop after N turns (default 100)")
    g.set_defaults(func=_play)


def _no_verb(args) -> int:
    args.parser.print_help()
    return 2


def _lexicon(args):
    from ..lexicon import Lexicon

    return Lexicon.load(getattr(args, "lexicon", None) or "twl06")


def _min_len(args) -> int:
    return args.min_len if args.min_len is not None else (4 if args.grid == "boggle5" else 3)


def _max_len(args) -> int:
    return args.max_len if args.max_len is not None else 12


def _coord(grid, t) -> str:
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
    run = lambda: box.append(solve(board, lex, min_len=_min_len(args), max_len=_max_len(args),  # noqa: E731
                                   max_nodes=args.max_nodes))
    run()  # builds the lexicon's tables and loads (or compiles) the kernel: the timing below is the solve alone
    dt = _timing.once(run)
    sol = box[-1]
    found = sol.top(args.top or None)
    _console.note(args, str(board))
    _console.note(args, f"{len(sol)} words ({sol.scoring.name} scores); longest: {', '.join(sol.longest()) or '-'}")
    records = [dict(f.to_record(), tiles=[_coord(grid, t) for t in f.path]) for f in found]

    def text():
        for f in found:
            print(f"{f.score:6d}  {f.word:<12}  {' '.join(_coord(grid, t) for t in f.path)}")

    _console.emit(args, records, text)
    _console.note(args, f"solved in {dt * 1e3:.2f} ms")
    return 0


def _random(args) -> int:
    from .. import _timing
    from ._tables import tables
    from .search import boggle_scores, random_codes, solve_many

    lex = _lexicon(args)
    grid = GRIDS[args.grid]
    n, top = args.count, args.top or None
    fmt = _console.output_format(args)
    tables(lex)  # the per-lexicon tables are built once, outside the timing
    codes = random_codes(n, grid=grid, lexicon=lex, seed=args.seed)
    records, words, seconds = [], 0, 0.0
    with _console.progress(args, total=n, desc="boards", unit="board") as bar:
        for a in range(0, n, RANDOM_CHUNK):
            part = codes[a:a + RANDOM_CHUNK]
            box = []
            if args.score_only:
                seconds += _timing.once(lambda: box.append(boggle_scores(
                    part, lex, grid=grid, min_len=_min_len(args), max_len=args.max_len, max_nodes=args.max_nodes)))
                rows = [{"board": a + i, "points": int(p)} for i, p in enumerate(box[0])]
                lines = (f"{r['board']}: {r['points']} points" for r in rows)
            else:
                seconds += _timing.once(lambda: box.append(solve_many(
                    part, lex, grid=grid, min_len=_min_len(args), max_len=_max_len(args), max_nodes=args.max_nodes)))
                rows, lines = _best_rows(box[0], a, top)
                words += box[0].total_words
            if fmt == "text":
                print("\n".join(lines))
            else:
                records.extend(rows)
            bar.update(len(part))
    _console.emit(args, records)
    what = "" if args.score_only else f", {words:,} words ({words / n:.1f} a board)"
    _console.note(args, f"{n:,} {grid.name} boards{what}; solved in {seconds:.2f} s ({n / max(seconds, 1e-9):,.0f} "
                  f"boards/s)")
    return 0


def _best_rows(batch, first: int, top):
    """Records and text lines of each board's best words, picked with NumPy over the batch arrays."""
    rows, boards, ranks = batch.top_rows(top)
    words = batch.lexicon.words
    counts = batch.counts
    paths = batch.path
    records, lines, r = [], [], 0
    for b in range(len(batch)):
        mine = []
        while r < len(rows) and boards[r] == b:
            i = rows[r]
            mine.append((words[int(batch.wid[i])].lower(), int(batch.scores[i]),
                         [int(x) for x in paths[i, :batch.plen[i]]], int(ranks[r]) + 1))
            r += 1
        if mine:
            records.extend({"board": first + b, "words": int(counts[b]), "rank": k, "word": w, "score": s,
                            "path": p} for w, s, p, k in mine)
        else:
            records.append({"board": first + b, "words": 0, "rank": None, "word": None, "score": None, "path": None})
        best = ", ".join(f"{w} {s}" for w, s, _, _ in mine) or "- 0"
        lines.append(f"{first + b}: {counts[b]} words, best {best}")
    return records, lines


def _bench(args) -> int:
    from .bench import measure, measure_scores, report

    lex = _lexicon(args)
    grid = GRIDS[args.grid]
    n, m = args.count, args.baseline_boards
    if args.score_only:
        r = measure_scores(lex, grid, n, args.seed, _min_len(args), baseline_boards=m)
        head = (f"{grid.name}, {lex.name}, {n} random boards, score only (Boggle points, words of {_min_len(args)}+ "
                f"letters), mean {r['mean_score']:.1f} points/board")
        what = "scores"
    else:
        r = measure(lex, grid, n, args.seed, _min_len(args), _max_len(args), baseline_boards=m)
        head = f"{grid.name}, {lex.name}, {n} random boards, {r['words_per_board']:.0f} words/board (full lists)"
        what = "words"
    records = [{"solver": f"numba {k}", "boards_per_s": round(v, 1), "vs_python": round(v / r["python"], 1)}
               for k, v in r.items() if k.endswith("thread") or k.endswith("threads")]
    records.append({"solver": "plain Python", "boards_per_s": round(r["python"], 1), "vs_python": 1.0})
    for rec in records:
        rec.update(grid=grid.name, lexicon=lex.name, boards=n, mode=what, agree=bool(r["agree"]))

    def text():
        print(head)
        for line in report(r, what):
            print(line)

    _console.emit(args, records, text)
    _console.note(args, f"plain-Python prefix set built in {r['python_build_s']:.2f} s")
    return 0 if r["agree"] else 1


def _play(args) -> int:
    from .game import play_game

    game = play_game(args.seed, args.strategy, max_turns=args.max_turns, lexicon=_lexicon(args))

    def text():
        for i, t in enumerate(game.turns, 1):
            print(f"{i:3d}  {t.word:<12} {t.score:6d}  total {t.total:7d}  level {t.level}")

    _console.emit(args, game.to_records(), text)
    _console.note(args, f"{game.strategy}: {len(game.turns)} turns, score {game.score} ({game.reason})")
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
    text = board_text(codes[i], BOOKWORM, lex)
    return Position(text, lexicon=lex), f"random board {text!r}"


def tour(lex, echo) -> None:
    """The tour section: a board's words and best play, then boards/s beside plain Python (any lexicon)."""
    from .. import _timing
    from ._tables import BOGGLE4, BOOKWORM
    from .bench import measure, reference
    from .search import warmup

    dt = _timing.once(lambda: warmup(lex, parts=("solve",)))
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
        r = measure(lex, grid, 1500 if grid is BOOKWORM else 4000, baseline_boards=5, reference_solver=ref)
        threads = [k for k in r if k.endswith("thread") or k.endswith("threads")][-1]
        echo(f"  {grid.name}: {r['1 thread']:,.0f} boards/s on 1 thread, {r[threads]:,.0f} on {threads}; plain "
             f"Python {r['python']:,.0f} boards/s ({r['1 thread'] / r['python']:,.0f}x); "
             f"{r['words_per_board']:.1f} words/board")
        if not r["agree"]:
            echo("  WARNING: the kernel and the plain-Python solver disagree")
