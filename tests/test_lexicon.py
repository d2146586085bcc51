"""Lexicon engine against independent truth: Python sets, brute-force scans, hashlib."""
from __future__ import annotations

import gzip
import hashlib
import threading
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numba_words import InvalidWordError, Lexicon, LexiconError, NumbaWordsError
from numba_words.lexicon import _dawg, _queries, _wordarrays, cache
from numba_words.lexicon import _reference as ref
from numba_words.lexicon.cache import CacheWarning


def enumerate_dawg(lex):
    """Every word the DAWG spells (a full walk), in DAWG order."""
    n = lex.max_len
    allowed = np.full(n, lex.alphabet.full_mask, np.uint32)
    flat, offs, _ = _queries.dawg_search(lex.dawg, allowed, np.zeros(n, np.uint8),
                                         np.zeros(len(lex.alphabet), np.int64), 0, False, 1, n, 0)
    return [lex.alphabet.decode(flat[offs[i]:offs[i + 1]]) for i in range(offs.shape[0] - 1)]


# ---------------------------------------------------------------- the full TWL06 list
def test_twl06_words_and_hash(twl, twl_words):
    assert len(twl) == 178_691 == len(twl_words)
    assert twl.words == twl_words
    assert twl.sha256 == hashlib.sha256(("\n".join(twl_words) + "\n").encode()).hexdigest()
    assert twl.max_len == 15


def test_twl06_dawg_spells_exactly_the_list(twl, twl_words):
    assert enumerate_dawg(twl) == twl_words
    assert twl.contains_many(twl_words).all()
    assert twl.dawg.nbytes < 1 << 20


def test_random_non_words_rejected(twl, twl_words):
    rng = np.random.default_rng(1)
    words = set(twl_words)
    letters = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    probes = ["".join(rng.choice(letters, size=int(rng.integers(1, 9)))) for _ in range(50_000)]
    probes += [w[:-1] for w in twl_words[::7]] + [w + "Q" for w in twl_words[::11]]
    got = twl.contains_many(probes)
    want = np.array([p in words for p in probes])
    assert (got == want).all()
    assert sum(want) > 1000 and sum(~want) > 40_000
    for p in probes[:2000]:
        assert (p in twl) == (p in words)
        assert (p.lower() in twl) == (p in words)


def test_sowpods_loads(twl):
    s = Lexicon.load("sowpods")
    assert len(s) == 267_751
    assert "QI" in s and "ZYZZYVA" in s and "XU" in s


# ---------------------------------------------------------------- building from arbitrary lists
@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet="ABCDE", min_size=1, max_size=8), min_size=1, max_size=60))
def test_dawg_of_random_lists(words):
    lex = Lexicon.from_words(words)
    want = sorted(set(words))
    assert lex.words == want
    assert enumerate_dawg(lex) == want
    assert cache.check_arrays({"flat": lex.flat, "offsets": lex.offsets, "dawg": lex.dawg}, len(lex.alphabet)) is None
    probes = want + ["".join(reversed(w)) + "A" for w in want]
    assert list(lex.contains_many(probes)) == [p in set(want) for p in probes]


def test_dawg_is_minimised():
    # all 3**4 words of length 4 over ABC: the minimal DAWG is a chain of 5 nodes
    import itertools

    words = ["".join(p) for p in itertools.product("ABC", repeat=4)]
    lex = Lexicon.from_words(words)
    assert lex.stats()["dawg_nodes"] == 5
    lex = Lexicon.from_words(["CAT", "CATS", "BAT", "BATS", "RAT"])
    assert lex.stats()["dawg_nodes"] == 7  # root, [CB]-, -A-, -T(S), R-, RA-, leaf
    # terminal flags live on edges: the node after "A" (a word) merges with the node after "CA" (not one)
    lex = Lexicon.from_words(["A", "AB", "CAB"])
    assert lex.stats()["dawg_nodes"] == 4


def test_case_normalised_unsorted_duplicates(tmp_path):
    p = tmp_path / "w.txt"
    p.write_text("zebra\nApple\n  apple  \n\nBANANA\r\n# a comment\nzebra\n")
    lex = Lexicon.load(p, use_cache=False)
    assert lex.words == ["APPLE", "BANANA", "ZEBRA"]
    assert lex.skipped == 0


