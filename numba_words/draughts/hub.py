"""The Hub protocol, version 2 (the text protocol of Scan 3.1 and the Hub GUI), for ``numba-words draughts hub``.

One command a line, ``<command> <name>=<value> ...``; values with a space, ``=`` or nothing in them are quoted
(``pv="32-28 19-23"``), a name without ``=value`` is a flag. The GUI sends ``hub``, ``set-param``, ``init``,
then for each search ``pos``, ``level`` and ``go``; the engine answers ``info`` lines while it searches and
``done move=... ponder=...``. Moves are ``32-28`` or, for captures, ``from x to x captured x captured...``
(``28x19x23``: every captured square, in increasing order, no landing squares between). Positions are 51
characters: the side to move (``W``/``B``) then squares 1-50 as ``w``/``b`` (men), ``W``/``B`` (kings), ``e``.

The search runs in a thread of its own, so ``stop``, ``ping`` and ``quit`` are answered while it thinks;
any other command that arrives during a search waits until the search has answered ``done``. Bad lines get
``error message="..."`` and the engine goes on.
"""
from __future__ import annotations

import re
import sys
import threading
from typing import Callable, TextIO

from .errors import DraughtsError, IllegalMoveError, ProtocolError, quote
from .moves import Move
from .position import Position

#: Depth of an unbounded search (``level infinite``, ``go analyze`` without a level): ended by ``stop``.
INFINITE_DEPTH = 100
#: Seconds a move when the GUI sends ``go`` without any ``level``.
DEFAULT_MOVE_TIME = 1.0
#: Scan's win score: ``WIN_SCORE - plies`` hundredths of a man (so ``99.93`` is a win in 7 plies).
WIN_SCORE = 10000

_NAME = re.compile(r'[^\s="\x00-\x1f\x7f]+')


# ---- syntax ----------------------------------------------------------------------------------------------
def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """Split a Hub line into its command and its ``name -> value`` pairs (a flag has the value ``""``).

    Raises :class:`ProtocolError` on an empty line, a missing name or an unclosed quote."""
    if not isinstance(line, str):
        raise ProtocolError(f"a Hub line is a string, got {quote(line)}")
    s, i, n = line, 0, len(line)

    def blank(i):
        while i < n and s[i].isspace():
            i += 1
        return i

    def name(i):
        m = _NAME.match(s, i)
        if m is None:
            raise ProtocolError(f"expected a name at column {i + 1} of {quote(line)}")
        return m.group(), m.end()

    i = blank(i)
    if i == n:
        raise ProtocolError("missing command")
    command, i = name(i)
    pairs: dict[str, str] = {}
    while True:
        i = blank(i)
        if i == n:
            return command, pairs
        key, i = name(i)
        i = blank(i)
        value = ""
        if i < n and s[i] == "=":
            i = blank(i + 1)
            if i < n and s[i] == '"':
                j = s.find('"', i + 1)
                if j < 0:
                    raise ProtocolError(f"missing closing quote in {quote(line)}")
                value, i = s[i + 1:j], j + 1
            else:
                value, i = name(i)
        pairs[key] = value


def format_line(command: str, *pairs: tuple[str, object]) -> str:
    """A Hub line: ``command name=value ...``; values that are not plain names are quoted, a value of
    ``None`` writes the bare name (a flag)."""
    out = [command]
    for key, value in pairs:
        if value is None:
            out.append(key)
            continue
        v = str(value)
        out.append(f"{key}={v}" if _NAME.fullmatch(v) else f'{key}="{v}"')
    return " ".join(out)


# ---- positions and moves ------------------------------------------------------------------------------------
_PIECE = {"w": "W", "b": "B"}


