"""The four TWL06 reference positions (two independent engines agree on every placement and score), and
self-play midgame positions re-validated play by play in plain Python."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from numba_words.lexicon import Lexicon
from numba_words.scrabble import Position, play_game

REF = Path(__file__).resolve().parent / "data" / "scrabble"  # copied from the shared reference set


def _positions():
    return [json.loads(line) for line in (REF / "positions.jsonl").read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def twl():
    return Lexicon.load("twl06")


@pytest.mark.parametrize("ref", _positions(), ids=lambda r: f"p{r['id']:02d}")
def test_reference_position_exact(ref, twl):
    pos = Position.from_cgp(ref["cgp"], lexicon=twl)
    assert pos.rack == "".join(sorted(ref["rack"].replace("?", ""))) + "?" * ref["rack"].count("?")
    plays = pos.legal_plays()
    got = [str(p) for p in plays]
    with gzip.open(REF / f"p{ref['id']:02d}.txt.gz", "rt") as f:
        want = {line.strip() for line in f if line.strip()}
    assert len(got) == len(set(got)) == ref["n_placements"]
    assert set(got) == want, (sorted(want - set(got))[:10], sorted(set(got) - want)[:10])
    scores = plays.scores()
    assert scores.max() == ref["max_score"]
    assert scores.sum() == ref["sum_scores"]
    assert sum(p.tiles_used == 1 for p in plays) == ref["n_one_tile_placements"]
    assert len(pos.exchanges()) == ref["n_exchanges"]
    top = [str(p) for p in plays.top(10)]
    assert sorted(int(t.rsplit(" ", 1)[1]) for t in top) == sorted(int(t.rsplit(" ", 1)[1])
                                                                   for t in ref["top10_text"])
    assert top[0] in ref["top10_text"][:3] or int(top[0].rsplit(" ", 1)[1]) == ref["max_score"]
    assert pos.best().score == ref["max_score"]
    assert str(pos.best()) == top[0]
    # round trip: every listed play parses back to itself
    for p in list(plays)[:: max(1, len(plays) // 50)]:
        assert pos.parse_play(p.notation) == p


def _validate(pos, words, play):
    """Independent re-check of one play: contiguity, connection, words in the lexicon, score."""
    L, B = pos.board.letters, pos.board.blanks
    v = pos.variant
    lm, wm = v.letter_mult(), v.word_mult()
    new = {(r, c): (ch, bl) for r, c, ch, bl in play.placed}
    rows = {r for r, _ in new}
    cols = {c for _, c in new}
    assert len(rows) == 1 or len(cols) == 1
    empty_board = (L == 255).all()

    def tile(r, c):
        if (r, c) in new:
            return new[(r, c)][0], new[(r, c)][1], True
        if 0 <= r < 15 and 0 <= c < 15 and L[r, c] != 255:
            return pos.alphabet[L[r, c]], bool(B[r, c]), False
        return None

    def run(r, c, dr, dc):
        while tile(r - dr, c - dc):
            r, c = r - dr, c - dc
        out = []
        while tile(r, c):
            out.append((r, c) + tile(r, c))
            r, c = r + dr, c + dc
        return out

    def score(cells):
        s, m = 0, 1
        for r, c, ch, bl, isnew in cells:
            x = 0 if bl else v.values[ch]
            if isnew:
                x *= lm[r, c]
                m *= wm[r, c]
            s += x
        return s * m

    dr, dc = (1, 0) if play.direction == "down" else (0, 1)
    r0, c0 = next(iter(new))
    main = run(r0, c0, dr, dc)
    assert len(main) >= 2
    assert all((r, c) in {(x[0], x[1]) for x in main} for r, c in new)  # contiguous
    if empty_board:
        assert (7, 7) in new
    else:
        assert any(0 <= r + a < 15 and 0 <= c + b < 15 and L[r + a, c + b] != 255
                   for r, c in new for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    total = 0
    for cells in [main] + [run(r, c, dc, dr) for r, c in new]:
        if len(cells) < 2:
            continue
        assert "".join(x[2] for x in cells) in words
        total += score(cells)
    if len(new) == v.rack_size:
        total += v.bingo
    assert total == play.score, play


@pytest.mark.parametrize("seed", [1, 2])
def test_self_play_positions_revalidated(seed, twl):
    words = set(twl.words)
    g = play_game(seed, lexicon=twl, max_turns=24)
    checked = 0
    for k in range(len(g.moves) - 1, -1, -1):
        if k % 3 == 0:
            pos = g.position
            plays = pos.legal_plays()
            for p in plays:
                _validate(pos, words, p)
            if plays:
                assert str(pos.best()) == str(plays.best())
            keys = [tuple(sorted(p.placed)) for p in plays]
            assert len(keys) == len(set(keys))
            checked += len(plays)
        g.undo()
    assert checked > 100


def test_stored_benchmark_positions_match_the_recipe(twl):
    from numba_words.scrabble.bench import load_positions, midgame_positions

    stored = load_positions(twl)
    assert len(stored) == 40
    assert [p.cgp() for p in stored] == [p.cgp() for p in midgame_positions(twl, 8)]


def test_multiset_filter_holds_every_word():
    """The whole-rack filter's bit set: every word's letter multiset and each one-short sub-multiset has its
    bit set under its length tag (no false negative: the filter may never drop a play); multisets of no word
    rarely do (its false positives only cost time)."""
    import itertools
    import random

    import numpy as np

    from numba_words.scrabble._tables import mset_has, mset_table

    rng = random.Random(5)
    letters = "ABCDE"
    words = sorted({"".join(rng.choice(letters) for _ in range(rng.choice((2, 3, 5, 7, 7, 8, 9, 11, 12, 15))))
                    for _ in range(300)})
    lex = Lexicon.from_words(words, alphabet=letters)
    tab = mset_table(lex)

    want = set()
    for w in words:
        want.add((len(w), 0, "".join(sorted(w))))
        for j in range(len(w)):
            want.add((len(w), 1, "".join(sorted(w[:j] + w[j + 1:]))))
    false_pos = others = 0
    for n in (2, 3, 7, 8, 12, 15):
        for short in (0, 1):
            for combo in itertools.combinations_with_replacement(letters, n - short):
                s = "".join(combo)
                has = mset_has(tab, key2(lex, s, short, n))
                if (n, short, s) in want:
                    assert has, (n, short, s)
                else:
                    others += 1
                    false_pos += has
    assert others > 1000 and false_pos <= others // 100
    # TWL06 scale: every word in, few others
    twl = Lexicon.load("twl06")
    t2 = mset_table(twl)
    for w in ("QUIXOTRY", "AA", "ZYZZYVAS", "RETAINS"):
        assert mset_has(t2, key2(twl, w, 0)), w
        assert mset_has(t2, key2(twl, w[1:], 1, len(w))), w
    fp = sum(bool(mset_has(t2, np.int64(rng.getrandbits(63)))) for _ in range(20000))
    assert fp < 20000 * 0.06


def key2(lex, s, short, n=None):
    """The filter's key of the letters ``s`` as a multiset of ``n``-letter words (``short``: one letter short)."""
    import numpy as np

    from numba_words.scrabble._tables import MSET_HASH, mset_tag

    k = sum(int(MSET_HASH[c]) for c in lex.alphabet.encode(s)) + int(mset_tag(n or len(s), short))
    return np.int64(np.uint64(k % (1 << 64)).astype(np.int64))


