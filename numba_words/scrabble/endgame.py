"""Exact endgames (:func:`solve_endgame`, :meth:`Position.endgame`): the bag is empty and both racks are known.

Negamax with alpha-beta and principal variation search in one kernel (:mod:`._endgame`), iterative deepening
(1, 2, ... plies) with a transposition table of fixed memory (``tt_mb``) that carries move ordering from one depth
to the next. With ``threads`` > 1, helper searches share the table (lazy SMP): each starts its root moves at
another point of the order and fills the table ahead of the main search, whose result is returned (the same
value as one thread: every table entry is a true bound at its depth). Going
out earns twice the opponent's rack; two passes in a row end the game, each side losing its own rack's points.
A search that reaches its depth limit values those nodes by a greedy playout (both sides play their
top-scoring play to the end); without ``plies`` and ``time`` the search deepens until no line reaches the limit,
and the value is exact.
"""
from __future__ import annotations

import time as _time
from dataclasses import dataclass, field

import numpy as np

from . import _cross, _endgame
from ._autoplay import game_tables
from ._board import _thread_pool, lane_count
from ._tables import EMPTY, SIZE, span_table
from .errors import ScrabbleError, short
from .leaves import rack_kinds, variant_arrays
from .plays import PLAY_DTYPE, Play

ASPIRATION = 4
"""Half-width (points) of the window each deepening step searches first around the previous depth's value; a
search that falls outside is searched again from the bound it returned with the window twice as wide on that
side, until one lands inside."""
MAX_PLIES = 2 * 2 * 7 + 1
"""Longest endgame line: every play places a tile, and passes never come twice in a row before the end."""
PRUNE_AFTER = 1.0
"""Seconds of deepening after which the search switches to the endgame's own lexicon (:func:`endgame_lexicon`:
the same plays; building it takes 2-170 ms, which only a longer search repays)."""
_Z = np.random.default_rng(0x5EED_E4D6)
ZSQ = _Z.integers(1, 2 ** 62, (SIZE * SIZE, 64), dtype=np.int64)
"""Zobrist keys of (square, letter + 32 * blank)."""
ZRACK = _Z.integers(1, 2 ** 62, (2, 64, 16), dtype=np.int64)
"""Zobrist keys of (side, tile kind, count on the rack)."""
ZMISC = _Z.integers(1, 2 ** 62, 2, dtype=np.int64)
"""Zobrist keys of side 1 to move, and of "the last move was a pass"."""
_NO_TABLE = np.zeros(0, np.int64)  # the endgame's boards: cross-checks without the in-line part (see ._cross)
_NO_TABLE.flags.writeable = False  # (read-only like the boards' tables: the kernels compile for one type)


@dataclass
class EndgameResult:
    """The solved endgame: ``value`` (final spread change for the side to move, points), ``best`` (the first
    move: a :class:`Play`, or ``None`` for a pass), ``pv`` (the principal variation: moves as :class:`Play` or
    ``None`` for a pass, sides alternating), ``depth`` (plies searched), ``exact`` (no line was cut by the depth
    limit), ``nodes``, ``seconds``, ``iterations`` (``(depth, value, nodes, seconds)`` per deepening step)."""

    value: int
    best: Play | None
    pv: list
    depth: int
    exact: bool
    nodes: int
    seconds: float
    iterations: list = field(default_factory=list)
    position: object = None

    def positions(self) -> list:
        """The positions along the principal variation: the start, then the one after each move (the side to move
        first; racks as the moves leave them)."""
        out = [self.position]
        for m in self.pv:
            out.append(_after(out[-1], m))
        return out

    def svg(self, size: int = 480) -> str:
        """The board at the end of the principal variation with the squares its plays filled highlighted."""
        squares = [(q[0], q[1]) for m in self.pv if m is not None for q in m.placed]
        return self.positions()[-1].svg(size=size, highlight=squares)

    def pv_notation(self) -> list:
        """The principal variation as notation strings (``'pass'`` for a pass)."""
        return ["pass" if m is None else m.notation for m in self.pv]

    def to_record(self) -> dict:
        """The result as a dict of plain values (value, best, pv, pv_scores, depth, exact, nodes, seconds), for JSON or CSV."""
        return {"value": self.value, "best": "pass" if self.best is None else self.best.notation,
                "pv": self.pv_notation(), "pv_scores": [0 if m is None else m.score for m in self.pv],
                "depth": self.depth, "exact": self.exact, "nodes": self.nodes, "seconds": self.seconds}

    def __str__(self) -> str:
        kind = "exact" if self.exact else f"depth {self.depth}"
        return f"{self.value:+d} ({kind}): " + " / ".join(self.pv_notation())


