"""Python API, formats, errors, variants (Norwegian end to end), cross-check updates, span table, threads."""
from __future__ import annotations

import threading
from collections import Counter

import numpy as np
import pytest

from numba_words.lexicon import Lexicon
from numba_words.scrabble import (SCRABBLE, WORDFEUD_NB, Game, IllegalPlayError, InvalidCgpError, InvalidGcgError,
                                  InvalidNotationError, InvalidRackError, Position, UnknownVariantError,
                                  generate_batch, get_variant, play_game, read_gcg)
from numba_words.scrabble import GcgWarning
from numba_words.scrabble import _cross
from numba_words.scrabble._tables import span_list, span_table
from numba_words.scrabble import BoardArrays

EMPTY_CGP = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACDINRT/ 0/0 0"
P05 = "15/15/15/15/15/7L7/7U7/5BUG7/5I9/5D9/5SH8/6E8/6S8/15/15 DEFHNQR/ 24/15 0"
P12 = ("15/15/15/15/14G/9D4O/6QUAI4A/FEN4NeRVY2L/1HUMATES1E1A2I/9R1W1OE/10EPICS/10DEFT1/11d1A1/13L1/15 "
       "ADLNNSY/ 174/139 0")


@pytest.fixture(scope="module")
def twl():
    return Lexicon.load("twl06")


def test_cgp_round_trip(twl):
    for cgp in (EMPTY_CGP, P05, P12):
        assert Position.from_cgp(cgp, lexicon=twl).cgp() == cgp
    p = Position.from_cgp(P05.replace("DEFHNQR/", "DEFHNQR/AEI"), lexicon=twl)
    assert p.opp_rack == "AEI" and p.scores == (24, 15)
    assert "DEFHNQR/AEI" in p.cgp()
    assert eval(repr(p), {"Position": Position}).cgp() == p.cgp()


@pytest.mark.parametrize("bad, msg", [
    ("15/15 A/ 0/0 0", "rows"),
    ("x", "1 field"),
    (EMPTY_CGP.replace("15/15/15", "15/8A7/15", 1), "covers 16"),
    (EMPTY_CGP.replace("15/15/15", "15/16/15", 1), "run '16'"),
    (EMPTY_CGP.replace("15/15/15", "15/14AB/15", 1), "covers 16"),
    (EMPTY_CGP.replace("15/15/15", "15/15ABC/15", 1), "covers 18"),
    (EMPTY_CGP.replace("15/15/15", "15/14/15", 1), "covers 14"),
    (EMPTY_CGP.replace("15/15/15", "15/7#7/15", 1), "'#'"),
    (EMPTY_CGP.replace("ACDINRT/", "ACDINRTX/"), "8 tiles"),
    (EMPTY_CGP.replace("ACDINRT/", "AC1/"), "'1'"),
    (EMPTY_CGP.replace("0/0 0", "0-0 0"), "scores"),
    (EMPTY_CGP.replace("0/0 0", "0/0 x"), "scoreless"),
    (EMPTY_CGP.replace(" ACDINRT/ ", " ACDINRT "), "racks"),
])
def test_malformed_cgp(bad, msg, twl):
    with pytest.raises(InvalidCgpError, match=msg):
        Position.from_cgp(bad, lexicon=twl)


def test_bad_racks_variants_and_notation(twl):
    p = Position.from_cgp(P05, lexicon=twl)
    with pytest.raises(InvalidRackError, match="8 tiles"):
        Position("scrabble", twl, rack="ABCDEFGH")
    with pytest.raises(InvalidRackError, match="'3'"):
        Position("scrabble", twl, rack="AB3")
    with pytest.raises(InvalidRackError, match="'Ø'"):
        Position("scrabble", twl, rack="AØ")
    with pytest.raises(UnknownVariantError, match="'scrabbel'"):
        get_variant("scrabbel")
    for bad in ("16A FEH", "8P FEH", "Z8 FEH", "H10", "8H F(E", "H14 FEH"):
        with pytest.raises(InvalidNotationError):
            p.parse_play(bad)
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        p.parse_play("H10 FEZ")
    with pytest.raises(IllegalPlayError, match="holds"):
        p.parse_play("8F BOG")
    assert p.parse_play("H10 FEH").score == 28
    assert p.parse_play("G6 ENUF") == p.parse_play("G6 EN(U)F") == p.parse_play("G6 EN.F")
    assert "H10 FEH" in p.legal_plays() and "H10 FEZ" not in p.legal_plays()


