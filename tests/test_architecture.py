"""The package's shape: no import circle, nothing at the top reaches into an engine, one pattern per engine."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import numba_words

PKG = Path(numba_words.__file__).resolve().parent


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PKG.rglob("*.py")}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Package modules that ``name`` imports anywhere in its file (top level or inside functions)."""
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                root = base[: len(base) - (node.level - 1)]
                mod = ".".join(root + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    graph = {m: _imports(m, p, known) for m, p in mods.items()}
    # importing a.b.c runs a/__init__ and a/b/__init__ first: those are not arrows of the importer's design
    return {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in graph.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle():
    assert _cycles(_graph()) == []


def test_cycle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


SHARED = ["numba_words._jit", "numba_words.bits", "numba_words.errors", "numba_words._timing",
          "numba_words.distributed"]


@pytest.mark.parametrize("mod", SHARED)
def test_shared_modules_import_no_engine(mod):
    engines = {f"numba_words.{e}" for e in numba_words.ENGINES if e != "lexicon"}
    reached = {t for t in _graph().get(mod, ()) if any(t == e or t.startswith(e + ".") for e in engines)}
    assert reached == set(), f"{mod} imports engine modules {sorted(reached)}"


def test_lexicon_imports_no_engine():
    engines = [f"numba_words.{e}" for e in numba_words.ENGINES if e != "lexicon"]
    for mod, targets in _graph().items():
        if mod.startswith("numba_words.lexicon"):
            bad = [t for t in targets if any(t == e or t.startswith(e + ".") for e in engines)]
            assert bad == [], f"{mod} imports {bad}"


def test_package_reads_nothing_outside_itself():
    for path in PKG.rglob("*.py"):
        text = path.read_text()
        for needle in ("parents[2]", "parents[3]", '"tests"', "'tests'", "shared/reference"):
            assert needle not in text, f"{path.relative_to(PKG)} reaches outside the package ({needle})"