class _Table:
    """The transposition table: ``2^k`` entries of 32 bytes within ``tt_mb`` megabytes; and the rows of the
    searches' play buffers a ply (``cap``: as many as the longest list so far needed, and more)."""

    def __init__(self, tt_mb):
        if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float, np.integer)) or not 0.001 <= tt_mb <= 65536:
            raise ScrabbleError(f"tt_mb must be a number of megabytes from 0.001 to 65536, got {short(tt_mb)}")
        n = max(16, int(tt_mb * 2 ** 20) // 32)
        self.tt = np.zeros((1 << (n.bit_length() - 1), 4), np.int64)
        self.cap = 4096


def _board_hash(board) -> np.int64:
    on = board.letters != EMPTY
    sq = np.nonzero(on.ravel())[0]
    code = board.letters.ravel()[sq].astype(np.int64) + 32 * board.blanks.ravel()[sq]
    h = np.int64(0)
    for z in ZSQ[sq, code]:
        h ^= z
    return h


def _is_position(x) -> bool:
    """A :class:`~.position.Position` (checked by its parts: this module must not import ``position``, which
    imports it)."""
    return hasattr(x, "legal_plays") and hasattr(x, "board") and hasattr(x, "opp_rack")


def _check(position):
    if not _is_position(position):
        raise ScrabbleError(f"endgame: expected a Position, got {short(position)}")
    if not position.rack:
        raise ScrabbleError("endgame: the rack on turn is empty (the game is over)")
    if not position.opp_rack:
        raise ScrabbleError("endgame: the opponent's rack must be known (Position.opp_rack)")
    if position.bag_size():
        raise ScrabbleError(f"endgame: the bag still holds {position.bag_size()} tiles; an endgame needs it empty "
                            f"(unseen tiles {''.join(sorted(position.unseen().elements()))!r}, opponent rack "
                            f"{position.opp_rack!r})")


def solve_endgame(position, plies: int | None = None, time: float | None = None, tt_mb: float = 64,
                  passed: bool = False, threads: int = 1) -> EndgameResult:
    """Solve the endgame of ``position`` (bag empty, ``opp_rack`` known): ``plies`` limits the depth, ``time``
    (seconds) stops the deepening before a step that would not finish in time (the last finished depth is
    returned), ``tt_mb`` sizes the transposition table, ``passed``: the opponent's last move was a pass,
    ``threads``: searches sharing the table (``None``/0: Numba's thread count)."""
    if not isinstance(passed, (bool, np.bool_)):
        raise ScrabbleError(f"passed must be True or False, got {short(passed)}")
    _check(position)
    threads = lane_count(threads)
    if plies is not None and (isinstance(plies, bool) or not isinstance(plies, (int, np.integer))
                              or not 1 <= plies <= MAX_PLIES):
        raise ScrabbleError(f"plies must be a whole number from 1 to {MAX_PLIES}, got {short(plies)}")
    if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0):
        raise ScrabbleError(f"time must be a positive number of seconds, got {short(time)}")
    table = _Table(tt_mb)
    t0 = _time.perf_counter()
    top = int(plies) if plies is not None else MAX_PLIES
    iters = []
    res = None
    lex = None  # the full lexicon for the quick first depths, then the endgame's own (endgame_lexicon)
    for depth in range(1, top + 1):
        if lex is None and _time.perf_counter() - t0 > PRUNE_AFTER:
            lex = endgame_lexicon(position)
        t1 = _time.perf_counter()
        if iters and ASPIRATION:
            r = _aspire(position, depth, table, bool(passed), iters[-1][1], threads, lex)
        else:
            r = _search(position, depth, table, bool(passed), threads=threads, lex=lex)
        dt = _time.perf_counter() - t1
        iters.append((depth, r[0], r[1], dt))
        res = (depth,) + r
        if not r[2]:
            break
        if time is not None:
            spent = _time.perf_counter() - t0
            grow = dt / iters[-2][3] if len(iters) > 1 and iters[-2][3] > 0 else 4.0
            if spent + dt * max(grow, 1.5) > time:
                break
    depth, value, nodes, horizon, pv_rows = res
    pv = _pv_moves(position, pv_rows, bool(passed))
    if not horizon:
        pv = _complete(position, pv, table, bool(passed))
    return EndgameResult(int(value), pv[0] if pv else None, pv, depth, not horizon, int(sum(i[2] for i in iters)),
                         _time.perf_counter() - t0, iters, position)


