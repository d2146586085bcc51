"""On-disk cache of encoded lexicons: plain ``.npz`` arrays (never pickle), keyed by the source's hash.

A file that is unreadable, truncated, or whose arrays fail their checksum is rebuilt with a warning.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import warnings
import zipfile
from pathlib import Path

import numpy as np

FORMAT = 1
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


def _checksum(arrays: dict) -> str:
    h = hashlib.sha256()
    for k in _ARRAYS:
        a = np.ascontiguousarray(arrays[k])
        h.update(f"{k}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
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
        meta = {k: str(data[k][()]) for k in ("key", "checksum", "sha256", "alphabet", "format")}
        if meta["key"] != key or meta["format"] != str(FORMAT):
            raise ValueError("stale cache entry")
        arrays = {k: data[k] for k in _ARRAYS}
        if arrays["flat"].dtype != np.uint8 or arrays["offsets"].dtype != np.int64 or arrays["dawg"].dtype != np.uint32:
            raise ValueError("wrong array types")
        if _checksum(arrays) != meta["checksum"]:
            raise ValueError("checksum mismatch")
        return arrays, meta, int(data["skipped"][()]), data["bad_lines"]
    except Exception as e:  # noqa: BLE001 - any failure means: do not trust the file
        warnings.warn(f"ignoring lexicon cache file {str(p)!r} ({e}); rebuilding it", CacheWarning, stacklevel=3)
        try:
            p.unlink()
        except OSError:
            pass
        return None


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
                checksum=np.array(_checksum(arrays)),
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
