"""numba_words: Numba-compiled move generators for word and board games.

Importing the package compiles nothing; kernels compile (or load from Numba's on-disk cache) on first use.
"""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import InvalidWordError, LexiconError, NumbaWordsError  # noqa: E402

__all__ = ["Lexicon", "NumbaWordsError", "LexiconError", "InvalidWordError", "warmup", "__version__"]

ENGINES = ("lexicon", "draughts", "scrabble", "bookworm")


def warmup(engines=ENGINES, processes: int = 1, progress=None) -> dict:
    """Compile (first run) or load from Numba's on-disk cache every kernel of the named engines, so that
    later calls and timings exclude compilation. Returns seconds spent per engine.

    ``processes > 1`` compiles that many engines at once in spawned processes (each fills the on-disk cache),
    then loads them here: on a machine with several cores the first run takes about ``1/processes`` as long.
    ``progress(name, seconds)`` is called as each engine is ready.
    """
    import importlib
    import time

    engines = list(engines)
    for name in engines:
        if name not in ENGINES:
            raise NumbaWordsError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}")
    out = {}
    if processes > 1 and len(engines) > 1:
        import concurrent.futures as cf
        import multiprocessing as mp

        t0 = time.perf_counter()
        with cf.ProcessPoolExecutor(max_workers=processes, mp_context=mp.get_context("spawn")) as pool:
            futs = {pool.submit(_warm_one, name): name for name in engines}
            for fut in cf.as_completed(futs):
                out[futs[fut]] = fut.result()
                if progress is not None:
                    progress(futs[fut], out[futs[fut]])
        for name in engines:  # load what the processes compiled
            importlib.import_module(f"{__name__}.{name}").warmup()
        out["wall"] = time.perf_counter() - t0
        return out
    for name in engines:
        out[name] = _warm_one(name)
        if progress is not None:
            progress(name, out[name])
    return out


def _warm_one(name: str) -> float:
    import importlib
    import time

    t = time.perf_counter()
    importlib.import_module(f"{__name__}.{name}").warmup()
    return time.perf_counter() - t


def compiled(engine: str) -> bool:
    """Whether Numba's on-disk cache holds compiled kernels of ``engine`` (False on a machine's first run).

    Looks where Numba itself would look (``NUMBA_CACHE_DIR`` or the package's ``__pycache__``) for the
    cache index files of the engine's kernel modules."""
    import importlib
    import pkgutil
    from pathlib import Path

    from numba.core.caching import FunctionCache
    from numba.core.registry import CPUDispatcher

    pkg = importlib.import_module(f"{__name__}.{engine}")
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_") or info.name == "_reference":
            continue
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        for v in vars(mod).values():
            if isinstance(v, CPUDispatcher) and v.__module__ == mod.__name__:
                stem = mod.__name__.rpartition(".")[2]
                return any(Path(FunctionCache(v.py_func)._cache_path).glob(f"{stem}.*.nbi"))
    return True


def __getattr__(name):
    if name == "Lexicon":
        from .lexicon import Lexicon

        return Lexicon
    raise AttributeError(f"module 'numba_words' has no attribute {name!r}")
