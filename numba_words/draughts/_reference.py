"""The plain-Python reference: a deliberately simple international-draughts move generator (a dict of
squares, recursion), the truth the tests compare the kernels with and the baseline of the tour and ``bench``.

No bitboards and no code shared with the rest of ``numba_words.draughts`` (it imports nothing from it):
squares 1-50 are turned into (row, column) with row 0 on Black's side, and every rule is written out the
slow, obvious way. The kernel must agree with this module move for move.

A position is ``(pieces, white_to_move)`` where ``pieces`` maps square -> one of ``'w' 'W' 'b' 'B'``
(lower case men, upper case kings). A move is ``(from, to, frozenset(captured))``.
"""
from __future__ import annotations

DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def rc(square):
    r = (square - 1) // 5
    c = 2 * ((square - 1) % 5) + (1 if r % 2 == 0 else 0)
    return r, c


def sq(r, c):
    if 0 <= r < 10 and 0 <= c < 10 and (r + c) % 2 == 1:
        return r * 5 + c // 2 + 1
    return None


def parse_fen(fen):
    turn, *lists = fen.split(":")
    pieces = {}
    for lst in lists:
        colour, body = lst[0].lower(), lst[1:]
        for tok in filter(None, body.split(",")):
            king = tok.startswith("K")
            tok = tok.lstrip("K")
            lo, _, hi = tok.partition("-")
            for s in range(int(lo), int(hi or lo) + 1):
                pieces[s] = colour.upper() if king else colour
    return pieces, turn == "W"


def mine(piece, white):
    return piece is not None and (piece in "wW") == white


def captures(pieces, white):
    """Every complete capture sequence as (from, to, captured tuple in order)."""
    return [(f, path[-1], taken) for f, path, taken in capture_paths(pieces, white)]


def capture_paths(pieces, white):
    """Every complete capture sequence as (from, landing squares tuple, captured tuple in order): one entry
    per route, so a king that may land on several squares between two captures gives several entries."""
    out = []
    for start, piece in pieces.items():
        if not mine(piece, white):
            continue
        king = piece.isupper()
        board = dict(pieces)
        del board[start]  # the moving piece has left its square

        def extend(square, taken, path):
            r, c = rc(square)
            went_on = False
            for dr, dc in DIAGONALS:
                k = 1
                if king:
                    while sq(r + k * dr, c + k * dc) is not None and board.get(sq(r + k * dr, c + k * dc)) is None:
                        k += 1
                victim = sq(r + k * dr, c + k * dc)
                if victim is None or victim in taken or not mine(board.get(victim), not white):
                    continue
                j = k + 1
                while True:
                    land = sq(r + j * dr, c + j * dc)
                    if land is None or board.get(land) is not None:
                        break
                    went_on = True
                    extend(land, taken + (victim,), path + (land,))
                    if not king:
                        break
                    j += 1
            if not went_on and taken:
                out.append((start, path, taken))

        extend(start, (), ())
    return out


def slides(pieces, white):
    out = []
    for start, piece in pieces.items():
        if not mine(piece, white):
            continue
        r, c = rc(start)
        if piece.isupper():
            for dr, dc in DIAGONALS:
                k = 1
                while sq(r + k * dr, c + k * dc) is not None and pieces.get(sq(r + k * dr, c + k * dc)) is None:
                    out.append((start, sq(r + k * dr, c + k * dc), ()))
                    k += 1
        else:
            dr = -1 if white else 1
            for dc in (-1, 1):
                t = sq(r + dr, c + dc)
                if t is not None and pieces.get(t) is None:
                    out.append((start, t, ()))
    return out


def legal_moves(pieces, white):
    """Set of (from, to, frozenset(captured)): maximal captures if any capture exists, else slides."""
    caps = captures(pieces, white)
    if caps:
        most = max(len(t) for _, _, t in caps)
        return {(f, t, frozenset(x)) for f, t, x in caps if len(x) == most}
    return {(f, t, frozenset()) for f, t, _ in slides(pieces, white)}


def play(pieces, white, move):
    f, t, taken = move
    new = dict(pieces)
    piece = new.pop(f)
    for x in taken:
        del new[x]
    if piece == "w" and t <= 5:
        piece = "W"
    if piece == "b" and t >= 46:
        piece = "B"
    new[t] = piece
    return new


def perft(pieces, white, depth):
    if depth == 0:
        return 1
    moves = legal_moves(pieces, white)
    if depth == 1:
        return len(moves)
    return sum(perft(play(pieces, white, m), not white, depth - 1) for m in moves)


def fen(pieces, white):
    w = ",".join(("K" if p == "W" else "") + str(s) for s, p in sorted(pieces.items()) if p in "wW")
    b = ",".join(("K" if p == "B" else "") + str(s) for s, p in sorted(pieces.items()) if p in "bB")
    return f"{'W' if white else 'B'}:W{w}:B{b}"


