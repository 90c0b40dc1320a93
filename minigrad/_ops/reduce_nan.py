"""Reductions that skip NaN: ``nansum`` and ``nanmean``.

``nansum`` counts each NaN as 0 (and sends it no gradient); ``nanmean`` is, as in PyTorch,
``nansum`` divided by the number of non-NaN elements, so its node is ``DivBackward0``.

>>> import minigrad as torch
>>> x = torch.tensor([1., float('nan'), 3.], requires_grad=True)
>>> x.nansum(), x.nanmean()
(tensor(4., grad_fn=<NansumBackward0>), tensor(2., grad_fn=<DivBackward0>))
"""

from __future__ import annotations

import numpy as np

from .._layout import row_major
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from . import _formula as F
from ._core import method, value
from ._formula import data
from .reduce import _ALL, _axes, _expand_back, reduction_input, total
from .reduce import sum as reduce_sum

__all__ = ["nansum", "nanmean", "count_nonzero"]


class NansumBackward0(Node):
    """z = self.nansum(dim, keepdim):  dself = g * (self is not NaN): each non-NaN element gets
    the gradient of its sum, a NaN element gets 0 times it."""

    rule = _r("z = nansum(a, dim, keepdim)", {"a": "self", "dim": "dim", "keepdim": "keepdim"},
              a="where(isnan(a), 0, expand(grad, a.shape, dim, keepdim))")

    saved = ("dim", "keepdim", "self")

    def backward(self, g):
        x = value(self._s_self)
        shape = data(x).shape
        g = _expand_back(g, shape, self._axes, self._s_keepdim)
        keep = (~np.isnan(data(x))).astype(data(x).dtype)  # a product, as PyTorch's: inf * 0 is NaN
        return (g * F.constant(keep, g),)


@method("nansum")
def nansum(input, dim=_ALL, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The sum of all elements (or over ``dim``), counting NaN as 0. Integers sum as int64."""
    d, nd = reduction_input(input, dtype, "nansum", dim)
    shown, axes = (None, None) if dim is _ALL else _axes(input, dim)
    if d.dtype.kind == "f":
        d = np.where(np.isnan(d), 0, d)
    out = Tensor._wrap(row_major(total(np.sum, d, nd, axis=axes, keepdims=keepdim)))
    if should_record(input):
        node = NansumBackward0()
        node._s_dim, node._axes, node._s_keepdim = shown, axes, keepdim
        node._s_self = SavedTensor(input)
        record(node, out, input, broadcast=dtype is not None)
    return out


@method("nanmean")
def nanmean(input, dim=_ALL, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The mean of the non-NaN elements (of all, or over ``dim``); NaN where there are none."""
    if input._data.dtype.kind != "f":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {input.dtype._cpp}")
    count = reduce_sum(~input.isnan(), dim, keepdim)
    total = nansum(input, dim, keepdim, dtype=dtype)
    return total / count  # (0 / 0: NaN; division runs quietly)


@method("count_nonzero")
def count_nonzero(input, dim=None) -> Tensor:
    """How many elements are not zero (over ``dim``: an int or a tuple), as int64; no history."""
    _, axes = _axes(input, dim)
    return Tensor._wrap(row_major(np.asarray(np.count_nonzero(input._data, axis=axes), np.int64)))
