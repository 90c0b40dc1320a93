"""Fixtures of the packaging tests: what a class gets, built the way a class gets it.

Once per session, from a clean clone of this repository (``git clone``: committed files only):
``make wheelhouse`` builds the sdist and the wheel (``python -m build``: sdist first, then the
wheel from the sdist) and downloads every wheel ``minigrad-autograd[lab]`` needs. A fresh
virtual environment then installs from that folder with ``--no-index`` and with no Node.js on
``PATH``; the JupyterLab, Notebook 7 and lesson tests all use that one environment.
"""

from __future__ import annotations

import shutil
import time

import pytest
from pkgenv import DIST_NAME, REPO, TIMINGS, Built, FreshEnv, clone, make_env, run


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
