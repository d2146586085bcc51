"""SVG drawing of a position (imported lazily by ``Position._repr_svg_``)."""
from __future__ import annotations

from ._tables import square_rc

SIZE = 36


def board_svg(position, size: int = SIZE, numbers: bool = True) -> str:
    """A 10x10 board with men as discs and kings as discs with a ring; square numbers in small print."""
    n = 10 * size
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n} {n}" width="{n}" height="{n}">',
           f'<rect width="{n}" height="{n}" fill="#f0d9b5"/>']
    for s in range(1, 51):
        r, c = square_rc(s)
        x, y = c * size, r * size
        out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#b58863"/>')
        if numbers:
            out.append(f'<text x="{x + 2}" y="{y + 9}" font-size="8" fill="#f0d9b5">{s}</text>')
        p = position.piece_at(s)
        if p:
            fill, stroke = ("#fafafa", "#333") if p in "wW" else ("#222", "#ccc")
            cx, cy, rad = x + size / 2, y + size / 2, size * 0.38
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{rad}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')
            if p.isupper():
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{rad * 0.55}" fill="none" stroke="#d4a017" '
                           f'stroke-width="3"/>')
    out.append("</svg>")
    return "".join(out)
