"""The memory layout PyTorch gives a new result: of an elementwise op (its TensorIterator), of a
reduction (row-major), of a copy (``empty_like``'s preserved layout), of pooling (the input's
``suggest_memory_format()``). The operands' strides are PyTorch's, size-1 dimensions included:
views keep them (``_view_strides``).

NumPy lays a ufunc's result out as its inputs are only where they agree (C order otherwise),
and gives size-1 dimensions its own strides. PyTorch's TensorIterator:

- operands all of the result's shape (no Python number among them): a row-major result if all
  are contiguous, channels-last if all are (4-D), the operands' own strides if all are dense
  and alike;
- otherwise it sorts the dimensions by the operands' strides (the first operand deciding where
  they disagree, broadcast dimensions skipped, equal strides putting the smaller size first) and
  lays the result out densely in that order (row-major where that order is row-major).

So ``x.t() == y`` (``y`` contiguous) is laid out as ``x.t()`` in PyTorch, and ``y == x.t()`` as
``y``. The common case (contiguous operands of one shape) costs one check per operand.
"""

from __future__ import annotations

import numpy as np

from ._types import element_strides, row_major_strides

__all__ = ["in_iterator_layout", "in_binary_layout", "row_major", "like_input", "gather_layout",
           "as_given", "iteration_order", "suggests_channels_last", "in_memory_format_of"]

_ndarray = np.ndarray  # (a global: cheaper than np.ndarray in the common cases, see _tensor.py)


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


def iteration_order(shape: tuple, operands: list) -> list:
    """The dimensions of ``shape`` from the fastest to the slowest, as TensorIterator goes
    through them for operands of these strides (in elements; 0 where broadcast)."""
    return _order(shape, operands)


_strides = element_strides  # (``a``'s strides in elements, as PyTorch shows them)


def _dense(shape: tuple, strides: tuple) -> bool:
    """PyTorch's ``is_non_overlapping_and_dense`` (an empty tensor is)."""
    if 0 in shape:
        return True
    dims = sorted((d for d in range(len(shape)) if shape[d] >= 2), key=lambda d: strides[d])
    expected = 1
    for d in dims:
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def _channels_last(shape: tuple, strides: tuple) -> bool:
    """PyTorch's ``is_contiguous(memory_format=torch.channels_last)`` of a 4-D tensor."""
    expected = 1
    for d in (1, 3, 2, 0):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _channels_last_strides(shape: tuple) -> tuple:
    n, c, h, w = (max(s, 1) for s in shape)
    return (h * w * c, 1, w * c, c)


def suggests_channels_last(a: np.ndarray) -> bool:
    """PyTorch's ``a.suggest_memory_format() == torch.channels_last`` (its
    ``is_channels_last_strides_2d_s4``): a 4-D array whose strides, read in the order C, W, H,
    N, never go down. Where size-1 dimensions make that ambiguous (strides of N equal to C's,
    a channel stride of 0), row-major wins."""
    if a.ndim != 4:
        return False
    shape, strides = a.shape, _strides(a)
    if strides[1] == 0:
        return False
    low = 0
    for d in (1, 3, 2, 0):
        if shape[d] == 0 or strides[d] < low or d == 0 and low == strides[1]:
            return False
        low = strides[d] * shape[d] if shape[d] > 1 else strides[d]
    return True


