"""Distributed perft against one process: ``python benchmarks/distributed_speedup.py [DEPTH]`` (default 11).

Prints the LocalCluster start time, the per-task overhead (many near-empty tasks) and the speed-up of a
2-worker x 1-thread cluster over one process on one thread, with both counts.
"""
from __future__ import annotations

import sys

from numba_words import distributed as D
from numba_words._timing import once
from numba_words.draughts import Position, perft, perft_tasks, warmup


def main(depth: int) -> None:
    warmup()
    p = Position.initial()
    got = {}
    t1 = once(lambda: got.update(n1=perft(p, depth, threads=1)))
    cluster = D.local_cluster(2, 1)
    start = once(lambda: got.update(client=cluster.__enter__()))
    try:
        client = got["client"]
        perft(p, 5, client=client)  # workers load their kernels from the cache
        tiny = once(lambda: perft_tasks(p, 4, client, split_depth=3, n_tasks=658))
        t2 = once(lambda: got.update(run=perft_tasks(p, depth, client)))
    finally:
        cluster.__exit__(None, None, None)
    counts, _, info = got["run"]
    n1, n2 = got["n1"], int(counts.sum())
    print(f"local cluster start {start:.2f} s; per-task overhead {tiny / 658 * 1e3:.2f} ms (658 tiny tasks)")
    print(f"perft({depth}): one process, 1 thread {t1:.2f} s ({n1 / t1 / 1e6:.1f} M nodes/s); 2 workers x 1 thread "
          f"{t2:.2f} s ({n2 / t2 / 1e6:.1f} M nodes/s, {info['tasks']} tasks over {info['frontier']} subtrees); "
          f"speed-up {t1 / t2:.2f}x; counts equal: {n1 == n2}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
