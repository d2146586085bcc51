"""Rack inference (:func:`infer`): which leave did the opponent keep, given the play they made?

As MAGPIE's ``infer`` defines it: every rack the player could have held (the tiles played, the tiles known to
be on their rack, and the rest drawn from the tiles they could not see less the observer's rack) is enumerated;
a rack counts when the play was its best by static equity within ``margin`` points, that is when
``score + value(leave) + margin >= equity of the rack's best move`` (or, for an exchange of ``n`` tiles, when
the rack's best move is an exchange of ``n`` tiles: the leave is then what that exchange keeps; or when no tile
would be left in the bag). Each rack counts with the number of ways to draw its unknown tiles from the unseen
pool (a product of binomials), so that the weights are the draw probabilities given the play.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from . import _infer
from ._autoplay import game_tables
from ._board import _thread_pool, lane_count
from ._tables import span_table
from .errors import InvalidRackError, ScrabbleError, short
from .leaves import rack_kinds, tile_points, variant_arrays
from .plays import Play

CHUNK = 256
"""Racks a lane of threads takes at a time."""
_EXCHANGE = re.compile(r"^(?:-|exchange\s+|exch\s+)(\d+|[A-Za-z?]+)$", re.I)


@dataclass
class Inference:
    """The leaves the opponent may have kept, with their weights: ``leaves`` is a list of ``(leave, weight)``
    (sorted tiles, ``?`` a blank; weight = ways to draw the rack, summed over the racks that keep that leave),
    heaviest first; ``total`` the sum of the weights; ``racks`` racks evaluated, ``recorded`` racks that counted;
    ``pool`` the unseen tiles the unknown part was drawn from (the observer's view before the play); ``play``
    the play (notation) and ``exchanged`` the number of tiles exchanged (0 for a placement)."""

    leaves: list
    total: int
    racks: int
    recorded: int
    pool: str
    play: str
    exchanged: int
    margin: float
    seconds: float = 0.0
    _index: dict = field(default_factory=dict, repr=False)

    def probability(self, leave: str) -> float:
        """The probability that the opponent kept ``leave`` (any order of tiles; 0 when it never counted)."""
        if not self._index:
            self._index.update((k, w) for k, w in self.leaves)
        if not isinstance(leave, str):
            raise InvalidRackError(f"a leave must be a string, got {short(leave)}")
        key = "".join(sorted(leave.upper(), key=lambda ch: (ch == "?", ch)))
        return self._index.get(key, 0) / self.total if self.total else 0.0

    def probabilities(self) -> dict:
        """``{leave: probability}``, heaviest first."""
        return {k: w / self.total for k, w in self.leaves} if self.total else {}

    def tile_probabilities(self) -> dict:
        """``{tile: probability that the leave holds at least one}``, most likely first."""
        at = Counter()
        for k, w in self.leaves:
            for ch in set(k):
                at[ch] += w
        return {ch: w / self.total for ch, w in at.most_common()} if self.total else {}

    def to_records(self, n: int | None = None) -> list:
        """One dict a leave (``leave``, ``weight``, ``probability``), heaviest first, the first ``n``."""
        rows = self.leaves if n is None else self.leaves[:n]
        return [{"leave": k, "weight": int(w), "probability": w / self.total} for k, w in rows]

    def summary(self, n: int = 20) -> str:
        """A text report: the play, how many racks counted, then the ``n`` likeliest leaves with their
        probability in percent."""
        lines = [f"inference of {self.play} ({self.recorded:,} of {self.racks:,} racks count, "
                 f"margin {self.margin:g}, {len(self.leaves):,} leaves)"]
        for r in self.to_records(n):
            lines.append(f"  {r['leave'] or '-':<8} {100 * r['probability']:6.2f}%")
        return "\n".join(lines)

    __str__ = summary


def _is_position(x) -> bool:
    return hasattr(x, "legal_plays") and hasattr(x, "board") and hasattr(x, "opp_rack")


def _parse_move(position, play):
    """``(tiles played, score, notation, exchanged)`` of the target's move ``play``."""
    if isinstance(play, Play):
        play = play.notation
    if not isinstance(play, str):
        raise ScrabbleError(f"infer: play must be notation ('8D CAIRD', '-3', '-ABC') or a Play, got {short(play)}")
    text = play.strip()
    m = _EXCHANGE.match(text)
    if m:
        arg = m.group(1)
        n = int(arg) if arg.isdigit() else len(arg)
        if not 1 <= n <= position.variant.rack_size:
            raise ScrabbleError(f"infer: an exchange of {n} tiles; at most {position.variant.rack_size}")
        return "", 0, f"-{arg if not arg.isdigit() else n}", n
    placed = position._placement(text)
    tiles = "".join("?" if q[3] else q[2] for q in placed)
    probe = position.copy()
    probe.opp_rack = ""
    probe.rack = tiles
    mv = probe.parse_play(text)
    return probe.rack, mv.score, mv.notation, 0


def _multisets(avail: np.ndarray, size: int) -> np.ndarray:
    """Every multiset of ``size`` tiles within the counts ``avail`` (by kind), one a row, in lexicographic
    order of kinds."""
    K = len(avail)
    rows = []
    cur = [0] * K

    def rec(k, left):
        if left == 0:
            rows.append(list(cur))
            return
        if k == K:
            return
        for c in range(min(left, int(avail[k])), -1, -1):
            cur[k] = c
            rec(k + 1, left - c)
        cur[k] = 0

    rec(0, size)
    return np.array(rows, np.int64).reshape(len(rows), K)


def _kinds_text(variant, row) -> str:
    kinds = "?" + variant.alphabet
    s = "".join(kinds[k] * int(n) for k, n in enumerate(row) if k)
    return s + "?" * int(row[0])


def infer(position, play, *, margin: float = 0.0, threads: int | None = None) -> Inference:
    """Infer the leave the player on turn in ``position`` kept after making ``play`` (see the module).

    ``position``: the board before the play, that player on turn; its :attr:`~Position.rack` the tiles known
    to be on their rack (usually none), its :attr:`~Position.opp_rack` the observer's own rack (tiles the player
    cannot have). ``play``: the play in notation (``"8D CAIRD"``) or a :class:`Play`, or an exchange written
    ``"-N"`` (``N`` tiles, unseen) or ``"-ABC"`` (only the count is used). ``margin``: points of equity the play
    may fall behind the best move. ``threads``: lanes of threads (``None``: Numba's thread count).
    Raises :class:`ScrabbleError` on bad input (an illegal play, tiles the pool cannot hold, an exchange when
    the bag holds fewer than a rack, or fewer than two racks of unseen tiles)."""
    import time as _time

    if not _is_position(position):
        raise ScrabbleError(f"infer: expected a Position, got {short(position)}")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin >= 0 or margin == math.inf:
        raise ScrabbleError(f"infer: margin must be a number of points >= 0, got {short(margin)}")
    lanes = lane_count(threads)
    t0 = _time.perf_counter()
    v = position.variant
    rs = v.rack_size
    known = position.rack
    played, score, notation, exchanged = _parse_move(position, play)
    K = len(v.alphabet) + 1
    # the pool: tiles neither on the board nor on the observer's rack (the player's rack included)
    pool = rack_kinds(v, "".join(position.unseen().elements())) + rack_kinds(v, known)
    pool -= rack_kinds(v, position.opp_rack)
    target = np.maximum(rack_kinds(v, played), rack_kinds(v, known))  # (MAGPIE: the union of the two)
    if target.sum() > rs:
        raise InvalidRackError(f"infer: the tiles played {played!r} and known {known!r} make more than a rack")
    rest = pool - target
    if (rest < 0).any():
        raise InvalidRackError(f"infer: the tiles played {played!r} and known {known!r} are not all unseen")
    if exchanged:
        if played:
            raise ScrabbleError("infer: a move cannot both place and exchange tiles")
        if pool.sum() < 2 * rs:
            raise ScrabbleError(f"infer: an exchange needs at least {2 * rs} unseen tiles; there are {pool.sum()}")
    draw = min(rs - int(target.sum()), int(rest.sum()))
    unknown = _multisets(rest, draw)
    racks = np.ascontiguousarray(unknown + target[None, :])
    n = len(racks)
    weights = np.ones(n, np.int64)  # ways to draw each rack's unknown tiles (at most C(100, 7) < 2 ** 63)
    for k in range(K):
        if unknown[:, k].any():
            weights *= np.array([math.comb(int(rest[k]), c) for c in range(rs + 1)], np.int64)[unknown[:, k]]
    # the player's view: the bag holds the pool less their rack, and (once the bag is empty) the opponent holds it
    total = int(pool.sum())
    sizes = racks.sum(axis=1)
    nbag = total - sizes
    tile_pts, vowel, pen = variant_arrays(v)
    opp_known = tile_points(v, position.opp_rack)
    pool_pts = int((pool * tile_pts).sum())
    opp_pts = np.where((nbag > 0) | (len(position.opp_rack) > 0), opp_known,
                       pool_pts - (racks * tile_pts[None, :]).sum(axis=1)).astype(np.int64)
    if len(set(nbag.tolist())) > 1:
        raise ScrabbleError("infer: racks of different sizes")  # (cannot happen: every rack is filled alike)
    bag = int(nbag[0]) if n else 0
    b = position.board
    milli, caps, G, P, R = position.leaves._kernel_args()
    base = rack_kinds(v, played)
    mm = int(round(margin * 1000))
    board = (b._lines, b._fv, b._occ, b._cc, b._xs, b._lm, b._wm, b._values, np.int64(rs), np.int64(v.bingo), b.dawg,
             span_table(), bool(b.empty), game_tables(position.lexicon), np.int64(bag))
    if exchanged:  # the top move of every rack, to see whether it exchanges as many tiles
        eq = np.zeros(n, np.int64)
        used = np.zeros(n, np.int64)
        kept = np.zeros((n, K), np.int64)
        kern = _infer.tops
        args = board + (opp_pts, tile_pts, milli, caps, G, P, R, vowel, pen, bool(bag >= rs), eq, used, kept)
    else:  # a yes/no question a rack: does any move beat the play's equity by more than the margin?
        ok = np.zeros(n, np.int64)
        lv = np.zeros(n, np.int64)
        kern = _infer.within
        args = (base, np.int64(score * 1000 + mm)) + board + (tile_pts, milli, caps, G, P, R, vowel, pen,
                                                              bool(bag >= rs), ok, lv)
    chunks = [(lo, min(n, lo + CHUNK)) for lo in range(0, n, CHUNK)]
    if lanes <= 1 or len(chunks) <= 1:
        for lo, hi in chunks:
            kern(racks, np.int64(lo), np.int64(hi), *args)
    else:
        futs = [_thread_pool().submit(kern, racks, np.int64(lo), np.int64(hi), *args) for lo, hi in chunks]
        for f in futs:
            f.result()
    # which racks count, and the leave each keeps
    if exchanged:
        hit = np.flatnonzero(used == -exchanged)
        left = kept[hit]
    else:
        hit = np.flatnonzero(ok)
        left = racks[hit] - base[None, :]
    recorded = len(hit)
    found = Counter()
    for j, i in enumerate(hit.tolist()):
        found[_kinds_text(v, left[j])] += int(weights[i])
    out = sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))
    return Inference(out, sum(found.values()), n, recorded, "".join(_kinds_text(v, pool)),
                     notation, exchanged, float(margin), _time.perf_counter() - t0)
