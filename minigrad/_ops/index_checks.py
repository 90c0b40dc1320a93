"""The checks of tensor indices, in PyTorch's order (``numpy_index``: dtypes, masks,
broadcasting, dimensions of size 0; ``check_bounds``: the values, last), and their NumPy form.

>>> import minigrad as torch
>>> torch.ones(2, 3)[:, torch.tensor([0, 7])]   # named by its place among the index tensors
Traceback (most recent call last):
IndexError: index 7 is out of bounds for dimension 0 with size 3
"""

from __future__ import annotations

import warnings

import numpy as np

from .._layout import iteration_order
from .._types import element_strides

__all__ = ["numpy_index", "check_bounds", "mask_fits", "written_before_bad_index"]

_INDEX_DTYPES = (np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.uint8), np.dtype(np.bool_))


def _out_of_range(dim: int, ndim: int) -> IndexError:
    return IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                      f"{ndim - 1}], but got {dim})")


def _mask(a: np.ndarray, shape: tuple, dim: int) -> np.ndarray:
    """A boolean (or uint8) mask checked against the dimensions of ``shape`` it covers."""
    if a.dtype.kind == "u":
        warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use "
                      "a dtype torch.bool instead.", UserWarning, stacklevel=5)
        a = a.astype(bool)
    mask_fits(a.shape, shape, dim)
    return a


def mask_fits(mask: tuple, shape: tuple, dim: int) -> None:
    """A mask of shape ``mask`` must match the dimensions of ``shape`` from ``dim`` on."""
    for k, n in enumerate(mask):
        if dim + k >= len(shape):
            raise _out_of_range(dim + k, len(shape))
        if shape[dim + k] != n:
            raise IndexError(
                f"The shape of the mask [{', '.join(map(str, mask))}] at index {k} "
                f"does not match the shape of the indexed tensor "
                f"[{', '.join(map(str, shape))}] at index {dim + k}")


def numpy_index(x, indices) -> tuple:
    """The NumPy index for PyTorch's tensor-index list ``indices`` on tensor ``x``, checked in
    PyTorch's order up to the bounds of the values (``check_bounds``, which comes later in
    index_put): masks fit, the index shapes broadcast, no index into a dimension of size 0."""
    for t in indices:
        if t is not None and t._data.dtype not in _INDEX_DTYPES:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    shape, out, dim, sizes, indexed, beyond = x._data.shape, [], 0, [], [], None
    for t in indices:
        if t is None:
            out.append(slice(None))
            dim += 1
            continue
        a = t._data
        if a.dtype.kind in "bu":
            a = _mask(a, shape, dim)
            if not a.ndim:  # (a 0-d mask given to index_put: PyTorch drops it)
                continue
            sizes += [[int(a.sum())]] * a.ndim
            indexed += shape[dim:dim + a.ndim]
            dim += a.ndim
        else:
            if dim >= len(shape) and beyond is None:  # (raised after the broadcast check)
                beyond = _out_of_range(dim, len(shape))
            sizes.append(list(a.shape))
            indexed.append(shape[dim] if dim < len(shape) else 1)
            dim += 1
        out.append(a)
    try:
        replaced = (tuple(sizes[0]) if len(sizes) == 1
                    else np.broadcast_shapes(*(tuple(s) for s in sizes)))
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with "
                         f"shapes {', '.join(str(s) for s in sizes)}") from None
    if beyond is not None:
        raise beyond
    if 0 in indexed and 0 not in replaced:
        raise IndexError("index is out of bounds for dimension with size 0")
    return tuple(out)


def check_bounds(shape: tuple, where: tuple) -> tuple:
    """``where`` if every index value is in bounds, else PyTorch's IndexError (see
    ``_out_of_bounds``)."""
    dim, ok, found = 0, True, []
    for a in where:
        if type(a) is slice:
            dim += 1
        elif a.dtype.kind == "b":
            found += [(None, a, 0)] * a.ndim  # (the mask: counted only on the error path)
            dim += a.ndim
        else:
            n = shape[dim]
            if a.size and not (-n <= a.min() and a.max() < n):
                ok = False
            found.append((a, a.shape, n))
            dim += 1
    if ok:
        return where
    found = [(None, (int(s.sum()),), 0) if a is None else (a, s, n) for a, s, n in found]
    return _out_of_bounds(shape, where, found)


