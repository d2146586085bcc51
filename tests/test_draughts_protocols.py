"""The Hub and DamExchange (DXP) protocols: syntax, notation against pydraughts (an independent implementation),
a full game driven by pydraughts' HubEngine, a DXP game between two of our engines over loopback, and stop /
ping / quit answered while a search runs."""
from __future__ import annotations

import io
import random
import socket
import subprocess
import sys
import threading

import pytest

from numba_words.draughts import Game, Position
from numba_words.draughts.dxp import (ACCEPT, BackAccept, BackRequest, Chat, Connection, GameAccept, GameEnd,
                                      GameRequest, MoveMessage, board_to_dxp, initiate, parse_message, serve)
from numba_words.draughts.errors import IllegalMoveError, ProtocolError
from numba_words.draughts.hub import (HubEngine, format_line, move_from_hub, move_to_hub, parse_line,
                                      position_from_hub, position_to_hub)

ENGINE = "numba_words.draughts:Engine"  # the engine the protocol tests serve
INITIAL_HUB = "W" + "b" * 20 + "e" * 10 + "w" * 20


def _engine_class():
    from numba_words.draughts.hub import load_engine_factory

    return load_engine_factory(ENGINE)


# ---- Hub syntax -----------------------------------------------------------------------------------------------
def test_parse_line_scan_syntax():
    assert parse_line("go think") == ("go", {"think": ""})
    assert parse_line('pos pos=W' + "e" * 50 + ' moves="32-28 19-23"') == \
        ("pos", {"pos": "W" + "e" * 50, "moves": "32-28 19-23"})
    assert parse_line("  level   move-time = 1.5 ") == ("level", {"move-time": "1.5"})
    assert parse_line('set-param name=x value=""') == ("set-param", {"name": "x", "value": ""})
    line = format_line("info", ("depth", 3), ("pv", "32-28 19-23"), ("score", "-0.25"), ("empty", ""))
    assert line == 'info depth=3 pv="32-28 19-23" score=-0.25 empty=""'
    assert parse_line(line)[1] == {"depth": "3", "pv": "32-28 19-23", "score": "-0.25", "empty": ""}


@pytest.mark.parametrize("bad", ["", "   ", 'pos moves="32-28', "=x", 'go ="x"', "level =", None, 5])
def test_parse_line_rejects(bad):
    with pytest.raises(ProtocolError):
        parse_line(bad)


def test_hub_positions_round_trip_and_reject():
    assert position_from_hub(INITIAL_HUB) == Position.initial()
    rng = random.Random(7)
    for seed in range(5):
        g = Game.selfplay(seed=seed, max_plies=rng.randrange(20, 120))
        for p in g.positions():
            assert position_from_hub(position_to_hub(p)) == p
    for bad in ["X" + "e" * 50, "W" + "e" * 49, "W" + "x" * 50, "W" + "w" + "e" * 49 + "e", 12,
                "B" + "w" * 5 + "e" * 45]:  # the last: white men on their crowning row
        with pytest.raises(ProtocolError):
            position_from_hub(bad)


def test_hub_moves_match_pydraughts():
    """Every legal move in positions of random games: pydraughts' Hub notation names exactly one of our
    moves, and our notation of it names the same from, to and captured squares."""
    draughts = pytest.importorskip("draughts")
    rng = random.Random(3)
    checked = captures = 0
    for game in range(2):
        board = draughts.Board()
        pos = Position.initial()
        for _ in range(90):
            ours = list(pos.legal_moves)
            theirs = board.legal_moves()
            if not ours or board.is_over():
                break
            assert len(theirs) == len(ours)
            seen = set()
            for mv in theirs:
                m = move_from_hub(pos, mv.hub_move)
                seen.add(m)
                assert move_from_hub(pos, move_to_hub(m)) == m
                parts = mv.hub_move.replace("-", "x").split("x")
                assert (int(parts[0]), int(parts[1]), sorted(map(int, parts[2:]))) == \
                    (m.from_square, m.to_square, sorted(m.captured))
                checked += 1
                captures += bool(m.captured)
            assert seen == set(ours)
            k = rng.randrange(len(theirs))
            pos.push(move_from_hub(pos, theirs[k].hub_move))
            board.push(theirs[k])
    assert checked > 300 and captures > 10


