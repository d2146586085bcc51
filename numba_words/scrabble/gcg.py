"""GCG game files (as written by Quackle, Macondo, Woogles and MAGPIE): read into positions, write from a
:class:`Game`.

A line per event: ``>NICK: RACK MOVE +SCORE TOTAL`` where ``MOVE`` is a placement (``8D CAIRD``, ``F7 B.G``),
an exchange (``-EIOU``) or a pass (``-``); ``>NICK: RACK -- -SCORE TOTAL`` withdraws a phony; ``>NICK: RACK
(challenge) +N TOTAL`` is a challenge bonus; at the end, ``>NICK: (RACK) +N TOTAL`` gives the player who went out
the opponent's rack (twice its value), ``>NICK: RACK (RACK) -N TOTAL`` takes a rack's value after six scoreless
turns, ``>NICK: RACK (time) -N TOTAL`` is a time penalty. ``#pragma`` lines carry the players (``#player1 NICK
Full Name``), lexicon, title, notes (a ``#note`` goes on over the following lines that are not GCG lines),
``#rack1``/``#rack2`` (the racks at the end of an unfinished game) and ``#character-encoding`` (first line only:
UTF-8 or ISO-8859-1).

Reading replays the game and checks it the way MAGPIE's reader does: whose turn it is, that tiles played or
exchanged were on the rack, that every rack fits in the tiles not on the board, that a placement touches the
board (the centre square first) and scores what the file says, that each running total is the last one plus the
event's score, that end-of-game rack points and penalties are the rack's value, the order of
challenge bonuses, withdrawn phonies, end-of-game and time-penalty events, and the pragmas' places. A lenient
read (the default) takes the file's word for such inconsistencies with a :class:`GcgWarning` each; ``strict=True``
refuses them with a :class:`GcgInconsistencyError`. Lines that cannot be read at all raise
:class:`InvalidGcgError` either way. Tile placements are not checked against a lexicon (phonies are in games).
"""
from __future__ import annotations

import os
import re
import warnings
from collections import Counter
from pathlib import Path

from .cgp import LEXICON_NAMES
from .errors import GcgInconsistencyError, GcgWarning, InvalidGcgError, ScrabbleError, short
from ._tables import EMPTY, SIZE
from .position import Position, parse_coord
from .variants import get_variant

_EVENT = re.compile(r">(\S+):(?:\s+(.*))?$")
_PRAGMA = re.compile(r"#([A-Za-z0-9_-]+)(?:\s+(.*))?$")
_INT = re.compile(r"[+-]?[0-9]{1,9}")
_COORD = re.compile(r"[0-9]+[A-Za-z]+|[A-Za-z]+[0-9]+")
_PRAGMAS = ("player1", "player2", "title", "description", "id", "rack1", "rack2", "character-encoding", "note",
            "lexicon", "game-type", "tile-set", "board-layout", "tile-distribution")
# before the first event, at most once (player and description: before the first event, repeatable)
_UNIQUE = ("title", "id", "lexicon", "board-layout", "tile-distribution", "game-type")
_GAME_TYPES = ("classic", "wordsmog", "classic_super", "wordsmog_super")  # the variants MAGPIE knows by name
_ENCODINGS = {"utf-8": "utf-8", "utf8": "utf-8", "iso-8859-1": "latin-1", "iso 8859-1": "latin-1"}
MAX_SCORELESS = 6  # consecutive scoreless turns that end a game


