"""Perft throughput, always beside the plain-Python reference (``_reference``) measured in the same run, and
the published perft suite the numbers are checked against (``numba_words/data/draughts_perft.txt``).

Used by ``numba-words tour``, the notebook and ``benchmarks/test_draughts_bench.py``.
"""
from __future__ import annotations

import importlib.resources
from typing import NamedTuple

from .._timing import once, rate
from .game import INITIAL_FEN
from .position import Position

SUITE_FILE = "draughts_perft.txt"


class SuiteLine(NamedTuple):
    """One published perft figure: position ``id``, ``fen``, ``depth`` and ``nodes``."""

    id: str
    fen: str
    depth: int
    nodes: int


def perft_suite() -> list[SuiteLine]:
    """The published perft figures shipped with the package (sources in ``data/draughts/SOURCES.md``)."""
    text = importlib.resources.files("numba_words").joinpath("data", SUITE_FILE).read_text(encoding="utf-8")
    out, ident, fen = [], None, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            ident = rest
        elif key == "fen":
            fen = rest
        elif key == "perft":
            d, n = rest.split()
            out.append(SuiteLine(ident, fen, int(d), int(n)))
    return out


def published(fen: str, depth: int) -> int | None:
    """The published perft count of ``fen`` at ``depth``, or ``None`` if the suite has none."""
    key = Position.from_fen(fen).fen()
    for line in perft_suite():
        if line.depth == depth and Position.from_fen(line.fen).fen() == key:
            return line.nodes
    return None


def reference_rate(fen: str = INITIAL_FEN, depth: int = 4, min_time: float = 0.1) -> float:
    """Nodes/s of the plain-Python reference generator's perft (``_reference.perft``)."""
    from . import _reference as ref

    pieces, white = ref.parse_fen(Position.from_fen(fen).fen())
    nodes = ref.perft(pieces, white, depth)
    return nodes * rate(lambda: ref.perft(pieces, white, depth), min_time=min_time, min_calls=1)


def kernel_rate(position: Position, depth: int, threads: int | None = 1, leaves: bool = False) -> tuple[int, float]:
    """``(nodes, nodes/s)`` of one ``perft`` call (kernels warmed up first)."""
    from .search import perft

    got = []
    seconds = once(lambda: got.append(perft(position, depth, threads=threads, leaves=leaves)))
    return got[0], got[0] / seconds


def measure(depth: int = 9, threads=(1, None), fen: str = INITIAL_FEN, reference_depth: int = 4) -> dict:
    """Perft of ``fen`` at ``depth`` on each thread count in ``threads`` (``None``: all), beside the reference
    generator's nodes/s measured now: ``{fen, depth, nodes, published, rates: {threads: nodes/s},
    reference_nodes_per_s, speedup}`` (``speedup``: the first thread count's rate over the reference's)."""
    import numba

    from .search import warmup

    warmup()
    pos = Position.from_fen(fen)
    rates = {}
    nodes = None
    for th in threads:
        n_threads = numba.get_num_threads() if th is None else int(th)
        nodes, r = kernel_rate(pos, depth, threads=n_threads)
        rates[n_threads] = r
    base = reference_rate(fen, reference_depth)
    first = next(iter(rates.values()))
    return {"fen": pos.fen(), "depth": depth, "nodes": nodes, "published": published(fen, depth), "rates": rates,
            "reference_nodes_per_s": base, "reference_depth": reference_depth, "speedup": first / base}
