"""Pre-endgame solver (:func:`peg`): 1 to 6 tiles in the bag, the opponent's rack unknown.

A scenario is the order in which the unseen tiles' bag part will be drawn (the opponent holds the rest): every
ordered draw of ``b`` tiles from the unseen ones, weighted by its number of ways (equally likely tiles). A
candidate move is played in every scenario: a play of at least ``b`` tiles empties the bag, and the endgame that
follows (both racks then known) is solved as :func:`.endgame.solve_endgame` does (:func:`endgame_value`); after
a play of fewer tiles (or a pass) the sides play on by their best move by static equity (the opponent as
MAGPIE's "rational" model: its highest-equity reply), drawing in the scenario's order, until a play empties the
bag, and that endgame is solved. The candidate's win probability (a tie counts a half) and mean final spread are
over every scenario. Scenarios that cannot differ are merged (their weights summed): after a play that empties the
bag only the multiset drawn matters, after one that does not only that of its own draw and the order of the rest;
and a candidate's endgames met again from another draw order are searched once.

Candidates are the ``candidates`` best moves by static equity and the pass. As MAGPIE's cascade does, stages
re-rank them at growing endgame depth and keep the best: ``stages=((plies, keep), ...)``. A stage at 0 plies is
MAGPIE's first stage, hundreds of times cheaper than one at 1 ply: each scenario's endgame valued by one greedy
playout (both sides play their top-scoring play to the end), no search. The survivors of the
last stage are then solved exactly (endgames to the end) when ``exact`` is set. Candidates rank by win
probability, then mean spread. Within a stage the candidates go best first by the last stage, and once ``keep`` of
them are scored, a candidate stops as soon as it could not reach the ``keep``-th best win count even by winning
every scenario left (``prune``; the exact stage keeps one): it keeps its last stage's figures, and the survivors,
their figures and the best play are those of scoring every candidate in full. In the exact stage a candidate after
the first is first searched only for whether each scenario is won, tied or lost (windows of one point around the
spread that ties: far cheaper than the value), and its spreads are searched only if it is not cut; the exact
stage's endgames share a transposition table a lane (every value in it is exact, or a bound on the exact value,
whichever endgame stored it). The six-scoreless-turns rule is not applied.
"""
from __future__ import annotations

import threading
import time as _time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ._board import lane_count, on_lanes
from ._endgame import INF
from .endgame import MAX_PLIES, _after, _is_position, _search, _Table
from .errors import ScrabbleError, short
from .plays import Play

MAX_BAG = 6
EXACT_TT_MB = 64
"""Megabytes of the exact stage's table a lane (at least; ``tt_mb`` if larger), shared by its endgames."""
STAGES = ((0, 8), (1, 4), (2, 2))
"""The default stages: every candidate valued by one greedy playout a scenario, then the best 8 at 1 ply, the best 4
at 2 plies, keeping 2."""


@dataclass
class PegCandidate:
    """One candidate: ``move`` (a :class:`Play`, ``None`` for a pass), ``win`` (probability, ties a half),
    ``spread`` (mean final spread, points, the mover's side), ``plies`` (endgame depth of its last stage; ``None``:
    solved to the end), ``stage`` (the last stage it reached), ``outcomes`` (``[draw order, weight, final
    spread, exact]`` per scenario of that stage)."""

    move: Play | None
    win: float = 0.0
    spread: float = 0.0
    plies: int | None = 0
    stage: int = 0
    outcomes: list = field(default_factory=list, repr=False)

    @property
    def notation(self) -> str:
        return "pass" if self.move is None else self.move.notation

    @property
    def exact(self) -> bool:
        return self.plies is None

    def to_record(self) -> dict:
        m = self.move
        return {"notation": self.notation, "score": 0 if m is None else m.score, "leave": "" if m is None else
                m.leave, "win": self.win, "spread": self.spread, "exact": self.exact, "stage": self.stage}


