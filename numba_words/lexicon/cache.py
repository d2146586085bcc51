"""On-disk cache of encoded lexicons: plain ``.npz`` arrays (never pickle), keyed by the source's hash.

A file that is unreadable, truncated, whose members fail the zip format's CRC-32 (checked by ``np.load`` as
it reads), or whose arrays are not a sound lexicon (one kernel pass: the kernels index with them unchecked) is
rebuilt with a warning.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import warnings
import zipfile
from pathlib import Path

import numpy as np

from . import _dawg

FORMAT = 2  # 2: structure checked on load, the zip CRC-32 instead of a SHA-256 of the arrays
_ARRAYS = ("flat", "offsets", "dawg")


class CacheWarning(UserWarning):
    """A lexicon cache file was ignored (and is being rebuilt)."""


def cache_dir() -> Path:
    """``$NUMBA_WORDS_CACHE_DIR``, else ``$XDG_CACHE_HOME/numba_words``, else ``~/.cache/numba_words``."""
    d = os.environ.get("NUMBA_WORDS_CACHE_DIR")
    if d:
        return Path(d)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "numba_words"


def source_key(raw: bytes, alphabet: str, strict: bool) -> str:
    """Cache key of a raw word list read with a given alphabet and strictness."""
    h = hashlib.sha256()
    h.update(f"numba_words-lexicon-v{FORMAT}\0{alphabet}\0{int(strict)}\0".encode())
    h.update(raw)
    return h.hexdigest()


def path_for(key: str) -> Path:
    return cache_dir() / f"lexicon-{key[:32]}.npz"


def load(key: str):
    """The cached arrays and metadata for ``key``, or ``None`` (missing, or corrupt: warned and removed)."""
    p = path_for(key)
    if not p.exists():
        return None
    try:
        with open(p, "rb") as f, np.load(f, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
        meta = {k: str(data[k][()]) for k in ("key", "sha256", "alphabet", "format")}
        if meta["key"] != key or meta["format"] != str(FORMAT):
            raise ValueError("stale cache entry")
        arrays = {k: data[k] for k in _ARRAYS}
        if arrays["flat"].dtype != np.uint8 or arrays["offsets"].dtype != np.int64 or arrays["dawg"].dtype != np.uint32:
            raise ValueError("wrong array types")
        if any(a.ndim != 1 for a in arrays.values()):
            raise ValueError("arrays are not one-dimensional")
        problem = check_arrays(arrays, len(meta["alphabet"]))
        if problem:
            raise ValueError(problem)
        return arrays, meta, int(data["skipped"][()]), data["bad_lines"]
    except Exception as e:  # noqa: BLE001 - any failure means: do not trust the file
        return _discard(p, "lexicon cache file", e)


def _discard(p: Path, what: str, why) -> None:
    """Warn that the cache file ``p`` is not trusted, and remove it."""
    warnings.warn(f"ignoring {what} {str(p)!r} ({why}); rebuilding it", CacheWarning, stacklevel=4)
    try:
        p.unlink()
    except OSError:
        pass


_PROBLEMS = {
    _dawg.BAD_OFFSETS: "word offsets do not run from 0 to the letter count",
    _dawg.BAD_LENGTH: "word #{} has no letters or too many",
    _dawg.BAD_LETTER: "letter #{} is outside the alphabet",
    _dawg.BAD_EMPTY: "the DAWG is empty",
    _dawg.BAD_MASK: "DAWG node at offset {} has letters outside the alphabet",
    _dawg.BAD_NODE_END: "DAWG nodes do not fill the array",
    _dawg.BAD_EDGE: "DAWG edge at offset {} does not point to a later node",
    _dawg.BAD_DEAD_END: "DAWG edge at offset {} leads to no word",
    _dawg.BAD_WORD_COUNT: "the DAWG spells {} words, not the word list's count",
    _dawg.BAD_DEPTH: "the DAWG's longest word has {} letters, not the word list's longest",
}


def check_arrays(arrays: dict, n_letters: int) -> str | None:
    """What is structurally wrong with a lexicon's ``flat``/``offsets``/``dawg`` arrays, or ``None``."""
    from ._queries import MAX_DEPTH

    if not 1 <= n_letters <= 32:
        return f"alphabet of {n_letters} letters"
    size = arrays["dawg"].shape[0]
    index = np.full(size, -1, dtype=np.int32)
    work = np.empty((3, size), dtype=np.int64)
    code, where = _dawg.check_arrays(arrays["flat"], arrays["offsets"], arrays["dawg"], n_letters, MAX_DEPTH, index,
                                     work)
    return _PROBLEMS[code].format(int(where)) if code else None


def save(key: str, arrays: dict, sha256: str, alphabet: str, skipped: int, bad_lines) -> Path | None:
    """Write the cache file atomically; failures (read-only home, full disk) are silently skipped."""
    p = path_for(key)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.savez(
                f,
                key=np.array(key),
                format=np.array(str(FORMAT)),
                sha256=np.array(sha256),
                alphabet=np.array(alphabet),
                skipped=np.array(skipped, dtype=np.int64),
                bad_lines=np.asarray(bad_lines, dtype=np.int64),
                **arrays,
            )
        os.replace(tmp, p)
        return p
    except (OSError, zipfile.BadZipFile):
        return None


# ---------------------------------------------------------------------------------------- derived tables
def derived_key(lexicon_key: str, table: str, build) -> str:
    """File stem of a derived table: the lexicon's cache key, the table's name, and a digest of the file that
    defines ``build`` and of its engine's kernel sources (a new release or an edit rebuilds the table)."""
    import inspect
    import re

    from .._jit import _kernel_sources

    try:
        path = Path(inspect.getsourcefile(build)).resolve()
        src = hashlib.sha256(path.read_bytes() + _kernel_sources(str(path.parent))).hexdigest()[:16]
    except (TypeError, OSError):
        src = "nosource"
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", table)
    return f"derived-{lexicon_key[:24]}-{safe}-{src}"


def load_derived(name: str):
    """A derived table saved by :func:`save_derived` (an array, or a tuple of arrays), or ``None`` when it is
    missing or unreadable (a corrupt file is removed with a warning: the zip format's CRC-32 is checked)."""
    p = cache_dir() / f"{name}.npz"
    if not p.exists():
        return None
    try:
        with open(p, "rb") as f, np.load(f, allow_pickle=False) as z:
            n = int(z["n"][()])
            arrays = tuple(z[f"a{i}"] for i in range(1 if n < 0 else n))
        return arrays[0] if n < 0 else arrays
    except Exception as e:  # noqa: BLE001 - any failure means: do not trust the file
        return _discard(p, "cached table", e)


def save_derived(name: str, table) -> None:
    """Write a derived table (an array or a tuple of arrays) atomically; anything else, or a failure to write,
    is skipped silently (the table is then rebuilt by the next process)."""
    single = isinstance(table, np.ndarray)
    items = (table,) if single else table
    if type(items) is not tuple or not all(isinstance(a, np.ndarray) and a.dtype != object for a in items):
        return
    p = cache_dir() / f"{name}.npz"
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.savez(f, n=np.array(-1 if single else len(items)), **{f"a{i}": a for i, a in enumerate(items)})
        os.replace(tmp, p)
    except (OSError, zipfile.BadZipFile):
        pass
