"""DamExchange (DXP), the TCP protocol of draughts engines and GUIs (Moby Dam, Scan, Kingsrow, Dam 2.x), for
``numba-words draughts dxp``.

Messages are ASCII text ended by a NUL byte; the first character says what they are:

=============  =====================================================================================================
``R``          game request (initiator): ``R01`` + name (32) + follower's colour (``W``/``Z``) + minutes (3) + moves
               (3) + ``A`` (initial position) or ``B`` + side to move + 50 squares (``e w z W Z``)
``A``          game accept (follower): ``A`` + name (32) + code (``0`` yes, ``1`` not this version, ``2`` busy,
               ``3`` not this position/colour)
``M``          move: ``M`` + seconds used (4) + from (2) + to (2) + number captured (2) + captured squares (2 each)
``E``          game end: ``E`` + reason (``0`` unknown, ``1`` I lose, ``2`` draw, ``3`` I win) + stop code
               (``0`` another game welcome, ``1`` no more games); the other side answers with a game end
``C``          chat: ``C`` + text
``B``, ``K``   take-back request (``B`` + move number (3) + side to move ``W``/``Z``) and its answer (``K`` + code)
=============  =====================================================================================================

:func:`play_game` plays one game over a :class:`Connection` in either role; :func:`serve` (``--listen``) waits
for game requests, :func:`initiate` (``--connect``) sends them.
"""
from __future__ import annotations

import dataclasses
import socket
import threading
import time as _time
from typing import Callable

from .errors import DraughtsError, IllegalMoveError, ProtocolError, quote
from .game import Game
from .moves import Move
from .position import WHITE, Position

VERSION = 1
NAME_WIDTH = 32
#: Longest message we accept (Moby Dam's buffer is 128 bytes, the end code included).
MAX_MESSAGE = 127
ACCEPT, REFUSE_VERSION, REFUSE_BUSY, REFUSE_POSITION = 0, 1, 2, 3
UNKNOWN, I_LOSE, DRAW, I_WIN = 0, 1, 2, 3


# ---- messages ---------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class GameRequest:
    name: str
    follower_color: bool            # WHITE (True) or BLACK (False): the colour the follower plays
    minutes: int                    # thinking time for the game (each side)
    moves: int                      # moves in that time (0: the whole game)
    position: Position | None = None  # None: the initial position

    def encode(self) -> str:
        s = f"R{VERSION:02d}{_name(self.name)}{'W' if self.follower_color else 'Z'}{_num(self.minutes, 3)}" \
            f"{_num(self.moves, 3)}"
        if self.position is None:
            return s + "A"
        return s + "B" + ("W" if self.position.turn else "Z") + board_to_dxp(self.position)


@dataclasses.dataclass(frozen=True)
class GameAccept:
    name: str
    code: int = ACCEPT

    def encode(self) -> str:
        return f"A{_name(self.name)}{_num(self.code, 1)}"


@dataclasses.dataclass(frozen=True)
class MoveMessage:
    seconds: int
    from_square: int
    to_square: int
    captured: tuple[int, ...]

    @classmethod
    def of(cls, move: Move, seconds: float = 0) -> "MoveMessage":
        return cls(min(int(round(seconds)), 9999), move.from_square, move.to_square, tuple(move.captured))

    def encode(self) -> str:
        return f"M{_num(self.seconds, 4)}{_num(self.from_square, 2)}{_num(self.to_square, 2)}" \
               f"{_num(len(self.captured), 2)}" + "".join(_num(s, 2) for s in self.captured)

    def find(self, position: Position) -> Move:
        """The legal move of ``position`` this message names (from, to and the set of captured pieces);
        :class:`IllegalMoveError` if there is none."""
        caps = tuple(sorted(self.captured))
        for m in position.legal_moves:
            if m.from_square == self.from_square and m.to_square == self.to_square and m.captured == caps:
                return m
        raise IllegalMoveError(f"illegal DXP move {self.encode()!r} in {position.fen()!r}")


@dataclasses.dataclass(frozen=True)
class GameEnd:
    reason: int = UNKNOWN
    stop: int = 0

    def encode(self) -> str:
        return f"E{_num(self.reason, 1)}{_num(self.stop, 1)}"


@dataclasses.dataclass(frozen=True)
class Chat:
    text: str

    def encode(self) -> str:
        return "C" + "".join(c if 32 <= ord(c) < 127 else "?" for c in self.text)[:MAX_MESSAGE - 1]


