"""Where the time goes inside Numba kernels: ``perf`` samples named by kernel.

    python benchmarks/perf_kernels.py JOB.py [--top 25] [--keep perf.data]

``JOB.py`` defines ``warm()`` (compile or load the kernels) and ``run()`` (the work to profile), e.g.::

    from numba_words.scrabble.autoplay import play_games
    def warm(): play_games(4, ("equity", "equity"), threads=1)
    def run(): play_games(2000, ("equity", "equity"), threads=1)

Linux ``perf`` cannot name code that Numba compiled at run time. This script compiles the kernels in the
process with an empty Numba cache (a cached kernel has no LLVM module to read its symbols from), writes
``/tmp/perf-PID.map`` with the address of every compiled function, then attaches ``perf record`` to itself
around ``run()`` only, so compiling is not sampled. Functions inlined into their caller count as the caller.
Prints the share of samples per function, names shortened to ``module.function``.
"""
from __future__ import annotations

import argparse
import gc
import os
import re
import runpy
import signal
import subprocess
import sys
import tempfile
import time


def _dispatchers():
    from numba.core.registry import CPUDispatcher
    return [o for o in gc.get_objects() if isinstance(o, CPUDispatcher)]


def write_perf_map() -> int:
    """``/tmp/perf-PID.map`` for every function of every compiled kernel; returns the number of entries."""
    addrs = {}
    for d in _dispatchers():
        for cres in d.overloads.values():
            lib = cres.library
            try:
                functions = list(lib._final_module.functions)
            except Exception:  # loaded from the cache: no module to read
                continue
            for f in functions:
                if f.is_declaration:
                    continue
                try:
                    a = lib.get_pointer_to_function(f.name)
                except Exception:
                    continue
                if a:
                    addrs[a] = f.name
    items = sorted(addrs.items())
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for i, (a, name) in enumerate(items):
            gap = items[i + 1][0] - a if i + 1 < len(items) else 1 << 16
            fh.write(f"{a:x} {min(gap, 1 << 20):x} {name}\n")
    return len(items)


def short(symbol: str) -> str:
    """``numba_words.scrabble._movegen._walk`` for Numba's mangled ``_ZN11numba_words8scrabble8_movegen5_walkB3v...``."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        parts.append(symbol[j:j + n])
        i = j + n
    return ".".join(parts).replace("_3clocals_3e", "<locals>") or symbol


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("job", help="a Python file defining warm() and run()")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--keep", default=None, help="keep perf's data file here")
    a = ap.parse_args()
    if "NUMBA_CACHE_DIR" not in os.environ:  # before Numba is imported by the job
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="perf-kernels-")
    job = runpy.run_path(a.job)
    job["warm"]()
    print(f"perf map: {write_perf_map()} functions", file=sys.stderr)
    data = a.keep or tempfile.mktemp(suffix=".perf.data")
    rec = subprocess.Popen(["perf", "record", "-o", data, "-p", str(os.getpid())],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # perf attaches
    t = time.perf_counter()
    job["run"]()
    dt = time.perf_counter() - t
    rec.send_signal(signal.SIGINT)
    rec.wait()
    rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio"],
                         capture_output=True, text=True).stdout
    rows = []
    for line in rep.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if m:
            rows.append((float(m.group(1)), short(m.group(2))))
    print(f"run(): {dt:.2f} s wall; share of samples by function:")
    for pct, name in rows[:a.top]:
        print(f"  {pct:6.2f}%  {name}")
    if not a.keep:
        os.unlink(data)


if __name__ == "__main__":
    main()
