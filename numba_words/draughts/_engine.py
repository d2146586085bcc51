"""The game-tree search kernel: one iteration of iterative deepening (a principal-variation alpha-beta search
to a nominal depth, then a quiescence search that plays out captures) on an explicit stack, no recursion.

The Python driver (``engine.py``) calls ``search_kernel`` once per depth, from one or several threads at once
(lazy SMP: every thread searches the same root and shares the transposition table); everything mutable but the
table and the control array belongs to one thread.

Nodes, per ply ``u`` of the stack (the frame arrays ``f*[u]``): the position (side-relative, as in
``_movegen``), its Zobrist key, the remaining depth, the window, the best score and move so far, and the
plies since the last irreversible move (``frev``: a man move or a capture) and since the material last changed
(``fmat``: a capture or a crowning), for the draw rules. Each node, in this order:

1. draw rules (not at the root): the position seen before on the path or in the game since the last
   irreversible move (one repetition is enough inside a search), 50 plies of king moves without capture (the
   FMJD 25-move rule), or the 16/5-move rules (``endgame_class``) run out: score 0 (when the side to move has
   a move: none is a loss).
2. the table (depth > 0), before any move is listed: its move first; in a non-PV node a cut-off when its
   bound decides (a cut-off node needs no move list: the same tree, less work a node); in PV nodes too with
   ``params[P_TT_PV]``.
3. its moves (``perft_gen``); none: a loss, ``-(WIN - ply)``. A leaf (depth <= 0) is only asked whether it
   has a capture and a move at all (``quiet_moves``): without a capture it is evaluated, so its list is not
   needed. Depth <= 0 and no capture to make (a quiet position), or the stack full: the evaluation (rounded
   toward 0 to a multiple of ``params[P_GRAIN]`` milli-men: a coarser score gives more equal values and
   cut-offs). With sacrifices (``params[P_SACS]`` = s > 0), a quiet position at 0 >= depth > -s without kings
   on the board, whose opponent would have no capture were it to move, is worth the best of its evaluation
   (standing pat: enough when it beats beta) and its sacrifices, the men's moves (not crowning) after which
   the opponent must capture: a shot at the horizon is seen as the captures that follow it are searched.
4. enhanced transposition cut-offs, from depth ``params[P_ETC]``: a child's entry proves the node beats beta.
5. a non-PV node from depth ``params[P_PROBCUT]`` without a capture, outside the opening: ProbCut (see the
   kernel).
6. else the moves in order: table move, then (captures: by kings taken) killers, history (at the root, with
   ``params[P_ROOT_RANK]``, the moves that were best before first, the newest first). The first move with
   the full window, the others with a null window, re-searched when they beat alpha (principal variation
   search). Late quiet moves (the fourth on; in non-PV nodes from move ``params[P_LMR_FROM]``, counted from 0)
   at depth >= ``params[P_LMR_DEPTH]`` are searched one ply
   shallower first, two from move ``params[P_LMR2]`` at depth ``params[P_LMR2_DEPTH]`` (late move
   reductions; never captures, killers, crowning moves or the table move, unless ``params[P_LMR_ALL]``). A node with one legal move searches it one ply deeper (a forced
   move costs no depth). At depth <= 0 only captures are left (a capture is compulsory; and the men offered,
   with sacrifices), so every child is searched: the quiescence search is the same loop.

``EXACT`` mode (``params[1]``) turns off everything that changes the value found (table cut-offs,
reductions, extensions, ProbCut, the grain): the search then returns the plain minimax value of the tree (with the same
quiescence, sacrifices included, and draw rules), which the tests compare with a plain-Python negamax.

Transposition table: buckets of two entries (a depth-preferred one, an always-replaced one), each two
``uint64`` words ``(key ^ data, data)``: a read whose words do not match its key (a torn write by another
thread, or another position) is a miss, so threads share the table without locks. ``data`` packs the score
(32 bits, wins stored relative to the node), depth + 64 (8), bound (2), move index in generation order (10),
and the search generation (8).
"""
from __future__ import annotations

import numpy as np

from .._jit import borrowed, inline, ix, kernel, monotonic_ns, prefetch
from ..bits import lsb_index, msb_index, popcount
from ._eval import PHASES, evaluate
from ._movegen import MOVES_OFF, PLY_WORDS, first_jumps, has_jump, king_fills, men_slides, perft_gen, step
from ._tables import ONE, ZERO

