"""Fuzzing with hypothesis: any CGP, GCG, play notation, rack, board text or array given to the exported
functions yields a result or a NumbaWordsError (short message), never another exception or a crash; results
that come back are consistent (round trips, best() against the full list)."""
from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numba_words.errors import NumbaWordsError
from numba_words.lexicon import Lexicon
from numba_words.scrabble import (SCRABBLE, BoardArrays, Game, Position, generate, generate_batch, get_variant,
                                  read_gcg)
from numba_words.scrabble import GcgWarning

FUZZ = settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
P12 = ("15/15/15/15/14G/9D4O/6QUAI4A/FEN4NeRVY2L/1HUMATES1E1A2I/9R1W1OE/10EPICS/10DEFT1/11d1A1/13L1/15 "
       "ADLNNSY/ 174/139 0")
ROOMY = dataclasses.replace(SCRABBLE, name="scrabble-roomy", counts={ch: 40 for ch in SCRABBLE.alphabet}, blanks=40,
                            _arrays={})
ODD = "0123456789²٣ABCEQSXZaeqz?#/Øß ()._-+\n\t"

_LEX = {}


def lex():
    if "twl" not in _LEX:
        _LEX["twl"] = Lexicon.load("twl06")
    return _LEX["twl"]


def p12():
    if "p12" not in _LEX:
        _LEX["p12"] = Position.from_cgp(P12, lexicon=lex())
    return _LEX["p12"]


def outcome(fn, *args, **kw):
    """``fn(...)``, or ``None`` when it raised a NumbaWordsError with a readable message."""
    try:
        out = fn(*args, **kw)
    except NumbaWordsError as e:
        assert 0 < len(str(e)) < 400, str(e)[:500]
        event(f"refused: {type(e).__name__}")
        return None
    event("accepted")
    return out


def check_plays(pos):
    """The generator on a position that parsed: best() agrees with the sorted list, records decode."""
    plays = pos.legal_plays()
    best = pos.best()
    if len(plays):
        assert best is not None and best.score == plays.best().score
        rec = plays.to_records(3)
        assert rec[0]["score"] == best.score and rec[0]["notation"] == plays.best().notation
    else:
        assert best is None


# ---------------------------------------------------------------------- CGP
row = st.text(alphabet="0123456789ABCQZaz?#²", max_size=18)
cgp_parts = st.tuples(
    st.lists(row, min_size=13, max_size=16).map("/".join),
    st.text(alphabet="ABCEIQSXZ?az1²/", max_size=10),
    st.text(alphabet="0123456789-/²٣x", max_size=12),
    st.text(alphabet="0123456789-²", max_size=6),
    st.text(alphabet="lexTWL06CSW21nbsmal-;# ", max_size=30),
)


@FUZZ
@given(st.text(alphabet=ODD, max_size=200))
def test_cgp_any_text(text):
    pos = outcome(Position.from_cgp, text, lexicon=lex())
    if pos is not None:
        assert Position.from_cgp(pos.cgp(), lexicon=lex()).cgp() == pos.cgp()


def encode_row(cells):
    out, run = [], 0
    for ch in cells:
        if ch == ".":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(ch)
    if run:
        out.append(str(run))
    return "".join(out)


cells = st.lists(st.sampled_from(list("." * 16 + "ABEQSZaz")), min_size=15, max_size=15).map("".join)
cell_rows = st.lists(cells.map(encode_row), min_size=15, max_size=15).map("/".join)
corrupt = st.tuples(st.integers(0, 300), st.sampled_from(["", "1", "A", "²", "/", " ", "#", "16", "a"]))


@FUZZ
@given(st.one_of(cgp_parts, st.tuples(cell_rows, st.sampled_from(["AEINST?/", "QZ/AB", "/", "??/"]),
                                      st.sampled_from(["0/0", "12/-3"]), st.just("0"),
                                      st.sampled_from(["", "lex TWL06;", "lex CSW21;"]))), corrupt)
