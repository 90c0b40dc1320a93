"""Helpers of the docs tests: the paths and the strict Sphinx build (fixtures: conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
sys.path[:0] = [str(DOCS / "_ext"), str(REPO / "tests" / "browser")]


def sphinx(source: Path, out: Path) -> subprocess.CompletedProcess:
    """``sphinx-build -W --keep-going -b html``, as in the Makefile's docs target."""
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                           "html", str(source), str(out)], capture_output=True, text=True)