#: Deepest ply of the stack (nominal depth, extensions and captures of the quiescence search together; a node
#: at ``MAX_PLY - 1`` is evaluated, so the move lists never run past ``MAX_PLY``).
MAX_PLY = 128
#: A win in ``n`` plies scores ``WIN - n`` (milli-men; far above any evaluation: 40 kings are 120 men).
WIN = 100_000_000
#: Scores beyond this are wins or losses.
WIN_BOUND = WIN - 10_000
INF = WIN + 1
EXACT_BOUND, LOWER, UPPER = 0, 1, 2
#: Modes of ``params[1]``.
NORMAL, EXACT = 0, 1
#: Layout of ``params`` (int64): depth, mode, node limit (0: none), thread index, root's plies since the last
#: irreversible move, root's plies since the material changed, number of game keys, root alpha, root beta,
#: table generation, least depth of ProbCut (0: none), whether late move reductions apply in PV nodes too,
#: the move number from which they reduce two plies and the least depth where they do, the least depth of
#: enhanced transposition cut-offs (0: none), the grain of leaf scores (milli-men: they are rounded to a
#: multiple of it toward 0; 1: none), whether the table cuts PV nodes too, the least depth of late move
#: reductions, whether they reduce every late move (captures, killers and crowning moves too, with at least
#: ``LMR_PIECES`` pieces on the board), whether the root orders its moves by when they were last best (Moby Dam's order: the newest best first), whether
#: late moves are reduced at the root too, whether a quiet leaf whose opponent threatens a capture is searched one
#: ply more, the lazy evaluation's margin (milli-men, 0: none: a quiet leaf without kings whose material alone
#: is beyond the window by it is scored by its material less or plus the margin, unevaluated), the plies of the
#: quiescence search where a quiet side may offer a man (0: none; see step 3 above), the move number (from 0)
#: from which late moves are reduced in non-PV nodes (in PV nodes from ``LMR_FROM``), the deadline (``monotonic_ns``
#: nanoseconds, 0: none; at it the kernel sets ``ctl[0]`` itself), the milli-men an evaluation gains for the root's
#: side to move for each piece taken off the board since the root (0: none; a preference for exchanges), the
#: most plies a late move is reduced by when the opponent must capture after it (an offer; 2: as any move).
(P_DEPTH, P_MODE, P_NODES, P_THREAD, P_REV, P_MAT, P_NKEYS, P_ALPHA, P_BETA, P_GEN, P_PROBCUT, P_LMR_PV,
 P_LMR2, P_LMR2_DEPTH, P_ETC, P_GRAIN, P_TT_PV, P_LMR_DEPTH, P_LMR_ALL, P_ROOT_RANK, P_ROOT_LMR, P_THREAT,
 P_LAZY, P_SACS, P_LMR_FROM, P_DEADLINE, P_SIMPLIFY, P_OFFER_RED) = range(28)
N_PARAMS = 28
LMR_DEPTH = 3
LMR_FROM = 3
LMR_PIECES = 8
GRAIN = 1
ETC_DEPTH = 5
#: ``tt_bound_above``'s answer when the table holds no such bound.
NO_VALUE = -(1 << 62)
LMR2 = 6
LMR2_DEPTH = 4
#: Layout of ``info`` (int64, out): score, PV length, deepest ply, finished (1) or stopped (0), best move index.
I_SCORE, I_PVLEN, I_SELDEPTH, I_DONE, I_BEST = range(5)
N_INFO = 5
#: ``ctl`` (int64, shared by the threads): ``ctl[0]`` non-zero asks every search to stop; ``ctl[1 + t]`` the
#: nodes thread ``t`` has searched (written every ``FLUSH`` nodes and at the end).
FLUSH = 255
HIST_SIZE = 2 * 64 * 64
#: The history array goes on past ``HIST_SIZE`` with the root's move ranks (one a move, generation order: the
#: stamp of the last time it became the root's best move, 0: never) and the last stamp given; the caller clears
#: them before each new root (``ROOT_SLOTS`` moves at most: no position has more).
ROOT_SLOTS = 1024
HISTORY_LEN = HIST_SIZE + ROOT_SLOTS + 1
STAGE_FULL, STAGE_NULL, STAGE_REDUCED, STAGE_PROBCUT = 0, 1, 2, 3
#: ProbCut (see ``search_kernel``): from this depth (``params[P_PROBCUT]``), below this many pieces, with
#: this margin (milli-men).
PC_DEPTH = 3
PC_PIECES = 32
PC_MARGIN = 900

