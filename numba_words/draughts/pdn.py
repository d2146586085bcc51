"""PDN (Portable Draughts Notation), the file format: ``read_pdn`` (text, path or file -> :class:`Game` list)
and ``write_pdn`` (games -> text).

Read: ``[Tag "value"]`` pairs (``\\"`` and ``\\\\`` escapes), the ``FEN`` tag for a set-up start position, move
numbers (``1.``, ``1...``), moves ``32-28`` / ``28x19`` / ``28x19x8`` (also ``28:19``; a capture may give any
of its landing squares, in order, as long as they single out one legal move: ``2x30x17`` for ``2x30x39x17``),
``{comments}`` (they do not nest: the first ``}`` closes one, so ``{a {b}`` is the comment ``a {b``), ``;`` line
comments, ``(variations)`` (skipped), NAGs ``$n``, annotation suffixes ``!?``, and the results ``2-0 0-2 1-1 1-0
0-1 0-0 *``. A result ends its game: what follows starts the next one. A UTF-8 byte-order mark is skipped. Every move
is checked for legality while reading; errors name the line and the move number.
"""
from __future__ import annotations

import bisect
import os
import re

from .errors import IllegalMoveError, InvalidFenError, PdnError, quote
from .game import INITIAL_FEN, Game
from .position import Position

RESULTS = ("2-0", "0-2", "1-1", "1-0", "0-1", "0-0", "*")
_TOKEN = re.compile(
    r"""(?P<tag>\[[ \t]*(?P<tname>\w+)[ \t]+"(?P<tvalue>(?:[^"\\\n]|\\[^\n])*)"[ \t]*\])|(?P<badtag>\[[^\n]*)
    |(?P<comment>\{[^}]*\}?)|(?P<line>;[^\n]*)|(?P<open>\()|(?P<close>\))|(?P<nag>\$[0-9]+)
    |(?P<result>2-0|0-2|1-1|1-0|0-1|0-0|\*)(?![0-9x:-])
    |(?P<num>[0-9]{1,6}\.(?:\.\.)?)|(?P<move>[0-9]+(?:[-x:][0-9]+)+)[!?+#]*
    |(?P<ws>\s+)|(?P<bad>[^\s{}()\[\];]+|.)""",
    re.X,
)
_ESCAPE = re.compile(r"\\(.)")
_TAG_NAME = re.compile(r"\w+")


class _Reader:
    """One pass over the text: tags, then move text up to a result, per game."""

    def __init__(self, text: str, fname: str):
        self.text, self.fname = text, fname
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.games: list[Game] = []
        self.tags: dict = {}
        self.game: Game | None = None
        self.result = "*"
        self.depth = 0
        self.number = 1
        self.opened = 0  # line of the game's first token
        self.ended: str | None = None  # the result that ended the last game, until a tag or a new game

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)

    def error(self, pos: int, what: str, move: bool = True) -> PdnError:
        where = f"line {self.line(pos)}" + (f", move {self.number}" if move and self.game is not None else "")
        return PdnError(f"{self.fname}{where}: {what}")

    def begin(self, pos: int) -> None:
        fen = self.tags.get("FEN")
        try:
            start = Position.from_fen(fen) if fen else Position.initial()
        except InvalidFenError as e:
            raise self.error(pos, f"bad FEN tag of the game: {e}", move=False) from None
        self.game = Game(start, headers=self.tags)
        self.result = self.tags.get("Result", "*")
        self.depth, self.number, self.opened = 0, 1, self.line(pos)

    def end(self, pos: int) -> None:
        if self.game is None and self.tags:
            self.begin(pos)
        if self.game is not None:
            if self.depth:
                raise PdnError(f"{self.fname}line {self.line(pos)}: unclosed '(' variation in the game from line "
                               f"{self.opened}")
            self.game.result = self.result
            self.games.append(self.game)
        self.game, self.tags = None, {}

    def read(self) -> list[Game]:
        for m in _TOKEN.finditer(self.text):
            kind, tok, pos = m.lastgroup, m.group(0), m.start()
            if kind in ("ws", "line", "nag"):
                continue
            if kind == "comment":
                if not tok.endswith("}"):
                    raise self.error(pos, "unclosed '{' comment (no '}' before the end of the text)", move=False)
                continue
            if kind in ("tag", "badtag"):
                if self.game is not None:  # tags after move text: the game had no result; a new one begins
                    self.end(pos)
                if kind == "badtag":
                    raise self.error(pos, f"bad tag pair {quote(tok.strip())} (want [Name \"value\"])", move=False)
                self.tags[m.group("tname")] = _ESCAPE.sub(r"\1", m.group("tvalue"))
                self.ended = None
                continue
            if self.game is None:
                if self.ended and (kind == "move" or kind == "num" and int(tok.rstrip(".")) != 1):
                    raise self.error(pos, f"move text {quote(tok)} after the result {self.ended}: a game ends at "
                                          f"its result", move=False)
                self.ended = None
                self.begin(pos)
            if kind == "open":
                self.depth += 1
            elif kind == "close":
                if not self.depth:
                    raise self.error(pos, "unmatched ')'")
                self.depth -= 1
            elif self.depth:
                continue  # inside a variation
            elif kind == "num":
                self.number = int(tok.rstrip("."))
            elif kind == "result":
                self.result = self.ended = tok
                self.end(pos)
            elif kind == "bad":
                raise self.error(pos, f"cannot read {quote(tok)}")
            else:
                try:
                    self.game.play(m.group("move"))
                except IllegalMoveError as e:
                    raise self.error(pos, str(e)) from None
        self.end(len(self.text))
        return self.games


