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


def _row_major(a: np.ndarray) -> bool:
    """C-contiguous, size-1 dimensions' strides included (which PyTorch's order looks at)."""
    if not a.flags.c_contiguous:
        return False
    expected = a.itemsize
    for n, stride in zip(a.shape[::-1], a.strides[::-1]):
        if stride != expected:
            return False
        expected *= n
    return True


def in_iterator_layout(result: np.ndarray, *operands) -> np.ndarray:
    """``result`` (NumPy's) laid out as PyTorch lays out an elementwise op of ``operands``
    (arrays or numbers, in the op's order): itself where all operands are row-major arrays
    (or the order found is row-major), else a copy in PyTorch's order."""
    shape = result.shape
    if len(shape) < 2 or result.size == 0:
        return result
    arrays = [a for a in operands if isinstance(a, np.ndarray) and a.ndim]
    if len(arrays) == len(operands) and all(a.shape == shape and a.flags.c_contiguous
                                            for a in arrays):
        return result  # (PyTorch's fast path: all contiguous, of one shape)
    if all(a.flags.c_contiguous and (1 not in a.shape or _row_major(a)) for a in arrays):
        return result  # (numbers or broadcasting among row-major arrays: the row-major order)
    strides = [a.strides if a.shape == shape else  # (0 where broadcast; NumPy's broadcast
               np.broadcast_to(a, shape).strides for a in arrays]  # zeroes size 1's too)
    perm = _order(shape, strides)
    if perm == list(range(len(shape)))[::-1]:
        return result
    out = np.empty([shape[d] for d in perm[::-1]], result.dtype).transpose(
        np.argsort(perm[::-1]))
    if out.strides == result.strides:
        return result
    out[...] = result
    return out
