"""Rack inference, the pre-endgame solver and game analysis beside MAGPIE's ``infer``, ``peg`` and ``analyze``
on the same positions, in the same run, as one table::

    python benchmarks/scrabble_analyst_magpie.py --magpie PEERS_DIR [--positions 4] [--bag 1 2 3]
    python benchmarks/scrabble_analyst_magpie.py infer|peg|analyze --magpie PEERS_DIR   # one part, per position

``--magpie``: the peers' build folder (``MAGPIE/bin/magpie`` and ``MAGPIE/data`` inside) or MAGPIE's own folder.
Both engines use MAGPIE's TWL06 word list and its leave table (``data/lexica/TWL06.klv2``: ours reads it).

``infer``: placements of self-played games (equity players, TWL06) with 40-70 tiles in the bag (``--infer-bag``),
the board before the play with the player who made it on turn, margin 0; both enumerate every rack. (With a few
tiles in the bag, ``--infer-bag 1 12``, MAGPIE counts racks whose best play by its own ``gen`` beats the play
made: its inference search, cut off at the play's equity, misses those plays there; ours counts as the plain
ranking of every play does.) Per position: seconds each (ours
after a warm-up call; MAGPIE's as the wall time of its process less that of the same process without ``infer``),
whether the totals of draws agree, and the largest difference in probability over every leave either lists.
``peg``: distinct positions with 1, 2 and 3 tiles in the bag (``--bag``) from the same games, the opponent's rack
unknown, in two modes. ``cascade``: both engines' default cascades (ours: its default stages, which cut the
candidates that can no longer survive a stage; MAGPIE: its cascade with the flat rollout of ours where a play leaves
tiles in the bag, ``-pegnested false``, every scenario, ``-pegstride 1``, within its time budget, ``--peg-budget``,
default 60 s, its own, which it may use up and then report a partial stage: a ratio near 60 s over ours then says
little). ``exact`` (``--exact``): both solving the same candidates to the end, our ``--exact-candidates`` best plays
by equity that empty the bag, where both are exact (every scenario an endgame solved to the end): ours
``peg(moves=..., stages=(), exact=True)`` (it proves the best and stops the others once they cannot catch it),
MAGPIE ``-pegonly ... -pegtopk all`` within ``--exact-budget`` (default 3600 s). Per position and mode: wall and CPU
seconds each, both best plays with win percent, mean spread and stage, whether they agree. ``--no-blank``: only
positions whose unseen tiles hold no blank (with a blank in the unknown rack, exact endgames can take hours);
``--exact-min-tiles N``: only candidates placing at least N tiles (the mover keeps fewer: shorter endgames). MAGPIE
prints its last completed stage: its best counts as agreeing only when its full-depth stage did every candidate
(else marked "not exact"). The like-for-like exact comparison at 2 and 3 tiles::

    python benchmarks/scrabble_analyst_magpie.py peg --magpie PEERS_DIR --positions 1 --bag 2 3 --exact --modes exact \\
        --exact-candidates 2 --exact-min-tiles 5 --no-blank --exact-budget 3600

(positions with fewer than ``--exact-candidates`` such plays are passed over).
``analyze``: one self-played game as GCG (written in MAGPIE's dialect for it) through MAGPIE's ``analyze`` and our
``analyze_game``, both simulating turns with tiles to spare (``--iterations``, 8 candidates, 2 plies; the
simulations' stopping rules and the pre-endgame settings differ, so this ratio is rough) and solving the end. The table: per part MAGPIE's seconds over ours
summed over the positions (above 1: ours faster; the pre-endgame rows one a mode and bag size, in CPU seconds, MAGPIE's
its process's, start included) and the agreement. Figures from a busy machine are noisy: compare ratios from one
run.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scrabble_search_magpie import _magpie  # noqa: E402

SET = "set -savesettings false -lex TWL06 -threads {threads}"
COMMAND = "python benchmarks/scrabble_analyst_magpie.py --magpie PEERS_DIR"


def magpie_dir(path: str) -> Path:
    """MAGPIE's folder (``bin/magpie``, ``data``) from the peers' build folder or MAGPIE's own."""
    root = Path(path)
    for d in (root, root / "MAGPIE"):
        if (d / "bin" / "magpie").exists() and (d / "data" / "lexica" / "TWL06.klv2").exists():
            return d
    sys.exit(f"no MAGPIE build (bin/magpie, data/lexica/TWL06.klv2) in {root} or {root / 'MAGPIE'}")


