"""Game analysis (:func:`analyze_game`): every turn of a game against the engine's choice.

Each turn is judged by the tool the position calls for, from the mover's rack as recorded:

- ``static``: tiles beyond a rack's worth unseen: static equity (score + leave value), the best move
  (:meth:`Position.best_move`) against the move made; the loss in points of equity. With ``sim=N`` the top
  candidates and the move made are simulated (``N`` iterations, two plies) instead, loss in points of mean outcome
  (the first move, on the empty board, stays by static equity).
- ``peg``: 1 to 6 tiles in the bag (:func:`.peg.peg`): the loss in win probability (then spread).
- ``endgame``: the bag empty (the opponent's rack is then every unseen tile): the exact endgame's final spread
  of the best move against the move made (:func:`.endgame.solve_endgame`), loss in points.

Phonies (plays the lexicon does not hold) are flagged and put on the board as recorded; a withdrawn phony
(``--``) takes its tiles back. Turns whose rack is not recorded are listed with no judgement.
"""
from __future__ import annotations

import csv
import io
import json
import re
import time as _time
from collections import Counter
from dataclasses import asdict, dataclass, field

from ._board import _thread_pool, lane_count
from .endgame import _after, solve_endgame
from .errors import IllegalPlayError, InvalidGcgError, InvalidRackError, ScrabbleError, short
from .leaves import Exchange, exchange_options
from .plays import Play

_COORD = re.compile(r"^([0-9]+[A-Za-z]+|[A-Za-z]+[0-9]+)$")
_LINE = re.compile(r"^>([^:]+):\s+(\S+)\s+(.*)$")


@dataclass
class Turn:
    """One turn judged: ``turn`` (1-based), ``player`` (0 or 1), ``name``, ``rack`` (as recorded), ``move``
    (notation; ``-ABC`` an exchange, ``-`` a pass), ``score``, ``kind`` (``static``, ``sim``, ``peg``,
    ``endgame``, or ``none`` when not judged), ``best`` (the engine's move), ``value_made``/``value_best``
    (equity or mean outcome or final spread in points; for ``peg`` the win probability), ``loss`` (their
    difference, >= 0 unless the engine's depth limits misjudge), ``bag`` (tiles in the bag), ``phony``, ``note``
    (why a turn was not judged), ``cgp`` (the position before the move, the mover on turn)."""

    turn: int
    player: int
    name: str
    rack: str
    move: str
    score: int
    kind: str = "none"
    best: str = ""
    value_made: float | None = None
    value_best: float | None = None
    loss: float | None = None
    bag: int = 0
    phony: bool = False
    note: str = ""
    cgp: str = ""

    def to_record(self) -> dict:
        return asdict(self)


