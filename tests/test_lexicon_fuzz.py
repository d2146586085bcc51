"""Fuzzing the lexicon's inputs: any word list, alphabet, pattern, rack, lookup or command line gives a result
or a NumbaWordsError (never another exception, a crash or a hang), and results agree with the plain-Python
reference (``numba_words/lexicon/_reference.py``)."""
from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from numba_words import InvalidWordError, Lexicon, NumbaWordsError
from numba_words.cli import main
from numba_words.lexicon import _reference as ref
from numba_words.lexicon.lexicon import MAX_WORD_LEN, SkippedLinesWarning

STRIP = " \t\r\f\v"
# text with the characters that matter: letters of the test alphabets, case pairs, 'ß', blanks, pattern
# syntax, whitespace, comments, line breaks, NUL, surrogates, and anything else
# (letters drawn more often, so that about half the inputs are valid)
letters = st.sampled_from(list("ABCabcÅåÆæ"))
chars = st.one_of(letters, letters, letters, letters, st.sampled_from(list("ß?*_.[]^# \t\r\n\x00\ud800Σς")),
                  st.characters())
texts = st.text(chars, max_size=12)
clean = st.text(letters, min_size=1, max_size=8)


def expected_words(items, letters):
    """What a word list of ``items`` holds, written out plainly: case mapped per line, blank lines, comment
    lines and lines with a character outside the alphabet (or too long) dropped."""
    return set(_lines(items, letters)[0])


def _lines(items, letters):
    """``(words, n_bad)``: the words of the lines that hold one (duplicates kept) and the count of other lines
    that are neither blank nor a comment (a line's end is not part of it)."""
    out, bad = [], 0
    for w in items:
        w = w.rstrip("\r\n")
        if "\n" in w:
            bad += 1
            continue
        if w.lstrip(" \t").startswith("#"):
            continue
        u = w.upper().strip(STRIP)
        if u and len(u) <= MAX_WORD_LEN and all(c in letters for c in u):
            out.append(u)
        elif u:
            bad += 1
    return out, bad


def expected_sorted(items, letters):
    order = {c: i for i, c in enumerate(letters)}
    return sorted(expected_words(items, letters), key=lambda w: [order[c] for c in w])


