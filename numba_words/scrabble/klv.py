"""KLV2 leave files (the format of wolges, MAGPIE and their users): read and write.

A KLV2 file is, little-endian: ``uint32 n_nodes``, ``n_nodes`` ``uint32`` nodes of a KWG word graph whose words
are the leaves (tiles sorted, tile 0 = blank, tile ``1 + c`` = letter ``c`` of the alphabet), ``uint32
n_leaves``, then ``n_leaves`` ``float32`` values in points, value ``i`` for the ``i``-th word of the graph in
depth-first order (a word before its extensions). KWG nodes: bits 0-21 the index of the first child (0: none),
bit 22 last sibling, bit 23 the path so far is a word, bits 24-31 the tile; node 0 points at the word graph's
root list, node 1 at a GADDAG's (unused here: 0).
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .errors import InvalidLeavesError, short

END = 0x400000
ACCEPTS = 0x800000
ARC_MASK = 0x3FFFFF
MAX_FILE_BYTES = 256 << 20


def read_klv2(source) -> tuple:
    """``(nodes uint32[n], values float32[m])`` from a KLV2 file (a path) or its bytes; checks the sizes."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, where = bytes(source), "KLV2 data"
    else:
        if not isinstance(source, (str, os.PathLike)):
            raise InvalidLeavesError(f"a KLV2 file is a path or bytes, got {short(source)}")
        where = f"KLV2 file {short(str(source))}"
        try:
            if Path(source).stat().st_size > MAX_FILE_BYTES:
                raise InvalidLeavesError(f"{where}: larger than {MAX_FILE_BYTES >> 20} MiB")
            data = Path(source).read_bytes()
        except OSError as e:
            raise InvalidLeavesError(f"cannot read {where}: {e}") from None
    if len(data) < 8:
        raise InvalidLeavesError(f"{where}: {len(data)} bytes, too short for a KLV2 file")
    k = int(np.frombuffer(data[:4], "<u4")[0])
    if 4 + 4 * k + 4 > len(data):
        raise InvalidLeavesError(f"{where}: says {k} nodes but holds {len(data)} bytes")
    nodes = np.frombuffer(data[4:4 + 4 * k], "<u4").astype(np.uint32)
    m = int(np.frombuffer(data[4 + 4 * k:8 + 4 * k], "<u4")[0])
    if len(data) != 8 + 4 * k + 4 * m:
        raise InvalidLeavesError(f"{where}: {k} nodes and {m} values need {8 + 4 * k + 4 * m} bytes, the file has "
                                 f"{len(data)}")
    values = np.frombuffer(data[8 + 4 * k:], "<f4").astype(np.float32)
    if k < 2:
        raise InvalidLeavesError(f"{where}: a word graph needs at least 2 nodes, got {k}")
    if not np.isfinite(values).all():
        raise InvalidLeavesError(f"{where}: value {int(np.argmin(np.isfinite(values)))} is not a finite number")
    return nodes, values


def write_klv2(nodes, values) -> bytes:
    """The bytes of a KLV2 file of ``nodes`` (uint32) and ``values`` (points, stored as float32)."""
    nodes = np.asarray(nodes, np.uint32)
    values = np.asarray(values, np.float32)
    return b"".join([np.uint32(len(nodes)).astype("<u4").tobytes(), nodes.astype("<u4").tobytes(),
                     np.uint32(len(values)).astype("<u4").tobytes(), values.astype("<f4").tobytes()])


def leave_graph(caps, max_size: int) -> np.ndarray:
    """The KWG (uint32 nodes) of every sorted leave of 1..``max_size`` tiles with at most ``caps[t]`` tiles of
    kind ``t``. Minimal by construction: the words below a node depend only on its last tile, the copies of it
    still allowed and the room left, so one sibling list per such state is written and shared."""
    caps = [int(c) for c in caps]
    K = len(caps)
    nodes = [0, END]  # node 0 (the word graph's root pointer) is set at the end; node 1: no GADDAG
    memo: dict = {}

    def list_for(last, klast, r):
        if r == 0:
            return 0
        key = (last, min(klast, r), r)
        if key in memo:
            return memo[key]
        kids = ([last] if last >= 0 and klast > 0 else []) + [y for y in range(last + 1, K) if caps[y] > 0]
        arcs = [list_for(y, (klast if y == last else caps[y]) - 1, r - 1) for y in kids]
        start = len(nodes) if kids else 0
        for j, (y, a) in enumerate(zip(kids, arcs)):
            nodes.append((y << 24) | ACCEPTS | (END if j == len(kids) - 1 else 0) | a)
        memo[key] = start
        return start

    root = list_for(-1, 0, int(max_size))
    nodes[0] = END | root
    if len(nodes) > ARC_MASK:
        raise InvalidLeavesError(f"leave graph of {len(nodes)} nodes does not fit KWG's 22-bit indices")
    return np.array(nodes, np.uint32)
