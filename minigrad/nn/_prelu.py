"""``F.prelu``: leaky ReLU with a learned slope per channel, one node ``PreluKernelBackward0``
(its weight viewed as (1, C, 1, ...) first, ``ViewBackward0``, as in PyTorch).

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> x = torch.tensor([[-2., 3.]], requires_grad=True)
>>> F.prelu(x, torch.tensor([0.25]))
tensor([[-0.5000,  3.0000]], grad_fn=<PreluKernelBackward0>)
"""

from __future__ import annotations

import numpy as np

from .._ops._core import value
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import enable_grad, no_grad
from ..autograd.graph import Node, SavedTensor, record, should_record

__all__ = ["prelu", "PreluKernelBackward0", "PreluKernelBackwardBackward0"]


def _grads(g: Tensor, x: Tensor, w: Tensor) -> tuple:
    """(grad_input, grad_weight) of ``where(x > 0, x, w * x)``, as tensor ops; the weight's
    in the input's shape (the engine sums it to the weight's, as PyTorch's does)."""
    pos = Tensor._wrap((x._data > 0).astype(x._data.dtype))
    return g * (pos + (1 - pos) * w), g * (1 - pos) * x


class PreluKernelBackward0(Node):
    """z = where(a > 0, a, w * a):  grad_a = grad * where(a > 0, 1, w);
    grad_w = grad * where(a > 0, 0, a), summed over the batch and positions."""

    rule = _r("z = where(a > 0, a, w * a)", {"a": "self", "w": "weight"},
              a="grad * where(a > 0, 1, w)", w="grad * where(a > 0, 0, a)")

    saved = ("self", "weight")
    saved_tensors_names = ("self", "weight")

    def backward(self, g):
        x, w = (_tensor(value(s)) for s in (self._s_self, self._s_weight))
        if isinstance(g, Tensor):  # create_graph: the gradients are an op of their own
            return _recorded(g, x, w)
        with no_grad():
            dx, dw = _grads(Tensor._wrap(g), x, w)
        return dx._data, dw._data


def _tensor(v):
    return v if isinstance(v, Tensor) else Tensor._wrap(v)


class PreluKernelBackwardBackward0(Node):
    """z = (grad_a, grad_w) of prelu, as an op of (grad, a, w):  each gets the gradient of
    these two with respect to it (found by minigrad's own autograd from their formula)."""

    rule = _r("z = (grad_a, grad_w) of prelu, computed from (g, a, w)  (its gradient as an op)",
              {"g": "grad_output", "a": "self", "w": "weight"}, words=True,
              g="grad_a's and grad_w's own gradient with respect to g", a="... with respect to a",
              w="... with respect to w")

    saved = ("grad_output", "self", "weight")
    saved_tensors_names = ("grad_output", "self", "weight")

    def backward(self, grads):
        from ..autograd import grad

        gg = list(grads)
        third = any(isinstance(t, Tensor) for t in gg)
        ins = [_tensor(value(s)) for s in (self._s_grad_output, self._s_self, self._s_weight)]
        with enable_grad():
            if not third:
                ins = [Tensor._wrap(t._data).requires_grad_() for t in ins]
            outs = _grads(*ins)
            pairs = [(o, _tensor(t)) for o, t in zip(outs, gg) if t is not None]
            got = grad([o for o, _ in pairs], ins, [t for _, t in pairs], allow_unused=True,
                       create_graph=third)
        got = [a if a is not None else Tensor._wrap(np.zeros(t._data.shape, t._data.dtype))
               for a, t in zip(got, ins)]
        return tuple(got) if third else tuple(a._data for a in got)


def _recorded(g: Tensor, x: Tensor, w: Tensor) -> tuple:
    with no_grad():
        dx, dw = _grads(Tensor._wrap(g._data), x, w)
    outs = (Tensor._wrap(dx._data), Tensor._wrap(dw._data))
    if should_record(g, x, w):
        node = PreluKernelBackwardBackward0()
        node._s_grad_output, node._s_self, node._s_weight = (SavedTensor(t) for t in (g, x, w))
        record(node, outs, g, x, w)
    return outs


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``input`` where positive, ``weight * input`` elsewhere (one weight, or one per channel
    of dimension 1)."""
    if weight.dim() > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")
    n = weight.numel()
    channels = input.shape[1] if input.dim() >= 2 else 1
    if n != 1 and n != channels:
        raise RuntimeError("Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {n} and channel size = {channels}.")
    w = weight.view((1, n) + (1,) * (input.dim() - 2)) if input.dim() >= 2 else weight
    x = input._data
    out = Tensor._wrap(np.where(x > 0, x, w._data * x).astype(x.dtype, copy=False))
    if should_record(input, w):
        node = PreluKernelBackward0()
        node._s_self, node._s_weight = SavedTensor(input), SavedTensor(w)
        record(node, out, input, w, broadcast=True)
    return out
