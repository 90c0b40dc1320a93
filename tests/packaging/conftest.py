"""Fixtures of the packaging tests: what a class gets, built the way a class gets it.

Once per session, from a clean clone of this repository (``git clone``: committed files only):
``make wheelhouse`` builds the sdist and the wheel (``python -m build``: sdist first, then the
wheel from the sdist) and downloads every wheel ``minigrad-autograd[lab]`` needs. A fresh
virtual environment then installs from that folder with ``--no-index`` and with no Node.js on
``PATH``; the JupyterLab, Notebook 7 and lesson tests all use that one environment.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "browser"))
DIST_NAME = "minigrad-autograd"
BUNDLE_IN_WHEEL = "minigrad_widgets/static/widget.js"
TIMINGS: dict[str, float] = {}


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Runs a command, capturing its output; fails the test with that output if it fails."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(map(str, command))} exited with {result.returncode}:\n"
                    f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


def offline_pip_env(path: str) -> dict[str, str]:
    """An environment in which pip sees no index, no configured find-links and no Node.js."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "NPM_", "npm_"))}
    env.update(PATH=path, PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_NO_INPUT="1")
    return env


def clone(destination: Path) -> Path:
    run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(destination)])
    return destination


@dataclass
class Built:
    """The clean clone and what ``make wheelhouse`` made in it."""

    clone: Path
    wheel: Path
    sdist: Path
    wheelhouse: Path
    log: str


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Built:
    """``make wheelhouse`` in a clean clone (this checkout's .venv provides pip and build)."""
    if shutil.which("npm") is None:
        pytest.fail("building the wheel needs Node.js and npm (a clone's prerequisite)")
    source = clone(tmp_path_factory.mktemp("clean") / "minigrad")
    start = time.monotonic()
    result = run(["make", "--no-print-directory", "wheelhouse", f"VENV={REPO / '.venv'}"],
                 cwd=source)
    TIMINGS["make wheelhouse (sdist, wheel from sdist, every wheel)"] = time.monotonic() - start
    wheels = list((source / "dist").glob("*.whl"))
    sdists = list((source / "dist").glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted((source / "dist").iterdir())
    return Built(source, wheels[0], sdists[0], source / "wheelhouse",
                 result.stdout + result.stderr)


@dataclass
class FreshEnv:
    """A virtual environment with no Node.js on its PATH."""

    root: Path
    path: str

    @property
    def python(self) -> str:
        return str(self.root / "bin" / "python")

    def run(self, *args: str, **kwargs) -> subprocess.CompletedProcess:
        return run([self.python, *args], env=offline_pip_env(self.path), **kwargs)


def make_env(root: Path, wheelhouse: Path, requirement: str) -> FreshEnv:
    run([sys.executable, "-m", "venv", str(root)])
    path = str(root / "bin")  # nothing else: no node, no npm, no system jupyter
    env = FreshEnv(root, path)
    # --no-compile: the bytecode would be written at first import anyway; saves ~10 s here
    env.run("-m", "pip", "install", "-q", "--no-compile", "--no-index", "--find-links",
            str(wheelhouse), requirement)
    return env


@pytest.fixture(scope="session")
def lab_env(built, tmp_path_factory) -> FreshEnv:
    """``pip install --no-index --find-links wheelhouse 'minigrad-autograd[lab]'``, no Node.js."""
    start = time.monotonic()
    env = make_env(tmp_path_factory.mktemp("env") / "lab", built.wheelhouse,
                   f"{DIST_NAME}[lab]")
    TIMINGS["fresh env from the wheelhouse, --no-index"] = time.monotonic() - start
    return env


def pytest_terminal_summary(terminalreporter):
    for what, seconds in TIMINGS.items():
        terminalreporter.write_line(f"packaging: {what}: {seconds:.1f} s")
