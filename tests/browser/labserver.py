"""A throwaway JupyterLab and an offline headless chromium, for the browser tests and the bench.

Shared by tests/browser/conftest.py and bench/bench_browser.py. Nothing here fetches anything
from outside the machine: the server listens on 127.0.0.1 with news, update checks and the
PyPI extension manager off, and every browser request for another host is aborted (and
recorded, so a test can say which one).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CHROMIUM_FLAGS", "Lab", "Notebook", "OfflinePage", "chromium_path",
           "launch_chromium", "notebook_fixtures", "open_notebook", "start_lab"]

REPO = Path(__file__).resolve().parents[2]
BUNDLE = REPO / "widgets" / "static" / "widget.js"
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts" / "browser"

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]

# JupyterLab settings that keep a fresh profile quiet: no news, no update checks, no toasts.
_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True},
    # every cell stays in the page, so a test can find any output without scrolling to it
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


def chromium_path() -> str | None:
    """Debian's chromium, if installed."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    """A running JupyterLab: ``url`` (no trailing slash), ``token``, ``root`` (its notebooks)."""

    url: str
    token: str
    root: Path
    process: subprocess.Popen
    log: Path
    _tmp: tempfile.TemporaryDirectory = field(repr=False)

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"

    def write_notebook(self, name: str, cells: list[str]) -> Path:
        """Writes a notebook of code cells (a cell starting with '#md' is Markdown)."""
        nb_cells = []
        for source in cells:
            if source.startswith("#md\n"):
                nb_cells.append({"cell_type": "markdown", "metadata": {}, "source": source[4:]})
            else:
                nb_cells.append({"cell_type": "code", "metadata": {}, "source": source,
                                 "outputs": [], "execution_count": None})
        notebook = {"nbformat": 4, "nbformat_minor": 5, "cells": nb_cells, "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"}}}
        path = self.root / name
        path.write_text(json.dumps(notebook, indent=1))
        return path

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """Stops the server (it shuts its kernels down) and removes its directories."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)  # our own session's group
                self.process.wait(timeout=5)
        self._tmp.cleanup()


def start_lab(*, timeout: float = 90.0) -> Lab:
    """Starts JupyterLab on 127.0.0.1 (free port, fresh token, temporary root and config)."""
    tmp, base, root, settings = _fresh_folders("minigrad-lab-", _SETTINGS)
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(base / "config"),
           "JUPYTER_RUNTIME_DIR": str(base / "runtime"), "IPYTHONDIR": str(base / "ipython"),
           "JUPYTER_PLATFORM_DIRS": "1", "PYTHONUNBUFFERED": "1"}
    env.pop("ANYWIDGET_HMR", None)
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={base / 'ws'}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True",
        "--LanguageServerManager.autodetect=False",
    ]
    return _serve(Lab, command, env, tmp, port, token, timeout)


def _fresh_folders(prefix: str, settings: dict):
    """``(tmp, base, root, settings_dir)``: a temporary folder ``base`` holding the server's
    root ``notebooks/`` and ``user-settings/`` written from ``settings``."""
    tmp = tempfile.TemporaryDirectory(prefix=prefix)
    base = Path(tmp.name)
    root, settings_dir = base / "notebooks", base / "user-settings"
    root.mkdir()
    for name, values in settings.items():
        path = settings_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return tmp, base, root, settings_dir


def _serve(kind, command: list[str], env: dict, tmp, port: int, token: str, timeout: float):
    """Runs ``command`` (a Jupyter server made by _fresh_folders' ``tmp``), logging to its
    server.log; returns ``kind``'s handle once the server answers, or stops it and raises."""
    base = Path(tmp.name)
    log = base / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   cwd=base / "notebooks", start_new_session=True)
    server = kind(f"http://127.0.0.1:{port}", token, base / "notebooks", process, log, tmp)
    try:
        _wait_until_up(server, timeout)
    except BaseException:
        server.stop()
        raise
    return server


def _wait_until_up(lab: Lab, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    status = f"{lab.url}/api/status?token={lab.token}"
    while time.monotonic() < deadline:
        if lab.process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {lab.process.returncode}:\n"
                               + lab.log_tail())
        try:
            with urllib.request.urlopen(status, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"JupyterLab did not answer within {timeout:.0f} s:\n{lab.log_tail()}")


def launch_chromium(playwright, executable: str):
    """Headless Debian chromium with the background networking that this machine refuses off."""
    return playwright.chromium.launch(executable_path=executable, headless=True,
                                      args=CHROMIUM_FLAGS)


_LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")


class OfflinePage:
    """A page that may reach only this machine; collects console errors and blocked requests."""

    def __init__(self, browser, *, width: int = 1280, height: int = 900):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.blocked: list[str] = []
        self.context.route("**/*", self._route)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _route(self, route) -> None:
        url = route.request.url
        host = url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
        if url.startswith(("data:", "blob:")) or host in _LOCAL_HOSTS:
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text}")

    def take_errors(self) -> list[str]:
        """Console errors and blocked requests since the last call."""
        found = self.errors + [f"blocked request to {url}" for url in self.blocked]
        self.errors, self.blocked = [], []
        return found

    def close(self) -> None:
        self.context.close()


# Runs a cell the way Run > Run Selected Cell does and returns its text output once the
# kernel is idle again (JupyterLab's run command resolves only then).
RUN_CELL_JS = """async (index) => {
  const app = window.jupyterapp;
  const notebook = app.shell.currentWidget.content;
  notebook.activeCellIndex = index;
  await app.commands.execute("notebook:run-cell");
  const outputs = notebook.widgets[index].model.outputs.toJSON();
  return outputs.map((o) => o.text ?? (o.data && o.data["text/plain"]) ??
    (o.ename ? `${o.ename}: ${o.evalue}` : ""))
    .map((t) => (Array.isArray(t) ? t.join("") : t)).join("");
}"""

