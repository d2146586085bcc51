"""What the notebook widgets (``BoardWidget`` of each engine) share: the lazy anywidget import, the shipped
JavaScript/CSS, the static SVG fallback and background tasks that a button can stop.

The widgets are anywidget classes whose state lives in traitlets (a script sets and reads them; the browser
view renders them and writes back what the user types or clicks). Each engine's ``__init__`` imports its
``widget`` module only when ``BoardWidget`` is asked for, so the package imports without anywidget.
"""
from __future__ import annotations

import threading
from pathlib import Path

from .errors import MissingExtraError, NumbaWordsError

STATIC = Path(__file__).resolve().parent / "static"
"""The widgets' JavaScript and CSS (package data, no build step)."""


def require_anywidget():
    """The ``anywidget`` module, or :class:`MissingExtraError` naming the extra that installs it."""
    try:
        import anywidget
    except ImportError as e:
        raise MissingExtraError("the notebook widgets need anywidget: pip install 'numba_words[widgets]' "
                                f"(or pip install anywidget) ({e})") from None
    return anywidget


def lazy_widget(module: str, name: str):
    """``BoardWidget`` from ``module`` (an engine's ``.widget``), imported on first use (the engines'
    ``__getattr__``)."""
    require_anywidget()
    import importlib

    return getattr(importlib.import_module(module), name)


def esm(name: str) -> str:
    """A widget's ES module: ``common.js`` (what the views share) followed by the widget's own script."""
    return (STATIC / "common.js").read_text(encoding="utf-8") + "\n" + (STATIC / name).read_text(encoding="utf-8")


CSS = STATIC / "widgets.css"
"""The widgets' style sheet."""


class SvgFallback:
    """Mixin: the widget's mime bundle also carries ``image/svg+xml`` (``self.svg()``), which front ends without
    the widget's JavaScript (nbconvert, GitHub) show instead of the live view."""

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if data is None:
            data = {}
        elif isinstance(data, tuple):
            data = data[0]
        data = dict(data)
        try:
            data["image/svg+xml"] = self.svg()
        except NumbaWordsError:  # a picture must never stop the live view from showing
            pass
        return data


class Actions(SvgFallback):
    """Mixin: the view's buttons send ``{"type": name, ...}``; ``_ACTIONS`` maps each name to ``(method,
    keys)``, the method called with the message's values of ``keys``. Bad input lands in the ``error`` trait
    (and the view shows it), never in an exception the front end cannot see."""

    _ACTIONS: dict = {}
    _ERROR = NumbaWordsError

    @property
    def position(self):
        """A copy of the position on the board (the crossword one with the typed rack when it is valid)."""
        return self._pos.copy()

    def _on_custom(self, _widget, content, _buffers) -> None:
        action = self._ACTIONS.get(content.get("type")) if isinstance(content, dict) else None
        try:
            if action is None:
                raise self._ERROR(f"unknown widget message {content!r}")
            method, keys = action
            getattr(self, method)(*[content.get(k) for k in keys])
        except NumbaWordsError as e:
            self.error = str(e)

    def _failed(self, e: Exception) -> None:
        """A background task's error, shown in the ``error`` trait."""
        self.error = f"{type(e).__name__}: {e}"


class Task:
    """A function run in a daemon thread with a stop event: ``fn(stop)``; errors are passed to ``on_error``.

    ``running`` is true until ``fn`` returns; ``stop()`` sets the event (``fn`` looks at it between steps) and
    ``join()`` waits for the end."""

    def __init__(self, fn, on_error, on_done=None):
        self.stop_event = threading.Event()
        self._fn, self._on_error, self._on_done = fn, on_error, on_done
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        try:
            self._fn(self.stop_event)
        except Exception as e:  # reported in the widget's status line, not lost in a thread
            self._on_error(e)
        finally:
            if self._on_done is not None:
                self._on_done()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def stop(self) -> None:
        self.stop_event.set()

    def join(self, timeout: float | None = None) -> None:
        self.thread.join(timeout)