def test_hub_move_errors():
    p = Position.initial()
    for bad in ["32", "32-28x19", "28x19-23", "0-5", "32-99", "a-b", "", "32 28"]:
        with pytest.raises(ProtocolError):
            move_from_hub(p, bad)
    with pytest.raises(IllegalMoveError):
        move_from_hub(p, "32-23")
    p = Position("W:W28:B23")
    assert move_to_hub(move_from_hub(p, "28x19x23")) == "28x19x23"
    with pytest.raises(IllegalMoveError):
        move_from_hub(p, "28x19")  # Hub captures name the captured pieces


# ---- Hub engine loop (a stand-in engine: the protocol, not the search, is under test) -----------------------
class _Result:
    def __init__(self, move, depth, nodes):
        self.move, self.depth, self.nodes = move, depth, nodes
        self.score, self.win_in, self.pv, self.time, self.nps = 0.25, None, [move], 0.01, 1e6
        self.ponder = None


class _SlowEngine:
    """Deepens one 'ply' every few milliseconds until stopped or its depth is reached; always the first legal
    move. Records the keyword arguments of each search."""

    def __init__(self, threads=1, hash_mb=64):
        self.threads, self.hash_mb, self.calls, self.new_games = threads, hash_mb, [], 0

    def new_game(self):
        self.new_games += 1

    def search(self, position, callback=None, stop=None, **kw):
        self.calls.append(kw)
        move = list(position.legal_moves)[0]
        stop = stop or threading.Event()
        depth = 0
        while depth < kw.get("depth", 10 ** 9) and not stop.wait(0.005):
            depth += 1
            if callback:
                callback(_Result(move, depth, depth * 100))
        return _Result(move, depth, depth * 100)


class _Out(io.StringIO):
    def __init__(self):
        super().__init__()
        self.lines_seen = threading.Condition()

    def write(self, s):
        with self.lines_seen:
            n = super().write(s)
            self.lines_seen.notify_all()
            return n

    def wait_for(self, text, timeout=30.0):
        with self.lines_seen:
            assert self.lines_seen.wait_for(lambda: text in self.getvalue(), timeout), self.getvalue()


def _hub(engine_holder=None):
    out = _Out()
    made = []

    def factory(**kw):
        made.append(_SlowEngine(**kw))
        return made[-1]

    return HubEngine(factory, out), out, made


def test_hub_session_commands_and_errors():
    hub, out, made = _hub()
    for line in ["hub", "set-param name=threads value=2", "set-param name=hash value=16", "init",
                 "", "bogus x=1", "pos pos=xyz", 'pos moves="32-28', "level depth=zero", "level move-time=-1",
                 "set-param name=threads value=0", "set-param name=variant value=frisian",
                 "set-param name=unknown value=3", "new-game", "ping",
                 f'pos pos={INITIAL_HUB} moves="32-28 19-23 28x19x23"', "level depth=3", "go think"]:
        assert hub.handle(line)
    hub.wait()
    text = out.getvalue().splitlines()
    assert text[0].startswith("id name=numba_words")
    assert "wait" in text and "ready" in text and "pong" in text
    errors = [t for t in text if t.startswith("error message=")]
    assert len(errors) == 7, errors
    assert made[-1].threads == 2 and made[-1].hash_mb == 16 and made[-1].new_games == 1
    assert made[-1].calls == [{"depth": 1}, {"depth": 3}]  # the warm-up at init, then the search
    infos = [parse_line(t)[1] for t in text if t.startswith("info")]
    assert [int(i["depth"]) for i in infos] == [1, 2, 3]
    assert infos[-1]["score"] == "0.25" and infos[-1]["nodes"] == "300" and infos[-1]["nps"] == "1.00"
    after = Position.initial()
    for m in ["32-28", "19-23", "28x19"]:
        after.push_notation(m)
    assert parse_line(text[-1])[1]["move"] == move_to_hub(list(after.legal_moves)[0])
    assert hub.handle("quit") is False