def test_cgp_near_misses(parts, bad):
    text = " ".join(parts)
    at, extra = bad
    if at < len(text):  # one corruption somewhere (or none when past the end)
        text = text[:at] + extra + text[at + 1:]
    pos = outcome(Position.from_cgp, text, variant=ROOMY, lexicon=lex())
    if pos is not None:
        again = Position.from_cgp(pos.cgp(), variant=ROOMY, lexicon=lex())
        assert again.cgp() == pos.cgp() and again.rows() == pos.rows()
        check_plays(pos)


@FUZZ
@given(st.lists(st.sampled_from(["15", "7A7", "14A", "A14", "1A1B11", "15A", "8", "a13b", "ZZZZZZZZZZZZZZZ", "Q"]),
                min_size=15, max_size=15), st.sampled_from(["", "A", "??", "QQ", "AEINST?", "ZZ"]))
def test_cgp_boards_against_the_bag(rows, rack):
    pos = outcome(Position.from_cgp, "/".join(rows) + f" {rack}/ 0/0 0", lexicon=lex())
    if pos is not None:
        counts = pos.unseen()
        assert all(n >= 0 for n in counts.values())
        assert sum(counts.values()) == 100 - pos.board.n_tiles() - len(pos.rack)
        check_plays(pos)


# ---------------------------------------------------------------------- GCG
name = st.sampled_from(["a", "b", "Bob", "c"])
coord = st.sampled_from(["8H", "H8", "8D", "D8", "15O", "O15", "8P", "16A", "A16", "0A", "8h", "8²", "8HH", "1A"])
word = st.text(alphabet="ABCQZ.()ab", min_size=0, max_size=9)
number = st.sampled_from(["+0", "+12", "-5", "0", "12", "99999999999", "²", "x", "+"])
move = st.one_of(st.tuples(coord, word, number).map(" ".join), st.sampled_from(["-", "--", "-ABC", "(challenge)",
                                                                                  "(AB)", "(time)"]))
gcg_line = st.one_of(
    st.tuples(name, st.text(alphabet="ABC?()", min_size=1, max_size=8), move, number).map(
        lambda t: f">{t[0]}: {t[1]} {t[2]} {t[3]}"),
    st.sampled_from(["#player1 a A", "#lexicon TWL06", "#lexicon NWL20", "#note hi", "", "garbage"]),
    # the events and pragmas of files from elsewhere: a note's continuation, last racks, end-of-game lines
    st.sampled_from(["#player2 b B", "#character-encoding ISO-8859-1", "#rack1 ABC", "#rack2 ZZ", "#title t",
                     "#game-type classic", ">a: ABC -- -5 0", ">b: (ABC) +14 14", ">a: ABC (ABC) -7 -7",
                     ">b: (time) -10 0", ">a: ABC (challenge) +5 5", ">b: ABCDEFG -ABC +0 0", "a note goes on"]),
    st.text(alphabet=ODD, max_size=30),
)


@FUZZ
@given(st.lists(gcg_line, max_size=8))
def test_gcg_any_lines(lines):
    with warnings.catch_warnings(record=True) as caught:  # inconsistencies a lenient read takes the file's word for
        warnings.simplefilter("always")
        positions = outcome(read_gcg, "\n".join(lines), lexicon=lex())
    assert all(issubclass(w.category, GcgWarning) and 0 < len(str(w.message)) < 400 for w in caught), caught
    strict = outcome(read_gcg, "\n".join(lines), lexicon=lex(), strict=True)
    assert strict is None or not caught and len(strict) == len(positions)  # strict: the same, or refused
    if positions:
        for p in positions:
            assert Position.from_cgp(p.cgp(), lexicon=lex()).rows() == p.rows()


MAGPIE_GCG = sorted((Path(__file__).parent / "data" / "gcg" / "magpie").glob("*.gcg"))
SUITE_LINES = sorted({line for p in MAGPIE_GCG for line in p.read_bytes().decode("latin-1").splitlines()})