@dataclasses.dataclass(frozen=True)
class BackRequest:
    move_number: int
    color: bool

    def encode(self) -> str:
        return f"B{_num(self.move_number, 3)}{'W' if self.color else 'Z'}"


@dataclasses.dataclass(frozen=True)
class BackAccept:
    code: int

    def encode(self) -> str:
        return f"K{_num(self.code, 1)}"


def _name(name: str) -> str:
    return "".join(c if 32 <= ord(c) < 127 else "?" for c in name)[:NAME_WIDTH].ljust(NAME_WIDTH)


def _num(v: int, width: int) -> str:
    if not 0 <= v < 10 ** width:
        raise ProtocolError(f"DXP field of {width} digits cannot hold {v!r}")
    return str(v).zfill(width)


def _digits(msg: str, start: int, width: int, what: str) -> int:
    field = msg[start:start + width]
    if len(field) != width or not field.isdigit():
        raise ProtocolError(f"DXP {what}: want {width} digits at column {start + 1}, got {quote(field)} in "
                            f"{quote(msg)}")
    return int(field)


def board_to_dxp(position: Position) -> str:
    """The 50 squares as DXP writes them: ``e`` empty, ``w``/``z`` white/black man, ``W``/``Z`` kings."""
    out = []
    for s in range(1, 51):
        p = position.piece_at(s)
        out.append({"w": "w", "b": "z", "W": "W", "B": "Z", None: "e"}[p])
    return "".join(out)


def board_from_dxp(turn_char: str, squares: str) -> Position:
    if turn_char not in ("W", "Z") or len(squares) != 50 or set(squares) - set("ewzWZ"):
        raise ProtocolError(f"bad DXP position {quote(turn_char + squares)} (W or Z, then 50 of e w z W Z)")
    lists = {"W": [], "B": []}
    for s, c in enumerate(squares, 1):
        if c != "e":
            lists["W" if c in "wW" else "B"].append(("K" if c in "WZ" else "") + str(s))
    try:
        return Position(f"{'W' if turn_char == 'W' else 'B'}:W{','.join(lists['W'])}:B{','.join(lists['B'])}")
    except DraughtsError as e:
        raise ProtocolError(f"bad DXP position: {e}") from None


def parse_message(msg: str):
    """The message object of a DXP message (without its NUL end code). Raises :class:`ProtocolError` on an
    unknown header, a short message or a non-numeric field."""
    if not isinstance(msg, str) or not msg:
        raise ProtocolError(f"empty or non-text DXP message {quote(msg)}")
    if len(msg) > MAX_MESSAGE:
        raise ProtocolError(f"DXP message longer than {MAX_MESSAGE} characters: {quote(msg)}")
    h = msg[0]
    if h == "R":
        if len(msg) < 43:
            raise ProtocolError(f"DXP game request too short: {quote(msg)}")
        version = _digits(msg, 1, 2, "game request version")
        color = msg[35]
        if color not in ("W", "Z"):
            raise ProtocolError(f"DXP game request: follower colour must be W or Z, got {quote(color)}")
        minutes = _digits(msg, 36, 3, "game request minutes")
        moves = _digits(msg, 39, 3, "game request moves")
        pos = None
        if msg[42] == "B":
            if len(msg) < 94:
                raise ProtocolError(f"DXP game request with a position too short: {quote(msg)}")
            pos = board_from_dxp(msg[43], msg[44:94])
        elif msg[42] != "A":
            raise ProtocolError(f"DXP game request: position flag must be A or B, got {quote(msg[42])}")
        req = GameRequest(msg[3:35].strip(), color == "W", minutes, moves, pos)
        return req if version == VERSION else _Unsupported(req, version)
    if h == "A":
        if len(msg) < 34:
            raise ProtocolError(f"DXP game accept too short: {quote(msg)}")
        return GameAccept(msg[1:33].strip(), _digits(msg, 33, 1, "game accept code"))
    if h == "M":
        seconds = _digits(msg, 1, 4, "move time")
        f, t = _digits(msg, 5, 2, "move from"), _digits(msg, 7, 2, "move to")
        n = _digits(msg, 9, 2, "move capture count")
        caps = tuple(_digits(msg, 11 + 2 * i, 2, "captured square") for i in range(n))
        if any(not 1 <= s <= 50 for s in (f, t, *caps)):
            raise ProtocolError(f"DXP move with a square outside 1-50: {quote(msg)}")
        return MoveMessage(seconds, f, t, caps)
    if h == "E":
        return GameEnd(_digits(msg, 1, 1, "game end reason"), _digits(msg, 2, 1, "game end stop code"))
    if h == "C":
        return Chat(msg[1:])
    if h == "B":
        n = _digits(msg, 1, 3, "take-back move number")
        if len(msg) < 5 or msg[4] not in ("W", "Z"):
            raise ProtocolError(f"DXP take-back request: side must be W or Z in {quote(msg)}")
        return BackRequest(n, msg[4] == "W")
    if h == "K":
        return BackAccept(_digits(msg, 1, 1, "take-back answer"))
    raise ProtocolError(f"unknown DXP message {quote(msg)}")


