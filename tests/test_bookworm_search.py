"""The kernels against the plain-Python reference, the three reference boards, and their invariants."""
import json
import threading
from pathlib import Path

import numpy as np
import pytest

from numba_words.bookworm import (BOGGLE4, BOGGLE5, BOOKWORM, BOOKWORM_DELUXE, InvalidBoardError,
                                  InvalidParameterError, solve, solve_many)
from numba_words.bookworm import _search as K
from numba_words.bookworm import _tables as T
from numba_words.bookworm import search as S
from numba_words.bookworm._reference import (Reference, boggle_letters, boggle_neighbours, bookworm_letters,
                                             bookworm_neighbours, bookworm_score)
from numba_words.bookworm._tables import board_text, default_lexicon
from numba_words.bookworm.search import random_codes

REF = Path(__file__).resolve().parent / "data" / "bookworm" / "boards.jsonl"
KIND_BONUS = [0, 2, 4, 7, 10, 0]


@pytest.fixture(scope="module")
def lex():
    return default_lexicon()


@pytest.fixture(scope="module")
def ref(lex):
    return Reference(lex.words)


def _letters(grid, text):
    if grid is BOOKWORM:
        return bookworm_letters(text.split()), bookworm_neighbours()[1]
    return boggle_letters(text.split()), boggle_neighbours(*grid.shape)[1]


def _check_paths(sol, grid, letters):
    for f in sol:
        coords = [grid.coords[t] for t in f.path]
        assert len(set(f.path)) == len(f.path)
        for a, b in zip(f.path, f.path[1:]):
            assert (int(grid.masks[a]) >> b) & 1
        assert "".join(letters[c] for c in coords) == f.word


def _score(grid, text_letters, kinds, path, level=1):
    vals = [BOOKWORM_DELUXE.value("QU" if text_letters[grid.coords[t]] == "qu" else text_letters[grid.coords[t]])
            for t in path]
    n = sum(len(text_letters[grid.coords[t]]) for t in path)
    return bookworm_score(vals, n, [KIND_BONUS[kinds[t]] for t in path], level)


def test_word_ranks_are_sorted_indices(lex):
    t = T.tables(lex)
    out = np.empty(len(lex), dtype=np.int64)
    T.word_ranks(t.dawg, t.acc, lex.flat, lex.offsets, out)
    assert np.array_equal(out, np.arange(len(lex)))


def test_reference_boards(lex):
    for line in REF.read_text().splitlines():
        d = json.loads(line)
        text = " ".join(d["columns_bottom_to_top"])
        sol = solve(text, lex)
        assert sorted(sol.words) == sorted(d["words"]), d["id"]
        assert len(sol) == d["n_words"]
        assert sol.longest() == sorted(d["longest"])
        _check_paths(sol, BOOKWORM, bookworm_letters(d["columns_bottom_to_top"]))


@pytest.mark.parametrize("grid,n", [(BOOKWORM, 400), (BOGGLE4, 400), (BOGGLE5, 150)])
def test_random_boards_match_reference(lex, ref, grid, n):
    rng = np.random.default_rng(5)
    codes = random_codes(n, grid=grid, lexicon=lex, seed=11 + grid.n_tiles)
    kinds = rng.integers(0, 6, size=codes.shape).astype(np.uint8)
    batch = solve_many(codes, lex, kinds=kinds, grid=grid, scoring=BOOKWORM_DELUXE)  # Bookworm scores on any grid
    assert (codes == T.QU).any(), "the sample should include Qu tiles"
    for b in range(n):
        text = board_text(codes[b], grid, lex)
        letters, nbrs = _letters(grid, text)
        truth = ref.solve(letters, nbrs, all_paths=True)
        sol = batch[b]
        assert sorted(sol.words) == sorted(truth), text
        _check_paths(sol, grid, letters)
        index = {c: t for t, c in enumerate(grid.coords)}
        for f in sol:
            best = max(_score(grid, letters, kinds[b], [index[c] for c in p]) for p in truth[f.word])
            assert f.score == best, (text, f.word)
            assert f.score == _score(grid, letters, kinds[b], f.path)


