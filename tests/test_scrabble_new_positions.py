"""A CGP string to the answer on new positions: the board read by one kernel equals the Python decoder's, the
first ``best()`` of a new position types nothing and makes few Python calls, and ``best_many`` gives each
position's ``best()``."""
import gc
import sys
from pathlib import Path

import numpy as np
import pytest

from numba_words.scrabble import InvalidCgpError, Play, Position, ScrabbleError, best_many
from numba_words.scrabble import cgp as C
from numba_words.scrabble._board import BoardArrays
from numba_words.scrabble.variants import SCRABBLE

BENCH = Path(__file__).resolve().parent.parent / "data" / "scrabble" / "twl06_bench.cgp"
CGPS = [line.strip() for line in BENCH.read_text().splitlines() if line.strip()]
ARRAYS = ("letters", "blanks", "lines", "fv", "occ", "cc", "xs")


def _random_cgps(twl, n, seed):
    """Boards of random tiles (not words: the cross-checks then hold many empty masks), as CGP lines."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        letters = np.full((15, 15), 255, np.uint8)
        on = rng.random((15, 15)) < rng.uniform(0.05, 0.5)
        letters[on] = rng.integers(0, 26, on.sum())
        blanks = on & (rng.random((15, 15)) < 0.05)
        out.append(C.format_cgp(letters, blanks, twl.alphabet.letters, "", "", (0, 0), 0))
    return out


def test_kernel_read_board_equals_the_python_decoders(twl):
    for cgp in CGPS + _random_cgps(twl, 24, 5):
        rec = C.parse_cgp(cgp)
        fast, use, _ = BoardArrays.from_cgp_board(SCRABBLE, twl, "/".join(rec.rows))
        slow = BoardArrays(SCRABBLE, twl, *C.decode_board(rec.rows, twl.alphabet.letters))
        for k in ARRAYS:
            a, b = getattr(fast, k), getattr(slow, k)
            assert a.dtype == b.dtype and a.flags.c_contiguous and np.array_equal(a, b), (cgp, k)
        assert np.array_equal(use, slow.tile_use()) and fast.empty == slow.empty


def test_all_checks_equal_each_squares_check(twl):
    """The cross-checks of a whole board (looked up where the runs beside a square are short, walked where not)
    equal :func:`square_check` square by square, on the bench boards and boards of random tiles (runs of every
    length, squares between runs)."""
    from numba_words.scrabble import _cross

    for cgp in CGPS[::3] + _random_cgps(twl, 12, 9):
        b = BoardArrays.from_cgp_board(SCRABBLE, twl, cgp.split()[0])[0]  # (random tiles: more than a bag)
        for d in range(2):
            for i in range(15):
                for j in range(15):
                    want = (0, -1) if b.lines[d, i, j] != 255 else \
                        _cross.square_check(b.lines, b.fv, b.dawg, b.checks, d, i, j)
                    assert (b.cc[d, i, j], b.xs[d, i, j]) == want, (cgp, d, i, j)


@pytest.mark.parametrize("row, what", [("16", "run"), ("14", "covers"), ("A1B12X", "covers"), ("7!7", "not a letter"),
                                       ("015", "run"), ("0", "run"), ("ÄB13", "not a letter")])
def test_bad_boards_still_name_what_is_wrong(twl, row, what):
    cgp = "/".join(["15"] * 7 + [row] + ["15"] * 7) + " AB/ 0/0 0"
    with pytest.raises(InvalidCgpError, match=what):
        Position.from_cgp(cgp, lexicon=twl)


def test_too_many_tiles_for_the_bag(twl):
    board = "/".join(["ZZ13"] + ["15"] * 14)
    with pytest.raises(InvalidCgpError, match="'Z' tiles"):
        Position.from_cgp(board + " Z/ 0/0 0", lexicon=twl)
    with pytest.raises(InvalidCgpError, match="blanks"):
        Position.from_cgp("/".join(["zq13"] + ["15"] * 14) + " ?/ 0/0 0", lexicon=twl)
    with pytest.raises(InvalidCgpError, match="'Z' tiles"):  # (two Zs on the board alone: the bag has one)
        Position.from_cgp(board + " A/ 0/0 0", lexicon=twl)
    Position.from_cgp("/".join(["Z14"] + ["15"] * 14) + " A/Q 0/0 0", lexicon=twl)


def _cgps_with_racks(twl, n, seed):
    """Boards holding a random part of the bag (random squares; blanks as random letters), racks drawn from the
    rest: the bag full to empty, the opponent's rack known or not."""
    rng = np.random.default_rng(seed)
    bag = [ch for ch, k in SCRABBLE.counts.items() for _ in range(k)] + ["?"] * SCRABBLE.blanks
    out = []
    for _ in range(n):
        tiles = list(rng.permutation(bag))
        left = int(rng.choice([0, 1, 5, 7, 8, 13, 14, 20, 60, len(bag)]))
        on, rest = tiles[left:], tiles[:left]
        letters = np.full((15, 15), 255, np.uint8)
        blanks = np.zeros((15, 15), bool)
        sq = rng.permutation(225)[:len(on)]
        for k, ch in zip(sq, on):
            r, c = divmod(int(k), 15)
            if ch == "?":
                letters[r, c], blanks[r, c] = rng.integers(0, 26), True
            else:
                letters[r, c] = twl.alphabet.letters.index(ch)
        own = int(rng.integers(0, min(7, len(rest)) + 1))
        opp = int(rng.integers(0, min(7, len(rest) - own) + 1)) if rng.random() < 0.5 else 0
        out.append(C.format_cgp(letters, blanks, twl.alphabet.letters, "".join(rest[:own]),
                                "".join(rest[own:own + opp]), (0, 0), 0))
    return out