@FUZZ
@given(st.sampled_from(MAGPIE_GCG),
       st.lists(st.tuples(st.sampled_from(["drop", "insert", "word"]), st.integers(0, 10**6),
                          st.sampled_from(SUITE_LINES + ["", "-", "--", "+0", "(ABC)", "(time)", "8H", "?", "."])),
                max_size=4))
def test_gcg_suite_files_changed(path, edits):
    """MAGPIE's GCG files with lines dropped, lines of other files put in, or one word changed: a GcgError with a
    short message, warnings that are GcgWarnings, and strict=True accepting only what a lenient read took
    without a warning."""
    lines = path.read_bytes().decode("latin-1").splitlines()
    for op, k, other in edits:
        if op == "drop" and lines:
            del lines[k % len(lines)]
        elif op == "insert":
            lines.insert(k % (len(lines) + 1), other)
        elif lines:
            words = lines[k % len(lines)].split(" ")
            words[k % len(words)] = other.split(" ")[0]
            lines[k % len(lines)] = " ".join(words)
    text = "\n".join(lines)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        positions = outcome(read_gcg, text, lexicon=lex())
    assert all(issubclass(w.category, GcgWarning) and 0 < len(str(w.message)) < 400 for w in caught), caught
    strict = outcome(read_gcg, text, lexicon=lex(), strict=True)
    assert strict is None or not caught and [p.cgp() for p in strict] == [p.cgp() for p in positions]


# ---------------------------------------------------------------------- notation, racks, moves
P12_PLAYS = ["N3 SLAY", "N4 DAY", "N4 LADY", "N6 YA", "N3 sLAY", "O1 LADY", "1A A"]


@FUZZ
@given(st.one_of(st.text(alphabet=ODD, max_size=40), st.tuples(coord, word).map(" ".join),
                 st.tuples(st.sampled_from(P12_PLAYS), corrupt).map(
                     lambda t: t[0] if t[1][0] >= len(t[0]) else t[0][:t[1][0]] + t[1][1] + t[0][t[1][0] + 1:])))
def test_play_notation(text):
    pos = p12()
    play = outcome(pos.parse_play, text)
    if play is not None:
        assert play in pos.legal_plays() and pos.parse_play(play.notation) == play


@FUZZ
@given(st.text(alphabet="ABCDEQZaez?Ø1 #²", max_size=10))
def test_racks(rack):
    pos = p12().copy()
    pos.opp_rack = ""
    before = pos.rack
    try:
        pos.rack = rack
    except NumbaWordsError as e:
        assert len(str(e)) < 400 and pos.rack == before  # a refused rack changes nothing
        return
    assert sorted(pos.rack) == sorted(rack.strip().upper())
    check_plays(pos)


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.text(alphabet=ODD, max_size=12), st.sampled_from(["pass", "-", "exchange", "-A"]),
                          st.tuples(coord, word).map(" ".join)), max_size=6))
def test_game_moves(moves):
    g = Game("scrabble", lex(), seed=3)
    for m in moves:
        before = len(g.moves)
        if outcome(g.play, m) is None:
            assert len(g.moves) == before  # a refused move changes nothing
    assert sum(s for _, _, s in g.moves) + sum(g.end_adjustments) == sum(g.scores)


# ---------------------------------------------------------------------- board text
board_row = st.text(alphabet=".ABEQSZaqz -*Ø#", min_size=14, max_size=16)


@FUZZ
@given(st.one_of(st.lists(board_row, min_size=14, max_size=16), st.text(alphabet=ODD, max_size=300),
                 st.lists(cells, min_size=15, max_size=15)),
       st.sampled_from(["", "AEINST?", "Q", "ZZZ?"]))
def test_board_text(rows, rack):
    pos = outcome(Position.from_rows, rows, ROOMY, lex(), rack=rack)
    if pos is not None:
        assert Position.from_rows(pos.rows(), ROOMY, lex()).rows() == pos.rows()
        assert str(pos).count("\n") == 16
        check_plays(pos)


