"""The benchmark runner's plumbing (no timing here: performance lives in ``bench/``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.__main__ import table  # noqa: E402
from bench.core import Case, baseline_source  # noqa: E402


def test_the_table_gains_two_columns_against_a_baseline():
    cases = [Case("tiny", 2e-5, 4e-5, 1e-5, 0.5, None)]
    plain = table(cases)
    against = table(cases, [1e-5], "abc123")
    assert "minigrad at abc123" not in plain
    header, rule, row = against.splitlines()
    assert header.endswith("| minigrad at abc123 | vs abc123 |")
    assert rule.count("---") == 9
    assert row.endswith("| 10.0 us | 2.00x |")  # this checkout took twice the baseline's time
    assert "0.50x" in row and "met (<= 0.5x torch)" in row


def test_a_baseline_is_the_package_as_committed(tmp_path):
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                      capture_output=True).returncode != 0:
        pytest.skip("not a git checkout (an unpacked source archive)")
    baseline_source("HEAD", str(tmp_path))
    init = tmp_path / "minigrad" / "__init__.py"
    committed = subprocess.run(["git", "-C", str(ROOT), "show", "HEAD:minigrad/__init__.py"],
                               capture_output=True, text=True, check=True).stdout
    assert init.read_text() == committed
    # the worker imports that copy, not this checkout's
    code = ("import os, sys; sys.argv = ['x']; from bench.core import _lib; "
            "print(_lib('minigrad').__file__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, BENCH_MINIGRAD_FROM=str(tmp_path)), check=True)
    assert out.stdout.strip() == str(init)
