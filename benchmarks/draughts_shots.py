"""Draughts shots: positions from our matches against Moby Dam where our move let it find a combination, and how
many nodes each search setting needs to stop playing that move.

    python benchmarks/draughts_shots.py run   [--nodes 400000] [--variant NAME:JSON ...] [--file F]
    python benchmarks/draughts_shots.py find  [--nodes 1450000] [--variant NAME:JSON ...] [--mobydam PATH --ms 100]
    python benchmarks/draughts_shots.py build MATCH_DIR [MATCH_DIR ...] [--out F]

``run`` reads the set (``benchmarks/data/draughts_shots.txt``: FEN, the move our engine played, one position a
line) and searches each position on one thread with a node limit, one kernel call a depth from a cleared
table, as the engine does: the count is deterministic (no clock), so settings compare exactly on a busy
machine. For each variant (``NAME:JSON``: engine settings such as ``{"_lmr2": 6}`` and ``"weights"``, a
dict of weights changed from the package's) it prints how many positions it avoids the losing move on at
``--nodes``, the geometric mean of the nodes after which it avoids it for good (twice ``--nodes`` when it
never does), and, against the first variant, on how many positions it needs fewer and more nodes.

``find`` asks the other question, from Moby Dam's side: in the position after the losing move (those without
kings), after how many nodes does our search score the shot (at least 0.7 man for the side to move, and not
below 0.5 after)? With ``--mobydam`` it also counts the shots Moby Dam's own search finds at ``--ms`` a move
from a cleared table (its log's score at least 0.7 man). The set is selected by Moby Dam's finding them in the
game, so it favours Moby Dam; compare variants of ours with each other, or Moby Dam with a set built the other
way round.

``build`` makes the set from match folders of ``benchmarks/draughts_match.py`` (``games.pdn`` and Moby Dam's
log ``mobydam/engine.log``): after one of our moves, Moby Dam's next search scored at least 0.9 man more
than its previous one, from a level score (within 0.3 man); the first such move of a game is kept.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
from _mobydam import MD_MAN, MobyDam, find_binary

from numba_words.draughts import Engine, Position, read_pdn
from numba_words.draughts import _engine as K
from numba_words.draughts.engine import _history, _kernel_moves, load_weights, weights_array

DATA = Path(__file__).parent / "data" / "draughts_shots.txt"


def engine_for(settings: dict, hash_mb: int = 64) -> Engine:
    """An engine with the given settings (attributes; ``weights``: changed weights in men)."""
    s = dict(settings)
    changed = s.pop("weights", None)
    eng = Engine(hash_mb=hash_mb)
    for k, v in s.items():
        if not hasattr(eng, k):
            raise SystemExit(f"no engine setting {k!r}")
        setattr(eng, k, int(v))
    if changed:
        w = load_weights()
        w.update(changed)
        eng.weights = weights_array(w)
    return eng


def by_depth(eng: Engine, pos: Position, nodes: int):
    """``(depth, nodes so far, info)`` after each kernel call, one a depth from a cleared table, as the engine
    searches, until the node limit stops one; one thread, this thread's exact node count."""
    own, opp = (pos.white, pos.black) if pos.turn else (pos.black, pos.white)
    lane = eng._lanes[0]
    ctl = np.zeros(2, np.int64)
    pv = np.zeros(3 * (K.MAX_PLY + 1), np.uint64)
    info = np.zeros(K.N_INFO, np.int64)
    keys, rev, mat = _history(pos)
    eng._gen = (eng._gen + 1) & 255
    params = eng._params(nodes, rev, mat, len(keys))
    for d in range(1, K.MAX_PLY - 8):
        params[K.P_DEPTH] = d
        K.search_kernel(np.uint64(own), np.uint64(opp), np.uint64(pos.kings), pos.turn, params, ctl, eng._tt,
                        lane["ws"], lane["killers"], lane["history"], eng.table, eng.patterns, keys, pv, info)
        yield d, int(ctl[1]), info
        if info[K.I_DONE] != 1:
            break