def _wall(root, script, want):
    t = time.perf_counter()
    out = _magpie(root, script, want)
    return time.perf_counter() - t, out


def _less_start(root, head, script, want):
    """``(seconds, output)`` of ``script`` after ``head``: the process's wall time less that of ``head`` alone."""
    base, _ = _wall(root, head + "show\n", "")
    wall, out = _wall(root, head + script, want)
    return max(wall - base, 0.0), out


def magpie_infer(root: Path, cgp: str, tiles: str, score: int, margin: float, threads: int) -> tuple:
    """``(seconds, total draws, {leave: draws})`` of MAGPIE's ``infer`` for the player on turn (player 1), every
    leave listed."""
    head = f"{SET.format(threads=threads)} -imargin {margin} -numplays 1000000 -maxnumdplays 1000000\ncgp {cgp}\n"
    sec, out = _less_start(root, head, f"infer 1 {tiles} {score}\n", "Total target racks")
    total = int(re.findall(r"Total target racks:\s+(\d+)", out)[-1])
    rows = re.findall(r"^\d+\s+([A-Z?]*)\s+([0-9.]+)\s+(\d+)\s+-?[0-9.]+\s*$", out.split("Pct  ")[-1], re.M)
    return sec, total, {leave: int(to) for leave, _, to in rows}


PEG_ROW = re.compile(r"^\s*(?:\d+-ply\s+|greedy\s+)?1\s+(pass|\S+ \S+)\s+\d+\s+\d+\s+\d+\s+([0-9.]+)\s+([+-]?[0-9.]+)",
                     re.M)
PEG_STAGE = re.compile(r"^(\d+)\s+(greedy|\d+-ply eg)\s+(\d+)/(\d+)", re.M)


def magpie_peg(root: Path, cgp: str, threads: int, budget: float, only=None) -> dict:
    """MAGPIE's ``peg`` on ``cgp``: ``seconds`` (wall, less the process's start), ``cpu`` (the process's CPU
    seconds), ``best`` (as printed), ``win`` (percent), ``spread``, ``stage`` (its last stage: fidelity and
    candidates done of the field). Its flat rollout for the scenarios the candidate leaves tiles in the bag
    (``-pegnested false``, ours: best moves by equity) and every scenario (``-pegstride 1``); ``budget`` seconds
    (``-pegtlim``); ``only``: those candidates (UCGI), each solved to the end (``-pegtopk all``)."""
    import resource

    opts = f" -pegtlim {budget:g} -pegnested false -pegstride 1"
    if only:
        opts += " -pegtopk all -pegonly " + ",".join(only)
    head = f"{SET.format(threads=threads)}{opts}\ncgp {cgp}\n"
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    sec, out = _less_start(root, head, "peg\n", "win%")
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    tail = out[out.rfind("rank"):]
    row = PEG_ROW.search(tail)
    stages = PEG_STAGE.findall(out)
    st = f"{stages[-1][1]} {stages[-1][2]}/{stages[-1][3]}" if stages else "?"
    return {"seconds": sec, "cpu": cpu, "best": row.group(1) if row else "?",
            "win": float(row.group(2)) if row else float("nan"), "spread": float(row.group(3)) if row else float("nan"),
            "stage": st}


