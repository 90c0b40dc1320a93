"""The code stays ruff-clean (the style rules live in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_no_problems_in_the_code():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install ruff)")
    proc = subprocess.run([ruff, "check", "--output-format", "concise", "minigrad", "widgets",
                           "tests", "bench", "docs", "notebooks/build.py", "notebooks/_course"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