def best_by_depth(eng: Engine, pos: Position, nodes: int) -> list[tuple[int, int]]:
    """``(nodes so far, best root move index)`` after each depth (and of a depth stopped after a root move was
    searched to it), until the node limit."""
    return [(n, int(info[K.I_BEST])) for d, n, info in by_depth(eng, pos, nodes)
            if info[K.I_DONE] == 1 or (d > 1 and info[K.I_BEST] >= 0 and info[K.I_PVLEN] > 0)]


def read_set(path: Path) -> list[tuple[Position, object]]:
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, move = line.split("\t")[:2]
        pos = Position(fen)
        out.append((pos, pos.parse_move(move)))
    return out


def avoid_nodes(eng: Engine, items, nodes: int) -> list[int]:
    """For each position, the nodes after which the search's move is no longer the losing one for good
    (``2 * nodes``: it still plays it at the limit)."""
    res = []
    for pos, bad in items:
        legal = list(pos.legal_moves)
        bi = _kernel_moves(pos, legal).index(bad)
        eng.new_game()
        first = None
        for n, best in best_by_depth(eng, pos, nodes):
            if best != bi:
                first = n if first is None else first
            else:
                first = None
        res.append(first if first is not None else 2 * nodes)
    return res


def score_by_depth(eng: Engine, pos: Position, nodes: int) -> list[tuple[int, int]]:
    """``(nodes so far, score in milli-men for the side to move)`` after each depth finished within ``nodes``."""
    return [(n, int(info[K.I_SCORE])) for _, n, info in by_depth(eng, pos, nodes) if info[K.I_DONE] == 1]


def shot_positions(items) -> list[Position]:
    """The positions after the losing moves, without kings, with a choice of move."""
    out = []
    for pos, bad in items:
        after = pos.copy()
        after.push(bad)
        if not after.kings and after.legal_moves.count() >= 2:
            out.append(after)
    return out


def find_nodes(eng: Engine, positions, nodes: int) -> list[int]:
    """For each position, the nodes after which the search scores at least 0.7 man for the side to move and
    not below 0.5 after (``2 * nodes``: not by the limit)."""
    res = []
    for pos in positions:
        eng.new_game()
        at = None
        for n, score in score_by_depth(eng, pos, nodes):
            if at is None and score >= 700:
                at = n
            elif at is not None and score < 500:
                at = None
        res.append(at if at is not None else 2 * nodes)
    return res


def compare(args, verb: str, count) -> None:
    """Print, for the defaults and each ``--variant``, ``count(engine)``'s positions done within ``--nodes``,
    the geometric mean of the nodes, and against the defaults on how many it needs fewer and more."""
    first = None
    for name, settings in [("defaults", {})] + [parse_variant(v) for v in args.variant]:
        eng = engine_for(settings)
        eng.search(Position.initial(), depth=1)
        res = count(eng)
        geo = math.exp(sum(math.log(x) for x in res) / len(res))
        line = f"{name:20s} {verb} {sum(x < 2 * args.nodes for x in res):3d}/{len(res)}   geo. mean nodes {geo:9.0f}"
        if first is None:
            first = res
        else:
            line += (f"   fewer nodes than defaults on {sum(a < b for a, b in zip(res, first))}, "
                     f"more on {sum(a > b for a, b in zip(res, first))}")
        print(line, flush=True)