def test_plays_view_and_structured_array(twl):
    p = Position.from_cgp(P12, lexicon=twl)
    plays = p.legal_plays()
    arr = plays.array
    assert arr.dtype.names == ("row", "col", "dir", "length", "score", "tiles", "word", "blanks", "new")
    assert len(plays) == plays.count() == 307 and bool(plays)
    best = plays.top(3)
    assert [b.score for b in best] == sorted(arr["score"], reverse=True)[:3]
    assert str(best[0]) == "N3 SLAY 31"
    assert p.best().score == 31
    assert best[0] in plays
    again = Position.from_cgp(P12, lexicon=twl).legal_plays().array
    np.testing.assert_array_equal(arr, again)  # deterministic order


def test_str_and_svg(twl):
    p = Position.from_cgp(P12, lexicon=twl)
    s = str(p)
    assert "Q U A I" in s and "rack ADLNNSY" in s and s.count("\n") == 16
    svg = p._repr_svg_()
    assert svg.startswith("<svg") and "TW" in svg and "#e0464a" in svg


def _assert_checks_fresh(b):
    """The board's cross-checks and cross-scores equal those computed from scratch."""
    cc = np.zeros_like(b.cc)
    xs = np.zeros_like(b.xs)
    _cross.all_checks(b._lines, b._fv, b.dawg, b.checks, cc, xs)
    np.testing.assert_array_equal(cc, b.cc)
    np.testing.assert_array_equal(xs, b.xs)


def test_incremental_cross_checks_equal_full(twl):
    g = play_game(3, lexicon=twl, max_turns=14)
    b = g.board
    _assert_checks_fresh(b)
    fresh = BoardArrays(b.variant, b.lexicon, b.letters, b.blanks)
    for k in ("lines", "fv", "occ", "cc", "xs"):
        np.testing.assert_array_equal(getattr(fresh, k), getattr(b, k))


def _random_games(twl, seeds, moves, seed):
    """The board after every play of random games (random legal plays: long words, parallels, hooks, blanks)."""
    import random

    rng = random.Random(seed)
    for s in seeds:
        g = Game("scrabble", twl, seed=s)
        while not g.over and len(g.moves) < moves:
            plays = g.legal_plays()
            if not len(plays):
                break
            g.play(plays[rng.randrange(len(plays))])
            yield g.board


def test_incremental_cross_checks_after_every_random_play(twl):
    """After every play of random games, the incrementally updated cross-checks and cross-scores equal those
    computed from scratch."""
    checked = 0
    for board in _random_games(twl, range(100, 108), 30, 7):
        _assert_checks_fresh(board)
        checked += 1
    assert checked > 100


def test_cross_check_memo_gives_the_checks_computed_afresh(twl):
    """``square_check`` through one memo shared by many boards (random games) gives every empty square's check
    and cross-score as computed without it, both when the memo first meets the letters around a square and when
    it finds them there (a second pass over the same boards)."""
    memo = _cross.cross_memo()
    boards = [b.copy() for b in _random_games(twl, range(300, 304), 24, 11)]
    checked = 0
    for _ in range(2):
        for b in boards:
            for d in range(2):
                for i in range(15):
                    for j in range(15):
                        if b.lines[d, i, j] != 255:
                            continue
                        want = _cross.square_check(b._lines, b._fv, b.dawg, b.checks, d, i, j)
                        got = _cross.square_check(b._lines, b._fv, b.dawg, b.checks, d, i, j, memo)
                        assert got == want, (d, i, j)
                        checked += 1
    assert checked > 20_000 and (memo[0] != 0).sum() > 200


