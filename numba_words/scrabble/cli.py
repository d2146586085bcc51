"""CLI for the crossword-game engine: ``numba-words scrabble
generate|best|selfplay|autoplay|leaves|sim|endgame|infer|peg|analyze|bench`` and its part of ``numba-words tour``. ``numba-words scrabble --cgp ...`` (no verb) is ``generate``."""
from __future__ import annotations

import argparse
import time

from .. import _console
from .errors import ScrabbleError

EMPTY_CGP = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0"
TOUR_CGP = ("7O6L/7C6I/2F1TROT2NAANS/2R1U2RAZEED1P/2I1R2O3O3/2GAB2IF2N3/3lI3O6/4T2NU6/4H3RAH4/15/15/15/15/15/15 "
            "ELMMTV?/ 76/176 0")


def _position_options(p, *, verb: bool) -> None:
    """The options naming a position. On a verb's parser they are SUPPRESSed when absent, so that values given
    before the verb (``scrabble --cgp X generate``) are kept."""
    d = (lambda v: argparse.SUPPRESS) if verb else (lambda v: v)
    p.add_argument("--cgp", default=d(None), metavar="CGP",
                   help="the position as CGP: 'ROWS RACK/OPP SCORE/SCORE SCORELESS' (default: the empty board)")
    p.add_argument("--rack", default=d(None), metavar="TILES",
                   help="rack on turn, '?' = blank (default: the CGP's rack)")
    p.add_argument("--variant", default=d("scrabble"), metavar="NAME",
                   help="scrabble, wwf, wordfeud or wordfeud-nb (default: scrabble)")
    p.add_argument("--board", action="store_true", default=d(False),
                   help="print the board before the plays (text output only)")
    p.add_argument("--svg", default=d(None), metavar="FILE",
                   help="also write the board with the top play on it to FILE as SVG")