@dataclasses.dataclass(frozen=True)
class _Unsupported:
    """A game request of a DXP version we do not speak (answered with code 1)."""
    request: GameRequest
    version: int


# ---- transport ------------------------------------------------------------------------------------------------
class Connection:
    """DXP messages over a connected TCP socket: :meth:`send` adds the NUL end code, :meth:`receive` returns
    the next message text (``None`` on timeout) and raises :class:`ConnectionError` when the peer has gone.
    ``log(direction, text)`` is called for every message (``'>'`` sent, ``'<'`` received)."""

    def __init__(self, sock: socket.socket, log: Callable[[str, str], None] | None = None):
        self.sock = sock
        self._buf = b""
        self.log = log
        self._lock = threading.Lock()

    @classmethod
    def connect(cls, host: str, port: int, timeout: float = 10.0, log=None) -> "Connection":
        sock = socket.create_connection((host, port), timeout=timeout)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(sock, log)

    def send(self, message) -> None:
        text = message if isinstance(message, str) else message.encode()
        if self.log:
            self.log(">", text)
        with self._lock:
            self.sock.sendall(text.encode("ascii", "replace") + b"\0")

    def receive(self, timeout: float | None = None) -> str | None:
        deadline = None if timeout is None else _time.monotonic() + timeout
        while b"\0" not in self._buf:
            if deadline is not None:
                left = deadline - _time.monotonic()
                if left <= 0:
                    return None
                self.sock.settimeout(left)
            else:
                self.sock.settimeout(None)
            try:
                chunk = self.sock.recv(4096)
            except socket.timeout:
                return None
            if not chunk:
                raise ConnectionError("the DXP peer closed the connection")
            self._buf += chunk
            if b"\0" not in self._buf and len(self._buf) > 4 * MAX_MESSAGE:
                self._buf = b""
                raise ProtocolError("DXP stream without end codes (NUL) in 512 bytes")
        raw, self._buf = self._buf.split(b"\0", 1)
        text = raw.decode("ascii", "replace")
        if self.log:
            self.log("<", text)
        return text

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


# ---- playing a game -----------------------------------------------------------------------------------------
@dataclasses.dataclass
class GameReport:
    """How a DXP game went: the :class:`Game` record (its ``result`` is ``2-0``, ``0-2``, ``1-1`` or ``*``),
    why it ended, the peer's illegal or malformed moves, our moves that took longer than their time, the
    longest time one of our moves took and the total (seconds) over ``our_moves`` moves, and the stop code of
    the game end."""
    game: Game
    termination: str
    peer_errors: list = dataclasses.field(default_factory=list)
    overruns: list = dataclasses.field(default_factory=list)
    max_move_time: float = 0.0
    stop: int = 0
    our_moves: int = 0
    our_time: float = 0.0