def _aspire(position, depth, table, passed, guess, threads, lex=None):
    """:func:`_search` in windows around ``guess`` (see :data:`ASPIRATION`) until the value lands inside one."""
    inf = int(_endgame.INF)
    lo, hi, wide = guess - ASPIRATION, guess + ASPIRATION, ASPIRATION
    nodes = 0
    while True:
        r = _search(position, depth, table, passed, lo, hi, threads, lex)
        nodes += r[1]
        if lo < r[0] < hi:
            return (r[0], nodes) + r[2:]
        wide *= 2
        if wide > 256:  # the full window, which every value lands inside
            lo, hi = -inf, inf
        elif r[0] <= lo:  # an upper bound: the value is at most r[0]
            lo, hi = r[0] - wide, r[0] + 1
        else:  # a lower bound
            lo, hi = r[0] - 1, r[0] + wide


def endgame_words(position) -> list:
    """Every word the rest of the game can form (a superset): with the bag empty, every word a play makes (its
    main word or a cross word) lies on one line, holds that line's tiles where they are and takes its other letters
    from the two racks, each tile once. So: the words of the racks' tiles alone (``?`` any letter), and per line
    the words of each stretch that holds a tile, borders none, and whose free squares the racks' tiles can fill."""
    from ..lexicon import _queries

    lex = position.lexicon
    alpha = lex.alphabet
    tiles = position.rack + position.opp_rack
    counts, blanks = lex._rack(tiles)
    words = {m.word for m in lex.anagrams(tiles, min_len=2)}
    grid = position.board.letters  # letter codes (blanks too), EMPTY for an empty square
    full = alpha.full_mask
    for line in [grid[r, :] for r in range(SIZE)] + [grid[:, c] for c in range(SIZE)]:
        sq = [None if x == EMPTY else int(x) for x in line]
        if all(t is None for t in sq):
            continue
        for a in range(SIZE):
            if a > 0 and sq[a - 1] is not None:
                continue
            f = next((q for q in range(a, SIZE) if sq[q] is not None), None)
            if f is None:
                break
            # one search from a for the words of every stretch a..e through the first tile f at once (a letter or
            # any tile per square)
            allowed = np.array([full if t is None else 1 << t for t in sq[a:]], np.uint32)
            open_ = np.array([t is None for t in sq[a:]], np.uint8)
            flat, offs, _ = _queries.dawg_search(lex.dawg, allowed, open_, counts, blanks, True, max(f - a + 1, 2),
                                                 SIZE - a, 0)
            for k in range(len(offs) - 1):
                e = a + int(offs[k + 1] - offs[k]) - 1
                if (e + 1 < SIZE and sq[e + 1] is not None) or None not in sq[a:e + 1]:
                    continue  # borders a tile, or has no free square
                words.add(alpha.decode(flat[offs[k]:offs[k + 1]]))
    return sorted(words)


def endgame_lexicon(position):
    """The lexicon of :func:`endgame_words`: in this endgame it makes the same plays and cross-checks as the full
    lexicon, with a DAWG tens to hundreds of times smaller to walk (TWL06: 0.6-16 k words, against 178 k)."""
    from ..lexicon import Lexicon

    words = endgame_words(position)
    if not words:
        return position.lexicon
    return Lexicon.from_words(words, alphabet=position.lexicon.alphabet.letters, name="endgame")