def _decode(data: bytes, where: str) -> str:
    """Text of a GCG file: the encoding its first line names (UTF-8 or ISO-8859-1), else UTF-8 when the bytes
    are UTF-8 and ISO-8859-1 otherwise (MAGPIE's default)."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    first = data.split(b"\n", 1)[0].strip().decode("latin-1")
    m = re.fullmatch(r"#character-encoding\s+(.+)", first)
    enc = _ENCODINGS.get(m.group(1).strip().lower()) if m else None
    if enc is None:
        enc = "utf-8"
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            enc = "latin-1"
    try:
        return data.decode(enc)
    except UnicodeDecodeError as e:
        raise InvalidGcgError(f"{where}: not {enc.upper()} text as its first line says (byte {e.start})") from None


def _text_of(source) -> tuple[str, str]:
    """``(text, name for messages)`` of a ``read_gcg`` source: GCG text, a path, or bytes."""
    if isinstance(source, os.PathLike):
        source = Path(source)
    elif isinstance(source, str) and "\n" not in source and not source.lstrip().startswith(("#", ">")) \
            and len(source) < 4096 and source.strip() and Path(source).is_file():
        source = Path(source)
    if isinstance(source, Path):
        try:
            data = source.read_bytes()
        except OSError as e:
            raise InvalidGcgError(f"cannot read GCG file {short(str(source))}: {e}") from None
        return _decode(data, f"GCG file {source}"), f"GCG file {source}"
    if isinstance(source, (bytes, bytearray)):
        return _decode(bytes(source), "GCG"), "GCG"
    if not isinstance(source, str):
        raise InvalidGcgError(f"GCG must be text, bytes or a path, got {short(source)}")
    return source.removeprefix("\ufeff"), "GCG"


def _event_kind(rest: list) -> str | None:
    """The kind of event the words after ``>NICK:`` spell, or ``None``."""
    n = len(rest)
    if n < 2 or not _INT.fullmatch(rest[-1]):
        return None
    amount = rest[-2]
    if n == 5 and _COORD.fullmatch(rest[1]) and re.fullmatch(r"\+[0-9]{1,9}", amount):
        return "move"
    if n == 4 and rest[1] == "--" and re.fullmatch(r"-[0-9]{1,9}", amount):
        return "phony"
    if n == 4 and rest[1] == "-" and amount == "+0":
        return "pass"
    if n == 4 and rest[1].startswith("-") and len(rest[1]) > 1 and rest[1] != "--" and amount == "+0":
        return "exchange"
    if n in (3, 4) and rest[-3] == "(challenge)" and re.fullmatch(r"\+[0-9]{1,9}", amount):
        return "challenge"
    if n in (3, 4) and rest[-3] == "(time)" and re.fullmatch(r"-[0-9]{1,9}", amount):
        return "time"
    if n == 3 and re.fullmatch(r"\(\S+\)", rest[0]) and re.fullmatch(r"\+[0-9]{1,9}", amount):
        return "points"
    if n == 4 and re.fullmatch(r"\(\S+\)", rest[1]) and re.fullmatch(r"-[0-9]{1,9}", amount):
        return "penalty"
    if n == 3 and re.fullmatch(r"\(\S+\)", rest[0]) and re.fullmatch(r"-[0-9]{1,9}", amount):
        return "own-penalty"  # the form ``write_gcg`` gives a rack's value taken at the end
    return None


class _Reader:
    """One pass over the lines of a GCG file, replaying the game on a :class:`Position`."""

    def __init__(self, text: str, where: str, variant, lexicon, strict: bool):
        self.text, self.where, self.strict = text, where, strict
        self.variant, self.lexicon = variant, lexicon
        self.n = 0  # the line being read (1-based)
        self.warned: list = []  # the inconsistencies a lenient read took the file's word for

    # ---- reporting
    def error(self, what: str) -> InvalidGcgError:
        return InvalidGcgError(f"{self.where} line {self.n}: {what}")

    def inconsistent(self, what: str) -> None:
        """An inconsistency a lenient read takes the file's word for (with a warning) and a strict one refuses."""
        msg = f"{self.where} line {self.n}: {what}" if self.n else f"{self.where}: {what}"
        if self.strict:
            raise GcgInconsistencyError(msg)
        self.warned.append(msg)

    # ---- tiles
    def rack_of(self, s: str, what: str) -> str | None:
        """A rack in the file as sorted tiles (``.`` is a blank, as ``?``), or ``None`` (with a warning) when it
        is not one."""
        s = s.replace(".", "?")
        ok = 0 < len(s) <= self.variant.rack_size and all(
            ch == "?" or (ch.upper() in self.alphabet and ch == ch.upper()) for ch in s)
        if not ok:
            self.inconsistent(f"{what} {short(s)} is not a rack (at most {self.variant.rack_size} tiles, letters of "
                              f"{self.alphabet!r} or '?')")
            return None
        return "".join(sorted(s))

    def value(self, rack: str) -> int:
        return sum(self.variant.values.get(ch, 0) for ch in rack if ch != "?")

    def pool(self) -> Counter:
        """Tiles not on the board (bag and both racks)."""
        on = self.pos._tile_counts(self.pos.board.letters, self.pos.board.blanks)
        total = Counter(self.variant.counts)
        total["?"] = self.variant.blanks
        return total - on

    def check_in_bag(self, rack: str, whose: str) -> None:
        over = Counter(rack) - self.pool()
        if over:
            self.inconsistent(f"{whose} rack {rack} cannot be drawn: {''.join(sorted(over.elements()))} not among "
                              f"the tiles off the board")

    # ---- the read
    def read(self) -> list:
        lines = self.text.splitlines()
        if not any(line.strip() for line in lines):
            self.inconsistent("the file is empty")
            return []
        lexicon = self.lexicon
        if lexicon is None:
            m = re.search(r"^#lexicon[ \t]+(\S+)", self.text, re.M)
            if m:
                name = m.group(1).lower()
                if name not in LEXICON_NAMES:
                    raise InvalidGcgError(f"{self.where} '#lexicon {short(m.group(1))}': unknown lexicon; known: "
                                          f"{', '.join(sorted(LEXICON_NAMES))} (or pass lexicon= yourself)")
                lexicon = LEXICON_NAMES[name]
        try:
            self.pos = Position(self.variant, lexicon)
        except ScrabbleError as e:
            raise InvalidGcgError(f"{self.where}: {e}") from None
        self.alphabet = self.pos.alphabet
        self.no_lexicon = lexicon is None
        self.nicks: list = [None, None]
        self.names: list = [None, None]
        self.seen: Counter = Counter()  # pragmas seen
        self.events: list = []  # (kind, player, rack, score); kind as _event_kind's
        self.out: list = []
        self.last_placement = None  # (player, rack, board before, index in out, score) of the last placement
        self.scores = [0, 0]  # our running totals
        self.file_scores = [0, 0]  # the file's totals
        self.turn = 0
        self.scoreless = 0
        self.over = None  # None, "out" (a player went out) or "scoreless"
        self.end_events: Counter = Counter()
        self.last_racks = False
        self.pending_time: list = []  # lines of time penalties before the end of the game, not yet judged
        self.inferred: set = set()  # players known from their events, not (yet) from a '#player' pragma
        in_note = False
        for self.n, raw in enumerate(lines, 1):
            line = raw.strip()
            if not line:
                continue
            if self.n == 1 and line.startswith("#character-encoding"):
                m = re.fullmatch(r"#character-encoding\s+(.+)", line)
                if not m or m.group(1).strip().lower() not in _ENCODINGS:
                    self.inconsistent(f"unsupported character encoding {short(line)} (UTF-8 or ISO-8859-1)")
                continue
            pm = _PRAGMA.match(line)
            em = _EVENT.match(line)
            kind = _event_kind((em.group(2) or "").split()) if em else None
            known = (pm and pm.group(1).lower() in _PRAGMAS) or kind is not None
            if not known:
                if in_note:
                    continue  # a note goes on over the lines that are not GCG lines
                if pm:
                    self.inconsistent(f"unknown pragma {short(line)}")
                    continue
                if em:
                    words = (em.group(2) or "").split()
                    if words and not _INT.fullmatch(words[-1]):
                        raise self.error(f"total {short(words[-1])} is not a whole number (at most 9 digits)")
                    if len(words) >= 2 and _COORD.fullmatch(words[1]) or len(words) == 4 and _COORD.fullmatch(
                            words[0]):
                        raise self.error(f"a placement is 'RACK COORD WORD +SCORE TOTAL', got {short(line)}")
                    raise self.error(f"{short(line)} is not a GCG event (placement, exchange, pass, '--', "
                                     f"challenge bonus, end-of-game rack or time penalty)")
                raise self.error(f"{short(line)} is not a '#pragma' or '>player: ...' line")
            in_note = False
            if pm:
                in_note = self.pragma(pm.group(1).lower(), (pm.group(2) or "").strip(), line)
            else:
                self.event(em.group(1), kind, em.group(2).split(), line)
        self.n = 0
        if self.events and self.no_lexicon:
            self.inconsistent(f"no '#lexicon' pragma and no lexicon= given: read with {self.pos.lexicon.name}")
        if self.out:
            self.out[-1].scores = tuple(self.file_scores)
        return self.out

    def pragma(self, name: str, value: str, line: str) -> bool:
        """Handle one pragma; returns whether it is a note."""
        if name == "character-encoding":
            self.inconsistent("'#character-encoding' must be the first line")
            return False
        if name == "note":
            if not self.events:
                self.inconsistent("a '#note' before the first event")
            return True
        if name in _UNIQUE or name.startswith("player") or name == "description":
            if self.events:
                self.inconsistent(f"pragma {short(line)} after the first event")
            elif name in _UNIQUE and self.seen[name]:
                self.inconsistent(f"a second '#{name}' pragma")
        if name in ("rack1", "rack2"):
            if self.seen[name]:
                self.inconsistent(f"a second '#{name}' pragma")
        elif self.last_racks:
            self.inconsistent(f"{short(line)} after a '#rack1'/'#rack2' pragma (they end the game record)")
        self.seen[name] += 1
        if name in ("player1", "player2"):
            i = int(name[-1]) - 1
            parts = value.split(None, 1)
            if len(parts) != 2:
                raise self.error(f"'#{name}' needs a nickname and a name, got {short(line)}")
            if self.nicks[i] is not None and not (self.nicks[i] in self.inferred and self.nicks[i] == parts[0]):
                self.inconsistent(f"a second '#{name}' pragma" if self.seen[name] > 1 else
                                  f"'#{name}' names {short(parts[0])}, but {short(self.nicks[i])} moved as player "
                                  f"{i + 1}")
                return False
            if parts[0] == self.nicks[1 - i]:
                raise self.error(f"both players have the nickname {short(parts[0])}")
            if parts[1].strip() == self.names[1 - i]:
                self.inconsistent(f"both players have the name {short(parts[1].strip())}")
            self.nicks[i], self.names[i] = parts[0], parts[1].strip()
        elif name == "game-type":
            if value.lower() not in _GAME_TYPES:
                self.inconsistent(f"unknown game type {short(value)} (known: {', '.join(_GAME_TYPES)})")
        elif name in ("rack1", "rack2"):
            self.last_racks = True
            rack = self.rack_of(value.split()[0] if value else "", f"'#{name}'")
            if rack is not None:
                self.check_in_bag(rack, f"'#{name}'")
                if self.out and int(name[-1]) - 1 == self.turn and not self.out[-1].rack:
                    try:
                        self.out[-1].rack = rack
                    except ScrabbleError:
                        pass
        return False

    def player(self, nick: str) -> int:
        """The index of the player ``nick``; without '#player' pragmas, players are known by their first event."""
        if nick in self.nicks:
            return self.nicks.index(nick)
        if None not in self.nicks:
            raise self.error(f"{short(nick)} is not a player (the players are {self.nicks[0]!r} and "
                             f"{self.nicks[1]!r})")
        i = self.nicks.index(None)
        if self.seen["player1"] or self.seen["player2"]:
            self.inconsistent(f"player {short(nick)} moves before the '#player{i + 1}' pragma")
        self.nicks[i] = nick
        self.inferred.add(nick)
        return i

    def event(self, nick: str, kind: str, rest: list, line: str) -> None:
        idx = self.player(nick)
        if self.last_racks:
            self.inconsistent("an event after a '#rack1'/'#rack2' pragma (they end the game record)")
        if kind != "time":
            for n in self.pending_time:  # time penalties before the end, not at the end of an unfinished game
                self.inconsistent(f"the time penalty on line {n} comes before the end of the game")
            self.pending_time = []
            if self.events and self.events[-1][0] == "time":
                self.inconsistent("a time penalty before the game's other end-of-game events")
        total = int(rest[-1])
        amount = int(rest[-2])
        handler = getattr(self, "on_" + kind.replace("-", "_"))
        score = handler(idx, rest, amount)
        self.scores[idx] += score
        if total != self.scores[idx]:
            self.inconsistent(f"{self.nicks[idx]}'s total {total} is not the last total plus the event's score "
                              f"({self.scores[idx] - score} {score:+d} = {self.scores[idx]})")
            self.scores[idx] = total  # take the file's word from here on: one warning per mistake
        self.file_scores[idx] = total
        self.pos.scores = tuple(self.file_scores)
        if kind == "move":
            self.out[-1].scores = tuple(self.file_scores)
        self.events.append((kind, idx, rest[0] if kind not in ("points", "own-penalty") else "", score))

    # ---- turns
    def turn_event(self, idx: int, rack_text: str) -> str | None:
        """Checks shared by placements, exchanges and passes; returns the rack."""
        if self.over:
            self.inconsistent("a move after the end of the game")
        elif idx != self.turn:
            self.inconsistent(f"{self.nicks[idx]} moves out of turn ({self.nicks[self.turn]} is to move)")
        rack = self.rack_of(rack_text, f"{self.nicks[idx]}'s rack")
        if rack is not None:
            self.check_in_bag(rack, f"{self.nicks[idx]}'s")
            if self.out and not self.out[-1].rack:
                try:  # the rack of the player to move in the position the last placement left
                    self.out[-1].rack = rack
                except ScrabbleError:
                    pass
        self.turn = 1 - idx
        return rack

    def on_move(self, idx: int, rest: list, score: int) -> int:
        rack = self.turn_event(idx, rest[0])
        pos = self.pos
        try:
            placed = pos._placement(f"{rest[1]} {rest[2]}")
            letters, blanks = pos.board.letters.copy(), pos.board.blanks.copy()
            for r, c, ch, bl in placed:
                letters[r, c], blanks[r, c] = pos.alphabet.index(ch), bl
            pos._check_bag(letters, blanks, "", "", "the placement", InvalidGcgError)
        except ScrabbleError as e:
            raise self.error(str(e)) from None
        used = "".join("?" if bl else ch for _, _, ch, bl in placed)
        if rack is not None:
            missing = Counter(used) - Counter(rack)
            if missing:
                self.inconsistent(f"tiles {''.join(sorted(missing.elements()))} played but not on the rack {rack}")
        self.check_placement(rest[1], placed, score)
        self.last_placement = (idx, rest[0], pos.board.copy(), len(self.out), score)
        pos.board.place([q[0] for q in placed], [q[1] for q in placed], [pos.alphabet.index(q[2]) for q in placed],
                        [q[3] for q in placed])
        self.scoreless = 0 if score else self.scoreless + 1
        if rack is not None and len(used) == len(rack) and sum(self.pool().values()) <= self.variant.rack_size:
            self.over = "out"  # the player went out: the bag was empty
        elif self.scoreless >= MAX_SCORELESS:
            self.over = "scoreless"
        self.out.append(pos.copy())
        return score

    def check_placement(self, coord: str, placed: list, score: int) -> None:
        """The placement touches the tiles on the board (or covers the centre on the empty board), and scores
        what the file says: every word of two or more tiles it forms, premium squares under its new tiles, the
        bingo bonus for a full rack."""
        letters = self.pos.board.letters
        blanks = self.pos.board.blanks
        new = {(r, c): (ch, bl) for r, c, ch, bl in placed}
        mid = SIZE // 2
        if self.pos.board.empty:
            if (mid, mid) not in new:
                self.inconsistent(f"the first placement {coord} does not cover the centre square")
        elif not any(0 <= r + a < SIZE and 0 <= c + b < SIZE and letters[r + a, c + b] != EMPTY
                     for r, c in new for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            self.inconsistent(f"the placement at {coord} does not touch the tiles on the board")
        lm, wm = self.variant.letter_mult(), self.variant.word_mult()
        values = self.variant.values

        def word(r: int, c: int, dr: int, dc: int) -> int:
            """Score of the run of tiles through (r, c) along (dr, dc), 0 if it is one tile long."""
            def taken(rr, cc):
                return 0 <= rr < SIZE and 0 <= cc < SIZE and ((rr, cc) in new or letters[rr, cc] != EMPTY)

            while taken(r - dr, c - dc):
                r, c = r - dr, c - dc
            total, mult, n = 0, 1, 0
            while taken(r, c):
                if (r, c) in new:
                    ch, bl = new[(r, c)]
                    total += 0 if bl else values.get(ch, 0) * int(lm[r, c])
                    mult *= int(wm[r, c])
                elif not blanks[r, c]:
                    total += values.get(self.alphabet[letters[r, c]], 0)
                r, c, n = r + dr, c + dc, n + 1
            return total * mult if n > 1 else 0

        down = parse_coord(coord)[2]
        dr, dc = (1, 0) if down else (0, 1)
        r0, c0 = placed[0][0], placed[0][1]
        want = word(r0, c0, dr, dc) + sum(word(r, c, dc, dr) for r, c in new)
        if len(placed) == self.variant.rack_size:
            want += self.variant.bingo
        if want != score:
            self.inconsistent(f"the placement {coord} scores {want}, not {score}")

    def on_exchange(self, idx: int, rest: list, score: int) -> int:
        rack = self.turn_event(idx, rest[0])
        tiles = self.rack_of(rest[1][1:], "exchanged tiles") if not rest[1][1:].isdigit() else None
        if rack is not None and tiles is not None:
            missing = Counter(tiles) - Counter(rack)
            if missing:
                self.inconsistent(f"tiles {''.join(sorted(missing.elements()))} exchanged but not on the rack {rack}")
        bag = sum(self.pool().values()) - 2 * self.variant.rack_size  # (both racks are full while it has tiles)
        if bag < self.variant.rack_size:
            self.inconsistent(f"an exchange with {max(bag, 0)} tiles in the bag (it needs "
                              f"{self.variant.rack_size})")
        self.scoreless += 1
        if self.scoreless >= MAX_SCORELESS:
            self.over = "scoreless"
        return 0

    def on_pass(self, idx: int, rest: list, score: int) -> int:
        self.turn_event(idx, rest[0])
        self.scoreless += 1
        if self.scoreless >= MAX_SCORELESS:
            self.over = "scoreless"
        return 0

    # ---- events that follow a placement
    def after_placement(self, idx: int, what: str) -> bool:
        prev = self.events[-1] if self.events else None
        if prev is None or prev[0] != "move":
            self.inconsistent(f"{what} without a placement just before it")
            return False
        if prev[1] != idx:
            self.inconsistent(f"{what} for {self.nicks[idx]}, but the placement before it was "
                              f"{self.nicks[prev[1]]}'s")
            return False
        return True

    def on_phony(self, idx: int, rest: list, amount: int) -> int:
        if not self.after_placement(idx, "a withdrawn phony ('--')"):
            return amount
        pidx, prack, board, k, pscore = self.last_placement
        if "".join(sorted(rest[0].replace(".", "?"))) != "".join(sorted(prack.replace(".", "?"))):
            self.inconsistent(f"the rack {rest[0]} of the withdrawn phony is not the placement's rack {prack}")
        if -amount != pscore:
            self.inconsistent(f"the withdrawn phony takes {-amount}, the placement scored {pscore}")
        self.pos.board = board  # its tiles go back
        del self.out[k:]
        self.recount_scoreless()
        self.over = "scoreless" if self.scoreless >= MAX_SCORELESS else None
        return amount

    def recount_scoreless(self) -> None:
        """Consecutive scoreless turns, counted back over the events (a withdrawn phony's turn scored 0)."""
        n = 1
        evs = self.events[:-1]  # the placement now withdrawn is events[-1]
        i = len(evs) - 1
        while i >= 0:
            kind = evs[i][0]
            if kind in ("pass", "exchange"):
                n += 1
            elif kind == "phony":  # with its placement
                n += 1
                i -= 1
            elif kind == "move":
                if evs[i][3]:
                    break
                n += 1
            elif kind != "challenge":
                break
            i -= 1
        self.scoreless = n

    def on_challenge(self, idx: int, rest: list, amount: int) -> int:
        self.after_placement(idx, "a challenge bonus")
        if len(rest) == 4:
            rack = self.rack_of(rest[0], "the challenge bonus's rack")
            if rack is not None:
                self.check_in_bag(rack, f"{self.nicks[idx]}'s")
        return amount

    # ---- the end of the game
    def end_event(self, idx: int, kind: str, what: str) -> None:
        if not self.over:
            self.inconsistent(f"{what} before the end of the game")
        if self.end_events[(kind, idx)]:
            self.inconsistent(f"a second {what} for {self.nicks[idx]}")
        self.end_events[(kind, idx)] += 1

    def on_points(self, idx: int, rest: list, amount: int) -> int:
        self.end_event(idx, "points", "end-of-game rack points")
        rack = self.rack_of(rest[0][1:-1], "the opponent's rack")
        if rack is None:
            return amount
        self.check_in_bag(rack, "the opponent's")
        v = self.value(rack)
        if amount != 2 * v and not (not self.strict and amount == v):  # +v: write_gcg's rule (each side v)
            self.inconsistent(f"end-of-game rack points {amount} for {rack}: twice its value is {2 * v}")
        return amount

    def on_penalty(self, idx: int, rest: list, amount: int) -> int:
        self.end_event(idx, "penalty", "end-of-game rack penalty")
        rack = self.rack_of(rest[0], f"{self.nicks[idx]}'s rack")
        shown = self.rack_of(rest[1][1:-1], "the penalty's tiles")
        if rack is None or shown is None:
            return amount
        if rack != shown:
            self.inconsistent(f"the penalty's tiles {shown} are not the rack {rack}")
        self.check_in_bag(rack, f"{self.nicks[idx]}'s")
        if -amount != self.value(shown):
            self.inconsistent(f"end-of-game rack penalty {amount} for {shown}: its value is {self.value(shown)}")
        return amount

    def on_own_penalty(self, idx: int, rest: list, amount: int) -> int:
        if self.strict:
            self.inconsistent(f"'(RACK) -N' is not a GCG event (a rack penalty is 'RACK (RACK) -N')")
        self.end_event(idx, "penalty", "end-of-game rack penalty")
        rack = self.rack_of(rest[0][1:-1], "the penalty's tiles")
        if rack is not None and -amount != self.value(rack):
            self.inconsistent(f"end-of-game rack penalty {amount} for {rack}: its value is {self.value(rack)}")
        return amount

    def on_time(self, idx: int, rest: list, amount: int) -> int:
        if not self.over:
            # an unfinished game may end in time penalties (MAGPIE drops them); anywhere else they are wrong
            self.pending_time.append(self.n)
        elif not self.events or self.events[-1][0] not in ("points", "penalty", "own-penalty", "time"):
            self.inconsistent("a time penalty before the game's end-of-game rack events")
        if self.end_events[("time", idx)]:
            self.inconsistent(f"a second time penalty for {self.nicks[idx]}")
        self.end_events[("time", idx)] += 1
        return amount


def read_gcg(source, variant="scrabble", lexicon=None, *, strict: bool = False) -> list:
    """Read a GCG game (its text, bytes, or a path to a file): the list of :class:`Position` after each tile
    placement, the last one final.

    Tile placements are put on the board as written (phonies too, but never more of a tile than the bag
    holds); a withdrawn phony (``--``) takes its tiles back; exchanges, passes, challenges and end adjustments
    only move the scores. Each position holds the rack of the player to move next (from the next line, when
    it fits the bag) and the scores as ``(first player, second player)`` totals from the file. A ``#lexicon``
    pragma picks the lexicon unless ``lexicon`` is given.

    The game is replayed and checked as MAGPIE checks it (see :mod:`numba_words.scrabble.gcg`): with
    ``strict=False`` each inconsistency (a total that does not add up, a wrong end-of-game rack value, a rack
    the bag cannot hold, tiles played or exchanged that are not on the rack, an event out of turn or order, an
    empty file, ...) gives a :class:`GcgWarning` naming the line, and the file's numbers are kept;
    ``strict=True`` raises :class:`GcgInconsistencyError` instead. Lines that cannot be read raise
    :class:`InvalidGcgError` (its base class; :class:`GcgError` is the base of both).
    """
    if not isinstance(strict, bool):
        raise InvalidGcgError(f"read_gcg: strict must be True or False, got {short(strict)}")
    text, where = _text_of(source)
    reader = _Reader(text, where, get_variant(variant), lexicon, strict)
    try:
        return reader.read()
    finally:  # (also those before a line that cannot be read)
        for msg in reader.warned:
            warnings.warn(GcgWarning(msg), stacklevel=2)


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