# ---------------------------------------------------------------------- array functions
dtypes = st.sampled_from([np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float64, np.bool_])
def small_ints(dtype, shape):
    return hnp.arrays(dtype, shape, elements=st.integers(-2, 9) if np.dtype(dtype).kind == "i" else
                      st.integers(0, 9) if np.dtype(dtype).kind == "u" else st.booleans() if dtype == np.bool_ else
                      st.floats(0, 9))


counts_arrays = st.one_of(
    dtypes.flatmap(lambda dt: small_ints(dt, st.sampled_from([(32,), (26,), (5,), (2, 32), (), (33,)]))),
    st.builds(lambda k: np.bincount(np.asarray(k, np.int64), minlength=32).astype(np.int64),
              st.lists(st.integers(0, 25), max_size=8)),
)
n_blanks = st.one_of(st.integers(-2, 9), st.sampled_from([np.int64(1), 1.0, True, None, "1"]))


@FUZZ
@given(counts_arrays, n_blanks, st.booleans())
def test_generate_arrays(counts, nb, best_only):
    pos = p12()
    out = outcome(generate, pos.board, counts, nb, best_only=best_only)
    if out is not None:
        assert out.dtype.names[0] == "row" and (len(out) <= 1 or not best_only)


@FUZZ
@given(st.lists(st.tuples(counts_arrays, n_blanks), max_size=4), st.integers(-1, 4), st.integers(-1, 20))
def test_generate_batch_arrays(racks, n_boards, cap):
    pos = p12()
    n_boards = len(racks) if n_boards < 0 else n_boards
    out = outcome(generate_batch, [pos.board] * n_boards, racks, cap=cap)
    if out is not None:
        assert len(out) == n_boards == len(racks)


letters_arrays = dtypes.flatmap(lambda dt: hnp.arrays(
    dt, st.sampled_from([(15, 15), (15, 14), (2, 15, 15), (225,)]),
    elements=st.integers(0, 255) if np.dtype(dt).kind == "u" and np.dtype(dt).itemsize == 1 else
    st.integers(0, 300) if np.dtype(dt).kind == "u" else
    st.integers(-1, 300) if np.dtype(dt).kind == "i" and np.dtype(dt).itemsize > 1 else
    st.integers(-1, 127) if np.dtype(dt).kind == "i" else st.booleans() if dt == np.bool_ else st.floats(0, 300)))


@FUZZ
@given(st.one_of(letters_arrays, st.builds(lambda cells: _board(cells),
                                           st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14),
                                                              st.integers(0, 25)), max_size=60))),
       st.one_of(st.none(), hnp.arrays(np.bool_, st.sampled_from([(15, 15), (14, 15)]))))
def test_board_arrays(letters, blanks):
    b = outcome(BoardArrays, SCRABBLE, lex(), letters, blanks)
    if b is not None:
        counts = np.zeros(32, np.int64)
        counts[[0, 4, 18]] = 2
        arr = generate(b, counts, 1)
        best = generate(b, counts, 1, best_only=True)
        assert (len(arr) == 0) == (len(best) == 0)
        if len(arr):
            assert best[0]["score"] == arr["score"].max()


def _board(cells):
    a = np.full((15, 15), 255, np.uint8)
    for r, c, x in cells:
        a[r, c] = x
    return a


@FUZZ
@given(st.lists(st.tuples(st.integers(-2, 16), st.integers(-2, 16), st.integers(-1, 30), st.booleans()),
                max_size=5),
       st.sampled_from(["int", "float", "short"]))
