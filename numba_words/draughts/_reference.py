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
