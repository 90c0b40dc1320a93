"""Fixtures of the browser tests: a real JupyterLab and a lesson (chromium: tests/conftest.py).

The server and browser start once per session; the lesson notebook is opened and run once
per module, and its page is shared by the tests of that module (each starts from Reset).
Every test fails if the page logged a console error or tried to reach another machine.
Screenshots go to test-artifacts/browser/.
"""

from __future__ import annotations

import pytest
from labserver import BUNDLE, REPO, start_lab


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


@pytest.fixture
def clean(notebook):
    """The module's ``notebook``, checked after the test: no page errors, no network."""
    yield notebook
    notebook.assert_clean()
