"""GCG files as they come from elsewhere: MAGPIE's GCG test suite (tests/data/gcg/magpie, its SOURCE.md), each
file read strictly and leniently against MAGPIE's own expected outcome (tests/data/gcg/magpie_expected.tsv)."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from numba_words.scrabble import (GcgError, GcgInconsistencyError, GcgWarning, InvalidGcgError, Position, read_gcg,
                                  write_gcg)

DATA = Path(__file__).parent / "data" / "gcg"
EXPECTED = [line.split("\t") for line in (DATA / "magpie_expected.tsv").read_text().splitlines()
            if line and not line.startswith("#")]


def _read(path, **kw):
    """``(positions or None, error or None, warnings)`` of one read."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, err = read_gcg(path, **kw), None
        except GcgError as e:
            out, err = None, e
    return out, err, [w for w in caught]


def test_the_table_covers_the_suite():
    names = sorted(p.stem for p in (DATA / "magpie").glob("*.gcg"))
    assert len(names) == 80 and sorted(n for n, _, _ in EXPECTED) == names
    assert {o for _, o, _ in EXPECTED} == {"accept", "reject"}


@pytest.mark.parametrize("name, want, where", EXPECTED, ids=[n for n, _, _ in EXPECTED])
def test_magpie_gcg_suite(name, want, where, twl):
    """strict=True makes MAGPIE's decision on every file; a lenient read of a file MAGPIE refuses either refuses
    it too or warns (never silent); a file MAGPIE reads gives no warning."""
    path = DATA / "magpie" / f"{name}.gcg"
    # MAGPIE's tests run with a lexicon configured (CSW21), except for lexicon_missing; which one does not matter
    # (placements are not checked against words), so the session's TWL06 stands in
    lexicon = None if name == "lexicon_missing" else twl
    strict, err, caught = _read(path, lexicon=lexicon, strict=True)
    assert not caught
    assert ("accept" if err is None else "reject") == want, (where, err)
    lenient, lerr, caught = _read(path, lexicon=lexicon)
    assert all(issubclass(w.category, GcgWarning) for w in caught)
    if want == "accept":
        assert lerr is None and not caught, (lerr, [str(w.message) for w in caught])
        assert [p.cgp() for p in lenient] == [p.cgp() for p in strict]
    else:
        assert lerr is not None or caught
        assert str(err).startswith(f"GCG file {path}") and ("line " in str(err) or name in ("empty",
                                                                                           "lexicon_missing"))
        if isinstance(err, GcgInconsistencyError) and lerr is None:
            assert str(caught[0].message) == str(err)  # the warning is the strict error's message


def test_magpie_suite_games_replay_to_their_boards(twl):
    # success_standard.gcg ends with the board of its last placement and the totals after the end-of-game events
    positions = read_gcg(DATA / "magpie" / "success_standard.gcg", lexicon=twl, strict=True)
    last = positions[-1]
    assert last.scores == (516, 358)  # 516 after the rack points; 378 less a 20-point time penalty
    # every tile is on the board but the I left on HastyBot's rack ('>RightBehindYou: (I) +2 378')
    assert sum(ch.isalpha() for row in last.rows() for ch in row) == 100 - len("I")
    # a note that goes on over three lines, in a file with DOS line ends
    assert len(read_gcg(DATA / "magpie" / "utf8_dos.gcg", lexicon=twl, strict=True)) > 0


def test_our_own_files_read_without_warnings(twl):
    """Self-played games written by write_gcg read strictly (up to write_gcg's end-of-game lines) with no
    warning: every placement's score, from the move generator, is the score the reader works out itself."""
    from numba_words.scrabble import play_game

    for seed in (1, 2, 3):
        g = play_game(seed, lexicon=twl)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            positions = read_gcg(write_gcg(g), lexicon=twl)
        assert positions[-1].rows() == g.position.rows()


@pytest.mark.parametrize("lines, strict_error", [
    ([">a: ACDINRT 8D CAIRD +22 23"], "a's total 23 is not the last total plus the event's score"),
    ([">a: ACDINRT 8D CAIRD +22 22", ">b: EIOUUVW -EIOUUX +0 0"], "tiles X exchanged but not on the rack"),
    ([">a: ACDINRT 8D CAIRD +22 22", ">a: EIOUUVW - +0 22"], "a moves out of turn"),
    ([">a: ACDINRT 8D CAIRD +22 22", ">b: EIOUUVW (EIOUUVW) -13 -13"], "before the end of the game"),
    ([">a: ACDINRT 8D CAIRD +22 22", "#rack2 QQ"], "'#rack2' rack QQ cannot be drawn"),
    ([">a: ACDINRT 8D CAIRD +22 22", ">b: EIOUUVW (challenge) +5 5"], "for b, but the placement before it was a's"),
    ([], "the file is empty"),
    ([">a: ACDINRT 8D CAIRD +23 23"], "the placement 8D scores 22, not 23"),
    ([">a: ACDINRT 8D CAIRD +22 22", ">b: ABEGORS 2B BOG +12 12"], "does not touch the tiles on the board"),
    ([">a: ACDINRT 8A CAIRD +27 27"], "does not cover the centre square"),
])
def test_each_inconsistency_warns_or_raises_with_its_line(twl, lines, strict_error):
    text = "\n".join(["#player1 a A", "#player2 b B", *lines]) if lines else ""
    with pytest.warns(GcgWarning, match=strict_error):
        read_gcg(text, lexicon=twl)
    with pytest.raises(GcgInconsistencyError, match=strict_error) as e:
        read_gcg(text, lexicon=twl, strict=True)
    assert ("line " in str(e.value)) == bool(lines)
    assert isinstance(e.value, InvalidGcgError)


def test_an_exchange_needs_a_full_rack_of_tiles_in_the_bag(twl):
    # success.gcg up to Tim's R.. (line 30): 15 tiles off the board, 1 in the bag; Josh exchanges instead of 13H
    lines = (DATA / "magpie" / "success.gcg").read_text().splitlines()[:30]
    text = "\n".join(lines + [">Josh: EMNORST -EM +0 433"])
    with pytest.warns(GcgWarning, match="line 31: an exchange with 1 tiles in the bag"):
        read_gcg(text, lexicon=twl)
    with pytest.raises(GcgInconsistencyError, match="line 31: an exchange with 1 tiles in the bag"):
        read_gcg(text, lexicon=twl, strict=True)
    assert len(read_gcg("\n".join(lines), lexicon=twl, strict=True)) == 21  # its placements so far


def test_encodings_and_bytes(twl, tmp_path):
    text = "#character-encoding ISO-8859-1\n#player1 c C\xe9sar\n#player2 h H\xe9rcules\n>c: ACDINRT 8D CAIRD +22 22\n"
    path = tmp_path / "latin1.gcg"
    path.write_bytes(text.encode("latin-1"))
    assert len(read_gcg(path, lexicon=twl, strict=True)) == 1
    assert len(read_gcg(text.encode("latin-1"), lexicon=twl, strict=True)) == 1
    path.write_bytes(text.replace("ISO-8859-1", "UTF-8").encode("latin-1"))
    with pytest.raises(InvalidGcgError, match="not UTF-8 text"):
        read_gcg(path, lexicon=twl)
    with pytest.raises(InvalidGcgError, match="strict must be True or False"):
        read_gcg(text, lexicon=twl, strict="yes")
    assert isinstance(read_gcg(text, lexicon=twl)[0], Position)
