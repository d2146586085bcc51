"""Pages generated at build time (mkdocs-gen-files): the API reference from each module's ``__all__``, the
command line from the argparse parsers, and the notebooks. Nothing here is written to the repository.

Importable too: ``public_names()`` and ``undocumented()`` are what ``tests/test_docs.py`` checks, and the build
fails (an exception here stops ``mkdocs build``) if a public name or a public member of one has no docstring.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _roles():
    """The docstring rewrite of ``griffe_roles.py`` beside this file (Sphinx roles as inline code)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("griffe_roles", Path(__file__).resolve().parent / "griffe_roles.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return lambda text: mod.ROLE.sub(mod._plain, text)

# The modules whose ``__all__`` is the public API, with the title of their reference page.
MODULES = {
    "numba_words": "numba_words (top level)",
    "numba_words.lexicon": "Lexicons",
    "numba_words.draughts": "International draughts",
    "numba_words.scrabble": "Crossword games",
    "numba_words.bookworm": "Bookworm and Boggle",
    "numba_words.distributed": "Dask scale-out",
}


def public_names(module: str) -> list[str]:
    """The names in ``module.__all__`` (a module without one is an error: its public API would be a guess)."""
    mod = importlib.import_module(module)
    names = getattr(mod, "__all__", None)
    if names is None:
        raise RuntimeError(f"{module} has no __all__: the API reference is made from it")
    return list(names)


def _members(cls) -> list[tuple[str, object]]:
    """Public methods and properties defined by ``cls`` itself (inherited ones are documented where defined)."""
    out = []
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property) or inspect.isfunction(value):
            out.append((name, value))
    return out


def _has_doc(obj) -> bool:
    return bool((getattr(obj, "__doc__", None) or "").strip())


def undocumented() -> list[str]:
    """Every public function, class, method or property of the modules above that has no docstring."""
    missing = []
    for module in MODULES:
        mod = importlib.import_module(module)
        for name in public_names(module):
            obj = getattr(mod, name)
            if inspect.isclass(obj):
                if obj.__doc__ is None or not obj.__doc__.strip():
                    missing.append(f"{module}.{name}")
                for mname, member in _members(obj):
                    if not _has_doc(member):
                        missing.append(f"{module}.{name}.{mname}")
            elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
                if not _has_doc(obj):
                    missing.append(f"{module}.{name}")
    return missing


def _where(module: str, name: str, obj) -> str:
    """The path mkdocstrings documents ``obj`` under: where a class or function is defined (a lazily imported
    name cannot be found statically under the package that re-exports it), else ``module.name``."""
    if inspect.isclass(obj) or inspect.isfunction(obj):
        return f"{obj.__module__}.{obj.__qualname__}"
    return f"{module}.{name}"


def owners() -> dict:
    """For each public object, the module whose page documents it: the first engine module that exports it, the
    top level last (its re-exports link to the engine's page), so that no object is documented twice."""
    order = [m for m in MODULES if m != "numba_words"] + ["numba_words"]
    out = {}
    for module in order:
        mod = importlib.import_module(module)
        for name in public_names(module):
            out.setdefault(id(getattr(mod, name)), module)
    return out


def api_page(module: str, title: str, owner: dict) -> str:
    mod = importlib.import_module(module)
    summary = (mod.__doc__ or "").strip().split("\n\n")[0]
    lines = [f"# {title}", "", summary, "", "| name | what it is |", "|---|---|"]
    names = public_names(module)
    plain = _roles()
    mine = []
    for name in names:
        obj = getattr(mod, name)
        doc = (inspect.getdoc(obj) or "").strip().split("\n")[0] if (inspect.isclass(obj) or callable(obj)) else ""
        doc = plain(doc)
        if not doc:
            doc = f"constant (`{type(obj).__name__}`)"
        here = owner[id(obj)] == module
        where = _where(module if here else owner[id(obj)], name, obj)
        if here:
            mine.append(where)
        else:
            doc += f" (from `{owner[id(obj)]}`)"
        lines.append(f"| [`{name}`][{where}] | {doc.replace('|', '&#124;')} |")
    lines.append("")
    for where in mine:
        lines += [f"::: {where}", ""]
    return "\n".join(lines)


def _subparsers(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) in seen:  # an alias of a verb already shown
                    continue
                seen.add(id(sub))
                yield name, sub


def cli_page() -> str:
    """Every ``numba-words`` command's ``--help``, from the parsers themselves (so the page cannot drift)."""
    os.environ["COLUMNS"] = "110"  # argparse wraps to the terminal: fix the width so the page is reproducible
    from numba_words.cli import build_parser

    root = build_parser()
    lines = ["# Command line", "",
             "Generated from the program's own argument parsers at build time: each section is the output of",
             "`--help` for that command.", ""]
    stack = [("numba-words", root, 2)]
    while stack:
        path, parser, level = stack.pop(0)
        lines += [f"{'#' * min(level, 4)} `{path}`", "", "```text", parser.format_help().rstrip(), "```", ""]
        stack[0:0] = [(f"{path} {name}", sub, level + 1) for name, sub in _subparsers(parser)]
    return "\n".join(lines)


def main() -> None:
    import mkdocs_gen_files

    missing = undocumented()
    if missing:
        raise RuntimeError("public names without a docstring: " + ", ".join(missing))
    owner = owners()
    for module, title in MODULES.items():
        with mkdocs_gen_files.open(f"api/{module.split('.')[-1]}.md", "w") as f:
            f.write(api_page(module, title, owner))
    with mkdocs_gen_files.open("cli.md", "w") as f:
        f.write(cli_page())
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        with mkdocs_gen_files.open(f"notebooks/{nb.name}", "wb") as f:
            f.write(nb.read_bytes())


if __name__ == "<run_path>" or os.environ.get("MKDOCS_GEN_FILES"):
    main()
