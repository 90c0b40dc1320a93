"""``Parameter``: a tensor that a ``Module`` learns.

A Parameter is an ordinary leaf tensor (it shares the data of the tensor it was made from) with
one difference: assigning it as an attribute of a :class:`~minigrad.nn.Module` registers it, so
that ``module.parameters()`` finds it and an optimizer can update it.

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
>>> w
Parameter containing:
tensor([1., 2.], requires_grad=True)
>>> (w * 2).__class__.__name__     # results of ops are plain tensors
'Tensor'
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .._tensor_str import tensor_repr

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A leaf tensor registered by a Module; ``requires_grad`` is True unless you say otherwise."""

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            data = Tensor._wrap(np.empty((0,), np.float32))
        data = data.detach()  # a non-tensor fails here, as in PyTorch
        self._data = data._data
        self._vc = data._vc  # an in-place change of `data` is a change of the parameter too
        self._requires_grad, self._grad_fn, self._base = False, None, None
        if requires_grad:
            if self._data.dtype.kind != "f":
                raise RuntimeError(
                    "Only Tensors of floating point and complex dtype can require gradients")
            self._requires_grad = True

    def __repr__(self) -> str:
        return "Parameter containing:\n" + tensor_repr(self)

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self._data.copy(), self._requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(Tensor._wrap(data), requires_grad)