def test_hub_level_forms():
    hub, out, made = _hub()
    for line in ["init", f"pos pos={INITIAL_HUB}", "level move-time=0.2", "go think", "stop",
                 f"pos pos={INITIAL_HUB}", "level time=30 inc=0.5 moves=20", "go think", "stop",
                 f"pos pos={INITIAL_HUB}", "level nodes=5000", "go analyze", "stop",
                 f"pos pos={INITIAL_HUB}", "level infinite", "go think", "stop",
                 f"pos pos={INITIAL_HUB}", "go think", "stop"]:
        hub.handle(line)
        if line == "stop":
            hub.finish()
    calls = made[-1].calls[1:]  # after the warm-up at init
    assert calls[0] == {"time": 0.2}
    assert calls[1] == {"remaining": 30.0, "increment": 0.5, "moves_to_go": 20}
    assert calls[2] == {"nodes": 5000}
    assert calls[3]["depth"] >= 50 and calls[4] == {"time": 1.0}


def test_hub_answers_ping_stop_quit_while_searching():
    hub, out, made = _hub()
    hub.handle("init")
    hub.handle(f"pos pos={INITIAL_HUB}")
    hub.handle("level infinite")
    hub.handle("go analyze")
    out.wait_for("info depth=2")
    assert hub.searching()
    hub.handle("ping")
    out.wait_for("pong")
    assert hub.searching() and "done" not in out.getvalue()
    hub.handle("stop")
    out.wait_for("done move=")
    hub.finish()
    assert not hub.searching()
    # quit during a search: the search ends with its move, then the loop ends
    hub.handle(f"pos pos={INITIAL_HUB}")
    hub.handle("go ponder")
    out.wait_for("info", timeout=30)
    hub.handle("ponder-hit")
    assert hub.handle("quit") is False
    assert out.getvalue().count("done move=") == 2


def test_hub_run_until_end_of_input():
    out = _Out()
    stdin = io.StringIO("hub\ninit\npos pos=" + INITIAL_HUB + "\nlevel depth=2\ngo think\n")
    assert HubEngine(lambda **kw: _SlowEngine(**kw), out).run(stdin) == 0
    assert out.getvalue().splitlines()[-1].startswith("done move=")


# ---- DXP messages ---------------------------------------------------------------------------------------------
def test_dxp_messages_round_trip():
    p = Position("B:W28,K45:B23,K1")
    req = GameRequest("Tornado voor Windows 4.0", False, 60, 65, p)
    text = req.encode()
    assert text[:3] == "R01" and len(text) == 94 and text[35] == "Z" and text[36:42] == "060065" and text[42:44] == "BZ"
    assert board_to_dxp(p)[0] == "Z" and board_to_dxp(p)[44] == "W"
    assert parse_message(text) == req
    assert parse_message(GameRequest("x", True, 5, 0).encode()) == GameRequest("x", True, 5, 0)
    # Moby Dam's and pydraughts' examples
    assert parse_message("R01Tornado voor Windows 4.0        W060065A") == \
        GameRequest("Tornado voor Windows 4.0", True, 60, 65)
    assert parse_message("M001205250422122320") == MoveMessage(12, 5, 25, (22, 12, 23, 20))
    mv = move_from_hub(Position("W:W28:B23"), "28x19x23")
    assert MoveMessage.of(mv, 3.4).encode() == "M0003281901" + "23"
    assert MoveMessage.of(mv).find(Position("W:W28:B23")) == mv
    with pytest.raises(IllegalMoveError):
        MoveMessage(0, 28, 19, ()).find(Position("W:W28:B23"))
    for m in [GameAccept("Moby Dam", ACCEPT), GameEnd(2, 1), Chat("hello there"), BackRequest(5, False),
              BackAccept(0)]:
        assert parse_message(m.encode()) == m