# Runs a cell and measures the time until a new SVG appears in its output (not the old one).
TIME_TO_SVG_JS = """async (index) => {
  const app = window.jupyterapp;
  const notebook = app.shell.currentWidget.content;
  const cell = notebook.widgets[index];
  const old = cell.node.querySelector(".mg-graph svg");
  notebook.activeCellIndex = index;
  const start = performance.now();
  const run = app.commands.execute("notebook:run-cell");
  await new Promise((resolve, reject) => {
    const found = () => {
      const svg = cell.node.querySelector(".mg-graph svg");
      if (svg && svg !== old) { observer.disconnect(); clearTimeout(timer); resolve(); }
    };
    const observer = new MutationObserver(found);
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error("no SVG within 30 s"));
    }, 30000);
    observer.observe(cell.node, { childList: true, subtree: true });
    found();
  });
  const elapsed = performance.now() - start;
  await run;
  return elapsed;
}"""

# Resolves once the notebook opened from the URL is restored and its kernel is ready.
NOTEBOOK_READY_JS = """async () => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.context.ready;
  await panel.sessionContext.ready;
  return panel.sessionContext.session.kernel.status;
}"""


class Notebook:
    """An open, running notebook: the page, and helpers that use JupyterLab's own commands."""

    def __init__(self, offline: OfflinePage):
        self.offline = offline
        self.page = offline.page

    def run_cell(self, index: int) -> str:
        return self.page.evaluate(RUN_CELL_JS, index)

    def time_to_svg(self, index: int) -> float:
        """Milliseconds from running cell ``index`` to the first SVG in its output."""
        return self.page.evaluate(TIME_TO_SVG_JS, index)

    def screenshot(self, name: str, locator=None) -> str:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / name
        (locator or self.page).screenshot(path=str(path))
        return str(path)

    def close(self) -> None:
        self.offline.close()

    def assert_clean(self) -> None:
        """Fails if the page logged errors or reached for the network since the last check."""
        problems = self.offline.take_errors()
        assert not problems, "the page logged errors or reached for the network:\n" + \
            "\n".join(problems)


def notebook_fixtures(name: str, cells: list[str], *, count: int, fixture: str = "notebook"):
    """A browser test module's two pytest fixtures: ``fixture`` (module-scoped) writes the
    notebook ``name`` of ``cells`` in the session's JupyterLab, runs it and waits for ``count``
    drawn graphs; the autouse one fails every test after which the page logged errors or
    reached for the network."""
    import pytest

    @pytest.fixture(scope="module", name=fixture)
    def opened(lab, browser):
        notebook = open_notebook(lab, browser, name, cells, wait_for=".mg-graph svg",
                                 count=count)
        yield notebook
        notebook.close()

    @pytest.fixture(autouse=True)
    def page_stays_clean(request):
        notebook = request.getfixturevalue(fixture)
        yield
        notebook.assert_clean()

    return opened, page_stays_clean


def open_notebook(lab: Lab, browser, name: str, cells: list[str], *, run_all: bool = True,
                  wait_for: str | None = None, count: int = 1,
                  timeout_ms: int = 90_000) -> Notebook:
    """Writes a notebook, opens it once its kernel is ready, and (by default) runs all cells;
    then waits until ``count`` elements match the CSS selector ``wait_for``, if given."""
    lab.write_notebook(name, cells)
    offline = OfflinePage(browser)
    page = offline.page
    page.set_default_timeout(30_000)
    page.goto(lab.notebook_url(name))
    page.wait_for_function("window.jupyterapp?.shell?.currentWidget?.sessionContext",
                           timeout=timeout_ms)
    page.evaluate(NOTEBOOK_READY_JS)
    if run_all:
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    if wait_for:
        page.wait_for_function("([selector, count]) => "
                               "document.querySelectorAll(selector).length >= count",
                               arg=[wait_for, count], timeout=timeout_ms)
    return Notebook(offline)


def open_course(lab: Lab, browser, folder: str = "", **size) -> OfflinePage:
    """A page of JupyterLab (network off) whose root, or its ``folder``, holds a copy of the
    course: the lessons of both languages and the checker, without the solutions."""
    for name in ("en", "zh", "_course"):
        shutil.copytree(NOTEBOOKS / name, lab.root / folder / name, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "solutions"))
    offline = OfflinePage(browser, **size)
    page = offline.page
    page.set_default_timeout(60_000)
    page.goto(f"{lab.url}/lab?token={lab.token}&reset")
    page.wait_for_function("window.jupyterapp?.shell?.currentWidget !== undefined "
                           "&& window.jupyterapp.started", timeout=90_000)
    page.evaluate("window.jupyterapp.restored")
    return offline


def offline_file_page(browser):
    """A page of its own with the network off: only file:, data: and blob: URLs load.
    Returns (context, page, console errors, blocked URLs)."""
    context = browser.new_context(offline=True, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors, blocked = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:")):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    return context, page, errors, blocked


def cell(notebook: Notebook, index: int):
    """The ``index``-th cell of an open notebook."""
    return notebook.page.locator(".jp-Cell").nth(index)


def click(widget, name: str) -> None:
    """Click the button named exactly ``name`` in ``widget``."""
    widget.get_by_role("button", name=name, exact=True).click()