def test_equity_inputs_counted_by_the_board_kernel_equal_pythons(twl):
    """The rack counts, unseen tiles, bag size and opponent points that ``from_cgp`` keeps from its kernel equal
    those Python computes for the same position."""
    from numba_words.scrabble.leaves import _equity_inputs, equity_args, rack_kinds

    for cgp in _cgps_with_racks(twl, 80, 3):
        fast = Position.from_cgp(cgp, lexicon=twl)
        slow = Position.from_rows(fast.rows(), lexicon=twl, rack=fast.rack, opp_rack=fast.opp_rack)
        assert "_equity_in" in fast.__dict__ and "_equity_in" not in slow.__dict__
        c1, n1 = fast._rack_arrays()
        c2, n2 = slow._rack_arrays()
        assert np.array_equal(c1, c2) and n1 == n2, cgp
        assert np.array_equal(equity_args(fast, fast.leaves)[0], rack_kinds(SCRABBLE, slow.rack)), cgp
        assert np.array_equal(fast._unseen_array(), slow._unseen_array()), cgp
        assert fast.bag_size() == slow.bag_size() and fast.unseen() == slow.unseen(), cgp
        a, b = _equity_inputs(fast, fast.leaves), _equity_inputs(slow, slow.leaves)
        assert a[3:] == b[3:] and all(x is y for x, y in zip(a[:3], b[:3])), cgp


def test_new_positions_best_plays_equal_the_python_decoded_boards(twl):
    """The same best plays as boards read by the Python decoder and built by the checked constructor (``from_rows``
    with the same racks), by score and by equity."""
    for cgp in CGPS:
        fast = Position.from_cgp(cgp, lexicon=twl)
        slow = Position.from_rows(fast.rows(), lexicon=twl, rack=fast.rack, opp_rack=fast.opp_rack,
                                  scores=fast.scores, scoreless=fast.scoreless)
        for by in ("score", "equity"):
            a, b = fast.best(by), slow.best(by)
            assert (a is None) == (b is None)
            if a is not None:
                assert (a.notation, a.score, round(a.equity, 3)) == (b.notation, b.score, round(b.equity, 3)), cgp


