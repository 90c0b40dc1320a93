"""Backward formulas that meet an integer or bool operand, against PyTorch: the errors
PyTorch's own formulas raise there (``exponent - 1`` of a bool exponent, ``-self`` of a bool
in atan2's, a target of another dtype in huber_loss's), and otherwise gradients in the
result's dtype, with the signs of zero PyTorch's formulas give (the target's gradient of a
loss is computed with the operands swapped, not negated).

Each case is an expression run with ``lib`` bound to minigrad and to torch (``F`` is its
``nn.functional``): the same repr or the same exception type and message.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome

pytestmark = pytest.mark.torch

CASES = [
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.atan2(lib.tensor([True, False]), x).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.atan2(x, lib.tensor([True, False])).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.atan2(lib.tensor([1, 0]), x).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.pow(x, lib.tensor([True, False])).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), (x ** lib.tensor(True)).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), (x ** True).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), (x ** lib.tensor([2, 0])).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), (lib.tensor([True, False]) ** x).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), x.pow_(lib.tensor(False)) if False else (x * 1).pow_(lib.tensor([True, False])).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), -lib.tensor([True]))',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.huber_loss(x, lib.tensor([True, False])).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.huber_loss(x, lib.tensor([1, 0])).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.huber_loss(x, lib.tensor([1., 0.], dtype=lib.float64)).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.huber_loss(x, lib.tensor([1., 0.], dtype=lib.float64, requires_grad=True)).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.smooth_l1_loss(x, lib.tensor([True, False])).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.smooth_l1_loss(lib.tensor([True, False]), x, beta=0.5).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.smooth_l1_loss(x, lib.tensor([1, 0]), reduction="none").sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.mse_loss(x, lib.tensor([True, False])).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.mse_loss(lib.tensor([True, False]), x).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.mse_loss(x, lib.tensor([1, 0])).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.mse_loss(lib.tensor([1, 0]), x, reduction="sum").backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.mse_loss(x, lib.tensor([1, 0], dtype=lib.int32), reduction="none").sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), F.mse_loss(x, lib.tensor([1., 2.], dtype=lib.float64)).backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), t := lib.tensor([1., 0.], requires_grad=True), F.mse_loss(x, t).backward(), x.grad, t.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), t := lib.tensor([1., 2.], requires_grad=True), F.mse_loss(x, t).backward(), x.grad, t.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), t := lib.tensor([1., 0.], dtype=lib.float64, requires_grad=True), F.mse_loss(x, t).backward(), x.grad, t.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), t := lib.tensor([1., 3.], requires_grad=True), F.huber_loss(x, t).backward(), x.grad, t.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), t := lib.tensor([1., 3.], requires_grad=True), F.smooth_l1_loss(x, t, reduction="sum").backward(), x.grad, t.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), t := lib.tensor([1., 3.], requires_grad=True), lib.atan2(x, t).sum().backward(), x.grad, t.grad)',
    '(x := lib.tensor([0., 2.], requires_grad=True), t := lib.tensor([1., 3.], requires_grad=True), lib.atan2(x, t).sum().backward(), x.grad, t.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.hypot(lib.tensor([1, 0]), x).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.xlogy(lib.tensor([1, 0]), x).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.fmod(lib.tensor([3, 0]), x).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.remainder(lib.tensor([3, 0]), x).sum().backward(), x.grad)',
    '(x := lib.tensor([1., 2.], requires_grad=True), lib.atan2(x, lib.tensor([3, 0])).sum().backward(), x.grad)',
]


@pytest.mark.parametrize("code", CASES)
def test_backward_with_integer_or_bool_operands_as_pytorch(torch, code):
    assert_same_outcome(torch, code)