def test_serial_parallel_batch_agree(lex):
    codes = random_codes(40, lexicon=lex, seed=3)
    kinds = np.random.default_rng(1).integers(0, 6, size=codes.shape).astype(np.uint8)
    batch = solve_many(codes, lex, kinds=kinds)
    serial = solve_many(codes, lex, kinds=kinds, threads=1)
    small_chunks = solve_many(codes, lex, kinds=kinds, chunk=7)
    for other in (serial, small_chunks):
        assert np.array_equal(batch.offsets, other.offsets)
        assert np.array_equal(batch.wid, other.wid)
        assert np.array_equal(batch.scores, other.scores)
        assert np.array_equal(batch.plen, other.plen)
    for b in range(0, 40, 7):  # the three entry points agree
        s1 = solve(codes[b], lex)
        s2 = solve(codes[b], lex, parallel=True)
        assert s1.words == s2.words == batch[b].words != []
        assert np.array_equal(s1.scores, s2.scores)


def test_uneven_lanes_and_retries_keep_the_output(lex, monkeypatch):
    # lanes of uneven sizes (as a speed-based split gives), lane 1 writing into its own buffer copied into the
    # output one round later, and boards overflowing in either lane: the same arrays as one thread
    codes = random_codes(30, lexicon=lex, seed=5, frequencies=dict(E=3, S=2, R=1, T=1, A=1, D=1, N=1, I=1, L=1))
    truth = solve_many(codes, lex, threads=1)
    rng = np.random.default_rng(0)
    split = S._lane_bounds
    monkeypatch.setattr(S, "_lane_bounds", lambda a, z, n, speed=None: split(a, z, n, rng.uniform(0.1, 5, n)))
    monkeypatch.setattr(S, "default_cap", lambda grid: 16)
    for chunk in (4, 11, 64):
        got = solve_many(codes, lex, threads=2, chunk=chunk)
        for name in ("offsets", "wid", "path", "plen", "scores"):
            assert np.array_equal(getattr(got, name), getattr(truth, name)), (chunk, name)


def test_overflowing_board_is_resolved(lex):
    # every tile an E or S, lots of words: force the per-board buffer to overflow and the retry to run
    codes = random_codes(3, lexicon=lex, seed=0, frequencies=dict(E=3, S=2, R=1, T=1, A=1, D=1, N=1, I=1, L=1))
    old = S.default_cap
    S.default_cap = lambda grid: 16
    try:
        small = solve_many(codes, lex)
        one = solve(codes[0], lex)
    finally:
        S.default_cap = old
    big = solve_many(codes, lex)
    assert np.array_equal(small.wid, big.wid) and np.array_equal(small.scores, big.scores)
    assert one.words == big[0].words and len(one) > 16


def test_threads_from_python_threads(lex):
    codes = random_codes(60, lexicon=lex, seed=9)
    want = solve_many(codes, lex, threads=1)
    results = [None] * 4

    def work(i):
        results[i] = solve_many(codes, lex) if i % 2 else solve(codes[i], lex, parallel=True)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for i, r in enumerate(results):
        if i % 2:
            assert np.array_equal(r.wid, want.wid)
        else:
            assert r.words == want[i].words


def test_length_limits(lex):
    text = "nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy"
    full = solve(text, lex)
    four = solve(text, lex, min_len=4, max_len=5)
    assert sorted(four.words) == sorted(w for w in full.words if 4 <= len(w) <= 5)
    qu = solve(text, lex, min_len=2, max_len=2)
    assert "qu" not in qu.words and all(len(w) == 2 for w in qu.words)


@pytest.mark.parametrize("kw,match", [
    (dict(min_len=0), "min_len"), (dict(max_len=2), "below min_len"), (dict(max_len=200), "exceeds"),
    (dict(min_len=3.5), "whole number"), (dict(level=0), "level"), (dict(level=2.0), "level"),
    (dict(max_nodes=0), "max_nodes"), (dict(parallel="yes"), "parallel"), (dict(grid="hex"), "grid"),
])
def test_bad_limits(lex, kw, match):
    with pytest.raises(InvalidParameterError, match=match):
        solve("nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy", lex, **kw)


