"""Many positions at once: ``generate_many`` on this machine (``prange`` over positions) or a Dask cluster."""
from __future__ import annotations

from .errors import ScrabbleError
from .generator import Board, generate_batch
from .position import Plays, Position


def generate_many(positions, *, variant="scrabble", lexicon=None, threads=None, client=None,
                  chunk_size: int = 64) -> list[Plays]:
    """Every scored play of each position (``Position`` objects or CGP strings), in input order.

    Runs the batch kernel in parallel over positions (``threads``), or, with ``client`` (a Dask ``Client`` or
    scheduler address), in chunks of ``chunk_size`` positions across a cluster. All positions share one
    variant and lexicon.
    """
    positions = list(positions)
    if not positions:
        raise ScrabbleError("generate_many needs at least one position")
    pos = [p if isinstance(p, Position) else Position.from_cgp(p, variant, lexicon=lexicon) for p in positions]
    lex, var = pos[0].lexicon, pos[0].variant
    for i, p in enumerate(pos):
        if p.lexicon is not lex or p.variant is not var:
            raise ScrabbleError(f"position #{i + 1} uses another lexicon or variant than position #1")
    if client is not None:
        arrays = _generate_distributed(pos, client, chunk_size)
    else:
        arrays = generate_batch([p.board for p in pos], [p._rack_arrays() for p in pos], threads=threads)
    return [Plays(a, p) for a, p in zip(arrays, pos)]


def _generate_chunk(chunk, lex, variant) -> list:
    """Worker side of :func:`generate_many` with ``client=``: boards rebuilt from their letters, then the batch."""
    letters, blanks, counts, nblanks = chunk
    boards = [Board(variant, lex.dawg, letters[i], blanks[i]) for i in range(letters.shape[0])]
    return generate_batch(boards, list(zip(counts, nblanks)))


def _generate_distributed(pos: list, client, chunk_size) -> list:
    import numpy as np

    from .. import distributed as D

    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ScrabbleError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    letters = np.stack([p.board.letters for p in pos])
    blanks = np.stack([p.board.blanks for p in pos])
    racks = [p._rack_arrays() for p in pos]
    counts = np.stack([r[0] for r in racks])
    nblanks = np.array([r[1] for r in racks], np.int64)
    chunks = [(letters[a:a + chunk_size], blanks[a:a + chunk_size], counts[a:a + chunk_size],
               nblanks[a:a + chunk_size]) for a in range(0, len(pos), chunk_size)]
    parts = D.map_chunks(_generate_chunk, chunks, client, broadcast=(pos[0].lexicon, pos[0].variant),
                         name="scrabble")
    return [a for part in parts for a in part]