def register(sub) -> None:
    p = sub.add_parser(
        "scrabble", help="crossword-game plays (Scrabble, WWF, Wordfeud): generate, best, selfplay, bench",
        description="Every legal play of a position, scored, best first. Notation: 8H = across from row 8 "
        "column H, H8 = down; played-through letters in parentheses; blanks lower case. Without a command: "
        "generate.")
    _position_options(p, verb=False)
    p.add_argument("--top", type=int, default=20, metavar="N", help="print the N best plays (0 = all; default 20)")
    p.set_defaults(func=_generate)
    ss = p.add_subparsers(dest="scrabble_command", metavar="COMMAND")

    gp = ss.add_parser("generate", help="every legal play of a position, best first",
                       description="Every legal play of a position, scored, best first (--json/--csv: coord, "
                       "word, score, tiles, leave, notation).")
    _position_options(gp, verb=True)
    gp.add_argument("--top", type=int, default=argparse.SUPPRESS, metavar="N",
                    help="print the N best plays (0 = all; default 20)")
    gp.set_defaults(func=_generate)

    bp = ss.add_parser("best", help="the top-scoring play only (pruned search)",
                       description="The top-scoring play of a position, found by the pruned best-only search.")
    _position_options(bp, verb=True)
    bp.set_defaults(func=_best)

    sp = ss.add_parser("selfplay", help="play whole games with the top-scoring strategy",
                       description="Self-play with the top-scoring strategy: every turn, then the final board "
                       "(--json/--csv: one record per turn).")
    sp.add_argument("--seed", type=int, default=0, help="random seed of the first game (default 0)")
    sp.add_argument("--games", type=int, default=1, help="games to play, seeds SEED, SEED+1, ... (default 1)")
    sp.add_argument("--variant", default="scrabble", metavar="NAME",
                    help="scrabble, wwf, wordfeud or wordfeud-nb (default: scrabble)")
    sp.add_argument("--max-turns", type=int, default=200, metavar="N", help="stop a game after N turns (default 200)")
    sp.add_argument("--final", action="store_true", help="print only each game's final board and score")
    sp.add_argument("--gcg", default=None, metavar="FILE", help="write the (last) game to FILE as GCG")
    sp.add_argument("--svg", default=None, metavar="FILE", help="write the (last) game's final board to FILE as SVG")
    sp.set_defaults(func=_selfplay)

    ap = ss.add_parser("autoplay", help="many self-play games between two strategies, in parallel, with statistics",
                       description="Self-play games between two players (score: top-scoring play; equity: score + "
                       "leave value; or a .klv2 leave file), in pairs with the same draws and seats swapped; wins, "
                       "ties, losses of player 1 with a 95% confidence interval, mean scores, bingos, turns.")
    ap.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    ap.add_argument("--p1", default="equity", metavar="PLAYER", help="score, equity or FILE.klv2 (default equity)")
    ap.add_argument("--p2", default="score", metavar="PLAYER", help="score, equity or FILE.klv2 (default score)")
    ap.add_argument("--seed", type=int, default=0, help="random seed of the run (default 0)")
    ap.add_argument("--threads", type=int, default=None, help="Numba threads (default: all cores)")
    ap.add_argument("--variant", default="scrabble", metavar="NAME",
                    help="scrabble, wwf, wordfeud or wordfeud-nb (default: scrabble)")
    ap.add_argument("--end-rule", default="classic", choices=("classic", "tournament"),
                    help="going out: classic (+/- the rack left) or tournament (+2x the rack left)")
    ap.add_argument("--gcg", default=None, metavar="FILE", help="write game 0 to FILE as GCG")
    ap.set_defaults(func=_autoplay)

    lp = ss.add_parser("leaves", help="learn a leave table by self-play and write it as KLV2",
                       description="Superleaves by self-play: each round plays --games games between two equity "
                       "players with the current table, records every full rack's best-move equity while the bag "
                       "holds tiles, and sets each leave to the mean of the racks that hold it (weighted by the odds "
                       "of drawing the rest) minus the average; rare leaves lean on their sub-leaves. Writes the "
                       "last round's table (--json/--csv: one record per round).")
    lp.add_argument("--games", type=int, default=10000, help="games per round (default 10000)")
    lp.add_argument("--rounds", type=int, default=3, help="rounds, each playing with the last one's table (default 3)")
    lp.add_argument("--start", default=None, metavar="FILE.klv2", help="table of the first round (default: all 0)")
    lp.add_argument("--out", default="leaves.klv2", metavar="FILE.klv2", help="table to write (default leaves.klv2)")
    lp.add_argument("--seed", type=int, default=0, help="random seed of the run (default 0)")
    lp.add_argument("--threads", type=int, default=None, help="lanes of threads (default: all cores)")
    lp.add_argument("--variant", default="scrabble", metavar="NAME",
                    help="scrabble, wwf, wordfeud or wordfeud-nb (default: scrabble)")
    lp.set_defaults(func=_leaves)

    mp = ss.add_parser("sim", help="Monte-Carlo simulation of the top plays by static equity",
                       description="Simulate the top candidates by static equity: each iteration draws the "
                       "opponent's rack and later draws from the unseen tiles and plays every candidate out for "
                       "--plies replies (best static equity); outcome = spread + leave values of the last two "
                       "moves (points). Candidates statistically behind are dropped (--json/--csv: one record per "
                       "candidate: notation, score, leave, equity, mean, stderr, iterations, dropped).")
    _position_options(mp, verb=True)
    mp.add_argument("--candidates", type=int, default=15, metavar="N", help="plays to simulate (default 15)")
    mp.add_argument("--plies", type=int, default=2, metavar="N", help="replies after the candidate (default 2)")
    mp.add_argument("--iterations", type=int, default=1000, metavar="N", help="iterations at most (default 1000)")
    mp.add_argument("--time", type=float, default=None, metavar="SECONDS", help="time budget (default: none)")
    mp.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    mp.add_argument("--threads", type=int, default=None, help="Numba threads (default: all cores)")
    mp.add_argument("--leaves", default=None, metavar="FILE.klv2",
                    help="leave table (default: the variant's shipped table, or zero)")
    mp.add_argument("--win", action="store_true",
                    help="rank candidates by win probability (spread and unseen tiles, the shipped win table)")
    mp.add_argument("--no-exchanges", action="store_true", help="simulate plays only (default: exchanges compete)")
    mp.set_defaults(func=_sim)

    ep = ss.add_parser("endgame", help="solve an endgame exactly (bag empty, both racks known)",
                       description="Exact endgame by negamax with alpha-beta, a transposition table and "
                       "iterative deepening; the CGP must give both racks (RACK/OPP) and leave the bag empty. "
                       "Prints the value (final spread change for the side to move) and the principal variation.")
    _position_options(ep, verb=True)
    ep.add_argument("--plies", type=int, default=None, metavar="N", help="depth limit (default: solve to the end)")
    ep.add_argument("--time", type=float, default=None, metavar="SECONDS",
                    help="stop deepening when the next depth would not finish in time")
    ep.add_argument("--tt-mb", type=float, default=64, metavar="MB", help="transposition table size (default 64)")
    ep.add_argument("--threads", type=int, default=1,
                    help="search threads sharing the transposition table (default 1; same value at any count)")
    ep.set_defaults(func=_endgame)

    ip = ss.add_parser("infer", help="the leave the opponent kept, inferred from their play",
                       description="Rack inference (as MAGPIE's infer): the CGP is the board before the play, the "
                       "player who made it on turn (its rack: tiles known to be on their rack, usually none; the "
                       "opponent rack: yours). Every rack they could have held counts, weighted by the odds of "
                       "drawing it, when the play was its best move by static equity within --margin points "
                       "(--json/--csv: one record per leave: leave, weight, probability).")
    _position_options(ip, verb=True)
    ip.add_argument("play", metavar="PLAY", help="the play ('8D CAIRD'), or an exchange of N tiles ('-N')")
    ip.add_argument("--margin", type=float, default=0.0, metavar="POINTS",
                    help="equity the play may fall behind the best move (default 0)")
    ip.add_argument("--top", type=int, default=20, metavar="N",
                    help="print the N likeliest leaves (0 = all; default 20)")
    ip.set_defaults(func=_infer)

    pp = ss.add_parser("peg", help="pre-endgame: rank plays by win probability over every draw of the bag",
                       description="Pre-endgame solver (1-6 tiles in the bag, the opponent's rack unknown: the CGP "
                       "gives no opponent rack). Every order the bag can be drawn in is a scenario; each candidate is "
                       "played out in each (best moves by static equity until the bag is empty, then the endgame "
                       "solver), in stages of growing endgame depth (--exact: the last survivors then solved to the "
                       "end). "
                       "Candidates rank by win probability, then mean final spread (--json/--csv: one record per "
                       "candidate: notation, score, leave, win, spread, exact, stage).")
    _position_options(pp, verb=True)
    pp.add_argument("--candidates", type=int, default=32, metavar="N",
                    help="plays by static equity to consider, plus the pass (default 32)")
    pp.add_argument("--stage", action="append", default=None, metavar="PLIES:KEEP",
                    help="a stage: endgames to PLIES plies (0: one greedy playout), keep the best KEEP (repeat; "
                    "default 0:8 1:4 2:2)")
    pp.add_argument("--exact", action="store_true",
                    help="then solve the survivors' endgames to the end (slow with full racks)")
    pp.add_argument("--time", type=float, default=None, metavar="S",
                    help="seconds the stages after the first may run: the stage then running is abandoned, the "
                         "figures of the stage before stand (default: no limit)")
    pp.set_defaults(func=_peg)

    zp = ss.add_parser("analyze", help="judge every turn of a GCG game against the engine's choice",
                       description="Game analysis: each turn's move against the engine's (static equity with "
                       "tiles to spare, or a simulation with --sim; the pre-endgame solver with 1 to --peg-max tiles "
                       "in the bag; the endgame solver with none), the loss, the mistakes ranked and per-player "
                       "totals (--json: an object whose 'turns' is a list; --csv: one row per turn; --html FILE: a "
                       "report with a chart of the loss per turn).")
    zp.add_argument("gcg", metavar="GAME.gcg", help="the game (GCG file), or a folder of them (*.gcg)")
    zp.add_argument("--scheduler", default=None, metavar="ADDR",
                    help="a folder's games on this Dask scheduler, one task a game (e.g. tcp://host:8786)")
    zp.add_argument("--variant", default="scrabble", metavar="NAME",
                    help="scrabble, wwf, wordfeud or wordfeud-nb (default: scrabble)")
    zp.add_argument("--sim", type=int, default=0, metavar="N",
                    help="simulate turns with tiles to spare, N iterations (default 0: static equity)")
    zp.add_argument("--peg-max", type=int, default=2, metavar="N",
                    help="pre-endgame solver with 1 to N tiles in the bag (default 2; at most 6)")
    zp.add_argument("--no-peg", action="store_true", help="static equity also with 1-6 tiles in the bag")
    zp.add_argument("--peg-exact", action="store_true", help="pre-endgame survivors solved to the end")
    zp.add_argument("--endgame-plies", type=int, default=None, metavar="N",
                    help="endgame depth limit (default: to the end)")
    zp.add_argument("--endgame-time", type=float, default=30.0, metavar="S",
                    help="seconds an endgame solve may take, deepening stopped before a depth that would not finish "
                         "(default 30; 0: no limit, exact)")
    zp.add_argument("--peg-time", type=float, default=30.0, metavar="S",
                    help="seconds a pre-endgame turn's stages after the first may run, the stage then running "
                         "abandoned and the turn noted (default 30; 0: no limit)")
    zp.add_argument("--no-endgame", action="store_true", help="leave turns with the bag empty unjudged")
    zp.add_argument("--skip-invalid", action="store_true",
                    help="a folder: name the games that cannot be read and go on (default: stop at the first)")
    zp.add_argument("--html", default=None, metavar="FILE", help="write an HTML report (chart, totals, turns)")
    zp.add_argument("--svg", default=None, metavar="FILE", help="write the chart of the loss per turn as SVG")
    zp.set_defaults(func=_analyze)

    bp = ss.add_parser("bench", help="throughput on self-play midgame positions beside the plain-Python reference",
                       description="Generation throughput (one call a position, the batch path at 1 and N "
                       "threads, best-only) on self-play midgame positions, and the plain-Python reference "
                       "generator on the same positions in the same run.")
    bp.add_argument("--games", type=int, default=8,
                    help="self-play games to take positions from, 5 each (default 8: the stored TWL06 set)")
    bp.add_argument("--reference", type=int, default=2, metavar="N",
                    help="positions for the plain-Python reference, racks cut to 3 tiles (0 = skip; default 2)")
    bp.set_defaults(func=_bench)


