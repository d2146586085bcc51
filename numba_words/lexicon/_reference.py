"""Plain-Python word-finder answers (no tries, no arrays, no kernels): the truth the tests compare the kernels
with, and the baseline the tour and the benchmarks measure beside them.

Every function takes ``words``, an iterable of upper-case words, and scans all of them.
"""
from __future__ import annotations

from collections import Counter

BLANKS = "?*_"


def _rack(rack: str):
    have = Counter(rack.upper())
    blanks = sum(have.pop(b, 0) for b in BLANKS)
    return have, blanks


def _short(word, have) -> int:
    """How many letters of ``word`` the tiles ``have`` cannot supply (blanks must cover them)."""
    return sum(max(0, k - have.get(c, 0)) for c, k in Counter(word).items())


def anagrams(words, rack: str, min_len: int = 2, max_len: int | None = None) -> set:
    """Words formable from ``rack`` (``?``, ``*`` or ``_`` blanks) with ``min_len`` to ``max_len`` letters."""
    have, blanks = _rack(rack)
    n = sum(have.values()) + blanks
    if max_len is not None:
        n = min(n, max_len)
    return {w for w in words if min_len <= len(w) <= n and _short(w, have) <= blanks}


def pattern_slots(pattern: str, letters: str) -> list:
    """``[(allowed letters as a set, open?)]`` per square of a slot pattern (see ``Lexicon.parse_pattern``)."""
    full = set(letters)
    slots = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch in ".?":
            slots.append((full, True))
        elif ch == "[":
            j = pattern.index("]", i)
            body = pattern[i + 1:j].upper()
            if body.startswith("^"):
                slots.append((full - set(body[1:]), True))
            else:
                slots.append((set(body) & full, True))
            i = j
        else:
            slots.append(({ch.upper()}, False))
        i += 1
    return slots


def match(words, slots, rack: str | None = None) -> set:
    """Words fitting ``slots`` (``[(allowed letters, open?)]`` per square); with ``rack``, the letters on the
    open squares must come from it."""
    if rack is not None:
        have, blanks = _rack(rack)
    out = set()
    for w in words:
        if len(w) != len(slots) or not all(ch in allowed for ch, (allowed, _) in zip(w, slots)):
            continue
        if rack is not None and _short([ch for ch, (_, is_open) in zip(w, slots) if is_open], have) > blanks:
            continue
        out.add(w)
    return out


def starting_with(words, prefix: str) -> list:
    """Words that begin with ``prefix``, sorted."""
    p = prefix.upper()
    return sorted(w for w in words if w.startswith(p))


def containing(words, sub: str) -> list:
    """Words that contain ``sub``, sorted."""
    s = sub.upper()
    return sorted(w for w in words if s in w)
