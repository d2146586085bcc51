"""Faults found by probing the lexicon: corrupt caches, unbounded reads, case mapping, huge inputs, text vs path."""
from __future__ import annotations

import gzip
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numba_words import InvalidWordError, Lexicon, LexiconError
from numba_words.cli import main
from numba_words.lexicon import _dawg, _queries, cache
from numba_words.lexicon import _reference as ref
from numba_words.lexicon import lexicon as lexicon_module
from numba_words.lexicon.cache import CacheWarning

WORDS = ["CAT", "CATS", "ACT", "ACTS", "TACT", "SCAT", "AT", "TA", "A"]


# ---------------------------------------------------------------- cache files that pass the zip CRC but are unsound
def _arrays(lex):
    return {"flat": lex.flat.copy(), "offsets": lex.offsets.copy(), "dawg": lex.dawg.copy()}


def _first_edge_into_leaf(dawg):
    o = 0
    while o < dawg.shape[0]:
        k = bin(int(dawg[o])).count("1")
        for s in range(o + 1, o + 1 + k):
            if dawg[int(dawg[s]) >> 1] == 0:
                return s
        o += 1 + k
    raise AssertionError("no leaf")


def _corrupt(kind, a, lex):
    d = a["dawg"]
    if kind == "edge out of range":
        d[1] = np.uint32((d.shape[0] + 7) << 1 | 1)
    elif kind == "edge into a node's edges":
        d[1] = np.uint32(((int(d[1]) >> 1) + 1) << 1 | (int(d[1]) & 1))
    elif kind == "edge back to the root (a cycle)":
        s = _first_edge_into_leaf(d)
        d[s] = np.uint32(0 << 1 | 1)
    elif kind == "mask letter outside the alphabet":
        d[0] |= np.uint32(1 << 31)
    elif kind == "mask and edges disagree":
        a["dawg"] = d[:-1].copy()
    elif kind == "mask bit without its edge":  # the last node (a leaf) claims a child it has no slot for
        d[-1] = np.uint32(1)
    elif kind == "dead end":
        s = _first_edge_into_leaf(d)
        d[s] &= np.uint32(0xFFFFFFFE)
    elif kind == "other word count":
        a["dawg"] = Lexicon.from_words(WORDS + ["TACTS"]).dawg.copy()
    elif kind == "letter outside the alphabet":
        a["flat"][3] = 200
    elif kind == "offsets past the letters":
        a["offsets"][-1] += 5
    elif kind == "empty word":
        a["offsets"][1] = a["offsets"][0]
    elif kind == "empty DAWG":
        a["dawg"] = d[:0].copy()
    elif kind == "two-dimensional":
        a["dawg"] = np.stack([d, d])
    return a


KINDS = {
    "edge out of range": "edge at offset 1 does not point to a later node",
    "edge into a node's edges": "edge at offset 1 does not point to a later node",
    "edge back to the root (a cycle)": "does not point to a later node",
    "mask letter outside the alphabet": "node at offset 0 has letters outside the alphabet",
    "mask and edges disagree": "DAWG edge at offset .* does not point|nodes do not fill",
    "mask bit without its edge": "nodes do not fill the array",
    "dead end": "leads to no word",
    "other word count": "spells 10 words",
    "letter outside the alphabet": "letter #3 is outside the alphabet",
    "offsets past the letters": "offsets do not run from 0",
    "empty word": "word #0 has no letters",
    "empty DAWG": "DAWG is empty",
    "two-dimensional": "not one-dimensional",
}


