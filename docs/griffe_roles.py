"""A griffe extension for the site build: Sphinx roles in docstrings (``:func:`name```, ``:class:`~a.B```)
are shown as inline code, since mkdocstrings renders Markdown, not reStructuredText."""
from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:func|class|meth|data|attr|mod|exc|obj):`(~?)([^`]+)`")


def _plain(m: re.Match) -> str:
    name = m.group(2)
    return f"`{name.rsplit('.', 1)[-1] if m.group(1) else name}`"


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx cross-reference roles as inline code in every docstring griffe loads."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None and ":" in obj.docstring.value:
            obj.docstring.value = ROLE.sub(_plain, obj.docstring.value)
