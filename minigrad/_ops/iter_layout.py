"""The memory layout PyTorch gives the result of an elementwise op of several tensors.

NumPy lays a ufunc's result out as its inputs are only where they agree (C order otherwise);
PyTorch's TensorIterator sorts the dimensions by the operands' strides, the first operand
deciding where they disagree, and lays the result out densely in that order. So
``x.t() == y`` (``y`` contiguous) is laid out as ``x.t()`` in PyTorch, and ``y == x.t()`` as
``y``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["in_iterator_layout"]


def _order(shape: tuple, operands: list) -> list:
    """The dimensions from the fastest to the slowest, as TensorIterator's reorder sorts them."""
    def should_swap(d0: int, d1: int) -> int:
        for strides in operands:
            s0, s1 = strides[d0], strides[d1]
            if s0 == 0 or s1 == 0:  # (a broadcast dimension: the next operand decides)
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(len(shape)))[::-1]
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            swap = should_swap(perm[d0], perm[d1])
            if swap > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif swap < 0:
                break
    return perm


def in_iterator_layout(result: np.ndarray, *operands) -> np.ndarray:
    """``result`` (NumPy's) laid out as PyTorch lays out an elementwise op of ``operands``
    (arrays or numbers, in the op's order): itself where all array operands are C-contiguous
    or the order is C's, else a copy in PyTorch's order."""
    arrays = [a for a in operands if isinstance(a, np.ndarray) and a.ndim]
    shape = result.shape
    if len(shape) < 2 or all(a.flags.c_contiguous for a in arrays):
        return result
    strides = [np.broadcast_to(a, shape).strides for a in arrays]  # (0: broadcast)
    perm = _order(shape, strides)
    if perm == list(range(len(shape)))[::-1]:
        return result
    out = np.empty([shape[d] for d in perm[::-1]], result.dtype).transpose(
        np.argsort(perm[::-1]))
    if out.strides == result.strides:
        return result
    out[...] = result
    return out