def _ucgi(notation: str) -> str:
    """Our notation as MAGPIE's space-free UCGI (``1I OVONI(C)S`` -> ``1I.OVONICS``; ``pass``)."""
    return "pass" if notation == "pass" else re.sub(r"[()]", "", notation).replace(" ", ".")


def positions(games, seed, want):
    from test_scrabble_infer import game_turns

    return [(p, mv) for p, mv in game_turns(games, seed) if want(p, mv)]


def _magpie_cgp(pos, rack, opp):
    rows, _, rest = pos.cgp().partition(" ")
    parts = rest.split(" ")
    return f"{rows} {rack}/{opp} {parts[1]} {parts[2]}"


def _norm(notation: str) -> str:
    """A play's notation without the marks of tiles played through (``(A)`` or ``.``), upper case."""
    return re.sub(r"[().]", "", notation).upper()


def _klv2(root: Path) -> str:
    return str(root / "data" / "lexica" / "TWL06.klv2")


def run_infer(a, root, show) -> dict:
    from numba_words.scrabble.infer import infer

    lo, hi = a.infer_bag
    picks = positions(4, a.seed, lambda p, mv: lo <= p.bag_size() <= hi and not mv.startswith("-"))[:a.positions]
    if show:
        print(f"{'position':<10} {'ours s':>8} {'MAGPIE s':>9} {'ratio':>6} {'totals':>13} {'leaves':>9} {'max |dp|':>9}")
    ours_t = theirs_t = 0.0
    worst, same = 0.0, 0
    for i, (p, mv) in enumerate(picks):
        before = p.copy()
        before.rack = ""
        before.opp_rack = ""
        before.leaves = _klv2(root)
        infer(before, mv, margin=a.margin, threads=a.threads)  # compile / load
        t = time.perf_counter()
        res = infer(before, mv, margin=a.margin, threads=a.threads)
        ours = time.perf_counter() - t
        play = p.parse_play(mv)
        tiles = "".join("?" if q[3] else q[2] for q in play.placed)
        theirs, total, draws = magpie_infer(root, _magpie_cgp(before, "", ""), tiles, play.score, a.margin,
                                            a.threads)
        mine = dict(res.leaves)
        dp = max((abs(mine.get(k, 0) / (res.total or 1) - draws.get(k, 0) / (total or 1))
                  for k in set(mine) | set(draws)), default=0.0)
        worst = max(worst, dp)
        same += total == res.total and mine == draws
        ours_t += ours
        theirs_t += theirs
        if show:
            print(f"{i:<10} {ours:8.3f} {theirs:9.3f} {theirs / ours if ours else 0:6.2f} {res.total:>6}/{total:<6} "
                  f"{len(mine):>4}/{len(draws):<4} {dp:9.2e}")
    return {"part": "infer", "n": len(picks), "ours": ours_t, "magpie": theirs_t,
            "agree": f"{same}/{len(picks)} same distribution, max |dp| {worst:.2e}"}


def _ours_peg(q, **kw) -> dict:
    from numba_words.scrabble.peg import peg

    t, c = time.perf_counter(), time.process_time()
    res = peg(q, **kw)
    top = res.candidates[0]
    return {"seconds": time.perf_counter() - t, "cpu": time.process_time() - c, "best": top.notation,
            "win": 100 * top.win, "spread": top.spread, "stage": "exact" if top.exact else f"{top.plies}-ply",
            "endgames": res.endgames, "cut": res.cut, "stages": "/".join(f"{t:.1f}" for t in res.stage_seconds)}


def exact_moves(a, q, bag) -> list:
    """The candidates both engines solve to the end: our ``a.exact_candidates`` best plays by equity that empty the
    bag and place at least ``a.exact_min_tiles`` tiles."""
    return [m.notation for m in q.legal_plays().top(10 ** 6, "equity")
            if len(m.placed) >= max(bag, a.exact_min_tiles)][:a.exact_candidates]


