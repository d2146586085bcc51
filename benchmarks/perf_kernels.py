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
Prints the share of samples per function, names shortened to ``module.function``. ``--annotate NAME`` also
disassembles the compiled function whose name contains NAME (``objdump``) and prints its hottest instructions
with the instructions before them, samples per instruction.
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


def write_perf_map() -> list:
    """``/tmp/perf-PID.map`` for every function of every compiled kernel; returns its ``(address, size, name)``
    entries."""
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
    entries = []
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for i, (a, name) in enumerate(items):
            gap = items[i + 1][0] - a if i + 1 < len(items) else 1 << 16
            entries.append((a, min(gap, 1 << 20), name))
            fh.write(f"{a:x} {min(gap, 1 << 20):x} {name}\n")
    return entries


def annotate(data: str, entries: list, name: str, top: int, context: int = 6) -> None:
    """Print the hottest instructions of the most sampled compiled function whose short name contains ``name``."""
    import ctypes
    from collections import Counter

    found = [e for e in entries if name in short(e[2])]
    if not found:
        print(f"no compiled function named like {name!r}")
        return
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True).stdout.split()
    hits = Counter(int(x, 16) for x in ips if x.strip())
    addr, size, sym = max(found, key=lambda e: sum(n for a, n in hits.items() if e[0] <= a < e[0] + e[1]))
    inside = {a: n for a, n in hits.items() if addr <= a < addr + size}
    total = sum(hits.values()) or 1
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as fh:
        fh.write(ctypes.string_at(addr, size))
    dis = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={addr:#x}", fh.name],
                         capture_output=True, text=True).stdout
    os.unlink(fh.name)
    lines = [(int(m.group(1), 16), m.group(2)) for m in re.finditer(r"^\s*([0-9a-f]+):\t(.*)$", dis, re.M)]
    index = {a: k for k, (a, _) in enumerate(lines)}
    print(f"{short(sym)}: {sum(inside.values()) / total:.1%} of samples; hottest instructions:")
    for a, n in sorted(inside.items(), key=lambda kv: -kv[1])[:top]:
        k = index.get(a)
        print(f"--- {n / total:6.2%}  at +{a - addr:#x}")
        if k is None:
            continue
        for j in range(max(0, k - context), k + 1):
            print(f"    +{lines[j][0] - addr:#07x}  {lines[j][1]}")


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
    ap.add_argument("--annotate", default=None, metavar="NAME",
                    help="also print the hottest instructions of the compiled function named like NAME")
    a = ap.parse_args()
    if "NUMBA_CACHE_DIR" not in os.environ:  # before Numba is imported by the job
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="perf-kernels-")
    job = runpy.run_path(a.job)
    job["warm"]()
    entries = write_perf_map()
    print(f"perf map: {len(entries)} functions", file=sys.stderr)
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
    if a.annotate:
        annotate(data, entries, a.annotate, a.top)
    if not a.keep:
        os.unlink(data)


if __name__ == "__main__":
    main()
