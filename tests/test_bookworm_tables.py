"""Neighbour tables against the geometry rules (stated independently in numba_words/bookworm/_reference.py)."""
import numpy as np
import pytest

from numba_words.bookworm import BOGGLE4, BOGGLE5, BOOKWORM, InvalidBoardError, boggle_grid
from numba_words.bookworm._reference import boggle_neighbours, bookworm_neighbours


def _as_sets(grid):
    return {grid.coords[t]: {grid.coords[u] for u in grid.neighbours[t] if u >= 0} for t in range(grid.n_tiles)}


def test_bookworm_table_matches_rule():
    tiles, ref = bookworm_neighbours()
    assert list(BOOKWORM.coords) == tiles
    assert _as_sets(BOOKWORM) == ref


def test_bookworm_counts_and_symmetry():
    assert BOOKWORM.n_tiles == 52
    assert BOOKWORM.n_edges == 129
    counts = dict(zip(*np.unique(BOOKWORM.degree, return_counts=True)))
    assert counts == {6: 28, 5: 4, 4: 10, 3: 10}
    for t in range(52):
        for u in range(52):
            assert ((int(BOOKWORM.masks[t]) >> u) & 1) == ((int(BOOKWORM.masks[u]) >> t) & 1)
        assert not (int(BOOKWORM.masks[t]) >> t) & 1
        assert bin(int(BOOKWORM.masks[t])).count("1") == BOOKWORM.degree[t]
    corner = {BOOKWORM.coords[u] for u in BOOKWORM.neighbours[BOOKWORM.index(0, 0)] if u >= 0}
    assert corner == {(0, 1), (1, 0), (1, 1)}


@pytest.mark.parametrize("grid,n", [(BOGGLE4, 4), (BOGGLE5, 5)])
def test_boggle_tables(grid, n):
    tiles, ref = boggle_neighbours(n, n)
    assert list(grid.coords) == tiles
    assert _as_sets(grid) == ref
    assert grid.n_edges == 2 * (n - 1) * (2 * n - 1) + 0 or grid.n_edges == (n - 1) * (4 * n - 2)


def test_bad_grids():
    with pytest.raises(InvalidBoardError, match="at most 64"):
        boggle_grid(9)
    with pytest.raises(InvalidBoardError, match="positive"):
        boggle_grid(0)
    with pytest.raises(InvalidBoardError, match="not a tile"):
        BOOKWORM.index(1, 9)
