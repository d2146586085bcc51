"""The kernel generator against the plain-Python brute force (numba_words.scrabble._reference) on random
positions with small lexicons and racks (blanks included), plus hand-made scoring cases."""
from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from numba_words.lexicon import Lexicon
from numba_words.scrabble import SCRABBLE, WORDFEUD, WORDS_WITH_FRIENDS, Position, generate_batch
from numba_words.scrabble._reference import reference_plays
from numba_words.scrabble.bench import reference_board

ALPHA = "ABCDEF"


def small_variant(base, rack_size, alphabet=ALPHA):
    values = {ch: base.values.get(ch, 1) for ch in alphabet}
    values["E"] = 0 if "E" in alphabet and base is WORDFEUD else values.get("E", 1)  # a zero-valued letter too
    counts = {ch: 60 for ch in alphabet}  # room for the scattered boards' tiles
    return dataclasses.replace(base, name=f"{base.name}-small", values=values, counts=counts, blanks=30,
                               rack_size=rack_size, alphabet=alphabet, _arrays={})


def random_lexicon(rng, n_words, alphabet=ALPHA):
    words = set()
    while len(words) < n_words:
        n = rng.choice((2, 2, 3, 3, 3, 4, 4, 5, 6))
        words.add("".join(rng.choice(alphabet[:5] if rng.random() < 0.8 else alphabet) for _ in range(n)))
    return sorted(words)


def random_rack(rng, alphabet, n):
    return "".join("?" if rng.random() < 0.15 else rng.choice(alphabet) for _ in range(n))


def check(pos, words):
    v = pos.variant
    ref = reference_plays(reference_board(pos), pos.rack, words, values=v.values, layout=v.layout, alphabet=pos.alphabet,
                          bingo=v.bingo, rack_size=v.rack_size, centre_word_mult=v.centre_word_mult)
    got = [str(p) for p in pos.legal_plays()]
    assert len(got) == len(set(got)), "duplicate plays"
    if set(got) != ref:
        missing = sorted(ref - set(got))[:10]
        extra = sorted(set(got) - ref)[:10]
        raise AssertionError(f"{pos.cgp()} rack {pos.rack}: missing {missing} extra {extra}")
    best = pos.best()  # the pruned best-only kernel
    if got:
        assert best is not None and best.score == max(p.score for p in pos.legal_plays())
        assert str(best) == str(pos.legal_plays().best())  # same tie-breaking as the sorted full list
    else:
        assert best is None
    return len(got)


def make_positions(seed, n_positions, scatter=False):
    """Positions reached by random legal plays (or random scattered tiles), with random racks."""
    rng = random.Random(seed)
    out = []
    for k in range(n_positions):
        base = (SCRABBLE, WORDS_WITH_FRIENDS, WORDFEUD)[k % 3]
        rack_n = rng.choice((1, 2, 3, 3, 4, 4))
        v = small_variant(base, rack_size=rack_n if rng.random() < 0.5 else 7)
        words = random_lexicon(rng, rng.choice((30, 60, 120)))
        lex = Lexicon.from_words(words, alphabet=ALPHA)
        pos = Position(v, lex)
        if scatter:
            for _ in range(rng.randrange(1, 40)):
                r, c = rng.randrange(15), rng.randrange(15)
                if pos.board.letters[r, c] == 255:
                    pos.board.place([r], [c], [rng.randrange(len(ALPHA))], [rng.random() < 0.1])
        else:
            for _ in range(rng.randrange(0, 6)):
                pos.rack = random_rack(rng, ALPHA, 7 if v.rack_size == 7 else v.rack_size)
                plays = pos.legal_plays()
                if not plays:
                    continue
                play = plays[rng.randrange(len(plays))]
                placed = play.placed
                pos.board.place([q[0] for q in placed], [q[1] for q in placed],
                                [pos.alphabet.index(q[2]) for q in placed], [q[3] for q in placed])
        pos.rack = random_rack(rng, ALPHA, rack_n)
        out.append((pos, set(words)))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_random_positions_match_bruteforce(seed):
    total = 0
    for pos, words in make_positions(seed, 60):
        total += check(pos, words)
    assert total > 0


@pytest.mark.parametrize("seed", range(2))
def test_scattered_tiles_match_bruteforce(seed):
    """Arbitrary boards (existing 'words' need not be valid): the generator must still be exact."""
    for pos, words in make_positions(100 + seed, 60, scatter=True):
        check(pos, words)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 13))
def test_random_positions_match_bruteforce_more(seed):
    for pos, words in make_positions(seed, 100, scatter=seed % 2 == 1):
        check(pos, words)


