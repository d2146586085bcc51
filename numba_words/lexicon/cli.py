"""CLI for the lexicon: ``numba-words lexicon <query>`` (alias ``words``) and the lexicon part of ``tour``."""
from __future__ import annotations

import numpy as np

from .._timing import compare, once, rate


def register(sub) -> None:
    p = sub.add_parser("lexicon", aliases=["words"],
                       help="word-finder queries: anagrams, slot patterns, prefixes, lookups, stats",
                       description="Word-finder queries on a lexicon (default TWL06; --lexicon to choose).")
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

    name = getattr(args, "lexicon", None) or "twl06"
    lex = Lexicon.load(name)
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
        build = once(lambda: Lexicon.load(name, use_cache=False))
        cached = once(lambda: Lexicon.load(name))
        for k in ("name", "words", "letters", "alphabet", "max_len", "dawg_nodes", "dawg_edges", "dawg_bytes",
                  "sha256"):
            print(f"{k:>11}: {st[k]}")
        print(f"{'build':>11}: {build * 1e3:.1f} ms from text")
        print(f"{'cache load':>11}: {cached * 1e3:.1f} ms")
    return 0


def tour(lex, echo) -> None:
    """Lexicon statistics and word-finder queries, with throughput beside the plain-Python reference
    (``_reference.py``) measured in the same run. Works on any lexicon: queries are drawn from its own words
    when the usual examples do not fit its alphabet."""
    from . import _reference
    from ._dawg import contains_mapped
    from .lexicon import Lexicon

    echo("== Lexicon")
    st = lex.stats()
    letters = lex.alphabet.letters
    build = once(lambda: Lexicon.from_words(lex.words, alphabet=letters))
    cached = ""
    if lex.source and lex.source != "<words>":
        src = lex.name.lower() if lex.name in ("TWL06", "SOWPODS", "nb-small") else lex.source
        cached = f", from the disk cache in {once(lambda: Lexicon.load(src, alphabet=letters)) * 1e3:.0f} ms"
    echo(f"{st['words']:,} words, {st['letters']:,} letters, longest {st['max_len']}; DAWG {st['dawg_nodes']:,} "
         f"nodes, {st['dawg_edges']:,} edges, {st['dawg_bytes'] / 1024:.0f} KiB; built from its words in "
         f"{build * 1e3:.0f} ms{cached}")
    rng = np.random.default_rng(2026)
    words = lex.words
    sample = [words[i] for i in rng.integers(0, len(words), 10000)]
    junk_letters = "".join(rng.choice(list(letters), size=60000))
    cuts = np.cumsum(rng.integers(2, 9, size=10000))
    junk = [junk_letters[a:b] for a, b in zip(np.r_[0, cuts[:-1]], cuts) if b <= len(junk_letters)]
    probe = sample + junk
    py_set = set(words)
    mapped = lex.alphabet.map_codepoints(np.frombuffer("\n".join(probe).encode("utf-32-le"), dtype=np.uint32))
    found = np.zeros(len(probe), dtype=np.bool_)
    n = len(probe)
    enc = compare(lambda: contains_mapped(lex.dawg, mapped, found), lambda: [w in py_set for w in probe], n,
                  min_time=0.03)
    txt = compare(lambda: lex.contains_many(probe), lambda: [w in py_set for w in probe], n, min_time=0.03)
    echo(f"lookups: {enc.rate / 1e6:.1f} M/s on encoded words in the DAWG kernel, {txt.rate / 1e6:.1f} M/s from "
         f"Python strings (encoding included); Python set: {enc.baseline / 1e6:.1f} M/s ({enc.ratio:.1f}x, "
         f"{txt.ratio:.2f}x)")
    rack = _example(lex, "RETAINS", 7)
    res = lex.anagrams(rack)
    c = compare(lambda: lex.anagrams(rack), lambda: _reference.anagrams(words, rack), min_time=0.03,
                baseline_min_time=0.0)
    echo(f"anagrams({rack!r}): {len(res)} words, best {', '.join(str(m) for m in res[:4])}; "
         f"{c.rate:,.0f} queries/s (plain-Python scan: {c.baseline:,.1f}/s, {c.ratio:,.0f}x)")
    blank_rack = _example(lex, "QUIZ?ES", 7, blank=True)
    res = lex.anagrams(blank_rack)
    echo(f"anagrams({blank_rack!r}), blank lower case: {', '.join(str(m) for m in res[:6])}")
    pat = _pattern(lex)
    res = lex.match(pat)
    slots = _reference.pattern_slots(pat, letters)
    c = compare(lambda: lex.match(pat), lambda: _reference.match(words, slots), min_time=0.03,
                baseline_min_time=0.0)
    d = rate(lambda: lex.match(pat, method="dawg"), min_time=0.03)
    echo(f"match({pat!r}): {len(res)} words; bitset matcher {c.rate:,.0f} queries/s, DAWG walk {d:,.0f}/s "
         f"(plain-Python scan: {c.baseline:,.1f}/s, {c.ratio:,.0f}x)")
    prack = _example(lex, "AEIT?", 5, blank=True)
    res = lex.match(pat, rack=prack)
    echo(f"match({pat!r}, rack={prack!r}): {', '.join(str(m) for m in res[:8])}{' ...' if len(res) > 8 else ''} "
         f"({len(res)})")


def _fits(lex, text: str) -> bool:
    return all(ch in "?" or ch in lex.alphabet for ch in text)


def _example(lex, usual: str, n: int, blank: bool = False) -> str:
    """``usual`` if the lexicon's alphabet spells it, else the letters of one of its own words of up to ``n``
    letters (its last letter a blank ``?`` when ``blank``)."""
    if _fits(lex, usual):
        return usual
    longest = [w for w in lex.words if len(w) <= n]
    w = max(longest or lex.words[:1], key=len)[:n]
    return w[:-1] + "?" if blank and len(w) > 1 else w


def _pattern(lex) -> str:
    """``..R.S`` if it fits the lexicon, else a pattern from one of its words (first and last letters kept)."""
    if _fits(lex, "RS") and lex.max_len >= 5:
        return "..R.S"
    w = max(lex.words, key=len)[:5]
    return w if len(w) < 3 else w[0] + "." * (len(w) - 2) + w[-1]