def _search(position, depth, table, passed, alpha=-_endgame.INF, beta=_endgame.INF, threads=1, lex=None, stop=None):
    """One search at ``depth`` plies in the window ``(alpha, beta)``: ``(value, nodes, horizon reached, PV rows)``
    (the value is a bound when outside the window); ``threads - 1`` helpers share the table until it ends; ``lex``:
    the lexicon to generate with (:func:`endgame_lexicon`; None: the position's); ``stop``: the caller's flag
    (an int64 array of one; one thread only), the search abandoned, its value meaningless, once ``stop[0]`` is set."""
    v = position.variant
    b = position.board
    lex = position.lexicon if lex is None else lex
    tile_pts, _, _ = variant_arrays(v)
    racks = np.stack([rack_kinds(v, position.rack), rack_kinds(v, position.opp_rack)])
    D = depth
    bhash = _board_hash(b)
    tabs = game_tables(lex)
    near = _cross.near_table(lex.dawg, b.full, _NO_TABLE, _NO_TABLE)
    near.flags.writeable = False
    checks = (b.full, _NO_TABLE, _NO_TABLE, near)

    def run(cap, rotate, stop):
        pv = (np.zeros((D + 2, 6), np.int32), np.zeros((D + 2, SIZE), np.uint8), np.zeros(D + 2, np.uint16),
              np.zeros(D + 2, np.uint16))
        out = np.zeros(_endgame.N_OUT, np.int64)
        _endgame.solve(b._lines, b._fv, b._occ, b._cc, b._xs, racks, bhash, np.int64(passed), np.int64(D),
                       np.int64(alpha), np.int64(beta), table.tt, b._lm, b._wm, b._values, np.int64(v.rack_size),
                       np.int64(v.bingo), lex.dawg, span_table(), tabs, checks, tile_pts, ZSQ,
                       ZRACK, ZMISC,
                       np.int64(cap), *pv, out, np.int64(rotate), stop)
        return pv, out

    own = stop is None
    if own:
        stop = np.zeros(1, np.int64)
    # helper t starts its root moves t / threads of the way down the order (rotate: 1024ths); the play buffers
    # start as large as the last search's grew (they grow in the kernel when a list needs more room)
    cap = table.cap
    helpers = [_thread_pool().submit(run, cap, t * 1024 // threads, stop) for t in range(1, threads)]
    try:
        (pv_meta, pv_words, pv_bm, pv_nm), out = run(cap, 0, stop)
    finally:
        if own:
            stop[0] = 1
        for h in helpers:
            if not h.cancel():  # a helper still queued (the pool busy) is dropped, not waited for
                h.result()
    table.cap = max(table.cap, int(out[4]))
    n = int(out[3])
    rows = []
    for j in range(n):
        if pv_meta[j, 3] == 0:
            rows.append(None)
        else:
            row = np.zeros(1, PLAY_DTYPE)[0]
            for f, c in zip(("row", "col", "dir", "length", "score", "tiles"), range(6)):
                row[f] = pv_meta[j, c]
            row["word"] = pv_words[j]
            row["blanks"] = pv_bm[j]
            row["new"] = pv_nm[j]
            rows.append(row)
    return int(out[0]), int(out[1]), bool(out[2]), rows


def _pv_moves(position, rows, passed) -> list:
    """The PV rows as :class:`Play` objects, each against the position it is played in."""
    moves = []
    pos = position
    for row in rows:
        if row is None:
            moves.append(None)
            pos = _after(pos, None)
        else:
            play = Play(row, pos)
            moves.append(play)
            pos = _after(pos, play)
    return moves


def _after(pos, play):
    """The position after ``play`` (``None``: a pass), the other side on turn (no checks)."""
    from collections import Counter

    from .plays import _sort_rack

    make = type(pos)._make
    if play is None:
        return make(pos.variant, pos.lexicon, pos.board, pos.opp_rack, pos.rack,
                              (pos.scores[1], pos.scores[0]), pos.scoreless + 1)
    board = pos.board.copy()
    placed = play.placed
    alpha = pos.alphabet
    board.place([q[0] for q in placed], [q[1] for q in placed], [alpha.index(q[2]) for q in placed],
                [q[3] for q in placed])
    left = Counter(pos.rack) - Counter("?" if q[3] else q[2] for q in placed)
    return make(pos.variant, pos.lexicon, board, pos.opp_rack, _sort_rack(left.elements()),
                          (pos.scores[1], pos.scores[0] + play.score), 0)


def _ends(moves, passed) -> bool:
    """Whether the line ends the game (a play emptying a rack, or a second pass in a row)."""
    last_pass = passed
    for m in moves:
        if m is None:
            if last_pass:
                return True
            last_pass = True
        else:
            last_pass = False
            if not m.leave:
                return True
    return False


def _complete(position, pv, table, passed) -> list:
    """Extend an exact PV cut short by a transposition-table hit: solve on from its last position (the table
    still holds the exact values, so these searches are short)."""
    pv = list(pv)
    for _ in range(MAX_PLIES):
        if _ends(pv, passed):
            break
        pos = position
        last_pass = passed
        for m in pv:
            pos = _after(pos, m)
            last_pass = m is None
        if not pos.rack:
            break
        more = None
        for depth in range(1, MAX_PLIES + 1):
            r = _search(pos, depth, table, last_pass)
            if not r[2]:
                more = _pv_moves(pos, r[3], last_pass)
                break
        if not more:
            break
        pv.extend(more)
    return pv