def _position(args):
    from .position import Position

    cgp = args.cgp if args.cgp is not None else EMPTY_CGP
    pos = Position.from_cgp(cgp, variant=args.variant, lexicon=getattr(args, "lexicon", None))
    if args.rack is not None:
        pos.rack = args.rack
    return pos


def _write_file(args, path, text) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise ScrabbleError(f"cannot write {path!r}: {e}") from None
    _console.note(args, f"written to {path}")


def _generate(args) -> int:
    from .search import warmup

    if args.top < 0:
        raise ScrabbleError(f"--top must be 0 (all) or more, got {args.top}")
    pos = _position(args)
    warmup(pos.lexicon, parts=("generate", "best"))  # compiled kernels and the lexicon's tables: the timing below is the generation alone
    t = time.perf_counter()
    plays = pos.legal_plays()
    dt = time.perf_counter() - t
    top = plays.top(None if args.top == 0 else args.top)
    if args.svg:
        _write_file(args, args.svg, pos.svg(top[0] if top else None))

    def text():
        if args.board:
            print(pos)
        for p in top:
            print(p)

    _console.emit(args, [p.to_record() for p in top], text)
    _console.note(args, f"-- {len(plays)} plays, rack {pos.rack or '-'}, {len(pos.exchanges())} exchanges; "
                  f"generated in {dt * 1e3:.2f} ms (incl. Python wrapping)")
    return 0


