"""Kernels that read board text: a CGP board field (bytes) straight into the arrays :class:`._board.BoardArrays`
keeps, one pass over its characters (the per-square Python of :func:`.cgp.decode_board` took ~60 us a position;
this ~1 us). They only report *that* the text is bad (a non-zero status): the Python decoder then names what is
wrong.
"""
from __future__ import annotations

import numpy as np

from .._jit import inline, kernel
from ._tables import EMPTY, SIZE

BLANK_BIT = 0x80
"""In a :func:`char_table`, a letter code with this bit set is a blank standing for that letter."""
BAD = 0xFF
"""In a :func:`char_table`, a byte that is no letter of the alphabet (in either case)."""


def char_table(alphabet: str) -> np.ndarray:
    """``uint8[256]``: for each ASCII byte the letter code it writes on a CGP board (upper case: a tile; lower
    case: a blank, :data:`BLANK_BIT` set), :data:`BAD` for anything else (digits too: the kernel reads them as
    runs before it looks here). The same rule as :func:`.cgp.decode_board`."""
    out = np.full(256, BAD, np.uint8)
    index = {ch: i for i, ch in enumerate(alphabet)}
    for b in range(128):
        ch = chr(b)
        up = ch.upper()
        i = index.get(up)
        if i is not None and len(up) == 1 and ch in (up, up.lower()) and not ch.isdigit() and i < BLANK_BIT:
            out[b] = i | (BLANK_BIT if ch != up else 0)
    return out


@kernel
def read_board(raw, table, values, letters, blanks, lines, fv, occ, use, racks, bag, n_own, counts, unseen, info):
    """Decode the board field ``raw`` (``uint8`` bytes: 15 rows separated by ``/``, digits = runs of empty
    squares) with ``table`` (:func:`char_table`) into ``letters`` (15x15 codes, :data:`EMPTY` empty), ``blanks``
    and the orientation arrays ``lines`` (2, 15, 15), ``fv`` (tile values, 0 for blanks) and ``occ`` (2, 15
    bit masks), and count the tiles by letter code in ``use`` (blanks at index ``n_letters``, the last entry).
    The output arrays must arrive cleared (``letters``/``lines`` full of :data:`EMPTY`, the others zero).
    ``racks``: the letters of both racks (``uint8`` bytes, upper case letters of the table and ``?``, checked by
    the caller); ``bag``: the variant's tiles by letter code, the blanks last. Returns the number of tiles, -1 when
    the text is malformed (a bad character, a run that is not 1..15, a row that does not cover 15 squares, not 15
    rows), -2 when the board and racks hold more of a tile than the bag.

    The equity's inputs besides (meaningful when the bag check passed; the first ``n_own`` bytes of ``racks`` are
    the rack on turn, the rest the opponent's): ``counts`` (cleared, 32 entries) the rack on turn's letters by
    code (its blanks not counted), ``unseen`` (like ``use``) the tiles the player on turn cannot see, ``info[0]``
    the tiles in the bag (the unseen ones less the opponent's rack) and ``info[1]`` the opponent's tile points
    (its rack's; none known: the unseen tiles' when the bag is empty, else 0)."""
    tiles = read_text(raw, table, values, letters, blanks, lines, fv, occ, use)
    if tiles < 0:
        return tiles
    return rack_info(use, table, values, racks, bag, n_own, counts, unseen, info, tiles)


@inline
def _put(r, c, code, blank, values, letters, blanks, lines, fv, occ, use):
    """Put the tile ``code`` (``blank``: a blank standing for it) on square ``(r, c)`` of the arrays of
    :func:`read_board`, and count it in ``use``."""
    letters[r, c] = code
    blanks[r, c] = blank
    lines[0, r, c] = code
    lines[1, c, r] = code
    v = 0 if blank else values[code]
    fv[0, r, c] = v
    fv[1, c, r] = v
    occ[0, r] |= np.int64(1) << c
    occ[1, c] |= np.int64(1) << r
    if blank:
        use[use.shape[0] - 1] += 1
    else:
        use[code] += 1


@inline
def read_text(raw, table, values, letters, blanks, lines, fv, occ, use):
    """The board part of :func:`read_board`: the number of tiles, -1 when the text is malformed."""
    r = 0
    c = 0
    tiles = 0
    k = 0
    n = raw.shape[0]
    while k < n:
        ch = raw[k]
        if ch == 47:  # '/'
            if c != SIZE or r >= SIZE - 1:
                return -1
            r += 1
            c = 0
            k += 1
        elif 48 <= ch <= 57:  # a run of empty squares, one or two digits
            run = 0
            digits = 0
            while k < n and 48 <= raw[k] <= 57:
                run = run * 10 + (raw[k] - 48)
                digits += 1
                k += 1
            if digits > 2 or run < 1 or run > SIZE:
                return -1
            c += run
            if c > SIZE:
                return -1
        else:
            x = table[ch]
            if x == 255 or c >= SIZE:
                return -1
            code = x & 0x7F
            blank = x >= 128
            _put(r, c, code, blank, values, letters, blanks, lines, fv, occ, use)
            tiles += 1
            c += 1
            k += 1
    if r != SIZE - 1 or c != SIZE:
        return -1
    return tiles


@inline
def read_grid(grid, gblank, values, letters, blanks, lines, fv, occ, use):
    """:func:`read_text` from a board's ``letters``/``blanks`` grids (15x15, :data:`EMPTY` empty; checked by the
    caller) instead of text: the number of tiles."""
    tiles = 0
    for r in range(SIZE):
        for c in range(SIZE):
            code = grid[r, c]
            if code == EMPTY:
                continue
            blank = gblank[r, c]
            _put(r, c, code, blank, values, letters, blanks, lines, fv, occ, use)
            tiles += 1
    return tiles


@inline
def rack_info(use, table, values, racks, bag, n_own, counts, unseen, info, tiles):
    """The rack part of :func:`read_board` (its bag check and equity inputs) once ``use`` holds the board's tiles:
    ``tiles``, or -2 when the board and racks hold more of a tile than the bag."""
    nb = use.shape[0] - 1
    need = use.copy()
    opp_pts = 0
    for k in range(racks.shape[0]):
        if racks[k] == 63:  # '?'
            need[nb] += 1
        else:
            code = table[racks[k]] & 0x7F
            need[code] += 1
            if k < n_own:
                counts[code] += 1
            else:
                opp_pts += values[code]
    for k in range(nb + 1):
        if need[k] > bag[k]:
            return -2
    n_bag = -(racks.shape[0] - n_own)
    unseen_pts = 0
    for k in range(nb + 1):
        u = bag[k] - use[k] - (counts[k] if k < nb else 0)
        if k == nb:
            for q in range(n_own):
                if racks[q] == 63:
                    u -= 1
        else:
            unseen_pts += u * values[k]
        unseen[k] = u
        n_bag += u
    info[0] = n_bag
    info[1] = opp_pts if racks.shape[0] > n_own or n_bag > 0 else unseen_pts
    return tiles
