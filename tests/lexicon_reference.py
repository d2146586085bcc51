"""Plain-Python word-finder answers (no tries, no arrays): the truth the kernels are checked against."""
from __future__ import annotations

from collections import Counter


def anagrams(words, rack, min_len=2):
    """Words formable from ``rack`` ('?' blanks) with at least ``min_len`` letters, as a set."""
    have = Counter(rack.upper())
    blanks = have.pop("?", 0)
    n = sum(have.values()) + blanks
    out = set()
    for w in words:
        if min_len <= len(w) <= n:
            need = Counter(w)
            if sum(max(0, k - have.get(c, 0)) for c, k in need.items()) <= blanks:
                out.add(w)
    return out


def match(words, slots, rack=None):
    """Words fitting ``slots`` (a list of (allowed letters as a set, open?) per square), optionally from a rack."""
    out = set()
    if rack is not None:
        have0 = Counter(rack.upper())
        blanks0 = have0.pop("?", 0)
    for w in words:
        if len(w) != len(slots):
            continue
        if not all(ch in allowed for ch, (allowed, _) in zip(w, slots)):
            continue
        if rack is not None:
            need = Counter(ch for ch, (_, is_open) in zip(w, slots) if is_open)
            if sum(max(0, k - have0.get(c, 0)) for c, k in need.items()) > blanks0:
                continue
        out.add(w)
    return out
