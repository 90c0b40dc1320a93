"""What the op files share: operands and result dtypes, saved values, attaching methods.

Recording is not here: every op asks :func:`minigrad.autograd.graph.should_record` whether to
build a node and attaches it with :func:`minigrad.autograd.graph.record`.
"""

from __future__ import annotations

import numpy as np

from .._dtype import _Defaults, from_numpy_dtype, result_type
from .._tensor import Tensor
from ..autograd.graph import SavedTensor

__all__ = ["binary_operands", "value", "method", "wrap_scalar", "to_tensor", "dtype_of"]

_SCALARS = (int, float, bool)


def method(*names):
    """Attach the decorated function to ``Tensor`` under ``names`` (its own name by default)."""

    def deco(fn):
        for name in names or (fn.__name__,):
            setattr(Tensor, name, fn)
        return fn

    return deco


def value(saved):
    """What a backward formula uses of a saved value: array/tensor for a SavedTensor, else as is."""
    return saved.get() if type(saved) is SavedTensor else saved


def wrap_scalar(x) -> Tensor:
    """A Python number as the 0-d tensor PyTorch makes of it (int64, float64 or bool)."""
    return Tensor._wrap(np.array(x))


def to_tensor(x) -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, _SCALARS) or isinstance(x, np.generic):
        return Tensor._wrap(np.array(x, dtype=result_type(x).np))
    raise TypeError(f"expected Tensor as element 1 in argument 0, but got {type(x).__name__}")


def binary_operands(a, b, float_result: bool = False):
    """The arrays (or weak Python scalars) to compute with, and the result's NumPy dtype.

    NumPy's own promotion differs from PyTorch's (``int64 * 2.5`` is float64 in NumPy,
    float32 in PyTorch), so operands are cast to PyTorch's result dtype where they differ.
    """
    ta = type(a) is Tensor or isinstance(a, Tensor)
    tb = type(b) is Tensor or isinstance(b, Tensor)
    if ta and tb:
        da, db = a._data.dtype, b._data.dtype
        if da is db and (da.kind == "f" or not float_result):
            return a._data, b._data, da
        rd = result_type(a, b)
    elif ta:
        if type(b) not in (float, int, bool):
            if isinstance(b, np.ndarray):
                return binary_operands(a, Tensor._wrap(b), float_result)
            if not isinstance(b, _SCALARS + (np.generic,)):
                return NotImplemented, None, None
            b = b.item() if isinstance(b, np.generic) else b
        da = a._data.dtype
        if da.kind == "f" and type(b) is not complex:
            return a._data, b, da
        rd = result_type(a, b)
    else:
        if not isinstance(a, _SCALARS + (np.generic,)):
            return NotImplemented, None, None
        a = a.item() if isinstance(a, np.generic) else a
        db = b._data.dtype
        if db.kind == "f":
            return a, b._data, db
        rd = result_type(a, b)
    if float_result and not rd.is_floating_point:
        rd = _Defaults.float
    nd = rd.np
    xa = a._data if ta else np.asarray(a)
    xb = b._data if tb else np.asarray(b)
    return (xa if xa.dtype == nd else xa.astype(nd), xb if xb.dtype == nd else xb.astype(nd), nd)


def dtype_of(npdtype):
    return from_numpy_dtype(npdtype)
