"""signbit and copysign (minigrad/_ops/sign.py) at the values where the sign matters: -0.0,
NaN with either sign bit, infinities, integers and bools, against PyTorch."""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome, cases

import minigrad as mg


@pytest.mark.parametrize("expr", cases("sign_ops"))
def test_sign_ops_as_pytorch(torch, expr):
    """The sign bit decides (-0.0, -nan), integers and bools, in place, errors."""
    assert_same_outcome(torch, expr)


@pytest.mark.parametrize("expr", ["lib.copysign(1.0, lib.ones(2))",
                                  "lib.copysign(lib.ones(2), 'x')"])
def test_copysign_refuses_what_pytorch_refuses(torch, expr):
    def first_line(lib):
        with pytest.raises(TypeError) as info:
            eval(expr, {"lib": lib})  # noqa: S307
        return str(info.value).split("\n")[0]

    assert first_line(mg) == first_line(torch)


def test_copysign_keeps_self_only_for_its_gradient_as_pytorch(torch):
    def kept(lib):
        a = lib.tensor([[1., -2., 0.], [-0., 3., -4.]])
        b = lib.tensor([-1., 1., -1.], requires_grad=True)
        y = lib.copysign(a, b)
        (g,) = lib.autograd.grad((y * y).sum(), b, create_graph=True)
        return y.grad_fn._saved_self, repr(y.grad_fn._saved_result), repr(g), g.requires_grad

    assert kept(mg) == kept(torch)