def test_two_short_filter_holds_every_word():
    """Every word's sub-multisets two letters short are in the two-short bit set (a rack with two blanks is
    never dropped while its tiles + two letters spell a word); multisets of no word rarely are."""
    import itertools
    import random

    from numba_words.scrabble._tables import mset2_has, mset_table

    rng = random.Random(11)
    letters = "ABCDE"
    words = sorted({"".join(rng.choice(letters) for _ in range(rng.choice((2, 3, 4, 7, 8, 9, 15))))
                    for _ in range(300)})
    lex = Lexicon.from_words(words, alphabet=letters)
    tab = mset_table(lex)
    want = set()
    for w in words:
        for j, k in itertools.combinations(range(len(w)), 2):
            want.add((len(w), "".join(sorted(w[:j] + w[j + 1:k] + w[k + 1:]))))
    false_pos = others = 0
    for n in (2, 3, 4, 8, 9):
        for combo in itertools.combinations_with_replacement(letters, n - 2):
            s = "".join(combo)
            has = mset2_has(tab, key2(lex, s, 1, n))
            if (n, s) in want:
                assert has, (n, s)
            else:
                others += 1
                false_pos += has
    assert others > 100 and false_pos <= others // 20


def test_best_play_on_bingo_racks(twl):
    """best() (bounds, bingo filter, pruned walk) is the first of the sorted full list on the stored
    benchmark positions, with their racks and with racks that bingo (with and without a blank: a bag with
    more tiles of each kind, same board and scores, so that every such rack fits beside the board's tiles)."""
    import dataclasses

    from numba_words.scrabble import SCRABBLE
    from numba_words.scrabble.bench import benchmark_positions

    roomy = dataclasses.replace(SCRABBLE, name="scrabble-roomy", counts={k: 2 * n for k, n in SCRABBLE.counts.items()},
                                blanks=4, _arrays={})
    checked = 0
    for k, pos in enumerate(benchmark_positions(twl)):
        for rack in (pos.rack, ("RETAINS", "AEINST?", "SATIRE?", "EIRSTU?")[k % 4]):
            p = Position.from_cgp(pos.cgp(), roomy, lexicon=twl)
            p.rack = rack
            plays = p.legal_plays()
            if plays:
                assert str(p.best()) == str(plays.best()), (p.cgp(), rack)
                checked += plays.best().tiles_used == 7
    assert checked >= 10  # bingos among the best plays