def test_batch_equals_single():
    items = make_positions(7, 30)
    # one variant and lexicon per batch: group by object identity
    pos0 = items[0][0]
    same = [p for p, _ in items if p.variant is pos0.variant and p.lexicon is pos0.lexicon] or [pos0]
    boards = [p.board for p in same]
    racks = [p._rack_arrays() for p in same]
    for p, arr in zip(same, generate_batch(boards, racks, cap=16)):
        np.testing.assert_array_equal(arr, p.legal_plays().array)


# ---------------------------------------------------------------------- hand-made scoring cases
WORDS = ["AT", "TA", "CAT", "CATS", "AS", "SAT", "TAS", "ACT", "ACTS", "SCAT", "CAST", "CASTS", "QI", "XI", "AX",
         "TAX", "ZA", "ZAS", "QAT", "QATS", "ATS", "ASS", "BASS", "BAT", "BATS", "TAB", "TABS", "ABS", "XIS",
         "ZATIS", "EXTRA", "TAXIS", "RETAXIS", "TAXERS", "ARETES", "STARE", "ASTER", "RATES", "TEARS", "XERISTA"]


def pos_with(rows, rack, variant=SCRABBLE):
    """A Scrabble position from {(row, col): 'LETTER' or 'l' for a blank} squares (0-based)."""
    lex = Lexicon.from_words(WORDS + ["QIS"], alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    p = Position(variant, lex)
    for (r, c), ch in rows.items():
        p.board.place([r], [c], [p.alphabet.index(ch.upper())], [ch.islower()])
    p.rack = rack
    return p


def scores_of(pos):
    return {str(p).rsplit(" ", 1)[0]: p.score for p in pos.legal_plays()}


def test_first_play_centre_double_word_and_double_letter():
    s = scores_of(pos_with({}, "CAT"))
    assert s["8H CAT"] == (3 + 1 + 1) * 2
    assert s["8F CAT"] == (3 + 1 + 1) * 2
    assert not any(k.startswith("H") for k in s)  # empty board: across plays only
    s = scores_of(pos_with({}, "EXTRA"))
    assert s["8D EXTRA"] == (1 * 2 + 8 + 1 + 1 + 1) * 2  # E on the D8 double letter
    assert s["8E EXTRA"] == (1 + 8 + 1 + 1 + 1) * 2
    assert s["8H EXTRA"] == (1 + 8 + 1 + 1 + 1 * 2) * 2  # A on L8


def test_blank_scores_zero_but_takes_word_multiplier():
    s = scores_of(pos_with({}, "?XTRA"))
    assert s["8D eXTRA"] == (0 + 8 + 1 + 1 + 1) * 2  # blank on the double letter: still 0
    assert s["8H eXTRA"] == (0 + 8 + 1 + 1 + 2) * 2
    s = scores_of(pos_with({}, "EXTR?"))
    assert s["8D EXTRa"] == (2 + 8 + 1 + 1 + 0) * 2  # blank on the centre: word still doubled
    # a blank already on the board scores 0 too, and is shown in lower case inside the parentheses
    s = scores_of(pos_with({(7, 6): "a", (7, 8): "T"}, "CS"))
    assert s["8F C(a)S(T)"] == (3 + 0 + 1 + 1) * 2


def test_premiums_on_main_and_cross_word():
    # A on E5 (double word) forms ZA across and AX down: both words doubled, one play
    s = scores_of(pos_with({(4, 3): "Z", (5, 4): "X"}, "A"))
    assert s["5D (Z)A"] == (10 + 1) * 2 + (1 + 8) * 2
    assert "E5 A(X)" not in s
    # cross word XA is not a word: no play
    assert "5D (Z)A" not in scores_of(pos_with({(4, 3): "Z", (3, 4): "X"}, "A"))
    # X on F6 (triple letter) before an I
    assert scores_of(pos_with({(5, 6): "I"}, "X"))["6F X(I)"] == 8 * 3 + 1
    # Z on A8 (triple word) forms ZA across and ZA down: each tripled
    assert scores_of(pos_with({(7, 1): "A", (8, 0): "A"}, "Z"))["8A Z(A)"] == (10 + 1) * 3 * 2
    # premiums only under new tiles: the same squares already covered count face value
    s = scores_of(pos_with({(7, 0): "Z", (7, 1): "A"}, "S"))
    assert s["8A (ZA)S"] == 10 + 1 + 1


def test_one_tile_play_listed_once():
    p = pos_with({(4, 3): "Z", (5, 4): "X"}, "A")
    keys = [tuple(sorted(q.placed)) for q in p.legal_plays()]
    assert len(keys) == len(set(keys))
    # a tile forming only a down word is listed down
    s = scores_of(pos_with({(6, 7): "Q"}, "I"))
    assert s == {"H7 (Q)I": (10 + 1) * 2, "7H (Q)I": 10 + 1 * 2}  # centre double word; I7 double letter
    s = scores_of(pos_with({(7, 6): "Q"}, "I"))
    assert s == {"8G (Q)I": (10 + 1) * 2, "G8 (Q)I": 10 + 1 * 2}


def test_bingo_and_board_edges():
    s = scores_of(pos_with({}, "RETAXIS"))
    assert s["8H RETAXIS"] == (1 + 1 + 1 + 1 + 8 * 2 + 1 + 1) * 2 + 50
    assert s["8B RETAXIS"] == (1 + 1 + 2 + 1 + 8 + 1 + 1) * 2 + 50
    best = pos_with({}, "RETAXIS").best()
    assert best.tiles_used == 7 and best.score == max(s.values())
    s = scores_of(pos_with({(14, 13): "A"}, "TX"))
    assert s["15N (A)X"] == (1 + 8) * 3  # X on the O15 triple word
    assert s["15M T(A)X"] == (1 + 1 + 8) * 3
    s = scores_of(pos_with({(13, 14): "A"}, "TX"))
    assert s["O14 (A)X"] == (1 + 8) * 3


def test_play_through_several_tiles():
    s = scores_of(pos_with({(7, 6): "A", (7, 8): "T"}, "CSS"))
    assert s["8F C(A)S(T)"] == (3 + 1 + 1 + 1) * 2
    assert s["8F C(A)S(T)S"] == (3 + 1 + 1 + 1 + 1) * 2


@pytest.mark.parametrize("variant", [SCRABBLE, WORDS_WITH_FRIENDS, WORDFEUD], ids=lambda v: v.name)
def test_variant_scores_match_reference(variant):
    p = pos_with({(7, 6): "A", (6, 8): "T", (8, 8): "S"}, "TAXI?", variant=variant)
    words = set(WORDS + ["QIS"])
    check(p, words)
    assert any(q.tiles_used == 7 for q in pos_with({}, "RETAXIS", variant=variant).legal_plays())


@pytest.mark.parametrize("rack", ["AEINRST", "QUIZ", "EEIRS?", "DHPTU??", "?"])
def test_prefix_trie_is_every_spellable_prefix(twl, twl_words, rack):
    """The all-plays walk's prefix trie (:func:`_movegen._prefix_trie`) holds exactly the word prefixes of at most
    ``depth`` letters the rack can spell (blanks as any letter), and each node's reach masks are the letters that
    can follow its prefix ``k`` squares on within the trie: checked against plain Python over the word list."""
    from collections import Counter

    from numba_words.scrabble import _movegen

    depth = 4
    alpha = twl.alphabet.letters
    counts = np.zeros(32, np.int64)
    for ch in rack.replace("?", ""):
        counts[alpha.index(ch)] += 1
    nb = rack.count("?")
    real = Counter(rack.replace("?", ""))

    def spellable(s):
        return sum(max(0, n - real[c]) for c, n in Counter(s).items()) <= nb

    prefixes = {w[:j] for w in twl_words for j in range(1, min(len(w), depth + 1) + 1)}
    nxt = {}  # a prefix -> the letters that follow it in some word
    for p in prefixes:
        nxt.setdefault(p[:-1], set()).add(p[-1])
    want = {p for p in prefixes if len(p) <= depth and spellable(p)}
    tri = _movegen._prefix_trie(twl.dawg, counts, np.int64(nb), np.int64(depth))
    got = {}
    stack = [(0, "")]
    while stack:
        t, s = stack.pop()
        got[s] = t
        kids = int(tri[t, 1])
        for r, c in enumerate(c for c in range(32) if kids >> c & 1):
            stack.append((int(tri[t, 2]) + r, s + alpha[c]))
    assert set(got) - {""} == want

    def follow(s, k):  # the letters k squares after s, through prefixes in the trie
        if k == 1:
            return nxt.get(s, set())
        return set().union(*(follow(s + c, k - 1) for c in nxt.get(s, ()) if s + c in got))

    for s, t in got.items():
        for k in range(1, depth - len(s) + 1):
            mask = sum(1 << alpha.index(ch) for ch in follow(s, k))
            assert int(tri[t, 2 + k]) == mask, (rack, s, k)
