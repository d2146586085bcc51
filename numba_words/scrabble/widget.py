"""``BoardWidget``: the crossword board as a Jupyter widget (anywidget): type a rack and see the top plays at
every keystroke, preview a play on the board, set up a position square by square, play a move, simulate in a
background thread, solve the endgame, load and save CGP, and find words for a slot.

The state is in traitlets, so a script drives the widget as the browser does::

    w = BoardWidget(Position.from_cgp(cgp))
    w.rack = "ADERST?"          # the play list (w.plays) follows at once
    w.by = "equity"
    w.selected = 0; w.play()   # the board (w.cgp, w.board) updates
"""
from __future__ import annotations

import math

import anywidget
import traitlets as t

from .._widget import CSS, Actions, Task, esm
from ..errors import NumbaWordsError
from .errors import ScrabbleError
from .position import Position
from .endgame import _after


def _position(position) -> Position:
    if position is None:
        return Position()
    if isinstance(position, str):
        return Position.from_cgp(position)
    if not isinstance(position, Position):
        raise ScrabbleError(f"BoardWidget needs a Position, a CGP string or None, got {type(position).__name__}")
    return position.copy()


def _warm(pos: Position) -> None:
    """Load the generator and the leave table (Numba's cache: ~1 s on a first call in a process) before the
    first key is typed: a search on a copy with two unseen tiles."""
    tiles = "".join(list(pos.unseen().elements())[:2])
    if tiles:
        p = pos.copy()
        p.opp_rack, p.rack = "", tiles
        p.top(1, "equity")


def _num(x: float):
    """A float JSON can carry (``None`` for NaN or infinity)."""
    x = float(x)
    return round(x, 3) if math.isfinite(x) else None