def test_in_line_checks_are_the_substrings_of_words(twl):
    """Next to a run of tiles in its own line, a square's check lets through exactly the letters ``c`` that make
    (run on the left) + ``c`` + (run on the right) a substring of some word (a regular expression over the word
    list is the truth), on top of the perpendicular word's check; elsewhere the perpendicular check alone."""
    import re

    joined = "\n".join(twl.words)
    alpha = twl.alphabet.letters
    truth = {}
    checked = 0
    for seed in (3, 4):
        b = play_game(seed, lexicon=twl, max_turns=16).board
        for d in range(2):
            for i in range(15):
                line = "".join("." if x == 255 else alpha[x] for x in b.lines[d, i])
                for j in range(15):
                    if line[j] != ".":
                        continue
                    cross, _ = _cross._cross_check(b._lines, b._fv, b.dawg, b.checks, d, i, j)
                    left = re.search(r"[A-Z]*$", line[:j]).group()
                    right = re.match(r"[A-Z]*", line[j + 1:]).group()
                    if not left and not right:
                        assert b.cc[d, i, j] == cross
                        continue
                    key = (left, right)
                    if key not in truth:
                        found = set(re.findall(f"(?={left}([A-Z]){right})", joined))
                        truth[key] = sum(1 << alpha.index(ch) for ch in found)
                    assert b.cc[d, i, j] == cross & truth[key], (d, i, j, left, right)
                    checked += 1
    assert checked > 40


def test_substring_table_holds_every_substring_with_its_neighbours():
    """The in-line checks' table: each substring (up to a line's length) of each word, with the letters before and
    after it in some word; a string in no word is not found. Words longer than a line included."""
    from numba_words.scrabble._tables import SUB_POW, sub_find, sub_table

    words = ["ABRACADABRASTUVWXYZ", "CAB", "BAD", "ZEBRA"]
    lex = Lexicon.from_words(words)
    keys, masks = sub_table(lex)
    code = {ch: i for i, ch in enumerate(lex.alphabet.letters)}

    def find(text):
        h = sum((code[ch] + 1) * int(SUB_POW[k]) for k, ch in enumerate(text))
        h = (h + 2 ** 63) % 2 ** 64 - 2 ** 63  # (the kernels' wrapping 64-bit sum)
        return sub_find(keys, masks, np.int64(h), np.int64(len(text)))

    for w in words:
        for a in range(len(w)):
            for b in range(a + 1, min(len(w), a + 15) + 1):
                sub = w[a:b]
                found, e = find(sub)
                assert found, sub
                before = {w2[i - 1] for w2 in words for i in range(1, len(w2)) if w2.startswith(sub, i)}
                after = {w2[i + len(sub)] for w2 in words for i in range(len(w2) - len(sub))
                         if w2.startswith(sub, i)}
                assert e & 0xFFFFFFFF == sum(1 << code[ch] for ch in before), sub
                assert (e >> 32) & 0xFFFFFFFF == sum(1 << code[ch] for ch in after), sub
    for text in ("ZQ", "ABD", "CABRA", "ABRACADABRASTUVW"):
        assert not find(text)[0], text


def test_span_table_matches_definition():
    t = span_table()
    assert t.shape == (8, 32768, 15) and t.dtype == np.uint16
    rng = np.random.default_rng(0)
    for occ in [0, 1, 0x4000, 0x7FFF, 0b000000010000000] + list(rng.integers(0, 32768, 40)):
        occ = int(occ)
        for k in (1, 3, 7):
            want = []
            for s in range(15):
                for e in range(s + 1, 15):
                    cells = [(occ >> i) & 1 for i in range(s, e + 1)]
                    if s > 0 and (occ >> (s - 1)) & 1 or e < 14 and (occ >> (e + 1)) & 1:
                        continue
                    if 1 <= cells.count(0) <= k:
                        want.append((s, e))
            assert span_list(occ, k) == want
    assert len(span_list(0, 7)) == 14 + 13 + 12 + 11 + 10 + 9
    assert len(span_list(0x7FFF, 7)) == 0


def test_game_moves_undo_exchange_pass(twl):
    g = Game("scrabble", twl, seed=5)
    assert len(g.bag) == 100 - 14 and all(len(r) == 7 for r in g.racks)
    start = (list(g.bag), list(g.racks))
    best = g.best()
    assert best.score == max(p.score for p in g.legal_plays())
    sc = g.play(best.notation)
    assert sc == best.score and g.scores[0] == sc and g.turn == 1
    rack1 = g.racks[1]
    g.exchange(rack1[:3])
    assert len(g.racks[1]) == 7 and len(g.bag) == 100 - 14 - best.tiles_used
    g.play("pass")
    assert g.scoreless == 2 and g.moves[-1][1] == "-"
    with pytest.raises(IllegalPlayError):
        g.exchange("??????")
    g.undo()
    g.undo()
    g.undo()
    assert (list(g.bag), list(g.racks)) == start and g.scores == [0, 0]
    with pytest.raises(Exception):
        Game("scrabble", twl, seed=5).undo()
    # a down play on the empty board is accepted (transposed copy of the across one)
    g = Game("scrabble", twl, seed=5)
    b = g.best()
    r, c = b.row, b.col
    down = f"{'ABCDEFGHIJKLMNO'[r]}{c + 1} {b.word}"
    assert g.play(down) == b.score
    assert g.board.letters[c, r] != 255


