"""CGP (Crossword Game Position, as in Macondo, wolges and MAGPIE): one line per position.

``ROWS RACK/OPPRACK SCORE/OPPSCORE SCORELESS [OPCODE ARGS; ...]``: 15 rows top to bottom separated by ``/``,
digits = runs of empty squares, upper case = a tile, lower case = a blank standing for that letter; the rack
on turn (``?`` = blank) and, optionally, the opponent's; both scores; the number of consecutive scoreless
turns; then operations such as ``lex CSW21;``. :meth:`Position.from_cgp` and :meth:`Position.cgp` read and
write whole positions; this module holds the text layer they share (no lexicon needed).
"""
from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from ._tables import EMPTY, SIZE
from .errors import InvalidCgpError, short

LEXICON_NAMES = {
    "twl06": "twl06", "twl2006": "twl06", "twl": "twl06",
    "sowpods": "sowpods", "csw": "sowpods", "csw07": "sowpods", "csw12": "sowpods", "csw15": "sowpods",
    "csw19": "sowpods", "csw21": "sowpods", "csw24": "sowpods",
    "nb-small": "nb-small",
}
"""``lex`` opcode names this library can honour, and the lexicon that serves each (Collins Scrabble Words
names are served by SOWPODS, the closest list shipped)."""

_TOKEN = re.compile(r"[0-9]+|.", re.S)
_OPCODE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,31}")


class CgpRecord(NamedTuple):
    """The fields of one CGP line, checked for form (the board's letters are checked against an alphabet by
    :func:`decode_board`)."""

    rows: list
    rack: str
    opp_rack: str
    scores: tuple
    scoreless: int
    ops: dict


def parse_cgp(text: str) -> CgpRecord:
    """Split a CGP line into its fields; :class:`InvalidCgpError` names the first field that is malformed."""
    board, rack, opp, scores, scoreless, ops = cgp_fields(text)
    return CgpRecord(board.split("/"), rack, opp, scores, scoreless, parse_ops(ops) if ops else {})


def cgp_fields(text: str) -> tuple:
    """:func:`parse_cgp`'s fields with the board as its text (``rows`` joined by ``/``) and the operations as
    theirs (``""``: none; not checked here, see :func:`parse_ops`): what :meth:`Position.from_cgp` reads (a few
    calls: a CGP is read on every new position)."""
    if not isinstance(text, str):
        raise InvalidCgpError(f"CGP must be a string, got {short(text)}")
    fields = text.split()
    if len(fields) < 4:
        raise InvalidCgpError(f"CGP {short(text)}: expected 'board rack/rack score/score scoreless', "
                              f"got {len(fields)} field{'s' if len(fields) != 1 else ''}")
    board, racks, sc, scoreless = fields[0], fields[1], fields[2], fields[3]
    if board.count("/") != SIZE - 1:
        raise InvalidCgpError(f"CGP board {short(board)}: {board.count('/') + 1} rows, expected {SIZE}")
    rack, slash, opp = racks.partition("/")
    if not slash or "/" in opp:
        raise InvalidCgpError(f"CGP racks {short(racks)}: expected 'RACK/' or 'RACK/OPPRACK'")
    s0, slash, s1 = sc.partition("/")
    a, b = s0.removeprefix("-"), s1.removeprefix("-")
    if not slash or not (0 < len(a) <= 9 and 0 < len(b) <= 9 and sc.isascii() and a.isdigit() and b.isdigit()):
        raise InvalidCgpError(f"CGP scores {short(sc)}: expected two whole numbers like '123/98' "
                              "(at most 9 digits each)")
    if not _digits(scoreless, 4):
        raise InvalidCgpError(f"CGP scoreless-turn count {short(scoreless)} is not a whole number (0..9999)")
    return board, rack, opp, (int(s0), int(s1)), int(scoreless), " ".join(fields[4:]) if len(fields) > 4 else ""


def _digits(s: str, most: int) -> bool:
    """Whether ``s`` is 1..``most`` ASCII digits (``[0-9]{1,most}``, without a regular expression: a CGP is read
    on every new position)."""
    return 0 < len(s) <= most and s.isascii() and s.isdigit()


def parse_ops(text: str) -> dict:
    """``{"lex": "CSW21", ...}`` from ``lex CSW21; ld english;`` (the last semicolon may be left out)."""
    ops = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        name, _, arg = part.partition(" ")
        if not _OPCODE.fullmatch(name):
            raise InvalidCgpError(f"CGP operation {short(part)}: {short(name)} is not an opcode name")
        ops[name.lower()] = arg.strip()
    return ops


def lexicon_name(ops: dict) -> str | None:
    """The lexicon a ``lex`` opcode names (``None`` without one); :class:`InvalidCgpError` for a name this
    library has no word list for."""
    if "lex" not in ops:
        return None
    name = ops["lex"]
    key = name.lower()
    if key not in LEXICON_NAMES:
        raise InvalidCgpError(f"CGP 'lex {short(name)};': unknown lexicon; known: "
                              f"{', '.join(sorted(LEXICON_NAMES))} (or pass lexicon= yourself)")
    return LEXICON_NAMES[key]


def decode_board(rows, alphabet: str):
    """``(letters, blanks)`` (15x15 ``uint8`` codes with 255 = empty, and ``bool`` blank flags) from CGP rows."""
    letters = np.full((SIZE, SIZE), EMPTY, np.uint8)
    blanks = np.zeros((SIZE, SIZE), bool)
    index = {ch: i for i, ch in enumerate(alphabet)}
    for r, row in enumerate(rows):
        c = 0
        for tok in _TOKEN.findall(row):
            if tok[0] in "0123456789":
                if len(tok) > 2 or not 1 <= int(tok) <= SIZE:
                    raise InvalidCgpError(f"CGP row {r + 1} {short(row)}: run {short(tok)} is not 1..{SIZE}")
                c += int(tok)
            else:
                up = tok.upper()
                i = index.get(up)
                if i is None or tok not in (up, up.lower()):
                    raise InvalidCgpError(f"CGP row {r + 1} {short(row)}: {tok!r} is not a letter of "
                                          f"{alphabet!r} or a digit")
                if c < SIZE:
                    letters[r, c] = i
                    blanks[r, c] = tok != up
                c += 1
        if c != SIZE:
            raise InvalidCgpError(f"CGP row {r + 1} {short(row)} covers {c} squares, expected {SIZE}")
    return letters, blanks


def format_cgp(letters, blanks, alphabet: str, rack: str, opp_rack: str, scores, scoreless: int,
               ops: dict | None = None) -> str:
    """One CGP line (see the module docstring)."""
    rows = []
    for r in range(SIZE):
        s, run = [], 0
        for c in range(SIZE):
            x = letters[r, c]
            if x == EMPTY:
                run += 1
                continue
            if run:
                s.append(str(run))
                run = 0
            ch = alphabet[x]
            s.append(ch.lower() if blanks[r, c] else ch)
        if run:
            s.append(str(run))
        rows.append("".join(s))
    text = f"{'/'.join(rows)} {rack}/{opp_rack} {scores[0]}/{scores[1]} {scoreless}"
    if ops:
        text += " " + " ".join(f"{k} {v};" for k, v in ops.items())
    return text
