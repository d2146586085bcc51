"""SVG pictures of positions, in the manner of python-chess's ``chess.svg.board``: ``svg(position, lastmove=,
arrows=, flipped=, size=)``. ``Position._repr_svg_`` uses it, so notebooks draw positions by themselves.

The 50 playable (dark) squares carry their numbers in small print in the top-left corner, drawn above the
pieces (with a halo) so that a piece never hides its square's number.
"""
from __future__ import annotations

import numpy as np

from ._tables import square_rc
from .errors import DraughtsError, quote

LIGHT, DARK = "#f0d9b5", "#b58863"
HIGHLIGHT = "#cdd26a"
ARROW = "#15781b"


class Svg(str):
    """SVG text that Jupyter shows as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)


def _square(x, what) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not 1 <= x <= 50:
        raise DraughtsError(f"{what}: squares are numbers from 1 to 50, got {quote(x)}")
    return int(x)


def _path(item, position, what) -> list[int]:
    """The squares of a move or an arrow: a Move (its path), notation (a legal move of ``position`` gives its
    whole path, other text its squares: ``'32-28'``, ``'28x19x10'``), or square numbers such as ``(32, 28)``."""
    from .errors import IllegalMoveError
    from .moves import Move

    if isinstance(item, str):
        try:
            item = position.parse_move(item)
        except IllegalMoveError:
            parts = item.strip().lower().replace(":", "x").replace("-", "x").split("x")
            if not 2 <= len(parts) <= 51 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
                raise DraughtsError(f"{what}: cannot read {quote(item)} (want '32-28' or '28x19x10')") from None
            item = [int(p) for p in parts]
    if isinstance(item, Move):
        return list(item.path)
    try:
        squares = [_square(s, what) for s in item]
    except TypeError:
        raise DraughtsError(f"{what}: want a Move, a notation like '32-28' or squares like (32, 28), got "
                            f"{quote(item)}") from None
    if len(squares) < 2:
        raise DraughtsError(f"{what}: want at least two squares, got {quote(item)}")
    return squares


def svg(position, lastmove=None, arrows=(), flipped: bool = False, size: int = 400, numbers: bool = True) -> Svg:
    """An SVG picture of ``position``: men as discs, kings as discs with a gold ring, square numbers in small
    print.

    ``lastmove``: a move (a :class:`Move`, its notation, or squares) whose from- and to-squares are
    highlighted; by default the last move of the position's move stack.
    ``arrows``: moves or square sequences drawn as arrows (a capture along its whole path). ``flipped``:
    White at the top. ``size``: width and height in pixels.
    """
    if not (hasattr(position, "piece_at") and hasattr(position, "move_stack") and hasattr(position, "parse_move")):
        raise DraughtsError(f"svg() draws a Position, got {quote(position)}")
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 10 <= size <= 10000:
        raise DraughtsError(f"size must be a number of pixels from 10 to 10000, got {quote(size)}")
    sq = 40  # user units per square; the picture is scaled to ``size`` by the viewBox
    n = 10 * sq

    def xy(s: int) -> tuple[float, float]:
        r, c = square_rc(s)
        if flipped:
            r, c = 9 - r, 9 - c
        return c * sq, r * sq

    if lastmove is None and position.move_stack:
        lastmove = position.move_stack[-1]
    marked = set()
    if lastmove is not None:
        before = position.copy()
        if before.move_stack:
            before.pop()
        p = _path(lastmove, before, "lastmove")
        marked = {p[0], p[-1]}
    if isinstance(arrows, (str, bytes)):
        arrows = [arrows]
    lines = [_path(a, position, "arrows") for a in arrows]

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n} {n}" width="{size}" height="{size}">',
           f'<rect width="{n}" height="{n}" fill="{LIGHT}"/>']
    for s in range(1, 51):
        x, y = xy(s)
        fill = HIGHLIGHT if s in marked else DARK
        out.append(f'<rect x="{x}" y="{y}" width="{sq}" height="{sq}" fill="{fill}"/>')
    for s in range(1, 51):
        piece = position.piece_at(s)
        if not piece:
            continue
        x, y = xy(s)
        cx, cy, rad = x + sq / 2, y + sq / 2 + 2, sq * 0.34
        fill, stroke = ("#fafafa", "#333") if piece in "wW" else ("#222", "#ccc")
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{rad}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')
        if piece.isupper():
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{rad * 0.55}" fill="none" stroke="#d4a017" stroke-width="3"/>')
    if numbers:
        for s in range(1, 51):
            x, y = xy(s)
            # a dark halo first, then the white digits over it: readable on a square, a piece or a highlight
            for paint in (f'fill="{DARK}" stroke="{DARK}" stroke-width="2.5"', 'fill="#fff"'):
                out.append(f'<text x="{x + 2}" y="{y + 9}" font-family="sans-serif" font-size="9" {paint}>{s}</text>')
    if lines:
        out.append(f'<defs><marker id="head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4" '
                   f'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{ARROW}"/></marker></defs>')
        for squares in lines:
            pts = " ".join(f"{xy(s)[0] + sq / 2},{xy(s)[1] + sq / 2}" for s in squares)
            out.append(f'<polyline points="{pts}" fill="none" stroke="{ARROW}" stroke-width="5" stroke-opacity="0.8" '
                       f'stroke-linecap="round" stroke-linejoin="round" marker-end="url(#head)"/>')
    out.append("</svg>")
    return Svg("".join(out))


def board_svg(position, size: int = 400, numbers: bool = True) -> Svg:
    """The same as ``svg(position, size=size, numbers=numbers)`` (the older name)."""
    return svg(position, size=size, numbers=numbers)
