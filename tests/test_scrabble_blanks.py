"""Blank-heavy racks (two blanks): every play and score against the plain-Python brute force on random small
positions, the best-only search against the maximum of the full list, and the representative TWL06 set
against its recorded counts (the same placements, exchanges and score sums as MAGPIE's generator)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from numba_words.lexicon import Lexicon
from numba_words.scrabble import SCRABBLE, WORDFEUD, WORDS_WITH_FRIENDS, Position
from numba_words.scrabble.position import sort_rack

from test_scrabble_bruteforce import ALPHA, check, random_lexicon, small_variant

DATA = Path(__file__).resolve().parent.parent / "data" / "scrabble"


def two_blank_positions(seed, n):
    """Random small positions reached by legal plays, each with a rack of two blanks and 1..3 letters (the
    variant's rack size is the rack's, so using every tile is a bingo)."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        base = (SCRABBLE, WORDS_WITH_FRIENDS, WORDFEUD)[k % 3]
        letters = rng.randrange(1, 4)
        v = small_variant(base, rack_size=letters + 2)
        words = random_lexicon(rng, rng.choice((40, 80, 160)))
        lex = Lexicon.from_words(words, alphabet=ALPHA)
        pos = Position(v, lex)
        for _ in range(rng.randrange(0, 6)):
            pos.rack = "".join(rng.choice(ALPHA) for _ in range(v.rack_size - 1)) + "?"
            plays = pos.legal_plays()
            if plays:
                play = plays[rng.randrange(len(plays))]
                pl = play.placed
                pos.board.place([q[0] for q in pl], [q[1] for q in pl], [pos.alphabet.index(q[2]) for q in pl],
                                [q[3] for q in pl])
        pos.rack = "".join(rng.choice(ALPHA) for _ in range(letters)) + "??"
        out.append((pos, set(words)))
    return out


@pytest.mark.parametrize("seed", range(2))
def test_two_blank_racks_match_bruteforce(seed):
    """Every placement and score (and the best play, from the pruned search) equals the brute force's."""
    total = 0
    for pos, words in two_blank_positions(200 + seed, 16):
        assert pos.rack.count("?") == 2
        total += check(pos, words)
    assert total > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 4))
def test_two_blank_racks_match_bruteforce_more(seed):
    for pos, words in two_blank_positions(200 + seed, 30):
        check(pos, words)


def _bench_positions(twl):
    lines = [x for x in (DATA / "twl06_bench.cgp").read_text().splitlines() if x.strip()]
    recs = [json.loads(x) for x in (DATA / "positions.jsonl").read_text().splitlines() if x.strip()]
    assert len(lines) == len(recs)
    return [(Position.from_cgp(c, lexicon=twl), r) for c, r in zip(lines, recs)]


def test_representative_set_matches_its_records(twl):
    """All plays of the 62 TWL06 positions (a third of the racks with blanks, some with two): the counts and
    score sums recorded beside the set, which MAGPIE's generator reproduces; best play = top of the list."""
    kinds = set()
    for pos, r in _bench_positions(twl):
        plays = pos.legal_plays()
        assert len(plays) == r["n_placements"], pos.cgp()
        assert int(plays.scores().sum()) == r["sum_scores"], pos.cgp()
        assert len(pos.exchanges()) == r["n_exchanges"], pos.cgp()
        assert str(pos.best()) == str(plays.best()) == r["best"], pos.cgp()
        kinds.add((r["kind"], r["blanks"]))
    assert ("midgame", 2) in kinds and ("empty", 2) in kinds and ("endgame", 0) in kinds


def test_two_blank_best_equals_full_list_on_twl06_boards(twl):
    """The best-only search (whole-rack filter, heap of ends) against the sorted full list, on the set's boards
    with random two-blank racks (a bag with more tiles of each kind, so that any such rack fits)."""
    import dataclasses

    roomy = dataclasses.replace(SCRABBLE, name="scrabble-roomy", counts={k: 2 * n for k, n in SCRABBLE.counts.items()},
                                blanks=4, _arrays={})
    bag = [t for t, n in SCRABBLE.counts.items() for _ in range(n)]
    rng = random.Random(11)
    checked = bingos = 0
    for pos, _ in _bench_positions(twl):
        for _ in range(2):
            p = Position.from_cgp(pos.cgp(), roomy, lexicon=twl)
            p.rack = sort_rack("".join(rng.sample(bag, 5)) + "??")
            plays = p.legal_plays()
            assert str(p.best()) == str(plays.best()), (p.cgp(), p.rack)
            checked += 1
            bingos += bool(plays) and plays.best().tiles_used == 7
    assert checked >= 100 and bingos >= 30