def test_first_best_of_a_new_position_types_nothing_and_calls_little(twl):
    """From a CGP string to the best play of a new position, after one position of the lexicon was searched: no
    Numba typing of the arguments (``typeof``: ~250 us a position before), a bounded number of Python calls in all
    (counted, not timed), and ``best()`` itself a handful of calls around one call of the search's compiled code
    (none through a dispatcher), for racks of no, one and two blanks."""
    import numba.core.typing.typeof as typeof_mod
    from numba.core.dispatcher import Dispatcher

    for by in ("equity", "score"):
        Position.from_cgp(CGPS[0], lexicon=twl).best(by)
        Position.from_cgp(CGPS[0], lexicon=twl).best(by)
    counted = {"py": 0, "c": 0, "typeof": 0, "kernel": 0}
    typeof_code = {typeof_mod.typeof.__code__, Dispatcher.typeof_pyval.__code__}

    def prof(frame, event, arg):
        if event == "call":
            counted["py"] += 1
            names.append(frame.f_code.co_name)
            if frame.f_code in typeof_code:
                counted["typeof"] += 1
        elif event == "c_call":
            counted["c"] += 1
            if getattr(arg, "__name__", "") == "search_rack":
                counted["kernel"] += 1

    blanks = set()
    for cgp in CGPS[1:13] + [c for c in CGPS if "?" in c.split()[1].partition("/")[0]][:6]:
        blanks.add(cgp.split()[1].partition("/")[0].count("?"))
        for by in ("equity", "score"):
            counted.update(py=0, c=0, typeof=0, kernel=0)
            names = []
            gc.collect()
            gc.disable()  # (a collection inside would count the finalizers of other tests' objects)
            sys.setprofile(prof)
            try:
                p = Position.from_cgp(cgp, lexicon=twl)
                read = dict(counted)
                p.best(by)
            finally:
                sys.setprofile(None)
                gc.enable()
            assert counted["typeof"] == 0, (cgp, by)
            # measured: 13 Python and 69 builtin calls in all, by equity or score (73 and 129 with the general
            # plan of the search's arguments; the old decoder made ~300 of each, a Python loop over the CGP's
            # tokens; the typing of the search's 31 arguments, thousands); best() alone 6 and 8 and one search
            # (two when no play reaches the exchange floor)
            assert counted["py"] <= 18 and counted["c"] <= 85, (cgp, by, counted)
            assert counted["py"] - read["py"] <= 7 and counted["c"] - read["c"] <= 12, (cgp, by, counted, read,
                                                                                          names[read["py"]:])
            assert 1 <= counted["kernel"] <= 2, (cgp, by, counted)
    assert blanks == {0, 1, 2}


def test_new_positions_changed_after_reading_search_as_any_position(twl):
    """A position read from a CGP whose rack, board or leave table then changes gives the best play of a position
    built by the checked constructor with the same parts (the search's arguments of the CGP no longer hold)."""
    for cgp in CGPS[2:8]:
        for change in ("rack", "leaves", "board"):
            fast = Position.from_cgp(cgp, lexicon=twl)
            fast.best("equity")
            if change == "rack":
                fast.rack = fast.rack[1:]  # (a tile fewer: the bag still holds the rest)
            elif change == "leaves":
                fast.leaves = "zero"
            elif fast.best("score") is not None:  # (the best play's tiles put on the board, its leave the rack)
                play = fast.best("score")
                fast.rack = play.leave
                fast.board.place(*zip(*[(r, c, twl.alphabet.letters.index(ch), bl) for r, c, ch, bl in play.placed]))
            slow = Position.from_rows(fast.rows(), lexicon=twl, rack=fast.rack, opp_rack=fast.opp_rack,
                                      scores=fast.scores, scoreless=fast.scoreless)
            if change == "leaves":
                slow.leaves = "zero"
            for by in ("score", "equity"):
                a, b = fast.best(by), slow.best(by)
                assert (a is None) == (b is None), (cgp, change)
                if a is not None:
                    assert (a.notation, a.score, round(a.equity, 3)) == (b.notation, b.score, round(b.equity, 3)), \
                        (cgp, change, by)