@settings(max_examples=300)
@given(st.lists(st.one_of(texts, clean), max_size=20),
       st.one_of(st.just("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), st.just("ABCÅÆ"), st.just("ÆÅCBA"), texts))
def test_any_word_list_and_alphabet(items, letters):
    """Any list gives its words (line ends stripped), with a warning when most lines are skipped, or an error."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", SkippedLinesWarning)
            lex = Lexicon.from_words(items, alphabet=letters)
    except NumbaWordsError as e:
        event(f"error: {type(e).__name__}")
        return
    event("result")
    assert lex.words == expected_sorted(items, lex.alphabet.letters)
    words, bad = _lines(items, lex.alphabet.letters)
    assert [w.category for w in caught] == ([SkippedLinesWarning] if bad > len(words) else [])
    assert list(lex.contains_many(lex.words)) == [True] * len(lex)


@pytest.fixture(scope="module")
def small():
    words = ["A", "AB", "BA", "ABC", "CAB", "BAC", "CABA", "ABBA", "BAAA", "CC", "ÅBC", "ACÅ", "ÆÅ"]
    return Lexicon.from_words(words, alphabet="ABCÅÆ")


squares = st.one_of(st.sampled_from(list("ABCabcÅæ.?..")),
                    st.builds(lambda neg, body: "[" + neg + body + "]", st.sampled_from(["", "^"]),
                              st.text(st.sampled_from(list("ABCÅÆa")), min_size=1, max_size=3)))
patterns = st.one_of(st.lists(squares, min_size=1, max_size=5).map("".join),  # valid patterns
                     st.text(st.one_of(st.sampled_from(list("ABCabcÅæ.?[]^ ß1")), st.characters()), max_size=8))
racks = st.one_of(st.text(st.sampled_from(list("ABCÅÆabcåæ?*_")), max_size=9),
                  st.text(st.sampled_from(list("ABCÅÆabcåæ?*_ßx1 ")), max_size=12))


@settings(max_examples=300)
@given(patterns, st.one_of(st.none(), racks), st.sampled_from(["auto", "bitset", "dawg"]))
def test_any_pattern_and_rack(small, pattern, rack, method):
    try:
        got = small.match(pattern, rack=rack, method=method)
    except NumbaWordsError as e:
        event(f"error: {type(e).__name__}")
        return
    event("result")
    slots = ref.pattern_slots(pattern, small.alphabet.letters)
    assert {m.word for m in got} == ref.match(small.words, slots, rack)


@settings(max_examples=300)
@given(racks, st.integers(-1, 6),
       st.one_of(st.none(), st.integers(-2, 80)))
def test_any_rack(small, rack, min_len, max_len):
    try:
        got = small.anagrams(rack, min_len=min_len, max_len=max_len)
    except NumbaWordsError as e:
        event(f"error: {type(e).__name__}")
        return
    event("result")
    assert min_len >= 1 and (max_len is None or max_len >= 0)
    assert {m.word for m in got} == ref.anagrams(small.words, rack, min_len, max_len)


@settings(max_examples=300)
@given(st.lists(st.one_of(texts, st.sampled_from(["AB", "ab", "CAB ", "ÆÅ", "æå", "", "A" * 70]), st.integers(),
                          st.none()), max_size=10))
def test_any_lookup(small, probes):
    words = set(small.words)
    want = [isinstance(p, str) and p.upper() in words for p in probes]
    assert [p in small for p in probes] == want
    if all(isinstance(p, str) for p in probes):
        assert list(small.contains_many(probes)) == want
        assert list(small.contains_many(iter(probes))) == want
    else:  # a non-string is refused, as encode() refuses it
        with pytest.raises(InvalidWordError, match="not a string"):
            small.contains_many(probes)
    with pytest.raises(InvalidWordError, match="not the string"):  # one string is not a list of words
        small.contains_many("".join(p for p in probes if isinstance(p, str)))


@pytest.fixture(scope="module")
def word_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("fuzz") / "words.txt"
    p.write_text("# alphabet: ABCÅÆ\n" + "\n".join(["A", "AB", "BA", "ABC", "CAB", "ÆÅ"]) + "\n")
    return str(p)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["anagram", "match", "prefix", "contains", "lookup", "stats"]),
       st.one_of(texts, patterns, racks),
       st.lists(st.one_of(st.sampled_from([["--json"], ["--csv"], ["--quiet"], ["--top", "0"], ["--top", "2"],
                                           ["--rack", "AB?"], ["--method", "dawg"], ["--min-len", "1"]]),
                          st.lists(st.sampled_from(["--top", "-1", "x", "--rack", "--json", "--min-len"]),
                                   max_size=2)), max_size=3).map(lambda xs: [a for x in xs for a in x]))
def test_any_command_line(word_file, verb, arg, extra):
    assume("\x00" not in arg)  # a command line cannot hold NUL
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["lexicon", "--lexicon", word_file, verb, *extra] + ([] if verb == "stats" else ["--", arg]))
        except SystemExit as e:  # argparse refusing an option: its usage message and status 2
            code = e.code
    event(f"exit status {code}")
    assert code in (0, 1, 2), (code, err.getvalue())
    if code == 2:  # every error, argparse's usage errors too, is one line (after the load's own progress line)
        lines = err.getvalue().splitlines()
        errors = [line for line in lines if line.startswith("numba-words: error: ")]
        assert len(errors) == 1 and lines[-1] == errors[0] and "Traceback" not in err.getvalue(), lines


# ---------------------------------------------------------------------- usage errors of every verb
def _verbs():
    """``(path, option strings)`` of every parser of the command line (the program and each verb)."""
    import argparse

    from numba_words.cli import build_parser

    out, stack = [], [((), build_parser())]
    while stack:
        path, p = stack.pop()
        out.append((path, sorted({s for a in p._actions for s in a.option_strings if s not in ("-h", "--help")})))
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                stack += [(path + (name,), sp) for name, sp in a.choices.items()]
    return sorted(out)


VERBS = _verbs()
_PARSER: list = []


@settings(max_examples=150)
@given(st.sampled_from(VERBS), st.data())
def test_any_usage_error_is_one_line(verb, data):
    """Any verb with options and values drawn from its own options and junk: when the parser refuses it, one line
    ``numba-words: error: [VERB: ]...`` with a hint to ``--help``, exit status 2, nothing on stdout (the command
    itself is not run: only the parser is under test)."""
    from numba_words.cli import build_parser

    parser = _PARSER or _PARSER.append(build_parser()) or _PARSER  # (one parser: building one takes ~40 ms)
    path, options = verb
    junk = ["", "-", "--", "-1", "0", "abc", "2**33", "1e9", "nan", "--nosuch", "-Z", "ÆØ", "x" * 90]
    tail = data.draw(st.lists(st.sampled_from(options + junk) if options else st.sampled_from(junk), max_size=5))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            parser[0].parse_args([*path, *tail])
            return  # (a command line the parser takes: its checks are the verb's, fuzzed elsewhere)
        except SystemExit as e:
            code = e.code
    if code == 0 and "--version" in tail:
        return  # (the parser printed the version and stopped, as asked)
    event(f"refused {' '.join(path[:1])}")
    assert code == 2 and out.getvalue() == "", (code, out.getvalue())
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("numba-words: error: "), lines
    hint = lines[0].rsplit("(see 'numba-words", 1)  # (the verb's name, or the one an alias stands for)
    assert len(hint) == 2 and hint[1].endswith(" --help')"), lines


# ---------------------------------------------------------------------- derived tables tampered in the cache
def _derived(kind):
    """``(table of a lexicon, its cache file's name part)`` for each kind of derived table kept on disk."""
    from numba_words.bookworm import _tables as B
    from numba_words.scrabble import _tables as S

    return {"reach": (S.reach_for, "scrabble.reach"), "wtabs": (S.wtabs_for, "scrabble.wtabs"),
            "substrings": (S.sub_for, "scrabble.substrings"), "pack": (B.tables, "bookworm.pack"),
            "reversed": (lambda lex: lex.reversed_dawg, "lexicon.reversed_dawg")}[kind]


def _flat(table) -> list:
    return [np.asarray(a) for a in (table if isinstance(table, tuple) else (table,))]


@pytest.mark.parametrize("kind", ["reach", "wtabs", "substrings", "pack", "reversed"])
def test_tampered_derived_tables(kind, tmp_path_factory):
    """A derived table's cache file with one member changed (a value, its shape, its dtype, or gone), written as a
    valid archive: the next load gives the table a fresh build gives (rebuilt, with a CacheWarning), never a
    crash or other values."""
    import os
    import shutil

    from numba_words.lexicon.cache import CacheWarning

    table_of, part = _derived(kind)
    d = tmp_path_factory.mktemp(kind)
    src = d / "list.txt"
    src.write_text("CAT\nACT\nDOG\nGOD\nTACT\nCATS\nACTS\nDOGS\nTAD\nTOAD\n")
    old = os.environ.get("NUMBA_WORDS_CACHE_DIR")
    os.environ["NUMBA_WORDS_CACHE_DIR"] = str(d)
    try:
        want = _flat(table_of(Lexicon.load(src)))
        (f,) = d.glob(f"derived-*-{part}-*.npz")
        pristine = d / "pristine.bin"
        shutil.copyfile(f, pristine)
        members = sorted(np.load(f).files)

        @settings(max_examples=8, deadline=None)
        @given(st.sampled_from(members), st.sampled_from(["value", "shape", "dtype", "drop"]), st.integers(0, 10 ** 7),
               st.sampled_from([-1, 0, 1, 7, 255, 2 ** 31 - 1, 2 ** 40, -(2 ** 40)]))
        def tamper(member, how, where, value):
            z = dict(np.load(pristine))
            a = z[member].copy()
            if how == "value" and a.size:
                flat = a.reshape(-1)
                flat[where % flat.size] = np.array(value).astype(a.dtype)
            elif how == "shape":
                a = a.reshape(-1)[: max(a.size - 1 - where % 3, 0)]
            elif how == "dtype":
                a = a.astype(np.float64 if a.dtype.kind in "iu" else np.int64)
            z[member] = a
            if how == "drop":
                del z[member]
            with open(f, "wb") as fh:
                np.savez(fh, **z)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                got = _flat(table_of(Lexicon.load(src)))
            assert len(got) == len(want) and all(g.dtype == w.dtype and np.array_equal(g, w) for g, w in zip(got, want))
            changed = any(k not in z or z[k].dtype != v.dtype or not np.array_equal(z[k], v)
                          for k, v in np.load(pristine).items())
            event("changed" if changed else "same values")
            assert not changed or any(issubclass(w.category, CacheWarning) for w in caught)

        tamper()
    finally:
        if old is None:
            del os.environ["NUMBA_WORDS_CACHE_DIR"]
        else:
            os.environ["NUMBA_WORDS_CACHE_DIR"] = old