def _best(args) -> int:
    from .search import warmup

    pos = _position(args)
    warmup(pos.lexicon, parts=("generate", "best"))
    t = time.perf_counter()
    best = pos.best()
    dt = time.perf_counter() - t
    if args.svg:
        _write_file(args, args.svg, pos.svg(best))

    def text():
        if args.board:
            print(pos)
        print(best if best is not None else "(no play)")

    _console.emit(args, [best.to_record()] if best is not None else [], text)
    _console.note(args, f"-- best of rack {pos.rack or '-'} found in {dt * 1e3:.2f} ms")
    return 0


def _selfplay(args) -> int:
    from .game import play_game
    from .position import Position

    if args.games < 1:
        raise ScrabbleError(f"--games must be 1 or more, got {args.games}")
    if args.max_turns < 0:
        raise ScrabbleError(f"--max-turns must be 0 or more, got {args.max_turns}")
    fmt = _console.output_format(args)
    records = []
    games = []
    t = time.perf_counter()
    turns = 0
    with _console.progress(args, args.games if args.games > 1 else None, "self-play",
                           "game" if args.games > 1 else "turn") as bar:
        for k in range(args.games):
            seed = args.seed + k
            g = play_game(seed, args.variant, getattr(args, "lexicon", None), max_turns=args.max_turns,
                          progress=None if args.games > 1 else bar)
            if args.games > 1:
                bar.update(1)
            turns += len(g.moves)
            if fmt != "text":
                records += [{"game": seed, **r} for r in g.to_records()]
            else:
                games.append((seed, g))
            last = g
    dt = time.perf_counter() - t

    def text():
        for seed, g in games:
            if args.games > 1:
                print(f"== game seed {seed}")
            if not args.final:
                for r in g.to_records():
                    print(f"{r['turn']:>3}. player {r['player']}: {r['move']:<24} {r['score']:>4}")
            final = Position._make(g.variant, g.lexicon, g.board, g.racks[0], g.racks[1], tuple(g.scores),
                                   g.scoreless)
            print(final)
            print(f"final {g.scores[0]}-{g.scores[1]} after {len(g.moves)} moves")

    _console.emit(args, records, text)
    if args.gcg:
        _write_file(args, args.gcg, last.gcg())
    if args.svg:
        _write_file(args, args.svg, last.svg())
    _console.note(args, f"-- {args.games} game{'s' if args.games > 1 else ''}, {turns} turns in {dt:.2f} s "
                  f"({turns / dt if dt else 0:,.0f} turns/s incl. Python)")
    return 0


