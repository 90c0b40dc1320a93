"""``x[index] = value``: the selected elements overwritten in place.

Basic indexing (``x[0]``, ``x[:, 1:]``) selects a view that ``copy_`` writes into (recorded as
``CopySlices``); tensor indices write with ``index_put_`` (``IndexPutBackward0``).

>>> import minigrad as torch
>>> x = torch.zeros(3)
>>> x[1:] = torch.tensor([1., 2.])
>>> x
tensor([0., 1., 2.])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .._tensor_data import fill_value
from ..autograd.zero_tensor import refuse_write
from ._core import method
from .index_put import put_in_place
from .indexing import _sequence_as_tuple, apply_slicing
from .inplace import apply_inplace, copy_, fill_

__all__ = ["setitem"]


def _as_value(self, value) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (int, float, bool, np.number, np.bool_)):
        number = fill_value(value, self.dtype, item=True)  # (True/False: a bool array)
        return Tensor._wrap(number.astype(self._data.dtype, copy=False))
    raise TypeError(f"can't assign a {_type_name(value)} to a {self.type()}")


def _type_name(value) -> str:
    cls = type(value)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


def _copy_to(dst, src) -> None:
    """PyTorch's assignment of ``src`` to the selected part ``dst`` of a tensor."""
    if dst._data.shape == src._data.shape:
        copy_(dst, src)
    elif src._data.ndim == 0:
        fill_(dst, src)
    else:
        shape = src._data.shape
        while shape and shape[0] == 1:
            shape = shape[1:]  # leading size-1 dimensions are dropped first
        src = src.view(shape)
        copy_(dst, src if shape == dst._data.shape else src.expand(dst._data.shape))


@method("__setitem__")
def setitem(self, index, value):
    """``self[index] = value``: the selected elements are overwritten in place.

    Basic indexing selects a view that is then copied into (``CopySlices`` when recorded);
    tensor indices write with ``index_put_`` (``IndexPutBackward0``).
    """
    if self._zero:
        refuse_write(self, copy=True)
    if index is False:
        return
    if type(index) is not tuple:
        index = tuple(index) if isinstance(index, list) and _sequence_as_tuple(index) else (index,)
    value = _as_value(self, value)
    dst, found = apply_slicing(self, index)  # (its IndexErrors come before the in-place checks)
    if not found:
        _copy_to(dst, value)
        return
    shape = value._data.shape
    while shape and shape[0] == 1:
        shape = shape[1:]
    value = value.view(shape) if shape != value._data.shape else value
    apply_inplace(dst, put_in_place, found, value, fills=True, overlap="own")  # (index_put_)
