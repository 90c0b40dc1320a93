"""resize_ (minigrad/_ops/inplace_shape.py) against PyTorch: the storage's values from the
tensor's first element on, row-major (whatever the strides were), a view still sharing its
base's memory, the same shape left as it was, the refusals; and, where the storage grows, the
old values kept and zeros after them (PyTorch leaves that memory uninitialised)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import cases, snippet_outcome

import minigrad as mg


@pytest.mark.parametrize("code", cases("resize"))
def test_resize_as_pytorch(torch, code):
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)


def test_growing_keeps_the_old_values_and_zeros_the_new_memory(torch):
    def grown(lib):
        x = lib.arange(1., 7.)
        v = x[2:]
        return x.resize_(3, 3), v

    (mine, view), (theirs, _) = grown(mg), grown(torch)
    np.testing.assert_array_equal(mine.numpy().ravel()[:6], theirs.numpy().ravel()[:6])
    np.testing.assert_array_equal(mine.numpy().ravel()[6:], np.zeros(3, np.float32))
    assert mine.stride() == theirs.stride() and mine._version == 1
    np.testing.assert_array_equal(view.numpy(), [3., 4., 5., 6.])  # (the view: its old memory)
