"""Many positions at once: ``generate_many`` on this machine (``prange`` over positions) or a Dask cluster."""
from __future__ import annotations

from .errors import ScrabbleError
from .generator import generate_batch
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
        from .. import distributed as _dist

        arrays = _dist.generate_many(pos, client, chunk_size=chunk_size)
    else:
        arrays = generate_batch([p.board for p in pos], [p._rack_arrays() for p in pos], threads=threads)
    return [Plays(a, p) for a, p in zip(arrays, pos)]
