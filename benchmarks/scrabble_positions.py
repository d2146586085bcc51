"""Make the representative Scrabble benchmark set ``data/scrabble/twl06_bench.cgp`` and its ``positions.jsonl``.

Reproducible: top-score self-play games with seeds ``0..GAMES-1`` (``numba_words.scrabble.Game``, TWL06), then
seeded choices (``random.Random(SEED)``). The set, in file order:

- ``midgame``: boards after moves 4..20 of those games. Racks hold no blank, one or two blanks in the
  proportions ``MID`` (so at least a third of midgame racks hold a blank and some hold two). A position keeps the
  mover's real rack when it is of the class wanted; otherwise (two-blank racks are rare in real racks) the
  mover's rack is drawn again, seeded, from the bag and the mover's tiles (opponent's rack kept), with exactly
  that many blanks.
- ``empty``: the empty board with racks drawn from the full bag, ``EMPTY`` per class.
- ``endgame``: near-endgame positions from the same games (bag holding 0..7 tiles), the mover's real rack.

Every position is one CGP line with the opponent's rack (so the bag is known: exchanges only with >= 7 tiles in
the bag, as MAGPIE and the rules say). Beside it ``positions.jsonl``: per position its kind, rack class (blanks on
the rack), and the engine's counts (placements, exchanges, sum of placement scores, top score) that
``magpie_bench.sh`` checks MAGPIE against.

    PYTHONPATH=. python benchmarks/scrabble_positions.py [--out data/scrabble]
"""
from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

GAMES = 60
SEED = 2026
MID = {0: 24, 1: 16, 2: 8}  # midgame positions per rack class (blanks on the rack)
EMPTY = {0: 2, 1: 2, 2: 2}
ENDGAME = 8
PLIES = range(4, 21)
NAME = "twl06_bench.cgp"


def _self_play(lex, n_games):
    """(game seed, ply, position snapshot, bag list) of every turn of ``n_games`` top-score games."""
    from numba_words.scrabble import Game

    out = []
    for seed in range(n_games):
        g = Game("scrabble", lex, seed=seed)
        ply = 0
        while not g.over and ply < 60:
            out.append((seed, ply, g.position.copy(), list(g.bag)))
            g.play_best()
            ply += 1
    return out


def _redraw(pos, bag, blanks, rng):
    """A rack for the mover with exactly ``blanks`` blanks, drawn from the bag plus the mover's own tiles."""
    pool = list(bag) + list(pos.rack)
    if pool.count("?") < blanks:
        return None
    others = [t for t in pool if t != "?"]
    n = min(pos.variant.rack_size, len(pool)) - blanks
    if len(others) < n:
        return None
    return "".join(rng.sample(others, n)) + "?" * blanks


def build(lex):
    from numba_words.scrabble import Position
    from numba_words.scrabble.position import sort_rack

    rng = random.Random(SEED)
    turns = _self_play(lex, GAMES)
    chosen = []  # (kind, position)
    mid = [t for t in turns if t[1] in PLIES and len(t[3]) >= 7]
    rng.shuffle(mid)
    need = dict(MID)
    used = set()
    # real racks first, then redrawn racks for the classes still short
    for seed, ply, pos, bag in mid:
        k = pos.rack.count("?")
        if need.get(k, 0) > 0 and seed not in used and len(pos.rack) == 7:
            chosen.append(("midgame", pos))
            used.add(seed)
            need[k] -= 1
    for k in (2, 1, 0):
        for seed, ply, pos, bag in mid:
            if need[k] == 0:
                break
            if seed in used:
                continue
            rack = _redraw(pos, bag, k, rng)
            if rack is None:
                continue
            q = pos.copy()
            q.rack = sort_rack(rack)
            chosen.append(("midgame", q))
            used.add(seed)
            need[k] -= 1
    if any(need.values()):
        raise SystemExit(f"not enough self-play positions for {need}; raise GAMES")
    empty = Position("scrabble", lex)
    full = empty.variant.bag_list()
    for k, n in EMPTY.items():
        for _ in range(n):
            others = [t for t in full if t != "?"]
            q = empty.copy()
            q.rack = sort_rack("".join(rng.sample(others, 7 - k)) + "?" * k)
            chosen.append(("empty", q))
    end = [t for t in turns if 0 <= len(t[3]) <= 7 and t[2].rack and not t[2].board.empty]
    rng.shuffle(end)
    seeds = set()
    for seed, ply, pos, bag in end:
        if len([1 for kind, _ in chosen if kind == "endgame"]) == ENDGAME:
            break
        if seed in seeds:
            continue
        seeds.add(seed)
        chosen.append(("endgame", pos))
    return chosen


def describe(kind, pos, i):
    plays = pos.legal_plays()
    sc = plays.scores()
    b = plays.best()
    return {"id": i, "kind": kind, "blanks": pos.rack.count("?"), "rack": pos.rack, "bag": pos.bag_size(),
            "n_placements": len(plays), "n_exchanges": len(pos.exchanges()), "sum_scores": int(sc.sum()),
            "max_score": int(sc.max()) if len(sc) else None, "best": str(b) if b else None}


def main(argv=None):
    from numba_words.lexicon import Lexicon

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "data" / "scrabble"))
    a = ap.parse_args(argv)
    lex = Lexicon.load("TWL06")
    chosen = build(lex)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    lines, recs = [], []
    for i, (kind, pos) in enumerate(chosen):
        lines.append(pos.cgp() + " lex TWL06;")
        recs.append(describe(kind, pos, i))
    (out / NAME).write_text("\n".join(lines) + "\n")
    with open(out / "positions.jsonl", "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    c = Counter((r["kind"], r["blanks"]) for r in recs)
    print(f"{len(recs)} positions -> {out / NAME}: " + ", ".join(f"{k} {b}?: {n}" for (k, b), n in sorted(c.items())))
    print(f"placements {sum(r['n_placements'] for r in recs):,}")


if __name__ == "__main__":
    main()
