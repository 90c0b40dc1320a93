"""signbit and copysign (minigrad/_ops/sign.py) at the values where the sign matters: -0.0,
NaN with either sign bit, infinities, integers and bools, against PyTorch."""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome

import minigrad as mg

VALUES = "[-0.0, 0.0, -1.5, 2.0, float('nan'), -float('nan'), float('inf'), -float('inf')]"


@pytest.mark.parametrize("expr", [
    f"lib.signbit(lib.tensor({VALUES}))",
    f"lib.tensor({VALUES}, dtype=lib.float16).signbit()",
    "lib.signbit(lib.tensor([-1, 0, 2]))",
    "lib.signbit(lib.tensor([True, False]))",
    "lib.signbit(lib.tensor([1, 2], dtype=lib.uint8))",
    "lib.signbit(lib.tensor(-2.0, requires_grad=True))",
    "lib.signbit(3.0)",
])
def test_signbit_as_pytorch(torch, expr):
    assert_same_outcome(torch, expr)


@pytest.mark.parametrize("expr", [
    f"lib.copysign(lib.tensor({VALUES}), -1.0)",
    f"lib.copysign(lib.ones(8), lib.tensor({VALUES}))",
    "lib.copysign(lib.tensor([1, 2]), lib.tensor([-1, 1]))", "lib.copysign(lib.tensor([1, 2]), -1)",
    "lib.copysign(lib.tensor([True]), lib.tensor([False]))",
    "lib.copysign(lib.tensor([1., 2.], dtype=lib.float16), -1.)",
    "lib.copysign(lib.tensor([1., 2.]), lib.tensor([-1., 1.], dtype=lib.float64))",
    "lib.copysign(lib.tensor([1, 2]), 2.5)", "lib.copysign(lib.tensor([1., 2.]), True)",
    "lib.tensor([1., 2.]).copysign_(lib.tensor([-1, 1]))",
    "lib.tensor([1, 2]).copysign_(lib.tensor([-1, 1]))",
    "lib.tensor([1., 2.], requires_grad=True).copysign_(-1.)",
    "lib.copysign(lib.ones(2), lib.ones(3))",
])
def test_copysign_as_pytorch(torch, expr):
    """The sign bit of other decides (-0.0, -nan); integers and bools give floats; errors."""
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