def _autoplay(args) -> int:
    from .autoplay import play_games

    if args.games < 1:
        raise ScrabbleError(f"--games must be 1 or more, got {args.games}")
    t = time.perf_counter()
    with _console.progress(args, args.games, "autoplay", "game") as bar:
        res = play_games(args.games, (args.p1, args.p2), seed=args.seed, threads=args.threads, variant=args.variant,
                         end_rule=args.end_rule, progress=bar)
    dt = time.perf_counter() - t
    stats = res.stats()
    stats["seconds"] = dt
    _console.emit(args, [stats], lambda: print(res.summary()))
    if args.gcg:
        _write_file(args, args.gcg, res.game(0).gcg())
    _console.note(args, f"-- {args.games} games in {dt:.2f} s ({args.games / dt if dt else 0:,.0f} games/s, "
                  "compile included on a first run)")
    return 0


def _leaves(args) -> int:
    from dataclasses import asdict

    from .autoplay import learn_leaves

    if args.games < 2 or args.rounds < 1:
        raise ScrabbleError(f"--games must be 2 or more and --rounds 1 or more, got {args.games} and {args.rounds}")
    rows = []

    def done(i, table, rd):
        table.to_klv2(args.out)
        rows.append({"round": i + 1, **asdict(rd)})
        _console.note(args, f"-- round {i + 1}: {rd.games} games, {rd.turns} turns, average {rd.average:.2f} points, "
                      f"{rd.seen} leaves seen ({rd.well_seen} often), {rd.seconds:.1f} s; wrote {args.out}")

    with _console.progress(args, args.games * args.rounds, "leaves", "game") as bar:
        table, _ = learn_leaves(args.games, args.rounds, start=args.start, seed=args.seed, threads=args.threads,
                                variant=args.variant, progress=bar, on_round=done)

    def text():
        for r in rows:
            print(f"round {r['round']}: {r['games']} games, {r['turns']} turns, {r['racks']} racks, average "
                  f"{r['average']:.2f}, leaves seen {r['seen']} ({r['well_seen']} often), {r['seconds']:.1f} s")
        print("values: " + ", ".join(f"{x} {table[x]:+.2f}" for x in ("?", "S", "Z", "Q", "QU", "ERS", "VV")))

    _console.emit(args, rows, text)
    return 0


def _sim(args) -> int:
    pos = _position(args)
    if args.leaves is not None:
        pos.leaves = args.leaves
    with _console.progress(args, args.iterations, "sim", "iteration") as bar:
        res = pos.simulate(candidates=args.candidates, plies=args.plies, iterations=args.iterations, time=args.time,
                           threads=args.threads, seed=args.seed, progress=bar, win_table=True if args.win else None,
                           exchanges=not args.no_exchanges)
    if args.svg:
        _write_file(args, args.svg, pos.svg(res.best if hasattr(res.best, "placed") else None))

    def text():
        if args.board:
            print(pos)
        print(res.summary())

    _console.emit(args, res.to_records(), text)
    _console.note(args, f"-- best {res.best.notation}; {res.playouts} playouts in {res.seconds:.2f} s "
                  f"({res.playouts / res.seconds if res.seconds else 0:,.0f} playouts/s, compile included on a "
                  "first run)")
    return 0