def test_board_place(tiles, kind):
    b = p12().board.copy()
    before = b.letters.copy()
    rows = [t[0] for t in tiles]
    if kind == "float":
        rows = [float(r) for r in rows]
    cols = [t[1] for t in tiles][: -1 if kind == "short" and tiles else None]
    try:
        b.place(rows, cols, [t[2] for t in tiles], [t[3] for t in tiles])
    except NumbaWordsError as e:
        assert len(str(e)) < 400
        np.testing.assert_array_equal(b.letters, before)  # nothing half-placed
    else:
        fresh = BoardArrays(b.variant, b.lexicon, b.letters, b.blanks)
        np.testing.assert_array_equal(fresh.cc, b.cc)


@FUZZ
@given(st.one_of(st.integers(-3, 20), st.none(), st.sampled_from([1.5, "3", True])))
def test_plays_top(n):
    plays = p12().legal_plays()
    out = outcome(plays.top, n)
    if out is not None:
        assert [p.score for p in out] == sorted((p.score for p in out), reverse=True)


@FUZZ
@given(st.one_of(st.text(max_size=20), st.integers(), st.none(),
                 st.sampled_from(["scrabble", "WWF", "Wordfeud", "nb", "wordfeud-nb", "twl06"])))
def test_variant_names(name):
    v = outcome(get_variant, name)
    assert v is None or v.name in ("scrabble", "wwf", "wordfeud", "wordfeud-nb")


@pytest.mark.parametrize("bad", [object(), 3, b"AB", ["AB"]])
def test_lexicon_argument(bad):
    with pytest.raises(NumbaWordsError, match="lexicon"):
        Position("scrabble", bad)


@settings(max_examples=200)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10 ** 12, 10 ** 12), st.text(max_size=3),
                 st.none(), st.booleans(), st.just(np.float32(2.5)), st.just(np.int64(-3))))
def test_any_leave_value_assignment(value):
    """``Leaves[key] = value`` stores a finite number of at most 10^6 points (in milli-points) or raises
    InvalidLeavesError, never a raw ValueError/OverflowError; the table is unchanged then."""
    from numba_words.scrabble import InvalidLeavesError, Leaves

    t = Leaves("scrabble", max_size=1)
    ok = not isinstance(value, (bool, str, type(None))) and np.isfinite(float(value)) and abs(float(value)) <= 1e6
    if ok:
        t["Z"] = value
        assert t["Z"] == round(float(value) * 1000) / 1000
    else:
        with pytest.raises(InvalidLeavesError):
            t["Z"] = value
        assert t["Z"] == 0.0


# ---------------------------------------------------------------------- leave values set one at a time
_TABLE = {}


@FUZZ
@given(st.one_of(st.text(alphabet="ABQZaq?é1 ", max_size=4), st.integers(), st.none()),
       st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2 * 10 ** 6, 2 * 10 ** 6),
                 st.integers(), st.booleans(), st.none(), st.text(max_size=3), st.just(np.float32(1.5)),
                 st.just(np.int64(-3)), st.just(10 ** 400)))
def test_leave_assignment(leave, points):
    """``Leaves[leave] = points``: a finite number of at most 10^6 points for a leave of the table is kept to the
    millipoint (and read back so), anything else a NumbaWordsError that leaves the table as it was."""
    import math

    from numba_words.scrabble import Leaves

    t = _TABLE.get("t") or _TABLE.setdefault("t", Leaves("scrabble", max_size=2))
    before = t.milli.copy()
    number = isinstance(points, (int, float, np.integer, np.floating)) and not isinstance(points, (bool, np.bool_))
    good = number and abs(points) <= 1e6 and math.isfinite(points) and _rank(t, leave) >= 0
    if outcome(lambda: t.__setitem__(leave, points) or True) is None:
        assert not good and np.array_equal(t.milli, before)
        return
    assert good and t[leave] == int(round(float(points) * 1000)) / 1000 and not t.milli.flags.writeable
    assert (t.milli != before).sum() <= 1


def _rank(t, leave) -> int:
    """The leave's rank in ``t``, or -3 for what is not a leave."""
    try:
        return t.rank(leave)
    except NumbaWordsError:
        return -3
