"""Gradients the fuzzer found differing from PyTorch's, each fixed and kept here.

- ``x ** False``: PyTorch's ``pow_backward`` returns zeros only for an exponent *equal to* 0,
  and a bool Scalar never equals a number there, so ``x ** False`` gets ``0 * x ** -1``: NaN
  at 0, -0 at negatives; ``x ** 0`` and ``x ** 0.0`` get zeros.
"""

from __future__ import annotations

import pytest
from helpers import snippet_outcome

import minigrad as mg

pytestmark = pytest.mark.torch


@pytest.mark.parametrize("exponent", ["False", "True", "0", "0.0", "1", "2"])
@pytest.mark.parametrize("form", ["x ** {e}", "x.pow({e})"])
def test_the_gradient_of_a_power_with_a_number_exponent(torch, exponent, form):
    code = ("x = lib.tensor([0., 2., -1.], requires_grad=True)\n"
            f"g, = lib.autograd.grad(({form.format(e=exponent)}).sum(), x, create_graph=True)\n"
            "gg, = lib.autograd.grad(g.sum(), x, allow_unused=True)\n"
            "out = g, g.grad_fn and g.grad_fn.name(), gg")
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