def play_game(conn: Connection, engine, start: Position, our_color: bool, *, move_time: float | None = None,
              clock: float | None = None, moves_in_clock: int = 0, max_plies: int = 600, adjudicate: bool = True,
              name: str = "numba_words", peer_timeout: float | None = None, stop_code: int = 0,
              on_message: Callable | None = None) -> GameReport:
    """Play one game over ``conn`` (after the game request and accept), ``engine`` (``search(position,
    time=...)`` or ``remaining=``) playing ``our_color``.

    ``move_time`` seconds a move, else the clock: ``clock`` seconds for ``moves_in_clock`` moves (0: the
    game). With ``adjudicate`` we end the game with a game end as soon as the rules end it (no legal move:
    reason 1 on our turn; a draw rule: reason 2) and after ``max_plies`` (a draw); without it we only admit a
    loss when we have no move. A game end from the peer is answered with one (reason 0, the same stop code).
    A move of the peer that is malformed or illegal is recorded in ``peer_errors`` and ends the game (reason
    0, result ``*``). ``peer_timeout`` seconds without a message also end it."""
    game = Game(start, headers={"White": name if our_color else "DXP peer",
                                "Black": "DXP peer" if our_color else name})
    pos = start.copy()
    report = GameReport(game, "")
    used = 0.0
    moves_left = moves_in_clock

    def finish(reason_ours: int, why: str, result: str, wait_echo: bool = True):
        conn.send(GameEnd(reason_ours, stop_code))
        game.result = result
        report.termination = why
        if wait_echo:  # the peer answers with a game end; moves it sent meanwhile are dropped
            t_end = _time.monotonic() + 10.0
            while _time.monotonic() < t_end:
                try:
                    text = conn.receive(timeout=max(0.0, t_end - _time.monotonic()))
                except (ConnectionError, OSError):
                    break
                if text is None:
                    break
                if text[:1] == "E":
                    try:
                        report.stop = max(stop_code, parse_message(text).stop)
                    except ProtocolError:
                        pass
                    break
        return report

    def result_for(winner):
        return "1-1" if winner is None else ("2-0" if winner == WHITE else "0-2")

    while True:
        out = pos.outcome()
        if out is not None and (adjudicate or out.winner is not None and pos.turn == our_color):
            if out.winner is None:
                return finish(DRAW, out.termination, "1-1")
            if pos.turn == our_color:  # we cannot move: we lose
                return finish(I_LOSE, out.termination, result_for(out.winner))
            if adjudicate and out.winner == our_color:
                # the peer has no move: give it a moment to admit it (Moby Dam does), else claim the win
                text = conn.receive(timeout=2.0)
                if text is not None and text[:1] == "E":
                    conn.send(GameEnd(UNKNOWN, parse_message(text).stop))
                    game.result = result_for(out.winner)
                    report.termination = out.termination
                    return report
                return finish(I_WIN, out.termination, result_for(out.winner))
        if adjudicate and len(game) >= max_plies:
            return finish(DRAW, f"{max_plies} plies (adjudicated)", "1-1")
        if pos.turn == our_color:
            t0 = _time.perf_counter()
            if move_time is not None:
                res = engine.search(pos, time=move_time)
                limit = move_time
            else:
                remaining = max(0.01, (clock or 60.0) - used)
                res = engine.search(pos, remaining=remaining, moves_to_go=moves_left or None)
                limit = remaining
            dt = _time.perf_counter() - t0
            used += dt
            if moves_left:
                moves_left -= 1
                if moves_left == 0:
                    moves_left, used = moves_in_clock, 0.0
            report.max_move_time = max(report.max_move_time, dt)
            report.our_moves += 1
            report.our_time += dt
            move = res.move
            legal = list(pos.legal_moves)
            if move not in legal:  # never send an illegal move
                report.overruns.append((len(game), "illegal move from the engine", str(move)))
                move = legal[0]
            if dt > limit:
                report.overruns.append((len(game), "over time", round(dt, 4)))
            conn.send(MoveMessage.of(move, dt))
            pos.push(move)
            game.play(move)
            continue
        # the peer's turn
        text = conn.receive(timeout=peer_timeout)
        if text is None:
            return finish(UNKNOWN, "peer timeout", "*")
        try:
            msg = parse_message(text)
        except ProtocolError as e:
            conn.send(Chat(f"bad message: {e}"))
            report.peer_errors.append(str(e))
            continue
        if on_message is not None:
            on_message(msg)
        if isinstance(msg, MoveMessage):
            try:
                move = msg.find(pos)
            except IllegalMoveError as e:
                report.peer_errors.append(str(e))
                conn.send(Chat("invalid move received"))
                return finish(UNKNOWN, "illegal move by the peer", "*")
            pos.push(move)
            game.play(move)
        elif isinstance(msg, GameEnd):
            conn.send(GameEnd(UNKNOWN, msg.stop))
            report.stop = msg.stop
            report.termination = f"game end from the peer (reason {msg.reason})"
            # the reason is the sender's view; the sender is the side to move when it sends (the peer)
            peer = not our_color
            game.result = {I_LOSE: result_for(not peer), DRAW: "1-1", I_WIN: result_for(peer)}.get(msg.reason, "*")
            return report
        elif isinstance(msg, BackRequest):
            conn.send(BackAccept(REFUSE_BUSY))  # take-backs are not supported during play
        # chats and anything else are ignored


