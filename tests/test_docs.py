"""The documentation's own checks, also run by the site build: every public name documented, the command-line
page made from the real parsers."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def gen():
    spec = importlib.util.spec_from_file_location("gen_pages", ROOT / "docs" / "gen_pages.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_public_name_has_a_docstring(gen):
    assert gen.undocumented() == []


def test_the_check_finds_a_missing_docstring(gen, monkeypatch):
    import numba_words.lexicon as lexicon

    def shadow():
        pass

    monkeypatch.setattr(lexicon, "warmup", shadow)
    assert "numba_words.lexicon.warmup" in gen.undocumented()


def test_every_public_name_gets_one_page(gen):
    owner = gen.owners()
    for module in gen.MODULES:
        page = gen.api_page(module, module, owner)
        mod = importlib.import_module(module)
        for name in gen.public_names(module):
            assert f"[`{name}`]" in page, (module, name)
            if owner[id(getattr(mod, name))] == module:
                assert f"::: {gen._where(module, name, getattr(mod, name))}" in page


def test_cli_page_has_every_command(gen):
    page = gen.cli_page()
    for cmd in ("numba-words tour", "numba-words warmup", "numba-words lexicon anagram", "numba-words draughts perft",
                "numba-words scrabble best", "numba-words bookworm solve"):
        assert f"`{cmd}`" in page, cmd


def test_docstring_examples_of_public_names(gen):
    """The ``Examples`` of public functions, classes and their methods run and print what they show."""
    import doctest
    import inspect

    finder = doctest.DocTestFinder(recurse=True, exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    ran, seen = 0, set()
    for module in gen.MODULES:
        mod = importlib.import_module(module)
        for name in gen.public_names(module):
            obj = getattr(mod, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            # what the example's reader has: the defining module's names and the public names of the package
            globs = {**vars(inspect.getmodule(obj)), **{n: getattr(mod, n) for n in gen.public_names(module)}}
            for test in finder.find(obj, name, module=inspect.getmodule(obj), globs=globs):
                ran += len(test.examples)
                runner.run(test)
    assert runner.failures == 0, f"{runner.failures} docstring example(s) failed (see the output above)"
    assert ran > 0