def _endgame(args) -> int:
    pos = _position(args)
    res = pos.endgame(plies=args.plies, time=args.time, tt_mb=args.tt_mb, threads=args.threads)
    if args.svg:
        _write_file(args, args.svg, pos.svg(res.best))

    def text():
        if args.board:
            print(pos)
        print(f"value {res.value:+d} ({'exact' if res.exact else f'depth {res.depth}, not exact'})")
        for i, m in enumerate(res.pv):
            who = "me " if i % 2 == 0 else "opp"
            print(f"  {i + 1:>2}. {who} {'pass' if m is None else m.notation:<24} {0 if m is None else m.score:>4}")

    _console.emit(args, [res.to_record()], text)
    _console.note(args, f"-- {res.nodes:,} nodes in {res.seconds:.2f} s to depth {res.depth} "
                  "(compile included on a first run)")
    return 0


def _infer(args) -> int:
    from .infer import infer

    pos = _position(args)
    res = infer(pos, args.play, margin=args.margin, threads=args.threads)
    n = None if args.top == 0 else args.top

    def text():
        if args.board:
            print(pos)
        print(res.summary(len(res.leaves) if n is None else n))

    _console.emit(args, res.to_records(n), text)
    _console.note(args, f"-- {res.racks:,} racks in {res.seconds:.2f} s (compile included on a first run)")
    return 0


def _peg(args) -> int:
    from .peg import STAGES, peg

    pos = _position(args)
    stages = STAGES
    if args.stage:
        try:
            stages = tuple(tuple(int(x) for x in st.split(":")) for st in args.stage)
        except ValueError:
            raise ScrabbleError(f"--stage must be PLIES:KEEP, got {args.stage!r}") from None
    res = peg(pos, candidates=args.candidates, stages=stages, exact=args.exact, threads=args.threads, time=args.time)

    def text():
        if args.board:
            print(pos)
        print(res.summary())

    _console.emit(args, res.to_records(), text)
    _console.note(args, f"-- best {res.candidates[0].notation}; {res.endgames:,} endgames in {res.seconds:.2f} s "
                  "(compile included on a first run)")
    return 0


def _analyze(args) -> int:
    from pathlib import Path

    from .analyze import analyze_game, analyze_games

    if Path(args.gcg).is_dir() or args.scheduler:
        if args.html or args.svg:
            raise ScrabbleError("--html and --svg are for one game, not a folder")
        res = analyze_games(args.gcg, client=args.scheduler, variant=args.variant,
                            lexicon=getattr(args, "lexicon", None), threads=args.threads, sim=args.sim,
                            peg=not args.no_peg, peg_max=args.peg_max, peg_exact=args.peg_exact,
                            endgame=not args.no_endgame, endgame_plies=args.endgame_plies,
                            endgame_time=args.endgame_time or None, peg_time=args.peg_time or None,
                            skip_invalid=args.skip_invalid)
        names = sorted(Path(args.gcg).glob("*.gcg")) if Path(args.gcg).is_dir() else [Path(args.gcg)]
        skipped = [f.name for f, r in zip(names, res) if r is None]
        names, res = zip(*[(f, r) for f, r in zip(names, res) if r is not None]) if len(skipped) < len(res) \
            else ((), ())
        games = [{"file": f.name} | r.to_json() for f, r in zip(names, res)]
        if _console.output_format(args) == "json":
            _console.emit_json({"games": games, "skipped": skipped})
        else:
            _console.emit(args, [{"file": g["file"]} | t for g in games for t in g["turns"]],
                          lambda: print("\n\n".join(f"== {f.name}\n{r.summary()}" for f, r in zip(names, res))))
        _console.note(args, f"-- {len(res)} games, {sum(len(r.turns) for r in res)} turns"
                      + (f"; {len(skipped)} unreadable, skipped: {', '.join(skipped)}" if skipped else ""))
        return 0

    with _console.progress(args, None, "analyze", "turn") as bar:
        res = analyze_game(args.gcg, variant=args.variant, lexicon=getattr(args, "lexicon", None), sim=args.sim,
                           peg=not args.no_peg, peg_max=args.peg_max, peg_exact=args.peg_exact,
                           endgame=not args.no_endgame, endgame_plies=args.endgame_plies,
                           endgame_time=args.endgame_time or None, peg_time=args.peg_time or None, threads=args.threads,
                           progress=bar)
    if args.html:
        _write_file(args, args.html, res.html())
    if args.svg:
        _write_file(args, args.svg, res.svg())
    if _console.output_format(args) == "json":
        _console.emit_json(res.to_json())
    else:
        _console.emit(args, res.to_records(), lambda: print(res.summary()))
    _console.note(args, f"-- {len(res.turns)} turns in {res.seconds:.2f} s (compile included on a first run)")
    return 0


