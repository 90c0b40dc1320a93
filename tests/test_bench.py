"""The benchmark runner's plumbing (no timing here: performance lives in ``bench/``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import tape  # noqa: E402
from bench.__main__ import table  # noqa: E402
from bench.core import Case, baseline_source, build_mlp  # noqa: E402


def test_the_table_gains_two_columns_against_a_baseline():
    cases = [Case("tiny", 2e-5, 4e-5, 1e-5, 0.5, None)]
    plain = table(cases)
    against = table(cases, [1e-5], "abc123")
    assert "minigrad at abc123" not in plain
    header, rule, row = against.splitlines()
    assert header.endswith("| minigrad at abc123 | vs abc123 |")
    assert rule.count("---") == 11
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


def test_a_row_says_how_far_minigrad_is_from_the_lean_tape():
    row = table([Case("mlp", 3e-4, 2e-4, 1e-4, 0.6, 1.3, 1.5e-4, 1.6)]).splitlines()[2]
    assert "| 300.0 us | 150.0 us |" in row and "| 2.00x | 1.50x |" in row
    assert "MISSED (<= 1.6x tape)" in row


def test_the_lean_tape_computes_minigrads_gradients():
    import minigrad

    rng = np.random.default_rng(1)
    xa, ya = rng.random((3, 4)), rng.random((3, 4))
    t, x, y = tape.Tape(), tape.Var(xa), tape.Var(ya)
    t.backward(tape.total(t, tape.add(t, tape.mul(t, x, y), x)))
    mx, my = minigrad.tensor(xa, requires_grad=True), minigrad.tensor(ya, requires_grad=True)
    (mx * my + mx).sum().backward()
    assert np.allclose(x.grad, mx.grad.numpy()) and np.allclose(y.grad, my.grad.numpy())
    assert not t.records  # the tape is forgotten after backward


def test_the_lean_tapes_training_steps_match_the_numpy_floors():
    import bench.core as core

    core._tape = tape
    losses = {}
    for lib in ("floor", "tape"):
        run, restore = build_mlp(lib)
        restore()
        losses[lib] = [float(run()) for _ in range(4)]  # each step's loss, before its update
    assert losses["floor"][0] > losses["floor"][3]  # it trains
    assert np.allclose(losses["floor"], losses["tape"], rtol=1e-5)