def _key(play):
    return None if play is None else (play.notation, play.score, play._row.tobytes())


def test_best_many_is_each_positions_best(twl):
    """One kernel call a chunk of positions gives each position's own ``best(by)`` (the same row, ties broken alike),
    for CGP strings, Position objects (a changed board, a leave table of its own) and both mixed, on 1 and 2
    threads; each play's position is the one ``from_cgp`` reads (the same equity inputs)."""
    cgps = CGPS + _cgps_with_racks(twl, 40, 11)  # (bags full to empty, the opponent's rack known or not)
    for by in ("equity", "score"):
        want = [Position.from_cgp(c, lexicon=twl).best(by) for c in cgps]
        for threads in (1, 2):
            got = best_many(cgps, by=by, lexicon=twl, threads=threads)
            assert [_key(g) for g in got] == [_key(w) for w in want], (by, threads)
        for g, w in zip(got, want):
            if g is not None:
                assert g.position.cgp() == w.position.cgp() and g.equity == w.equity
                assert g.position._unseen_array().tolist() == w.position._unseen_array().tolist()
    pos = [Position.from_cgp(c, lexicon=twl) for c in CGPS[:12]]
    moved = pos[3].copy()
    moved.board.place(*zip(*[(r, c, x, b) for r, c, x, b in _free_squares(moved, 2)]))
    own = pos[5].copy()
    own.leaves = "zero"
    mixed = [moved, own] + [p if k % 2 else p.cgp() for k, p in enumerate(pos)]
    for by in ("equity", "score"):
        want = [p.best(by) if isinstance(p, Position) else Position.from_cgp(p, lexicon=twl).best(by) for p in mixed]
        got = best_many(mixed, by=by, lexicon=twl, threads=2)
        assert [_key(g) for g in got] == [_key(w) for w in want], by
        assert got[0].position is moved and got[1].position is own
    assert best_many([]) == []


def test_best_many_plays_made_on_first_use(twl):
    """``best_many``'s plays are made from the batch arrays when first used: from several threads at once each
    play gets one position, the one ``from_cgp`` reads."""
    from concurrent.futures import ThreadPoolExecutor

    got = best_many(CGPS[:24], lexicon=twl, threads=2)
    with ThreadPoolExecutor(4) as ex:
        seen = list(ex.map(lambda k: (k, id(got[k % 24].position), got[k % 24].notation), range(96)))
    for k, ident, notation in seen:
        assert ident == id(got[k % 24].position) and notation == got[k % 24].notation
    for g, c in zip(got, CGPS[:24]):
        w = Position.from_cgp(c, lexicon=twl)
        assert isinstance(g, Play) and g.position.cgp() == w.cgp() and _key(g) == _key(w.best("equity"))


def test_best_many_calls_little_python_a_position(twl):
    """``best_many`` on CGP strings makes about one Python call a position (its play; the fields are split and the
    boards read in kernels, one call a chunk): counted over 124 more positions, not timed (each Python call holds
    the GIL, which the other lanes wait for). Measured: 1.2 Python and 3.6 builtin calls a position (12 Python
    calls when each CGP was read in Python and its play made at once)."""
    best_many(CGPS, lexicon=twl, threads=1)

    def count(batch):
        c = {"py": 0, "c": 0}

        def prof(frame, event, arg):
            if event == "call":
                c["py"] += 1
            elif event == "c_call":
                c["c"] += 1

        gc.collect()
        gc.disable()
        sys.setprofile(prof)
        try:
            best_many(batch, lexicon=twl, threads=1)
        finally:
            sys.setprofile(None)
            gc.enable()
        return c

    a, b = count(CGPS * 2), count(CGPS * 4)
    n = 2 * len(CGPS)
    assert (b["py"] - a["py"]) / n <= 1.5 and (b["c"] - a["c"]) / n <= 5, (a, b)