@dataclass
class PegResult:
    """Candidates best first (``candidates``), ``best`` (the top one's move), ``bag`` (tiles in the bag),
    ``scenarios`` (ordered draws), ``endgames`` solved, ``seconds``, ``cut`` (stage evaluations stopped early: the
    candidate could no longer reach the stage's survivors), ``stage_seconds`` (wall seconds of each stage),
    ``timed_out`` (the time budget ended a stage early: the figures are the stage before's)."""

    candidates: list
    bag: int
    scenarios: int
    endgames: int
    seconds: float
    cut: int = 0
    stage_seconds: list = field(default_factory=list)
    timed_out: bool = False

    @property
    def best(self):
        """The move of the top candidate (highest win probability)."""
        return self.candidates[0].move

    def to_records(self) -> list:
        """One dict a candidate (``notation``, ``score``, ``leave``, ``win`` probability, mean ``spread``, ``exact``,
        ``stage``), best first."""
        return [c.to_record() for c in self.candidates]

    def summary(self) -> str:
        """A text report: draw orders and endgames solved, then one line a candidate with its win
        probability in percent, mean spread in points and whether it was solved exactly."""
        lines = [f"pre-endgame, {self.bag} in the bag: {self.scenarios} draw orders, {self.endgames} endgames, "
                 f"{self.cut} evaluations cut; stages " + ", ".join(f"{t:.2f}" for t in self.stage_seconds) + " s"
                 + (" (the last abandoned: out of time)" if self.timed_out else "")]
        for c in self.candidates:
            tag = "cut before any figures" if not c.stage else "exact" if c.exact else f"{c.plies}-ply"
            lines.append(f"  {c.notation:<24} win {100 * c.win:6.2f}%  spread {c.spread:+8.2f}  ({tag})")
        return "\n".join(lines)

    __str__ = summary


def draw_orders(unseen: Counter, b: int) -> list:
    """Every ordered draw of ``b`` tiles from ``unseen`` (tile -> count): ``(tiles, ways)``, ``ways`` the number of
    ordered draws of physical tiles it stands for (their sum: ``n (n - 1) ... (n - b + 1)``)."""
    out = []
    left = Counter(unseen)
    seq = []

    def rec(ways):
        if len(seq) == b:
            out.append(("".join(seq), ways))
            return
        for ch in sorted(left):
            n = left[ch]
            if n:
                left[ch] -= 1
                seq.append(ch)
                rec(ways * n)
                seq.pop()
                left[ch] += 1

    rec(1)
    return out


def _sorted(tiles) -> str:
    return "".join(sorted(tiles, key=lambda ch: (ch == "?", ch)))


def _whole(x, what, lo, hi=None):
    if isinstance(x, bool) or not isinstance(x, int) or x < lo or (hi is not None and x > hi):
        raise ScrabbleError(f"peg: {what} must be a whole number >= {lo}" + (f" and <= {hi}" if hi else "")
                            + f", got {short(x)}")
    return x


def _check_stages(stages) -> tuple:
    try:
        st = tuple((p, k) for p, k in stages)
    except (TypeError, ValueError):
        raise ScrabbleError(f"peg: stages must be pairs (plies, keep), got {short(stages)}") from None
    for p, k in st:
        _whole(p, "a stage's plies", 0, 29)
        _whole(k, "a stage's keep", 1)
    return st


def play_out(pos, move, order, plies, tt_mb=8) -> int:
    """The final spread change for the side to move in ``pos`` (both racks set, the bag the tiles ``order`` in
    draw order) after ``move`` (a :class:`Play` or ``None``: a pass), then best moves by static equity until the
    bag is empty, then the endgame solved to ``plies`` (``None``: to the end)."""
    return _play_out(pos, move, order, plies, tt_mb)[0]