def _looks_like_a_path(s: str) -> bool:
    return "\n" not in s and "[" not in s and "{" not in s and (s.lower().endswith(".pdn") or os.sep in s
                                                                 or (os.altsep is not None and os.altsep in s))


def _text(source) -> tuple[str, str]:
    """``(text, file-name prefix for messages)`` of a ``read_pdn`` source."""
    if hasattr(source, "read"):
        data = source.read()
        name = getattr(source, "name", None)
        fname = f"{name}: " if isinstance(name, str) else ""
    elif isinstance(source, (str, os.PathLike)) and (
            isinstance(source, os.PathLike) or os.path.exists(source) or _looks_like_a_path(source)):
        path = os.fspath(source)
        fname = f"{path}: "
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except (OSError, ValueError) as e:  # ValueError: a name with a NUL character
            raise PdnError(f"cannot read the PDN file {quote(path)}: {getattr(e, 'strerror', None) or e}") from None
    elif isinstance(source, str):
        return source.removeprefix("\ufeff"), ""
    elif isinstance(source, (bytes, bytearray)):
        data, fname = bytes(source), ""
    else:
        raise PdnError(f"read_pdn takes PDN text, a path or an open file, got {quote(source)}")
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise PdnError(f"{fname}not UTF-8 text (byte {e.start}: {e.reason})") from None
    if not isinstance(data, str):
        raise PdnError(f"{fname}reading gave {type(data).__name__}, not text")
    return data.removeprefix("\ufeff"), fname


def read_pdn(source) -> list[Game]:
    """All games in ``source``: PDN text, a path (``str`` or ``Path``), bytes, or an open file."""
    text, fname = _text(source)
    return _Reader(text, fname).read()


def _tag_line(k, v) -> str:
    k, v = str(k), str(v)
    if not _TAG_NAME.fullmatch(k):
        raise PdnError(f"tag name {quote(k)} is not a PDN tag name (letters, digits and '_')")
    if any(ord(c) < 32 or ord(c) == 127 for c in v):
        raise PdnError(f"tag {k} has a control character (a line break?) in its value {quote(v)}; "
                       f"PDN tag values are one line")
    return '[{} "{}"]'.format(k, v.replace("\\", "\\\\").replace('"', '\\"'))


def write_pdn(games) -> str:
    """PDN text for one game or a list of games (seven-tag roster first, then the other tags)."""
    if isinstance(games, Game):
        games = [games]
    try:
        games = list(games)
    except TypeError:
        raise PdnError(f"write_pdn takes a Game or a list of games, got {quote(games)}") from None
    out = []
    for g in games:
        if not isinstance(g, Game):
            raise PdnError(f"write_pdn takes Game objects, got {quote(g)}")
        if g.result not in RESULTS:
            raise PdnError(f"result must be one of {', '.join(RESULTS)}, got {quote(g.result)}")
        tags = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}
        tags.update(g.headers)
        tags["Result"] = g.result
        if g.start_fen != INITIAL_FEN:
            tags["FEN"] = g.start_fen
        else:
            tags.pop("FEN", None)
        lines = [_tag_line(k, v) for k, v in tags.items()]
        lines.append("")
        toks = []
        ply = 0 if g.start_fen.startswith("W") else 1
        for m in g.moves:
            n = ply // 2 + 1
            if ply % 2 == 0:
                toks.append(f"{n}.")
            elif not toks:
                toks.append(f"{n}...")
            toks.append(m.notation)
            ply += 1
        toks.append(g.result)
        line = ""
        for t in toks:
            if len(line) + len(t) + 1 > 79:
                lines.append(line)
                line = t
            else:
                line = f"{line} {t}" if line else t
        lines.append(line)
        lines.append("")
        out.append("\n".join(lines))
    return "\n".join(out)
