"""The fast paths of the commonest calls give exactly PyTorch's results.

Each fast path (``x * 0.5`` without the general operand checks, a leaf's first gradient kept
without a copy, ...) is taken only when a cheap test says the general code would give the
same answer. These tests run the
cases around each test's edges on both libraries: dtypes, numbers that round, overflow,
special values, a second backward, ``create_graph``, hooks.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg

DTYPES = ("float16", "float32", "float64")
NUMBERS = (0.5, 1.0000001, -3.0, 0.0, -0.0, 1e-45, 3e38, 70000.0, 1 / 3)
VALUES = [1.0, -2.5, 0.0, 1e-3, 3e38, -math.inf, math.nan, 65504.0]


def _same(m, t):
    """Equal arrays, NaN where NaN, same dtype and sign of zero."""
    a, b = m.detach().numpy(), t.detach().numpy()
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.signbit(a), np.signbit(b))


# (float16 times a Python number is not a fast path: PyTorch multiplies in float32 and rounds
# once, see _ops/rounding.half_opmath; tests/ops/test_half_precision.py has the whole class)
NUMBER_CASES = [(d, n) for d in DTYPES for n in NUMBERS]


@pytest.mark.parametrize("dtype, number", NUMBER_CASES)
def test_times_a_number_forward_and_backward(torch, dtype, number):
    def run(L):
        x = L.tensor(VALUES, dtype=getattr(L, dtype), requires_grad=True)
        y = x * number
        g = L.tensor([1.0, -1.0, 2.0, 0.5, 1e30, 3.0, 1.0, math.inf], dtype=getattr(L, dtype))
        y.backward(g, retain_graph=True)
        first, saved = x.grad.clone(), y.grad_fn._saved_other
        y.backward(g)  # a second pass through the same node: the kept number again
        return y, first, x.grad, saved

    with np.errstate(all="ignore"):
        for m, t in zip(run(mg), run(torch)):
            _same(m, t)


@pytest.mark.parametrize("dtype", DTYPES)
def test_times_a_number_under_create_graph(torch, dtype):
    def run(L):
        x = L.tensor([1.5, -2.0], dtype=getattr(L, dtype), requires_grad=True)
        y = (x * 0.25 * x).sum()
        (gx,) = L.autograd.grad(y, x, create_graph=True)
        (ggx,) = L.autograd.grad(gx.sum(), x)
        return gx, ggx, gx.grad_fn.name()

    m, t = run(mg), run(torch)
    _same(m[0], t[0])
    _same(m[1], t[1])
    assert m[2] == t[2]


def test_times_a_number_with_a_hook_that_changes_the_gradient(torch):
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3.0
        y.register_hook(lambda g: g * 2)
        y.sum().backward()
        return x.grad

    _same(run(mg), run(torch))