@pytest.mark.parametrize("bad", ["", "X123", "R01short", "R02" + "n" * 32 + "W060065A" * 0 + "Q060065A",
                                 "R01" + "n" * 32 + "W0a0065A", "R01" + "n" * 32 + "W060065B" + "W" + "e" * 10,
                                 "R01" + "n" * 32 + "W060065C", "M00120525", "M0012052502221", "M0012995100",
                                 "E", "E2", "Ax", "B01", "B001Q", "K", "M" + "0" * 200])
def test_dxp_malformed_messages_raise(bad):
    with pytest.raises(ProtocolError):
        parse_message(bad)


def test_dxp_connection_framing():
    a, b = socket.socketpair()
    ca, cb = Connection(a), Connection(b)
    try:
        a.sendall(b"CA\0CB")
        assert cb.receive(timeout=5) == "CA"
        assert cb.receive(timeout=0.05) is None  # half a message: wait for its end code
        a.sendall(b"C\0")
        assert cb.receive(timeout=5) == "CBC"
        ca.send(GameEnd(1, 0))
        assert cb.receive(timeout=5) == "E10"
        a.sendall(b"x" * 600)
        with pytest.raises(ProtocolError):
            cb.receive(timeout=5)
        ca.close()
        with pytest.raises(ConnectionError):
            cb.receive(timeout=5)
    finally:
        ca.close()
        cb.close()


# ---- the real engine over both protocols -------------------------------------------------------------------
@pytest.mark.slow  # a subprocess: with bounds checking it would compile every kernel afresh
def test_pydraughts_plays_a_full_game_through_hub(tmp_path):
    """pydraughts' HubEngine starts ``numba-words draughts hub`` and plays both sides of a game to its end at a
    fixed depth; every move it gets is legal in pydraughts' own move generator."""
    draughts = pytest.importorskip("draughts")
    from draughts.engine import HubEngine as PyHub, Limit

    script = tmp_path / "hub.sh"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m numba_words draughts hub --engine {ENGINE}\n')
    script.chmod(0o755)
    eng = PyHub([str(script)])
    try:
        eng.init()
        eng.ping()
        board = draughts.Board()
        pos = Position.initial()
        plies = 0
        while not board.is_over() and not pos.is_game_over() and plies < 300:
            res = eng.play(board, Limit(depth=2), ponder=False)
            assert res.move.hub_move in [m.hub_move for m in board.legal_moves()]
            assert "depth" in res.info and "nodes" in res.info
            board.push(res.move)
            pos.push(move_from_hub(pos, res.move.hub_move))
            plies += 1
        assert plies >= 20
        assert board.is_over() or pos.is_game_over()
    finally:
        eng.quit()
        try:
            eng.p.wait(timeout=60)
        finally:
            if eng.p.poll() is None:
                eng.kill_process()
            eng.p.stdin.close()
            eng.p.stdout.close()


def test_dxp_game_between_two_engines_over_loopback():
    """Two of our engines, follower and initiator, over 127.0.0.1: two short games from a middle-game
    position, colours swapped; every move is checked legal by both sides; the game ends by the rules."""
    Engine = _engine_class()
    start = Position("W:W27,28,32,33,37,38,42,43,47,48:B3,4,8,9,13,14,18,19,23,24")
    srv = socket.create_server(("127.0.0.1", 0))
    port = srv.getsockname()[1]
    follower_reports = []

    def follow():
        sock, _ = srv.accept()
        conn = Connection(sock)
        try:
            follower_reports.extend(serve(conn, _DepthLimited(Engine(threads=1, hash_mb=8), 3)))
        finally:
            conn.close()

    t = threading.Thread(target=follow, daemon=True)
    t.start()
    conn = Connection.connect("127.0.0.1", port)
    try:
        reports = initiate(conn, _DepthLimited(Engine(threads=1, hash_mb=8), 3), [start, start],
                           colors=[True, False], minutes=1, max_plies=160)
    finally:
        conn.close()
        srv.close()
    t.join(timeout=120)
    assert not t.is_alive()
    assert len(reports) == 2 == len(follower_reports)
    for ours, theirs in zip(reports, follower_reports):
        # the initiator ends a game by the rules or its ply limit; a reply the follower sent meanwhile crosses the
        # game-end message, so the follower's record may hold that one move more
        assert len(ours.game) > 0 and len(theirs.game) - len(ours.game) in (0, 1)
        assert theirs.game.moves[:len(ours.game)] == ours.game.moves
        assert ours.game.result in ("2-0", "0-2", "1-1") and ours.game.result == theirs.game.result
        assert not ours.peer_errors and not theirs.peer_errors
        replay = Game(start, ours.game.moves)  # legal from the start, by our own rules
        out = replay.outcome()
        assert out is not None or len(replay) >= 160


