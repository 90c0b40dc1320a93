"""Fixtures of the browser tests: a real JupyterLab, Debian's headless chromium, and a lesson.

The server and browser start once per session; the lesson notebook is opened and run once
per module, and its page is shared by the tests of that module (each starts from Reset).
Every test fails if the page logged a console error or tried to reach another machine.
Screenshots go to test-artifacts/browser/.
"""

from __future__ import annotations

import os
import shutil

import pytest
from labserver import BUNDLE, REPO, chromium_path, launch_chromium, start_lab


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium; skips only where it is missing and cannot be installed (not root)."""
    path = chromium_path()
    if path:
        return path
    if os.geteuid() == 0 and shutil.which("apt-get"):
        pytest.fail("chromium is not installed, but could be: run `make browser-deps` "
                    "(apt-get install chromium); `make test` does it for you")
    pytest.skip("browser tests need Debian's chromium (/usr/bin/chromium), which only root "
                "can install: ask an administrator to `apt-get install chromium`")


@pytest.fixture(scope="session")
def bundle():
    if not BUNDLE.is_file():
        pytest.fail(f"{BUNDLE.relative_to(REPO)} is not built: run `make frontend` "
                    "(needs Node.js and npm); `make test` does it for you")
    return BUNDLE


@pytest.fixture(scope="session")
def lab(chromium, bundle):
    server = start_lab()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser(chromium):
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    instance = launch_chromium(playwright, chromium)
    yield instance
    instance.close()
    playwright.stop()