def _play_out(pos, move, order, plies, tt_mb, table=None, target=None, stop=None, memo=None):
    """:func:`play_out` and whether its value is exact (the game ended, or no line of the endgame search reached
    ``plies``: a deeper search returns the same). ``table``: the endgame's transposition table (``None``: a new
    one of ``tt_mb``); ``target``: only whether the value is above, at or below ``target`` is wanted (the endgame
    searched in a window around it: the value returned is then a bound on the same side of ``target``); ``stop``: a
    flag that abandons the search (:func:`.endgame._search`); ``memo``: a dict of endgames already searched from
    the same position (keyed by the moves of the play-out and both racks: different draw orders often meet there),
    their values kept."""
    bag = order
    sign = 1
    total = 0
    line = []
    while True:
        line.append(None if move is None else move.notation)
        nxt = _after(pos, move)  # the other side on turn; the mover's rack is the leave
        if move is not None:
            total += sign * move.score
            take = min(len(move.placed), len(bag))
            nxt = type(pos)._make(pos.variant, pos.lexicon, nxt.board, nxt.rack, _sorted(nxt.opp_rack + bag[:take]),
                                  nxt.scores, 0)
            bag = bag[take:]
            if not nxt.opp_rack:  # went out (cannot happen with tiles in the bag)
                return total + sign * 2 * _points(pos, nxt.rack), True
        sign = -sign
        pos = nxt
        if not bag:
            if not pos.rack:
                return total, True
            # (the bag empties only by a play: the endgame starts after one, not after a pass)
            # the final value total + sign * v against target: v against t, in a window of one point each side
            t = None if target is None else sign * (target - total)
            key = (tuple(line), pos.rack, pos.opp_rack, t)
            got = None if memo is None else memo.get(key)
            if got is None:
                got = _endgame_search(pos, plies, tt_mb, table, t, stop)
                if memo is not None and not (stop is not None and stop[0]):
                    memo[key] = got
            v, horizon = got
            return total + sign * v, not horizon
        move = pos.best_move("equity")
        if move is not None and not isinstance(move, Play):
            move = None  # (an exchange needs a rack's worth in the bag: never here)


def endgame_value(pos, plies, tt_mb=8) -> int:
    """The endgame value of ``pos`` (the opponent's last move a play) for the side to move: one search at ``plies``
    (``None``: to the end, exact, the value :func:`.endgame.solve_endgame` returns) without the shallower searches of
    iterative deepening, which cost more here than the move ordering they lend (2-3.5x the time on full racks).
    Depth-limited, it is the ``plies``-ply tree's value with greedy playouts at its leaves, as the deepening's,
    except where the table carries a deeper value between transpositions at different plies (the same tiles played
    in one move or in two): rare, and either is an estimate."""
    return _endgame_search(pos, plies, tt_mb)[0]


def _endgame_search(pos, plies, tt_mb, table=None, t=None, stop=None):
    """:func:`endgame_value` and whether a line reached ``plies``; ``table`` as :func:`_play_out`; ``t``: the
    search in the window ``(t - 1, t + 1)`` (the value if it is ``t``, else a bound beyond ``t`` on its side)."""
    if table is None:  # at 0 plies the root is a leaf (one greedy playout, no table entry worth a megabyte)
        table = _Table(tt_mb if plies != 0 else 0.01)
    lo, hi = (-INF, INF) if t is None else (t - 1, t + 1)
    r = _search(pos, MAX_PLIES if plies is None else min(plies, MAX_PLIES), table, False, lo, hi, stop=stop)
    return int(r[0]), bool(r[2])


def _move(position, m):
    """A candidate given by the caller, as a play of ``position`` (``None``: a pass)."""
    if m is None or (isinstance(m, str) and m.strip().lower() in ("pass", "-")):
        return None
    if isinstance(m, Play):
        m = m.notation
    if not isinstance(m, str):
        raise ScrabbleError(f"peg: a move must be a Play, notation or None (a pass), got {short(m)}")
    return position.parse_play(m)


def _points(pos, rack) -> int:
    return sum(pos.variant.values.get(ch, 0) for ch in rack if ch != "?")


def _half_wins(outcomes) -> int:
    """Twice the weight of the scenarios won plus that of the ties (a whole number)."""
    return sum(o[1] * (2 if o[2] > 0 else 1 if o[2] == 0 else 0) for o in outcomes)


