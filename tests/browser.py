"""Helpers for the widget tests in a real browser: Debian's Chromium driven by Playwright (no browser download).

The browser is found at ``$NUMBA_WORDS_CHROMIUM`` or as ``chromium`` / ``chromium-browser`` on the PATH; the
tests are skipped, saying why, when it or Playwright is missing. Screenshots and latency figures go to
``tests/artifacts/`` (git-ignored).
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    env = os.environ.get("NUMBA_WORDS_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser tests need Playwright: pip install playwright (the browser itself: apt-get install "
                    "chromium)")
    exe = chromium_path()
    if exe is None:
        pytest.skip("browser tests need Chromium: apt-get install chromium (or set NUMBA_WORDS_CHROMIUM)")
    profile = tempfile.mkdtemp(prefix="nw-chromium-")
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=exe, args=ARGS, headless=True,
                                                    viewport={"width": 1100, "height": 760})
        try:
            yield ctx
        finally:
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)


def open_widget(browser, harness):
    """A new page showing the harness's widget, rendered and connected."""
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(harness.url)
    page.wait_for_function("window.__nwRendered === true && window.__nwReady === true", timeout=30_000)
    page._nw_errors = errors
    return page


def settle(page, timeout=60_000):
    """Wait until every message the page sent has been answered by the server."""
    page.wait_for_function("(window.__nwInFlight || 0) === 0", timeout=timeout)


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.locator("#root").screenshot(path=str(path))
    return path


def report(name: str, latencies_ms: list, **extra) -> dict:
    """Print and save (``artifacts/<name>.json``) latency figures in milliseconds."""
    s = sorted(latencies_ms)
    out = {"n": len(s), "median_ms": round(statistics.median(s), 2), "p90_ms": round(s[int(0.9 * (len(s) - 1))], 2),
           "max_ms": round(s[-1], 2), "all_ms": [round(x, 2) for x in latencies_ms], **extra}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.json").write_text(json.dumps(out, indent=1))
    print(f"\n{name}: median {out['median_ms']} ms, p90 {out['p90_ms']} ms, max {out['max_ms']} ms over {out['n']}")
    return out
