"""Headless Chromium for the page's screenshot, browser test and benchmark.

Browsers are never downloaded (no ``playwright install``): Playwright drives
the system's Chromium (Debian's ``chromium``), found on the PATH or named by
``KCOMPAT_CHROMIUM``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


class BrowserUnavailable(RuntimeError):
    """No Playwright or no Chromium on this machine; the message says what to install."""


def find_chromium() -> Path:
    named = os.environ.get("KCOMPAT_CHROMIUM")
    if named:
        if not Path(named).is_file():
            raise BrowserUnavailable(f"KCOMPAT_CHROMIUM={named} is not a file")
        return Path(named)
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return Path(found)
    raise BrowserUnavailable("no chromium on the PATH (scripts/bootstrap.sh installs Debian's chromium; "
                             "or set KCOMPAT_CHROMIUM)")


def _playwright() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise BrowserUnavailable("playwright is not installed (pip install -e '.[test]')") from exc
    return sync_playwright


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium for one use, always closed."""
    sync_playwright = _playwright()
    executable = find_chromium()
    with sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium refuses its sandbox.
        browser = playwright.chromium.launch(executable_path=str(executable), headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


def screenshot(html: Path, png: Path, width: int = 1400, height: int = 900) -> Path:
    """A full-page PNG of a written page, opened from file:// as a reader would."""
    _playwright()
    from playwright.sync_api import Error

    try:
        with chromium() as browser:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(html.resolve().as_uri())
            page.screenshot(path=str(png), full_page=True)
    except Error as exc:
        raise BrowserUnavailable(f"chromium failed: {str(exc).splitlines()[0]}") from exc
    return png