def peg_positions(a, bag) -> list:
    """The first ``a.positions`` distinct positions with ``bag`` tiles in the bag, the opponent's rack unknown (with
    ``a.no_blank``: only those whose unseen tiles hold no blank; where the exact mode runs at ``bag``: only those
    with ``a.exact_candidates`` plays to solve, as :func:`exact_moves`)."""
    seen, out = set(), []
    exact = getattr(a, "exact", False) and "exact" in a.modes and bag in (a.exact_bag or a.bag)
    for p, _ in positions(12, a.seed, lambda p, mv, b=bag: p.bag_size() == b):
        q = p.copy()
        q.opp_rack = ""
        if getattr(a, "no_blank", False) and "?" in q.unseen():
            continue
        if len(out) < a.positions and exact and len(exact_moves(a, q, bag)) < a.exact_candidates:
            continue
        if q.cgp() not in seen and len(out) < a.positions:
            seen.add(q.cgp())
            out.append(q)
    return out


def run_peg(a, root, show) -> list:
    """Per bag size and position: both engines' default cascades (ours: its stages; MAGPIE: its cascade within
    ``--peg-budget``), and with ``--exact`` both solving the same candidates to the end (our best
    ``--exact-candidates`` plays by equity that empty the bag, for which both are exact: ours with ``exact=True``
    and no stages, MAGPIE with ``-pegonly`` and ``-pegtopk all``)."""
    from numba_words.scrabble.peg import peg

    if show:
        print(f"{'bag':<4} {'mode':<8} {'ours s':>8} {'cpu':>7} {'MAGPIE s':>9} {'cpu':>7} {'ratio':>6}  "  # CPU ratio
              "ours best (win%, spread, stage) / MAGPIE best (win%, spread, stage)")
    tot = {}  # (mode, bag): [ours CPU s, MAGPIE CPU s, positions, same best, MAGPIE's exact stage unfinished]
    warm = True
    for bag in a.bag:
        for q in peg_positions(a, bag):
            q.leaves = _klv2(root)
            if warm:
                peg(q, candidates=1, stages=((1, 1),), threads=a.threads)  # compile / load
                warm = False
            runs = [("cascade", {}, None)] if "cascade" in a.modes else []
            if a.exact and "exact" in a.modes and bag in (a.exact_bag or a.bag):
                pick = exact_moves(a, q, bag)
                runs.append(("exact", {"moves": pick, "stages": (), "exact": True}, [_ucgi(n) for n in pick]))
            for mode, kw, only in runs:
                mine = _ours_peg(q, threads=a.threads, **kw)
                theirs = magpie_peg(root, _magpie_cgp(q, q.rack, ""), a.threads,
                                    a.exact_budget if only else a.peg_budget, only)
                same = _norm(theirs["best"]) == _norm(mine["best"])
                # MAGPIE prints its last completed stage: exact only once its full-depth stage did every candidate
                done = re.fullmatch(r"\d+-ply eg (\d+)/(\d+)", theirs["stage"])
                unfinished = bool(only) and not (done and done.group(1) == done.group(2))
                if unfinished:
                    same = False
                    theirs["stage"] += ", not exact"
                t = tot.setdefault((mode, bag), [0.0, 0.0, 0, 0, 0])
                t[0] += mine["cpu"]
                t[1] += theirs["cpu"]
                t[2] += 1
                t[3] += same
                t[4] += unfinished
                line = (f"{bag:<4} {mode:<8} {mine['seconds']:8.2f} {mine['cpu']:7.2f} {theirs['seconds']:9.2f} "
                        f"{theirs['cpu']:7.2f} {theirs['cpu'] / mine['cpu'] if mine['cpu'] else 0:6.2f}  "
                        f"{mine['best']} ({mine['win']:.1f}%, {mine['spread']:+.2f}, {mine['stage']}, "
                        f"{mine['endgames']} endgames, {mine['cut']} cut, stages {mine['stages']} s) / {theirs['best']} ({theirs['win']:.1f}%, "
                        f"{theirs['spread']:+.1f}, {theirs['stage']})  {'agree' if same else 'DIFFER'}")
                print(line if show else f"(peg {line})", flush=True)
    return [{"part": f"peg {mode} (bag {bag})", "n": n, "ours": o, "magpie": m,
             "agree": f"{k}/{n} same best play (CPU s)" + (f"; MAGPIE's exact stage unfinished on {u} within "
                                                          f"--exact-budget (its time a lower bound)" if u else "")}
            for (mode, bag), (o, m, n, k, u) in tot.items()]