def test_exchange_needs_seven_in_bag(twl):
    g = Game("scrabble", twl, seed=1)
    g.bag = g.bag[:6]
    with pytest.raises(IllegalPlayError, match="at least 7"):
        g.exchange("A")


def test_self_play_whole_game_and_end_rules(twl):
    g1 = play_game(11, lexicon=twl)
    g2 = play_game(11, lexicon=twl)
    assert g1.moves == g2.moves and g1.scores == g2.scores
    assert g1.over
    played = sum(1 for _, m, _ in g1.moves if m[0].isalnum())
    assert played > 10
    out_player = None
    if not g1.bag and "" in g1.racks:
        out_player = g1.racks.index("")
    assert out_player is not None or g1.scoreless >= 6
    total_moves = [0, 0]
    for who, _, s in g1.moves:
        total_moves[who] += s
    if out_player is not None:
        left = sum(SCRABBLE.values.get(ch, 0) for ch in g1.racks[1 - out_player] if ch != "?")
        assert g1.scores[out_player] == total_moves[out_player] + left
        assert g1.scores[1 - out_player] == total_moves[1 - out_player] - left


def test_gcg_read(twl):
    g = play_game(4, lexicon=twl, max_turns=6)
    lines = ["#character-encoding UTF-8", "#player1 a Alice", "#player2 b Bob", "#lexicon TWL06"]
    totals = [0, 0]
    for who, m, s in g.moves:
        totals[who] += s
        name = "a" if who == 0 else "b"
        lines.append(f">{name}: ABCDEFG {m} +{s} {totals[who]}")
    with pytest.warns(GcgWarning, match="played but not on the rack ABCDEFG"):  # (the racks are made up)
        positions = read_gcg("\n".join(lines), lexicon=twl)
    assert len(positions) == 6
    np.testing.assert_array_equal(positions[-1].board.letters, g.board.letters)
    np.testing.assert_array_equal(positions[-1].board.blanks, g.board.blanks)
    assert sorted(positions[-1].scores) == sorted(totals)
    with pytest.raises(InvalidGcgError, match="line 1"):
        read_gcg("hello", lexicon=twl)
    with pytest.raises(InvalidGcgError, match="total"):
        read_gcg(">a: ABC 8H AB +4 x", lexicon=twl)


def test_norwegian_wordfeud_end_to_end():
    lex = Lexicon.load("nb-small")
    assert "BLÅ" in lex
    p = Position(WORDFEUD_NB, lex, rack="BLÅRØD?")
    plays = p.legal_plays()
    words = {q.plain_word for q in plays}
    assert "BLÅ" in words and words <= set(lex.words)
    best = p.best()
    assert best.score == max(q.score for q in plays)
    g = play_game(2, WORDFEUD_NB, lex, max_turns=10)
    assert len(g.moves) > 0
    assert any(ch in "ÆØÅ" for _, m, _ in g.moves for ch in m.upper()) or len(g.moves) > 0
    q = Position.from_cgp(g.position.cgp(), variant="wordfeud-nb", lexicon=lex)
    assert q.cgp() == g.position.cgp()
    with pytest.raises(Exception, match="alphabet"):
        Position("scrabble", lex)


def test_threads_and_batch(twl):
    cgps = [EMPTY_CGP, P05, P12]
    positions = [Position.from_cgp(c, lexicon=twl) for c in cgps]
    want = [p.legal_plays().array for p in positions]
    got = generate_batch([p.board for p in positions], [p._rack_arrays() for p in positions], cap=64, threads=2)
    for a, b in zip(want, got):
        np.testing.assert_array_equal(a, b)
    results = [None] * 6

    def work(i):
        p = Position.from_cgp(cgps[i % 3], lexicon=twl)
        results[i] = p.legal_plays().array

    ts = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for i in range(6):
        np.testing.assert_array_equal(results[i], want[i % 3])