def _bench(args) -> int:
    import numba

    from ..lexicon import Lexicon
    from .bench import benchmark_positions, measure, midgame_positions, report, steps, variant_for
    from .search import warmup

    if args.games < 1:
        raise ScrabbleError(f"--games must be 1 or more, got {args.games}")
    if args.reference < 0:
        raise ScrabbleError(f"--reference must be 0 or more, got {args.reference}")
    lex = Lexicon.load(getattr(args, "lexicon", None) or "twl06")
    if variant_for(lex) is None:
        raise ScrabbleError(f"no variant fits the alphabet {lex.alphabet.letters!r} of lexicon {lex.name!r}")
    warmup(lex, parts=("generate", "best"))
    with _console.progress(args, args.games, "self-play positions", "game") as bar:
        if args.games == 8:
            pos = benchmark_positions(lex)
            bar.update(8)
        else:
            pos = midgame_positions(lex, args.games, progress=bar)
    if not pos:
        raise ScrabbleError("the self-play games ended before their first midgame position; try more --games")
    n = getattr(args, "threads", None) or numba.get_num_threads()
    threads = tuple(sorted({1, n}))
    with _console.progress(args, steps(threads), "measuring", "step") as bar:
        res = measure(pos, threads=threads, reference_sample=min(args.reference, len(pos)), progress=bar)
    res["lexicon"] = lex.name
    fmt = _console.output_format(args)
    if fmt == "json":
        _console.emit_json(res)
    else:
        _console.emit(args, [res], lambda: report(res))
    return 0