class _DepthLimited:
    """The engine searching to a fixed depth whatever time it is given (keeps the game deterministic)."""

    def __init__(self, engine, depth):
        self.engine, self.depth = engine, depth

    def new_game(self):
        self.engine.new_game()

    def search(self, position, **kw):
        return self.engine.search(position, depth=self.depth)


def test_stop_ends_a_real_search_with_a_move():
    Engine = _engine_class()
    out = _Out()
    hub = HubEngine(Engine, out)
    hub.handle("init")
    hub.handle(f"pos pos={INITIAL_HUB}")
    hub.handle("level infinite")
    hub.handle("go analyze")
    out.wait_for("info depth=", timeout=120)
    hub.handle("stop")
    hub._thread.join(timeout=30)  # generous: the contract's 0.2 s is not measured on a shared machine
    assert not hub.searching()
    done = parse_line(out.getvalue().splitlines()[-1])
    assert done[0] == "done" and move_from_hub(Position.initial(), done[1]["move"]) in list(
        Position.initial().legal_moves)


@pytest.mark.slow  # a subprocess: with bounds checking it would compile every kernel afresh
def test_ctrl_c_ends_hub_search_with_a_move(tmp_path):
    """SIGINT to ``numba-words draughts hub`` during an infinite search: it answers done with a legal move
    and exits."""
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "numba_words", "draughts", "hub", "--engine", ENGINE],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    try:
        proc.stdin.write(f"init\npos pos={INITIAL_HUB}\nlevel infinite\ngo analyze\n")
        proc.stdin.flush()
        lines = []
        while True:
            line = proc.stdout.readline()
            assert line, lines
            lines.append(line.strip())
            if line.startswith("info"):
                break
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
        done = [ln for ln in rest.splitlines() if ln.startswith("done")]
        assert len(done) == 1
        mv = parse_line(done[0])[1]["move"]
        assert move_from_hub(Position.initial(), mv) in list(Position.initial().legal_moves)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.slow  # a subprocess: with bounds checking it would compile every kernel afresh
def test_dxp_command_line_both_roles(tmp_path):
    """``numba-words draughts dxp --listen`` and ``--connect`` as two processes: one game over loopback; both
    report the same result and the PDN written by the initiator reads back to a legal game."""
    from numba_words.draughts import read_pdn

    start = "W:W32,33,37,38,42,43:B8,9,13,14,18,19"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = [sys.executable, "-m", "numba_words", "draughts", "dxp", "--time", "0.02", "--engine", ENGINE,
            "--hash", "8"]
    follower = subprocess.Popen(base + ["--listen", str(port), "--games", "1"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    try:
        assert "listening" in follower.stderr.readline()
        pdn = tmp_path / "game.pdn"
        initiator = subprocess.run(base + ["--connect", f"127.0.0.1:{port}", "--fen", start, "--color", "black",
                                           "--pdn", str(pdn)], capture_output=True, text=True, timeout=300)
        assert initiator.returncode == 0, initiator.stderr
        out, _ = follower.communicate(timeout=60)
        assert follower.returncode == 0
        ours, theirs = initiator.stdout.split()[0], out.split()[0]
        assert ours == theirs and ours in ("2-0", "0-2", "1-1")
        game, = read_pdn(pdn.read_text())
        assert game.start_fen == Position(start).fen() and game.result == ours and len(game) > 0
        assert game.headers["Black"] == "numba_words"
    finally:
        if follower.poll() is None:
            follower.kill()
            follower.communicate()
