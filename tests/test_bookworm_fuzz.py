"""Fuzzing: any input to the Bookworm API gives a result or a NumbaWordsError (never another exception, a crash
or a hang), and on random small lexicons and boards the kernels agree with the plain-Python reference."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from numba_words import Lexicon
from numba_words.lexicon.lexicon import SkippedLinesWarning
from numba_words.bookworm import (BOGGLE4, BOOKWORM, BOOKWORM_DELUXE, Position, boggle_grid, boggle_scores,
                                  random_codes, solve, solve_many)
from numba_words.bookworm._reference import Reference, boggle_points, bookworm_score, neighbour_lists
from numba_words.bookworm._tables import HOLE, KINDS, QU, code_letters, default_lexicon
from numba_words.errors import NumbaWordsError

TEXT = "nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy"
FUZZ = settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
BOGGLE3 = boggle_grid(3)
BOGGLE24 = boggle_grid(2, 4)

anything = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True),
                     st.text(max_size=6), st.lists(st.integers(-3, 70), max_size=4), st.just(object()))


@pytest.fixture(scope="module")
def lex():
    return default_lexicon()


def _ok(fn, *args, **kw):
    """Call ``fn``; a NumbaWordsError is a fine answer, anything else escapes and fails the test."""
    try:
        return fn(*args, **kw)
    except NumbaWordsError as e:
        assert str(e)  # the error names what is wrong
        return None


# ---------------------------------------------------------------------------------------------- text input
board_chars = st.sampled_from(list("abcdefghijklmnopqrstuvwxyzq._ ") + ["Q", "1", "é", "\n", "\t", "Æ"])
letters = st.sampled_from("abcdefghijklmnopqrstuvwxyzq.")


@FUZZ
@given(st.one_of(st.text(max_size=80), st.lists(board_chars, max_size=70).map("".join)))
def test_board_text(text):
    for grid in (BOOKWORM, BOGGLE4):
        p = _ok(Position, text, grid=grid)
        if p is not None:
            assert Position(p.text, grid=grid).text == p.text  # the notation round-trips
            assert all(w.upper() in p.lexicon for w in p.words().words)
        _ok(solve, text, grid=grid)


def _board_text(draw, heights):
    """Columns (or rows) of the right lengths, now and then one off, of letters with now and then a stray
    character."""
    out = []
    for h in heights:
        h += draw(st.sampled_from([0] * 12 + [-1, 1]))
        out.append("".join(draw(st.lists(st.one_of(*[letters] * 20, board_chars), min_size=max(h, 0),
                                         max_size=max(h, 0)))))
    return " ".join(out)


@st.composite
def board_texts(draw):
    grid = draw(st.sampled_from([None, "bookworm", "boggle4", "boggle5"]))
    heights = {None: BOOKWORM.shape, "bookworm": BOOKWORM.shape, "boggle4": (4,) * 4, "boggle5": (5,) * 5}[grid]
    return _board_text(draw, heights), grid


@FUZZ
@given(board_texts())
def test_nearly_valid_board_text(text_grid):
    text, grid = text_grid
    sol = _ok(solve, text, grid=grid)
    if sol is not None:
        p = Position(text, grid=grid or "bookworm")
        for f in sol:
            assert p.path_word(f.path) == f.word and p.score_path(f.path) == f.score


kind_chars = st.sampled_from(list(".gysdfGYSDF x1-") + ["é"])
good_kind = st.sampled_from(list(".gysdf"))
kind_item = st.one_of(*[st.sampled_from(KINDS), st.integers(0, 5)] * 10, st.sampled_from(("ruby", "")),
                      st.integers(-2, 8), st.floats(0, 6), st.booleans(), st.none())


@FUZZ
@given(st.one_of(st.text(max_size=60),
                 st.lists(st.one_of(*[good_kind] * 40, kind_chars), min_size=51, max_size=53).map("".join),
                 st.lists(kind_item, min_size=51, max_size=53),
                 st.builds(lambda x: "  ".join([x[:7], x[7:]]), st.lists(good_kind, min_size=52, max_size=52)
                           .map("".join))))
def test_kinds(kinds):
    p = _ok(Position, TEXT, kinds=kinds)
    if p is not None:
        assert p.kinds.dtype == np.uint8 and p.kinds.max(initial=0) < len(KINDS)
        assert _ok(Position, TEXT, kinds=p.kinds_text).kinds.tolist() == p.kinds.tolist()
    _ok(solve, TEXT, kinds=kinds)


WORD_PATHS = [f.path for f in solve(TEXT)]


def _mutate(path, i, v):
    out = list(path)
    out[i % len(out)] = v
    return out


@FUZZ
@given(st.one_of(anything, st.lists(st.one_of(st.integers(-2, 60), st.floats(-1, 60), st.booleans(),
                                              st.text(max_size=2), st.none()), max_size=14),
                 st.lists(st.integers(0, 51), min_size=1, max_size=12),
                 st.sampled_from(WORD_PATHS),
                 st.builds(_mutate, st.sampled_from(WORD_PATHS), st.integers(0, 11),
                           st.one_of(st.integers(-1, 53), st.floats(0, 51), st.booleans()))))
def test_paths(path):
    p = Position(TEXT, seed=1)
    _ok(p.path_word, path)
    _ok(p.score_path, path)
    _ok(p.svg, path=path)
    turn = _ok(p.play, path)
    if turn is not None:
        assert turn.word.upper() in p.lexicon and turn.score > 0


@FUZZ
@given(st.one_of(anything, st.sampled_from(solve(TEXT).words), st.sampled_from(solve(TEXT).words).map(str.upper),
                 st.sampled_from(["zebra", "", "squills!", "QU"])))
def test_words_as_moves(move):
    p = Position(TEXT, seed=1)
    _ok(p.play, move)
    _ok(p.choose, move)


# ---------------------------------------------------------------------------------------------- arrays
dtypes = st.sampled_from([np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64, np.float32,
                          np.float64, np.bool_])


def _arrays(last):
    shapes = st.one_of(hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
                       st.tuples(st.integers(0, 3), st.sampled_from([last, last - 1, last + 1])),
                       st.just((last,)))
    return dtypes.flatmap(lambda dt: shapes.flatmap(lambda sh: hnp.arrays(dt, sh, elements=_elements(dt))))


def _elements(dt):
    if dt == np.bool_:
        return st.booleans()
    if np.issubdtype(dt, np.floating):
        return st.floats(-100, 100, width=32)
    info = np.iinfo(dt)
    return st.one_of(st.integers(max(info.min, -3), min(info.max, 70)), st.integers(info.min, info.max))


def _valid(last, top, rows=True):
    """Mostly valid arrays: values below ``top`` (now and then one out of range), the right last axis."""
    shape = st.tuples(st.integers(0, 4), st.just(last)) if rows else st.just((last,))
    dt = st.sampled_from([np.uint8, np.int8, np.int64, np.uint16])
    arrays = dt.flatmap(lambda d: shape.flatmap(lambda sh: hnp.arrays(d, sh, elements=st.integers(0, top - 1))))
    return st.builds(_spoil, arrays, st.integers(0, 9), st.sampled_from([-1, top, 62, 63, 127]))


def _spoil(arr, i, v):
    if arr.size and i == 0:
        arr = arr.astype(np.int64)
        arr.flat[arr.size // 2] = v
    return arr


@FUZZ
@given(st.one_of(_arrays(16), _valid(16, 26)), st.one_of(st.none(), _arrays(16), _valid(16, 6)))
def test_batch_arrays(boards, kinds):
    out = _ok(solve_many, boards, kinds=kinds, grid=BOGGLE4)
    if out is not None:
        assert len(out) == boards.shape[0] and out.wid.shape == out.scores.shape
    scores = _ok(boggle_scores, boards, grid=BOGGLE4)
    if scores is not None:
        assert scores.shape == (boards.shape[0],) and (scores >= 0).all()


@FUZZ
@given(st.one_of(_arrays(52), _valid(52, 26, rows=False)), st.one_of(st.none(), _arrays(52), _valid(52, 6, False)))
def test_single_board_arrays(codes, kinds):
    _ok(solve, codes, kinds=kinds)
    _ok(solve, codes, kinds=kinds, parallel=True)


numbers = st.one_of(anything, st.integers(-2, 20), st.integers(0, 4), st.integers(1, 20))


@FUZZ
@given(numbers, numbers, numbers, numbers, numbers)
def test_parameters(min_len, max_len, level, max_nodes, chunk):
    boards = random_codes(3, grid=BOGGLE4, seed=1)
    _ok(solve, TEXT, min_len=min_len if min_len is not None else 3, max_len=max_len if max_len is not None else 12,
        level=level, max_nodes=max_nodes)
    _ok(solve_many, boards, grid=BOGGLE4, min_len=min_len if min_len is not None else 3, level=level if level is not
        None else 1, chunk=chunk, threads=max_nodes)
    _ok(boggle_scores, boards, min_len=min_len if min_len is not None else 3, max_len=max_len, chunk=chunk
        if chunk is not None else 4096, points=level)
    _ok(random_codes, chunk, grid=BOGGLE4, seed=max_nodes, frequencies=level)
    _ok(random_codes, 2, grid=BOGGLE4, seed=max_nodes)
    _ok(random_codes, 2, grid=BOGGLE4, frequencies={"A": level, "QU": chunk})


# ---------------------------------------------------------------------------------------------- word lists
words = st.lists(st.text(alphabet="ABCQUE", min_size=1, max_size=7), max_size=25)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(words, st.integers(0, 2 ** 32 - 1), st.sampled_from([BOGGLE3, BOGGLE24, BOOKWORM]))
def test_word_lists_match_reference(ws, seed, grid):
    """Any word list: the kernels find exactly the reference's words, with the best score over all paths."""
    lexicon = _ok(Lexicon.load, ws, alphabet="ABCEQU")
    assume(lexicon is not None)
    rng = np.random.default_rng(seed)
    max_len = 4 if grid is BOOKWORM else 7
    choices = np.array([0, 1, 2, 3, QU, HOLE, 5, 4], dtype=np.uint8)  # A B C E, Qu, a hole, U, a plain Q
    codes = choices[rng.integers(0, len(choices), size=(3, grid.n_tiles))]
    kinds = rng.integers(0, len(KINDS), size=codes.shape).astype(np.uint8)
    batch = solve_many(codes, lexicon, kinds=kinds, grid=grid, max_len=max_len, level=2, scoring=BOOKWORM_DELUXE)
    ref = Reference(lexicon.words, 3, max_len)
    nbrs = neighbour_lists(grid)
    for b in range(3):
        letters = [code_letters(int(c), lexicon) for c in codes[b]]
        truth = ref.solve(letters, nbrs, all_paths=True)
        sol = batch[b]
        assert sorted(sol.words) == sorted(truth)
        for f in sol:
            def score(path):
                vals = [BOOKWORM_DELUXE.value(letters[t]) for t in path]
                return bookworm_score(vals, len(f.word), [BOOKWORM_DELUXE.bonus(KINDS[kinds[b][t]]) for t in path], 2)
            assert f.score == max(score(p) for p in truth[f.word]) == score(f.path)
        single = solve(codes[b], lexicon, kinds=kinds[b], grid=grid, max_len=max_len, level=2, scoring=BOOKWORM_DELUXE)
        assert single.words == sol.words and np.array_equal(single.scores, sol.scores)
        tiles = solve(codes[b], lexicon, kinds=kinds[b], grid=grid, max_len=max_len, level=2, scoring=BOOKWORM_DELUXE,
                      parallel=True)
        assert tiles.words == sol.words and np.array_equal(tiles.scores, sol.scores)
    points = boggle_scores(codes, lexicon, grid=grid, max_len=max_len)
    want = [sum(boggle_points(w) for w in ref.solve([code_letters(int(c), lexicon) for c in row], nbrs))
            for row in codes]
    assert points.tolist() == want


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.text(min_size=0, max_size=20), st.text(alphabet=st.characters(categories=["Lu", "Ll"]),
                                                                    min_size=1, max_size=14)), max_size=10))
