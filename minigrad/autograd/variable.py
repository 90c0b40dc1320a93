"""``torch.autograd.Variable``: the old wrapper, kept as PyTorch keeps it.

Since PyTorch 0.4 a Variable *is* a Tensor: ``Variable(t, requires_grad=True)`` returns a
tensor (``type(...)`` is ``Tensor``) sharing ``t``'s data.

>>> import minigrad as torch
>>> from minigrad.autograd import Variable
>>> v = Variable(torch.ones(2), requires_grad=True)
>>> type(v).__name__, v
('Tensor', tensor([1., 1.], requires_grad=True))
"""

from __future__ import annotations

from .._tensor import Tensor

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: a Tensor (``isinstance`` checks pass)."""

    def __new__(cls, data=None, requires_grad: bool = False, volatile: bool = False):
        if data is None:
            from .._creation import tensor

            return tensor([])
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out