@dataclass
class GameAnalysis:
    """The turns judged (``turns``), the players' ``names``, ``seconds``; per-player totals by
    :meth:`totals`, the mistakes ranked by :meth:`mistakes`."""

    turns: list
    names: tuple
    seconds: float = 0.0
    _positions: list = field(default_factory=list, repr=False)
    _lexicon: object = field(default=None, repr=False)
    _variant: object = field(default="scrabble", repr=False)

    def totals(self) -> list:
        """Per player: ``{"player", "name", "turns", "equity_lost"`` (points: static, sim and endgame turns),
        ``"win_lost"`` (probability: pre-endgame turns), ``"mistakes"`` (turns with any loss)}."""
        out = []
        for p in (0, 1):
            ts = [t for t in self.turns if t.player == p]
            out.append({"player": p, "name": self.names[p], "turns": len(ts),
                        "equity_lost": round(sum(t.loss for t in ts if t.loss and t.kind != "peg"), 3),
                        "win_lost": round(sum(t.loss for t in ts if t.loss and t.kind == "peg"), 6),
                        "mistakes": sum(1 for t in ts if t.loss and t.loss > 1e-9)})
        return out

    def mistakes(self, n: int | None = None) -> list:
        """The turns with a loss, worst first (win probability lost counts as 100 points a unit, so a 10%
        pre-endgame slip ranks with a 10-point one)."""
        ts = [t for t in self.turns if t.loss is not None and t.loss > 1e-9]
        ts.sort(key=lambda t: -(t.loss * 100 if t.kind == "peg" else t.loss))
        return ts if n is None else ts[:n]

    def position(self, turn: int):
        """The position before turn ``turn`` (1-based), the mover on turn (replay a turn from it)."""
        if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= len(self.turns):
            raise ScrabbleError(f"turn must be 1 to {len(self.turns)}, got {short(turn)}")
        if not self._positions:  # (an analysis from a cluster: positions rebuilt from the turns' CGP)
            from .position import Position

            self._positions = [Position.from_cgp(t.cgp, self._variant, self._lexicon) for t in self.turns]
        return self._positions[turn - 1].copy()

    def to_records(self) -> list:
        """One dict a turn (the fields of a judged turn), in game order."""
        return [t.to_record() for t in self.turns]

    def to_json(self) -> dict:
        """``{"players": [...], "turns": [...], "mistakes": [turn numbers, worst first], "seconds"}``."""
        return {"players": self.totals(), "turns": self.to_records(), "mistakes": [t.turn for t in self.mistakes()],
                "seconds": self.seconds}

    def to_csv(self) -> str:
        """The turns of :meth:`to_records` as CSV text, one header line then one line a turn."""
        buf = io.StringIO()
        rows = self.to_records()
        w = csv.DictWriter(buf, fieldnames=list(rows[0]) if rows else ["turn"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return buf.getvalue()

    def summary(self, n: int = 10) -> str:
        """A text report: one line a turn (rack, move, score, how it was judged, the best play and the loss),
        each player's totals, then the ``n`` worst mistakes."""
        lines = []
        for t in self.turns:
            if t.kind == "none":
                judged = t.note
            elif t.kind == "peg":
                judged = f"best {t.best}, win {100 * t.value_made:.1f}% vs {100 * t.value_best:.1f}%"
            else:
                judged = f"best {t.best}, lost {t.loss:.1f}"
            lines.append(f"{t.turn:>3}. {t.name:<12} {t.rack:<8} {t.move:<22} {t.score:>+4}  [{t.kind}] {judged}"
                         + ("  (phony)" if t.phony else ""))
        lines.append("")
        for r in self.totals():
            lines.append(f"{r['name']}: {r['equity_lost']:.1f} points of equity lost, {100 * r['win_lost']:.1f}% "
                         f"of win probability, {r['mistakes']} mistakes in {r['turns']} turns")
        worst = self.mistakes(n)
        if worst:
            lines.append("worst: " + "; ".join(f"{t.turn}. {t.move} ({t.best})" for t in worst))
        return "\n".join(lines)

    __str__ = summary

    def svg(self, width: int = 640, height: int = 220) -> str:
        """A bar chart of the loss per turn (points; pre-endgame turns: win probability x 100), one colour a
        player."""
        from html import escape

        n = max(len(self.turns), 1)
        vals = [(t.loss or 0.0) * (100 if t.kind == "peg" else 1) for t in self.turns]
        top = max(vals + [1.0])
        pad = 30
        bw = (width - 2 * pad) / n
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
               f'font-family="Helvetica, Arial, sans-serif" font-size="11">',
               f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>',
               f'<text x="{pad}" y="14">loss per turn (points; pre-endgame: win % lost), max {top:.1f}</text>']
        colours = ("#2f7fc1", "#e0464a")
        for i, (t, v) in enumerate(zip(self.turns, vals)):
            h = (height - 2 * pad) * v / top
            out.append(f'<rect x="{pad + i * bw:.1f}" y="{height - pad - h:.1f}" width="{max(bw - 1, 1):.1f}" '
                       f'height="{h:.1f}" fill="{colours[t.player]}"><title>{t.turn}. {escape(t.name)} '
                       f'{escape(t.move)}: {v:.2f} (best {escape(t.best)})</title></rect>')
        out.append(f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#555"/>')
        for p in (0, 1):
            out.append(f'<rect x="{pad + 160 * p}" y="{height - 14}" width="10" height="10" fill="{colours[p]}"/>'
                       f'<text x="{pad + 160 * p + 14}" y="{height - 5}">{escape(str(self.names[p]))}</text>')
        out.append("</svg>")
        return "".join(out)

    def _repr_svg_(self) -> str:
        return self.svg()

    def html(self) -> str:
        """An HTML report: the chart, per-player totals and every turn."""
        from html import escape

        rows = "".join(f"<tr><td>{t.turn}</td><td>{escape(t.name)}</td><td>{escape(t.rack)}</td>"
                       f"<td>{escape(t.move)}</td><td>{t.score}</td><td>{t.kind}</td><td>{escape(t.best)}</td>"
                       f"<td>{'' if t.loss is None else f'{t.loss:.3f}'}</td></tr>" for t in self.turns)
        tot = "".join(f"<li>{escape(str(r['name']))}: {r['equity_lost']:.1f} points, "
                      f"{100 * r['win_lost']:.1f}% win probability lost, {r['mistakes']} mistakes</li>"
                      for r in self.totals())
        return (f"<div>{self.svg()}<ul>{tot}</ul><table><tr><th>turn</th><th>player</th><th>rack</th><th>move</th>"
                f"<th>score</th><th>judged by</th><th>best</th><th>loss</th></tr>{rows}</table></div>")


def _text(source) -> str:
    """The text of a GCG source (text, bytes or a path), decoded as :func:`.gcg.read_gcg` decodes it."""
    from .gcg import _text_of

    return _text_of(source)[0]


def _events(text: str):
    """The ``>`` lines of a GCG text: ``(name, rack, move tokens)`` (notes and pragmas skipped)."""
    for line in text.splitlines():
        m = _LINE.match(line.strip())
        if m:
            yield m.group(1).strip(), m.group(2), m.group(3).split()


def _turns_of_gcg(source, variant, lexicon):
    """``(names, [(player, name, rack, kind, move, score)], first position)`` of a GCG game (read and checked by
    :func:`.gcg.read_gcg` first). ``kind``: ``place``, ``exchange``, ``pass`` or ``withdrawn``."""
    from .gcg import read_gcg
    from .position import Position

    text = _text(source)
    positions = read_gcg(text, variant, lexicon)
    lex = positions[0].lexicon if positions else lexicon
    start = Position(variant, lex)
    names = []
    turns = []
    for name, rack, rest in _events(text):
        if rack.startswith("(") or not rest:
            continue  # end-of-game rack adjustments
        if name not in names:
            names.append(name)
        who = names.index(name)
        head = rest[0]
        score = rest[-2] if len(rest) >= 2 else "+0"
        try:
            score = int(score)
        except ValueError:
            score = 0
        if _COORD.match(head) and len(rest) >= 2:
            turns.append((who, name, rack, "place", f"{head} {rest[1]}", score))
        elif head == "--":
            turns.append((who, name, rack, "withdrawn", "--", score))
        elif head == "-":
            turns.append((who, name, rack, "pass", "-", 0))
        elif head.startswith("-"):
            turns.append((who, name, rack, "exchange", head, 0))
        # (challenge bonuses, time penalties: no turn)
    while len(names) < 2:
        names.append(f"player{len(names) + 1}")
    return tuple(names), turns, start


def _turns_of_game(game):
    from .position import Position

    names = ("player1", "player2")
    turns = []
    for (who, text, score), rack in zip(game.moves, game.racks_before):
        kind = "pass" if text == "-" else "exchange" if text.startswith("-") else "place"
        turns.append((who, names[who], rack, kind, text, score))
    return names, turns, Position(game.variant, game.lexicon)


def _judge(pos, kind, move, opts) -> dict:
    """The verdict of one turn (see the module), ``pos`` the mover's position (opponent's rack unknown)."""
    unseen = pos.unseen()
    n_unseen = sum(unseen.values())
    rs = pos.variant.rack_size
    bag = max(0, n_unseen - rs)
    out = {"bag": bag}
    made = None
    if kind == "place":
        made = pos.parse_play(move)
    if bag == 0:
        if not opts["endgame"] or not n_unseen:
            return out | {"note": "endgame not analysed"}
        eg_pos = pos.copy()
        eg_pos.opp_rack = "".join(unseen.elements())
        kw = {"plies": opts["endgame_plies"], "time": opts["endgame_time"], "tt_mb": opts["tt_mb"]}
        best = solve_endgame(eg_pos, **kw)
        exact = best.exact
        bn = "pass" if best.best is None else best.best.notation
        if kind == "place":
            after = _after(eg_pos, made)
            if not after.opp_rack:  # went out
                v = made.score + 2 * sum(pos.variant.values.get(ch, 0) for ch in after.rack if ch != "?")
            elif made.notation == bn:  # the best move made: its value is the solve's (no second search)
                v = best.value
            else:
                r = solve_endgame(after, **kw)
                v, exact = made.score - r.value, exact and r.exact
        elif bn == "pass":
            v = best.value
        else:  # a pass
            r = solve_endgame(_after(eg_pos, None), passed=True, **kw)
            v, exact = -r.value, exact and r.exact
        note = {} if exact or opts["endgame_plies"] else {"note": f"endgame cut by the time limit at {best.depth} plies"}
        return out | {"kind": "endgame", "best": bn, "value_made": float(v), "value_best": float(best.value),
                      "loss": float(best.value - v)} | note
    if bag <= opts["peg_max"] and opts["peg"]:
        from .peg import peg

        # the move made carried through every stage beside the candidates: ranked in the same run
        include = (made,) if kind == "place" else (None,) if kind == "pass" else ()
        res = peg(pos, candidates=opts["peg_candidates"], stages=opts["peg_stages"], exact=opts["peg_exact"],
                  threads=1, tt_mb=opts["tt_mb"], include=include, time=opts["peg_time"])
        top = res.candidates[0]
        note = {}
        if res.timed_out:
            done = len(res.stage_seconds) - 1
            note = {"note": f"pre-endgame cut by the time limit after stage {done} ({top.plies}-ply)"}
        if not include:
            return out | {"kind": "peg", "best": top.notation, "note": "an exchange with the bag nearly empty"}
        key = "pass" if made is None else made.notation
        mine = next(c for c in res.candidates if c.notation == key)
        return out | {"kind": "peg", "best": top.notation, "value_made": mine.win, "value_best": top.win,
                      "loss": max(0.0, top.win - mine.win)} | note
    # static equity (or simulation)
    best = pos.best_move("equity")
    if kind == "place":
        vm = made.equity
    elif kind == "exchange":
        tiles = move[1:].upper()
        ex = next((e for e in exchange_options(pos) if Counter(e.tiles) == Counter(tiles)), None)
        vm = ex.equity if ex is not None else None
    else:
        vm = 0.0  # a pass keeps the whole rack
    if opts["sim"] and not pos.board.empty:  # (the first move: by static equity, its plays all symmetric)
        made_move = made if kind == "place" else ex if kind == "exchange" else None
        if made_move is not None:
            # (the move made simulated beside the candidates, as MAGPIE's analysis does)
            res = pos.simulate(candidates=opts["sim_candidates"], plies=2, iterations=opts["sim"], threads=1,
                               seed=opts["seed"], include=(made_move,))
            cand = {c.play.notation: c for c in res.candidates}
            mine = cand.get(made_move.notation)
            if mine is not None:
                top = res.candidates[0]
                return out | {"kind": "sim", "best": top.play.notation, "value_made": mine.mean,
                              "value_best": top.mean, "loss": max(0.0, top.mean - mine.mean)}
    if best is None:
        return out | {"kind": "static", "best": "pass", "value_made": vm, "value_best": 0.0,
                      "loss": None if vm is None else max(0.0, 0.0 - vm)}
    bn = best.notation if isinstance(best, (Play, Exchange)) else str(best)
    if vm is None:
        return out | {"kind": "static", "best": bn, "value_best": best.equity, "note": "exchange not on the rack"}
    return out | {"kind": "static", "best": bn, "value_made": vm, "value_best": best.equity,
                  "loss": round(max(0.0, best.equity - vm), 3)}


def analyze_game(game, *, variant="scrabble", lexicon=None, sim: int = 0, sim_candidates: int = 8, peg: bool = True,
                 peg_max: int = 2, peg_candidates: int = 8, peg_stages=((0, 4), (2, 2)), peg_exact: bool = False,
                 endgame: bool = True, endgame_plies: int | None = None, endgame_time: float | None = 30.0,
                 peg_time: float | None = 30.0, tt_mb: float = 8, seed: int = 0,
                 threads: int | None = None, progress=None) -> GameAnalysis:
    """Judge every turn of ``game`` (a :class:`~.game.Game`, GCG text or a path to a GCG file) against the
    engine's choice (see the module). ``sim``: iterations to simulate turns with tiles to spare in the bag (0:
    static equity); ``peg``: pre-endgame turns (1 to ``peg_max`` tiles in the bag, at most 6) by :func:`.peg.peg`
    with ``peg_candidates``, ``peg_stages`` (default: every candidate by greedy playouts, then the best 4 at 2
    plies; at an odd depth the side that moves first in the endgame, the opponent after a play that empties the
    bag, is searched one move more than the mover) and ``peg_exact``, the move made carried through every stage
    beside them, else by static equity (``peg_time``: seconds a pre-endgame turn's stages after the first may run
    to, the stage then running abandoned and the turn noted as cut, default 30; None: no limit); ``endgame``: turns
    with the bag empty by the endgame solver (``endgame_plies``: its depth limit; None: to the end; ``endgame_time``:
    seconds a solve may take, its deepening stopped before a depth that would not finish in time, the turn then
    noted as cut, default 30; None: no limit, the same verdicts on any machine). ``threads``: lanes
    of threads over turns. Raises :class:`InvalidGcgError` for an unreadable game."""
    from .game import Game

    t0 = _time.perf_counter()
    for what, x, lo in (("sim", sim, 0), ("sim_candidates", sim_candidates, 1), ("peg_max", peg_max, 1),
                        ("peg_candidates", peg_candidates, 1), ("seed", seed, 0)):
        if isinstance(x, bool) or not isinstance(x, int) or x < lo:
            raise ScrabbleError(f"analyze_game: {what} must be a whole number >= {lo}, got {short(x)}")
    if peg_max > 6:
        raise ScrabbleError(f"analyze_game: peg_max must be at most 6, got {peg_max}")
    if endgame_plies is not None and (isinstance(endgame_plies, bool) or not isinstance(endgame_plies, int)
                                      or endgame_plies < 1):
        raise ScrabbleError(f"analyze_game: endgame_plies must be None or a whole number >= 1, got "
                            f"{short(endgame_plies)}")
    for what, x in (("endgame_time", endgame_time), ("peg_time", peg_time)):
        if x is not None and (isinstance(x, bool) or not isinstance(x, (int, float)) or not x > 0):
            raise ScrabbleError(f"analyze_game: {what} must be None or a positive number of seconds, got {short(x)}")
    from .peg import _check_stages

    opts = {"sim": sim, "sim_candidates": sim_candidates, "peg": bool(peg), "peg_max": peg_max,
            "peg_candidates": peg_candidates, "peg_stages": _check_stages(peg_stages), "peg_exact": bool(peg_exact),
            "endgame": bool(endgame), "endgame_plies": endgame_plies, "endgame_time": endgame_time, "tt_mb": tt_mb,
            "seed": seed, "peg_time": peg_time}
    lanes = lane_count(threads)
    if isinstance(game, Game):
        names, events, pos = _turns_of_game(game)
    elif isinstance(game, (str, bytes)) or hasattr(game, "__fspath__"):
        if isinstance(game, bytes):
            raise InvalidGcgError("analyze_game: GCG must be text or a path, got bytes")
        names, events, pos = _turns_of_gcg(game, variant, lexicon)
    else:
        raise ScrabbleError(f"analyze_game: expected a Game, GCG text or a path, got {short(game)}")
    # replay: the position before each turn, the mover on turn (racks as recorded, the opponent's unknown)
    turns, before, jobs = [], [], []
    scores = [0, 0]
    last_place = {}
    for k, (who, name, rack, kind, move, score) in enumerate(events, 1):
        p = pos.copy()
        p.scores = (scores[who], scores[1 - who])
        p.opp_rack = ""
        t = Turn(k, who, name, rack, move, score)
        try:
            p.rack = rack if rack not in ("-", "") else ""
        except InvalidRackError as e:
            t.note = f"rack not analysed: {e}"
            p.rack = ""
        t.cgp = p.cgp()
        before.append(p)
        turns.append(t)
        if kind == "withdrawn":
            t.note = "phony withdrawn"
            if who in last_place:
                pos.board = last_place.pop(who)
            scores[who] += score
            continue
        if kind == "place":
            try:
                placed = pos._placement(move)
            except ScrabbleError as e:
                raise InvalidGcgError(f"analyze_game: turn {k} {short(move)}: {e}") from None
            t.phony = False
            if p.rack:
                try:
                    p.parse_play(move)
                    jobs.append(k - 1)
                except IllegalPlayError:
                    t.phony = True
                    t.note = "phony (not a legal play here)"
            last_place[who] = pos.board.copy()
            board = pos.board.copy()
            board.place([q[0] for q in placed], [q[1] for q in placed], [pos.alphabet.index(q[2]) for q in placed],
                        [q[3] for q in placed])
            pos.board = board
            scores[who] += score
        else:
            if p.rack:
                jobs.append(k - 1)
        if not p.rack and not t.note:
            t.note = "rack not recorded"

    def run(i):
        t = turns[i]
        v = _judge(before[i], events[i][3], t.move, opts)
        for key, val in v.items():
            setattr(t, key, val)
        if progress is not None:
            progress.update(1)

    n_lanes = min(lanes, len(jobs))
    if n_lanes > 1:
        def lane(part):
            for i in part:
                run(i)

        futs = [_thread_pool().submit(lane, jobs[j::n_lanes]) for j in range(n_lanes)]
        for f in futs:
            f.result()
    else:
        for i in jobs:
            run(i)
    return GameAnalysis(turns, names, _time.perf_counter() - t0, before, pos.lexicon, pos.variant)


def _game_sources(games) -> list:
    """``[(name, GCG text)]`` of ``games``: a folder (its ``*.gcg`` files, sorted), a path or GCG text, or a list of
    those. Read here, so that workers need no shared file system."""
    import os
    from pathlib import Path

    from .gcg import _text_of

    if isinstance(games, (str, os.PathLike)) and Path(games).is_dir():
        games = sorted(Path(games).glob("*.gcg"))
        if not games:
            raise InvalidGcgError(f"analyze_games: no .gcg file in the folder {short(str(games))}")
    elif isinstance(games, (str, bytes, os.PathLike)):
        games = [games]
    try:
        games = list(games)
    except TypeError:
        raise ScrabbleError(f"analyze_games: expected a folder, GCG paths or texts, got {short(games)}") from None
    if not games:
        raise ScrabbleError("analyze_games: no game given")
    out = []
    for g in games:
        if isinstance(g, bytes) or not isinstance(g, (str, os.PathLike)):
            raise ScrabbleError(f"analyze_games: a game must be a path or GCG text, got {short(g)}")
        text, name = _text_of(g)
        out.append((name, text))
    return out


def _analyze_chunk(chunk, *shared) -> list:
    """Worker side of :func:`analyze_games`: each game's analysis without its positions (rebuilt on demand); the
    lexicon comes in ``shared`` when it was scattered to the workers, else in the chunk."""
    out = []
    for name, text, variant, lexicon, opts in chunk:
        lexicon = shared[0] if shared else lexicon
        try:
            a = analyze_game(text, variant=variant, lexicon=lexicon, threads=1, **opts)
        except InvalidGcgError as e:
            out.append(f"{name}: {e}")
            continue
        out.append(GameAnalysis(a.turns, a.names, a.seconds))
    return out


def analyze_games(games, *, client=None, variant="scrabble", lexicon=None, threads: int | None = None,
                  skip_invalid: bool = False, **options) -> list:
    """:func:`analyze_game` over many games: ``games`` a folder (its ``*.gcg`` files, in name order), a path, GCG
    text, or a list of paths and texts. ``client``: a ``dask.distributed.Client`` (or a scheduler address) to
    spread the games over a cluster, one task a game (the files are read here; workers rebuild a turn's position
    from its CGP when :meth:`GameAnalysis.position` asks); ``None``: here, one game after another, each over
    ``threads`` lanes of turns. ``options``: :func:`analyze_game`'s keywords (``sim``, ``peg``, ``endgame``, ...).
    Returns one :class:`GameAnalysis` a game, in order; with ``skip_invalid`` a game that cannot be read is
    ``None`` instead of an error. Raises :class:`InvalidGcgError` naming the file of an unreadable game."""
    if not isinstance(skip_invalid, bool):
        raise ScrabbleError(f"analyze_games: skip_invalid must be True or False, got {short(skip_invalid)}")
    bad = set(options) - {"sim", "sim_candidates", "peg", "peg_max", "peg_candidates", "peg_stages", "peg_exact",
                          "endgame", "endgame_plies", "endgame_time", "peg_time", "tt_mb", "seed"}
    if bad:
        raise ScrabbleError(f"analyze_games: unknown option(s) {sorted(bad)}")
    sources = _game_sources(games)
    if client is None:
        out = []
        for name, text in sources:
            try:
                out.append(analyze_game(text, variant=variant, lexicon=lexicon, threads=threads, **options))
            except InvalidGcgError as e:
                if not skip_invalid:
                    raise InvalidGcgError(f"{name}: {e}") from None
                out.append(None)
        return out
    from .. import distributed as D

    scatter = lexicon is not None and not isinstance(lexicon, str)  # (a word list: sent to each worker once)
    chunks = [[(name, text, variant, None if scatter else lexicon, options)] for name, text in sources]
    parts = D.map_chunks(_analyze_chunk, chunks, client, broadcast=(lexicon,) if scatter else (),
                         name="scrabble-analyze")
    out = []
    for (name, text), part in zip(sources, parts):
        a = part[0]
        if isinstance(a, str):
            if not skip_invalid:
                raise InvalidGcgError(a)
            out.append(None)
            continue
        a._lexicon, a._variant = lexicon, variant
        out.append(a)
    return out


def to_json_text(analysis: GameAnalysis) -> str:
    return json.dumps(analysis.to_json(), ensure_ascii=False)
