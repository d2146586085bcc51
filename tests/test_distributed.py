"""Dask scale-out: same answers as one machine, worker loss, checkpoints, bad input."""
from __future__ import annotations

import os
import signal

import pytest

distributed = pytest.importorskip("distributed")

from numba_words import distributed as D  # noqa: E402
from numba_words.draughts import Position, divide, perft  # noqa: E402
from numba_words.draughts.perft import perft_tasks  # noqa: E402

KINGS = ["W:WK31-50:BK1-20", "W:WK46,K47,28,33:BK5,K4,19,23", "B:W27,K38,40:BK12,K22,13,14"]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, processes=True)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_perft_matches_single_machine(client):
    p = Position.initial()
    for depth in (2, 5, 7):
        assert perft(p, depth, client=client) == perft(p, depth)
    assert perft(p, 6, client=client, leaves=True) == 167140


@pytest.mark.parametrize("fen", KINGS)
def test_king_positions(client, fen):
    p = Position.from_fen(fen)
    assert perft(p, 5, client=client) == perft(p, 5)
    assert divide(p, 4, client=client) == divide(p, 4)


def test_split_and_task_counts(client):
    p = Position.initial()
    counts, roots, info = perft_tasks(p, 6, client, split_depth=2, n_tasks=7)
    assert info["frontier"] == 81 and info["tasks"] == 7 and int(counts.sum()) == 167140
    assert sorted(set(roots.tolist())) == list(range(9))


def test_worker_killed_mid_run(client):
    p = Position.initial()
    killed = []

    def progress(done, total, seconds):
        if not killed and done >= 2:
            nanny = next(iter(client.cluster.workers.values()))
            pid = nanny.process.process.pid
            os.kill(pid, signal.SIGKILL)  # a crashed worker: its running tasks are lost
            killed.append(pid)

    counts, _, _ = perft_tasks(p, 9, client, n_tasks=64, progress=progress)
    n = int(counts.sum())
    assert killed and n == 41022423
    client.wait_for_workers(2, timeout=60)


def test_checkpoint_resume(client, tmp_path):
    p = Position.initial()
    ck = tmp_path / "perft.ckpt"

    class Stop(Exception):
        pass

    def stop_after_5(done, total, seconds):
        if done >= 5:
            raise Stop

    with pytest.raises(Stop):
        perft_tasks(p, 7, client, n_tasks=40, checkpoint=ck, progress=stop_after_5)
    counts, _, info = perft_tasks(p, 7, client, n_tasks=40, checkpoint=ck)
    assert info["resumed_tasks"] >= 5 and int(counts.sum()) == 1049442
    # a finished checkpoint answers without computing anything
    counts, _, info = perft_tasks(p, 7, client, n_tasks=40, checkpoint=ck)
    assert info["resumed_tasks"] == 40 and int(counts.sum()) == 1049442
    # another run's checkpoint is refused
    with pytest.raises(D.DistributedError, match="another run"):
        perft_tasks(p, 6, client, n_tasks=40, checkpoint=ck)


def test_bad_input(client):
    p = Position.initial()
    with pytest.raises(D.DistributedError, match="split depth"):
        perft_tasks(p, 4, client, split_depth=4)
    with pytest.raises(D.DistributedError, match="empty batch"):
        D.map_chunks(len, [], client)
    with pytest.raises(D.DistributedError, match="cannot reach"):
        D.get_client("tcp://127.0.0.1:9", timeout=2)
    with pytest.raises(D.DistributedError, match="should look like"):
        D.get_client("nonsense")
    with pytest.raises(D.DistributedError, match="expected"):
        D.get_client(42)


def _lengths(chunk, offset):
    return [len(x) + offset for x in chunk]


def test_map_chunks_in_order(client):
    items = [str(i) * (i % 7) for i in range(1000)]
    chunks = [items[a:a + 64] for a in range(0, len(items), 64)]
    seen = []
    out = D.map_chunks(_lengths, chunks, client, broadcast=(3,), progress=lambda d, t: seen.append((d, t)))
    assert [x for chunk in out for x in chunk] == [len(s) + 3 for s in items]
    assert seen[-1] == (len(chunks), len(chunks))