def position_from_hub(text: str) -> Position:
    """The :class:`Position` of a 51-character Hub position (``W`` or ``B`` to move, then squares 1-50 as
    ``w b W B e``). Raises :class:`ProtocolError` on any other text."""
    if not isinstance(text, str) or len(text) != 51 or text[0] not in "WB" or set(text[1:]) - set("wbWBe"):
        raise ProtocolError(f"bad Hub position {quote(text)} (want W or B, then 50 of w b W B e)")
    white = [str(s) for s in range(1, 51) if text[s] in "wW"]
    black = [str(s) for s in range(1, 51) if text[s] in "bB"]
    kings = {s for s in range(1, 51) if text[s] in "WB"}

    def lst(squares):
        return ",".join(("K" if int(s) in kings else "") + s for s in squares)

    try:
        return Position(f"{text[0]}:W{lst(white)}:B{lst(black)}")
    except DraughtsError as e:
        raise ProtocolError(f"bad Hub position {quote(text)}: {e}") from None


def position_to_hub(position: Position) -> str:
    """The 51-character Hub text of a position."""
    chars = ["W" if position.turn else "B"]
    for s in range(1, 51):
        p = position.piece_at(s)
        chars.append("e" if p is None else p)
    return "".join(chars)


def move_to_hub(move: Move) -> str:
    """``32-28`` for a slide; ``from x to x captured...`` (captured squares increasing) for a capture."""
    if not move.captured:
        return f"{move.from_square}-{move.to_square}"
    return "x".join(str(s) for s in (move.from_square, move.to_square, *move.captured))


def move_from_hub(position: Position, text: str) -> Move:
    """The legal move of ``position`` written in Hub notation (``32-28``, ``28x19x23``; the captured squares
    in any order). Raises :class:`ProtocolError` for text that is not a Hub move and
    :class:`IllegalMoveError` for a move that is not legal here."""
    t = text.strip() if isinstance(text, str) else ""
    m = re.fullmatch(r"([0-9]{1,2})([-x])([0-9]{1,2})((?:x[0-9]{1,2})*)", t)
    if m is None:
        raise ProtocolError(f"bad Hub move {quote(text)} (want 32-28 or from x to x captured..., e.g. 28x19x23)")
    f, t2 = int(m.group(1)), int(m.group(3))
    caps = [int(x) for x in m.group(4).split("x")[1:]]
    if any(not 1 <= s <= 50 for s in (f, t2, *caps)):
        raise ProtocolError(f"square out of range 1-50 in Hub move {quote(text)}")
    if m.group(2) == "-" and caps:
        raise ProtocolError(f"bad Hub move {quote(text)}: a slide captures nothing")
    want = tuple(sorted(caps))
    for mv in position.legal_moves:
        if mv.from_square == f and mv.to_square == t2 and mv.captured == want and (m.group(2) == "x") == bool(want):
            return mv
    raise IllegalMoveError(f"illegal move {quote(text)} in {position.fen()!r}")


def score_to_hub(result) -> str:
    """The score of a search result as Scan writes it: men with two decimals, a proven win in ``n`` plies
    as ``(10000 - n) / 100`` (``99.93``), a loss as its negative."""
    if result.win_in is not None:
        n = abs(int(result.win_in))
        v = (WIN_SCORE - n) / 100.0
        return f"{v if result.win_in > 0 else -v:.2f}"
    return f"{result.score:.2f}"


def info_line(result) -> str:
    """The ``info`` line of a search result (after each finished depth): depth, score, nodes, time (s),
    nps (millions of nodes a second, as Scan writes it) and the principal variation."""
    pairs = [("depth", result.depth), ("score", score_to_hub(result)), ("nodes", result.nodes),
             ("time", f"{result.time:.3f}"), ("nps", f"{result.nps / 1e6:.2f}")]
    if result.pv:
        p = _pv_text(result.pv)
        if p:
            pairs.append(("pv", p))
    return format_line("info", *pairs)


def _pv_text(pv) -> str:
    return " ".join(move_to_hub(m) for m in pv)


