"""numba_words: Numba-compiled move generators for word and board games.

Importing the package compiles nothing; kernels compile (or load from Numba's on-disk cache) on first use.
"""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import InvalidWordError, LexiconError, NumbaWordsError  # noqa: E402

__all__ = ["Lexicon", "NumbaWordsError", "LexiconError", "InvalidWordError", "warmup", "__version__"]

ENGINES = ("lexicon", "draughts", "scrabble", "bookworm")


# Warm-up work in scheduling order: (engine, part, cold compile CPU seconds alone, the same after the engine's
# earlier parts in the same process, which share callees). ``part`` is passed to the engine's
# ``warmup(parts=...)`` (``None``: its whole warm-up). The lexicon's build kernels come first: every engine that
# loads a lexicon needs them.
_PLAN = (
    ("lexicon", "build", 1.5, 1.5),
    ("draughts", None, 6.3, 6.3),
    ("scrabble", ("best",), 12.3, 12.1),
    ("scrabble", ("generate",), 7.1, 6.7),
    ("lexicon", "queries", 4.4, 3.4),
    ("bookworm", ("solve",), 2.5, 2.5),
    ("bookworm", ("scores", "tiles"), 4.0, 2.5),
    ("scrabble", ("equity",), 2.5, 1.5),
    ("scrabble", ("batch",), 7.0, 6.5),
    ("scrabble", ("games",), 25.0, 12.5),
    ("scrabble", ("sim",), 30.0, 17.0),
    ("scrabble", ("endgame",), 25.0, 15.0),
)
_NOT_IN_TOUR = (("bookworm", ("scores", "tiles")), ("scrabble", ("games",)), ("scrabble", ("sim",)),
                ("scrabble", ("endgame",)), ("scrabble", ("batch",)))
"""Work the tour does not use: its first run leaves it to the first use (or ``numba-words warmup``)."""


def warmup(engines=ENGINES, processes: int = 1, progress=None, tour: bool = False) -> dict:
    """Compile (first run) or load from Numba's on-disk cache every kernel of the named engines, so that
    later calls and timings exclude compilation. Returns seconds spent per engine.

    ``processes > 1`` compiles on that many cores at once: this process takes a share of the work and
    ``processes - 1`` spawned processes the rest (each fills the on-disk cache, which this process then
    loads), so a machine's first run takes about ``1/processes`` as long. ``progress(name, seconds)`` is
    called as each engine is ready. ``tour=True`` compiles only what ``numba-words tour`` uses.
    """
    import time

    engines = list(engines)
    for name in engines:
        if name not in ENGINES:
            raise NumbaWordsError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}")
    out = {}
    plan = [(e, part) for e, part, *_ in _PLAN if e in engines and not (tour and (e, part) in _NOT_IN_TOUR)]
    if processes <= 1 or len(engines) <= 1:
        for name in engines:
            out[name] = sum(_warm_part(e, part) for e, part in plan if e == name)
            if progress is not None:
                progress(name, out[name])
        return out
    import concurrent.futures as cf
    import multiprocessing as mp
    import threading

    t0 = time.perf_counter()
    mine, theirs = _share(plan, processes)
    left = {e: sum(1 for task in plan if task[0] == e) for e in engines}
    lock = threading.Lock()

    def done(engine):
        with lock:
            left[engine] -= 1
            if left[engine] == 0:
                out[engine] = time.perf_counter() - t0
                if progress is not None:
                    progress(engine, out[engine])

    with cf.ProcessPoolExecutor(max_workers=processes - 1, mp_context=mp.get_context("spawn")) as pool:
        futs = [pool.submit(_warm_part, *task) for task in theirs]
        for fut, task in zip(futs, theirs):
            fut.add_done_callback(lambda f, e=task[0]: f.exception() is None and done(e))
        for task in mine:
            _warm_part(*task)
            done(task[0])
        for fut in futs:
            fut.result()  # raise what a process raised
    for task in theirs:  # load what the other processes compiled
        _warm_part(*task)
    out["wall"] = time.perf_counter() - t0
    return out


def _share(plan, processes: int) -> tuple[list, list]:
    """Split ``plan`` into this process's tasks and the spawned processes' tasks, so that the last lane
    finishes first (lane 0 is this process; it starts with ``plan[0]``, the lexicon's build kernels).

    A lane runs its tasks in plan order and pays an engine's later parts at their shared-callee cost; a task
    that loads a lexicon in a lane that starts it before the build kernels are cached compiles them too. Every
    assignment is tried when there are few, else each task goes to the lane where it would finish first."""
    import itertools

    cost = {(e, part): (alone, after) for e, part, alone, after in _PLAN}

    def finish(lanes):
        built, ends = None, []
        for tasks in lanes:
            t, seen = 0.0, set()
            for e, part in tasks:
                alone, after = cost[(e, part)]
                t += after if e in seen else alone
                if (e, part) == ("lexicon", "build"):
                    built = t
                elif e != "draughts" and built is not None and not seen and t - alone < built:
                    t += cost[("lexicon", "build")][0]
                seen.add(e)
            ends.append(t)
        return max(ends)

    def lanes_of(choice):
        lanes = [[] for _ in range(processes)]
        for task, lane in zip(plan, choice):
            lanes[lane].append(task)
        return lanes

    rest = len(plan) - 1
    if processes ** rest <= 4096:
        choices = ((0, *c) for c in itertools.product(range(processes), repeat=rest))
        best = min(choices, key=lambda c: (finish(lanes_of(c)), c))
    else:
        best = [0]
        for i in range(1, len(plan)):
            best.append(min(range(processes), key=lambda lane: (finish(lanes_of(best + [lane])), lane)))
    lanes = lanes_of(best)
    return lanes[0], [task for lane in lanes[1:] for task in lane]


def _warm_part(engine: str, part) -> float:
    import importlib
    import time

    t = time.perf_counter()
    mod = importlib.import_module(f"{__name__}.{engine}")
    mod.warmup() if part is None else mod.warmup(parts=part)
    return time.perf_counter() - t


def compiled(engine: str) -> bool:
    """Whether Numba's on-disk cache holds up-to-date compiled kernels of ``engine`` (False on a machine's first
    run, and after the engine's kernel sources changed): some kernel of the engine has a fresh cache index."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    from ._background import cached

    pkg = importlib.import_module(f"{__name__}.{engine}")
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_") or info.name.startswith("_reference"):
            continue
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        for v in vars(mod).values():
            if isinstance(v, CPUDispatcher) and v.__module__ == mod.__name__ and cached(v):
                return True
    return False


def __getattr__(name):
    if name == "Lexicon":
        from .lexicon import Lexicon

        return Lexicon
    raise AttributeError(f"module 'numba_words' has no attribute {name!r}")
