"""Moby Dam as a DXP follower for the draughts benchmarks: start it, set its time a move, ask it for games or
for its move in a position. (Moby Dam: ``mobydam/main/mobydam`` as the peers kit builds it; its opening book
is ``book/book.opn`` beside ``main``.)"""
from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

from numba_words.draughts import Position
from numba_words.draughts.dxp import Connection, GameEnd, MoveMessage, parse_message, request_game

#: Moby Dam's score of one man (its logs' ``score=``).
MD_MAN = 10_000_000


def find_binary(path: Path | None) -> Path:
    """``path``, or ``$NUMBA_WORDS_PEERS/mobydam/main/mobydam``; ``SystemExit`` if neither exists."""
    if path is None:
        peers = os.environ.get("NUMBA_WORDS_PEERS")
        if not peers:
            raise SystemExit("give --mobydam PATH (or set NUMBA_WORDS_PEERS)")
        path = Path(peers) / "mobydam" / "main" / "mobydam"
    path = Path(path).resolve()
    if not path.exists():
        raise SystemExit(f"no Moby Dam binary at {path}")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MobyDam:
    """A running Moby Dam listening on a free loopback port, connected: ``.conn`` is the DXP connection.
    ``move_ms`` is its hard limit a move (its console's ``time``); no endgame databases; ``tt_exp`` its ``-t``."""

    def __init__(self, binary: Path, workdir: Path, move_ms: int, tt_exp: int = 22, book: bool = True):
        self.binary = Path(binary)
        workdir.mkdir(parents=True, exist_ok=True)
        port = free_port()
        args = [str(self.binary), "-t", str(tt_exp), "-p", str(port)]
        book_file = self.binary.parent.parent / "book" / "book.opn"
        if book and book_file.exists():
            args[1:1] = ["-b", str(book_file)]
        self._out = open(workdir / "stdout.txt", "w")
        self._err = open(workdir / "stderr.txt", "w")
        self.proc = subprocess.Popen(args, cwd=workdir, stdin=subprocess.PIPE, stdout=self._out, stderr=self._err,
                                     text=True)
        self.set_time(move_ms)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.conn = Connection.connect("127.0.0.1", port, timeout=5)
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise SystemExit(f"Moby Dam did not start listening on port {port} (see {workdir}/stderr.txt)")
                time.sleep(0.2)

    def set_time(self, move_ms: int) -> None:
        self.proc.stdin.write(f"time {int(move_ms)}\n")
        self.proc.stdin.flush()

    def best_move(self, position: Position, timeout: float = 120.0):
        """Moby Dam's move in ``position`` (it plays the side to move of a one-move game we then end)."""
        request_game(self.conn, position, not position.turn, 999, 0, name="numba_words tactics")
        t_end = time.monotonic() + timeout
        move = None
        while move is None:
            text = self.conn.receive(timeout=max(0.0, t_end - time.monotonic()))
            if text is None:
                raise SystemExit("Moby Dam gave no move in time")
            msg = parse_message(text)
            if isinstance(msg, MoveMessage):
                move = msg.find(position)
        self.conn.send(GameEnd(0, 0))
        while True:  # its answering game end
            text = self.conn.receive(timeout=10)
            if text is None or text[:1] == "E":
                break
        return move

    def close(self) -> None:
        conn = getattr(self, "conn", None)
        if conn is not None:
            conn.close()
        try:
            self.proc.stdin.write("exit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self._out.close()
        self._err.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
