"""PDN (Portable Draughts Notation), the file format: ``read_pdn`` (text, path or file -> :class:`Game` list)
and ``write_pdn`` (games -> text).

Supported: ``[Tag "value"]`` pairs, the ``FEN`` tag for a set-up start position, move numbers (``1.``,
``1...``), moves ``32-28`` / ``28x19`` / ``28x19x8`` (also ``28:19``), ``{comments}``, ``;`` line comments,
``(variations)`` (skipped), NAGs ``$n``, annotation suffixes ``!?``, and results ``2-0 0-2 1-1 1-0 0-1 0-0 *``.
Every move is checked for legality while reading; errors name the line and the move number.
"""
from __future__ import annotations

import io
import os
import re

from .errors import IllegalMoveError, InvalidFenError, PdnError
from .game import INITIAL_FEN, Game
from .position import Position

RESULTS = ("2-0", "0-2", "1-1", "1-0", "0-1", "0-0", "*")
_TAG = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_TOKEN = re.compile(
    r"""(?P<comment>\{[^}]*\})|(?P<line>;[^\n]*)|(?P<open>\()|(?P<close>\))|(?P<nag>\$\d+)
    |(?P<num>\d+\.(?:\.\.)?)|(?P<result>2-0|0-2|1-1|1-0|0-1|0-0|\*)(?![\d\-x:])
    |(?P<move>\d+(?:[-x:]\d+)+)[!?+#]*|(?P<ws>\s+)|(?P<bad>\S+)""",
    re.X,
)


def _parse_game(tags, body_lines, fname):
    fen = tags.get("FEN")
    try:
        pos = Position.from_fen(fen) if fen else Position.initial()
    except InvalidFenError as e:
        raise PdnError(f"{fname}: bad FEN tag in the game starting before line {body_lines[0][0] if body_lines else '?'}: {e}") from None
    game = Game(pos, headers=tags)
    depth = 0
    number = 1
    result = tags.get("Result", "*")
    for lineno, text in body_lines:
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            tok = m.group(0)
            if kind in ("ws", "comment", "line", "nag"):
                continue
            if kind == "open":
                depth += 1
                continue
            if kind == "close":
                depth -= 1
                if depth < 0:
                    raise PdnError(f"{fname}line {lineno}: unmatched ')'")
                continue
            if depth:
                continue
            if kind == "num":
                number = int(tok.rstrip("."))
                continue
            if kind == "result":
                result = tok
                continue
            if kind == "bad":
                raise PdnError(f"{fname}line {lineno}, move {number}: cannot read {tok!r}")
            try:
                game.play(m.group("move"))
            except IllegalMoveError as e:
                raise PdnError(f"{fname}line {lineno}, move {number}: {e}") from None
    if depth:
        raise PdnError(f"{fname}unclosed '(' in the game ending at line {body_lines[-1][0] if body_lines else '?'}")
    game.result = result
    return game


def read_pdn(source) -> list[Game]:
    """All games in ``source``: PDN text, a path, or an open text file."""
    fname = ""
    if hasattr(source, "read"):
        text = source.read()
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and "[" not in source
                                             and os.path.exists(source)):
        fname = f"{os.fspath(source)}: "
        with open(source, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    else:
        text = str(source)
    games = []
    tags: dict = {}
    body: list = []
    # strip a comment's newlines from the line structure only when a comment spans lines
    lines = io.StringIO(text).read().splitlines()
    in_comment = False
    for lineno, line in enumerate(lines, 1):
        stripped = line.strip()
        if not in_comment and stripped.startswith("["):
            if body:
                games.append(_parse_game(tags, body, fname))
                tags, body = {}, []
            m = _TAG.match(stripped)
            if not m:
                raise PdnError(f"{fname}line {lineno}: bad tag pair {stripped!r}")
            tags[m.group(1)] = m.group(2).replace('\\"', '"')
            continue
        if not stripped and not in_comment:
            continue
        # multi-line comments: join until the closing brace
        if in_comment:
            body[-1] = (body[-1][0], body[-1][1] + " " + line)
        else:
            body.append((lineno, line))
        in_comment = body[-1][1].count("{") > body[-1][1].count("}")
    if in_comment:
        raise PdnError(f"{fname}line {body[-1][0]}: unclosed '{{' comment")
    if body or tags:
        games.append(_parse_game(tags, body, fname))
    return games


def _tag_line(k, v):
    return f'[{k} "{str(v).replace(chr(34), chr(92) + chr(34))}"]'


def write_pdn(games) -> str:
    """PDN text for one game or a list of games (seven-tag roster first, then the other tags)."""
    if isinstance(games, Game):
        games = [games]
    out = []
    for g in games:
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
        white_first = g.start_fen.startswith("W")
        ply = 0 if white_first else 1
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
