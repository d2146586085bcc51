"""Board texts read in NumPy for a batch: the same tile codes as :func:`parse_text` reads board by board, the same
scores, and the same errors for text it cannot read."""
import numpy as np
import pytest

from numba_words.bookworm import BOGGLE4, BOGGLE5, BOOKWORM, InvalidBoardError, boggle_scores, solve_many
from numba_words.bookworm import search as S
from numba_words.bookworm._tables import board_text, default_lexicon, parse_text, split_layout
from numba_words.bookworm.search import random_codes


@pytest.fixture(scope="module")
def lex():
    return default_lexicon()


@pytest.mark.parametrize("grid", [BOGGLE4, BOGGLE5, BOOKWORM], ids=lambda g: g.name)
def test_batch_text_codes_are_parse_texts(lex, grid):
    codes = random_codes(300, grid=grid, lexicon=lex, seed=7)
    codes[::17, 3] = 63  # holes ('.')
    texts = [board_text(c, grid, lex) for c in codes]
    forms = [texts]
    if grid is not BOOKWORM:
        forms.append([t.replace(" ", "") for t in texts])  # one string of rows*cols letters
        forms.append([t.upper() for t in texts])
    for form in forms:
        fast = S._texts_codes(form, grid, lex)
        assert fast is not None and fast.dtype == np.uint8
        assert np.array_equal(fast, np.stack([parse_text(t, grid, lex) for t in form]))
        assert np.array_equal(S._boards(form, grid, lex), codes)


def test_other_layouts_and_bad_text_fall_back_to_the_board_by_board_reader(lex):
    texts = ["abcd efgh ijkl mnop", " abcd  efgh ijkl mnop", "abcdefghijklmnop"]
    assert S._texts_codes(texts, BOGGLE4, lex) is None  # (three layouts)
    assert np.array_equal(S._boards(texts, BOGGLE4, lex), np.stack([parse_text(t, BOGGLE4, lex) for t in texts]))
    for bad, what in (("abcd efgh ijkl mno!", "not a letter"), ("abcdefghijklmnoé", "not a letter"),
                      ("abcd efgh ijkl mnopq", "rows")):
        with pytest.raises(InvalidBoardError, match=what):
            boggle_scores(["abcdefghijklmnop", bad], lexicon=lex)


def test_scores_of_text_boards_equal_those_of_codes(lex):
    codes = random_codes(200, grid=BOGGLE4, lexicon=lex, seed=3)
    texts = [board_text(c, BOGGLE4, lex).replace(" ", "") for c in codes]
    for threads in (1, 2):
        assert np.array_equal(boggle_scores(texts, lexicon=lex, threads=threads), boggle_scores(codes, lexicon=lex))
    codes = random_codes(40, grid=BOOKWORM, lexicon=lex, seed=4)
    a = solve_many([board_text(c, BOOKWORM, lex) for c in codes], lex, threads=2)
    b = solve_many(codes, lex, threads=1)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.wid, b.wid)
    assert split_layout("x" * 16, BOGGLE4) == "xxxx xxxx xxxx xxxx"