_rng = np.random.default_rng(20261128)
#: Zobrist keys: ``ZOBRIST[0, bit]`` a white piece, ``[1, bit]`` a black piece, ``[2, bit]`` a king (any colour).
ZOBRIST = _rng.integers(0, 2**63, size=(3, 64), dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
ZOBRIST.flags.writeable = False
SIDE_KEY = np.uint64(0x9E3779B97F4A7C15)


def workspace():
    """One thread's move lists and capture stack (``uint64``)."""
    return np.empty(MOVES_OFF + (MAX_PLY + 1) * PLY_WORDS, dtype=np.uint64)


def key_of(white_bits: int, black_bits: int, kings: int, turn: bool) -> int:
    """The Zobrist key (a Python int) of a position given as bitboards, as ``full_key`` computes it."""
    k = int(SIDE_KEY) if turn else 0
    for layer, bb in enumerate((white_bits, black_bits, kings)):
        while bb:
            low = bb & -bb
            k ^= int(ZOBRIST[layer, low.bit_length() - 1])
            bb ^= low
    return k


@kernel
def xor_keys(bb, layer):
    """XOR of the Zobrist keys of the bits of ``bb`` in ``layer``."""
    k = ZERO
    while bb != ZERO:
        b = bb & (~bb + ONE)
        bb ^= b
        k ^= ZOBRIST[layer, lsb_index(b)]
    return k


@inline
def child_key(key, a, b, c, mover):
    """The Zobrist key after the move ``(a, b, c)`` (XOR triple) from the position of ``key``, ``mover`` the
    layer of the side that moves (0 white, 1 black)."""
    k = key ^ SIDE_KEY
    if a != ZERO:  # (the from and to squares: two bits, none when a king's capture ends where it began)
        k ^= ZOBRIST[mover, lsb_index(a)] ^ ZOBRIST[mover, msb_index(a)]
    if b != ZERO:
        k ^= xor_keys(b, 1 - mover)
    if c != ZERO:
        k ^= xor_keys(c, 2)
    return k


@kernel
def full_key(own, opp, kings, white):
    """The Zobrist key of a side-relative position."""
    if white:
        return xor_keys(own, 0) ^ xor_keys(opp, 1) ^ xor_keys(kings, 2) ^ SIDE_KEY
    return xor_keys(own, 1) ^ xor_keys(opp, 0) ^ xor_keys(kings, 2)


@kernel
def endgame_class(own, opp, kings):
    """16 or 5 when the material falls under the 16-move or 5-move rule (see ``position.py``), else 0."""
    for s in range(2):
        a = own if s == 0 else opp
        b = opp if s == 0 else own
        k1 = popcount(a & kings)
        m1 = popcount(a) - k1
        k2 = popcount(b & kings)
        m2 = popcount(b) - k2
        if m2 == 0 and k2 == 1 and k1 >= 1:
            if (k1 == 3 and m1 == 0) or (k1 == 2 and m1 == 1) or (k1 == 1 and m1 == 2):
                return 16
            if (k1 == 2 and m1 == 0) or (k1 == 1 and m1 == 1) or (k1 == 1 and m1 == 0):
                return 5
    return 0


@inline
def tt_score(data, ply):
    """The score of a table entry's data word at ``ply`` plies from the root (wins are stored relative to the
    node)."""
    tv = np.int64(data & np.uint64(0xFFFFFFFF)) - 2147483648
    if tv > WIN_BOUND:
        tv -= ply
    elif tv < -WIN_BOUND:
        tv += ply
    return tv


@inline
def tt_bound_above(tt, key, bmask, depth, ply):
    """The score (side to move at ``key``, ``ply`` plies from the root) that the table proves the position at
    most worth, searched to ``depth`` or deeper (an exact or upper bound), else ``NO_VALUE``."""
    slot = (key & bmask) * np.uint64(4)
    for e in range(2):
        w0 = tt[slot + np.uint64(2 * e)]
        w1 = tt[slot + np.uint64(2 * e + 1)]
        if w0 ^ w1 == key:
            td = np.int64((w1 >> np.uint64(32)) & np.uint64(255)) - 64
            bound = np.int64((w1 >> np.uint64(40)) & np.uint64(3))
            if td < depth or bound == LOWER:
                return NO_VALUE
            return tt_score(w1, ply)
    return NO_VALUE


@inline
def quiet_moves(own, opp, kings, white):
    """-1 when the side to move has a capture, else 1 when it has a move and 0 when it has none (without
    listing the moves: a quiet leaf needs no more)."""
    empty, men, kk, j0, j1, j2, j3 = first_jumps(own, opp, kings)
    if (j0 | j1 | j2 | j3) != ZERO:
        return -1
    if kk != ZERO:
        f0, f1, f2, f3 = king_fills(kk, empty)
        if has_jump(f0, f1, f2, f3, opp, empty):
            return -1
        if ((step(kk, 0) | step(kk, 1) | step(kk, 2) | step(kk, 3)) & empty) != ZERO:
            return 1
    return 1 if men_slides(men, empty, white) > 0 else 0


@kernel
def search_kernel(own, opp, kings, white, params, ctl, tt, wsa, killers, history, table, pw, game_keys, pv_out,
                  info):
    """Search a side-relative position to ``params[P_DEPTH]`` plies (layouts above). Writes the score
    (milli-men, side to move), the principal variation (``pv_out``: (a, b, c) triples) and the best root move's
    index (generation order) to ``info``; ``info[I_DONE]`` is 0 when ``ctl[0]`` or the node limit stopped it
    (depth 1 is never stopped, so there is always a move). -1 in ``info[I_DONE]``: a move list overflowed."""
    depth0 = params[P_DEPTH]
    exact = params[P_MODE] == EXACT
    pc_depth = params[P_PROBCUT]
    probcut = not exact and pc_depth > 0
    lmr_pv = params[P_LMR_PV] != 0
    lmr2 = params[P_LMR2]
    lmr2_depth = params[P_LMR2_DEPTH]
    lmr_depth = params[P_LMR_DEPTH]
    lmr_all = params[P_LMR_ALL] != 0
    tt_pv = params[P_TT_PV] != 0
    root_rank = params[P_ROOT_RANK] != 0
    root_lmr = params[P_ROOT_LMR] != 0
    threat = not exact and params[P_THREAT] != 0
    etc_depth = 0 if exact else params[P_ETC]
    lazy = 0 if exact else params[P_LAZY]
    sacs = params[P_SACS]
    lmr_from = params[P_LMR_FROM]
    grain = 1 if exact else max(params[P_GRAIN], 1)
    simp = 0 if exact else params[P_SIMPLIFY]
    offer_red = params[P_OFFER_RED]
    root_n = popcount(own | opp)
    node_limit = params[P_NODES]
    tid = params[P_THREAD]
    deadline = params[P_DEADLINE]
    nkeys = params[P_NKEYS]
    gen = np.uint64(params[P_GEN] & 255)
    ws = borrowed(wsa)
    nb = np.uint64(tt.shape[0] // 4)
    bmask = nb - ONE
    n1 = MAX_PLY + 1
    fo = np.empty(n1, dtype=np.uint64)
    fp = np.empty(n1, dtype=np.uint64)
    fk = np.empty(n1, dtype=np.uint64)
    fw = np.empty(n1, dtype=np.bool_)
    fkey = np.empty(n1, dtype=np.uint64)
    fd = np.zeros(n1, dtype=np.int64)
    fal = np.zeros(n1, dtype=np.int64)
    fbe = np.zeros(n1, dtype=np.int64)
    fal0 = np.zeros(n1, dtype=np.int64)
    fbest = np.zeros(n1, dtype=np.int64)
    fbidx = np.zeros(n1, dtype=np.int64)
    fi = np.zeros(n1, dtype=np.int64)
    fn = np.zeros(n1, dtype=np.int64)
    fcur = np.zeros(n1, dtype=np.int64)
    fstage = np.zeros(n1, dtype=np.int64)
    fcd = np.zeros(n1, dtype=np.int64)
    ftt = np.zeros(n1, dtype=np.int64)
    frev = np.zeros(n1, dtype=np.int64)
    fmat = np.zeros(n1, dtype=np.int64)
    fsp = np.full(n1, -INF, dtype=np.int64)
    sc = np.empty((n1, 1024), dtype=np.int64)
    ckeys = np.empty((n1, 1024), dtype=np.uint64)  # the children's keys of a node of depth >= 2
    pv = np.empty((n1, n1, 3), dtype=np.uint64)
    pvlen = np.zeros(n1, dtype=np.int64)
    fo[0] = own
    fp[0] = opp
    fk[0] = kings
    fw[0] = white
    fkey[0] = full_key(own, opp, kings, white)
    fd[0] = depth0
    fal[0] = params[P_ALPHA]
    fbe[0] = params[P_BETA]
    frev[0] = params[P_REV]
    fmat[0] = params[P_MAT]
    base_nodes = ctl[ix(1 + tid)]
    nodes = 0
    seld = 0
    stopped = False
    overflow = False
    ply = 0
    enter = True  # True: entering the node at ``ply``; False: a child of ``ply`` has returned ``val``
    order = False
    val = 0
    while True:
        if enter:
            u = ply
            nodes += 1
            if ply > seld:
                seld = ply
            if (nodes & FLUSH) == 0:
                ctl[ix(1 + tid)] = base_nodes + nodes
                if deadline > 0 and monotonic_ns() >= deadline:
                    ctl[0] = 1
            if depth0 > 1 and (ctl[0] != 0 or (node_limit > 0 and base_nodes + nodes >= node_limit)):
                stopped = True
                break
            o = fo[ix(u)]
            p = fp[ix(u)]
            k = fk[ix(u)]
            w = fw[ix(u)]
            wbase = MOVES_OFF + u * PLY_WORDS
            pvlen[ix(u)] = u
            d = fd[ix(u)]
            if ply > 0:
                draw = frev[ix(u)] >= 50
                if not draw and fmat[ix(u)] >= 10 and popcount(o | p) <= 4:
                    cls = endgame_class(o, p, k)
                    draw = (cls == 16 and fmat[ix(u)] >= 32) or (cls == 5 and fmat[ix(u)] >= 10)
                if not draw:
                    r = u - 2
                    lim = u - frev[ix(u)]
                    while r >= lim and r >= 0:
                        if fkey[ix(r)] == fkey[ix(u)]:
                            draw = True
                            break
                        r -= 2
                    while not draw and r >= lim and -r <= nkeys:
                        if game_keys[ix(nkeys + r)] == fkey[ix(u)]:
                            draw = True
                        r -= 2
                if draw and quiet_moves(o, p, k, w) != 0:  # (no move at all is a loss, not a draw)
                    enter = False
                    val = 0
                    continue
            # the table, before the moves are made: a cut-off needs no move list
            ttmv = -1
            if d > 0:
                slot = (fkey[ix(u)] & bmask) * np.uint64(4)
                cut = False
                for e in range(2):
                    w0 = tt[slot + np.uint64(2 * e)]
                    w1 = tt[slot + np.uint64(2 * e + 1)]
                    if w0 ^ w1 == fkey[ix(u)]:
                        ttmv = np.int64((w1 >> np.uint64(42)) & np.uint64(1023))
                        if not exact and ply > 0 and (tt_pv or fbe[ix(u)] - fal[ix(u)] == 1):
                            td = np.int64((w1 >> np.uint64(32)) & np.uint64(255)) - 64
                            if td >= d:
                                tv = tt_score(w1, ply)
                                bound = np.int64((w1 >> np.uint64(40)) & np.uint64(3))
                                if (bound == EXACT_BOUND or (bound == LOWER and tv >= fbe[ix(u)]) or
                                        (bound == UPPER and tv <= fal[ix(u)])):
                                    val = tv
                                    cut = True
                        break
                if cut:
                    enter = False
                    continue
            quiet = -1
            ext = False
            sac = False
            fsp[ix(u)] = -INF
            if d <= 0:  # a leaf: its move list is needed only when it has a capture
                quiet = quiet_moves(o, p, k, w)
                if quiet > 0 and (threat and d == 0 or sacs > 0 and d > -sacs):
                    threatened = quiet_moves(p, o, k, not w) < 0
                    # at the horizon, a quiet position whose opponent threatens a capture: its moves are
                    # searched (to depth -1: captures only after them), so that a threat is parried or seen to
                    # win material
                    if threat and d == 0 and threatened:
                        quiet = -1
                        ext = True
                    # a quiet position without kings, not under threat: the side to move may stand pat (its
                    # evaluation) or offer a man (a sacrifice: a move after which the opponent must capture),
                    # so that shots at the horizon are seen
                    elif (sacs > 0 and d > -sacs and not threatened and k == ZERO and ply < MAX_PLY - 3):
                        sp = evaluate(o, p, k, w, table, pw)
                        if simp != 0:
                            sp += simp * (root_n - popcount(o | p)) * (1 if w == white else -1)
                        if grain > 1:
                            sp = (sp // grain) * grain if sp >= 0 else -((-sp) // grain) * grain
                        if sp < fbe[ix(u)]:
                            m = perft_gen(o, p, k, w, ws, wbase)
                            quiet = 0
                            for i in range(m):
                                j = np.uint64(wbase + 3 * i)
                                a = ws[j]
                                if ws[j + np.uint64(2)] == ZERO and quiet_moves(p, o ^ a, k, not w) < 0:
                                    jq = np.uint64(wbase + 3 * quiet)
                                    ws[jq] = a
                                    ws[jq + ONE] = ZERO
                                    ws[jq + np.uint64(2)] = ZERO
                                    quiet += 1
                            if quiet > 0:
                                sac = True
                                fsp[ix(u)] = sp
                                if sp > fal[ix(u)]:
                                    fal[ix(u)] = sp
                        if not sac:
                            enter = False
                            val = sp
                            continue
            n = quiet if sac else (perft_gen(o, p, k, w, ws, wbase) if quiet < 0 else quiet)
            if n < 0:
                overflow = True
                break
            enter = False
            if n == 0:
                val = -(WIN - ply)
                continue
            capture = quiet < 0 and ws[ix(wbase + 1)] != ZERO
            if (d <= 0 and not capture and not ext and not sac) or ply >= MAX_PLY - 1:
                if lazy > 0 and k == ZERO and (abs(popcount(o) - popcount(p)) * table[popcount(o | p), 0] // PHASES
                                                >= lazy):
                    mat = (popcount(o) - popcount(p)) * table[popcount(o | p), 0] // PHASES
                    if mat - lazy >= fbe[ix(u)]:
                        val = mat - lazy
                    elif mat + lazy <= fal[ix(u)]:
                        val = mat + lazy
                    else:
                        val = evaluate(o, p, k, w, table, pw)
                else:
                    val = evaluate(o, p, k, w, table, pw)
                if simp != 0:
                    val += simp * (root_n - popcount(o | p)) * (1 if w == white else -1)
                if grain > 1:
                    val = (val // grain) * grain if val >= 0 else -((-val) // grain) * grain
                continue
            ttidx = ttmv if ttmv < n else -1
            if d >= 2:  # the children's keys and table buckets, asked for now: their cache misses overlap
                mover = 0 if w else 1
                for i in range(n):
                    j = np.uint64(wbase + 3 * i)
                    ck = child_key(fkey[ix(u)], ws[j], ws[j + ONE], ws[j + np.uint64(2)], mover)
                    ckeys[ix(u), ix(i)] = ck
                    prefetch(tt, (ck & bmask) * np.uint64(4))
            # enhanced transposition cut-offs: in a non-PV node, a child whose table entry proves it fails
            # low for its side (the node beats beta) cuts the node before any move is searched
            if etc_depth > 0 and ply > 0 and d >= etc_depth and n > 1 and fbe[ix(u)] - fal[ix(u)] == 1:
                mover = 0 if w else 1
                for i in range(n):
                    j = np.uint64(wbase + 3 * i)
                    ck = ckeys[ix(u), ix(i)] if d >= 2 else child_key(fkey[ix(u)], ws[j], ws[j + ONE],
                                                                       ws[j + np.uint64(2)], mover)
                    tv = tt_bound_above(tt, ck, bmask, d - 1, ply + 1)
                    if tv != NO_VALUE and -tv >= fbe[ix(u)]:
                        val = -tv
                        ttidx = -2
                        break
                if ttidx == -2:
                    continue
            fn[ix(u)] = n
            ftt[ix(u)] = ttidx
            fal0[ix(u)] = fal[ix(u)]
            # bad-move pruning (ProbCut): a non-PV node whose position, searched to half the depth, beats beta
            # by a margin is cut at once. The half-depth search runs on a copy of the node one ply up the stack
            # (the same side to move: its value comes back without negation)
            if (probcut and ply > 0 and d >= pc_depth and fbe[ix(u)] - fal[ix(u)] == 1 and not capture and
                    popcount(o | p) < PC_PIECES and abs(fbe[ix(u)]) < WIN_BOUND - PC_MARGIN):
                v = u + 1
                fo[ix(v)] = o
                fp[ix(v)] = p
                fk[ix(v)] = k
                fw[ix(v)] = w
                fkey[ix(v)] = fkey[ix(u)]
                frev[ix(v)] = frev[ix(u)]
                fmat[ix(v)] = fmat[ix(u)]
                fd[ix(v)] = d // 2
                fal[ix(v)] = fbe[ix(u)] + PC_MARGIN - 1
                fbe[ix(v)] = fbe[ix(u)] + PC_MARGIN
                fstage[ix(u)] = STAGE_PROBCUT
                ply = v
                enter = True
                continue
            order = True
        else:
            if ply == 0:
                break
            ply -= 1
            u = ply
            v = -val
            st = fstage[ix(u)]
            order = st == STAGE_PROBCUT
            if order and val >= fbe[ix(u)] + PC_MARGIN:
                val = fbe[ix(u)]  # cut: the node fails high (fail-hard)
                continue
            if st == STAGE_REDUCED and v > fal[ix(u)]:  # a reduced move beat alpha: again at full depth
                fstage[ix(u)] = STAGE_NULL
                fd[ix(u + 1)] = fcd[ix(u)]
                fal[ix(u + 1)] = -fal[ix(u)] - 1
                fbe[ix(u + 1)] = -fal[ix(u)]
                ply += 1
                enter = True
                continue
            if st == STAGE_NULL and v > fal[ix(u)] and v < fbe[ix(u)]:  # beat the null window: the full window
                fstage[ix(u)] = STAGE_FULL
                fd[ix(u + 1)] = fcd[ix(u)]
                fal[ix(u + 1)] = -fbe[ix(u)]
                fbe[ix(u + 1)] = -fal[ix(u)]
                ply += 1
                enter = True
                continue
            if not order and v > fbest[ix(u)]:
                fbest[ix(u)] = v
                fbidx[ix(u)] = fcur[ix(u)]
                if u == 0:
                    history[HISTORY_LEN - 1] += 1
                    history[ix(HIST_SIZE + fcur[ix(u)])] = history[HISTORY_LEN - 1]
                if v > fal[ix(u)]:
                    fal[ix(u)] = v
                    j = np.uint64(MOVES_OFF + u * PLY_WORDS + 3 * fcur[ix(u)])
                    pv[ix(u), ix(u), 0] = ws[j]
                    pv[ix(u), ix(u), 1] = ws[j + ONE]
                    pv[ix(u), ix(u), 2] = ws[j + np.uint64(2)]
                    for q in range(u + 1, pvlen[ix(u + 1)]):
                        pv[ix(u), ix(q), 0] = pv[ix(u + 1), ix(q), 0]
                        pv[ix(u), ix(q), 1] = pv[ix(u + 1), ix(q), 1]
                        pv[ix(u), ix(q), 2] = pv[ix(u + 1), ix(q), 2]
                    pvlen[ix(u)] = max(pvlen[ix(u + 1)], u + 1)
                    if v >= fbe[ix(u)]:
                        fi[ix(u)] = fn[ix(u)]  # cut-off: no more moves
                        if ws[j + ONE] == ZERO and fd[ix(u)] > 0:
                            a = ws[j]
                            if killers[ix(2 * u)] != a:
                                killers[ix(2 * u + 1)] = killers[ix(2 * u)]
                                killers[ix(2 * u)] = a
                            if fd[ix(u)] > 0:
                                cw = 0 if fw[ix(u)] else 1
                                h = cw * 4096 + lsb_index(a) * 64 + msb_index(a)
                                history[ix(h)] += fd[ix(u)] * fd[ix(u)]
                                if history[ix(h)] > (1 << 28):
                                    for q in range(HIST_SIZE):
                                        history[ix(q)] >>= 1
        u = ply
        if order:  # move ordering scores of the node's moves, before its first move
            n = fn[ix(u)]
            wbase = MOVES_OFF + u * PLY_WORDS
            ttidx = ftt[ix(u)]
            k = fk[ix(u)]
            capture = ws[ix(wbase + 1)] != ZERO
            cw = 0 if fw[ix(u)] else 1
            k1 = killers[ix(2 * u)]
            k2 = killers[ix(2 * u + 1)]
            for i in range(n):
                j = np.uint64(wbase + 3 * i)
                a = ws[j]
                if i == ttidx:
                    s = 1 << 60
                elif capture:
                    s = popcount(ws[j + ONE] & k) * 1000 + popcount(ws[j + np.uint64(2)] & a)
                elif a == k1:
                    s = 1 << 32
                elif a == k2:
                    s = 1 << 31
                else:
                    s = history[ix(cw * 4096 + lsb_index(a) * 64 + msb_index(a))]
                    if ws[j + np.uint64(2)] & a & ~k != ZERO:
                        s += 1 << 33  # crowning
                if u == 0 and root_rank and i != ttidx:
                    s += history[ix(HIST_SIZE + i)] << 34  # (the newest best first, then the one before, ...)
                sc[ix(u), ix(i)] = s
            fi[ix(u)] = 0
            fbest[ix(u)] = fsp[ix(u)]  # (-INF but after a stand pat)
            fbidx[ix(u)] = -1
        # pick the next move of the node at ``ply`` (or finish it)
        if fi[ix(u)] >= fn[ix(u)]:
            val = fbest[ix(u)]
            d = fd[ix(u)]
            if d > 0 and not (u == 0 and fbidx[ix(u)] < 0):
                bound = UPPER if val <= fal0[ix(u)] else (LOWER if val >= fbe[ix(u)] else EXACT_BOUND)
                sv = val
                if sv > WIN_BOUND:
                    sv += u
                elif sv < -WIN_BOUND:
                    sv -= u
                data = (np.uint64(sv + 2147483648) & np.uint64(0xFFFFFFFF)) | (np.uint64(d + 64) << np.uint64(32)) | \
                    (np.uint64(bound) << np.uint64(40)) | (np.uint64(max(fbidx[ix(u)], 0)) << np.uint64(42)) | \
                    (gen << np.uint64(52))
                slot = (fkey[ix(u)] & bmask) * np.uint64(4)
                old = tt[slot + ONE]
                od = np.int64((old >> np.uint64(32)) & np.uint64(255)) - 64
                og = (old >> np.uint64(52)) & np.uint64(255)
                # (an entry already as it would be written is left alone: threads searching the same nodes
                # would otherwise take the cache line from each other at every store)
                if tt[slot] ^ old == fkey[ix(u)] or d >= od or og != gen:
                    if old != data or tt[slot] != fkey[ix(u)] ^ data:
                        tt[slot] = fkey[ix(u)] ^ data
                        tt[slot + ONE] = data
                elif tt[slot + np.uint64(3)] != data or tt[slot + np.uint64(2)] != fkey[ix(u)] ^ data:
                    tt[slot + np.uint64(2)] = fkey[ix(u)] ^ data
                    tt[slot + np.uint64(3)] = data
            enter = False
            continue
        n = fn[ix(u)]
        bi = 0
        bs = sc[ix(u), 0]
        for i in range(1, n):
            if sc[ix(u), ix(i)] > bs:
                bs = sc[ix(u), ix(i)]
                bi = i
        sc[ix(u), ix(bi)] = -(1 << 60)
        i = fi[ix(u)]
        fi[ix(u)] = i + 1
        fcur[ix(u)] = bi
        j = np.uint64(MOVES_OFF + u * PLY_WORDS + 3 * bi)
        a = ws[j]
        b = ws[j + ONE]
        c = ws[j + np.uint64(2)]
        o = fo[ix(u)]
        p = fp[ix(u)]
        k = fk[ix(u)]
        w = fw[ix(u)]
        v = u + 1
        fo[ix(v)] = p ^ b
        fp[ix(v)] = o ^ a
        fk[ix(v)] = k ^ c
        fw[ix(v)] = not w
        mover = 0 if w else 1
        fkey[ix(v)] = ckeys[ix(u), ix(bi)] if fd[ix(u)] >= 2 else child_key(fkey[ix(u)], a, b, c, mover)
        man = (a & o & ~k) != ZERO
        frev[ix(v)] = 0 if (b != ZERO or man) else frev[ix(u)] + 1
        fmat[ix(v)] = 0 if (b != ZERO or (man and (c & a) != ZERO)) else fmat[ix(u)] + 1
        cd = fd[ix(u)] - 1
        if not exact and n == 1 and fd[ix(u)] > 0:
            cd += 1
        fcd[ix(u)] = cd
        red = 0
        if (not exact and i >= (LMR_FROM if fbe[ix(u)] - fal[ix(u)] > 1 else lmr_from) and fd[ix(u)] >= lmr_depth and
                (lmr_pv or fbe[ix(u)] - fal[ix(u)] == 1) and
                (u > 0 or root_lmr) and
                ((b == ZERO and bs < (1 << 31)) or (lmr_all and popcount(o | p) >= LMR_PIECES))):
            red = 2 if (i >= lmr2 and fd[ix(u)] >= lmr2_depth) else 1
            if red > offer_red and quiet_moves(fo[ix(v)], fp[ix(v)], fk[ix(v)], not w) < 0:
                red = offer_red  # an offer (the opponent must capture): a shot may begin with it
        if i == 0:
            fstage[ix(u)] = STAGE_FULL
            fal[ix(v)] = -fbe[ix(u)]
            fbe[ix(v)] = -fal[ix(u)]
            fd[ix(v)] = cd
        else:
            fstage[ix(u)] = STAGE_REDUCED if red > 0 else STAGE_NULL
            fal[ix(v)] = -fal[ix(u)] - 1
            fbe[ix(v)] = -fal[ix(u)]
            fd[ix(v)] = cd - red
        ply = v
        enter = True
    ctl[ix(1 + tid)] = base_nodes + nodes
    info[I_SCORE] = val if not stopped else fbest[0]
    info[I_SELDEPTH] = seld
    info[I_DONE] = -1 if overflow else (0 if stopped else 1)
    info[I_BEST] = fbidx[0]
    m = pvlen[0]
    info[I_PVLEN] = m
    for q in range(m):
        pv_out[ix(3 * q)] = pv[0, ix(q), 0]
        pv_out[ix(3 * q + 1)] = pv[0, ix(q), 1]
        pv_out[ix(3 * q + 2)] = pv[0, ix(q), 2]
    return nodes
