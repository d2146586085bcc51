"""A deliberately simple crossword-game move generator in plain Python: the truth the kernels must match.

No bitboards, no tries, no cross-check masks: try every empty start square and both directions, every
number of tiles, every distinct ordering of rack tiles (every letter for a blank), then check every formed
word against a ``set`` and score it from the rules. The only shortcut is geometric: a placement that does not
connect (or cover the centre on the empty board) is skipped before its letters are tried.

Board: list of 15 lists of 15 entries, ``None`` for empty, an upper-case letter for a tile, lower case for a
blank on the board. Rack: string, ``?`` = blank. Output: set of ``"COORD WORD SCORE"`` strings in the
reference-file notation (played-through letters in parentheses, blanks lower case).
"""
from __future__ import annotations

from itertools import permutations

from ._tables import COLS
from ._tables import SIZE as N


def premiums(layout, centre_word_mult):
    lm = [[1] * N for _ in range(N)]
    wm = [[1] * N for _ in range(N)]
    for r in range(N):
        for c in range(N):
            ch = layout[r][c]
            if ch == "l":
                lm[r][c] = 2
            elif ch == "L":
                lm[r][c] = 3
            elif ch == "w":
                wm[r][c] = 2
            elif ch == "W":
                wm[r][c] = 3
            elif ch == "*":
                wm[r][c] = centre_word_mult
    return lm, wm


def _run(board, new, r, c, dr, dc):
    """The maximal run of tiles through (r, c) along (dr, dc): list of (r, c, letter, is_blank, is_new)."""
    def at(rr, cc):
        if not (0 <= rr < N and 0 <= cc < N):
            return None
        if (rr, cc) in new:
            return new[(rr, cc)]
        return board[rr][cc]
    while at(r - dr, c - dc) is not None:
        r, c = r - dr, c - dc
    out = []
    while at(r, c) is not None:
        t = at(r, c)
        is_new = (r, c) in new
        if is_new:
            letter, blank = t
        else:
            letter, blank = t.upper(), t.islower()
        out.append((r, c, letter, blank, is_new))
        r, c = r + dr, c + dc
    return out


def _score(run, values, lm, wm):
    total = 0
    mult = 1
    for r, c, letter, blank, is_new in run:
        v = 0 if blank else values[letter]
        if is_new:
            v *= lm[r][c]
            mult *= wm[r][c]
        total += v
    return total * mult


def reference_plays(board, rack, words, *, values, layout, alphabet, bingo=50, rack_size=7,
                    centre_word_mult=2):
    lm, wm = premiums(layout, centre_word_mult)
    empty = all(board[r][c] is None for r in range(N) for c in range(N))
    out = set()
    for d in ((0,) if empty else (0, 1)):
        dr, dc = (1, 0) if d else (0, 1)
        for r0 in range(N):
            for c0 in range(N):
                if board[r0][c0] is not None:
                    continue
                for k in range(1, len(rack) + 1):
                    # the next k empty squares from (r0, c0) along the direction
                    squares = []
                    r, c = r0, c0
                    while len(squares) < k and r < N and c < N:
                        if board[r][c] is None:
                            squares.append((r, c))
                        r, c = r + dr, c + dc
                    if len(squares) < k:
                        break
                    if empty:
                        if (7, 7) not in squares:
                            continue
                    elif not any(0 <= r + a < N and 0 <= c + b < N and board[r + a][c + b] is not None
                                 for r, c in squares for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                        continue
                    for tiles in set(permutations(rack, k)):
                        choices = [[(t, False)] if t != "?" else [(x, True) for x in alphabet] for t in tiles]
                        for assign in _product(choices):
                            new = dict(zip(squares, assign))
                            play = _check(board, new, squares, d, dr, dc, k, words, values, lm, wm, bingo,
                                          rack_size)
                            if play is not None:
                                out.add(play)
    return out


def _product(choices):
    if not choices:
        yield ()
        return
    for first in choices[0]:
        for rest in _product(choices[1:]):
            yield (first,) + rest


def _check(board, new, squares, d, dr, dc, k, words, values, lm, wm, bingo, rack_size):
    r, c = squares[0]
    main = _run(board, new, r, c, dr, dc)
    if len(main) < 2:
        return None
    if k == 1 and d == 1 and len(_run(board, new, r, c, 0, 1)) >= 2:
        return None  # one-tile play: listed across
    if "".join(t[2] for t in main) not in words:
        return None
    score = _score(main, values, lm, wm)
    for r, c in squares:
        cross = _run(board, new, r, c, dc, dr)
        if len(cross) >= 2:
            if "".join(t[2] for t in cross) not in words:
                return None
            score += _score(cross, values, lm, wm)
    if k == rack_size:
        score += bingo
    r, c = main[0][0], main[0][1]
    coord = f"{COLS[c]}{r + 1}" if d else f"{r + 1}{COLS[c]}"
    text = ""
    inpar = False
    for _, _, letter, blank, is_new in main:
        if is_new and inpar:
            text += ")"
            inpar = False
        if not is_new and not inpar:
            text += "("
            inpar = True
        text += letter.lower() if blank else letter
    if inpar:
        text += ")"
    return f"{coord} {text} {score}"
