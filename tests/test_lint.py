"""The code stays ruff-clean (the style rules live in pyproject.toml)."""

import re
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
                           "tests", "bench", "docs", "notebooks/build.py", "notebooks/grading.py",
                           "notebooks/_course"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_file_of_the_core_is_longer_than_a_reader_can_take_in():
    """The core redesign's rule: every module of ``minigrad/`` under 450 lines (split a file
    by topic when it grows past that)."""
    long = {str(p.relative_to(ROOT)): n for p in sorted((ROOT / "minigrad").rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450}
    assert not long, long


def test_files_of_the_core_are_named_by_topic_not_by_size():
    """Issue 19: a student looking for ``tanh``, ``sum``, ``matmul`` or ``cross_entropy`` finds
    the file from its name; no file is named for being the overflow of another."""
    by_size = [str(p.relative_to(ROOT)) for p in (ROOT / "minigrad").rglob("*.py")
               if re.search(r"(^|_)(more|extra)(_|\.py$)", p.name)]
    assert by_size == []
    files = {p.name for p in (ROOT / "minigrad").rglob("*.py")}
    assert {"activation.py", "reduce.py", "linalg.py", "functional.py"} <= files
