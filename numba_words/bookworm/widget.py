"""``BoardWidget``: a Bookworm (hex) or Boggle (square) board as a Jupyter widget (anywidget): every word on
the board in a list, a click on a word traces its path on the grid, the best word of each length marked, and
"play" (Bookworm) plays the word with gravity, refill, gems and fire as :meth:`Position.play` does.

A script drives it as the browser does::

    w = BoardWidget(Position.random(seed=1))
    w.selected = 0             # the best word's path: w.path
    w.play()                   # the board falls and refills; w.score, w.history follow
"""
from __future__ import annotations

import anywidget
import traitlets as t

from .._widget import CSS, Actions, esm
from .errors import BookwormError
from .position import Position
from .svg import FILL, tile_centres

SIZE = 26
"""Tile radius in pixels in the widget's drawing."""


def _position(position) -> Position:
    if position is None:
        return Position.random(seed=0)
    if isinstance(position, str):
        return Position(position)
    if not isinstance(position, Position):
        raise BookwormError(f"BoardWidget needs a Position, a board text or None, got {type(position).__name__}")
    return position.copy()


class BoardWidget(Actions, anywidget.AnyWidget):
    """An interactive Bookworm or Boggle board for a :class:`Position` (or board text; ``None``: a random
    Bookworm board, seed 0).

    Traitlets: ``tiles`` (per tile: ``x``, ``y`` centre in pixels, ``label``, ``kind``, ``fill``), ``hex``,
    ``width``/``height``, ``words`` (the first ``n`` words by score: ``word``, ``score``, ``path``, ``length``),
    ``n_words`` (all of them), ``best_by_length`` (``{length: index into words}``: the best word of each length),
    ``selected`` (index into ``words``, -1 none) and ``path`` (its tiles), ``score``, ``level``, ``turn``,
    ``history`` (words played), ``game_over``, ``can_play``.
    """

    _esm = esm("bookworm.js")
    _css = CSS
    _ERROR = BookwormError
    _ACTIONS = {"play": ("play", ("index",)), "undo": ("undo", ())}

    tiles = t.List().tag(sync=True)
    hex = t.Bool(True).tag(sync=True)
    width = t.Float(0).tag(sync=True)
    height = t.Float(0).tag(sync=True)
    n = t.Int(200).tag(sync=True)
    words = t.List().tag(sync=True)
    n_words = t.Int(0).tag(sync=True)
    best_by_length = t.Dict().tag(sync=True)
    selected = t.Int(-1).tag(sync=True)
    path = t.List().tag(sync=True)
    score = t.Int(0).tag(sync=True)
    level = t.Int(1).tag(sync=True)
    turn = t.Int(0).tag(sync=True)
    history = t.List().tag(sync=True)
    game_over = t.Unicode("").tag(sync=True)
    can_play = t.Bool(False).tag(sync=True)
    can_undo = t.Bool(False).tag(sync=True)
    error = t.Unicode("").tag(sync=True)
    status = t.Unicode("").tag(sync=True)

    def __init__(self, position=None, **kwargs):
        self._pos = _position(position)
        self._undo: list = []
        super().__init__(**kwargs)
        self._show()
        self.on_msg(self._on_custom)

    def _show(self) -> None:
        pos = self._pos
        centres, width, height = tile_centres(pos.grid, SIZE)
        tiles = []
        for tile, (x, y) in centres.items():
            letters = pos.letters(tile)
            tiles.append({"x": round(x, 2), "y": round(y, 2), "label": "Qu" if letters == "qu" else letters.upper(),
                          "kind": pos.kind(tile), "fill": FILL[pos.kind(tile)]})
        top = pos.words().top(self.n)
        best = {}
        for i, f in enumerate(top):  # by score first: the first word of a length is that length's best
            best.setdefault(str(len(f.word)), i)
        with self.hold_sync():
            self.tiles, self.width, self.height, self.hex = tiles, round(width, 2), round(height, 2), \
                pos.grid.kind == "bookworm"
            self.words = [f.to_record() for f in top]
            self.n_words = len(pos.words())
            self.best_by_length = best
            self.selected = -1
            self.path = []
            self.score, self.level, self.turn = int(pos.score), int(pos.level), int(pos.turn)
            self.history = [[tu.word, tu.score] for tu in pos.history]
            self.game_over = pos.reason if pos.game_over else ""
            self.can_play = pos.grid.kind == "bookworm" and not pos.game_over
            self.can_undo = bool(self._undo)

    @t.observe("selected")
    def _selected_changed(self, change) -> None:
        i = change["new"]
        self.path = list(self.words[i]["path"]) if 0 <= i < len(self.words) else []

    @t.observe("n")
    def _n_changed(self, change) -> None:
        if change["new"] < 1:
            self.error = f"n must be >= 1, got {change['new']}"
            return
        self._show()

    def play(self, move=None):
        """Play ``move`` (a word, a path of tile indices, or an index into ``words``; default: the selected
        word): the tiles go, the ones above fall, new ones come in; returns the :class:`Turn`."""
        if move is None:
            move = self.selected
        if isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move < len(self.words):
                raise BookwormError(f"no word {move} in the list of {len(self.words)}")
            move = tuple(self.words[move]["path"])
        before = self._pos.copy()
        turn = self._pos.play(move)
        self._undo.append(before)
        self.error = ""
        self.status = f"played {turn.word} for {turn.score}" + (f"; game over: {turn.reason}" if turn.game_over else "")
        self._show()
        return turn

    def undo(self) -> None:
        """Back to the board before the last play."""
        if not self._undo:
            raise BookwormError("nothing to undo")
        self._pos = self._undo.pop()
        self._show()

    def svg(self, size: int = 28) -> str:
        """The board with the selected word's path (the view where JavaScript does not run)."""
        return self._pos.svg(self.path or None, size=size)
