"""Self-play of many games (:func:`play_games`): strategies against each other, game pairs with the same draws
and seats swapped, statistics with a confidence interval, and any game replayed as a record
(:meth:`AutoplayResult.game`) or GCG. A serial kernel plays a range of games; lanes of threads run ranges side
by side (:func:`run_lanes`). Self-play also learns leave tables (:func:`learn_leaves`) and gives the turns a
win table is fitted to (:func:`win_samples`).

Players: ``"score"`` (the top-scoring play), ``"equity"`` (static equity with the variant's shipped leave
table, see :mod:`.leaves`), a :class:`~.leaves.Leaves` table or a KLV2 path (equity with that table), a
callable ``f(position)`` returning a :class:`Play` of that position, an :class:`~.leaves.Exchange` or ``None``
(pass), or a :class:`Player`. Games with a callable player run in a Python loop (:func:`python_game`) that
follows the kernel's rules and random stream, so a callable that plays what a built-in strategy plays gives the
same games. Both games of pair ``k`` start from the same random stream (``seed``, ``k``): the same bag
order until the players' moves make the draws differ, with the players' seats swapped.
"""
from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass

import numpy as np

from . import _autoplay
from ._board import BoardArrays, _thread_pool, lane_count
from ._autoplay import game_tables
from ._tables import SIZE, span_table
from .errors import ScrabbleError, short
from .leaves import Leaves, load_leaves, variant_arrays
from .plays import PLAY_DTYPE, Play
from .position import Position, lexicon_for, sort_rack
from .variants import get_variant

END_RULES = {"classic": _autoplay.CLASSIC, "tournament": _autoplay.TOURNAMENT}
"""``classic``: going out takes the opponent's rack points from them and adds them to the player;
``tournament``: the player going out adds twice the opponent's rack points (the opponent keeps theirs)."""
CHUNK = 512
"""Games between two progress reports."""
LANE_GAMES = 8
"""Games per kernel call: a lane of threads takes the next 8 games (Ctrl-C lands between calls)."""


@dataclass(frozen=True)
class Player:
    """A strategy: ``"score"``, ``"equity"`` (with the leave table ``leaves``) or ``"python"`` (the callable
    ``fn``), and a name."""

    strategy: str
    leaves: Leaves | None = None
    name: str = ""
    fn: object = None

    @property
    def label(self) -> str:
        """The name shown in summaries: the given name, else the strategy (with the leave table's name for equity)."""
        if self.name:
            return self.name
        if self.strategy == "equity" and self.leaves is not None:
            return f"equity[{self.leaves.name}]"
        if self.strategy == "python":
            return getattr(self.fn, "__name__", "python")
        return self.strategy


def as_player(spec, variant) -> Player:
    """A :class:`Player` from ``"score"``, ``"equity"``, a :class:`Leaves`, a KLV2 path, a callable or a
    :class:`Player`."""
    if isinstance(spec, Player):
        if spec.strategy not in ("score", "equity", "python"):
            raise ScrabbleError(f"player strategy must be 'score', 'equity' or 'python', got {short(spec.strategy)}")
        if spec.strategy == "python" and not callable(spec.fn):
            raise ScrabbleError(f"a 'python' player needs a callable fn, got {short(spec.fn)}")
        if spec.strategy == "equity" and spec.leaves is None:
            return Player("equity", load_leaves(None, variant), spec.name)
        return spec
    if spec == "score":
        return Player("score")
    if spec == "equity":
        return Player("equity", load_leaves(None, variant))
    if isinstance(spec, Leaves):
        return Player("equity", spec)
    if isinstance(spec, str) and spec.endswith(".klv2"):
        return Player("equity", load_leaves(spec, variant))
    if callable(spec):
        return Player("python", fn=spec)
    raise ScrabbleError(f"a player is 'score', 'equity', a Leaves table, a .klv2 path, a callable or a Player, got "
                        f"{short(spec)}")


def _whole(x, what, lo=0):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < lo:
        raise ScrabbleError(f"{what} must be a whole number >= {lo}, got {short(x)}")
    return int(x)


