"""SVG drawing of a board (imported lazily by ``Position._repr_svg_``): staggered hexes, gem and fire colours,
an optional word path drawn over the tiles."""
from __future__ import annotations

import math
from xml.sax.saxutils import escape

FILL = {"plain": "#f3e3c3", "green": "#7fd67f", "gold": "#f2c94c", "sapphire": "#6fa8ff", "diamond": "#e8f4ff",
        "fire": "#ff6a3d"}
STROKE = {"diamond": "#8aa", "fire": "#b22"}


def tile_centres(grid, size: float = 28) -> tuple:
    """``({tile: (x, y)}, width, height)``: where each tile's centre is drawn (pixels, ``size`` the tile's
    radius; staggered hexes for Bookworm, a square grid for Boggle). The notebook widget draws with it too."""
    centres = {}
    if grid.kind == "bookworm":
        h = math.sqrt(3) * size
        top = max(grid.shape)
        for t, (c, r) in enumerate(grid.coords):
            x = size + c * 1.5 * size
            y = (top - r) * h - (h / 2 if c % 2 == 0 else 0) + 2
            centres[t] = (x, y)
        width = size * (1.5 * len(grid.shape) + 0.5)
        height = (top + 0.5) * h + 4
    else:
        rows, cols = grid.shape
        for t, (r, c) in enumerate(grid.coords):
            centres[t] = (size + c * 2 * size, size + r * 2 * size)
        width, height = 2 * size * cols, 2 * size * rows
    return centres, width, height


def board_svg(board, path=None, size: int = 28) -> str:
    grid = board.grid
    path = tuple(path or ())
    centres, width, height = tile_centres(grid, size)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">']
    for t, (x, y) in centres.items():
        kind = board.kind(t)
        on = t in path
        if grid.kind == "bookworm":
            pts = " ".join(f"{x + 0.97 * size * math.cos(math.pi / 3 * k):.1f},"
                           f"{y + 0.97 * size * math.sin(math.pi / 3 * k):.1f}" for k in range(6))
            shape = f'<polygon points="{pts}"'
        else:
            shape = f'<rect x="{x - 0.9 * size:.1f}" y="{y - 0.9 * size:.1f}" width="{1.8 * size:.1f}" ' \
                    f'height="{1.8 * size:.1f}" rx="{size / 5:.1f}"'
        stroke = "#1a56db" if on else STROKE.get(kind, "#9a8060")
        out.append(f'{shape} fill="{FILL[kind]}" stroke="{stroke}" stroke-width="{3 if on else 1}"/>')
        letters = board.letters(t)
        label = "Qu" if letters == "qu" else letters.upper()
        out.append(f'<text x="{x:.1f}" y="{y + size * 0.3:.1f}" text-anchor="middle" font-size="{size * 0.8:.0f}" '
                   f'font-weight="bold">{escape(label)}</text>')
    if len(path) > 1:
        pts = " ".join(f"{centres[t][0]:.1f},{centres[t][1]:.1f}" for t in path)
        out.append(f'<polyline points="{pts}" fill="none" stroke="#1a56db" stroke-opacity="0.55" '
                   f'stroke-width="{size / 4:.1f}" stroke-linecap="round" stroke-linejoin="round"/>')
    if path:
        x, y = centres[path[0]]
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size / 4:.1f}" fill="#1a56db" fill-opacity="0.6"/>')
    out.append("</svg>")
    return "\n".join(out)
