"""Command line: ``numba-words`` (also ``python -m numba_words``).

Each engine package contributes a ``cli`` module with ``register(subparsers)`` (adds its subcommands) and
``tour(lex, echo)`` (prints its part of ``numba-words tour``).
"""
from __future__ import annotations

import argparse
import importlib
import os
import importlib.util
import sys
import time



def _numba_env_problem() -> str | None:
    """What is wrong with ``NUMBA_NUM_THREADS`` such that importing Numba would fail (a whole number below 1)."""
    v = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    try:
        bad = int(v) < 1 if v else False
    except ValueError:  # (Numba warns about it and uses every core)
        bad = False
    return f"NUMBA_NUM_THREADS={v} in the environment: it must be a whole number of at least 1, or unset" if bad \
        else None


_ENV_PROBLEM = _numba_env_problem()
if _ENV_PROBLEM:  # checked before Numba is imported, which raises on it; main() reports it (exit status 2)
    os.environ.pop("NUMBA_NUM_THREADS")

from . import _console, _jit  # noqa: E402
from .errors import NumbaWordsError  # noqa: E402

from . import ENGINES


def _engine_modules():
    for engine in ENGINES:
        name = f"numba_words.{engine}.cli"
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # the engine's package itself is absent
            found = False
        if found:
            yield importlib.import_module(name)


def _tour(args) -> int:
    from .lexicon import Lexicon

    echo = print
    t0 = time.perf_counter()
    echo(f"numba-words tour — lexicon {args.lexicon or 'twl06'!r}, {_threads_note()}")
    _compile_first(args, echo)
    t = time.perf_counter()
    lex = Lexicon.load(args.lexicon or "twl06")
    echo(f"loaded {lex.name}: {len(lex):,} words in {time.perf_counter() - t:.3f} s ({lex.load_note})")
    for mod in _engine_modules():
        echo("")
        t = time.perf_counter()
        mod.tour(lex, echo)
        echo(f"({mod.__name__.split('.')[1]} section: {time.perf_counter() - t:.2f} s)")
    echo("")
    echo(f"tour finished in {time.perf_counter() - t0:.2f} s")
    return 0


def _compile_first(args, echo) -> None:
    """On a machine's first run, compile every engine's kernels in parallel processes, saying so."""
    from . import ENGINES, compiled, warmup

    cold = [e for e in ENGINES if not compiled(e)]
    if not cold:
        return
    n = min(len(cold), os.cpu_count() or 1, 4)
    echo(f"compiling kernels (first run on this machine): {', '.join(cold)}, on {n} core{'s' if n > 1 else ''} ...")
    t = time.perf_counter()
    with _console.progress(args, len(cold), "compiling", "engine") as bar:
        def tick(name, sec):
            bar.update(1)
            _console.note(args, f"  {name} ready after {sec:.1f} s")

        warmup(cold, processes=n, progress=tick, tour=True)
    echo(f"kernels compiled and cached in {time.perf_counter() - t:.1f} s; later runs load them from the cache")


def _warmup(args) -> int:
    from . import ENGINES, warmup

    engines = args.engines or ENGINES
    n = args.processes if args.processes is not None else 1
    res = warmup(engines, processes=n)
    total = res.pop("wall", None)
    for name, sec in res.items():
        print(f"{name:>9}: {sec:6.2f} s")
    total = sum(res.values()) if total is None else total
    print(f"{'total':>9}: {total:6.2f} s (compiles on the first run, loads Numba's on-disk cache afterwards)")
    return 0


def _threads_note() -> str:
    import numba

    return f"{numba.get_num_threads()} threads, numba {numba.__version__}"


def _one_line_error(parser: argparse.ArgumentParser, message: str):
    """A usage error in one line, as every other error: ``numba-words: error: ...`` naming the sub-command, and a
    pointer to its ``--help``; exit status 2."""
    prog = parser.prog
    where = prog[len("numba-words "):] + ": " if prog.startswith("numba-words ") else ""
    parser.exit(2, f"numba-words: error: {where}{' '.join(str(message).split())} (see '{prog} --help')\n")


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` and every sub-command's parser below it :func:`_one_line_error` (the engines' own parser
    classes included)."""
    import types

    parser.error = types.MethodType(_one_line_error, parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                _one_line_errors(sub)


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(
        prog="numba-words",
        description="Numba-compiled move generators: word finding, Scrabble-likes, international draughts, "
        "Bookworm. Run 'numba-words tour' to see every engine at work with its throughput.",
    )
    p.add_argument("--version", action="version", version=f"numba-words {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    tp = sub.add_parser("tour", help="show every engine working on the default lexicon, with throughput")
    tp.set_defaults(func=_tour)
    wp = sub.add_parser("warmup", help="compile (or load from cache) every kernel, e.g. once per machine or worker")
    wp.add_argument("engines", nargs="*", help="engines to warm (default: all)")
    wp.add_argument("--processes", type=int, default=None, metavar="N",
                    help="compile N engines at once in separate processes (default: 1)")
    wp.set_defaults(func=_warmup)
    for mod in _engine_modules():
        mod.register(sub)
    _console.add_global_options(p, top=True)
    _console.add_to_all(p)
    _one_line_errors(p)
    return p


INTERRUPT_EXIT_SECONDS = 10.0
"""After Ctrl-C the program ends within this many seconds, whatever it is waiting for (see :func:`_on_sigint`)."""
_REPORTED = []  # "interrupted" printed (once)


def _interrupted() -> int:
    if not _REPORTED:
        _REPORTED.append(True)
        print("interrupted", file=sys.stderr, flush=True)
    return 130


def _exit_now() -> None:
    """End the process now (exit status 130), its child processes first (a local cluster's workers ignore Ctrl-C
    and would outlive it, holding its output open)."""
    try:
        import psutil

        for child in psutil.Process().children(recursive=True):
            try:
                child.kill()
            except psutil.Error:
                pass
    except ImportError:  # pragma: no cover - psutil comes with Dask, the only source of child processes here
        pass
    os._exit(_interrupted())


def _on_sigint(signum, frame):
    """Ctrl-C: ``KeyboardInterrupt``, and a bound on the time to stop. Python raises it wherever the main thread
    is, which may be inside a garbage-collector callback or a ``__del__`` (Dask's scheduler installs one for its
    GC diagnosis), where the exception is printed and dropped: the program then went on as if never interrupted.
    So the first Ctrl-C also starts a timer that ends the process (one line, exit status 130) if it is still
    running ``INTERRUPT_EXIT_SECONDS`` later."""
    import threading

    if not getattr(_on_sigint, "armed", False):
        _on_sigint.armed = True
        timer = threading.Timer(INTERRUPT_EXIT_SECONDS, _exit_now)
        timer.daemon = True
        timer.start()
    raise KeyboardInterrupt


def main(argv=None) -> int:
    if _ENV_PROBLEM:
        print(f"numba-words: error: {_ENV_PROBLEM}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    import signal
    import threading

    guard = threading.current_thread() is threading.main_thread() \
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if guard:
        signal.signal(signal.SIGINT, _on_sigint)
    try:
        with _jit.threads(getattr(args, "threads", None)):
            code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except NumbaWordsError as e:
        print(f"numba-words: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly; point stdout at devnull so the exit flush is silent
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    finally:
        if guard:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def run() -> None:
    """The ``numba-words`` program: :func:`main`, then exit without the interpreter's teardown of Numba's
    compiled code and type caches (about 0.3 s), once output is flushed and ``atexit`` handlers have run."""
    import atexit

    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