class _Setup:
    """The arrays every game kernel call reads, built once per run."""

    def __init__(self, players, variant, lexicon, end_rule):
        self.variant = variant
        self.lexicon = lexicon
        self.players = players
        if end_rule not in END_RULES:
            raise ScrabbleError(f"end_rule must be 'classic' or 'tournament', got {short(end_rule)}")
        self.end_rule = np.int64(END_RULES[end_rule])
        tables = []
        for p in players:
            if p.leaves is not None and p.leaves.variant.name != variant.name:
                raise ScrabbleError(f"player {p.label}: leaves for {p.leaves.variant.name!r}, game of {variant.name!r}")
            if p.leaves is not None and all(t is not p.leaves for t in tables):
                tables.append(p.leaves)
        if not tables:
            tables.append(Leaves(variant, name="zero"))
        R = {t.max_size for t in tables}
        if len(R) > 1:
            raise ScrabbleError("the players' leave tables cover different leave sizes")
        self.milli = np.stack([t.milli for t in tables])
        self.leave_of = np.array([next((i for i, t in enumerate(tables) if t is p.leaves), 0) for p in players],
                                 np.int64)
        self.strat = np.array([_autoplay.SCORE if p.strategy == "score" else _autoplay.EQUITY for p in players],
                              np.int64)
        self.python = any(p.strategy == "python" for p in players)
        _, self.caps, self.G, self.P, self.R = tables[0]._kernel_args()
        self.tile_pts, self.vowel, self.pen = variant_arrays(variant)
        b = BoardArrays(variant, lexicon)
        self.board = b
        self.args = (self.end_rule, np.int64(variant.rack_size), np.int64(variant.bingo), self.caps.copy(),
                     self.tile_pts, self.vowel, self.pen, self.milli, self.caps, self.G, self.P, self.R, b._lm, b._wm,
                     b._values, b.dawg, span_table(), game_tables(lexicon), b.checks)
        self.rank7 = (self.G, self.P)  # rank tables of full racks (learning runs set them)
        self.no_learn = np.zeros(1, np.int64)

    def run(self, seed, first, n, record=False, threads=None, learn=None):
        """Games ``first .. first + n - 1``: ``(out, records)``, in lanes of threads over chunks of
        :data:`LANE_GAMES` games (each game depends only on ``seed`` and its number). ``learn``: one
        ``(lsum, lcnt)`` pair of accumulators per lane (see :func:`._autoplay.play_one`)."""
        out = np.zeros((n, _autoplay.N_OUT), np.int64)
        nr = n if record else 1
        T = _autoplay.MAX_TURNS + 2
        rec = np.zeros((nr, T, 10), np.int64)
        rec_word = np.zeros((nr, T, SIZE), np.uint8)
        rec_rack = np.full((nr, T, self.variant.rack_size), -1, np.int64)
        rec_x = np.full((nr, T, self.variant.rack_size), -1, np.int64)
        recs = (rec, rec_word, rec_rack, rec_x)
        if self.python:
            for x in range(n):
                o, rr = python_game(self, seed, first + x, record)
                out[x] = o
                if record:
                    for dst, src in zip(recs, rr):
                        dst[x] = src
            return out, recs
        lanes = min(lane_count(threads), -(-n // LANE_GAMES))
        if learn is None:
            learn = [(self.no_learn, self.no_learn)] * lanes
        elif len(learn) < lanes:
            raise ScrabbleError(f"{len(learn)} learning accumulators for {lanes} lanes")

        def call(lane, a, b):
            r = [x[a:b] for x in recs] if record else recs
            _autoplay.play_range(np.int64(seed), np.int64(first + a), np.int64(b - a), self.strat, self.leave_of,
                                 *self.args, out[a:b], *r, bool(record), *learn[lane], *self.rank7)

        run_lanes(call, n, lanes, LANE_GAMES)
        return out, recs


def run_lanes(call, n: int, lanes: int, chunk: int) -> None:
    """``call(lane, a, b)`` over chunks ``[a, b)`` of ``range(n)``, ``lanes`` lanes of threads taking the next
    chunk (the calling thread is lane 0; the kernels release the GIL). An exception in a lane (Ctrl-C in the
    calling thread) stops the others after their current chunk and is raised."""
    nxt = iter(range(0, n, chunk))
    lock = threading.Lock()
    stop = []

    def lane(i):
        while not stop:
            with lock:
                a = next(nxt, None)
            if a is None:
                return
            try:
                call(i, a, min(n, a + chunk))
            except BaseException:
                stop.append(1)
                raise

    if lanes <= 1:
        lane(0)
        return
    helpers = [_thread_pool().submit(lane, i) for i in range(1, lanes)]
    try:
        lane(0)
    except BaseException:
        stop.append(1)
        raise
    finally:
        for h in helpers:
            h.exception()
    for h in helpers:
        h.result()


def _splitmix(state: int) -> tuple:
    """:func:`._autoplay._next` in Python: ``(new state, 53 random bits)``."""
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, (z ^ (z >> 31)) >> 11


def python_game(setup: _Setup, seed: int, g: int, record: bool = False) -> tuple:
    """Game ``g`` of a run played in Python (the path of callable players): the rules, random stream and
    record of :func:`._autoplay.play_one`, each turn's position (:class:`Position`, the board as it is now;
    valid during the call) handed to the player on turn. Built-in players play through the position
    (``best()``, ``best_move()``). Returns ``(out row, (rec, rec_word, rec_rack, rec_x))`` of one game."""
    from .leaves import Exchange, tile_points

    v, lex = setup.variant, setup.lexicon
    kinds = "?" + v.alphabet
    K, rs = len(kinds), v.rack_size
    seats = (setup.players[g % 2], setup.players[1 - g % 2])
    state = int(_autoplay.game_seed(np.int64(seed), np.int64(g // 2)))
    bag = [k for k in range(K) for _ in range(int(setup.caps[k]))]
    racks = [[0] * K, [0] * K]

    def draw(rack, n):
        nonlocal state
        for _ in range(n):
            if not bag:
                return
            state, x = _splitmix(state)
            j = x % len(bag)
            rack[bag[j]] += 1
            bag[j] = bag[-1]
            bag.pop()

    def text(rack):
        return sort_rack(kinds[k] * c for k, c in enumerate(rack))

    draw(racks[0], rs)
    draw(racks[1], rs)
    board = BoardArrays(v, lex)
    scores, bingos, adj = [0, 0], [0, 0], [0, 0]
    T = _autoplay.MAX_TURNS + 2
    rec = np.zeros((T, 10), np.int64)
    rec_word = np.zeros((T, SIZE), np.uint8)
    rec_rack = np.full((T, rs), -1, np.int64)
    rec_x = np.full((T, rs), -1, np.int64)
    scoreless, turn, ended = 0, 0, 2
    for t in range(_autoplay.MAX_TURNS):
        p = t & 1
        rk = racks[p]
        n_rack = sum(rk)
        rack_list = [k for k in range(K) for _ in range(rk[k])]
        rec_rack[t, :len(rack_list)] = rack_list
        pos = Position._make(v, lex, board, text(rk), text(racks[1 - p]), (scores[p], scores[1 - p]), scoreless)
        pl = seats[p]
        if pl.strategy == "score":
            move = pos.best()
            if move is None and len(bag) >= rs:
                move = Exchange(text(rk), "", 0.0)
        elif pl.strategy == "equity":
            pos.leaves = pl.leaves
            move = pos.best_move("equity")
        else:
            move = pl.fn(pos)
        rec[t, 0] = p
        turn = t + 1
        if isinstance(move, Play):
            if move.position is not pos:
                raise ScrabbleError(f"player {pl.label} returned a play of another position: {move.notation}")
            placed = move.placed
            for _, _, ch, bl in placed:
                rk[0 if bl else kinds.index(ch)] -= 1
            board.place([q[0] for q in placed], [q[1] for q in placed], [v.alphabet.index(q[2]) for q in placed],
                        [q[3] for q in placed])
            sc, ntile = move.score, len(placed)
            scores[p] += sc
            bingos[p] += ntile == rs
            scoreless = 0 if sc != 0 else scoreless + 1
            draw(rk, ntile)
            row = move._row
            rec[t, 1:] = (0, row["row"], row["col"], row["dir"], row["length"], sc, row["tiles"], row["blanks"],
                          row["new"])
            rec_word[t] = row["word"]
            if n_rack == ntile and not bag and sum(rk) == 0:
                o = tile_points(v, text(racks[1 - p]))
                tournament = setup.end_rule == _autoplay.TOURNAMENT
                adj[p] += 2 * o if tournament else o
                adj[1 - p] -= 0 if tournament else o
                ended = 0
                break
        elif isinstance(move, Exchange):
            if len(bag) < rs:
                raise ScrabbleError(f"player {pl.label} exchanged with {len(bag)} tiles in the bag (needs {rs})")
            if not isinstance(move.tiles, str) or any(ch != "?" and ch not in kinds for ch in move.tiles):
                raise ScrabbleError(f"player {pl.label} exchanged {short(move.tiles)}: not tiles of "
                                    f"{v.alphabet!r} or '?' (upper case)")
            xk = sorted(0 if ch == "?" else kinds.index(ch) for ch in move.tiles)
            for k in xk:
                if rk[k] == 0:
                    raise ScrabbleError(f"player {pl.label} exchanged {move.tiles!r} from rack {text(rk)!r}")
                rk[k] -= 1
            draw(rk, len(xk))
            bag.extend(xk)
            scoreless += 1
            rec[t, 1], rec[t, 7] = 1, len(xk)
            rec_x[t, :len(xk)] = xk
        elif move is None:
            scoreless += 1
            rec[t, 1] = 2
        else:
            raise ScrabbleError(f"player {pl.label} returned {short(move)}: a Play, an Exchange or None (pass)")
        if scoreless >= 6:
            for s_ in range(2):
                adj[s_] -= tile_points(v, text(racks[s_]))
            ended = 1
            break
    for s_ in range(2):
        scores[s_] += adj[s_]
        final = [k for k in range(K) for _ in range(racks[s_][k])]
        rec_rack[turn + s_, :len(final)] = final
    out = np.array([scores[0], scores[1], turn, bingos[0], bingos[1], adj[0], adj[1], ended, len(bag), turn],
                   np.int64)
    return out, (rec, rec_word, rec_rack, rec_x)


def play_games(n: int, players=("equity", "score"), *, seed: int = 0, threads: int | None = None,
               variant="scrabble", lexicon=None, end_rule: str = "classic", progress=None) -> "AutoplayResult":
    """Play ``n`` games between ``players[0]`` and ``players[1]`` (see the module for player forms): games
    ``2k`` and ``2k + 1`` are a pair with the same random stream, player 0 moving first in game ``2k`` and second
    in ``2k + 1``. Games run in parallel (``threads``: lanes of threads, default Numba's thread count) and each depends only on
    ``seed`` and its number. ``progress``: an object with ``update(n)`` told of finished games."""
    n = _whole(n, "n (games)", 1)
    seed = _whole(seed, "seed")
    if seed >= 1 << 63:
        raise ScrabbleError(f"seed must be below 2**63, got {seed}")
    variant = get_variant(variant)
    lex = lexicon_for(lexicon, variant)
    try:
        a, b = players
    except (TypeError, ValueError):
        raise ScrabbleError(f"players must be a pair, got {short(players)}") from None
    ps = (as_player(a, variant), as_player(b, variant))
    setup = _Setup(ps, variant, lex, end_rule)
    lane_count(threads)
    outs = []
    for first in range(0, n, CHUNK):
        k = min(CHUNK, n - first)
        outs.append(setup.run(seed, first, k, threads=threads)[0])
        if progress is not None:
            progress.update(k)
    return AutoplayResult(np.concatenate(outs), setup, seed)


class AutoplayResult:
    """The outcome of :func:`play_games`: ``out`` (one row per game, see :data:`._autoplay.N_OUT`), statistics
    from player 0's side (:meth:`stats`), and any game replayed with its moves (:meth:`game`)."""

    def __init__(self, out, setup, seed):
        self.out = out
        self._setup = setup
        self.seed = seed
        self.players = setup.players
        g = np.arange(len(out))
        a_seat = g % 2  # player 0 sits first in even games
        self.scores = np.stack([out[g, a_seat], out[g, 1 - a_seat]], axis=1)  # (player 0, player 1) per game
        self.bingos = np.stack([out[g, 3 + a_seat], out[g, 4 - a_seat]], axis=1)
        self.turns = out[:, 2]
        for a in (self.out, self.scores, self.bingos, self.turns):  # (results: read-only, as every array users reach)
            a.flags.writeable = False

    def __len__(self) -> int:
        return len(self.out)

    def stats(self) -> dict:
        """Player 0's wins, ties, losses; ``win_rate`` (a tie counts half) with a 95% confidence interval
        (normal approximation); mean scores and spread (player 0 - player 1); bingos and turns a game."""
        n = len(self.out)
        d = self.scores[:, 0] - self.scores[:, 1]
        w, t, lo = int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum())
        p = (w + t / 2) / n
        half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n)
        return {"games": n, "players": [pl.label for pl in self.players], "wins": w, "ties": t, "losses": lo,
                "win_rate": p, "ci95": (max(0.0, p - half), min(1.0, p + half)),
                "mean_score": [float(self.scores[:, 0].mean()), float(self.scores[:, 1].mean())],
                "mean_spread": float(d.mean()), "spread_sd": float(d.std()),
                "bingos_per_game": [float(self.bingos[:, 0].mean()), float(self.bingos[:, 1].mean())],
                "turns_per_game": float(self.turns.mean())}

    def summary(self) -> str:
        """One paragraph: games, wins/ties/losses of player 0 with a 95% interval, mean scores, spread, bingos and turns a game."""
        s = self.stats()
        a, b = s["players"]
        return (f"{s['games']} games, {a} vs {b}: {a} wins {s['wins']}, ties {s['ties']}, loses {s['losses']} "
                f"-> {100 * s['win_rate']:.1f}% (95% CI {100 * s['ci95'][0]:.1f}-{100 * s['ci95'][1]:.1f}%); mean "
                f"score {s['mean_score'][0]:.1f} vs {s['mean_score'][1]:.1f}, spread {s['mean_spread']:+.1f}; "
                f"bingos/game {s['bingos_per_game'][0]:.2f} vs {s['bingos_per_game'][1]:.2f}; "
                f"turns/game {s['turns_per_game']:.1f}")

    def game(self, i: int) -> "AutoplayGame":
        """Game ``i`` replayed (the same kernel, same random stream) with every move recorded."""
        i = _whole(i, "game index")
        if i >= len(self.out):
            raise ScrabbleError(f"game index {i} out of range for {len(self.out)} games")
        out, rec = self._setup.run(self.seed, i, 1, record=True)
        return AutoplayGame(self._setup, i, out[0], [r[0] for r in rec])


class AutoplayGame:
    """One self-played game: ``moves`` as dicts (``seat``, ``player``, ``rack``, ``move`` notation, ``score``,
    ``total``), ``final_racks``, ``scores`` (by seat, end adjustments included), ``positions()``, ``gcg()``."""

    def __init__(self, setup, index, out, rec):
        self.variant, self.lexicon = setup.variant, setup.lexicon
        self.index = index
        first = index % 2  # the player sitting first
        self.names = (setup.players[first].label, setup.players[1 - first].label)
        self.scores = (int(out[0]), int(out[1]))
        self.end_adjustments = (int(out[5]), int(out[6]))
        self.ended = ("out", "six scoreless turns", "turn limit")[int(out[7])]
        self.bag_left = int(out[8])
        rows, words, racks, xs = rec
        kinds = "?" + self.variant.alphabet
        alpha = self.variant.alphabet
        n = int(out[2])
        self.moves = []
        self._placements = []
        board = BoardArrays(self.variant, self.lexicon)
        totals = [0, 0]
        for t in range(n):
            seat, kind = int(rows[t, 0]), int(rows[t, 1])
            rack = sort_rack(kinds[k] for k in racks[t] if k >= 0)
            if kind == 0:
                row = np.zeros(1, PLAY_DTYPE)[0]
                row["row"], row["col"], row["dir"], row["length"] = rows[t, 2], rows[t, 3], rows[t, 4], rows[t, 5]
                row["score"], row["tiles"], row["blanks"], row["new"] = rows[t, 6], rows[t, 7], rows[t, 8], rows[t, 9]
                row["word"] = words[t]
                pos = Position._make(self.variant, self.lexicon, board, rack, "", (totals[seat], totals[1 - seat]), 0)
                play = Play(row, pos)
                text, score = play.notation, int(rows[t, 6])
                placed = play.placed
                self._placements.append((t, placed))
                board = board.copy()
                board.place([q[0] for q in placed], [q[1] for q in placed], [alpha.index(q[2]) for q in placed],
                            [q[3] for q in placed])
            elif kind == 1:
                text, score = "-" + sort_rack(kinds[k] for k in xs[t] if k >= 0), 0
            else:
                text, score = "-", 0
            totals[seat] += score
            self.moves.append({"turn": t + 1, "seat": seat, "player": self.names[seat], "rack": rack, "move": text,
                               "score": score, "total": totals[seat]})
        self.board = board
        self.final_racks = tuple(sort_rack(kinds[k] for k in racks[n + s] if k >= 0) for s in range(2))
        self.move_totals = tuple(totals)

    def position(self) -> Position:
        """The final position (the first seat's rack on turn)."""
        return Position._make(self.variant, self.lexicon, self.board, self.final_racks[0], self.final_racks[1],
                              self.scores, 0)

    def gcg(self) -> str:
        """The game as GCG text (players, lexicon, every turn with the mover's rack, end-of-game adjustments)."""
        names = [re.sub(r"[^A-Za-z0-9_.-]+", "_", n).strip("_") or "player" for n in self.names]
        if names[0] == names[1]:
            names = [names[0] + "_1", names[1] + "_2"]
        from types import SimpleNamespace

        from .gcg import write_gcg

        record = SimpleNamespace(moves=[(m["seat"], m["move"], m["score"]) for m in self.moves],
                                 racks_before=[m["rack"] for m in self.moves], over=True,
                                 end_adjustments=list(self.end_adjustments), racks=list(self.final_racks),
                                 lexicon=self.lexicon)
        return write_gcg(record, tuple(names))

    def __repr__(self) -> str:
        return (f"<AutoplayGame #{self.index} {self.names[0]} {self.scores[0]} - {self.scores[1]} {self.names[1]}, "
                f"{len(self.moves)} turns, {self.ended}>")


# ---------------------------------------------------------------------- learning leave values
PRIOR_TURNS = 20.0
"""Weight, in turns, of a leave's prior (from its sub-leaves) against its own mean when a table is learned."""
MARGINAL_TURNS = 1
"""Turns a leave must have been seen to count in the marginal value of a tile at its size."""


@dataclass
class LearnRound:
    """One round of :func:`learn_leaves`: its games, turns recorded, distinct full racks seen, the average
    best-move equity (points), and leaves by how many turns they were seen in (``seen``: at least once,
    ``well_seen``: at least :data:`PRIOR_TURNS`), seconds taken."""

    games: int
    turns: int
    racks: int
    average: float
    seen: int
    well_seen: int
    seconds: float


def rack_outcomes(games: int, table, *, seed: int = 0, threads: int | None = None, variant="scrabble",
                  lexicon=None, progress=None) -> tuple:
    """Play ``games`` games between two equity players with leave table ``table`` and return ``(rsum, rcnt)``:
    for the full rack of rank ``i`` among leaves of up to ``rack_size`` tiles, the summed equity (millipoints)
    of its best move and its turns, over the turns with tiles in the bag (the same at any thread count)."""
    from . import _leaves

    variant = get_variant(variant)
    lex = lexicon_for(lexicon, variant)
    table = load_leaves(table, variant)
    G7, P7, n7 = _leaves.rank_tables(table.caps, variant.rack_size)
    player = Player("equity", table)
    setup = _Setup((player, player), variant, lex, "classic")
    setup.rank7 = (G7, P7)
    lanes = lane_count(threads)
    acc = [(np.zeros(n7 + 1, np.int64), np.zeros(n7 + 1, np.int64)) for _ in range(lanes)]
    for first in range(0, games, CHUNK):
        k = min(CHUNK, games - first)
        setup.run(seed, first, k, threads=lanes, learn=acc)
        if progress is not None:
            progress.update(k)
    return sum(a[0] for a in acc), sum(a[1] for a in acc)


def fit_leaves(rsum, rcnt, variant="scrabble", *, max_size: int | None = None, prior_turns: float = PRIOR_TURNS,
               marginal_turns: int = MARGINAL_TURNS, name: str = "learned") -> tuple:
    """A :class:`Leaves` table from full racks' outcomes (:func:`rack_outcomes`): each leave's value is the mean
    equity of the observed racks holding it, each weighted by the odds of drawing the rest of it from a full
    bag without the leave, minus the average rack's, then shrunk towards a prior from its sub-leaves (weight
    ``prior_turns`` turns; tile marginals from leaves seen ``marginal_turns`` turns; see
    :func:`._leaves.smooth_leaves`). Returns ``(table, average equity in points, turns per leave)``."""
    from . import _leaves

    variant = get_variant(variant)
    table = Leaves(variant, max_size=max_size, name=name)
    rs = variant.rack_size
    top = int(table.caps.max())
    binom = np.array([[math.comb(a, b) for b in range(rs + 1)] for a in range(top + 1)], np.float64)
    milli, caps, G, P, R = table._kernel_args()
    n = len(table)
    lsum, lw, lobs = np.zeros(n), np.zeros(n), np.zeros(n, np.int64)
    tot, totw = _leaves.leave_means(np.asarray(rsum, np.int64), np.asarray(rcnt, np.int64), caps, np.int64(rs), G,
                                    P, R, binom, lsum, lw, lobs)
    avg = tot / totw if totw > 0 else 0.0
    raw = np.where(lw > 0, lsum / np.maximum(lw, 1e-300) - avg, 0.0)
    out = np.zeros(n)
    _leaves.smooth_leaves(raw, lobs.astype(np.float64), caps, G, P, R, float(prior_turns), np.int64(marginal_turns),
                          out)
    return Leaves(variant, out / 1000.0, max_size=table.max_size, name=name), avg / 1000, lobs


def learn_leaves(games: int, rounds: int = 3, *, start=None, seed: int = 0, threads: int | None = None,
                 variant="scrabble", lexicon=None, progress=None, on_round=None):
    """Learn leave values by self-play (superleaves, as MAGPIE's leavegen does): each round plays ``games``
    games between two equity players with the current table (``start``: a :class:`Leaves` or KLV2 path,
    default all 0) and records, for every turn with tiles in the bag, the full rack and its best move's equity
    (:func:`rack_outcomes`); the next table is fitted to them (:func:`fit_leaves`) and the next round plays
    with it. Returns ``(table, [LearnRound, ...])``; ``on_round(i, table, round)`` is called after each
    round."""
    import time as _time

    games = _whole(games, "games", 2)
    rounds = _whole(rounds, "rounds", 1)
    seed = _whole(seed, "seed")
    variant = get_variant(variant)
    table = Leaves(variant, name="learned") if start is None else load_leaves(start, variant)
    history = []
    for i in range(rounds):
        t0 = _time.perf_counter()
        rsum, rcnt = rack_outcomes(games, table, seed=seed + i * (1 << 32), threads=threads, variant=variant,
                                   lexicon=lexicon, progress=progress)
        table, avg, lobs = fit_leaves(rsum, rcnt, variant, max_size=table.max_size)
        rd = LearnRound(games, int(rcnt.sum()), int((rcnt > 0).sum()), avg, int((lobs > 0).sum()),
                        int((lobs >= PRIOR_TURNS).sum()), _time.perf_counter() - t0)
        history.append(rd)
        if on_round is not None:
            on_round(i, table, rd)
    return table, history


def win_samples(games: int, players=("equity", "equity"), *, seed: int = 0, threads: int | None = None,
                variant="scrabble", lexicon=None) -> tuple:
    """Turns of self-played games as ``(spread, unseen, outcome)`` arrays, one entry per turn: the spread of the
    side on turn before its move (points), the tiles it cannot see (bag and the other rack) and how its game
    ended (1 win, 1/2 tie, 0 loss): the data :meth:`.sim.WinTable.fit` fits."""
    games = _whole(games, "games", 1)
    variant = get_variant(variant)
    lex = lexicon_for(lexicon, variant)
    setup = _Setup(tuple(as_player(p, variant) for p in players), variant, lex, "classic")
    total = int(setup.caps.sum())
    xs, us, ys = [], [], []
    for first in range(0, games, CHUNK):
        k = min(CHUNK, games - first)
        out, (rec, _, racks, _) = setup.run(seed, first, k, record=True, threads=threads)
        turns = out[:, 2]
        t = np.arange(rec.shape[1])
        live = t[None, :] < turns[:, None]
        seat = rec[:, :, 0]
        gained = np.where(rec[:, :, 1] == 0, rec[:, :, 6], 0)
        placed = np.where(rec[:, :, 1] == 0, rec[:, :, 7], 0)
        before = [np.cumsum(np.where(seat == s_, gained, 0), 1) - np.where(seat == s_, gained, 0) for s_ in (0, 1)]
        mine = np.where(seat == 0, before[0], before[1])
        theirs = np.where(seat == 0, before[1], before[0])
        unseen = total - (np.cumsum(placed, 1) - placed) - (racks >= 0).sum(2)
        final = np.where(seat == 0, out[:, 0:1], out[:, 1:2]) - np.where(seat == 0, out[:, 1:2], out[:, 0:1])
        xs.append((mine - theirs)[live])
        us.append(unseen[live])
        ys.append((np.sign(final[live]) + 1) / 2)
    return np.concatenate(xs), np.concatenate(us), np.concatenate(ys)