def magpie_gcg(text: str) -> str:
    """Our GCG in the dialect MAGPIE reads: tiles played through as ``.``, and the end of the game as the player
    who went out scoring twice the other rack (ours: plus the rack for one, minus it for the other)."""
    out = []
    for ln in text.splitlines():
        m = re.match(r"^(>[^:]+:\s+)\((\S+)\)\s+([+-]\d+)\s+(-?\d+)$", ln)
        if m:
            if m.group(3).startswith("+"):
                pts = int(m.group(3))
                out.append(f"{m.group(1)}({m.group(2)}) +{2 * pts} {int(m.group(4)) + pts}")
            continue
        out.append(re.sub(r"\(([^)]*)\)", lambda k: "." * len(k.group(1)), ln) if ln.startswith(">") else ln)
    return "\n".join(out) + "\n"


def run_analyze(a, root, show) -> dict:
    from numba_words.scrabble import play_game
    from numba_words.scrabble.analyze import analyze_game

    game = play_game(seed=a.seed)
    opts = {"lexicon": "twl06", "threads": a.threads, "sim": a.iterations, "sim_candidates": 8}
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "game.gcg"
        f.write_text(game.gcg(("one", "two")))
        analyze_game(str(f), **opts | {"sim": 1})  # compile / load
        t = time.perf_counter()
        res = analyze_game(str(f), **opts)
        ours = time.perf_counter() - t
        g = Path(d) / "magpie.gcg"
        g.write_text(magpie_gcg(f.read_text()))
        head = (f"{SET.format(threads=a.threads)} -iterations {a.iterations} -minplayiterations {a.iterations} "
                "-numplays 8 -plies 2\n")
        theirs, out = _less_start(root, head, f"analyze {g}\n", "Finished")
        report = g.with_name("magpie_report.txt")
        rows = magpie_turns(report.read_text()) if report.exists() else []
        if a.keep:
            Path(a.keep).mkdir(parents=True, exist_ok=True)
            for src in (f, g, report):
                if src.exists():
                    (Path(a.keep) / src.name).write_bytes(src.read_bytes())
            (Path(a.keep) / "ours.json").write_text(json.dumps(res.to_json(), indent=1))
    verdict = verdicts(res.turns, rows)
    if show:
        print(f"analyze: {len(res.turns)} turns, ours {ours:.2f} s, MAGPIE {theirs:.2f} s; {verdict}")
    return {"part": "analyze (1 game)", "n": 1, "ours": ours, "magpie": theirs,
            "agree": f"{len(res.turns)} turns, {verdict}; sim {a.iterations} iterations, 8 candidates, 2 plies both"}


MAGPIE_TURN = re.compile(r"^(\d+),([^,\n]*),([^,\n]*),([^,\n]*),([^,\n]*),(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)", re.M)
"""A turn's row of MAGPIE's analysis report as CSV (``-hr false``): turn, player, rack, the play made, its best
(``-``: the play made), equity lost, win percent lost, adjusted equity lost."""
SUMMARY_COLUMNS = ("T", "PT", "P", "Rack", "Actual", "Best", "WPL", "EqL", "AEqL")


