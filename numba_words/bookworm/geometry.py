"""Grids as data: a tile list, a neighbour table, and the same table as ``uint64`` bitboard masks.

The kernels only see ``Grid.masks`` (bit ``u`` of ``masks[t]`` set when tiles ``t`` and ``u`` touch), so a
new grid is a new table, not new code. At most 64 tiles (one bitboard).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .errors import InvalidBoardError

BOOKWORM_HEIGHTS = (7, 8, 7, 8, 7, 8, 7)


@dataclass(frozen=True, eq=False)
class Grid:
    """A board shape: ``coords[t]`` (column, row) of tile ``t``, ``neighbours`` (``int8`` table padded with
    -1), ``masks`` (``uint64`` per tile), ``degree`` (``int8`` per tile).

    ``kind`` is ``"bookworm"`` (columns bottom to top, rows counted from the bottom) or ``"boggle"``
    (rows top to bottom, ``coords`` are (row, column)).
    """

    name: str
    kind: str
    coords: tuple
    neighbours: np.ndarray
    degree: np.ndarray
    masks: np.ndarray
    shape: tuple = field(default=())  # bookworm: column heights; boggle: (rows, cols)

    @property
    def n_tiles(self) -> int:
        return len(self.coords)

    @property
    def n_edges(self) -> int:
        return int(self.degree.sum()) // 2

    def index(self, a: int, b: int) -> int:
        """Tile index of coordinates ``(a, b)``."""
        try:
            return self._index[(a, b)]
        except KeyError:
            raise InvalidBoardError(f"{(a, b)!r} is not a tile of the {self.name} grid") from None

    @property
    def _index(self):
        return {c: i for i, c in enumerate(self.coords)}

    def __repr__(self) -> str:
        return f"<Grid {self.name}: {self.n_tiles} tiles, {self.n_edges} edges>"


def _make(name, kind, coords, adj, shape) -> Grid:
    n = len(coords)
    if n > 64:
        raise InvalidBoardError(f"grid {name!r} has {n} tiles; at most 64 fit a bitboard")
    deg = np.array([len(a) for a in adj], dtype=np.int8)
    width = max(1, int(deg.max()) if n else 1)
    table = np.full((n, width), -1, dtype=np.int8)
    masks = np.zeros(n, dtype=np.uint64)
    for t, a in enumerate(adj):
        for k, u in enumerate(sorted(a)):
            table[t, k] = u
            masks[t] |= np.uint64(1) << np.uint64(u)
    for arr in (table, deg, masks):
        arr.setflags(write=False)
    return Grid(name, kind, tuple(coords), table, deg, masks, tuple(shape))


def bookworm_grid(heights=BOOKWORM_HEIGHTS) -> Grid:
    """The Bookworm Deluxe hex board: columns of 7, 8, 7, 8, 7, 8, 7 tiles, tile ``(c, r)`` with ``r`` from
    the bottom; odd columns sit half a tile lower. Neighbours of ``(c, r)``: ``(c, r±1)``; even ``c`` also
    ``(c±1, r)`` and ``(c±1, r+1)``; odd ``c`` also ``(c±1, r-1)`` and ``(c±1, r)``."""
    coords = [(c, r) for c, h in enumerate(heights) for r in range(h)]
    index = {xy: i for i, xy in enumerate(coords)}
    adj = []
    for c, r in coords:
        cand = [(c, r - 1), (c, r + 1)]
        dr = (0, 1) if c % 2 == 0 else (-1, 0)
        for dc in (-1, 1):
            for d in dr:
                cand.append((c + dc, r + d))
        adj.append({index[xy] for xy in cand if xy in index})
    return _make("bookworm", "bookworm", coords, adj, heights)


def boggle_grid(rows: int = 4, cols: int | None = None) -> Grid:
    """A Boggle board of ``rows`` by ``cols`` dice (row-major tiles), each touching up to 8 others."""
    cols = rows if cols is None else cols
    for v, what in ((rows, "rows"), (cols, "cols")):
        if not isinstance(v, (int, np.integer)) or v < 1:
            raise InvalidBoardError(f"Boggle {what} must be a positive integer, got {v!r}")
    if rows * cols > 64:
        raise InvalidBoardError(f"a {rows}x{cols} Boggle board has {rows * cols} tiles; at most 64")
    coords = [(r, c) for r in range(rows) for c in range(cols)]
    adj = []
    for r, c in coords:
        adj.append({(r + dr) * cols + (c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                    if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols})
    return _make(f"boggle{rows}x{cols}", "boggle", coords, adj, (rows, cols))


BOOKWORM = bookworm_grid()
BOGGLE4 = boggle_grid(4)
BOGGLE5 = boggle_grid(5)
