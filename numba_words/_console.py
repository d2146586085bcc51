"""What every command of ``numba-words`` shares: global options, output formats, notes on stderr, progress.

Data goes to standard output (text, ``--json`` or ``--csv``), so ``| wc -l`` counts data and ``| head`` stops
quietly; summaries, timings and progress go to standard error (``--quiet`` silences them).
"""
from __future__ import annotations

import argparse
import csv
import json
import sys

from . import _progress


def add_global_options(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """Options accepted anywhere on the line: before the command (``top``) or after it."""
    d = (lambda v: v) if top else (lambda v: argparse.SUPPRESS)
    g = _Group(parser)
    g.add_argument("--lexicon", default=d(None), metavar="NAME",
                   help="lexicon: twl06, sowpods, nb-small or a word-list path (default: the command's own)")
    g.add_argument("--threads", type=int, default=d(None), metavar="N",
                   help="Numba threads for parallel kernels (default: all)")
    g.add_argument("--quiet", "-q", action="store_true", default=d(False),
                   help="no summaries, timings or progress on stderr")
    g.add_argument("--json", action="store_true", default=d(False), help="write the results as JSON to stdout")
    g.add_argument("--csv", action="store_true", default=d(False), help="write the results as CSV rows to stdout")


class _Group:
    """An argument group that skips options the parser (an engine's own command) already defines."""

    def __init__(self, parser):
        self.parser = parser
        self.group = parser.add_argument_group("global options (also accepted before the command)")

    def add_argument(self, *flags, **kw):
        if not any(f in self.parser._option_string_actions for f in flags):
            self.group.add_argument(*flags, **kw)


def add_to_all(parser: argparse.ArgumentParser) -> None:
    """Add the global options to every subcommand parser below ``parser`` (once each)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                add_global_options(sub)
                add_to_all(sub)


def output_format(args) -> str:
    """``"json"``, ``"csv"`` or ``"text"``."""
    if getattr(args, "json", False) and getattr(args, "csv", False):
        from .errors import NumbaWordsError

        raise NumbaWordsError("give --json or --csv, not both")
    return "json" if getattr(args, "json", False) else "csv" if getattr(args, "csv", False) else "text"


def emit(args, records: list[dict], text=None) -> None:
    """Write ``records`` as JSON or CSV when asked, else call ``text()`` (which prints the human form)."""
    f = output_format(args)
    if f == "json":
        json.dump(records, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    elif f == "csv":
        fields = list(records[0]) if records else []
        w = csv.DictWriter(sys.stdout, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for r in records:
            w.writerow({k: (json.dumps(v) if isinstance(v, (list, tuple, dict)) else v) for k, v in r.items()})
    elif text is not None:
        text()


def emit_json(obj) -> None:
    """One JSON document to standard output."""
    json.dump(obj, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


def note(args, *parts, end: str = "\n") -> None:
    """A summary line on standard error, unless ``--quiet``."""
    if not getattr(args, "quiet", False):
        print(*parts, file=sys.stderr, end=end, flush=True)


def progress(args, total: int | None = None, desc: str = "", unit: str = "it"):
    """A progress bar on standard error when it is a terminal and not ``--quiet``."""
    return _progress.bar(total, desc, unit, show=False if getattr(args, "quiet", False) else None)