def magpie_turns(report: str) -> list:
    """The turns of MAGPIE's analysis report, in turn order, each as the CSV row's fields (:data:`MAGPIE_TURN`):
    from its CSV rows, else from its human-readable combined summary table (cut at the header's column starts)."""
    rows = MAGPIE_TURN.findall(report)
    if rows:
        return rows
    out = {}
    lines = report.splitlines()
    for i, head in enumerate(lines):
        cols = {m.group(): m.start() for m in re.finditer(r"\S+", head)}
        if not head.startswith("T ") or any(c not in cols for c in SUMMARY_COLUMNS):
            continue
        starts = [cols[c] for c in SUMMARY_COLUMNS] + [cols.get("Note", None)]
        for ln in lines[i + 1:]:
            if not re.match(r"^\d+\s", ln):
                break
            cell = [ln[a:b].strip() for a, b in zip(starts, starts[1:])]
            out[int(cell[0])] = (cell[0], cell[2], cell[3], cell[4], cell[5], cell[7], cell[6], cell[8])
    return [out[k] for k in sorted(out)]


def _move_key(notation: str) -> str:
    """A move as both analyses can compare it: a placement by :func:`_norm`; an exchange (ours ``-ABC``,
    MAGPIE's ``(exch ABC)``) as ``exch`` and its sorted tiles; a pass (``-``, ``(Pass)``) as ``pass``."""
    n = notation.strip()
    m = re.fullmatch(r"\(exch ([A-Z?]+)\)|-([A-Z?]+)", n)
    if m:
        return "exch " + "".join(sorted(m.group(1) or m.group(2)))
    if n in ("-", "(Pass)", "pass", "PASS"):
        return "pass"
    return _norm(n)