@pytest.mark.parametrize("kind", KINDS)
def test_unsound_cache_is_rebuilt(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("NUMBA_WORDS_CACHE_DIR", str(tmp_path))
    src = tmp_path / "list.txt"
    src.write_text("\n".join(WORDS) + "\n")
    good = Lexicon.load(src)
    [path] = tmp_path.glob("lexicon-*.npz")
    key = cache.source_key(src.read_bytes(), good.alphabet.letters, False)
    bad = _corrupt(kind, _arrays(good), good)
    assert cache.save(key, bad, good.sha256, good.alphabet.letters, 0, []) == path  # valid zip, valid CRCs
    with pytest.warns(CacheWarning, match=f"({KINDS[kind]}).*rebuilding"):
        lex = Lexicon.load(src)
    assert not lex.from_cache and lex.words == sorted(WORDS)
    assert {m.word for m in lex.anagrams("TACS")} == ref.anagrams(WORDS, "TACS")
    assert Lexicon.load(src).from_cache  # the rebuilt file is sound


def test_every_named_lexicon_passes_the_check():
    for name in ("twl06", "sowpods", "nb-small"):
        lex = Lexicon.load(name)
        assert cache.check_arrays(_arrays(lex), len(lex.alphabet)) is None, name


@settings(max_examples=300)
@given(st.lists(st.text(alphabet="ABCD", min_size=1, max_size=6), min_size=1, max_size=25),
       st.data())
def test_arrays_that_pass_the_check_are_safe_to_walk(words, data):
    """Random one-word damage to a DAWG: either the check rejects it, or every kernel walk stays in bounds
    (with NUMBA_BOUNDSCHECK=1 an out-of-bounds index would raise here) and spells the right number of words."""
    lex = Lexicon.from_words(words, alphabet="ABCD")
    d = lex.dawg.copy()
    i = data.draw(st.integers(0, d.shape[0] - 1))
    d[i] = data.draw(st.one_of(st.integers(0, 2 * d.shape[0] + 2), st.integers(0, (1 << 32) - 1)))
    if cache.check_arrays({"flat": lex.flat, "offsets": lex.offsets, "dawg": d}, 4):
        return
    n = lex.max_len
    flat, offs, _ = _queries.dawg_search(d, np.full(n, 15, np.uint32), np.zeros(n, np.uint8),
                                         np.zeros(4, np.int64), 0, False, 1, n, 0)
    assert offs.shape[0] - 1 == len(lex)
    out = np.zeros(len(lex), dtype=np.bool_)
    _dawg.contains_many(d, lex.flat, lex.offsets, out)


# ---------------------------------------------------------------- reading word lists
def test_devices_and_pipes_are_refused():
    with pytest.raises(LexiconError, match="not a regular file"):
        Lexicon.load("/dev/zero", use_cache=False)
    r, w = os.pipe()
    try:
        with pytest.raises(LexiconError, match="not a regular file"):
            Lexicon.load(f"/proc/self/fd/{r}", use_cache=False)
    finally:
        os.close(r)
        os.close(w)


def test_size_cap_names_the_path(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:  # sparse: no disk space used
        f.truncate(lexicon_module.MAX_FILE_BYTES + 1)
    with pytest.raises(LexiconError, match=r"big\.txt.*64 MiB"):
        Lexicon.load(big, use_cache=False)


def test_gzip_bomb_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(lexicon_module, "MAX_FILE_BYTES", 10_000)
    p = tmp_path / "bomb.txt.gz"
    p.write_bytes(gzip.compress(b"cat\n" * 5_000))
    with pytest.raises(LexiconError, match=r"bomb\.txt\.gz.*gzip data holds more than"):
        Lexicon.load(p, use_cache=False)
    p.write_bytes(gzip.compress(b"cat\n" * 100))
    assert Lexicon.load(p, use_cache=False).words == ["CAT"]


def test_cli_refuses_dev_zero(capsys):
    assert main(["lexicon", "--lexicon", "/dev/zero", "lookup", "CAT"]) == 2
    assert "not a regular file" in capsys.readouterr().err


# ---------------------------------------------------------------- case mapping that changes the length
def test_sharp_s(twl, capsys):
    assert "ß" not in twl and "straße" not in twl and "STRASSE" not in twl
    assert list(twl.contains_many(["ß", "QI", "straße"])) == [False, True, False]
    de = Lexicon.from_words(["straße", "Fuß", "ja"])
    assert de.words == ["FUSS", "JA", "STRASSE"]  # as str.upper() spells them, the same when read and looked up
    assert "straße" in de and "STRASSE" in de and "fuß" in de
    assert list(de.contains_many(["Straße", "fuss", "ß"])) == [True, True, False]
    assert [m.word for m in de.anagrams("ßfu")] == ["FUSS"]
    assert main(["lexicon", "lookup", "straße", "qi"]) == 1
    out = capsys.readouterr().out
    assert "STRASSE: no" in out and "QI: yes" in out
    with pytest.raises(InvalidWordError, match="not in the alphabet"):
        twl.encode("ǅx1")
    with pytest.raises(LexiconError, match="more than one letter in upper case"):
        Lexicon.from_words(["A"], alphabet="ABß")


# ---------------------------------------------------------------- paths and texts
def test_a_string_is_a_name_or_a_path_never_text():
    with pytest.raises(LexiconError, match=r"line breaks.*from_text"):
        Lexicon.load("cat\ndog\n", use_cache=False)
    with pytest.raises(LexiconError, match="NUL"):
        Lexicon.load("cat\0", use_cache=False)
    lex = Lexicon.from_text("# my words\n# alphabet: ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ\nås\nøl\nCAT\n")
    assert lex.words == ["CAT", "ØL", "ÅS"] and lex.name == "<text>"  # letter order of the given alphabet
    with pytest.raises(LexiconError, match="string"):
        Lexicon.from_text(["cat"])


def test_errors_name_the_file_and_line(tmp_path):
    p = tmp_path / "words.txt"
    p.write_text("cat\n" + "A" * 70 + "\ndog\n")
    with pytest.raises(LexiconError, match=r"words\.txt:2: a word of 70 letters"):
        Lexicon.load(p, strict=True, use_cache=False)
    assert Lexicon.load(p, use_cache=False).skipped == 1
    p.write_bytes(b"cat\ndog\nd\xe9j\xe0\n")
    with pytest.raises(LexiconError, match=r"words\.txt:3: not UTF-8"):
        Lexicon.load(p, use_cache=False)
    p.write_bytes(b"cat\n\0\0\n")
    with pytest.raises(LexiconError, match=r"words\.txt:2: a NUL byte"):
        Lexicon.load(p, use_cache=False)
    p.write_text("# alphabet: ABCA\ncat\n")
    with pytest.raises(LexiconError, match=r"words\.txt:1: alphabet 'ABCA' repeats a letter"):
        Lexicon.load(p, use_cache=False)
    with pytest.raises(LexiconError, match=r"mytext:3: 'c4t'"):
        Lexicon.from_text("cat\ndog\nc4t\n", strict=True, name="mytext")
    with pytest.raises(LexiconError, match=r"word #2 of the list: 'c\\nt'"):
        Lexicon.from_words(["cat", "c\nt"], strict=True)


# ---------------------------------------------------------------- huge inputs are cut in messages
@pytest.mark.parametrize("call", [
    lambda lex, big: lex.match(big + "1"),
    lambda lex, big: lex.match("[" + big),
    lambda lex, big: lex.anagrams(big + "1"),
    lambda lex, big: lex.match("A.", rack=big + "!"),
    lambda lex, big: lex.match("A.", method=big),
    lambda lex, big: lex.encode(big + "1"),
    lambda lex, big: lex.starting_with(big + "1"),
    lambda lex, big: lex.containing(big + "1"),
    lambda lex, big: Lexicon.from_words([big + "1"], strict=True),
    lambda lex, big: Lexicon.from_words(["A"], alphabet=big),
    lambda lex, big: Lexicon.load(big, use_cache=False),
    lambda lex, big: Lexicon.load(big + "\n", use_cache=False),
    lambda lex, big: Lexicon.from_words(["A", [big]]),
    lambda lex, big: lex.anagrams(list(big)),
])
def test_messages_cut_huge_inputs(call):
    lex = Lexicon.from_words(WORDS)
    big = "A" * 100_000
    with pytest.raises((InvalidWordError, LexiconError)) as e:
        call(lex, big)
    assert len(str(e.value)) < 400 and "..." in str(e.value)
