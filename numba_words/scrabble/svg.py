"""The board as SVG: premium squares, tiles with their values, blanks marked, one play highlighted.

Imported lazily by :meth:`Position.svg` (and ``_repr_svg_`` in notebooks). A blank is drawn as a white tile
with a dashed rim, its letter in lower case and a small ``?`` where a tile's value goes, so a blank ``i``
never looks like a tile ``I`` or ``L``.
"""
from __future__ import annotations

from html import escape

from ._tables import COLS, EMPTY, SIZE

SQUARE_COLOURS = {"W": "#e0464a", "w": "#f3a9a0", "L": "#2f7fc1", "l": "#a9d3f0", "*": "#f3a9a0", ".": "#e8e2cc"}
SQUARE_LABELS = {"W": "TW", "w": "DW", "L": "TL", "l": "DL", "*": "\u2605", ".": ""}
TILE = "#f7e7b4"
TILE_NEW = "#ffd75e"
BLANK = "#ffffff"
INK = "#222222"
BLANK_INK = "#b0171f"


def position_svg(pos, play=None, *, size: int = 480, highlight=()) -> str:
    """SVG text of ``pos``'s board (``size`` pixels wide) with the rack and scores below; the tiles of ``play``
    (a :class:`Play` of ``pos``, drawn on the board in gold) or the squares in ``highlight`` stand out."""
    q = size / (SIZE + 1)  # one square; the first row and column hold the coordinates
    height = q * (SIZE + 2.2)
    new = {}
    if play is not None:
        for r, c, ch, bl in play.placed:
            new[(r, c)] = (ch, bl)
    hl = set(highlight) | set(new)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size:g} {height:.1f}" width="{size:g}" '
           f'height="{height:.1f}" font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{size:g}" height="{height:.1f}" fill="#fbfaf5"/>']
    f_label = q * 0.36
    for c in range(SIZE):
        out.append(f'<text x="{q * (c + 1.5):.1f}" y="{q * 0.68:.1f}" font-size="{f_label:.1f}" '
                   f'text-anchor="middle" fill="#555">{COLS[c]}</text>')
    for r in range(SIZE):
        out.append(f'<text x="{q * 0.5:.1f}" y="{q * (r + 1.68):.1f}" font-size="{f_label:.1f}" '
                   f'text-anchor="middle" fill="#555">{r + 1}</text>')
    values = pos.variant.values
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0 = q * (c + 1), q * (r + 1)
            sq = pos.variant.layout[r][c]
            x = pos.board.letters[r, c]
            if (r, c) in new:
                ch, blank = new[(r, c)]
            elif x != EMPTY:
                ch, blank = pos.alphabet[x], bool(pos.board.blanks[r, c])
            else:
                ch = None
            if ch is None:
                out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{q:.1f}" height="{q:.1f}" '
                           f'fill="{SQUARE_COLOURS[sq]}" stroke="#fff" stroke-width="{q * 0.06:.2f}"/>')
                if SQUARE_LABELS[sq]:
                    out.append(f'<text x="{x0 + q / 2:.1f}" y="{y0 + q * 0.64:.1f}" font-size="{q * 0.34:.1f}" '
                               f'text-anchor="middle" fill="#fff">{SQUARE_LABELS[sq]}</text>')
                continue
            fill = BLANK if blank else (TILE_NEW if (r, c) in hl else TILE)
            rim = TILE_NEW if (r, c) in hl else "#a08a50"
            dash = f' stroke-dasharray="{q * 0.12:.1f},{q * 0.08:.1f}"' if blank else ""
            width = q * (0.12 if (r, c) in hl else 0.05)
            out.append(f'<rect x="{x0 + q * 0.04:.1f}" y="{y0 + q * 0.04:.1f}" width="{q * 0.92:.1f}" '
                       f'height="{q * 0.92:.1f}" rx="{q * 0.12:.1f}" fill="{fill}" stroke="{rim}" '
                       f'stroke-width="{width:.2f}"{dash}/>')
            letter = ch.lower() if blank else ch
            out.append(f'<text x="{x0 + q * 0.46:.1f}" y="{y0 + q * 0.70:.1f}" font-size="{q * 0.58:.1f}" '
                       f'font-weight="bold" text-anchor="middle" fill="{BLANK_INK if blank else INK}">'
                       f'{escape(letter)}</text>')
            mark = "?" if blank else str(values.get(ch, 0))
            out.append(f'<text x="{x0 + q * 0.86:.1f}" y="{y0 + q * 0.88:.1f}" font-size="{q * 0.24:.1f}" '
                       f'text-anchor="end" fill="{BLANK_INK if blank else INK}">{mark}</text>')
    caption = (f"rack {pos.rack or '-'}   scores {pos.scores[0]}\u2013{pos.scores[1]}   {pos.variant.name}"
               + (f"   play {play}" if play is not None else ""))
    out.append(f'<text x="{q:.1f}" y="{q * (SIZE + 1.75):.1f}" font-size="{q * 0.45:.1f}" fill="{INK}" '
               f'font-family="Menlo, Consolas, monospace">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out)