def test_any_word_list_any_alphabet(ws):
    with warnings.catch_warnings():  # (most lines of an odd list may be skipped: warned, not an error)
        warnings.simplefilter("ignore", SkippedLinesWarning)
        lexicon = _ok(Lexicon.load, ws)
    if lexicon is None:  # an error message is a fine answer to a word list with odd characters
        return
    p = _ok(Position.random, 3, lexicon=lexicon)
    if p is not None:
        sol = p.words()
        assert all(w.upper() in lexicon for w in sol.words)
    _ok(solve_many, random_codes(4, lexicon=lexicon, seed=1), lexicon)


@pytest.mark.parametrize("big", [2 ** 63, 2 ** 64, -2 ** 63 - 1, 2 ** 63 - 1])
def test_integers_past_int64_are_an_error_not_an_overflow(big):
    """Whole numbers the kernels cannot hold (found by the fuzz test above: ``max_nodes=2 ** 63`` escaped as an
    OverflowError) give a NumbaWordsError or a result, for every integer parameter."""
    boards = random_codes(2, grid=BOGGLE4, seed=1)
    _ok(solve, TEXT, max_nodes=big)
    _ok(solve, TEXT, min_len=big)
    _ok(solve, TEXT, max_len=big)
    _ok(solve, TEXT, level=big)
    _ok(solve_many, boards, grid=BOGGLE4, max_nodes=big)
    _ok(solve_many, boards, grid=BOGGLE4, chunk=big)
    _ok(solve_many, boards, grid=BOGGLE4, level=big)
    _ok(boggle_scores, boards, chunk=big)
    _ok(boggle_scores, boards, max_nodes=big)
    _ok(boggle_scores, boards, max_len=big)
    _ok(random_codes, 2, grid=BOGGLE4, seed=big)
