"""The browser every browser test drives: Debian's Chromium through Playwright, launched one way: its old headless
shell (`chromium-headless-shell`) where that is installed, the same engine without the desktop browser around it,
at about half the CPU time a page costs; else the browser itself (`chromium`).

Without Playwright or Chromium the browser tests are skipped, with the reason; under CI (CI=true) they fail instead.
One thread runs one sync Playwright at a time, so conftest.py keeps the one Chromium as a session fixture.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from conftest import needs

INSTALLED = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
CHROMIUM = os.environ.get("GINSCORE_CHROMIUM") or next((path for path in INSTALLED if os.path.exists(path)), INSTALLED[0])
# --process-per-site: the pages of one site in one browser context share one renderer process (each still has its
# own document, worker and lifecycle), so that the app's tabs and reloads reuse the process's compiled WebAssembly
# (Pyodide's 9 MB runtime) instead of compiling it again in a new process: a new tab's Python started in about 1.5 s
# of CPU time instead of 2 (four tabs in a row, measured alone on a 2-core machine).
# --js-flags=--liftoff-only: WebAssembly compiled by V8's baseline compiler alone, never again by its optimizing one.
# A test's tab runs Python for seconds, not the hours that repay optimizing Pyodide's runtime: four fresh phones
# (a context each, the app started and one page shown) took 9.6 s of Chromium's CPU time instead of 15.7
# (benchmarks/bench_fresh_phones.py), the browser tests as a whole about a twentieth less.
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--process-per-site",
    "--js-flags=--liftoff-only",
]


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install '.[test]')"
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium-headless-shell)"
    return None


def require_browser() -> None:
    """Skip, saying why, when the browser tests cannot run here; under CI, fail instead."""
    needs(_missing(), "browser tests")


def launched_browser() -> Iterator[Any]:
    """One Chromium, for conftest.py's session fixture."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


def expect(target: Any) -> Any:
    """Playwright's `expect`, which retries until the page shows what is expected (or its timeout passes);
    imported when a browser test runs, so that a machine without Playwright still collects the tests."""
    from playwright.sync_api import expect as retrying

    return retrying(target)
