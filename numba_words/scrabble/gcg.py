"""GCG game files (as written by Quackle, Macondo and Woogles): read into positions, write from a :class:`Game`.

A line per turn: ``>NAME: RACK MOVE +SCORE TOTAL`` where ``MOVE`` is a placement (``8D CAIRD``, ``F7 B.G``),
an exchange (``-EIOU``), a pass (``-``), a withdrawn phony (``--``), a challenge bonus (``(challenge)``) or an
end-of-game rack adjustment (``(ABC)``); ``#pragma`` lines carry players, lexicon and notes.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from .cgp import LEXICON_NAMES
from .errors import InvalidGcgError, InvalidRackError, ScrabbleError, short
from .position import Position
from .variants import get_variant

_MOVE = re.compile(r"^>([^:]+):\s+(\S+)\s+(.*)$")
_TOTAL = re.compile(r"[+-]?[0-9]{1,9}")
_LOOKS_LIKE_COORD = re.compile(r"^([0-9]+[A-Za-z]+|[A-Za-z]+[0-9]+)$")


def _text_of(source) -> str:
    if isinstance(source, os.PathLike):
        source = Path(source)
    elif isinstance(source, str) and "\n" not in source and not source.lstrip().startswith(("#", ">")) \
            and len(source) < 4096 and source.strip() and Path(source).is_file():
        source = Path(source)
    if isinstance(source, Path):
        try:
            return source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InvalidGcgError(f"cannot read GCG file {short(str(source))}: {e}") from None
    if not isinstance(source, str):
        raise InvalidGcgError(f"GCG must be text or a path, got {short(source)}")
    return source


def read_gcg(source, variant="scrabble", lexicon=None) -> list:
    """Read a GCG game (its text, or a path to a file): the list of :class:`Position` after each tile
    placement, the last one final.

    Tile placements are put on the board as written (phonies too, but never more of a tile than the bag
    holds); a withdrawn phony (``--``) takes its tiles back; exchanges, passes, challenges and end adjustments
    only move the scores. Each position holds the rack of the player to move next (from the next line, when
    it fits the bag) and the scores as ``(first player, second player)`` totals from the file. A ``#lexicon``
    pragma picks the lexicon unless ``lexicon`` is given. Errors (:class:`InvalidGcgError`) name the line.
    """
    text = _text_of(source)
    variant = get_variant(variant)
    m = re.search(r"^#lexicon\s+(\S+)", text, re.M)
    if m and lexicon is None:
        name = m.group(1).lower()
        if name not in LEXICON_NAMES:
            raise InvalidGcgError(f"GCG '#lexicon {short(m.group(1))}': unknown lexicon; known: "
                                  f"{', '.join(sorted(LEXICON_NAMES))} (or pass lexicon= yourself)")
        lexicon = LEXICON_NAMES[name]
    try:
        pos = Position(variant, lexicon)
    except ScrabbleError as e:
        raise InvalidGcgError(f"GCG: {e}") from None
    players: list = []
    out = []
    last = {}  # player -> (board before their last placement, index in out)
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        mm = _MOVE.match(line)
        if not mm:
            raise InvalidGcgError(f"GCG line {n}: {short(line)} is not a '#pragma' or '>player: ...' line")
        who, rack, rest = mm.group(1).strip(), mm.group(2), mm.group(3).split()
        if who not in players:
            players.append(who)
        if len(players) > 2:
            raise InvalidGcgError(f"GCG line {n}: a third player {short(who)}")
        if not rest:
            raise InvalidGcgError(f"GCG line {n}: {short(line)} has no move")
        total = rest[-1]
        if not _TOTAL.fullmatch(total):
            raise InvalidGcgError(f"GCG line {n}: total {short(total)} is not a whole number (at most 9 digits)")
        idx = players.index(who)
        if out and not out[-1].rack and not rack.startswith("("):
            try:  # the rack of the player to move in the position the last placement left
                out[-1].rack = rack
            except InvalidRackError:
                pass
        if _LOOKS_LIKE_COORD.match(rest[0]):
            if len(rest) != 4:
                raise InvalidGcgError(f"GCG line {n}: a placement is 'COORD WORD +SCORE TOTAL', got {short(line)}")
            try:
                placed = pos._placement(f"{rest[0]} {rest[1]}")
                letters, blanks = pos.board.letters.copy(), pos.board.blanks.copy()
                for r, c, ch, bl in placed:
                    letters[r, c], blanks[r, c] = pos.alphabet.index(ch), bl
                pos._check_bag(letters, blanks, "", "", "the placement", InvalidGcgError)
            except ScrabbleError as e:
                raise InvalidGcgError(f"GCG line {n}: {e}") from None
            last[idx] = (pos.board.copy(), len(out))
            pos.board.place([q[0] for q in placed], [q[1] for q in placed],
                            [pos.alphabet.index(q[2]) for q in placed], [q[3] for q in placed])
            _set_score(pos, idx, int(total))
            out.append(pos.copy())
        else:
            if rest[0] == "--" and idx in last:  # the phony is withdrawn: its tiles go back
                board, k = last.pop(idx)
                pos.board = board
                del out[k:]
            _set_score(pos, idx, int(total))
    if out:
        out[-1].scores = pos.scores
    return out


def _set_score(pos, idx, total) -> None:
    sc = list(pos.scores)
    sc[idx] = total
    pos.scores = tuple(sc)


def write_gcg(game, names=("player1", "player2")) -> str:
    """A finished or running :class:`~numba_words.scrabble.Game` as GCG text (players, lexicon, every turn with
    the mover's rack, and the end-of-game rack adjustments)."""
    if len(names) != 2 or not all(isinstance(x, str) and x and " " not in x and ":" not in x for x in names):
        raise ScrabbleError(f"write_gcg: names must be two words without spaces or ':', got {short(names)}")
    lines = ["#character-encoding UTF-8", f"#player1 {names[0]} {names[0]}", f"#player2 {names[1]} {names[1]}",
             f"#lexicon {game.lexicon.name}"]
    totals = [0, 0]
    for (who, text, score), rack in zip(game.moves, game.racks_before):
        totals[who] += score
        lines.append(f">{names[who]}: {rack or '-'} {text} +{score} {totals[who]}")
    if game.over:
        for who in (0, 1):
            adj = game.end_adjustments[who]
            if adj:
                totals[who] += adj
                shown = game.racks[1 - who] if adj > 0 else game.racks[who]
                lines.append(f">{names[who]}: ({shown}) {adj:+d} {totals[who]}")
    return "\n".join(lines) + "\n"
