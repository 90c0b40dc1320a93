"""The docs site, built once per session the way ``make docs`` builds it (warnings fail it),
and served on 127.0.0.1 for the browser tests."""

from __future__ import annotations

import functools
import http.server
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from docsite import DOCS, sphinx  # (docsite also puts docs/_ext on sys.path)


@dataclass
class Site:
    root: Path
    url: str
    seconds: float


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    start = time.monotonic()
    result = sphinx(DOCS, out)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        pytest.fail(f"the docs do not build with warnings as errors:\n{result.stderr[-6000:]}")
    handler = functools.partial(_QuietHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Site(out, f"http://127.0.0.1:{server.server_address[1]}", seconds)
    server.shutdown()
    server.server_close()


def pytest_terminal_summary(terminalreporter):
    for item in terminalreporter.stats.get("passed", []):
        if item.nodeid.endswith("test_the_site_builds_with_warnings_as_errors"):
            for name, value in item.user_properties:
                terminalreporter.write_line(f"docs: {name}: {value}")
