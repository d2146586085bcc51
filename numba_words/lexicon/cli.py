"""CLI for the lexicon: ``numba-words words ...`` queries and the lexicon part of ``tour``."""
from __future__ import annotations

import time

import numpy as np

from .._timing import once as _once
from .._timing import rate as _rate


def register(sub) -> None:
    p = sub.add_parser("words", help="word-finder queries: anagrams, slot patterns, prefixes, lookups, stats",
                       description="Word-finder queries on a lexicon (default TWL06).")
    p.add_argument("--lexicon", default="twl06", help="lexicon name (twl06, sowpods, nb-small) or word-list path")
    ws = p.add_subparsers(dest="words_command", metavar="QUERY", required=True)
    a = ws.add_parser("anagram", help="words formable from a rack ('?' = blank; blanks shown lower case)")
    a.add_argument("rack")
    a.add_argument("--min-len", type=int, default=2)
    a.add_argument("--top", type=int, default=50, help="print at most this many (0 = all)")
    m = ws.add_parser("match", help="words fitting a slot pattern like '..R.S' or 'C[AEIOU]T'")
    m.add_argument("pattern")
    m.add_argument("--rack", default=None, help="open squares must be filled from this rack")
    m.add_argument("--method", default="auto", choices=["auto", "bitset", "dawg"])
    m.add_argument("--top", type=int, default=50)
    s = ws.add_parser("prefix", help="words starting with a prefix")
    s.add_argument("prefix")
    s.add_argument("--top", type=int, default=50)
    c = ws.add_parser("contains", help="words containing a substring")
    c.add_argument("substring")
    c.add_argument("--top", type=int, default=50)
    lk = ws.add_parser("lookup", help="is each word in the lexicon?")
    lk.add_argument("word", nargs="+")
    ws.add_parser("stats", help="word counts, DAWG size, build and cache-load times")
    p.set_defaults(func=_run)


def _show(items, top) -> None:
    items = list(items)
    shown = items if top <= 0 else items[:top]
    for x in shown:
        print(x)
    more = len(items) - len(shown)
    print(f"-- {len(items)} words" + (f" ({more} not shown; --top 0 shows all)" if more else ""))


def _run(args) -> int:
    from .lexicon import Lexicon

    lex = Lexicon.load(args.lexicon)
    q = args.words_command
    if q == "anagram":
        _show(map(str, lex.anagrams(args.rack, min_len=args.min_len)), args.top)
    elif q == "match":
        _show(map(str, lex.match(args.pattern, rack=args.rack, method=args.method)), args.top)
    elif q == "prefix":
        _show(lex.starting_with(args.prefix), args.top)
    elif q == "contains":
        _show(lex.containing(args.substring), args.top)
    elif q == "lookup":
        found = lex.contains_many(args.word)
        for w, f in zip(args.word, found):
            print(f"{w.upper()}: {'yes' if f else 'no'}")
        return 0 if found.all() else 1
    elif q == "stats":
        st = lex.stats()
        t = time.perf_counter()
        Lexicon.load(args.lexicon, use_cache=False)
        build = time.perf_counter() - t
        t = time.perf_counter()
        Lexicon.load(args.lexicon)
        cached = time.perf_counter() - t
        for k in ("name", "words", "letters", "alphabet", "max_len", "dawg_nodes", "dawg_edges", "dawg_bytes",
                  "sha256"):
            print(f"{k:>11}: {st[k]}")
        print(f"{'build':>11}: {build * 1e3:.1f} ms from text")
        print(f"{'cache load':>11}: {cached * 1e3:.1f} ms")
    return 0


def tour(lex, echo) -> None:
    """Lexicon statistics and word-finder queries with throughput beside plain-Python baselines."""
    from .lexicon import Lexicon

    echo("== Lexicon")
    st = lex.stats()
    src = lex.source if lex.name not in ("TWL06", "SOWPODS") else lex.name.lower()
    build = _once(lambda: Lexicon.load(src, use_cache=False))
    echo(f"{st['words']:,} words, {st['letters']:,} letters, longest {st['max_len']}; DAWG {st['dawg_nodes']:,} "
         f"nodes, {st['dawg_edges']:,} edges, {st['dawg_bytes'] / 1024:.0f} KiB; built from text in "
         f"{build * 1e3:.0f} ms, from the disk cache in {_once(lambda: Lexicon.load(src)) * 1e3:.0f} ms")
    rng = np.random.default_rng(2026)
    words = lex.words
    sample = [words[i] for i in rng.integers(0, len(words), 10000)]
    letters = "".join(rng.choice(list(lex.alphabet.letters), size=60000))
    cuts = np.cumsum(rng.integers(2, 9, size=10000))
    junk = [letters[a:b] for a, b in zip(np.r_[0, cuts[:-1]], cuts) if b <= len(letters)]
    probe = sample + junk
    py_set = set(words)
    from ._dawg import contains_mapped

    mapped = lex.alphabet.map_codepoints(np.frombuffer("\n".join(probe).encode("utf-32-le"), dtype=np.uint32))
    found = np.zeros(len(probe), dtype=np.bool_)
    e_rate = _rate(lambda: contains_mapped(lex.dawg, mapped, found), min_time=0.03) * len(probe)
    k_rate = _rate(lambda: lex.contains_many(probe), min_time=0.03) * len(probe)
    p_rate = _rate(lambda: [w in py_set for w in probe], min_time=0.03) * len(probe)
    echo(f"lookups: {e_rate / 1e6:.1f} M/s on encoded words in the DAWG kernel, {k_rate / 1e6:.1f} M/s from Python "
         f"strings (encoding included); Python set: {p_rate / 1e6:.1f} M/s ({e_rate / p_rate:.1f}x, "
         f"{k_rate / p_rate:.2f}x)")
    rack = "RETAINS"
    res = lex.anagrams(rack)
    a_rate = _rate(lambda: lex.anagrams(rack), min_time=0.03)
    bf_rate = 1 / _once(lambda: _brute_anagrams(words, rack))
    echo(f"anagrams({rack!r}): {len(res)} words, best {', '.join(str(m) for m in res[:4])}; "
         f"{a_rate:,.0f} queries/s (brute-force scan: {bf_rate:,.1f}/s, {a_rate / bf_rate:,.0f}x)")
    res = lex.anagrams("QUIZ?ES")
    echo(f"anagrams('QUIZ?ES'), blank lower case: {', '.join(str(m) for m in res[:6])}")
    pat = "..R.S"
    res = lex.match(pat)
    m_rate = _rate(lambda: lex.match(pat), min_time=0.03)
    d_rate = _rate(lambda: lex.match(pat, method="dawg"), min_time=0.03)
    echo(f"match({pat!r}): {len(res)} words; bitset matcher {m_rate:,.0f} queries/s, DAWG walk "
         f"{d_rate:,.0f}/s")
    res = lex.match(pat, rack="AEIT?")
    echo(f"match({pat!r}, rack='AEIT?'): {', '.join(str(m) for m in res[:8])} ... ({len(res)})")


def _brute_anagrams(words, rack):
    from collections import Counter

    have = Counter(rack.upper())
    blanks = have.pop("?", 0)
    out = []
    for w in words:
        if len(w) > len(rack):
            continue
        need = Counter(w)
        short = sum(max(0, n - have.get(c, 0)) for c, n in need.items())
        if short <= blanks:
            out.append(w)
    return out