# ---- evaluation and game-tree search, written out the slow way (the truth for the search kernels) ----------
#: The evaluation terms in the order of the weights (the kernel's ``_eval.TERMS``).
EVAL_TERMS = ("men", "kings", "advance", "centre", "balance", "back", "outpost", "blocked", "mobility", "runaway",
              "kingmob", "diagonal", "edge", "golden", "wings", "late", "forklock", "chainlock", "winglock",
              "weakpost", "classic", "develop", "kingsq", "crown", "freepath")
#: Configurations on White's squares (Black's are 51 - s): term, own men on all of, opposing men on all of,
#: squares without a man, own men on at least one of (or nothing).
CONFIGS = [("forklock", {26, 27, 31, 36}, {16, 18, 22}, {23, 28}, None),
           ("forklock", {26, 27, 31, 36}, {16, 18, 23}, {22, 28}, None),
           ("forklock", {26, 27, 31, 36}, {16, 18, 28}, {22, 23}, None),
           ("chainlock", {28}, {22, 23}, {27, 29}, None),
           ("chainlock", {29}, {23, 24}, {28, 30}, None),
           ("winglock", {25}, {20}, set(), {30, 35}),
           ("winglock", {26, 28}, {11, 17}, {6, 22}, None),
           ("winglock", {26}, {16, 21}, set(), {27, 32})]
#: Outposts on White's squares and the squares behind that support them.
OUTPOSTS = {22: {27, 28, 32}, 24: {29, 30, 34}}
DOUBLE_CORNER_LINES = {1, 7, 12, 18, 23, 29, 34, 40, 45, 6, 11, 17, 22, 28, 33, 39, 44, 50}
CENTRE_SQUARES = {18, 19, 22, 23, 24, 27, 28, 29, 32, 33}
LONG_DIAGONAL = {5, 10, 14, 19, 23, 28, 32, 37, 41, 46}
WIN = 100_000_000
MAX_PLY = 128


def side_terms(pieces, white):
    """One side's evaluation terms (``EVAL_TERMS`` order) as a list of ints."""
    t = dict.fromkeys(EVAL_TERMS, 0)
    ahead = -1 if white else 1  # row step towards the crowning row
    left = right = left_wing = right_wing = 0
    for s, p in pieces.items():
        if not mine(p, white):
            continue
        r, c = rc(s)
        if p.isupper():
            t["kings"] += 1
            t["diagonal"] += s in LONG_DIAGONAL
            t["kingsq"] += s in DOUBLE_CORNER_LINES
            continue
        t["men"] += 1
        adv = 9 - r if white else r
        t["advance"] += adv
        t["centre"] += s in CENTRE_SQUARES
        if c <= 4:
            left += 1
        else:
            right += 1
        left_wing += c <= 2
        right_wing += c >= 7
        t["golden"] += s == (48 if white else 3)
        t["back"] += adv == 0
        t["edge"] += c in (0, 9)
        fwd = [sq(r + ahead, c + dc) for dc in (-1, 1)]
        free = [f for f in fwd if f is not None and f not in pieces]
        t["mobility"] += len(free)
        t["blocked"] += not free
        if adv >= 4:
            behind = [sq(r - ahead, c + dc) for dc in (-1, 1)]
            t["outpost"] += all(b is not None and mine(pieces.get(b), white) for b in behind)
            cone = [x for x in pieces if mine(pieces[x], not white)
                    and (rc(x)[0] - r) * ahead > 0 and abs(rc(x)[1] - c) <= (rc(x)[0] - r) * ahead]
            t["runaway"] += 0 if cone else adv - 3
        if adv == 8:
            t["crown"] += bool(free)
    t["balance"] = -abs(left - right)
    config_terms(pieces, white, t)
    t["wings"] = -abs(left_wing - right_wing)
    if len(pieces) <= 16:
        t["late"] = t["advance"]
    for dr, dc in DIAGONALS:
        reach = set()
        for s, p in pieces.items():
            if mine(p, white) and p.isupper():
                r, c = rc(s)
                k = 1
                while sq(r + k * dr, c + k * dc) is not None and sq(r + k * dr, c + k * dc) not in pieces:
                    reach.add(sq(r + k * dr, c + k * dc))
                    k += 1
        t["kingmob"] += len(reach)
    return [t[n] for n in EVAL_TERMS]


