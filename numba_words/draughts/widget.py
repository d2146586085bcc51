"""``BoardWidget``: an international draughts board as a Jupyter widget (anywidget): click a piece to see its
legal moves (captures with their paths), click a target to move, undo/redo, FEN in and out, perft/divide on
request, and, when the searching engine is there (``numba_words.draughts.Engine``), an engine move and play
against the engine with an evaluation bar.

A script drives it through its traitlets and methods as the browser does::

    w = BoardWidget("W:W31-50:B1-20")
    w.move("32-28"); w.undo(); w.redo()
    w.fen                      # the position
    w.perft(4)                 # divide into w.perft_result (background thread)
"""
from __future__ import annotations

import anywidget
import traitlets as t

from .. import draughts as _draughts
from .._widget import CSS, Actions, Task, esm
from ..errors import NumbaWordsError
from .errors import DraughtsError
from .moves import Move
from .position import WHITE, Position
from .search import divide


def _position(position) -> Position:
    if position is None:
        return Position()
    if isinstance(position, str):
        return Position(position)
    if not isinstance(position, Position):
        raise DraughtsError(f"BoardWidget needs a Position, a FEN string or None, got {type(position).__name__}")
    return position.copy()


def _move_record(m: Move) -> dict:
    return {"notation": m.notation, "from": m.from_square, "to": m.to_square, "path": list(m.path),
            "captured": list(m.captured)}


