"""Progress bars for long runs: ``tqdm`` on a terminal (``tqdm.auto`` in a notebook), silent otherwise."""
from __future__ import annotations

import sys


class _Silent:
    """Stands in for a bar when none is shown."""

    n = 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    try:
        return shell is not None and type(shell.get_ipython()).__name__ == "ZMQInteractiveShell"
    except Exception:  # pragma: no cover - an IPython without a shell
        return False


def bar(total: int | None = None, desc: str = "", unit: str = "it", show: bool | None = None):
    """A progress bar with ``update(n)`` and ``close()`` (also a context manager).

    ``show=None``: shown when standard error is a terminal or in a notebook; ``False`` never; ``True`` always.
    Without ``tqdm`` installed it is silent.
    """
    if show is None:
        show = _in_notebook() or (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())
    if not show:
        return _Silent()
    try:
        if _in_notebook():
            from tqdm.auto import tqdm
        else:
            from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency, but keep working without it
        return _Silent()
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)