def test_gcg_exchange_pass_and_end_lines(twl):
    text = "\n".join([
        "#player1 a Alice", "#player2 b Bob",
        ">a: ACDINRT 8D CAIRD +22 22",
        ">b: EEIOUUV -EIOUUV +0 0",
        ">a: AEINNST - +0 22",
        ">b: ABEGORS F7 B.G +6 6",
        ">a: (ABC) +14 36",
    ])
    with pytest.warns(GcgWarning, match="line 7: end-of-game rack points before the end of the game"):
        positions = read_gcg(text, lexicon=twl)
    assert len(positions) == 2
    assert positions[-1].scores == (36, 6)
    final = Position.from_cgp(positions[-1].cgp(), lexicon=twl)
    assert "".join(final.alphabet[final.board.letters[r, 5]] for r in (6, 7, 8)) == "BIG"


def test_game_exchange_and_pass_notation(twl):
    g = Game("scrabble", twl, seed=9)
    tiles = g.racks[0][:2]
    assert g.play(f"-{tiles}") == 0 and g.moves[-1][1] == f"-{tiles}"
    assert g.play("pass") == 0 and g.scoreless == 2
    assert g.play(f"exchange {g.racks[0][:1]}") == 0
    with pytest.raises(InvalidNotationError):
        g.play(42)


def test_warmup_lexicon_is_the_built_one():
    from numba_words.scrabble.search import _warmup_lexicon

    want = Lexicon.from_words(["AB", "BA", "ABA"])
    got = _warmup_lexicon()
    for k in ("flat", "offsets", "dawg"):
        np.testing.assert_array_equal(getattr(got, k), getattr(want, k))
        assert getattr(got, k).dtype == getattr(want, k).dtype


def test_svg_board_tiles_blanks_and_highlight(twl):
    import xml.etree.ElementTree as ET

    from numba_words.scrabble import svg as S

    p = Position.from_cgp(P12, lexicon=twl)
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.fromstring(p.svg())
    texts = [t.text for t in root.iterfind(".//s:text", ns)]
    n_tiles = int((p.board.letters != 255).sum())
    tiles = [r for r in root.iterfind(".//s:rect", ns) if r.get("rx")]
    assert len(tiles) == n_tiles == 43
    # the two blanks (e and d) are white dashed tiles with a lower-case letter and '?' where the value goes
    blanks = [r for r in tiles if r.get("fill") == S.BLANK]
    assert len(blanks) == 2 and all(r.get("stroke-dasharray") for r in blanks)
    assert "e" in texts and "d" in texts and texts.count("?") == 2
    assert "TW" in texts and "DL" in texts and "A" in texts and "O" in texts  # premium labels, column letters
    play = p.legal_plays().best()
    hl = ET.fromstring(p.svg(play))
    new = [r for r in hl.iterfind(".//s:rect", ns) if r.get("fill") == S.TILE_NEW]
    assert len(new) == play.tiles_used == 4 and len([r for r in hl.iterfind(".//s:rect", ns) if r.get("rx")]) == 47
    assert "play N3 SLAY 31" in "".join(t.text or "" for t in hl.iterfind(".//s:text", ns))
    assert p.svg("N3 SLAY") == p.svg(play)
    with pytest.raises(InvalidNotationError):
        p.svg(3)
    g = Game("scrabble", twl, seed=2)
    g.play_best()
    marked = [r for r in ET.fromstring(g._repr_svg_()).iterfind(".//s:rect", ns) if r.get("fill") == S.TILE_NEW]
    assert len(marked) == int((g.board.letters != 255).sum()) > 0  # the first play's tiles


def test_records_and_pandas(twl, monkeypatch):
    import sys

    from numba_words.scrabble import ScrabbleError

    p = Position.from_cgp(P05, lexicon=twl)
    p.leaves = "zero"  # equity = score here (no leave values, bag not empty, board not empty)
    plays = p.legal_plays()
    rec = plays.to_records(2)
    assert rec == [{"coord": "H10", "word": "FEH", "score": 28, "tiles": 3, "leave": "DNQR", "notation": "H10 FEH",
                    "equity": 28.0},
                   {"coord": "G6", "word": "EN(U)F", "score": 26, "tiles": 3, "leave": "DHQR", "notation": "G6 EN(U)F",
                    "equity": 26.0}]
    assert len(plays.to_records()) == len(plays) == 159
    assert [r["notation"] for r in plays.to_records(3, by_score=False)] == [q.notation for q in plays[:3]]
    assert plays.best() == plays.top(1)[0] and Position("scrabble", twl).legal_plays().best() is None
    assert isinstance(plays[0].placed, list) and len(plays[0].placed) == plays[0].tiles_used  # a property
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ScrabbleError, match="pandas"):
        plays.to_pandas()