@pytest.mark.parametrize("text,match", [
    ("abc", "has 1 columns"),
    ("nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriag", "column 6 'slriag' has 6 tiles"),
    ("nnloner ceunount fndeadu olledl1t lusjigg oliqrxki slriagy", "'1' is not a letter"),
])
def test_bad_board_text(lex, text, match):
    with pytest.raises(InvalidBoardError, match=match):
        solve(text, lex)


def test_bad_codes_and_kinds(lex):
    with pytest.raises(InvalidBoardError, match="code 40"):
        solve_many(np.full((2, 52), 40), lex)
    with pytest.raises(InvalidBoardError, match="tiles"):
        solve_many(np.zeros((2, 51), dtype=np.uint8), lex)
    with pytest.raises(InvalidBoardError, match="kinds"):
        solve_many(np.zeros((2, 52), dtype=np.uint8), lex, kinds=np.full((2, 52), 9))
    with pytest.raises(InvalidBoardError, match="rows"):
        solve("abcd efgh ijkl", lex, grid=BOGGLE4)


ZEROS = np.zeros((2, 52), dtype=np.uint8)


@pytest.mark.parametrize("kinds,match", [
    (np.full((2, 52), -1), "value -1 at .0, 0. is not a kind index"),     # read outside the bonus table before
    (np.full((2, 52), -3, dtype=np.int8), "value -3"),
    (np.full((2, 52), 6, dtype=np.uint64), "value 6"),
    (np.zeros((2, 52), dtype=np.float64), "dtype float64"),
    (np.zeros((2, 52), dtype=bool), "dtype bool"),
    (np.zeros((3, 52), dtype=np.uint8), r"shape \(3, 52\)"),
    (np.zeros(52, dtype=np.uint8), r"shape \(52,\)"),
    ("g" * 52, "one text"),
    (["g" * 52, "x" * 52], "'x' at position 1 is not a tile kind"),
    ([[0] * 52, [0] * 51], "kind indices"),
    (object(), "kind indices"),
])
def test_bad_kinds_for_a_batch(lex, kinds, match):
    with pytest.raises(InvalidBoardError, match=match):
        solve_many(ZEROS, lex, kinds=kinds)


def test_kind_texts_for_a_batch(lex):
    codes = random_codes(2, lexicon=lex, seed=5)
    texts = ["g" + "." * 51, "." * 51 + "d"]
    want = np.zeros((2, 52), dtype=np.uint8)
    want[0, 0], want[1, 51] = 1, 4
    got = solve_many(codes, lex, kinds=texts)
    assert np.array_equal(got.scores, solve_many(codes, lex, kinds=want).scores)


@pytest.mark.parametrize("codes,match", [
    (np.zeros((2, 52), dtype=np.float32), "dtype float32"),
    (np.zeros((2, 52), dtype=bool), "dtype bool"),
    (np.zeros((2, 2, 52), dtype=np.uint8), r"shape \(2, 2, 52\)"),
    (np.zeros(52, dtype=np.uint8), r"shape \(52,\)"),
    (np.full((1, 52), -1), "code -1"),
    (np.full((1, 52), 2 ** 40), "code 1099511627776"),
    ([[0] * 52, [0] * 50], "tile codes"),
    ("abc", "one text"),
    ([None] * 52, "dtype object"),
])
def test_bad_batch_codes(lex, codes, match):
    with pytest.raises(InvalidBoardError, match=match):
        solve_many(codes, lex)
    with pytest.raises(InvalidBoardError):
        from numba_words.bookworm import boggle_scores
        boggle_scores(codes, lex, grid=BOOKWORM)