def tour(lex, echo) -> None:
    """The engine on a midgame position, self-play, and throughput beside the plain-Python reference, for any
    lexicon whose alphabet a variant uses (English: Scrabble; Norwegian: Wordfeud)."""
    from .bench import measure, midgame_positions, report, variant_for
    from .game import Game
    from .position import Position
    from .search import warmup

    echo("== Scrabble (crossword-game engine)")
    variant = variant_for(lex)
    if variant is None:
        echo(f"(skipped: no variant uses the alphabet {lex.alphabet.letters!r} of {lex.name})")
        return
    t = time.perf_counter()
    warmup(lex, parts=("generate", "best"))
    pos = Position.from_cgp(TOUR_CGP, variant, lexicon=lex) if variant.name == "scrabble" else None
    echo(f"kernels and tables ready in {time.perf_counter() - t:.2f} s (compiled or loaded from cache)")
    t = time.perf_counter()
    positions = midgame_positions(lex, 2, variant=variant)
    if not positions:  # a word list too small for a midgame: the opening position
        positions = [Game(variant, lex, seed=0).position.copy()]
    echo(f"self-play ({variant.name}): 2 top-score games to move 14 for the positions below in "
         f"{(time.perf_counter() - t) * 1e3:.1f} ms")
    if pos is None:
        pos = positions[len(positions) // 2]
    t = time.perf_counter()
    plays = pos.legal_plays()
    dt = time.perf_counter() - t
    top = plays.top(5)
    echo(f"position {pos.cgp().split()[0][:40]}... rack {pos.rack or '-'}: {len(plays)} plays in {dt * 1e3:.2f} ms"
         + ("; top 5: " + ", ".join(str(p) for p in top) if top else ""))
    warmup(lex, parts=("equity",))
    report(measure(positions, reference_sample=1, min_time=0.05), echo=lambda s: echo(s.strip()))
    if variant.name == "scrabble" and len(lex) >= 10_000:  # (toy word lists end games before they start)
        _tour_play(pos, lex, echo)


TOUR_ENDGAME_CGP = ("A1T2AVA6C/TARTLY8E/T1O11n/E1O11O/N1ZINC8T/D12PE/E6JUNKIER1/ROOF2QI2E1HOB/2DEIXIS2V2U1/"
                    "1F1M1ISM1PI2D1/AE1U5AL4/NU1R3BLISS3/GAWsY4N5/ER4GREETING1/L8D2OOH AAE/W 0/0 0")
"""A self-played endgame small enough for the plain minimax of the tour's baseline (3 tiles against 1)."""


def _tour_play(pos, lex, echo) -> None:
    """Self-play by equity, a simulation and an exact endgame, each beside the same work driven from Python
    through the public API, once their kernels are compiled (the tour does not wait ~1 min for them)."""
    import numba

    from .._background import cached
    from .._timing import timed as _timed
    from . import _autoplay, _endgame, _sim
    from ._reference_search import python_playouts, reference_endgame
    from .autoplay import play_games
    from .position import Position

    if not all(cached(k) for k in (_autoplay.play_range, _sim.playouts, _endgame.solve)):
        echo("self-play, simulation and exact endgames: their kernels compile on first use (~1 min CPU); "
             "'numba-words warmup' compiles them, and the tour shows them from then on")
        return
    nt = min(2, numba.get_num_threads())
    n = 256
    play_games(8, ("equity", "equity"), lexicon=lex, seed=1, threads=1)  # load the kernels
    r1, t1 = _timed(lambda: play_games(n, ("equity", "equity"), lexicon=lex, seed=1, threads=1))
    rn, tn = _timed(lambda: play_games(n, ("equity", "equity"), lexicon=lex, seed=1, threads=nt))

    def by_equity(p):
        return p.best_move("equity")

    rp, tp = _timed(lambda: play_games(2, (by_equity, by_equity), lexicon=lex, seed=1))
    same = (rp.out == r1.out[:2]).all() and (rn.out == r1.out).all()
    st = r1.stats()
    echo(f"self-play by equity (shipped leave values), {n} games: {n / t1:,.0f} games/s on 1 thread, {n / tn:,.0f} "
         f"on {nt}; mean score {st['mean_score'][0]:.0f}, {st['turns_per_game']:.1f} turns, "
         f"{st['bingos_per_game'][0]:.2f} bingos a side a game")
    echo(f"  the same games driven from Python (Position.best_move each turn): {2 / tp:,.1f} games/s -> kernel "
         f"{tp / 2 * n / t1:,.0f}x faster on 1 thread "
         f"({'the same scores, turns and bingos' if same else 'DIFFERENT GAMES (a bug: please report it)'})")
    pos.simulate(candidates=10, plies=2, iterations=8, seed=0, threads=1)  # load the kernel
    s1, ts1 = _timed(lambda: pos.simulate(candidates=10, plies=2, iterations=100, seed=0, threads=1))
    sn, tsn = _timed(lambda: pos.simulate(candidates=10, plies=2, iterations=100, seed=0, threads=nt))
    same = [(c.play.notation, c.mean) for c in s1.candidates] == [(c.play.notation, c.mean) for c in sn.candidates]
    top = s1.candidates[0]
    static = max(s1.candidates, key=lambda c: c.equity)
    echo(f"simulation of the position above, 10 candidates x 100 iterations, 2 plies: {s1.playouts / ts1:,.0f} "
         f"playouts/s on 1 thread, {sn.playouts / tsn:,.0f} on {nt} "
         f"({'the same estimates' if same else 'DIFFERENT ESTIMATES (a bug: please report it)'}); "
         f"top {top.play.notation} {top.mean:+.1f} +- {top.stderr:.1f} (static best {static.play.notation})")
    plays = [c.play for c in s1.candidates if hasattr(c.play, "placed")][:5]
    if plays:
        _, tpy = _timed(lambda: python_playouts(pos, plays, 2, plies=2, seed=0))
        py_rate = 2 * len(plays) / tpy
        echo(f"  playouts driven from Python (Position.best_move each turn): {py_rate:,.0f} playouts/s -> kernel "
             f"{s1.playouts / ts1 / py_rate:,.0f}x faster on 1 thread")
    eg = Position.from_cgp(TOUR_ENDGAME_CGP, lexicon=lex)
    eg.endgame(tt_mb=1)  # load the kernel
    res, te = _timed(lambda: eg.endgame(tt_mb=1))
    (ref, nodes), tr = _timed(lambda: reference_endgame(eg))
    echo(f"exact endgame {eg.rack} against {eg.opp_rack} (bag empty): {res.value:+d} by "
         f"{' / '.join(res.pv_notation())}, {res.nodes:,} nodes in {te * 1e3:.1f} ms")
    echo(f"  plain minimax over every play (Position.legal_plays): {ref:+d}, {nodes:,} positions in {tr:.2f} s -> "
         f"kernel {tr / te:,.0f}x faster" + ("" if ref == res.value else " (A DIFFERENT VALUE: a bug, please report it)"))