def _accept_code(msg, busy: bool) -> int:
    if isinstance(msg, _Unsupported):
        return REFUSE_VERSION
    return REFUSE_BUSY if busy else ACCEPT


def serve(conn: Connection, engine, *, name: str = "numba_words", move_time: float | None = None,
          games: int | None = None, echo: Callable[[str], None] | None = None) -> list[GameReport]:
    """The follower: answer game requests on ``conn`` and play each game (the time per move is ``move_time``
    if given, else the request's clock) until a game end with stop code 1, ``games`` games, or the peer
    closes the connection. Returns the game reports."""
    reports: list[GameReport] = []
    while games is None or len(reports) < games:
        try:
            text = conn.receive()
        except ConnectionError:
            break
        try:
            msg = parse_message(text)
        except ProtocolError as e:
            conn.send(Chat(f"bad message: {e}"))
            continue
        if isinstance(msg, _Unsupported):
            conn.send(GameAccept(name, REFUSE_VERSION))
            continue
        if isinstance(msg, GameEnd):  # a game end outside a game: answer it
            conn.send(GameEnd(UNKNOWN, msg.stop))
            if msg.stop:
                break
            continue
        if isinstance(msg, BackRequest):
            conn.send(BackAccept(REFUSE_BUSY))
            continue
        if not isinstance(msg, GameRequest):
            continue
        start = msg.position if msg.position is not None else Position.initial()
        if not list(start.legal_moves):
            conn.send(GameAccept(name, REFUSE_POSITION))
            continue
        conn.send(GameAccept(name, ACCEPT))
        if hasattr(engine, "new_game"):
            engine.new_game()
        rep = play_game(conn, engine, start, msg.follower_color, move_time=move_time,
                        clock=msg.minutes * 60.0 if move_time is None else None, moves_in_clock=msg.moves,
                        adjudicate=False, name=name)
        reports.append(rep)
        if echo:
            echo(f"game {len(reports)}: {rep.game.result} ({rep.termination}), {len(rep.game)} plies")
        if rep.stop:
            break
    return reports


def request_game(conn: Connection, start: Position | None, our_color: bool, minutes: int, moves: int = 0,
                 name: str = "numba_words", timeout: float = 30.0) -> GameAccept:
    """The initiator's half of the handshake: send a game request (``start`` None: the initial position),
    wait for the accept. Raises :class:`ProtocolError` if refused or not answered."""
    conn.send(GameRequest(name, not our_color, minutes, moves, start))
    t_end = _time.monotonic() + timeout
    while True:
        text = conn.receive(timeout=max(0.0, t_end - _time.monotonic()))
        if text is None:
            raise ProtocolError(f"no answer to the DXP game request in {timeout:g} s")
        msg = parse_message(text)
        if isinstance(msg, GameAccept):
            if msg.code != ACCEPT:
                raise ProtocolError(f"the DXP peer {msg.name!r} refused the game (code {msg.code})")
            return msg


def initiate(conn: Connection, engine, starts: list[Position | None], *, colors: list[bool],
             move_time: float | None = None, minutes: int = 10, moves: int = 0, name: str = "numba_words",
             max_plies: int = 600, echo: Callable[[str], None] | None = None,
             stop_last: bool = True) -> list[GameReport]:
    """The initiator: one game from each start position, ours the colour ``colors[i]``; with ``stop_last``
    the last game end carries stop code 1 (no more games)."""
    reports = []
    for i, (start, color) in enumerate(zip(starts, colors)):
        peer = request_game(conn, start, color, minutes, moves, name)
        if hasattr(engine, "new_game"):
            engine.new_game()
        pos = start if start is not None else Position.initial()
        rep = play_game(conn, engine, pos, color, move_time=move_time,
                        clock=minutes * 60.0 if move_time is None else None, moves_in_clock=moves,
                        max_plies=max_plies, name=name, stop_code=1 if stop_last and i == len(starts) - 1 else 0)
        rep.game.headers["White" if not color else "Black"] = peer.name or "DXP peer"
        reports.append(rep)
        if echo:
            echo(f"game {i + 1}: {rep.game.result} ({rep.termination}), {len(rep.game)} plies")
    return reports


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``PORT`` alone, meaning 127.0.0.1) as a pair; :class:`DraughtsError` if malformed."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise DraughtsError(f"want HOST:PORT with a port 1-65535, got {quote(text)}")
    return host or "127.0.0.1", int(port)



