"""A headless chromium (Debian's ``chromium``, driven by Playwright for Python) for the inspector's
page tests; they skip, saying why, when either is missing. Every page records console errors and
uncaught exceptions, and a test fails if there were any."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SCREENSHOTS = os.environ.get("PLATFORMPP_SCREENSHOTS") == "1"
IMAGES = Path(__file__).resolve().parents[3] / "docs" / "images"
VIEWPORT = {"width": 1280, "height": 800}


def _chromium() -> str | None:
    found = os.environ.get("PLATFORMPP_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    executable = _chromium()
    if executable is None:
        pytest.skip("no chromium executable (Debian package chromium, or PLATFORMPP_CHROMIUM)")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


class Page:
    """A browser page on the inspector, with the console errors it logged."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page, self.base_url = page, base_url
        self.errors: list[str] = []
        page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def open(self, fragment: str = "#/world") -> Any:
        self.page.goto(f"{self.base_url}/_emulator/ui{fragment}")
        self.page.wait_for_selector("#connection.ok")   # the live feed is connected
        return self.page

    def screenshot(self, name: str) -> None:
        """docs/images/inspector-<name>.png, only when PLATFORMPP_SCREENSHOTS=1 (CI leaves docs alone)."""
        if SCREENSHOTS:
            IMAGES.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(IMAGES / f"inspector-{name}.png"), full_page=True)


@pytest.fixture
def inspector(browser: Any, emu: Any) -> Iterator[Page]:
    context = browser.new_context(viewport=VIEWPORT, color_scheme="light")
    try:
        page = Page(context.new_page(), emu.base_url)
        yield page
        assert page.errors == [], f"console errors: {page.errors}"
    finally:
        context.close()
