"""Small helpers shared by backward formulas; each works on arrays and on tensors alike."""

from __future__ import annotations

import numpy as np

__all__ = ["sum_to"]


def sum_to(g, shape: tuple, dtype=None):
    """Sum ``g`` over the dimensions that broadcasting added, so it has ``shape`` again.

    This is where every op's gradient is un-broadcast (``x + b`` with ``b`` of shape ``(3,)``
    and ``x`` of shape ``(2, 3)`` gives ``b`` a gradient summed over the first dimension).

    >>> sum_to(np.ones((2, 3)), (3,))
    array([2., 2., 2.])
    >>> sum_to(np.ones((2, 3)), (2, 1))
    array([[3.],
           [3.]])
    """
    gshape = tuple(g.shape)
    if gshape != tuple(shape):
        lead = len(gshape) - len(shape)
        axes = tuple(range(lead)) + tuple(
            i + lead for i, s in enumerate(shape) if s == 1 and gshape[i + lead] != 1)
        if not _is_tensor(g):
            g = g.sum(axis=axes, keepdims=True) if axes else g
            g = g.reshape(shape)
        else:
            if axes:
                g = g.sum(dim=axes, keepdim=True)
            g = g.reshape(tuple(shape))
    if dtype is not None and g.dtype != dtype:
        g = np.asarray(g).astype(dtype) if not _is_tensor(g) else g.to(_as_minigrad_dtype(dtype))
    return g


def _as_minigrad_dtype(npdtype):
    from .._dtype import from_numpy_dtype

    return from_numpy_dtype(npdtype)


def _is_tensor(g) -> bool:
    from .._tensor import Tensor

    return isinstance(g, Tensor)