class BoardWidget(Actions, anywidget.AnyWidget):
    """An interactive draughts board for a :class:`Position` (or a FEN; ``None``: the initial position).

    Traitlets: ``fen`` (the position; set it to load one), ``pieces`` (50 strings: ``w``/``b`` a man,
    ``W``/``B`` a king, ``""`` empty, square 1 first), ``turn`` (``"W"``/``"B"``), ``moves`` (every legal move:
    ``notation``, ``from``, ``to``, ``path``, ``captured``), ``selected`` (the clicked square, 0 none),
    ``history`` (moves played), ``can_undo``/``can_redo``, ``outcome``, ``perft_depth``/``perft_result``
    (divide: ``[move, count]`` rows) and ``perft_total``, and the engine's ``engine_*`` and ``eval_*``.
    """

    _esm = esm("draughts.js")
    _css = CSS
    _ERROR = DraughtsError
    _ACTIONS = {"move": ("move", ("index",)), "undo": ("undo", ()), "redo": ("redo", ()), "perft": ("perft", ()),
                "engine": ("engine_move", ()), "stop": ("stop", ())}

    fen = t.Unicode("").tag(sync=True)
    pieces = t.List().tag(sync=True)
    turn = t.Unicode("W").tag(sync=True)
    moves = t.List().tag(sync=True)
    selected = t.Int(0).tag(sync=True)
    history = t.List().tag(sync=True)
    last = t.List().tag(sync=True)
    can_undo = t.Bool(False).tag(sync=True)
    can_redo = t.Bool(False).tag(sync=True)
    outcome = t.Unicode("").tag(sync=True)
    flipped = t.Bool(False).tag(sync=True)
    perft_depth = t.Int(3).tag(sync=True)
    perft_result = t.List().tag(sync=True)
    perft_total = t.Int(-1).tag(sync=True)
    perft_running = t.Bool(False).tag(sync=True)
    engine_available = t.Bool(False).tag(sync=True)
    engine_time = t.Float(1.0).tag(sync=True)
    engine_side = t.Unicode("").tag(sync=True)
    engine_running = t.Bool(False).tag(sync=True)
    eval_text = t.Unicode("").tag(sync=True)
    eval_white = t.Float(0.5).tag(sync=True)
    eval_pv = t.Unicode("").tag(sync=True)
    error = t.Unicode("").tag(sync=True)
    status = t.Unicode("").tag(sync=True)

    def __init__(self, position=None, **kwargs):
        self._pos = _position(position)
        self._redo: list = []
        self._task = None
        self._engine = None
        self._loading = False
        super().__init__(**kwargs)
        self.engine_available = hasattr(_draughts, "Engine")
        self._show()
        self.on_msg(self._on_custom)

    # ------------------------------------------------------------------ state in and out
    def _show(self) -> None:
        pos = self._pos
        self._loading = True
        try:
            with self.hold_sync():
                self.fen = pos.fen()
                self.pieces = [pos.piece_at(s) or "" for s in range(1, 51)]
                self.turn = "W" if pos.turn == WHITE else "B"
                self.moves = [_move_record(m) for m in pos.legal_moves]
                self.selected = 0
                stack = pos.move_stack
                self.history = [m.notation for m in stack]
                self.last = list(stack[-1].path) if stack else []
                self.can_undo = bool(stack)
                self.can_redo = bool(self._redo)
                out = pos.outcome()
                self.outcome = "" if out is None else f"{out.result()} ({out.termination})"
                self.perft_result, self.perft_total = [], -1
        finally:
            self._loading = False

    @t.observe("fen")
    def _fen_changed(self, change) -> None:
        if self._loading:
            return
        try:
            pos = Position(change["new"])
        except NumbaWordsError as e:
            self.error = str(e)
            return
        self.error = ""
        self._pos, self._redo = pos, []
        self._show()

    # ------------------------------------------------------------------ moves
    def move(self, move) -> Move:
        """Play ``move``: a :class:`Move`, its notation (``"32-28"``, ``"28x19"``) or an index into ``moves``."""
        pos = self._pos
        if isinstance(move, bool):
            raise DraughtsError(f"a move is a Move, notation or an index into moves, got {move!r}")
        if isinstance(move, int):
            legal = list(pos.legal_moves)
            if not 0 <= move < len(legal):
                raise DraughtsError(f"no move {move} among the {len(legal)} legal moves")
            move = legal[move]
        elif isinstance(move, str):
            move = pos.parse_move(move)
        elif not isinstance(move, Move) or move not in pos.legal_moves:
            raise DraughtsError(f"{move!r} is not a legal move here")
        pos.push(move)
        self._redo = []
        self.error = ""
        self._show()
        self._engine_turn()
        return move

    def undo(self) -> None:
        """Take back the last move (it can be redone)."""
        if not self._pos.move_stack:
            raise DraughtsError("nothing to undo")
        self._redo.append(self._pos.pop())
        self._show()

    def redo(self) -> None:
        """Play again the last move taken back."""
        if not self._redo:
            raise DraughtsError("nothing to redo")
        self._pos.push(self._redo.pop())
        self._show()

    # ------------------------------------------------------------------ perft / divide
    def perft(self, depth: int | None = None, threads: int | None = None) -> Task:
        """Divide of the position at ``depth`` (default ``perft_depth``) in a background thread: ``perft_result``
        gets ``[move, count]`` rows, ``perft_total`` the sum. Returns the :class:`Task`."""
        depth = self.perft_depth if depth is None else depth
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 12:
            raise DraughtsError(f"perft depth must be a whole number from 1 to 12, got {depth!r}")
        pos = self._pos.copy(stack=False)

        def run(stop) -> None:
            rows = divide(pos, depth, threads=threads)
            with self.hold_sync():
                self.perft_result = [[m, int(n)] for m, n in rows.items()]
                self.perft_total = int(sum(rows.values()))
            self.status = f"perft {depth}: {self.perft_total} nodes"

        self.perft_running = True
        return Task(run, self._failed, lambda: setattr(self, "perft_running", False))

    # ------------------------------------------------------------------ the engine (when it is there)
    def engine_move(self, time: float | None = None) -> Task:
        """Let the engine search ``time`` seconds (default ``engine_time``) in a background thread and play its
        move; ``eval_*`` follow each finished depth. Needs ``numba_words.draughts.Engine``."""
        if not self.engine_available:
            raise DraughtsError("no search engine in this version of numba_words.draughts")
        if self._task is not None and self._task.running:
            raise DraughtsError("the engine is already thinking")
        if not self._pos.legal_moves:
            raise DraughtsError("the game is over: no legal move")
        if self._engine is None:
            self._engine = _draughts.Engine()
        pos = self._pos.copy()
        white_to_move = pos.turn == WHITE
        budget = self.engine_time if time is None else time

        def show(res) -> None:
            self._show_eval(res, white_to_move)

        def run(stop) -> None:
            res = self._engine.search(pos, time=budget, callback=show, stop=stop)
            show(res)
            if res.move is not None and self._pos.board_key() == pos.board_key():
                self._pos.push(res.move)
                self._redo = []
                self.status = f"engine: {res.move.notation} ({res.score_text()}, depth {res.depth})"
                self._show()

        self.engine_running = True
        self._task = Task(run, self._failed, self._engine_done)
        return self._task

    def _engine_done(self) -> None:
        self.engine_running = False
        self._engine_turn()

    def _engine_turn(self) -> None:
        """In a game against the engine, start it when it is its side's move."""
        if self.engine_side and self.engine_side == self.turn and self.engine_available and not self.outcome \
                and not (self._task is not None and self._task.running):
            self.engine_move()

    @t.observe("engine_side")
    def _side_changed(self, change) -> None:
        if change["new"] not in ("", "W", "B"):
            self.error = f"engine_side must be '', 'W' or 'B', got {change['new']!r}"
            return
        self._engine_turn()

    def _show_eval(self, res, white_to_move: bool) -> None:
        """The evaluation bar: White's share from the search's score (men, side to move's view)."""
        if res.win_in is not None:
            white_wins = (res.win_in > 0) == white_to_move
            share = 1.0 if white_wins else 0.0
        else:
            score = res.score if white_to_move else -res.score
            share = min(1.0, max(0.0, 0.5 + score / 6.0))
        with self.hold_sync():
            self.eval_white = round(share, 2)  # whole percent: Python and JS round halves differently
            self.eval_text = f"{res.score_text()} (depth {res.depth})"
            self.eval_pv = " ".join(m.notation for m in res.pv)

    def stop(self) -> None:
        """Stop the engine's search (it plays its best move so far)."""
        if self._task is not None:
            self._task.stop()

    # ------------------------------------------------------------------ static picture
    def svg(self, size: int = 400) -> str:
        """The board (last move marked, the selected piece's moves as arrows) where JavaScript does not run."""
        from .svg import svg

        arrows = [m for m in self._pos.legal_moves if m.from_square == self.selected]
        return svg(self._pos, arrows=arrows, flipped=self.flipped, size=size)