def _with_opp(position, unseen, drawn):
    """``position`` with the opponent holding the unseen tiles less those ``drawn`` from the bag."""
    opp = _sorted((unseen - Counter(drawn)).elements())
    return type(position)._make(position.variant, position.lexicon, position.board, position.rack, opp,
                                position.scores, position.scoreless)


class _Stopped(Exception):
    """The time budget ran out during a stage (its searches abandoned)."""


def _score(position, unseen, spread0, c, orders, b, plies, tt_mb, lanes, bar, total2, stats, tables=None,
           probe=False, stop=None, hint=None):
    """Candidate ``c`` played out in every scenario at ``plies`` (``[key, weight, final spread, exact]`` a
    scenario), or ``None`` once its half-wins (:func:`_half_wins`) cannot reach ``bar`` even if it wins every
    scenario left. The values the last stage found exact stand and count first, then the scenarios it lost go
    first (the bound falls soonest); lanes of threads share them. ``tables``: a ``threading.local`` whose ``table``
    is each lane's transposition table, shared by its endgames (sound for exact searches only: every value the
    table holds is then exact or a bound on the exact value); ``None``: a new table an endgame. ``probe``: only
    whether each scenario is won, tied or lost (endgames searched in a window around the spread that ties), to
    decide the cut; ``True`` (not the outcomes) when the candidate is not cut. ``stop``: a flag (int64 array of one)
    that abandons the searches once set: raises :class:`_Stopped`; ``hint``: outcomes (as returned) to order the
    scenarios by when the candidate has none from a stage before."""
    groups = {}
    t = len(c.move.placed) if c.move is not None else 0
    for order, ways in orders:
        # the bag emptied by the move: only the multiset drawn matters; else only that of the move's draw, then the
        # order of the rest
        key = _sorted(order) if t >= b else _sorted(order[:t]) + order[t:]
        groups[key] = groups.get(key, 0) + ways
    last = {o[0]: o for o in c.outcomes}
    # [key, weight, final spread, exact]: the last stage's exact values stand (a deeper search returns them)
    out = [list(last[k]) if k in last and last[k][3] else [k, w, None, False] for k, w in groups.items()]
    # the likely losses first (by the last stage, else by ``hint``: the cut falls soonest)
    guess = last or {o[0]: o for o in hint or ()}
    out.sort(key=lambda o: (o[2] is None, guess[o[0]][2] > 0 if o[0] in guess else False))
    lock = threading.Lock()
    state = {"won": 0, "left": total2, "cut": False}
    memo = {}  # endgames met again by another draw order (the lanes share it)

    def work(i):
        o = out[i]
        if state["cut"] or (stop is not None and stop[0]):
            return
        s = o[2]
        exact = o[3]
        if s is None:
            p = _with_opp(position, unseen, o[0])
            table = None
            if tables is not None:
                table = getattr(tables, "table", None)
                if table is None:
                    table = tables.table = _Table(max(tt_mb, EXACT_TT_MB))
            v, exact = _play_out(p, c.move, o[0], plies, tt_mb, table, -spread0 if probe else None, stop, memo)
            s = spread0 + v
        with lock:
            if stop is not None and stop[0]:
                return
            stats["endgames"] += o[2] is None
            if not probe:
                o[2], o[3] = s, exact
            state["won"] += o[1] * (2 if s > 0 else 1 if s == 0 else 0)
            state["left"] -= 2 * o[1]
            if bar is not None and state["won"] + state["left"] < bar:
                state["cut"] = True

    on_lanes(len(out), work, lanes)
    if stop is not None and stop[0]:
        raise _Stopped
    return None if state["cut"] else True if probe else out