def verdicts(turns, rows) -> str:
    """How often the two analyses agree, turn by turn (matched by turn number; MAGPIE's report has a row a move):
    whether the move made was the best, and where both name another best, whether it is the same move; the turns
    with the bag empty counted apart (MAGPIE's analysis searches them to its default 6 plies, ours to the end); a
    turn whose move the two write differently (or that one of them did not judge) is left out and counted. Then
    whether both call the move made best (or both not), and the mean difference of the equity lost on static and
    simulated turns (points; both simulations are noisy at few iterations)."""
    if not rows:
        return "no MAGPIE report to compare verdicts"
    theirs = {int(r[0]): r for r in rows}
    same = named = both = end_same = end_n = n = skipped = fault = 0
    dloss = []
    for i, t in enumerate(turns, 1):
        r = theirs.get(i)
        if r is None or not t.best or _move_key(t.move) != _move_key(r[3]):
            skipped += 1
            continue
        n += 1
        ok_mine = _move_key(t.best) == _move_key(t.move)
        ok_theirs = r[4] == "-"
        agree = ok_mine == ok_theirs
        fault += agree
        if t.kind in ("static", "sim") and t.loss is not None:
            dloss.append(abs(t.loss - float(r[5])))
        if not ok_mine and not ok_theirs:
            both += 1
            named += _move_key(t.best) == _move_key(r[4])
            agree = _move_key(t.best) == _move_key(r[4])
        same += agree
        if t.kind == "endgame":
            end_n += 1
            end_same += agree
    mean = sum(dloss) / len(dloss) if dloss else float("nan")
    return (f"verdicts agree on {same}/{n} turns ({named}/{both} same best where both fault the move; "
            f"endgames {end_same}/{end_n}; {skipped} not compared); move made best or not: {fault}/{n} agree; "
            f"equity lost, static and simulated turns: mean |ours - MAGPIE's| {mean:.2f} points over {len(dloss)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="?", choices=("all", "infer", "peg", "analyze"), default="all")
    ap.add_argument("--magpie", required=True, help="the peers' build folder (MAGPIE/ inside) or MAGPIE's folder")
    ap.add_argument("--positions", type=int, default=4, help="positions per part (peg: per bag size)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--margin", type=float, default=0.0, help="infer: equity margin (points)")
    ap.add_argument("--infer-bag", type=int, nargs=2, default=[40, 70], metavar=("LO", "HI"),
                    help="infer: positions with LO to HI tiles in the bag (default 40 70)")
    ap.add_argument("--bag", type=int, nargs="+", default=[1, 2, 3], help="peg: tiles in the bag")
    ap.add_argument("--peg-budget", type=float, default=60, metavar="S",
                    help="peg: MAGPIE's time budget a run, seconds (default 60, its own; --exact needs it large)")
    ap.add_argument("--exact", action="store_true",
                    help="peg: also both engines solving the same candidates to the end")
    ap.add_argument("--exact-bag", type=int, nargs="+", default=None, metavar="N",
                    help="peg --exact: only with these tiles in the bag (default: every --bag)")
    ap.add_argument("--modes", nargs="+", choices=("cascade", "exact"), default=["cascade", "exact"],
                    help="peg: which modes to run (default both; exact needs --exact)")
    ap.add_argument("--exact-min-tiles", type=int, default=0, metavar="N",
                    help="peg --exact: only plays placing at least N tiles (fewer tiles left on the mover's rack: "
                         "shorter endgames)")
    ap.add_argument("--exact-budget", type=float, default=3600, metavar="S",
                    help="peg --exact: MAGPIE's time budget a run, seconds (default 3600)")
    ap.add_argument("--exact-candidates", type=int, default=3, metavar="K",
                    help="peg --exact: our K best plays by equity that empty the bag (default 3; at least 2: "
                         "MAGPIE runs no full-depth stage for one)")
    ap.add_argument("--no-blank", action="store_true",
                    help="peg: only positions whose unseen tiles hold no blank (exact endgames with a blank in an "
                         "unknown rack can take either engine hours)")
    ap.add_argument("--iterations", type=int, default=64,
                    help="analyze: simulation iterations a candidate (both; MAGPIE's -minplayiterations too)")
    ap.add_argument("--keep", default=None, metavar="DIR",
                    help="analyze: keep the GCG files, MAGPIE's report and our analysis (ours.json) in DIR")
    a = ap.parse_args()
    root = magpie_dir(a.magpie)
    parts = {"infer": run_infer, "peg": run_peg, "analyze": run_analyze}
    todo = list(parts) if a.what == "all" else [a.what]
    rows = []
    for w in todo:
        r = parts[w](a, root, a.what != "all")
        rows += r if isinstance(r, list) else [r]
    print(f"{'part':<18} {'n':>3} {'ours s':>8} {'MAGPIE s':>9} {'ratio':>6}  agreement")
    for r in rows:
        ratio = r["magpie"] / r["ours"] if r["ours"] else float("nan")
        print(f"{r['part']:<18} {r['n']:>3} {r['ours']:8.2f} {r['magpie']:9.2f} {ratio:6.2f}  {r['agree']}")
    print(f"(ratio: MAGPIE's seconds over ours, above 1 ours faster; {a.threads} thread(s); command: {COMMAND}"
          f"{' ' + a.what if a.what != 'all' else ''} --positions {a.positions} --bag {' '.join(map(str, a.bag))}"
          f"{' --exact' if a.exact else ''}"
          f"{' --exact-bag ' + ' '.join(map(str, a.exact_bag)) if a.exact and a.exact_bag else ''}"
          f"{' --modes ' + ' '.join(a.modes) if a.modes != ['cascade', 'exact'] else ''}"
          f"{' --exact-candidates ' + str(a.exact_candidates) if a.exact else ''}{' --no-blank' if a.no_blank else ''}"
          f"{' --exact-min-tiles ' + str(a.exact_min_tiles) if a.exact and a.exact_min_tiles else ''}"
          f"{' --exact-budget ' + format(a.exact_budget, 'g') if a.exact else ''})")


if __name__ == "__main__":
    main()