def config_terms(pieces, white, t):
    """Add the side's locks, weak outposts and rear development to ``t``, read on White's squares (a Black
    square s is looked up as 51 - s)."""
    def man(s, of_white):
        return pieces.get(s if white else 51 - s) == ("w" if of_white else "b")

    for term, own, opp, free, any_own in CONFIGS:
        if (all(man(s, white) for s in own) and all(man(s, not white) for s in opp)
                and not any(man(s, True) or man(s, False) for s in free)
                and (any_own is None or any(man(s, white) for s in any_own))):
            t[term] += 1
    for post, support in OUTPOSTS.items():
        if not man(post, white):
            continue
        r, c = rc(post)
        zone = {k: [x for x in range(1, 51) if abs(rc(x)[1] - c) <= abs(rc(x)[0] - r) == k] for k in (1, 2, 3)}
        attackers = sum(man(x, not white) for k in zone for x in zone[k] if rc(x)[0] < r)
        defenders = sum(man(x, white) for k in zone for x in zone[k] if rc(x)[0] > r)
        if sum(man(x, white) for x in support) < 2 or attackers > defenders:
            t["weakpost"] += 1
    if len(pieces) > 16:
        t["develop"] += (sum(man(x, white) for x in (36, 45)) - sum(man(x, white) for x in (44, 46))
                         - 2 * sum(man(x, white) for x in (41, 50)))


def classic(pieces, white, lead):
    """The side's classical-centre value: men on its 28 and 32 (White's squares; Black's 23 and 19) give 2 and 2
    more for each man on 27 and 33 (24 and 18), less ``lead`` when positive; 0 without them."""
    def man(s):
        return pieces.get(s if white else 51 - s) == ("w" if white else "b")

    if not (man(28) and man(32)):
        return 0
    return 2 + 2 * man(27) + 2 * man(33) - max(lead, 0)


def free_path(pieces, white, to_move):
    """The side's men two and three moves from crowning (4 and 1 each) that reach an empty crowning square by
    a way no opposing man can bar in time; 0 when the opponent has a king. ``reach[m]``: the squares the
    opponent's men stand on or reach in ``m`` forward moves (ignoring what is in their way); its danger zone
    adds their diagonal neighbours. A square of the way, but the crowning one, must be outside the danger zone
    of the opponent's moves made before the man leaves it, less the one it makes after (the man's side to move:
    ``to_move``); with the opponent to move, the man's own square must be out of reach of its men at once."""
    if any(p == ("B" if white else "W") for p in pieces.values()):
        return 0
    ahead = -1 if white else 1

    def around(squares, steps):
        out = set(squares)
        for x in squares:
            r, c = rc(x)
            out |= {sq(r + dr, c + dc) for dr, dc in steps} - {None}
        return out

    reach = [{s for s, p in pieces.items() if p == ("b" if white else "w")}]
    for _ in range(2):
        reach.append(around(reach[-1], [(-ahead, -1), (-ahead, 1)]))
    danger = [around(r, DIAGONALS) for r in reach]
    lag = 0 if to_move else 1

    def way(s, j, n):
        """Whether the man on ``s``, ``j`` steps along a way of ``n``, gets through."""
        if j == n:
            return True
        r, c = rc(s)
        for dc in (-1, 1):
            t = sq(r + ahead, c + dc)
            if t is None or t in pieces or (j + 1 < n and t in danger[j + lag]):
                continue
            if way(t, j + 1, n):
                return True
        return False

    count = 0
    for s, p in pieces.items():
        if p != ("w" if white else "b"):
            continue
        n = rc(s)[0] if white else 9 - rc(s)[0]  # moves to the crowning row
        if n in (2, 3) and (to_move or s not in danger[0]) and way(s, 0, n):
            count += 4 if n == 2 else 1
    return count


def eval_terms(pieces, white):
    """The side to move's terms minus the opponent's."""
    out = [a - b for a, b in zip(side_terms(pieces, white), side_terms(pieces, not white))]
    i = EVAL_TERMS.index
    lead = out[i("advance")]
    out[i("classic")] = classic(pieces, white, lead) - classic(pieces, not white, -lead)
    out[i("freepath")] = free_path(pieces, white, True) - free_path(pieces, not white, False)
    return out


def windows(pieces, white):
    """The configuration number of each of the 16 windows (4x4 blocks at columns and rows 0, 2, 4, 6, in
    that order, rows first) from the side to move's view: the board turned for Black, each window's eight
    playable squares in board order, digit 1 a man of the side to move, 2 an opponent's man (kings: 0)."""
    seen = {(s if white else 51 - s): p for s, p in pieces.items() if p.islower()}
    out = []
    for y in (0, 2, 4, 6):
        for x in (0, 2, 4, 6):
            squares = sorted((s for s in range(1, 51) if x <= rc(s)[1] < x + 4 and y <= rc(s)[0] < y + 4), key=rc)
            out.append(sum((0 if s not in seen else 1 if mine(seen[s], white) else 2) * 3 ** i
                           for i, s in enumerate(squares)))
    return out