def peg(position, *, candidates: int = 32, stages=STAGES, exact: bool = False,
        threads: int | None = None, tt_mb: float = 8, moves=None, prune: bool = True, include=(),
        time: float | None = None) -> PegResult:
    """Rank the moves of ``position`` (1 to 6 tiles in the bag, :attr:`~Position.opp_rack` unknown) by win
    probability then mean final spread over every draw order of the bag (see the module). ``candidates``: moves
    by static equity, plus the pass; ``stages``: ``(plies, keep)`` pairs, each re-ranking the survivors with
    endgames to ``plies`` (0: valued by one greedy playout, both sides playing their top-scoring play to the end)
    and keeping ``keep``; ``exact``: the last survivors then solved to the end (every
    endgame of every scenario, the best first: minutes with full racks). ``threads``: lanes of threads over a
    candidate's scenarios; ``tt_mb``: each endgame's transposition table (the exact stage: one a lane, shared, of
    at least :data:`EXACT_TT_MB`); ``moves``: the candidates themselves
    instead (plays of ``position`` or notation, ``None`` or ``"pass"`` for a pass); ``prune``: stop a candidate once
    it cannot survive its stage (see the module; ``False`` scores every candidate in full); ``include``: moves
    added to the candidates (a list as ``moves``, a pass as ``None`` or ``"pass"`` in it) and carried through every
    stage, scored in full (never cut nor dropped: a game's move made, ranked in the same run); ``time``: seconds the stages after the first may run to (wall
    time from the call): a stage still running then is abandoned, every candidate keeps its figures from the stage
    before, and :attr:`PegResult.timed_out` is set (the first stage always runs in full)."""
    if not _is_position(position):
        raise ScrabbleError(f"peg: expected a Position, got {short(position)}")
    candidates = _whole(candidates, "candidates", 1)
    st = _check_stages(stages)
    if not isinstance(prune, bool):
        raise ScrabbleError(f"peg: prune must be True or False, got {short(prune)}")
    lanes = lane_count(threads)
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float)) or not 0.01 <= tt_mb <= 4096:
        raise ScrabbleError(f"peg: tt_mb must be a number of megabytes from 0.01 to 4096, got {short(tt_mb)}")
    if position.opp_rack:
        raise ScrabbleError("peg: the opponent's rack must be unknown (Position.opp_rack empty); with it known and "
                            "the bag empty, use Position.endgame()")
    if not position.rack:
        raise ScrabbleError("peg: the rack on turn is empty")
    unseen = position.unseen()
    rs = position.variant.rack_size
    b = sum(unseen.values()) - rs
    if not 1 <= b <= MAX_BAG:
        raise ScrabbleError(f"peg: the bag must hold 1 to {MAX_BAG} tiles (the unseen tiles less a rack); it holds "
                            f"{max(b, 0)} ({sum(unseen.values())} unseen)")
    if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0):
        raise ScrabbleError(f"peg: time must be None or a positive number of seconds, got {short(time)}")
    if include is None:
        include = ()
    elif isinstance(include, (str, Play)):
        include = (include,)
    try:
        include = tuple(include)
    except TypeError:
        raise ScrabbleError(f"peg: include must be moves (plays, notation, None or 'pass'), got {short(include)}") \
            from None
    t0 = _time.perf_counter()
    orders = draw_orders(unseen, b)
    if moves is None:
        cands = [PegCandidate(p) for p in position.legal_plays().top(candidates, "equity")] + [PegCandidate(None)]
    else:
        cands = [PegCandidate(_move(position, m)) for m in moves]
        if not cands:
            raise ScrabbleError("peg: moves is empty")
    forced = set()
    for m in include:
        m = _move(position, m)
        key = "pass" if m is None else m.notation
        c = next((c for c in cands if c.notation == key), None)
        if c is None:
            c = PegCandidate(m)
            cands.append(c)
        forced.add(id(c))
    scores = position.scores
    spread0 = scores[0] - scores[1]
    total = sum(w for _, w in orders)
    schedule = [p for p, _ in st] + ([None] if exact else [])
    # the exact stage keeps one: the others go on only while they can still beat it
    keeps = [k for _, k in st] + [1]
    stats = {"endgames": 0, "cut": 0}
    live = cands
    times = []
    # the exact stage's endgames share a table a lane (every value in it exact or a bound on the exact value)
    tables = threading.local()
    stop = np.zeros(1, np.int64)
    timer = None
    timed_out = False
    for stage, (plies, keep) in enumerate(zip(schedule, keeps), 1):
        t1 = _time.perf_counter()
        if time is not None and stage == 2:  # (the first stage runs in full: every candidate gets figures)
            if time <= t1 - t0:
                stop[0] = 1  # (already out of time: the stage is abandoned at once)
            else:
                timer = threading.Timer(time - (t1 - t0), stop.__setitem__, (0, 1))
                timer.daemon = True
                timer.start()
        before = [(c, c.outcomes, c.win, c.spread, c.plies, c.stage) for c in live]
        try:
            _stage(position, unseen, spread0, live, orders, b, plies, keep, stage, tt_mb, lanes, prune, total,
                   stats, tables, forced, stop if stage > 1 else None)
        except _Stopped:
            for c, *figures in before:  # the stage abandoned: the last stage's figures stand
                c.outcomes, c.win, c.spread, c.plies, c.stage = figures
            timed_out = True
            break
        finally:
            times.append(_time.perf_counter() - t1)
        ranked = sorted((c for c in live if c.stage == stage), key=lambda c: (-c.win, -c.spread))
        live = [c for i, c in enumerate(ranked) if i < keep or id(c) in forced]
    if timer is not None:
        timer.cancel()
    # survivors first, best first (the forced moves among them by their figures)
    order = {id(c): i for i, c in enumerate(live)}
    cands.sort(key=lambda c: (-c.stage, order.get(id(c), len(order)), -c.win, -c.spread))
    return PegResult(cands, b, len(orders), stats["endgames"], _time.perf_counter() - t0, stats["cut"],
                     times, timed_out)


