"""Debian's Chromium for the browser tests, driven by Playwright: where it is, how it is started, where
screenshots go, and a module-wide ``browser`` fixture.

pytest loads it as a plugin for every run (``-p helpers.browser`` in pyproject.toml), so the ``browser``
fixture is there for any test; a module of browser tests skips without Chromium with
``pytestmark = needs_chromium``; in CI (``CI=true``) a missing Chromium is an error instead, since
``make test`` installs it and a skip there would hide a gap.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Screenshots go to $HANDFOOT_SCREENSHOTS (``docs/screenshots`` to refresh the committed ones), else to a
# folder under the system's temporary directory, so a test run leaves the working tree as it was.
SCREENSHOTS = Path(
    os.environ.get("HANDFOOT_SCREENSHOTS") or Path(tempfile.gettempdir()) / "handfoot-screenshots"
)

if os.environ.get("CI") == "true" and not CHROMIUM.exists():
    raise RuntimeError("CI: the browser tests need Chromium at /usr/bin/chromium (make chromium)")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless (a Playwright ``Browser``), for the module's tests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def sit_down(page: Any, name: str, *, by_key: bool = False) -> None:
    """Answer a table's join dialog with ``name`` (Enter in the field, or the Sit down button) and wait
    until the dialog has gone: the table shows behind it at once, and until the server has taken the
    name the field keeps the focus, so a key pressed then would be typed into it."""
    page.get_by_label("Your name at this table").fill(name)
    if by_key:
        page.keyboard.press("Enter")
    else:
        page.get_by_role("button", name="Sit down").click()
    page.locator("#join-name").wait_for(state="detached")
