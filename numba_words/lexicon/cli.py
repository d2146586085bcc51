"""CLI for the lexicon: ``numba-words lexicon <query>`` (alias ``words``) and the lexicon part of ``tour``."""
from __future__ import annotations

import numpy as np

from .. import _console
from .._timing import compare, once, rate, timed


LOOKUP_STATUS = "exit status: 0 if every word is in the lexicon, 1 if some are not, 2 on an error"


def register(sub) -> None:
    """``numba-words lexicon <query>`` (also spelled ``numba-words words``)."""
    p = sub.add_parser("lexicon", aliases=["words"],
                       help="word-finder queries: anagrams, slot patterns, prefixes, substrings, lookups, stats",
                       description="Word-finder queries on a lexicon (default TWL06; choose with --lexicon NAME or "
                       "a word-list path). Results go to stdout (text, --json or --csv); counts and timings to "
                       "stderr.")
    ws = p.add_subparsers(dest="words_command", metavar="QUERY", required=True)

    def top(q):
        q.add_argument("--top", type=int, default=50, metavar="N", help="show at most N results (default 50; 0 = all)")

    a = ws.add_parser("anagram", help="words formable from a rack ('?' = blank; blanks shown lower case)",
                      description="Every word formable from the rack's tiles, longest first then alphabetical. "
                      "'?' (or '*', '_') is a blank; letters played by blanks are shown in lower case.")
    a.add_argument("rack", help="the tiles, e.g. RETAIN? (a rack may hold more tiles than the longest word)")
    a.add_argument("--min-len", type=int, default=2, metavar="N", help="shortest word to list (default 2)")
    a.add_argument("--max-len", type=int, default=None, metavar="N", help="longest word to list (default: any)")
    top(a)
    m = ws.add_parser("match", help="words fitting a slot pattern like '..R.S' or 'C[AEIOU]T'",
                      description="Words fitting a slot: a letter is fixed, '.' or '?' is any letter, [AEIOU] one "
                      "of a set, [^AEIOU] none of a set. With --rack the open squares are filled from the rack.")
    m.add_argument("pattern", help="the slot, one square per letter, '.', '?' or [class]")
    m.add_argument("--rack", default=None, help="open squares must be filled from this rack ('?' = blank)")
    m.add_argument("--method", default="auto", choices=["auto", "bitset", "dawg"],
                   help="matcher: the bit-set tables, the DAWG walk, or auto (the faster; default)")
    top(m)
    s = ws.add_parser("prefix", help="words starting with a prefix", description="Words that begin with PREFIX "
                      "(the prefix itself included when it is a word), alphabetical.")
    s.add_argument("prefix", help="the first letters")
    s.add_argument("--max-len", type=int, default=None, metavar="N", help="longest word to list (default: any)")
    top(s)
    c = ws.add_parser("contains", help="words containing a substring",
                      description="Words that contain SUBSTRING anywhere, alphabetical.")
    c.add_argument("substring", help="letters that must appear together in the word")
    top(c)
    lk = ws.add_parser("lookup", help="is each word in the lexicon? (exit status 1 if one is not)",
                       description="Look words up: one line (or record) per word. " + LOOKUP_STATUS + ".",
                       epilog=LOOKUP_STATUS)
    lk.add_argument("word", nargs="+", help="words to look up (case does not matter)")
    ws.add_parser("stats", help="word counts, DAWG size, build and cache-load times",
                  description="Counts and sizes of the lexicon and its DAWG; the times to build it from its "
                  "text and to load it from the disk cache (on stderr in text mode).")
    p.set_defaults(func=_run)


def _emit_words(args, items, seconds: float, what: str) -> None:
    """The first ``--top`` results (``WordMatch`` or ``str``) as text lines or records, and a count on stderr."""
    items = list(items)
    n_top = args.top if args.top > 0 else len(items)
    shown = items[:n_top]
    records = []
    for x in shown:
        word = getattr(x, "word", x)
        rec = {"word": word, "length": len(word)}
        if hasattr(x, "blanks"):
            rec["shown"] = str(x)
            rec["blanks"] = list(x.blanks)
        records.append(rec)
    _console.emit(args, records, lambda: print("\n".join(r.get("shown", r["word"]) for r in records)) if records
                  else None)
    more = len(items) - len(shown)
    _console.note(args, f"-- {len(items):,} {what}" + (f" ({more:,} not shown; --top 0 shows all)" if more else "")
                  + f" in {seconds * 1e3:.2f} ms")


def _run(args) -> int:
    from .lexicon import Lexicon

    name = getattr(args, "lexicon", None) or "twl06"
    _console.output_format(args)  # --json with --csv is an error before any work
    lex, dt = timed(lambda: Lexicon.load(name))
    _console.note(args, f"{lex.name}: {len(lex):,} words ({lex.load_note}, {dt * 1e3:.0f} ms)")
    q = args.words_command
    if q == "anagram":
        res, dt = timed(lambda: lex.anagrams(args.rack, min_len=args.min_len, max_len=args.max_len))
        _emit_words(args, res, dt, "words")
    elif q == "match":
        res, dt = timed(lambda: lex.match(args.pattern, rack=args.rack, method=args.method))
        _emit_words(args, res, dt, "words")
    elif q == "prefix":
        res, dt = timed(lambda: lex.starting_with(args.prefix, max_len=args.max_len))
        _emit_words(args, res, dt, "words")
    elif q == "contains":
        res, dt = timed(lambda: lex.containing(args.substring))
        _emit_words(args, res, dt, "words")
    elif q == "lookup":
        found, dt = timed(lambda: lex.contains_many(args.word))
        records = [{"word": w.upper(), "found": bool(f)} for w, f in zip(args.word, found)]
        _console.emit(args, records,
                      lambda: print("\n".join(f"{r['word']}: {'yes' if r['found'] else 'no'}" for r in records)))
        _console.note(args, f"-- {int(found.sum())} of {len(records)} found in {dt * 1e3:.2f} ms")
        return 0 if found.all() else 1
    elif q == "stats":
        st = lex.stats()
        build = once(lambda: Lexicon.load(name, use_cache=False))
        cached = once(lambda: Lexicon.load(name))
        record = {**st, "build_ms": round(build * 1e3, 2), "cache_load_ms": round(cached * 1e3, 2)}

        def text():
            for k in ("name", "words", "letters", "alphabet", "max_len", "dawg_nodes", "dawg_edges", "dawg_bytes",
                      "sha256"):
                print(f"{k:>11}: {st[k]}")
            print(f"{'lengths':>11}: " + ", ".join(f"{k}: {v}" for k, v in st["length_histogram"].items()))

        _console.emit(args, [record], text)
        _console.note(args, f"built from its text in {build * 1e3:.1f} ms, loaded from the disk cache in "
                      f"{cached * 1e3:.1f} ms")
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
    loaded = ""
    if lex.source and lex.source != "<words>":
        src = lex.name.lower() if lex.name in ("TWL06", "SOWPODS", "nb-small") else lex.source
        loaded = f"; loads from the disk cache in {once(lambda: Lexicon.load(src, alphabet=letters)) * 1e3:.0f} ms"
    echo(f"{st['words']:,} words, {st['letters']:,} letters, longest {st['max_len']}; DAWG {st['dawg_nodes']:,} "
         f"nodes, {st['dawg_edges']:,} edges, {st['dawg_bytes'] / 1024:.0f} KiB{loaded} (build time: "
         f"'numba-words lexicon stats')")
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