def test_bad_single_board_codes(lex):
    with pytest.raises(InvalidBoardError, match=r"shape \(1, 52\)"):
        solve(np.zeros((1, 52), dtype=np.uint8), lex)
    with pytest.raises(InvalidBoardError, match="dtype"):
        solve(np.zeros(52, dtype=np.float64), lex)
    with pytest.raises(InvalidBoardError, match="kind"):
        solve(np.zeros(52, dtype=np.uint8), lex, kinds=[0.5] * 52)
    with pytest.raises(InvalidBoardError, match="kind"):
        solve(np.zeros(52, dtype=np.uint8), lex, kinds=[True] * 52)
    abc = type(lex).load(["ABBA", "BAAB", "ABC"], alphabet="ABC")
    with pytest.raises(InvalidBoardError, match="no Qu tile"):
        solve(np.full(16, T.QU, dtype=np.uint8), abc, grid=BOGGLE4)
    with pytest.raises(InvalidBoardError, match="'q' is not a letter"):
        solve("qabc abca bcab cabc", abc, grid=BOGGLE4)


@pytest.mark.parametrize("kw,match", [
    (dict(chunk=0), "chunk"), (dict(chunk=2.5), "chunk"), (dict(level=-1), "level"),
    (dict(threads=0.5), "threads"), (dict(grid=object()), "grid"), (dict(scoring="x"), "scoring"),
])
def test_bad_batch_parameters(lex, kw, match):
    from numba_words.errors import NumbaWordsError

    with pytest.raises(NumbaWordsError, match=match):
        solve_many(ZEROS, lex, **kw)


def test_boggle_text_and_qu(lex):
    sol = solve("qiet anrs dlme okgt", lex, grid=BOGGLE4)
    assert "quiet" in sol.words and "quire" in sol.words
    f = [x for x in sol if x.word == "quiet"][0]
    assert f.path[0] == 0


@pytest.mark.slow
@pytest.mark.parametrize("grid,n", [(BOOKWORM, 1000), (BOGGLE4, 1500)])
def test_many_random_boards_match_reference(lex, ref, grid, n):
    codes = random_codes(n, grid=grid, lexicon=lex, seed=1234)
    batch = solve_many(codes, lex, grid=grid)
    for b in range(n):
        letters, nbrs = _letters(grid, board_text(codes[b], grid, lex))
        assert sorted(batch[b].words) == sorted(ref.solve(letters, nbrs))


@pytest.mark.parametrize("grid", [BOOKWORM, BOGGLE4])
def test_packed_layouts_agree(lex, grid):
    """The search gives the same words whether the rank steps ride in the packed edges or in ``acc2``."""
    t = T.tables(lex)
    q, u = t.q, t.u
    narrow = (t.pk, t.acc2, t.lay)
    wide = T.pack_dawg(t.dawg, t.acc, len(lex.alphabet.letters), True)
    assert narrow[2][4] < 64 and wide[2][4] == 64
    codes = random_codes(30, grid=grid, lexicon=lex, seed=21)
    kinds = np.zeros(codes.shape, dtype=np.uint8)
    lbit, lval, kbonus = T.code_tables(lex, BOOKWORM_DELUXE)
    got = []
    for pk, acc2, lay in (narrow, wide):
        counts = np.zeros(30, dtype=np.int64)
        buf = (np.empty(30 * 600, np.int32), np.empty((30 * 600, 12), np.int8), np.empty(30 * 600, np.int8),
               np.empty(30 * 600, np.int64))
        seen, idx = S.dedup_scratch(lex, 1)
        bn, end, status = K.run_boards(pk, acc2, lay, grid.masks, codes, kinds, lbit, lval, kbonus, q, u, 3, 12, 1,
                                       10, 0, 30, 0, 30 * 600, 2047, counts, *buf, seen[0], idx[0], 10 ** 9)
        assert not seen.any()
        assert bn == 30 and status == 0
        got.append((counts, buf[0][:end], buf[3][:end]))
    for a, b in zip(*got):
        assert np.array_equal(a, b)
    assert np.array_equal(got[0][0], solve_many(codes, lex, grid=grid).counts)


@pytest.fixture(scope="module")
def ref_all(lex):
    return Reference(lex.words, 3, lex.max_len)  # every length: score-only mode counts long words too