def _stage(position, unseen, spread0, live, orders, b, plies, keep, stage, tt_mb, lanes, prune, total, stats, tables,
           forced, stop):
    """One stage of :func:`peg`: ``live`` (best first by the last stage) scored at ``plies``, those that cannot
    reach the ``keep``-th best cut (the ``forced`` ones never); raises :class:`_Stopped` when ``stop`` is set."""
    done = []  # candidates this stage scored over every scenario, their half-wins
    hints = {}
    if plies is None and len(live) > 1 and not any(c.outcomes for c in live):
        # no stage before: one greedy playout a scenario (0 plies, milliseconds) orders the candidates, the likely
        # best first (the bar then high soonest), and each one's scenarios, its likely losses first
        for c in live:
            hints[id(c)] = _score(position, unseen, spread0, c, orders, b, 0, tt_mb, lanes, None, 2 * total,
                                  {"endgames": 0})
        live = sorted(live, key=lambda c: (-_half_wins(hints[id(c)]), -sum(o[1] * o[2] for o in hints[id(c)])))
    for c in live:  # best first by the last stage
        # (a 0-ply stage scores a candidate without figures in full: cheap, and every candidate gets figures)
        cut = prune and len(done) >= keep and (c.stage or plies != 0) and id(c) not in forced
        bar = sorted(done, reverse=True)[keep - 1] if cut else None
        args = (position, unseen, spread0, c, orders, b, plies, tt_mb, lanes)
        if plies is None and bar is not None:
            # won, tied or lost first (windowed searches, much cheaper), the exact spreads only if not cut
            out = _score(*args, bar, 2 * total, stats, tables, probe=True, stop=stop, hint=hints.get(id(c)))
            if out is not None:
                out = _score(*args, None, 2 * total, stats, tables, stop=stop)
        else:
            out = _score(*args, bar, 2 * total, stats, tables if plies is None else None, stop=stop,
                         hint=hints.get(id(c)))
        if out is None:  # cannot reach the keep-th best: it keeps the last stage's figures
            stats["cut"] += 1
            continue
        c.outcomes = out
        c.win = sum(o[1] * (1.0 if o[2] > 0 else 0.5 if o[2] == 0 else 0.0) for o in out) / total
        c.spread = sum(o[1] * o[2] for o in out) / total
        c.plies = plies
        c.stage = stage
        done.append(_half_wins(out))
