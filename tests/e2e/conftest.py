"""Browser tests: the system Chromium (never a downloaded one) against live_server, with a real
Celery worker in a thread of this process and the scripted fake Anthropic."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}: `apt-get install chromium` or set CHROMIUM_PATH")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


# Playwright's sync API leaves an asyncio loop marked as running in the main thread for as long as it
# is started, so a session-long Playwright (pytest-playwright's `playwright`, `browser` and `page`)
# breaks every later asyncio.run() in the same xdist worker. The browser here lives for this module
# only; `page` below replaces pytest-playwright's for these tests.
@pytest.fixture(scope="module")
def e2e_browser(browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**browser_type_launch_args)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(e2e_browser: Browser) -> Iterator[Page]:
    # Clipboard permissions let the copy button be checked by reading the clipboard back.
    context = e2e_browser.new_context(locale="ko-KR", permissions=["clipboard-read", "clipboard-write"])
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def screenshots() -> Iterator[Path | None]:
    """var/screenshots/ on a laptop; nothing is written on CI."""
    if os.environ.get("CI"):
        yield None
        return
    folder = Path(settings.BASE_DIR) / "var" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    yield folder
