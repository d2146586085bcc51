"""Same-run interleaved A/B of loading TWL06's derived tables from the disk cache: the loader of an earlier
revision (the zip CRC-32 only; default abcca67) against this one (the seal and each table's checks).

Usage: python benchmarks/bench_cache_load.py [ROUNDS] [REVISION]; prints the median milliseconds per table."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba_words import Lexicon
from numba_words.lexicon import cache as new
from numba_words.scrabble import _tables as S
from numba_words.bookworm import _tables as B
rev = sys.argv[2] if len(sys.argv) > 2 else "abcca67"
src = subprocess.run(["git", "show", f"{rev}:numba_words/lexicon/cache.py"], capture_output=True, text=True, check=True,
                     cwd=os.path.dirname(os.path.abspath(__file__))).stdout
with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
    f.write(src.replace("from . import _dawg", "from numba_words.lexicon import _dawg"))
spec = importlib.util.spec_from_file_location("cache_old", f.name)
old = importlib.util.module_from_spec(spec)
sys.modules["numba_words.lexicon.cache_old"] = old; spec.loader.exec_module(old)
lex = Lexicon.load("twl06")
tabs = {"scrabble.reach": (lambda lx: S.reach_table(lx.dawg), S._check_reach), "scrabble.wtabs": (S._wtabs, S._check_wtabs),
        "scrabble.substrings": (S.sub_table, S._check_sub), "bookworm.pack": (B._pack, B._check_pack)}
names = {}
for key, (build, check) in tabs.items():
    t = build(lex)
    n_new = new.derived_key(lex._cache_key, key, build) + "-ab-new"; new.save_derived(n_new, t)
    n_old = new.derived_key(lex._cache_key, key, build) + "-ab-old"; old.save_derived(n_old, t)
    names[key] = (n_old, n_new, check)
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
res = {k: ([], []) for k in names}
for r in range(rounds):
    for key, (n_old, n_new, check) in names.items():
        for which in ((0, 1) if r % 2 == 0 else (1, 0)):
            t = time.perf_counter()
            if which == 0:
                x = old.load_derived(n_old)
            else:
                x = new.load_derived(n_new, lambda tb: check(lex, tb))
            res[key][which].append(time.perf_counter() - t)
            assert x is not None
tot_o = tot_n = 0
for key, (o, n) in res.items():
    mo, mn = np.median(o) * 1e3, np.median(n) * 1e3; tot_o += mo; tot_n += mn
    print(f"{key:22s} old {mo:7.1f} ms  new {mn:7.1f} ms  ratio {mn / mo:.3f}")
print(f"{'total':22s} old {tot_o:7.1f} ms  new {tot_n:7.1f} ms  ratio {tot_n / tot_o:.3f}")
for key, (n_old, n_new, _) in names.items():
    for n in (n_old, n_new):
        os.unlink(new.cache_dir() / f"{n}.npz")