def test_checkpoint_skips_records_that_do_not_fit(client, tmp_path):
    ck = tmp_path / "ck"
    header = {"work": "lengths"}
    chunks = [["a", "bb"], ["ccc"], ["dddd", "e", "ff"]]
    c = D.Checkpoint(ck, header, expect=lambda i: len(chunks[i]))
    c.record(0, [1, 2])
    with open(ck, "a") as f:
        f.write('{"task": 1, "counts": [5, 6, 7]}\n{"task": 2, "counts": [99, 99, 99]}\n{"task": 9, "counts": [1]}\n')
    again = D.Checkpoint(ck, header, expect=lambda i: len(chunks[i]) if i < len(chunks) else -1)
    assert sorted(again.done) == [0, 2]  # task 1's record has the wrong length, task 9 does not exist
    out = D.map_chunks(_lengths, chunks, client, broadcast=(0,), checkpoint=again)
    assert out[1] == [3] and list(out[2]) == [99, 99, 99]  # recorded chunks are not recomputed
    with pytest.raises(D.DistributedError, match="another run"):
        D.Checkpoint(ck, {"work": "other"})
    junk = tmp_path / "junk"
    junk.write_bytes(bytes(range(256)))
    with pytest.raises(D.DistributedError, match="cannot be read|another run"):
        D.Checkpoint(junk, header)


def test_draughts_api_accepts_a_client(client):
    p = Position.initial()
    assert perft(p, 6, client=client) == 167140
    assert divide(p, 5, client=client, split_depth=2) == divide(p, 5)


def test_cli_local_workers(capsys):
    from numba_words.cli import main

    assert main(["perft", "--depth", "6", "--local-workers", "2"]) == 0
    out, err = capsys.readouterr()
    assert "Nodes searched: 167140" in out and "tasks" in err and "cluster: 2 workers" in err


def test_bookworm_solve_many_matches_serial(client, twl):
    import numpy as np

    from numba_words.bookworm import solve_many
    from numba_words.bookworm.solver import BOOKWORM

    rng = np.random.default_rng(3)
    boards = rng.integers(0, 26, size=(300, BOOKWORM.n_tiles)).astype(np.uint8)
    local = solve_many(boards, twl)
    dist = solve_many(boards, twl, client=client, chunk_size=64)
    assert np.array_equal(local.offsets, dist.offsets)
    assert np.array_equal(local.wid, dist.wid) and np.array_equal(local.scores, dist.scores)
    assert [s.words for s in local][:5] == [s.words for s in dist][:5]
    via_api = solve_many(boards[:50], twl, client=client, chunk_size=16)
    assert np.array_equal(via_api.wid, local.wid[: local.offsets[50]])
    with pytest.raises((D.DistributedError, ValueError)):
        solve_many(boards[:0], twl, client=client)


def test_scrabble_generate_many_matches_serial(client, twl):
    import numpy as np

    from numba_words.scrabble import Position

    cgps = ["15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACDINRT/ 0/0 0",
            "15/15/15/15/15/7L7/7U7/5BUG7/5I9/5D9/5SH8/6E8/6S8/15/15 DEFHNQR/ 24/15 0",
            "15/15/15/15/14G/9D4O/6QUAI4A/FEN4NeRVY2L/1HUMATES1E1A2I/9R1W1OE/10EPICS/10DEFT1/11d1A1/13L1/15 "
            "ADLNNSY/ 174/139 0"] * 5
    from numba_words.scrabble import generate_many

    got = [p.array for p in generate_many(cgps, lexicon=twl, client=client, chunk_size=4)]
    assert len(got) == len(cgps)
    for c, arr in zip(cgps, got):
        want = Position.from_cgp(c, lexicon=twl).legal_plays().array
        assert np.array_equal(np.sort(arr, order=list(arr.dtype.names)), np.sort(want, order=list(want.dtype.names)))
    assert [len(a) for a in got[:3]] == [337, 159, 307]  # the reference answers' placement counts
    with pytest.raises(ValueError):
        generate_many([], client=client)
    local = generate_many(cgps[:3], lexicon=twl)
    remote = generate_many(cgps[:3], lexicon=twl, client=client, chunk_size=2)
    assert [len(p) for p in local] == [len(p) for p in remote] == [337, 159, 307]
    assert [p.best().score for p in remote] == [22, 28, 31]
