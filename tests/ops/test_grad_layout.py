"""The memory layout of gradients against PyTorch: ``stride()`` and ``is_contiguous()`` of what
``autograd.grad`` returns, where PyTorch's backward formula lays its result out from the
operands' strides (``where``: its TensorIterator over the condition and the gradient) or writes
a new tensor (``cumsum``: its flips are copies, never NumPy's negative strides; ``max()``:
``new_zeros``; ``masked_fill``: a row-major clone)."""

from __future__ import annotations

import warnings

import pytest
from helpers import assert_same_for_each

pytestmark = pytest.mark.torch

INPUTS = {
    "2x3.t()": "L.arange(6.).reshape(2, 3).t()",
    "permuted": "L.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)",
    "1x3.t()": "L.arange(3.).reshape(1, 3).t()",
    "row-major": "L.arange(6.).reshape(2, 3)",
    "sliced": "L.arange(12.).reshape(3, 4)[:, ::2]",
    "4-D": "L.arange(48.).reshape(4, 4, 1, 3)",
}
LOSSES = ["torch.where(x > 1, x, 1e30).sum()", "torch.where(x > 1, 0., x).sum()",
          "torch.where(x > 1, x, x.detach()).sum()", "x.where(x < 3, 2.).square().sum()",
          "x.cumsum(0).sum()", "x.cumsum(-1).triu().sum() if x.dim() > 1 else x.cumsum(0).sum()",
          "x.flip(0).cumsum(0).sum()", "x.cumsum(0).square().sum()", "x.sum()", "x.exp().sum()",
          "(x * 2).sum()", "x.max()", "x.min()", "x.masked_fill(x > 2, 0.).sum()",
          "x.masked_fill(x > 2, 0.).square().sum()"]


def _grad_layout(L, name, loss):
    x = eval(INPUTS[name], {"L": L}).detach().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = L.autograd.grad(eval(loss, {"x": x, "torch": L}), x)[0]
    return tuple(g.shape), g.stride(), g.is_contiguous()


@pytest.mark.parametrize("loss", LOSSES)
def test_gradient_layout_as_pytorch(torch, loss):
    assert_same_for_each(torch, INPUTS, lambda L, name: _grad_layout(L, name, loss))
