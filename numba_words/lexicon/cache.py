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
    for a in arrays.values():  # (as a Lexicon holds them: one signature of the kernel, read-only arrays)
        a.flags.writeable = False
    size = arrays["dawg"].shape[0]
    index = np.full(size, -1, dtype=np.int32)
    work = np.empty((3, size), dtype=np.int64)
    code, where = _dawg.check_arrays(arrays["flat"], arrays["offsets"], arrays["dawg"], n_letters, MAX_DEPTH, index,
                                     work)
    return _PROBLEMS[code].format(int(where)) if code else None


def save(key: str, arrays: dict, sha256: str, alphabet: str, skipped: int, bad_lines) -> Path | None:
    """Write the cache file atomically; failures (read-only home, full disk) are silently skipped."""
    p = path_for(key)

    def write(f):
        np.savez(f, key=np.array(key), format=np.array(str(FORMAT)), sha256=np.array(sha256),
                 alphabet=np.array(alphabet), skipped=np.array(skipped, dtype=np.int64),
                 bad_lines=np.asarray(bad_lines, dtype=np.int64), **arrays)

    return p if _write_atomic(p, write) else None


def _write_atomic(p: Path, write, seal: str | None = None) -> bool:
    """Write ``p`` through ``write(file)`` into a temporary file beside it, then rename it into place; with
    ``seal``, the zip archive's comment becomes :func:`_seal` of its members (see :func:`load_derived`).
    ``False`` when anything fails (read-only folder, full disk, ``p`` a directory): the temporary file is
    removed then, never left behind."""
    tmp = None
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=p.name + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            write(f)
        if seal is not None:
            with zipfile.ZipFile(tmp, "a") as z:
                z.comment = _seal(seal, z).encode()
        os.replace(tmp, p)
        return True
    except (OSError, zipfile.BadZipFile):
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False


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


def array_problem(a, dtype, shape: tuple, what: str) -> str | None:
    """What keeps ``a`` from being a C-contiguous ``dtype`` array of ``shape`` (``None`` in it: any length),
    or ``None``: the first test of a table read from the cache."""
    if not isinstance(a, np.ndarray):
        return f"{what} is not an array"
    if a.dtype != dtype or a.ndim != len(shape) or not a.flags.c_contiguous:
        return f"{what} is {a.dtype} {a.shape}, not {np.dtype(dtype)} of {len(shape)} dimensions"
    if any(n is not None and n != m for n, m in zip(shape, a.shape)):
        return f"{what} has shape {a.shape}, not {tuple('*' if n is None else n for n in shape)}"
    return None


def _seal(name: str, z: zipfile.ZipFile) -> str:
    """A digest of a derived table's file name and of each member's name, size and CRC-32 (the zip directory's
    figures, which reading a member checks its bytes against): written as the archive's comment, so that an
    archive rewritten with other contents (valid framing, new CRCs) no longer matches."""
    h = hashlib.sha256(f"numba_words-derived-v{FORMAT}\0{name}".encode())
    for i in sorted(z.infolist(), key=lambda i: i.filename):
        h.update(f"\0{i.filename}\0{i.file_size}\0{i.CRC}".encode())
    return h.hexdigest()


def load_derived(name: str, check=None):
    """A derived table saved by :func:`save_derived` (an array, or a tuple of arrays), or ``None`` when it is
    missing or not trusted: unreadable, a member failing its CRC-32, contents other than those written (the
    archive's seal, :func:`_seal`), or ``check(table)`` (the table's own test of shapes, dtypes and the values
    kernels index with) naming a problem or raising. A file not trusted is removed with a :class:`CacheWarning`
    and the caller rebuilds the table. The arrays returned are read-only."""
    p = cache_dir() / f"{name}.npz"
    if not p.exists():
        return None
    try:
        with open(p, "rb") as f, np.load(f, allow_pickle=False) as z:
            if z.zip.comment.decode("ascii", "replace") != _seal(name, z.zip):
                raise ValueError("its contents are not the ones written")
            n = int(z["n"][()])
            arrays = tuple(z[f"a{i}"] for i in range(1 if n < 0 else n))
        for a in arrays:
            a.flags.writeable = False
        table = arrays[0] if n < 0 else arrays
        problem = check(table) if check is not None else None
        if problem:
            raise ValueError(problem)
        return table
    except Exception as e:  # noqa: BLE001 - any failure means: do not trust the file
        return _discard(p, "cached table", e)


def save_derived(name: str, table) -> None:
    """Write a derived table (an array or a tuple of arrays) atomically, sealed (:func:`_seal`); anything else,
    or a failure to write, is skipped silently (the table is then rebuilt by the next process)."""
    single = isinstance(table, np.ndarray)
    items = (table,) if single else table
    if type(items) is not tuple or not all(isinstance(a, np.ndarray) and a.dtype != object for a in items):
        return
    _write_atomic(cache_dir() / f"{name}.npz",
                  lambda f: np.savez(f, n=np.array(-1 if single else len(items)),
                                     **{f"a{i}": a for i, a in enumerate(items)}), seal=name)