@pytest.mark.parametrize("grid,n,min_len", [(BOGGLE4, 400, 3), (BOGGLE5, 150, 4), (BOGGLE5, 60, 3)])
def test_boggle_scores_match_reference(lex, ref_all, grid, n, min_len):
    """Score-only mode: per board the Boggle points of the reference's distinct words, scored in Python."""
    from numba_words.bookworm import boggle_scores

    def points(w):  # standard Boggle: 3-4 letters 1, 5 -> 2, 6 -> 3, 7 -> 5, 8+ -> 11 (Qu counts 2)
        return {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}.get(len(w), 11 if len(w) >= 8 else 0)

    codes = random_codes(n, grid=grid, lexicon=lex, seed=100 + n + min_len)
    assert (codes == T.QU).any(), "the sample should include Qu tiles"
    got = boggle_scores(codes, lex, grid=grid, min_len=min_len)
    assert got.dtype == np.int64 and got.shape == (n,)
    assert np.array_equal(got, boggle_scores(codes, lex, grid=grid, min_len=min_len, threads=1))
    assert np.array_equal(got, boggle_scores(codes, lex, grid=grid, min_len=min_len, chunk=7))
    for b in range(n):
        letters, nbrs = _letters(grid, board_text(codes[b], grid, lex))
        want = sum(points(w) for w in ref_all.solve(letters, nbrs) if len(w) >= min_len)
        assert got[b] == want, board_text(codes[b], grid, lex)


def test_boggle_scores_agree_with_word_lists(lex):
    from numba_words.bookworm import boggle_scores
    from numba_words.bookworm import boggle_points

    codes = random_codes(200, grid=BOGGLE4, lexicon=lex, seed=77)
    batch = solve_many(codes, lex, grid=BOGGLE4, max_len=16)
    lens = batch.letters()
    want = [sum(boggle_points(n) for n in lens[batch.offsets[b]:batch.offsets[b + 1]]) for b in range(200)]
    assert np.array_equal(boggle_scores(codes, lex), want)
    text = "qiet anrs dlme okgt"
    words = solve(text, lex, grid=BOGGLE4, max_len=16).words
    assert boggle_scores([text], lex)[0] == sum(boggle_points(len(w)) for w in words) > 0
    with pytest.raises(InvalidParameterError, match="exceeds"):
        boggle_scores(codes, lex, max_len=40)


def test_solution_api(lex, monkeypatch):
    import sys
    import types

    sol = solve("nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy", lex)
    top = sol.top(5)
    assert isinstance(top, list) and len(top) == 5 and sol.best() == top[0] and sol.top(0) == []
    assert [f.score for f in sol.top()] == sorted(sol.scores, reverse=True) and len(sol.top()) == len(sol)
    want = sorted(sol, key=lambda f: (-f.score, -len(f.word), f.word))
    assert sol.top() == want
    recs = sol.to_records(3)
    assert recs[0] == {"word": "squills", "score": 1190, "path": list(top[0].path), "length": 7}
    assert [r["word"] for r in sol.to_records()] == [f.word for f in want]
    empty = solve("xxxxxxx xxxxxxxx xxxxxxx xxxxxxxx xxxxxxx xxxxxxxx xxxxxxx", lex)
    assert empty.best() is None and empty.top(3) == [] and empty.to_records() == []

    monkeypatch.setitem(sys.modules, "pandas", None)  # pandas missing: a clear ImportError
    with pytest.raises(ImportError, match="needs pandas"):
        sol.to_pandas()
    fake = types.ModuleType("pandas")
    fake.DataFrame = types.SimpleNamespace(from_records=lambda rows, columns: (rows, columns))
    monkeypatch.setitem(sys.modules, "pandas", fake)
    rows, cols = sol.to_pandas(2)
    assert cols == ["word", "score", "path", "length"] and rows == sol.to_records(2)


A_BOARD = " ".join(["aaaaaaa", "aaaaaaaa"] * 3 + ["aaaaaaa"])


@pytest.fixture(scope="module")
def one_letter():
    """An adversarial lexicon: one 14-letter word of one letter. On a board of that letter every path is a
    prefix, so the paths grow exponentially with max_len (about 10^10 at 12 letters on the Bookworm board)."""
    return type(default_lexicon()).load(["A" * 14], name="a14")


