"""Numba's on-disk cache of the package's kernels goes stale when a kernel's callee in another module changes
(``_jit._stamp_package_kernels``), and ``numba_words.compiled`` sees it; ``_jit.compiled_entry`` finds the compiled
code for given argument types."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import numba_words

CALLEE = "from .._jit import kernel\n\n\n@kernel\ndef answer():\n    return {}\n"
CALLER = "from .._jit import kernel\nfrom ._probe_callee import answer\n\n\n@kernel\ndef ask():\n    return answer() + 100\n"


def _copy_package(dest: Path) -> Path:
    src = Path(numba_words.__file__).parent
    shutil.copytree(src, dest / "numba_words", ignore=shutil.ignore_patterns("__pycache__", "data", "*.nb[ic]"))
    return dest / "numba_words" / "lexicon"


def _ask(root: Path, cache: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)}
    code = ("import numba_words as nw; from numba_words.lexicon._probe_caller import ask; "
            "fresh = nw.compiled('lexicon'); print(ask(), fresh)")
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_cached_kernel_recompiles_when_a_callee_module_changes(tmp_path):
    lex = _copy_package(tmp_path / "src")
    cache = tmp_path / "cache"
    (lex / "_probe_callee.py").write_text(CALLEE.format(1))
    (lex / "_probe_caller.py").write_text(CALLER)
    assert _ask(tmp_path / "src", cache) == "101 False"  # first run: nothing cached yet
    assert _ask(tmp_path / "src", cache) == "101 True"  # loaded from the cache
    (lex / "_probe_callee.py").write_text(CALLEE.format(2))  # only the callee's file changes
    assert _ask(tmp_path / "src", cache) == "102 False"
    assert _ask(tmp_path / "src", cache) == "102 True"


def test_package_kernels_use_the_stamped_locators():
    from numba_words.lexicon._dawg import check_arrays

    assert type(check_arrays._cache._impl.locator).__name__.startswith("NumbaWords")


def test_compiled_entry_is_the_dispatchers_code_for_those_types():
    import numba

    from numba_words._jit import compiled_entry

    @numba.njit
    def f(a, k):
        return a.sum() * k

    x = np.arange(4.0)
    assert compiled_entry(f, (x, 2)) is f  # nothing compiled yet: the dispatcher
    assert f(x, 2) == 12.0
    entry = compiled_entry(f, (x, 2))
    assert entry is not f and entry(x, 3) == 18.0
    assert compiled_entry(f, (x.astype(np.int32), 2)) is f  # other types: not compiled, the dispatcher