def evaluate(pieces, white, weights, patterns=None):
    """Score for the side to move: the sums of integer ``weights`` (two rows: the opening's and the endgame's)
    times ``eval_terms``, blended by the pieces on the board (the opening's alone from 40, the endgame's alone
    at 8 or fewer, in 32nds between; toward 0), plus the window values ``patterns[i][windows[i]]`` (an opening's
    and an endgame's, blended the same way), halved when both sides have kings, divided by 8 when the side it
    favours has at most three pieces and the other side has a king (both toward 0)."""
    f = eval_terms(pieces, white)
    opening = sum(w * x for w, x in zip(weights[0], f))
    endgame = sum(w * x for w, x in zip(weights[1], f))
    p = min(max(len(pieces) - 8, 0), 32)
    blend = opening * p + endgame * (32 - p)
    raw = blend // 32 if blend >= 0 else -((-blend) // 32)
    if patterns is not None:
        conf = list(enumerate(windows(pieces, white)))
        y = (sum(int(patterns[i][c][0]) for i, c in conf) * p +
             sum(int(patterns[i][c][1]) for i, c in conf) * (32 - p))
        raw += y // 32 if y >= 0 else -((-y) // 32)
    if {"W", "B"} <= set(pieces.values()):
        raw = raw // 2 if raw > 0 else -((-raw) // 2)
    if raw == 0:
        return 0
    strong = white if raw > 0 else not white
    n_strong = sum(1 for p in pieces.values() if mine(p, strong))
    weak_king = any(mine(p, not strong) and p.isupper() for p in pieces.values())
    if n_strong <= 3 and weak_king:
        return raw // 8 if raw > 0 else -((-raw) // 8)
    return raw


def draw_class(pieces):
    """16 or 5 when the material falls under the 16-move or 5-move rule, else 0."""
    for side in (True, False):
        k1 = sum(1 for p in pieces.values() if mine(p, side) and p.isupper())
        m1 = sum(1 for p in pieces.values() if mine(p, side) and p.islower())
        k2 = sum(1 for p in pieces.values() if mine(p, not side) and p.isupper())
        m2 = sum(1 for p in pieces.values() if mine(p, not side) and p.islower())
        if m2 == 0 and k2 == 1 and k1 >= 1:
            if (k1, m1) in ((3, 0), (2, 1), (1, 2)):
                return 16
            if (k1, m1) in ((2, 0), (1, 1), (1, 0)):
                return 5
    return 0


def negamax(pieces, white, depth, weights, history=(), rev=0, mat=0, ply=0, sacs=0, patterns=None):
    """Plain minimax value (negamax, no pruning) of a position ``depth`` plies deep, as the search kernel
    defines it: no move is a loss (``-(WIN - ply)``); below the root, the position seen before with the same
    side to move since the last man move or capture (``history``: earlier positions, oldest first, as
    ``(frozenset(pieces.items()), white)``), ``rev >= 50`` plies of king moves, or the 16/5-move rules run out
    (``mat`` plies since the material changed) is a draw (0); at ``depth <= 0`` a position without a capture is
    evaluated, one with captures plays them all (a capture is compulsory). With ``sacs``, a position without
    a capture at ``0 >= depth > -sacs`` (no king on the board, the opponent with no capture were it to move,
    ``ply < MAX_PLY - 3``) is worth the best of its evaluation and its sacrifices: men's moves (not crowning)
    after which the opponent has a capture. ``patterns``: the evaluation's window values."""
    moves = legal_moves(pieces, white)
    if not moves:
        return -(WIN - ply)
    key = (frozenset(pieces.items()), white)
    if ply > 0:
        cls = draw_class(pieces)
        if rev >= 50 or (cls == 16 and mat >= 32) or (cls == 5 and mat >= 10):
            return 0
        back = history[len(history) - rev:] if rev else ()
        if any(back[i] == key for i in range(len(back) - 2, -1, -2)):
            return 0
    capture = any(m[2] for m in moves)
    if ply >= MAX_PLY - 1:
        return evaluate(pieces, white, weights, patterns)
    if depth <= 0 and not capture:
        stand = evaluate(pieces, white, weights, patterns)
        if not (depth > -sacs and ply < MAX_PLY - 3 and all(p.islower() for p in pieces.values())
                and not captures(pieces, not white)):
            return stand
        offers = []
        for m in moves:
            child = play(pieces, white, m)
            if child[m[1]].islower() and captures(child, not white):
                offers.append(m)
        moves = offers
        best = stand
    else:
        best = -WIN - 1
    for m in moves:
        f, t, taken = m
        man = pieces[f].islower()
        child = play(pieces, white, m)
        crowned = man and child[t].isupper()
        c_rev = 0 if (taken or man) else rev + 1
        c_mat = 0 if (taken or crowned) else mat + 1
        v = -negamax(child, not white, depth - 1, weights, history + (key,), c_rev, c_mat, ply + 1, sacs,
                     patterns)
        best = max(best, v)
    return best