def _plain_unseen(pos):
    """The unseen tiles counted in plain Python: the variant's tiles less the board's and the rack's."""
    v = pos.variant
    left = Counter({ch: n for ch, n in v.counts.items() if n})
    left["?"] = v.blanks
    for r in range(15):
        for c in range(15):
            x = int(pos.board.letters[r, c])
            if x != 255:
                left["?" if pos.board.blanks[r, c] else pos.alphabet[x]] -= 1
    left.subtract(pos.rack)
    return +left


def test_unseen_and_bag_follow_the_board_racks_and_copies():
    """``unseen()`` and ``bag_size()`` (counted with NumPy and kept per board version and rack, the board's
    counts carried by a copy) equal a plain count on every turn of self-played games, and on copies whose
    board then changes while the original's stays."""
    for seed in (3, 4):
        g = Game(seed=seed)
        while not g.over:
            p = g.position
            want = _plain_unseen(p)
            assert p.unseen() == want and list(p.unseen()) == [ch for ch in p.unseen()]
            assert p.bag_size() == max(0, sum(want.values()) - len(p.opp_rack))
            mv = p.best(by="score")
            if mv is not None:
                q = p.copy()
                assert q.unseen() == want and q.bag_size() == p.bag_size()  # (fills the copy's own caches)
                t = mv.placed
                q.board.place([x[0] for x in t], [x[1] for x in t], [q.alphabet.index(x[2]) for x in t],
                              [x[3] for x in t])
                q.rack = ""
                assert q.unseen() == _plain_unseen(q) and p.unseen() == want
            mv = p.best_move()
            g.play("pass" if mv is None else (mv.notation if not hasattr(mv, "word") else mv))


def _plain_checks(board, words, in_a_word):
    """``cc`` of every empty square, in plain Python: the letters that make the perpendicular run a word (all of
    them when there is none) and make the run in the square's own line a substring of a word."""
    alpha = board.lexicon.alphabet.letters
    L = board.letters
    out = np.zeros((2, 15, 15), np.int64)

    def run(r, c, dr, dc):
        a, b = "", ""
        rr, cc = r - dr, c - dc
        while 0 <= rr < 15 and 0 <= cc < 15 and L[rr, cc] != 255:
            a = alpha[L[rr, cc]] + a
            rr, cc = rr - dr, cc - dc
        rr, cc = r + dr, c + dc
        while 0 <= rr < 15 and 0 <= cc < 15 and L[rr, cc] != 255:
            b += alpha[L[rr, cc]]
            rr, cc = rr + dr, cc + dc
        return a, b

    for r in range(15):
        for c in range(15):
            if L[r, c] != 255:
                continue
            for d, (pr, pc, ir, ic) in enumerate(((1, 0, 0, 1), (0, 1, 1, 0))):  # d = 0: an across play's square
                pa, pb = run(r, c, pr, pc)
                ia, ib = run(r, c, ir, ic)
                m = 0
                for k, ch in enumerate(alpha):
                    if (not pa and not pb or pa + ch + pb in words) and (not ia and not ib or in_a_word(ia + ch + ib)):
                        m |= 1 << k
                out[d, r, c] = m
    return np.stack([out[0], out[1].T])


def test_cross_checks_equal_plain_python_on_random_boards(twl):
    """Every empty square's check (the one-tile lookups of ``near_table``, the substring filter of the walk, and the
    walk) against the words themselves, on boards of random games."""
    from functools import lru_cache

    words = set(twl.words)
    text = "\n".join(words)
    in_a_word = lru_cache(None)(lambda s: s in text)
    checked = 0
    for k, b in enumerate(_random_games(twl, (11, 12, 13), 14, 5)):
        if k % 3 != 2:
            continue
        checked += 1
        want = _plain_checks(b, words, in_a_word)
        empty = b.lines == 255
        np.testing.assert_array_equal(np.where(empty, b.cc, 0), np.where(empty, want, 0))
    assert checked >= 5