def _kept_sizes(shape: tuple, where: tuple) -> list:
    """The sizes of the dimensions ``where`` leaves alone."""
    dim, kept = 0, []
    for a in where:
        if type(a) is slice:
            kept.append(shape[dim])
        dim += a.ndim if type(a) is not slice and a.dtype.kind == "b" else 1
    return kept + list(shape[dim:])


def _out_of_bounds(shape: tuple, where: tuple, found: list) -> tuple:
    """PyTorch's kernel stops at the first element (row-major) with a bad value, at its first
    bad index, and names the index by its place among the index tensors (a mask counting once
    per dimension). It reads nothing when the result is empty: then no value is an error (the
    NumPy index returned has them replaced by 0)."""
    full = np.broadcast_shapes(*(s for _, s, _ in found))
    bad = [None if a is None else np.broadcast_to((a < -n) | (a >= n), full)
           for a, _, n in found]
    if 0 not in full and 0 not in _kept_sizes(shape, where):
        # (TensorIterator's order, by the index tensors' strides: a transposed one's memory order)
        strides = [element_strides(np.broadcast_to(a, full)) for a, _, _ in found if a is not None]
        order = tuple(iteration_order(full, strides))[::-1]
        first = np.flatnonzero(np.logical_or.reduce(
            [b.transpose(order) for b in bad if b is not None]).ravel())[0]
        for j, ((a, _, n), b) in enumerate(zip(found, bad)):
            if b is not None and b.transpose(order).flat[first]:
                raise IndexError(f"index {np.broadcast_to(a, full).transpose(order).flat[first]} "
                                 f"is out of bounds for dimension {j} with size {n}")
    if 0 in full:  # (then NumPy reads no value either)
        return tuple(a if type(a) is slice or a.dtype.kind == "b" else np.zeros(full, a.dtype)
                     for a in where)
    it = iter(f for f in found if f[0] is not None)
    return tuple(a if type(a) is slice or a.dtype.kind == "b" else
                 np.where((a < -(n := next(it)[2])) | (a >= n), 0, a) for a in where)



def written_before_bad_index(data: np.ndarray, where: tuple, values: np.ndarray) -> tuple:
    """What PyTorch's index_put kernel writes before a value out of bounds stops it:
    ``(at, values)``, the NumPy index of those elements of ``data`` and their values. It goes
    through the indexed result in TensorIterator's order (by the strides of ``data``, then of
    the values and of the index tensors) and stops at the first bad index."""
    shape, strides = data.shape, element_strides(data)
    dim, safe, bad, sizes, advanced, kept = 0, [], np.zeros((), bool), [], [], []
    for i, a in enumerate(where):
        if type(a) is slice:
            kept.append(dim)
            dim += 1
        elif a.dtype.kind == "b":
            advanced.append(i)
            sizes.append((int(a.sum()),))
            dim += a.ndim
        else:
            advanced.append(i)
            wrong = (a < -shape[dim]) | (a >= shape[dim])
            a, bad, dim = np.where(wrong, 0, a), bad | wrong, dim + 1
            sizes.append(a.shape)
        safe.append(a)
    kept += range(dim, len(shape))
    full = np.broadcast_shapes(*sizes)
    together = advanced == list(range(advanced[0], advanced[-1] + 1))
    before = advanced[0] if together else 0  # (NumPy's rule, PyTorch's too)
    around = lambda inner, outer: outer[:before] + inner + outer[before:]  # noqa: E731
    at = np.arange(data.size).reshape(shape)[tuple(safe)]
    operands = [around((0,) * len(full), tuple(strides[d] for d in kept)),
                element_strides(np.broadcast_to(values, at.shape))]
    operands += [around(element_strides(np.broadcast_to(a, full)), (0,) * len(kept))
                 for a in safe if type(a) is not slice and a.dtype.kind != "b"]
    order = iteration_order(at.shape, operands)[::-1]  # (slowest first)
    bad = np.broadcast_to(bad, full).reshape(around(full, (1,) * len(kept)))
    n = int(np.argmax(np.broadcast_to(bad, at.shape).transpose(order)))
    values = np.broadcast_to(values, at.shape).transpose(order).reshape(-1)[:n]
    return np.unravel_index(at.transpose(order).reshape(-1)[:n], shape), values