def find(args) -> int:
    positions = shot_positions(read_set(Path(args.file)))
    print(f"{len(positions)} positions after the losing move, {args.nodes} nodes a position, one thread, deterministic")
    compare(args, "finds ", lambda eng: find_nodes(eng, positions, args.nodes))
    if args.mobydam:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp) / "mobydam"
            with MobyDam(find_binary(Path(args.mobydam)), work, args.ms, book=False) as md:
                for pos in positions:
                    md.best_move(pos)
            log = (work / "engine.log").read_text(encoding="latin-1")
        scores = [int(x) for x in re.findall(r"evals=\d+ score=(-?\d+)", log)]
        nodes = sorted(int(x) for x in re.findall(r"nodes total=(\d+)", log))
        print(f"{'Moby Dam ' + str(args.ms) + ' ms':20s} finds  {sum(x >= 7 * MD_MAN // 10 for x in scores):3d}/"
              f"{len(scores)}   median nodes {nodes[len(nodes) // 2] if nodes else 0:9d}")
    return 0


def parse_variant(text: str) -> tuple[str, dict]:
    name, _, js = text.partition(":")
    return name, json.loads(js) if js else {}


def run(args) -> int:
    items = [(p, m) for p, m in read_set(Path(args.file)) if p.legal_moves.count() >= 2]
    print(f"{len(items)} positions, {args.nodes} nodes a position, one thread, deterministic")
    compare(args, "avoids", lambda eng: avoid_nodes(eng, items, args.nodes))
    return 0


def build(args) -> int:
    out = []
    for d in args.dirs:
        d = Path(d)
        games = read_pdn((d / "games.pdn").read_text())
        log = (d / "mobydam" / "engine.log").read_text(encoding="latin-1")
        parts = re.split(r"starting game number \d+", log)[1:]
        if len(parts) != len(games):  # the log must hold exactly the folder's games, in order
            print(f"{d}: {len(games)} games but {len(parts)} in Moby Dam's log: skipped", file=sys.stderr)
            continue
        for g, part in zip(games, parts):
            positions = list(g.positions())
            ours_white = g.headers.get("White") == "numba_words"
            ply, last_ours, prev, score = -1, None, None, None
            for line in part.splitlines():
                if line.startswith("move="):
                    ply += 1
                    if ("..." not in line) == ours_white:
                        last_ours = ply
                        continue
                    if (score is not None and prev is not None and last_ours is not None and abs(prev) < 3 * MD_MAN // 10
                            and score - prev >= 9 * MD_MAN // 10 and last_ours < len(positions) - 1):
                        out.append((positions[last_ours].fen(), str(g.moves[last_ours])))
                        break
                    if score is not None:
                        prev = score
                    score = None
                elif line.startswith("evals="):
                    score = int(line.split("score=")[1])
    rows = list(dict.fromkeys(out))
    header = ("# Positions of our matches against Moby Dam where our move (second column) let Moby Dam's next search\n"
              "# score >= 0.9 man more than its previous one, from a level score (benchmarks/draughts_shots.py build).\n")
    Path(args.out).write_text(header + "".join(f"{f}\t{m}\n" for f, m in rows))
    print(f"{len(rows)} positions to {args.out}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--file", default=str(DATA))
    r.add_argument("--nodes", type=int, default=400_000, help="node limit a position (default 400000)")
    r.add_argument("--variant", action="append", default=[], metavar="NAME:JSON",
                   help='settings to compare with the defaults, e.g. lmr:{"_lmr2": 6, "_lmr2_depth": 4}')
    f = sub.add_parser("find")
    f.add_argument("--file", default=str(DATA))
    f.add_argument("--nodes", type=int, default=1_450_000, help="node limit a position (default 1450000)")
    f.add_argument("--variant", action="append", default=[], metavar="NAME:JSON")
    f.add_argument("--mobydam", default=None, metavar="PATH", help="Moby Dam's binary: count its finds too")
    f.add_argument("--ms", type=int, default=100, help="Moby Dam's time a position, ms (default 100)")
    b = sub.add_parser("build")
    b.add_argument("dirs", nargs="+", help="match folders (games.pdn, mobydam/engine.log)")
    b.add_argument("--out", default=str(DATA))
    args = ap.parse_args(argv)
    return {"run": run, "find": find, "build": build}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