def _free_squares(p, n):
    """``n`` tiles (``(row, col, code, blank)``) on empty squares of ``p`` that its bag still holds: E's, placed
    apart from each other (a board need not spell words to be searched)."""
    e = p.alphabet.index("E")
    free = [(r, c) for r in range(0, 15, 7) for c in range(0, 15, 7) if p.board.letters[r, c] == 255]
    return [(r, c, e, False) for r, c in free[:n]]


def test_best_many_errors(twl):
    """The first position that cannot be read raises its error with its number, whether Python (the fields) or
    the kernel (the board, the bag) found it; bad arguments are named."""
    rows = "/".join(["15"] * 14)
    bad_rows = rows + " AB/ 0/0 0"
    bad_char = "/".join(["14#"] + ["15"] * 14) + " AB/ 0/0 0"
    bad_bag = "/".join(["ZZ13"] + ["15"] * 14) + " A/ 0/0 0"
    with pytest.raises(InvalidCgpError, match="position #2: .*rows"):
        best_many([CGPS[0], bad_rows, CGPS[1], bad_char], lexicon=twl, threads=2)
    with pytest.raises(InvalidCgpError, match="position #3: .*'#'"):
        best_many([CGPS[0], CGPS[1], bad_char, bad_rows], lexicon=twl, threads=1)
    with pytest.raises(InvalidCgpError, match="position #2: .*bag"):
        best_many([CGPS[0], bad_bag] + CGPS[1:20], lexicon=twl, threads=2)
    with pytest.raises(ScrabbleError, match="position #2"):
        best_many([CGPS[0], 5], lexicon=twl)
    for surrogate in (CGPS[1] + " \ud800", CGPS[1].replace("/", "/\ud800", 1), CGPS[1].replace(" ", " \ud800", 1)):
        with pytest.raises(InvalidCgpError, match="position #2"):
            best_many([CGPS[0], surrogate], lexicon=twl)
    with pytest.raises(ScrabbleError, match="by"):
        best_many(CGPS[:1], by="fun", lexicon=twl)


def _mutants(seed, n):
    """CGP lines near the benchmark's: white space, racks, scores, counts, operations and boards changed one
    way at a time, to valid and invalid lines alike."""
    rng = np.random.default_rng(seed)
    edits = [
        lambda f: f.__setitem__(1, f[1].lower()), lambda f: f.__setitem__(1, f[1] + "?"),
        lambda f: f.__setitem__(1, f[1].replace("/", "")), lambda f: f.__setitem__(1, f[1] + "/A"),
        lambda f: f.__setitem__(1, "ABCDEFGH/" + f[1].split("/")[1]), lambda f: f.__setitem__(1, "??/?"),
        lambda f: f.__setitem__(1, "A1/"), lambda f: f.__setitem__(1, "/"), lambda f: f.__setitem__(1, "AÉ/"),
        lambda f: f.__setitem__(2, "-" + f[2]), lambda f: f.__setitem__(2, "+1/2"),
        lambda f: f.__setitem__(2, "1234567890/1"), lambda f: f.__setitem__(2, "123456789/-987654321"),
        lambda f: f.__setitem__(2, "12"), lambda f: f.__setitem__(2, "1/2/3"), lambda f: f.__setitem__(2, "1a/2"),
        lambda f: f.__setitem__(2, "-/5"), lambda f: f.__setitem__(3, "12345"), lambda f: f.__setitem__(3, "-1"),
        lambda f: f.__setitem__(3, "9999"), lambda f: f.__setitem__(3, "٣"),
        lambda f: f[4:].__len__() and f.__setitem__(4, "lex CSW21;"), lambda f: f.append("ld english;"),
        lambda f: f[4:].__len__() and f.__setitem__(4, "lex  TWL06;"), lambda f: f.append("b@d;"),
        lambda f: f.__setitem__(0, f[0].replace("/", "", 1)), lambda f: f.__setitem__(0, f[0] + "/15"),
        lambda f: f.__setitem__(0, f[0].replace("15", "16", 1)), lambda f: f.__setitem__(0, f[0].replace("1", "é", 1)),
        lambda f: f.__setitem__(0, f[0].swapcase()), lambda f: f.__delitem__(3), lambda f: f.__delitem__(slice(4, None)),
    ]
    seps = [" ", "  ", "\t", " \x1f", "\u3000", " \x0b"]
    out = []
    for k in range(n):
        line = CGPS[k % len(CGPS)]
        f = line.replace(" lex TWL06;", "\0lex TWL06;").split()
        f = [x.replace("\0", " ") for x in f]
        f = f[:4] + [f[4]] if len(f) > 4 else f
        f = f[:4] + [" ".join(f[4:])] if len(f) > 4 else f
        if rng.random() < 0.8:
            edits[rng.integers(len(edits))](f)
        sep = [seps[rng.integers(len(seps))] if rng.random() < 0.3 else " " for _ in f]
        out.append("".join(x + s for x, s in zip(f, sep)).rstrip(" ") + (" " if rng.random() < 0.1 else ""))
    return out