def test_gzip_and_skipped_lines(tmp_path):
    p = tmp_path / "w.txt.gz"
    p.write_bytes(gzip.compress(b"cat\ndog\nc4t\nhot dog\nmouse\n"))
    lex = Lexicon.load(p, use_cache=False)
    assert lex.words == ["CAT", "DOG", "MOUSE"]
    assert lex.skipped == 2 and lex.bad_lines == (3, 4)
    assert "2 lines skipped" in lex.load_note


def test_strict_names_file_and_line(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_text("cat\ndog\nc4t\n")
    with pytest.raises(LexiconError, match=r"bad\.txt:3: 'c4t'"):
        Lexicon.load(p, strict=True, use_cache=False)


def test_second_alphabet_nb_small():
    nb = Lexicon.load("nb-small")
    assert len(nb.alphabet) == 29 and nb.alphabet.letters.endswith("ÆØÅ")
    assert "blå" in nb and "BRØD" in nb and "ÆRE" in nb and "BLA" not in nb
    assert nb.skipped == 0
    assert enumerate_dawg(nb) == nb.words
    got = {m.word for m in nb.anagrams("BLÅ")}
    assert got == ref.anagrams(nb.words, "BLÅ")
    got = {m.word for m in nb.anagrams("ØL?")}
    assert got == ref.anagrams(nb.words, "ØL?") and "ØL" in got
    assert {m.word for m in nb.match("B.Å")} == {"BLÅ"}


def test_custom_alphabet_argument():
    lex = Lexicon.from_words(["ñu", "año", "ano"], alphabet="ABCDEFGHIJKLMNÑOPQRSTUVWXYZ")
    assert lex.words == ["ANO", "AÑO", "ÑU"]
    assert "año" in lex


# ---------------------------------------------------------------- queries vs brute force
@pytest.fixture(scope="module")
def small(twl_words):
    rng = np.random.default_rng(7)
    words = sorted(set(twl_words[i] for i in rng.integers(0, len(twl_words), 25_000)))
    return Lexicon.from_words(words), words


def random_rack(rng, n, blanks):
    bag = "AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWWXYYZ"
    return "".join(rng.choice(list(bag), size=n - blanks)) + "?" * blanks


def check_blanks(rack, m):
    """The reported blanks are consistent and minimal."""
    have = Counter(rack.upper())
    blanks = have.pop("?", 0)
    tiles = Counter(ch for i, ch in enumerate(m.word) if i not in m.blanks)
    assert all(tiles[c] <= have[c] for c in tiles), (rack, m)
    assert len(m.blanks) <= blanks
    need = Counter(m.word)
    assert len(m.blanks) == sum(max(0, k - have.get(c, 0)) for c, k in need.items())
    assert str(m).upper() == m.word
    assert sum(ch.islower() for ch in str(m)) == len(m.blanks)


def test_anagrams_match_brute_force(small):
    lex, words = small
    rng = np.random.default_rng(11)
    for trial in range(300):
        n = int(rng.integers(1, 9))
        rack = random_rack(rng, n, int(rng.integers(0, min(n, 2) + 1)))
        min_len = int(rng.integers(1, 4))
        got = lex.anagrams(rack, min_len=min_len)
        assert {m.word for m in got} == ref.anagrams(words, rack, min_len), rack
        assert len(got) == len({m.word for m in got})
        for m in got:
            check_blanks(rack, m)


def test_anagrams_full_twl(twl, twl_words):
    for rack in ["RETAINS", "QUIZ?ES", "??", "AEIOU?X", "SATIRE?"]:
        got = twl.anagrams(rack)
        assert {m.word for m in got} == ref.anagrams(twl_words, rack), rack
        for m in got:
            check_blanks(rack, m)
    got = twl.anagrams("RETAINS")
    assert [m.word for m in got[:3]] == ["ANESTRI", "ANTSIER", "NASTIER"]  # longest first, then alphabetical


def test_racks_longer_than_the_longest_word(twl, twl_words):
    assert [m.word for m in twl.anagrams("A" * 16)] == ["AA"]
    rack = "SATIREQUIZONE??"
    for long_rack in (rack + "XYLOPHG", rack * 5):
        got = twl.anagrams(long_rack, min_len=13)
        assert {m.word for m in got} == ref.anagrams(twl_words, long_rack, 13) != set()
    nb = Lexicon.load("nb-small")
    assert {m.word for m in nb.anagrams("RETAINSBLÅ")} == ref.anagrams(nb.words, "RETAINSBLÅ")
    assert twl.anagrams("QI", min_len=3) == [] and twl.anagrams("") == []
    got = [m.word for m in twl.anagrams("RETAINS?", min_len=3, max_len=4)]
    assert set(got) == ref.anagrams(twl_words, "RETAINS?", 3, 4) and len(got[0]) == 4 and len(got[-1]) == 3


def random_pattern(rng, word):
    """A slot built from a real word: some squares fixed, some open, some letter classes."""
    parts, slots = [], []
    for ch in word:
        r = rng.random()
        if r < 0.35:
            parts.append(ch)
            slots.append(({ch}, False))
        elif r < 0.85:
            parts.append(".")
            slots.append((set("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), True))
        else:
            cls = set(rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), size=4)) | {ch}
            if rng.random() < 0.5:
                parts.append("[" + "".join(sorted(cls)) + "]")
                slots.append((cls, True))
            else:
                neg = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ") - cls
                parts.append("[^" + "".join(sorted(neg)) + "]")
                slots.append((cls, True))
    return "".join(parts), slots


@pytest.mark.parametrize("method", ["bitset", "dawg", "auto"])
def test_match_brute_force(small, method):
    lex, words = small
    rng = np.random.default_rng(13)
    for trial in range(200):
        w = words[int(rng.integers(0, len(words)))]
        pattern, slots = random_pattern(rng, w)
        rack = None
        if trial % 2:
            rack = random_rack(rng, int(rng.integers(1, 8)), int(rng.integers(0, 2)))
        got = lex.match(pattern, rack=rack, method=method)
        assert [m.word for m in got] == sorted(ref.match(words, slots, rack)), (pattern, rack)
        if rack is not None:
            for m in got:
                open_letters = "".join(ch for ch, (_, o) in zip(m.word, slots) if o)
                blanks_open = [i for i in m.blanks if slots[i][1]]
                assert blanks_open == list(m.blanks)
                assert len(m.blanks) == sum(max(0, k - Counter(rack.replace("?", "")).get(c, 0))
                                            for c, k in Counter(open_letters).items())


def test_match_methods_agree_full_twl(twl, twl_words):
    for pattern, rack in [("..R.S", None), ("..R.S", "AEIT?"), ("Q...", None), ("[AEIOU]...[^S]", "ETAOIN"),
                          ("...............", None), ("Z", None)]:
        a = twl.match(pattern, rack=rack, method="bitset")
        b = twl.match(pattern, rack=rack, method="dawg")
        assert a == b


def test_prefix_and_substring(small):
    lex, words = small
    rng = np.random.default_rng(17)
    for _ in range(100):
        w = words[int(rng.integers(0, len(words)))]
        p = w[: int(rng.integers(1, len(w) + 1))]
        assert lex.starting_with(p) == [x for x in words if x.startswith(p)]
        s = w[int(rng.integers(0, len(w))):][:3]
        assert lex.containing(s) == [x for x in words if s in x]
    assert lex.starting_with("") == words
    assert lex.starting_with("QZX") == []


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("source, message", [
    ("twl07", "unknown lexicon name 'twl07'"),
    ("/no/such/words.txt", "does not exist"),
    (12, "not a name, path or iterable"),
    ([], "no words"),
    (["hello", 3], "not a string"),
    (b"cat", "not bytes"),
])
def test_bad_sources(source, message):
    with pytest.raises(LexiconError, match=message):
        Lexicon.load(source, use_cache=False)


def test_binary_and_empty_files(tmp_path):
    b = tmp_path / "bin.dat"
    b.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(LexiconError, match="binary"):
        Lexicon.load(b, use_cache=False)
    e = tmp_path / "empty.txt"
    e.write_text("\n\n# only a comment\n")
    with pytest.raises(LexiconError, match="no words"):
        Lexicon.load(e, use_cache=False)
    j = tmp_path / "junk.txt"
    j.write_text("123\n4 5\n")
    with pytest.raises(LexiconError, match=r"no words .*2 lines skipped"):
        Lexicon.load(j, use_cache=False)
    with pytest.raises(LexiconError, match="directory"):
        Lexicon.load(tmp_path, use_cache=False)


def test_bad_queries(twl):
    with pytest.raises(InvalidWordError, match=r"'!' at position 3"):
        twl.anagrams("AB!")
    with pytest.raises(InvalidWordError, match="min_len"):
        twl.anagrams("AB", min_len=0)
    with pytest.raises(InvalidWordError, match="max_len"):
        twl.anagrams("AB", max_len="3")
    assert twl.match("." * 16) == [] and twl.match("." * 100, method="dawg") == []  # longer than any word
    with pytest.raises(InvalidWordError, match="max_len"):
        twl.starting_with("QI", max_len=-1)
    assert twl.starting_with("", max_len=1000) == twl.starting_with("")  # capped at the longest word
    with pytest.raises(InvalidWordError, match="never closed"):
        twl.match("A[BC")
    with pytest.raises(InvalidWordError, match="'3' at position 2"):
        twl.match("A3C")
    with pytest.raises(InvalidWordError, match="non-empty"):
        twl.match("")
    with pytest.raises(InvalidWordError, match="method"):
        twl.match("A.", method="regex")
    with pytest.raises(InvalidWordError, match="rack"):
        twl.anagrams(None)
    with pytest.raises(InvalidWordError):
        twl.starting_with("Q1")
    assert issubclass(InvalidWordError, ValueError) and issubclass(LexiconError, NumbaWordsError)
    assert 12 not in twl and "" not in twl and "C4T" not in twl


# ---------------------------------------------------------------- cache
def test_cache_roundtrip_and_corruption(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_WORDS_CACHE_DIR", str(tmp_path))
    src = tmp_path / "list.txt"
    src.write_text("alpha\nbeta\ngamma\ndelta\n")
    a = Lexicon.load(src)
    assert not a.from_cache
    files = list(tmp_path.glob("lexicon-*.npz"))
    assert len(files) == 1
    b = Lexicon.load(src)
    assert b.from_cache and b.words == a.words and b.sha256 == a.sha256
    assert np.array_equal(a.dawg, b.dawg)
    # truncated file: warned, rebuilt, never trusted
    data = files[0].read_bytes()
    files[0].write_bytes(data[: len(data) // 2])
    with pytest.warns(CacheWarning, match="rebuilding"):
        c = Lexicon.load(src)
    assert not c.from_cache and c.words == a.words
    # a flipped byte inside the arrays fails the checksum
    good = files[0].read_bytes()
    i = good.find(b"ALPHA") if b"ALPHA" in good else len(good) // 3
    bad = bytearray(good)
    bad[i] ^= 0xFF
    files[0].write_bytes(bytes(bad))
    with pytest.warns(CacheWarning):
        d = Lexicon.load(src)
    assert d.words == a.words
    # changing the list changes the key
    src.write_text("alpha\nbeta\n")
    assert Lexicon.load(src).words == ["ALPHA", "BETA"]


def _lengths_table(lex):
    """A derived table for the tests: word lengths and their histogram (a tuple of arrays)."""
    lengths = np.diff(lex.offsets)
    return lengths, np.bincount(lengths)


def test_persisted_derived_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_WORDS_CACHE_DIR", str(tmp_path))
    src = tmp_path / "list.txt"
    src.write_text("alpha\nbeta\ngamma\ndelta\nepsilon\n")
    calls = []

    def build(lex):
        calls.append(1)
        return _lengths_table(lex)

    want = _lengths_table(Lexicon.load(src))
    got = Lexicon.load(src).derived("test.lengths", build, persist=True)
    assert len(calls) == 1 and all(np.array_equal(g, w) for g, w in zip(got, want))
    files = list(tmp_path.glob("derived-*test.lengths*.npz"))
    assert len(files) == 1
    again = Lexicon.load(src).derived("test.lengths", build, persist=True)  # a new lexicon object: from disk
    assert len(calls) == 1 and type(again) is tuple
    assert all(np.array_equal(g, w) and g.dtype == w.dtype for g, w in zip(again, want))
    single = Lexicon.load(src).derived("test.one", lambda lex: np.diff(lex.offsets), persist=True)
    assert np.array_equal(Lexicon.load(src).derived("test.one", lambda lex: 1 / 0, persist=True), single)
    # a corrupt file is warned about, removed and rebuilt
    files[0].write_bytes(files[0].read_bytes()[:40])
    with pytest.warns(CacheWarning, match="rebuilding"):
        Lexicon.load(src).derived("test.lengths", build, persist=True)
    assert len(calls) == 2
    # a lexicon outside the disk cache keeps its tables in memory only
    Lexicon.from_words(["one", "two"]).derived("test.words", build, persist=True)
    assert not list(tmp_path.glob("derived-*test.words*"))


def test_cache_dir_unwritable_is_not_fatal(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("NUMBA_WORDS_CACHE_DIR", str(blocker / "sub"))
    lex = Lexicon.load(["one", "two"])
    assert lex.words == ["ONE", "TWO"]


# ---------------------------------------------------------------- threads
def test_queries_from_several_threads(twl):
    racks = ["RETAINS", "QUIZ?ES", "AEIOU??", "STRANGE", "PLAYERS", "BINGO?S"] * 3
    want = {r: twl.anagrams(r) for r in racks}
    errors = []

    def work(r):
        try:
            for _ in range(5):
                assert twl.anagrams(r) == want[r]
                assert twl.match("..R.S", rack=r) == twl.match("..R.S", rack=r, method="dawg")
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=work, args=(r,)) for r in racks]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


def test_split_lines_direct():
    mapped = np.array([0, 1, -1, -2, 2, -2, -1, 0, -3, -1, -1, 3], dtype=np.int8)
    flat, offs, bad, n_bad, n_lines = _wordarrays.split_lines(mapped, 5)
    assert list(flat) == [0, 1, 2, 3] and list(offs) == [0, 2, 3, 4]
    assert list(bad) == [3] and n_bad == 1 and n_lines == 5


def _split_reference(mapped):
    """Plain Python: the words (as lists), the bad line numbers and the line count of mapped code points."""
    text = list(map(int, mapped))
    lines, cur = [], []
    for c in text:
        if c == -1:
            lines.append(cur)
            cur = []
        else:
            cur.append(c)
    if cur:
        lines.append(cur)
    words, bad = [], []
    for i, line in enumerate(lines, 1):
        while line and line[0] == -2:
            line = line[1:]
        while line and line[-1] == -2:
            line = line[:-1]
        if not line:
            continue
        if min(line) < 0:
            bad.append(i)
        else:
            words.append(line)
    return words, bad, len(lines)


def test_word_arrays_match_plain_python_on_random_text():
    rng = np.random.default_rng(5)
    for _ in range(3000):
        mapped = rng.choice(np.array([0, 1, 2, 3, -1, -1, -2, -3], dtype=np.int8), size=rng.integers(0, 60))
        flat, offs, bad, n_bad, n_lines = _wordarrays.split_lines(mapped, 3)
        words, want_bad, want_lines = _split_reference(mapped)
        got = [list(map(int, flat[offs[i]:offs[i + 1]])) for i in range(len(offs) - 1)]
        assert got == words and list(bad) == want_bad[:3] and n_bad == len(want_bad) and n_lines == want_lines
        if not words:
            continue
        s_flat, s_offs = _wordarrays.sort_words(flat, offs)
        ordered = [list(map(int, s_flat[s_offs[i]:s_offs[i + 1]])) for i in range(len(s_offs) - 1)]
        assert ordered == sorted(words)
        assert _wordarrays.sorted_status(flat, offs) == (2 if words != sorted(words) else 1 if len(set(map(tuple, words))) < len(words) else 0)
        d_flat, d_offs = _wordarrays.dedupe_sorted(s_flat, s_offs)
        assert [list(map(int, d_flat[d_offs[i]:d_offs[i + 1]])) for i in range(len(d_offs) - 1)] == \
            [list(w) for w in sorted(set(map(tuple, words)))]
        order = rng.permutation(len(words))[: rng.integers(0, 10)]
        g_flat, g_offs = _wordarrays.gather_words(flat, offs, order)
        assert [list(map(int, g_flat[g_offs[i]:g_offs[i + 1]])) for i in range(len(g_offs) - 1)] == [words[i] for i in order]
        r = _wordarrays.reverse_words(flat, offs)
        assert [list(map(int, r[offs[i]:offs[i + 1]])) for i in range(len(offs) - 1)] == [w[::-1] for w in words]