def add_cli(verbs) -> None:
    """``numba-words draughts dxp --listen PORT | --connect HOST:PORT``."""
    p = verbs.add_parser(
        "dxp", help="play over DamExchange (DXP, TCP): wait for games (--listen) or ask for them (--connect)",
        description="Play international draughts over DamExchange (DXP). --listen PORT waits for a game request "
                    "as the follower (the role Moby Dam and Scan take by default); --connect HOST:PORT connects "
                    "and sends game requests as the initiator.")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--listen", type=int, metavar="PORT", help="wait for an initiator on PORT")
    g.add_argument("--connect", metavar="HOST:PORT", help="connect to a follower (e.g. 127.0.0.1:27531)")
    p.add_argument("--bind", default="127.0.0.1", metavar="ADDR",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)")
    p.add_argument("--time", type=float, default=None, metavar="SECONDS",
                   help="seconds a move (default: budget from the game's clock)")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="games to play (initiator default 1; follower default: until told to stop)")
    p.add_argument("--fen", default=None, help="initiator: start position (default: the initial position)")
    p.add_argument("--color", choices=("white", "black", "alternate"), default="white",
                   help="initiator: the colour we play (alternate: white, black, white, ...)")
    p.add_argument("--minutes", type=int, default=10, help="initiator: minutes a side for the game (default 10)")
    p.add_argument("--moves", type=int, default=0, help="initiator: moves in those minutes (0: the whole game)")
    p.add_argument("--hash", type=int, default=64, metavar="MB", help="transposition table size (default 64)")
    p.add_argument("--pdn", default=None, metavar="FILE", help="write the games played to FILE (PDN)")
    p.add_argument("--engine", default=None, metavar="MODULE:NAME",
                   help="play with another engine class with the Engine API (default: numba_words.draughts.Engine)")
    p.set_defaults(func=_dxp_cmd)


def _dxp_cmd(args) -> int:
    import sys

    from .hub import load_engine_factory, warm_up
    from .pdn import write_pdn

    def echo(text):
        if not getattr(args, "quiet", False):
            print(text, file=sys.stderr, flush=True)

    if args.time is not None and not args.time > 0:
        raise DraughtsError(f"--time must be > 0 seconds, got {args.time!r}")
    if args.games is not None and args.games < 1:
        raise DraughtsError(f"--games must be >= 1, got {args.games!r}")
    engine = load_engine_factory(args.engine)(threads=getattr(args, "threads", None) or 1, hash_mb=args.hash)
    warm_up(engine)
    if args.listen is not None:
        if not 0 < args.listen < 65536:
            raise DraughtsError(f"--listen wants a port 1-65535, got {args.listen!r}")
        srv = socket.create_server((args.bind, args.listen), reuse_port=False)
        echo(f"listening on {args.bind}:{args.listen}")
        try:
            sock, addr = srv.accept()
        finally:
            srv.close()
        echo(f"connection from {addr[0]}:{addr[1]}")
        conn = Connection(sock)
        try:
            reports = serve(conn, engine, move_time=args.time, games=args.games, echo=echo)
        finally:
            conn.close()
    else:
        host, port = parse_address(args.connect)
        start = Position(args.fen) if args.fen else None
        n = args.games or 1
        colors = [WHITE if args.color == "white" else not WHITE if args.color == "black" else i % 2 == 0
                  for i in range(n)]
        conn = Connection.connect(host, port)
        try:
            reports = initiate(conn, engine, [start] * n, colors=colors, move_time=args.time, minutes=args.minutes,
                               moves=args.moves, echo=echo)
        finally:
            conn.close()
    for rep in reports:
        print(f"{rep.game.result} {rep.termination} ({len(rep.game)} plies)")
    if args.pdn:
        with open(args.pdn, "w") as f:
            f.write(write_pdn([r.game for r in reports]))
    return 0