def test_cgp_fields_split_in_a_kernel_as_python_reads_them(twl):
    """The kernel that splits a batch's CGP lines (:func:`split_cgps`) passes a line on only when Python's reader
    takes it with the same board text, racks and operations; and ``best_many`` answers every line as
    ``from_cgp(line).best()`` does, or raises its error, whichever path the line takes."""
    from numba_words.scrabble._batch import split_cgps
    from numba_words.scrabble._board import _tables_for

    t = _tables_for(SCRABBLE, twl)
    lines = _mutants(5, 400)
    ref = np.frombuffer(b"lex TWL06;", np.uint8)
    raw = np.frombuffer("\n".join(lines).encode(), np.uint8)
    m = len(lines)
    ok, n_own = np.zeros(m, bool), np.zeros(m, np.int64)
    braw, rk = np.zeros((2, raw.shape[0]), np.uint8)
    boffs, roffs = np.zeros((2, m + 1), np.int64)
    q = split_cgps(raw, ref, t.char_table, t.rack_size, ok, braw, boffs, rk, roffs, n_own)
    assert q == ok.sum() and 0 < q < m
    j = 0
    for line, good in zip(lines, ok):
        try:
            board, rack, opp, _, _, ops = C.cgp_fields(line)
            Position._read_fields(line, "scrabble", twl)
            clean = set(rack + opp) <= set(twl.alphabet.letters + "?") and max(len(rack), len(opp)) <= 7
        except ScrabbleError:
            board = None
        if good:
            assert board is not None and clean and ops == "lex TWL06;", line
            assert bytes(braw[boffs[j]:boffs[j + 1]]).decode() == board
            assert bytes(rk[roffs[j]:roffs[j + 1]]).decode() == rack + opp and n_own[j] == len(rack)
            j += 1
        else:  # (an ASCII line Python takes as plain, its operations written as the first's, is split here too)
            assert not (board is not None and clean and ops == "lex TWL06;" and line.isascii() and ops in line), line
    for k in range(0, m, 40):
        batch = lines[k:k + 40]
        want = []
        for line in batch:
            try:
                want.append(Position.from_cgp(line, lexicon=twl).best("equity"))
            except ScrabbleError as e:
                want.append(type(e))
        fine = [x for x, w in zip(batch, want) if not isinstance(w, type)]
        got = best_many(fine, lexicon=twl, threads=2)
        assert [_key(g) for g in got] == [_key(w) for w in want if not isinstance(w, type)]
        for x, w in zip(batch, want):
            if isinstance(w, type):
                with pytest.raises(w):
                    best_many(fine[:3] + [x], lexicon=twl, threads=1)
