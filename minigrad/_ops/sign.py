"""The sign of a number as an op: ``signbit`` (whether the sign bit is set, ``-0.0`` too) and
``copysign`` (the magnitude of one tensor with the sign of another). (``sign``/``sgn``, which
map a number to -1, 0 or 1, are in ``elementwise_math``.)

>>> import minigrad as torch
>>> torch.signbit(torch.tensor([-0.0, 0.0, -2.0]))
tensor([ True, False,  True])
>>> torch.copysign(torch.tensor([1., -2.]), -0.0)
tensor([-1., -2.])
"""

from __future__ import annotations

import numpy as np

from .._layout import in_iterator_layout
from .._quiet import quietly
from .._tensor import Tensor
from .._types import invalid_combination
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._backward import data, masked_zero
from ._core import binary_operands, broadcast_error, method

__all__ = ["signbit", "copysign"]


@method("signbit")
def signbit(input) -> Tensor:
    """Whether each element's sign bit is set (``-0.0`` and ``-nan`` too); never differentiable."""
    if not isinstance(input, Tensor):
        raise TypeError("signbit(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    d = input._data
    return Tensor._wrap(in_iterator_layout(
        np.zeros(d.shape, bool) if d.dtype.kind in "bu" else np.signbit(d), d))


# ---------------------------------------------------------------- copysign
@formula_function
def copysign_tensor_self_backward(grad, self, result):
    """PyTorch's ``copysign_tensor_self_backward``: ``grad * result / self``, 0 where ``self``
    is 0 (its ``masked_fill_`` of the ratio)."""
    return grad * masked_zero(result / self, data(self) == 0)


class CopysignBackward0(Node):
    """The node of ``copysign(self, other)``: ``|self|`` with the sign of ``other``."""

    rule = _r("z = copysign(a, b)  (|a| with the sign of b)",
              {"a": "self", "z": "result"},
              note="b's gradient is zeros, summed back to b's shape (PyTorch: zeros_like(b))",
              a="copysign_tensor_self_backward(grad, a, z)", b="zeros_like(grad)")

    saved = ("result", "self")


class CopysignBackward1(Node):
    """The node of ``copysign(self, number)``."""

    rule = _r("z = copysign(a, c)  (c a number)", {"a": "self", "z": "result"},
              a="copysign_tensor_self_backward(grad, a, z)")

    saved = ("result", "self")


@method("copysign", inplace=True)
def copysign(input, other):
    """The magnitude of ``input`` with the sign of ``other`` (its sign bit: -0.0 and -nan too)."""
    xa, xb, dt = binary_operands(input, other, float_result=True) if isinstance(
        input, Tensor) else (NotImplemented, None, None)
    if xa is NotImplemented:
        raise TypeError(str(invalid_combination("copysign", (input, other))) + _SIGNATURES)
    try:
        out = Tensor._wrap(in_iterator_layout(np.asarray(quietly(np.copysign, xa, xb), dtype=dt),
                                              input._data, getattr(other, "_data", other)))
    except ValueError:
        raise broadcast_error(input, other) from None
    if should_record(input, other):
        tensor = isinstance(other, Tensor)
        node = CopysignBackward0() if tensor else CopysignBackward1()
        node._s_self = SavedTensor(input) if input.requires_grad else None  # (as PyTorch)
        if tensor:
            record(node, out, input, other, broadcast=True)
        else:
            record(node, out, input)
        node._s_result = SavedTensor(out, node)
    return out


_SIGNATURES = ("\n * (Tensor input, Tensor other, *, Tensor out = None)\n * (Tensor input, "
               "Number other, *, Tensor out = None)\n")