def in_memory_format_of(result: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``result`` (4-D or 3-D) laid out in ``a.suggest_memory_format()``, as PyTorch's pooling
    kernels allocate their outputs and the gradients of their inputs: channels-last where
    ``a`` suggests it, else row-major (size-1 dimensions' strides included)."""
    if result.ndim == 4 and suggests_channels_last(a):
        return _laid_out(result, _channels_last_strides(result.shape))
    return row_major(result)


def _laid_out(result: np.ndarray, strides: tuple) -> np.ndarray:
    """``result``'s values in new memory with ``strides`` (in elements), or ``result`` itself
    if it has them."""
    if _strides(result) == strides:
        return result
    item = result.itemsize
    span = 1 + sum((n - 1) * s for n, s in zip(result.shape, strides)) if result.size else 0
    out = np.ndarray(result.shape, result.dtype, buffer=np.empty(span, result.dtype),
                     strides=tuple(s * item for s in strides))
    out[...] = result
    return out


def row_major(result: np.ndarray) -> np.ndarray:
    """``result`` row-major, as PyTorch allocates a reduction's result (its size-1 dimensions
    included)."""
    if result.ndim < 2 or result.flags.c_contiguous and 1 not in result.shape and (
            result.size or not any(result.strides)):  # (a new array of one dimension: itself)
        return result
    return _laid_out(result, row_major_strides(result.shape))


def like_input(result: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``result`` (of ``a``'s shape) laid out as ``empty_like(a)`` (``preserve_format``): ``a``'s
    strides where ``a`` is dense, else in the order of ``a``'s strides (expanded memory:
    row-major)."""
    if a.flags.c_contiguous and result.flags.c_contiguous and a.size and (
            1 not in a.shape or not a.ndim):  # (a size-1 dim may have any stride, 0 too)
        return result
    shape, strides = a.shape, _strides(a)
    if _dense(shape, strides):
        return _laid_out(result, strides)
    return in_iterator_layout(result, a)


def _iterator_strides(shape: tuple, operands) -> tuple:
    arrays = [a for a in operands if isinstance(a, np.ndarray)]
    if len(arrays) == len(operands) and all(a.shape == shape for a in arrays):
        if all(a.flags.c_contiguous for a in arrays):
            return row_major_strides(shape)
        given = [_strides(a) for a in arrays]
        if len(shape) == 4 and all(_channels_last(shape, s) for s in given):
            return _channels_last_strides(shape)
        if all(s == given[0] for s in given) and _dense(shape, given[0]):
            return given[0]
    ndim = len(shape)
    strides = []
    for a in arrays:
        own = _strides(a)
        lead = ndim - a.ndim
        strides.append((0,) * lead + tuple(
            0 if n == 1 and shape[lead + i] != 1 else s
            for i, (n, s) in enumerate(zip(a.shape, own))))
    perm = _order(shape, strides)
    if perm == list(range(ndim))[::-1]:
        return row_major_strides(shape)
    out, step = [0] * ndim, 1
    for d in perm:
        out[d] = step
        step *= shape[d]
    return tuple(out)


def in_iterator_layout(result: np.ndarray, *operands) -> np.ndarray:
    """``result`` (NumPy's) laid out as PyTorch lays out an elementwise op of ``operands``
    (arrays, or numbers PyTorch wraps as 0-d operands, in the op's order): itself in the common
    case (row-major, non-empty, no size-1 dimension, contiguous operands: one check each),
    else in PyTorch's layout (a copy where NumPy's differs)."""
    shape = result.shape
    if 0 not in shape and result.flags.c_contiguous:  # (NumPy's row-major result, not empty)
        if len(shape) < 2:  # (one dimension: PyTorch's result is contiguous too)
            return result
        if 1 not in shape:  # (the common case: contiguous operands, broadcast or not, numbers)
            for a in operands:
                if type(a) is _ndarray and not a.flags.c_contiguous:
                    break
            else:
                return result
        else:  # (size-1 dimensions: contiguous operands of the result's shape)
            for a in operands:
                if type(a) is not _ndarray or a.shape != shape or not a.flags.c_contiguous:
                    break
            else:
                return result
    for a in operands:
        if type(a) is np.ndarray and (not a.flags.c_contiguous or not a.size or (
                1 in a.shape and not _strictly_row_major(a))):
            break
    else:  # (row-major operands, broadcast or not: a row-major result)
        return row_major(result)
    if not result.ndim:
        return result
    return _laid_out(result, _iterator_strides(result.shape, operands))


def in_binary_layout(result: np.ndarray, input, a, other, b) -> np.ndarray:
    """:func:`in_iterator_layout` of a binary op of ``input`` and ``other`` (tensors or numbers)
    computed as ``a`` and ``b``: the operands as given (:func:`as_given`), the common case
    (no dimension of size 0 or 1, contiguous arrays) first, with one check per array."""
    a, b = getattr(input, "_data", a), getattr(other, "_data", b)
    shape = result.shape
    if 1 not in shape and 0 not in shape and result.flags.c_contiguous and (
            type(a) is not _ndarray or a.flags.c_contiguous) and (
            type(b) is not _ndarray or b.flags.c_contiguous):
        return result
    return in_iterator_layout(result, a, b)


def as_given(x, cast):
    """The operand as the op was given it: a tensor's own array (its copy cast to the result's
    dtype is laid out by NumPy, not as PyTorch's iterator sees the operand), or ``cast``."""
    return getattr(x, "_data", cast)


def _strictly_row_major(a: np.ndarray) -> bool:
    """Row-major, size-1 dimensions' strides included (which PyTorch's order looks at)."""
    return _strides(a) == row_major_strides(a.shape)


def _dummy(shape: tuple, strides: tuple) -> np.ndarray:
    """An array of ``shape`` and ``strides`` (in elements) whose values are never read: an
    operand of PyTorch's iterator that only lends its strides."""
    return np.lib.stride_tricks.as_strided(np.empty(1), shape, tuple(8 * s for s in strides))


def gather_layout(result: np.ndarray, src: np.ndarray, indices: list) -> np.ndarray:
    """``result`` of ``src[indices]`` (integer index arrays, None for a dimension left alone)
    laid out as PyTorch's index kernel: an iterator over ``src`` restrided to the result's shape
    (stride 0 where the indices go) and the indices viewed with size-1 dimensions around them."""
    pos = [k for k, a in enumerate(indices) if a is not None]
    shape, strides = src.shape, _strides(src)
    if pos != list(range(pos[0], pos[-1] + 1)):  # (apart: PyTorch moves them to the front)
        order = pos + [k for k in range(len(shape)) if k not in pos]
        shape, strides = tuple(shape[k] for k in order), tuple(strides[k] for k in order)
        pos = list(range(len(pos)))
    before, after = pos[0], len(shape) - pos[-1] - 1
    replaced = result.shape[before:result.ndim - after]
    operands = [_dummy(result.shape, strides[:before] + (0,) * len(replaced) +
                       strides[pos[-1] + 1:])]
    for k in pos:
        a = np.broadcast_to(indices[k], replaced)  # (0 where broadcast, as expand)
        own = _strides(a)
        base = own[-1] if own else 1  # (the view's size-1 dimensions, as PyTorch's view)
        outer = (own[0] * replaced[0]) if own else 1
        operands.append(_dummy((1,) * before + replaced + (1,) * after,
                               (outer,) * before + own + (base,) * after))
    return _laid_out(result, _iterator_strides(result.shape, operands))
