"""The nodes of ``zero_`` and ``fill_`` and their out-of-place forms (``apply_inplace`` makes
them in place): the result no longer depends on the tensor's old values.

>>> import minigrad as torch
>>> a = torch.tensor([1., 2.], requires_grad=True) * 1
>>> a.fill_(3.).grad_fn.name()
'FillBackward2'
"""

from __future__ import annotations

import numpy as np

from .._dtype import cast
from .._tensor import Tensor
from .._tensor_data import fill_value
from ..autograd._rule import _r
from ..autograd.graph import Node, record, should_record

__all__ = ["ZeroBackward0", "FillBackward2", "FillBackward3"]


class ZeroBackward0(Node):
    """The node of ``self.zero_()``: the result no longer depends on ``self``."""

    rule = _r("a.zero_()", a="zeros_like(grad)")


class FillBackward2(Node):
    """The node of ``self.fill_(number)``."""

    rule = _r("a.fill_(number)", a="zeros_like(grad)")


class FillBackward3(Node):
    """The node of ``self.fill_(value)`` with a 0-d tensor ``value``."""

    rule = _r("a.fill_(v)", a="zeros_like(grad)", v="grad.sum()")


def _zeroed(input):
    out = Tensor._wrap(np.zeros_like(input._data))
    return record(ZeroBackward0(), out, input) if should_record(input) else out


def _filled(input, value):
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._data.ndim} dimensions.")
        out = Tensor._wrap(np.full_like(input._data, cast(value._data, input._data.dtype)))
        if should_record(input, value):
            record(FillBackward3(), out, input, value, broadcast=True)
        return out
    out = Tensor._wrap(np.full_like(input._data, fill_value(value, input.dtype,
                                                           one=input._data.size == 1)))
    return record(FillBackward2(), out, input) if should_record(input) else out
