"""gather, index_select, scatter, scatter_add and index_add (minigrad/_ops/gather_scatter.py)
beyond their op-table rows: the tutorials' idioms (one-hot rows with ``scatter_``, a DQN's
``q.gather(1, a.unsqueeze(1))``), other dtypes, empty and 0-d cases, and the errors, against
PyTorch."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import assert_same_outcome, cases, outcome

import minigrad as mg


@pytest.mark.parametrize("expr", cases("gather_scatter"))
def test_gather_and_scatter_as_pytorch(torch, expr):
    assert_same_outcome(torch, expr)


@pytest.mark.parametrize("op", ["scatter", "scatter_add"])
def test_a_src_larger_than_index_has_pytorch_error_in_backward(torch, op):
    """PyTorch's formula gives src a gradient of index's shape: its engine refuses it."""
    def run(lib):
        x = lib.ones(3, 2, requires_grad=True)
        src = lib.ones(2, 3, requires_grad=True)
        y = getattr(x, op)(0, lib.tensor([[2, 0]]), src)
        return outcome(lambda: y.sum().backward()), repr(x.grad)

    assert run(mg) == run(torch)


_WARNINGS = """
import warnings, sys
import {lib} as lib
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    for src in (2.0, lib.ones(1, 2), lib.ones(1, 2)):
        lib.zeros(2, 3).scatter(1, lib.tensor([[0, 0]]), src, reduce="add")
print([str(w.message).split(" (Triggered")[0] for w in caught])
"""


def test_scatter_with_reduce_warns_once_as_pytorch(torch):
    """reduce with a tensor src is deprecated: PyTorch's warning, once in a process (a fresh
    one for each library); with a number, none."""
    def run(lib):
        return subprocess.run([sys.executable, "-c", _WARNINGS.format(lib=lib)], check=True,
                              capture_output=True, text=True).stdout

    assert run("minigrad") == run("torch")
    assert run("minigrad").count("deprecated") == 1
