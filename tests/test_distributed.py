"""Dask scale-out: same answers as one machine, worker loss, checkpoints, bad input."""
from __future__ import annotations

import os
import signal

import pytest

distributed = pytest.importorskip("distributed")

from numba_words import distributed as D  # noqa: E402
from numba_words.draughts import Position, divide, perft, perft_tasks  # noqa: E402

KINGS = ["W:WK31-50:BK1-20", "W:WK46,K47,28,33:BK5,K4,19,23", "B:W27,K38,40:BK12,K22,13,14"]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0", processes=True)
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


def test_checkpoint_resumes_on_a_cluster_of_another_size(client, tmp_path):
    """The default split and task count depend on the tree only: a run started on 2 workers finishes on 1."""
    p = Position.initial()
    ck = tmp_path / "perft9.ckpt"

    class Stop(Exception):
        pass

    def stop_after_2(done, total, *_):
        if done >= 2:
            raise Stop

    with pytest.raises(Stop):
        perft(p, 9, client=client, checkpoint=ck, progress=stop_after_2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as c1, \
            distributed.Client(c1) as small:
        counts, _, info = perft_tasks(p, 9, small, checkpoint=ck)
        assert info["threads"] == 1 and info["resumed_tasks"] >= 2 and int(counts.sum()) == 41022423
        assert divide(p, 9, client=small, checkpoint=ck) == divide(p, 9)
    # the split itself is a function of the position and depth: the same on every cluster
    _, _, info = perft_tasks(p, 9, client, checkpoint=ck)
    assert info["resumed_tasks"] == info["tasks"] > 1


def test_checkpoint_record_of_the_wrong_length_is_recounted(client, tmp_path):
    import json

    p = Position.initial()
    ck = tmp_path / "perft6.ckpt"
    counts, _, info = perft_tasks(p, 6, client, split_depth=3, n_tasks=5, checkpoint=ck)
    lines = ck.read_text().splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    # a damaged record: task 0 with one count too many (whose sum would inflate the total) and one too few
    bad = [dict(recs[0], counts=recs[0]["counts"] + [10**9]), dict(recs[1], counts=recs[1]["counts"][:-1])]
    ck.write_text("\n".join([lines[0]] + [json.dumps(r) for r in bad + recs[2:]]) + "\n")
    again, _, info = perft_tasks(p, 6, client, split_depth=3, n_tasks=5, checkpoint=ck)
    assert info["resumed_tasks"] == 3 and int(again.sum()) == 167140 and (again == counts).all()


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


@pytest.mark.parametrize("address, message", [
    ("tls://", "needs a host and a port"),
    ("foo://bar", "unknown protocol 'foo'"),
    ("tcp://:", "no valid host"),
    ("tcp://host", "needs a host and a port"),
    ("tcp://host:0", "port from 1 to 65535"),
    ("tcp://host:99999", "port from 1 to 65535"),
    ("tcp://host:80x", "port from 1 to 65535"),
    ("tcp://[::1", "IPv6"),
    ("tcp://a b:80", "no valid host"),
    ("inproc://", "no in-process scheduler"),
    ("tcp://" + "h" * 10_000 + ":1:2", "no valid host"),
])
def test_bad_addresses(address, message):
    with pytest.raises(D.DistributedError, match=message) as e:
        D.get_client(address, timeout=1)
    assert len(str(e.value)) < 300
    assert D.check_address("tcp://127.0.0.1:8786") and D.check_address("[::1]:8786") and D.check_address("h:1")
    with pytest.raises(D.DistributedError, match="timeout"):
        D.get_client("tcp://127.0.0.1:8786", timeout=0)


def test_get_client_from_an_address(client):
    address = client.scheduler.address
    c = D.get_client(address, timeout=10)
    try:
        assert c is not client and c.scheduler.address == address
        assert D.cluster_threads(c) == 2
        assert D.map_chunks(_lengths, [["a", "bb"], ["ccc"]], address, broadcast=(1,)) == [[2, 3], [4]]
    finally:
        c.close()


def _junk_server(reply: bytes | None, lifetime: float = 30.0):
    """A TCP server on the loopback interface that accepts connections and answers ``reply`` (HTTP junk) or
    nothing (``None``): it serves at most ``lifetime`` seconds, then closes everything by itself."""
    import socket
    import threading
    import time

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    srv.settimeout(0.2)
    port = srv.getsockname()[1]

    def run():
        held = []
        end = time.monotonic() + lifetime
        while time.monotonic() < end:
            try:
                conn, _ = srv.accept()
            except socket.timeout:
                continue
            if reply is not None:
                conn.settimeout(1.0)
                try:
                    conn.recv(65536)
                    conn.sendall(reply)
                except OSError:
                    pass
            held.append(conn)
        for c in held:
            c.close()
        srv.close()

    threading.Thread(target=run, daemon=True, name="junk-server").start()
    return f"tcp://127.0.0.1:{port}"


@pytest.mark.parametrize("reply, message", [
    (b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<html>no</html>", "not a Dask scheduler"),
    (b"\x05\x00\x00\x00\x00\x00\x00\x00junk", "not a Dask scheduler|cannot reach"),
    (None, "cannot reach .* within 2 s"),
])
def test_a_server_that_is_not_dask_is_an_error_not_a_hang(reply, message):
    address = _junk_server(reply)
    with pytest.raises(D.DistributedError, match=message):
        D.get_client(address, timeout=2)
    if reply is not None and reply.startswith(b"HTTP"):  # (a silent server takes map_chunks' 10 s to give up)
        with pytest.raises(D.DistributedError):
            D.map_chunks(len, [[1]], address)


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
    with pytest.raises(D.DistributedError, match="not a checkpoint"):
        D.Checkpoint(junk, header)


def test_checkpoint_paths_that_cannot_be_checkpoints(tmp_path):
    header = {"work": "x"}
    cases = [(tmp_path, "is a directory"), ("/dev/null", "not a regular file"),
             (tmp_path / "a\0b", "cannot be used"), (tmp_path / "text", "first line is not a JSON header")]
    (tmp_path / "text").write_text("hello\n")
    (tmp_path / "file").write_text("x")
    cases.append((tmp_path / "file" / "ck", "cannot be used"))
    for path, message in cases:
        with pytest.raises(D.DistributedError, match=message):
            D.Checkpoint(path, header)
    with pytest.raises(D.DistributedError, match="header"):
        D.Checkpoint(tmp_path / "new", {"work": object()})
    ck = D.Checkpoint(tmp_path / "sub" / "new.ckpt", header, expect=lambda i: [1, 2][i])  # IndexError past 1
    ck.record(0, [5])
    with open(ck.path, "a") as f:
        f.write('{"task": 7, "counts": [1]}\n{"task": 1, "counts": [1, 2]}\n')
    assert sorted(D.Checkpoint(ck.path, header, expect=lambda i: [1, 2][i]).done) == [0, 1]


def test_draughts_api_accepts_a_client(client):
    p = Position.initial()
    assert perft(p, 6, client=client) == 167140
    assert divide(p, 5, client=client, split_depth=2) == divide(p, 5)


def test_cli_local_workers(capsys, tmp_path):
    import json

    from numba_words.cli import main

    ck = tmp_path / "cli.ckpt"
    assert main(["draughts", "perft", "6", "--local-workers", "2", "--tasks", "5", "--checkpoint", str(ck)]) == 0
    out, err = capsys.readouterr()
    assert "Nodes searched: 167140" in out and "5 tasks" in err and "cluster: 2 workers" in err
    assert main(["perft", "--depth", "6", "--divide", "--json", "--local-workers", "1", "--tasks", "5",
                 "--checkpoint", str(ck)]) == 0
    out, err = capsys.readouterr()
    rec = json.loads(out)
    assert rec["nodes"] == 167140 == sum(rec["moves"].values()) and "5 resumed" in err


def test_cli_ctrl_c_with_local_workers_is_one_line():
    """Ctrl-C reaches the whole process group (the workers too): one line, no worker tracebacks."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    repo = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=repo + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, "-m", "numba_words", "draughts", "perft", "13", "--local-workers", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    line = p.stderr.readline()  # "cluster: ..." once the workers are up
    assert line.startswith("cluster: 2 workers"), line
    time.sleep(3)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130 and out == "" and err.strip().splitlines() == ["interrupted"], err[-2000:]


def test_bookworm_solve_many_matches_serial(client, twl):
    import numpy as np

    from numba_words.bookworm import BOOKWORM, solve_many

    rng = np.random.default_rng(3)
    boards = rng.integers(0, 26, size=(300, BOOKWORM.n_tiles)).astype(np.uint8)
    local = solve_many(boards, twl)
    dist = solve_many(boards, twl, client=client, chunk_size=64)
    assert np.array_equal(local.offsets, dist.offsets)
    assert np.array_equal(local.wid, dist.wid) and np.array_equal(local.scores, dist.scores)
    assert [s.words for s in local][:5] == [s.words for s in dist][:5]
    via_api = solve_many(boards[:50], twl, client=client, chunk_size=16)
    assert np.array_equal(via_api.wid, local.wid[: local.offsets[50]])
    empty = solve_many(boards[:0], twl, client=client)  # as without a client (it raised before)
    assert len(empty) == 0 and empty.offsets.tolist() == solve_many(boards[:0], twl).offsets.tolist() == [0]
    assert solve_many([], twl, client=client).offsets.tolist() == [0]  # (the call: a list)


def test_a_closed_client_is_a_library_error(client):
    from distributed import Client

    from numba_words.draughts import Position, perft

    closed = Client(client.scheduler.address)
    closed.close()
    with pytest.raises(D.DistributedError, match="is closed"):  # (AttributeError before)
        perft(Position.initial(), 4, client=closed)


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


def test_close_interrupted_stops_restarts_then_kills_and_is_bounded():
    """After Ctrl-C: nannies told not to restart before their workers are killed (a restart under load kept the
    CLI from ending), and a close that hangs is waited for a bounded time only."""
    import threading
    import time

    events = []

    class Proc:
        def is_alive(self):
            return True

        def kill(self):
            events.append("kill")

    class Nanny:
        def __init__(self):
            self.process = type("WorkerProcess", (), {"process": Proc()})()

        def close_gracefully(self, reason):
            events.append("no restart")

    client = type("Client", (), {"cluster": type("Cluster", (), {"workers": {0: Nanny(), 1: Nanny()}})()})()
    release = threading.Event()
    assert D.close_interrupted(client, release.wait, seconds=0.2) is False  # a hung close: given up
    assert events == ["no restart", "no restart", "kill", "kill"]
    release.set()
    assert D.close_interrupted(client, lambda: time.sleep(0), seconds=60) is True