class BoardWidget(Actions, anywidget.AnyWidget):
    """An interactive crossword board for a :class:`Position` (or a CGP string; ``None``: the empty board).

    Traitlets (read and write them from Python; the view does the same): ``cgp`` (the position), ``rack`` (the
    rack as typed, ``?`` a blank), ``by`` (``"score"`` or ``"equity"``), ``n`` (plays listed), ``plays`` (the
    top ``n``: dicts with ``notation``, ``score``, ``equity``, ``leave`` and the ``squares`` a play fills),
    ``plays_for`` (the rack ``plays`` belongs to), ``selected`` (index of the previewed play, -1 none),
    ``board`` (15 strings, ``.`` empty, lower case a blank), ``premium`` (the variant's layout rows), ``error`` (what the last input did wrong),
    ``sim_*`` (the simulation table), ``endgame_*`` and ``slot_*`` (the slot finder: ``slot_pattern``,
    ``slot_rack`` in, ``slot_words`` out).
    """

    _esm = esm("scrabble.js")
    _css = CSS
    _ERROR = ScrabbleError
    _ACTIONS = {"play": ("play", ("index",)), "undo": ("undo", ()), "simulate": ("simulate", ()),
                "stop": ("stop", ()), "endgame": ("endgame", ()), "square": ("set_square", ("row", "col", "letter"))}

    cgp = t.Unicode("").tag(sync=True)
    rack = t.Unicode("").tag(sync=True)
    opp_rack = t.Unicode("").tag(sync=True)
    by = t.Unicode("score").tag(sync=True)
    n = t.Int(10).tag(sync=True)
    plays = t.List().tag(sync=True)
    plays_for = t.Unicode("").tag(sync=True)
    n_legal = t.Int(0).tag(sync=True)
    selected = t.Int(-1).tag(sync=True)
    board = t.List().tag(sync=True)
    premium = t.List().tag(sync=True)
    values = t.Dict().tag(sync=True)
    scores = t.List([0, 0]).tag(sync=True)
    bag = t.Int(0).tag(sync=True)
    compute_ms = t.Float(0.0).tag(sync=True)
    error = t.Unicode("").tag(sync=True)
    status = t.Unicode("").tag(sync=True)
    sim_running = t.Bool(False).tag(sync=True)
    sim_rows = t.List().tag(sync=True)
    sim_iterations = t.Int(0).tag(sync=True)
    sim_plies = t.Int(2).tag(sync=True)
    sim_candidates = t.Int(10).tag(sync=True)
    endgame_ready = t.Bool(False).tag(sync=True)
    endgame_running = t.Bool(False).tag(sync=True)
    endgame_result = t.Dict().tag(sync=True)
    slot_pattern = t.Unicode("").tag(sync=True)
    slot_rack = t.Unicode("").tag(sync=True)
    slot_words = t.List().tag(sync=True)
    slot_count = t.Int(0).tag(sync=True)

    def __init__(self, position=None, **kwargs):
        pos = _position(position)
        self._pos = pos
        self._history: list = []
        self._task = None
        self._loading = False
        super().__init__(**kwargs)
        self.premium = list(pos.variant.layout)
        self.values = {k: int(v) for k, v in pos.variant.values.items()}
        self._load(pos, rack=kwargs.get("rack"))
        self.on_msg(self._on_custom)
        if not self.plays:
            _warm(pos)


    # ------------------------------------------------------------------ state in and out
    def _load(self, pos: Position, rack=None) -> None:
        """Show ``pos``: board, scores, bag, the rack (``rack`` or the position's) and its plays."""
        self._pos = pos
        self._loading = True
        try:
            self.cgp = pos.cgp()
            self.board = pos.rows()
            self.scores = list(pos.scores)
            self.opp_rack = pos.opp_rack
            self.selected = -1
            self.rack = pos.rack if rack is None else rack
        finally:
            self._loading = False
        self._refresh()

    @t.observe("cgp")
    def _cgp_changed(self, change) -> None:
        if self._loading:
            return
        try:
            pos = Position.from_cgp(change["new"], variant=self._pos.variant)
        except NumbaWordsError as e:
            self.error = str(e)
            return
        self._history.append(self._pos)
        self.error = ""
        self._load(pos)

    @t.observe("rack", "by", "n", "opp_rack")
    def _inputs_changed(self, change) -> None:
        if not self._loading:
            self._refresh()

    def _refresh(self) -> None:
        """Recompute what depends on the rack: the top plays, the bag, whether the endgame applies."""
        import time

        t0 = time.perf_counter()
        pos = self._pos
        rack = self.rack
        try:
            if self.by not in ("score", "equity"):
                raise ScrabbleError(f"by must be 'score' or 'equity', got {self.by!r}")
            if self.n < 0:
                raise ScrabbleError(f"n must be >= 0, got {self.n}")
            pos.opp_rack = ""  # (the rack is checked against the bag with the opponent's rack set next)
            pos.rack = rack.replace(" ", "")
            pos.opp_rack = self.opp_rack
        except NumbaWordsError as e:
            self.error = str(e)
            self.plays = []
            self.plays_for = rack
            self.n_legal = 0
            return
        records = []
        if pos.rack:
            legal = pos.legal_plays()
            top = legal.top(self.n, self.by)
            for p in top:
                records.append({"notation": p.notation, "coord": p.coord, "word": p.word, "score": p.score,
                                "equity": _num(p.equity), "leave": p.leave,
                                "squares": [[r, c, ch.lower() if bl else ch] for r, c, ch, bl in p.placed]})
            self.n_legal = len(legal)
        else:
            self.n_legal = 0
        self.error = ""
        self.selected = -1
        self.bag = pos.bag_size()
        self.endgame_ready = bool(pos.rack) and bool(pos.opp_rack) and self.bag == 0
        self.compute_ms = round((time.perf_counter() - t0) * 1000, 3)
        with self.hold_sync():
            self.plays = records
            self.plays_for = rack

    # ------------------------------------------------------------------ actions
    def _selected_play(self, index=None):
        i = self.selected if index is None else index
        if not 0 <= i < len(self.plays):
            raise ScrabbleError(f"no play {i} in the list of {len(self.plays)}")
        return self._pos.parse_play(self.plays[i]["notation"])

    def play(self, index: int | None = None, rack: str | None = None) -> None:
        """Play the listed play ``index`` (default: the selected one): its tiles go on the board, its score to the
        side on turn, and the other side is on turn with ``rack`` (default: the opponent's known rack, else
        empty: type the next rack)."""
        play = self._selected_play(index)
        after = _after(self._pos, play)
        if rack is not None or not self._pos.opp_rack:
            after._rack = ""
            after.opp_rack = ""
            after.rack = rack or ""
        self._history.append(self._pos)
        self.status = f"played {play.notation} for {play.score}"
        self._load(after)

    def undo(self) -> None:
        """Back to the position before the last play, load or square edit."""
        if not self._history:
            raise ScrabbleError("nothing to undo")
        self._load(self._history.pop())

    def set_square(self, row: int, col: int, letter: str) -> None:
        """Put ``letter`` on square ``(row, col)`` (0-based; lower case: a blank) or empty it (``""`` or ``.``)."""
        if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < 15 and 0 <= col < 15):
            raise ScrabbleError(f"square ({row!r}, {col!r}) is not on the 15x15 board")
        if not isinstance(letter, str) or len(letter) > 1:
            raise ScrabbleError(f"a square holds one letter, got {letter!r}")
        rows = self._pos.rows()
        rows[row] = rows[row][:col] + (letter or ".") + rows[row][col + 1:]
        pos = Position.from_rows(rows, self._pos.variant, self._pos.lexicon, scores=self._pos.scores,
                                 scoreless=self._pos.scoreless)
        self._history.append(self._pos)
        self._load(pos, rack=self.rack)

    @t.observe("slot_pattern", "slot_rack")
    def _slot_changed(self, change) -> None:
        self.find_slot()

    def find_slot(self, limit: int = 200) -> list:
        """Words of the lexicon that fit ``slot_pattern`` (``.`` any letter, ``[AEI]`` a class, a letter fixed),
        filled from ``slot_rack`` when it is set (``?`` a blank); the first ``limit`` go to ``slot_words``."""
        pattern, rack = self.slot_pattern.strip(), self.slot_rack.strip()
        if not pattern:
            self.slot_words, self.slot_count = [], 0
            return []
        try:
            found = self._pos.lexicon.match(pattern, rack or None)
        except NumbaWordsError as e:
            self.error = str(e)
            self.slot_words, self.slot_count = [], 0
            return []
        self.error = ""
        words = [str(m) for m in found]
        self.slot_words, self.slot_count = words[:limit], len(words)
        return words

    def simulate(self, iterations: int = 100_000, threads: int | None = None, seed: int = 0) -> Task:
        """Simulate the top ``sim_candidates`` plays (``sim_plies`` plies) in a background thread; ``sim_rows``
        and ``sim_iterations`` follow each batch; :meth:`stop` ends it. Returns the :class:`Task`."""
        if self._task is not None and self._task.running:
            raise ScrabbleError("a simulation or endgame is already running (stop it first)")
        pos = self._pos.copy()
        self.sim_rows, self.sim_iterations = [], 0

        def show(res) -> bool:
            rows = []
            for c in res.candidates:
                rows.append({"notation": c.play.notation if hasattr(c.play, "coord") else str(c.play),
                             "score": int(getattr(c.play, "score", 0)), "equity": _num(c.equity),
                             "mean": _num(c.mean), "stderr": _num(c.stderr), "iterations": c.iterations,
                             "dropped": c.dropped})
            with self.hold_sync():
                self.sim_rows = rows
                self.sim_iterations = res.iterations
            return task.stop_event.is_set()

        def run(stop) -> None:
            res = pos.simulate(candidates=self.sim_candidates, plies=self.sim_plies, iterations=iterations,
                               threads=threads, seed=seed, on_batch=show)
            show(res)
            self.status = f"simulated {res.iterations} iterations in {res.seconds:.1f} s"

        self.sim_running = True
        self.status = "simulating..."
        task = self._task = Task(run, self._failed, lambda: setattr(self, "sim_running", False))
        return task

    def endgame(self, plies: int | None = None, time: float = 10.0) -> Task:
        """Solve the endgame (bag empty, opponent's rack known) in a background thread for at most ``time``
        seconds; the result goes to ``endgame_result`` (value, best, pv). Returns the :class:`Task`."""
        if not self.endgame_ready:
            raise ScrabbleError("the endgame needs an empty bag and the opponent's rack (set opp_rack)")
        if self._task is not None and self._task.running:
            raise ScrabbleError("a simulation or endgame is already running (stop it first)")
        pos = self._pos.copy()
        self.endgame_result = {}

        def run(stop) -> None:
            res = pos.endgame(plies=plies, time=time)
            self.endgame_result = res.to_record()
            self.status = f"endgame {res}"

        self.endgame_running = True
        self.status = "solving the endgame..."
        self._task = Task(run, self._failed, lambda: setattr(self, "endgame_running", False))
        return self._task

    def stop(self) -> None:
        """Stop a running simulation after its current batch."""
        if self._task is not None:
            self._task.stop()

    # ------------------------------------------------------------------ static picture
    def svg(self, size: int = 480) -> str:
        """The board with the selected play drawn on it (the view where JavaScript does not run)."""
        play = self._selected_play() if 0 <= self.selected < len(self.plays) else None
        return self._pos.svg(play, size=size)
