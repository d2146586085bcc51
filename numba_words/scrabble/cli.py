"""CLI for the crossword-game engine: ``numba-words scrabble ...`` and its part of ``numba-words tour``."""
from __future__ import annotations

import time

EMPTY_CGP = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0"


def register(sub) -> None:
    p = sub.add_parser("scrabble", help="crossword-game moves (Scrabble, WWF, Wordfeud): list, self-play, bench",
                       description="Every legal play of a position, scored, best first. Notation: 8H = across "
                       "from row 8 column H, H8 = down; played-through letters in parentheses; blanks lower case.")
    p.add_argument("--cgp", default=None, help="position as CGP (default: the empty board)")
    p.add_argument("--rack", default=None, help="rack on turn, '?' = blank (default: the CGP's rack)")
    p.add_argument("--top", type=int, default=20, help="print this many plays (0 = all)")
    p.add_argument("--variant", default="scrabble", help="scrabble, wwf, wordfeud, wordfeud-nb")
    p.add_argument("--lexicon", default=None, help="lexicon name or path (default: the variant's)")
    p.add_argument("--board", action="store_true", help="print the board first")
    p.set_defaults(func=_moves)
    ss = p.add_subparsers(dest="scrabble_command", metavar="COMMAND")
    sp = ss.add_parser("selfplay", help="play a whole game with the top-scoring strategy")
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--variant", default="scrabble")
    sp.add_argument("--lexicon", default=None)
    sp.add_argument("--quiet", action="store_true", help="only the final board and scores")
    sp.set_defaults(func=_selfplay)
    bp = ss.add_parser("bench", help="throughput on self-play midgame TWL06 positions (1 and 2 threads, "
                       "best-only, plain-Python reference)")
    bp.add_argument("--games", type=int, default=8, help="self-play games to take positions from (5 each; "
                    "8 = the stored set data/scrabble/midgame_twl06.cgp)")
    bp.add_argument("--reference", type=int, default=2, help="positions for the plain-Python reference")
    bp.set_defaults(func=_bench)


def _moves(args) -> int:
    from ._tables import reach_for, span_table
    from .generator import warmup
    from .position import Position

    pos = Position.from_cgp(args.cgp or EMPTY_CGP, variant=args.variant, lexicon=args.lexicon)
    if args.rack is not None:
        pos.rack = pos._check_rack(args.rack)
    if args.board:
        print(pos)
    warmup()  # load the compiled kernels so that the timing below is the generation alone
    span_table()
    reach_for(pos.lexicon.dawg)
    t = time.perf_counter()
    plays = pos.legal_plays()
    dt = time.perf_counter() - t
    top = plays.best(len(plays) if args.top <= 0 else args.top)
    for p in top:
        print(p)
    print(f"-- {len(plays)} plays, rack {pos.rack or '-'}, {len(pos.exchanges())} exchanges; generated in "
          f"{dt * 1e3:.2f} ms (incl. Python wrapping)")
    return 0


def _selfplay(args) -> int:
    from .position import play_game

    t = time.perf_counter()
    g = play_game(args.seed, args.variant, args.lexicon)
    dt = time.perf_counter() - t
    if not args.quiet:
        for k, (who, m, s) in enumerate(g.moves, 1):
            print(f"{k:>3}. player {who + 1}: {m:<24} {s:>4}")
    print(g.position if g.turn == 0 else _flip(g))
    print(f"final {g.scores[0]}-{g.scores[1]} after {len(g.moves)} moves in {dt:.2f} s")
    return 0


def _flip(g):
    p = g.position
    p.scores = (g.scores[0], g.scores[1])
    p.rack = g.racks[0]
    return p


def _bench(args) -> int:
    from ..lexicon import Lexicon
    from .bench import benchmark_positions, measure, midgame_positions, report
    from .generator import warmup

    warmup()
    lex = Lexicon.load("twl06")
    pos = benchmark_positions(lex) if args.games == 8 else midgame_positions(lex, args.games)
    report(measure(pos, reference_sample=args.reference))
    return 0


def tour(lex, echo) -> None:
    """The engine on a TWL06 midgame position, self-play, and throughput beside the plain-Python reference."""
    from .bench import measure, midgame_positions, report
    from .generator import warmup
    from .position import Position

    echo("== Scrabble (crossword-game engine)")
    if lex.alphabet.letters != "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        echo("(skipped: needs an English lexicon)")
        return
    from ._tables import bingo_for, reach_for

    t = time.perf_counter()
    warmup()
    reach_for(lex.dawg)
    bingo_for(lex.dawg)
    echo(f"kernels and tables ready in {time.perf_counter() - t:.2f} s (compiled or loaded from cache)")
    cgp = ("7O6L/7C6I/2F1TROT2NAANS/2R1U2RAZEED1P/2I1R2O3O3/2GAB2IF2N3/3lI3O6/4T2NU6/4H3RAH4/15/15/15/15/15/15 "
           "ELMMTV?/ 76/176 0")
    pos = Position.from_cgp(cgp, lexicon=lex)
    t = time.perf_counter()
    plays = pos.legal_plays()
    dt = time.perf_counter() - t
    echo(f"position {cgp.split()[0][:40]}... rack {pos.rack}: {len(plays)} plays in {dt * 1e3:.2f} ms; top 5: "
         + ", ".join(str(p) for p in plays.best(5)))
    t = time.perf_counter()
    positions = midgame_positions(lex, 2)
    echo(f"self-play: 2 top-score games to ply 14 for the positions below in {(time.perf_counter() - t) * 1e3:.1f} ms")
    report(measure(positions, reference_sample=1, min_time=0.1), echo=lambda s: echo(s.strip()))
