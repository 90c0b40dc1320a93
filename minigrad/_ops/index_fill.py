"""index_fill and index_fill_: one number (or a 0-d tensor) written at the given positions
along a dimension, ``x.index_fill(1, torch.tensor([0, 2]), -1.)`` filling columns 0 and 2.

The written positions no longer depend on ``self`` (their gradient is 0); a tensor ``value``
gets the sum of the gradient at the positions written, each counted once.

>>> import minigrad as torch
>>> torch.zeros(2, 3).index_fill(1, torch.tensor([0, 2]), 7.)
tensor([[7., 0., 7.],
        [7., 0., 7.]])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .._tensor_data import fill_value
from .._types import invalid_combination
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved
from . import _formula as F
from ._core import method
from .index_put import expanded_warning
from .inplace import apply_inplace
from .inplace_checks import check_inplace
from .views import overlapping

__all__ = ["index_fill"]

_SIGNATURES = ("\n * (int dim, Tensor index, Tensor value)\n * (int dim, Tensor index, Number "
               "value)\n")


class IndexFillBackward0(Node):
    """z = self.index_fill(dim, index, number):  dz/dself = 1 except at the filled positions."""

    rule = _r("z = a.index_fill(dim, index, c)  (c a number)", {"dim": "dim", "index": "index"},
              words=True, a="grad.index_fill(dim, index, 0)")

    saved = ("dim", "index")

    def backward(self, g):
        check_saved(self)  # (PyTorch unpacks the saved index: freed, or changed in place)
        return (_filled(g, self._axis, self._where, 0),)


class IndexFillBackward1(IndexFillBackward0):
    """z = self.index_fill(dim, index, value):  dz/dself = 1 except at the filled positions;
    dz/dvalue = the sum of the gradient there (each position once). (Recorded, value's gradient
    picks with an IndexBackward0 where PyTorch's index_select records IndexSelectBackward0.)"""

    rule = _r("z = a.index_fill(dim, index, v)", {"dim": "dim", "index": "index"}, words=True,
              a="grad.index_fill(dim, index, 0)",
              v="grad.index_select(dim, unique(index)).sum()")

    def backward(self, g):
        check_saved(self)
        picked = (slice(None),) * self._axis + (np.unique(self._where),)
        flat = g.reshape(g.shape or (1,))  # (a 0-d tensor's one element is its position 0)
        d_value = F.data(flat)[picked].sum() if not isinstance(g, Tensor) else flat[picked].sum()
        return _filled(g, self._axis, self._where, 0), d_value


def _filled(x, axis: int, where: np.ndarray, number):
    """``x`` with ``number`` at ``where`` along ``axis`` (a tensor: recorded as index_fill)."""
    if isinstance(x, Tensor):
        return index_fill(x, axis, Tensor._wrap(where), number)
    out = np.array(x)
    out.reshape(out.shape or (1,))[(slice(None),) * axis + (where,)] = number
    return out


def _checked_index(input, dim, index, clone: bool = False) -> tuple:
    """(the dim, the index positions, each wrapped) after PyTorch's checks, in its order."""
    if index._data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    d = input._wrap_dim(dim)
    if index._data.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    size = input._data.shape[d] if input._data.ndim else 1
    where = index._data.reshape(-1)
    if size == 0 and where.size:
        _check_storage(input, d, where.size, clone)
    bad = where[(where < -size) | (where >= size)]
    if bad.size:
        raise IndexError(f"index {bad[0]} is out of bounds for dimension {d} with size {size}")
    return d, np.where(where < 0, where + size, where)


def _check_storage(input, d: int, n: int, clone: bool) -> None:
    """PyTorch views ``input`` with ``n`` elements along ``d`` (stride 0) before its bounds
    check: where ``d`` is empty, that view may need more memory than the tensor's storage
    (``clone``: the out-of-place op's clone of ``input``, a storage of its own, empty)."""
    sizes, strides = list(input._data.shape), list(input.stride())
    sizes[d], strides[d] = n, 0
    root, item = input._data, input._data.itemsize
    while isinstance(root.base, np.ndarray):
        root = root.base
    offset, size = (0, 0) if clone else (input.storage_offset(), root.nbytes)
    need = 0 if 0 in sizes else item * (offset + 1 + sum((k - 1) * s for k, s in
                                                         zip(sizes, strides)))
    if need > size:
        raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset "
                           f"{offset}, and itemsize {item} requiring a storage size of {need} "
                           f"are out of bounds for storage of size {size}")


@method("index_fill")
def index_fill(input, dim: int, index, value):
    """``input`` with ``value`` written at positions ``index`` along ``dim``."""
    return _index_fill(input, dim, index, value)


def _index_fill(input, dim: int, index, value, clone: bool = True):
    """``index_fill`` (``clone``: False when ``index_fill_`` runs it on the tensor itself)."""
    if not isinstance(index, Tensor) or not isinstance(value, (Tensor, int, float, bool)):
        raise TypeError(f"{invalid_combination('index_fill', (dim, index, value))}{_SIGNATURES}")
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._data.ndim} dimension(s).")
    d, where = _checked_index(input, dim, index, clone)
    x = input._data
    number = value._data if isinstance(value, Tensor) else fill_value(value, input.dtype)
    data = np.array(x)
    data.reshape(x.shape or (1,))[(slice(None),) * d + (where,)] = number
    out = Tensor._wrap(data)
    tensor_value = isinstance(value, Tensor)
    if should_record(input, value if tensor_value else None):
        node = IndexFillBackward1() if tensor_value else IndexFillBackward0()
        node._s_dim, node._s_index = dim & 0xFFFFFFFFFFFFFFFF, SavedTensor(index)
        node._axis, node._where = d, where
        record(node, out, input, *((value,) if tensor_value else ()))
    return out


@method("index_fill_")
def index_fill_(self, dim: int, index, value):
    """``index_fill`` in place. Into expanded memory too (PyTorch's deprecation warning): only
    the positions filled are written, so every element sharing their memory shows the value."""
    check_inplace(self, (index, value))  # (the leaf's refusal first, as in PyTorch)
    shared = overlapping(self._data)
    if shared and isinstance(index, Tensor) and index._data.dtype == np.int64:
        expanded_warning("index_fill_", "mask", "scalar", stacklevel=3)
    apply_inplace(self, _index_fill, dim, index, value, False, fills=shared)
    if shared:
        d, where = _checked_index(self, dim, index)
        self._data[(slice(None),) * d + (where,)] = value._data if isinstance(
            value, Tensor) else fill_value(value, self.dtype)
    return self