# ---- the engine side --------------------------------------------------------------------------------------
class _Level:
    """What ``level`` set for the next search (reset by ``pos`` and after each ``go``, as Scan does)."""

    def __init__(self):
        self.depth = self.nodes = self.move_time = None
        self.time = self.inc = self.moves = None
        self.infinite = False

    def search_kwargs(self, analyze: bool) -> dict:
        kw: dict = {}
        if self.depth is not None:
            kw["depth"] = self.depth
        if self.nodes is not None:
            kw["nodes"] = self.nodes
        if self.move_time is not None:
            kw["time"] = self.move_time
        if self.time is not None:
            kw["remaining"] = self.time
            kw["increment"] = self.inc or 0.0
            if self.moves:
                kw["moves_to_go"] = self.moves
        if not kw:
            kw["depth" if self.infinite or analyze else "time"] = INFINITE_DEPTH if self.infinite or analyze \
                else DEFAULT_MOVE_TIME
        return kw


class HubEngine:
    """Speaks Hub version 2 for a search engine (an object with the ``Engine`` contract:
    ``search(position, depth=, time=, nodes=, remaining=, increment=, moves_to_go=, callback=, stop=)`` and
    ``new_game()``), reading commands with :meth:`handle` (or :meth:`run` over a stream) and writing answers
    to ``out``.

    ``engine_factory(threads=..., hash_mb=...)`` makes the engine at ``init`` (or at the first ``go``), after
    the GUI has set the parameters ``threads`` and ``hash`` (megabytes)."""

    name = "numba_words"

    def __init__(self, engine_factory: Callable | None = None, out: TextIO | None = None):
        if engine_factory is None:
            from . import Engine  # the search engine (numba_words.draughts.engine)

            engine_factory = Engine
        self._factory = engine_factory
        self._out = out if out is not None else sys.stdout
        self._out_lock = threading.Lock()
        self._engine = None
        self._params = {"threads": 1, "hash": 64}
        self._position = Position.initial()
        self._level = _Level()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._ponder_timer: threading.Timer | None = None
        self._pondering = False
        self._ponder_limit: float | None = None

    # ---- output -----------------------------------------------------------------------------------------
    def write(self, line: str) -> None:
        with self._out_lock:
            self._out.write(line + "\n")
            self._out.flush()

    def error(self, message: str) -> None:
        self.write(format_line("error", ("message", message.replace('"', "'"))))

    # ---- input ------------------------------------------------------------------------------------------
    def run(self, stream: TextIO | None = None) -> int:
        """Read commands from ``stream`` (standard input) until ``quit`` or the end of the stream; a search
        still running then is stopped and answers ``done`` first. Returns 0."""
        stream = stream if stream is not None else sys.stdin
        try:
            for line in stream:
                if not self.handle(line):
                    break
        except KeyboardInterrupt:  # Ctrl-C: end the search with the best move so far, then leave
            pass
        self.finish()
        return 0

    def finish(self) -> None:
        """Stop a running search and wait for its ``done`` line."""
        self._stop.set()
        self._join()

    def wait(self) -> None:
        """Wait until the running search (if any) has answered ``done``."""
        self._join()

    def searching(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def handle(self, line: str) -> bool:
        """Answer one command line; ``False`` after ``quit``. Never raises on bad input: it writes an
        ``error`` line instead."""
        if not line.strip():
            return True  # blank lines (e.g. a trailing newline) are not commands
        try:
            command, args = parse_line(line)
        except ProtocolError as e:
            self.error(str(e))
            return True
        if command == "quit":
            self.finish()
            return False
        if command == "ping":
            self.write("pong")
            return True
        if command == "stop":
            self._stop.set()
            return True
        if command == "ponder-hit":
            self._ponder_hit()
            return True
        self._join()  # every other command waits for the search to finish
        method = getattr(self, "_cmd_" + command.replace("-", "_"), None)
        if method is None:
            self.error(f"bad command {quote(command)}")
            return True
        try:
            method(args)
        except (DraughtsError, ValueError) as e:
            self.error(str(e))
        return True

    def _join(self) -> None:
        t = self._thread
        if t is not None:
            t.join()
            self._thread = None

    # ---- commands -----------------------------------------------------------------------------------------
    def _cmd_hub(self, args) -> None:
        from .. import __version__

        self.write(format_line("id", ("name", self.name), ("version", __version__), ("author", "numba_words"),
                               ("country", "none")))
        self.write(format_line("param", ("name", "variant"), ("value", "normal"), ("type", "enum"),
                               ("values", "normal")))
        self.write(format_line("param", ("name", "threads"), ("value", self._params["threads"]), ("type", "int"),
                               ("min", 1), ("max", 64)))
        self.write(format_line("param", ("name", "hash"), ("value", self._params["hash"]), ("type", "int"),
                               ("min", 1), ("max", 65536)))
        self.write("wait")

    def _cmd_set_param(self, args) -> None:
        name, value = args.get("name"), args.get("value", "")
        if not name:
            raise ProtocolError("set-param: missing name")
        if name == "variant":
            if value != "normal":
                raise ProtocolError(f"variant {quote(value)} is not supported (only 'normal')")
            return
        if name not in self._params:
            return  # unknown parameters are ignored, as the protocol asks
        v = _int(value, name, 1, 65536)
        if v != self._params[name]:
            self._params[name] = v
            self._engine = None  # made again with the new value

    def _cmd_init(self, args) -> None:
        warm_up(self._ensure_engine())
        self.write("ready")

    def _cmd_new_game(self, args) -> None:
        if self._engine is not None:
            self._engine.new_game()

    def _cmd_pos(self, args) -> None:
        self._level = _Level()
        if "pos" in args:
            pos = position_from_hub(args["pos"])
        else:
            pos = Position.initial()  # "pos start" or no position: the initial one
        for text in args.get("moves", "").split():
            try:
                mv = move_from_hub(pos, text)
            except IllegalMoveError as e:
                self._position = pos
                raise ProtocolError(f"illegal move {quote(text)} in pos moves ({e})") from None
            except ProtocolError as e:
                self._position = pos
                raise ProtocolError(f"bad move in pos moves: {e}") from None
            pos.push(mv)
        self._position = pos

    def _cmd_level(self, args) -> None:
        lv = self._level
        for key, value in args.items():
            if key == "depth":
                lv.depth = _int(value, key, 1, 1000)
            elif key == "nodes":
                lv.nodes = _int(value, key, 1, 2 ** 62)
            elif key == "move-time":
                lv.move_time = _real(value, key)
            elif key == "time":
                lv.time = _real(value, key)
            elif key == "inc":
                lv.inc = _real(value, key)
            elif key == "moves":
                lv.moves = _int(value, key, 0, 10000)
            elif key == "infinite":
                lv.infinite = True
            # other names are ignored (the protocol may grow)

    def _cmd_go(self, args) -> None:
        analyze = "analyze" in args
        ponder = "ponder" in args
        kw = self._level.search_kwargs(analyze)
        self._level = _Level()
        pos = self._position.copy()
        engine = self._ensure_engine()
        self._stop = stop = threading.Event()
        if ponder:  # search until ponder-hit (then for the time the level gave) or stop
            self._ponder_limit = kw.get("time")
            if "remaining" in kw:
                from .engine import expected_moves
                mtg = kw.get("moves_to_go") or expected_moves((pos.white | pos.black).bit_count())
                self._ponder_limit = kw["remaining"] / mtg + kw.get("increment", 0.0)
            kw = {"depth": kw.get("depth", INFINITE_DEPTH)}
            self._pondering = True
        self._thread = threading.Thread(target=self._search, args=(engine, pos, kw, stop), daemon=True,
                                        name="hub-search")
        self._thread.start()

    def _ponder_hit(self) -> None:
        if not self._pondering or not self.searching():
            return
        self._pondering = False
        if self._ponder_limit is not None:
            self._ponder_timer = threading.Timer(self._ponder_limit, self._stop.set)
            self._ponder_timer.daemon = True
            self._ponder_timer.start()

    def _search(self, engine, pos: Position, kw: dict, stop: threading.Event) -> None:
        moves = list(pos.legal_moves)
        result = None
        try:
            if moves:
                result = engine.search(pos, callback=lambda r: self.write(info_line(r)), stop=stop, **kw)
        except Exception as e:  # a failing search must still answer done
            self.error(f"search failed: {e}")
        finally:
            if self._ponder_timer is not None:
                self._ponder_timer.cancel()
                self._ponder_timer = None
            self._pondering = False
        move = result.move if result is not None and result.move is not None else (moves[0] if moves else None)
        if move is not None and move not in moves:  # never send an illegal move
            self.error(f"the engine returned the illegal move {move}; playing {moves[0]}")
            move = moves[0]
        pairs = []
        if move is not None:
            pairs.append(("move", move_to_hub(move)))
            ponder = result.ponder if result is not None and result.move == move else None
            if ponder is not None:
                after = pos.copy(stack=False)
                after.push(move)
                if ponder in list(after.legal_moves):
                    pairs.append(("ponder", move_to_hub(ponder)))
        self.write(format_line("done", *pairs))

    def _ensure_engine(self):
        if self._engine is None:
            self._engine = self._factory(threads=self._params["threads"], hash_mb=self._params["hash"])
        return self._engine


def warm_up(engine) -> None:
    """Load the engine's kernels (Numba's cache or a compile) with a one-ply search, so that the first timed
    search does not pay for it."""
    engine.search(Position.initial(), depth=1)


def _int(value: str, name: str, lo: int, hi: int) -> int:
    try:
        v = int(value)
    except ValueError:
        raise ProtocolError(f"{name} must be an integer, got {quote(value)}") from None
    if not lo <= v <= hi:
        raise ProtocolError(f"{name} must be in {lo}..{hi}, got {v}")
    return v


def _real(value: str, name: str) -> float:
    try:
        v = float(value)
    except ValueError:
        raise ProtocolError(f"{name} must be a number of seconds, got {quote(value)}") from None
    if not v >= 0 or v == float("inf"):
        raise ProtocolError(f"{name} must be a finite number >= 0, got {quote(value)}")
    return v


def main(engine_factory: Callable | None = None) -> int:
    """``numba-words draughts hub``: Hub on standard input and output."""
    return HubEngine(engine_factory).run(sys.stdin)


def load_engine_factory(spec: str | None) -> Callable:
    """The engine class (or factory) named ``module:name`` (``None``: this package's ``Engine``); it is called
    with ``threads=`` and ``hash_mb=``. Raises :class:`DraughtsError` if it cannot be imported."""
    if spec is None:
        from . import Engine

        return Engine
    import importlib

    mod, _, name = spec.partition(":")
    if not mod or not name:
        raise DraughtsError(f"--engine wants MODULE:NAME, got {quote(spec)}")
    try:
        return getattr(importlib.import_module(mod), name)
    except (ImportError, AttributeError) as e:
        raise DraughtsError(f"cannot load the engine {quote(spec)}: {e}") from None


def add_cli(verbs) -> None:
    """``numba-words draughts hub``."""
    p = verbs.add_parser(
        "hub", help="play and analyse over the Hub protocol (version 2, as Scan 3.1) on standard input/output",
        description="Speak the Hub protocol, version 2 (Scan 3.1's), on standard input and output: hub, "
                    "set-param (threads, hash), init, pos, level, go think|ponder|analyze, stop, ping, "
                    "ponder-hit, new-game, quit. For GUIs such as Hub, and for pydraughts' HubEngine.")
    p.add_argument("--engine", default=None, metavar="MODULE:NAME",
                   help="serve another engine class with the Engine API (default: numba_words.draughts.Engine)")
    p.set_defaults(func=_hub_cmd)


def _hub_cmd(args) -> int:
    factory = load_engine_factory(args.engine)
    hub = HubEngine(factory)
    threads = getattr(args, "threads", None)
    if threads:
        hub._params["threads"] = int(threads)
    return hub.run(sys.stdin)