def test_adversarial_lexicon_is_bounded(one_letter):
    from numba_words.bookworm import boggle_scores
    from numba_words.bookworm.errors import SearchLimitError

    with pytest.raises(SearchLimitError, match=r"board 0: the search passed max_nodes=20,000,000 paths"):
        solve(A_BOARD, one_letter)  # the default budget: about half a second of search
    with pytest.raises(SearchLimitError, match="max_nodes=1,000"):
        solve(A_BOARD, one_letter, max_nodes=1000, parallel=True)
    codes = np.stack([T.parse_text(A_BOARD, BOOKWORM, one_letter)] * 3)
    codes[:2] = T.HOLE  # boards 0 and 1 empty, board 2 all 'a'
    for threads in (1, None):
        with pytest.raises(SearchLimitError, match="board 2:"):
            solve_many(codes, one_letter, max_nodes=10 ** 5, threads=threads, chunk=2)
        with pytest.raises(SearchLimitError, match="board 2:"):
            boggle_scores(codes, one_letter, grid=BOOKWORM, max_nodes=10 ** 5, threads=threads, chunk=2)
    # the budget is per board and leaves the scratch clean: the same call with room gives the truth
    small = solve("aaaa aaaa aaaa aaaa", one_letter, grid=BOGGLE4, max_len=16)
    assert small.words == ["a" * 14]
    assert boggle_scores(["aaaa aaaa aaaa aaaa"], one_letter, max_len=16)[0] == 11


def test_boggle_grids_score_boggle_points(lex):
    """On a Boggle grid words score Boggle points by default (solve, solve_many, Position)."""
    from numba_words.bookworm import BOGGLE_SCORING, BogglePoints, Position, boggle_points

    text = "qiet anrs dlme okgt"
    sol = solve(text, lex, grid=BOGGLE4)
    assert sol.scoring is BOGGLE_SCORING
    assert [f.score for f in sol] == [boggle_points(len(f.word)) for f in sol]
    assert sol.best().score == max(boggle_points(len(w)) for w in sol.words)
    codes = random_codes(20, grid=BOGGLE4, lexicon=lex, seed=8)
    batch = solve_many(codes, lex, grid=BOGGLE4, max_len=16)
    assert np.array_equal(batch.scores, [boggle_points(n) for n in batch.letters()])
    from numba_words.bookworm import boggle_scores
    assert np.array_equal([s.scores.sum() for s in batch], boggle_scores(codes, lex))
    p = Position(text, grid=BOGGLE4)
    assert p.best() == sol.best() and p.score_path(p.best().path) == p.best().score
    bw = solve(text, lex, grid=BOGGLE4, scoring=BOOKWORM_DELUXE)  # Bookworm scores still on request
    assert bw.words == sol.words and (bw.scores > sol.scores).all()
    double = solve(text, lex, grid=BOGGLE4, scoring=BogglePoints("double", tuple(2 * x for x in T.BOGGLE_POINTS)))
    assert np.array_equal(double.scores, 2 * sol.scores)
    assert solve(TEXT_BW, lex).scoring is BOOKWORM_DELUXE


TEXT_BW = "nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy"


def test_batch_best_and_records_match_each_board(lex):
    codes = random_codes(60, lexicon=lex, seed=12)
    codes[7] = T.HOLE  # a board with no words
    batch = solve_many(codes, lex)
    best = batch.best()
    assert best[7] is None and batch.best_rows()[7] == -1
    for b in range(60):
        assert best[b] == batch[b].best()
    rows, boards, ranks = batch.top_rows(3)
    recs = batch.to_records(3)
    assert len(recs) == len(rows) == sum(min(3, c) for c in batch.counts)
    for b in range(60):
        mine = [r for r in recs if r["board"] == b]
        assert [(r["word"], r["score"], tuple(r["path"])) for r in mine] == \
            [(f.word, f.score, f.path) for f in batch[b].top(3)]
        assert [r["rank"] for r in mine] == list(range(1, len(mine) + 1))
    assert len(batch.to_records(0)) == batch.total_words == len(batch.to_records(None))
    with pytest.raises(InvalidParameterError):
        batch.top_rows(-1)
