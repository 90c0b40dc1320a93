"""``unique`` and ``unique_consecutive``: the distinct values (or runs of equal values), with
where each element went (``return_inverse``) and how many there were (``return_counts``).

As in PyTorch the result of a tensor that requires grad is recorded (``Unique2Backward0``,
``UniqueDimBackward0``, ``UniqueConsecutiveBackward0``) but has no derivative: backward
through it raises ``NotImplementedError``.

>>> import minigrad as torch
>>> x = torch.tensor([3., 1., 2., 3., 1.], requires_grad=True)
>>> torch.unique(x, return_counts=True)
(tensor([1., 2., 3.], grad_fn=<Unique2Backward0>), tensor([2, 1, 2]))
>>> try:
...     torch.unique(x).sum().backward()
... except NotImplementedError as e:
...     print(e)
the derivative for '_unique2' is not implemented.
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, record, should_record
from ._core import method

__all__ = ["unique", "unique_consecutive"]


class _NoDerivative(Node):
    """A node PyTorch records for an op without a derivative: backward raises."""

    op = ""

    def backward(self, g):
        raise NotImplementedError(f"the derivative for '{self.op}' is not implemented.")


class Unique2Backward0(_NoDerivative):
    """z = unique(a): no derivative."""

    rule = _r("z = unique(a)", words=True,
              a="raises: the derivative for '_unique2' is not implemented.")

    op = "_unique2"


class UniqueDimBackward0(_NoDerivative):
    """z = unique(a, dim=d): no derivative."""

    rule = _r("z = unique(a, dim=d)", words=True,
              a="raises: the derivative for 'unique_dim' is not implemented.")

    op = "unique_dim"


class UniqueConsecutiveBackward0(_NoDerivative):
    """z = unique_consecutive(a): no derivative."""

    rule = _r("z = unique_consecutive(a)", words=True,
              a="raises: the derivative for 'unique_consecutive' is not implemented.")

    op = "unique_consecutive"


def unique(input, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, dim=None):
    """The distinct values, sorted (as PyTorch does on the CPU even with ``sorted=False``)."""
    op = "_unique2" if dim is None else "unique_dim"
    _check_args(op, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts)
    _check_dim(op, dim, " (position 2)")
    d = input._data
    if dim is None:
        flat = d.reshape(-1)
        order = np.argsort(flat, kind="stable")
        keys = flat[order]
        starts = _run_starts(keys)
        node = Unique2Backward0
    else:
        moved = _slices(d, _axis(input, dim))
        order = np.lexsort(moved.T[::-1]) if moved.shape[1] else np.arange(moved.shape[0])
        keys = moved[order]
        starts = _run_starts(keys)
        node = UniqueDimBackward0
    return _finish(input, dim, order, starts, return_inverse, return_counts, node)


def unique_consecutive(input, return_inverse: bool = False, return_counts: bool = False,
                       dim=None):
    """Each run of equal consecutive values (or slices along ``dim``) once."""
    _check_args("unique_consecutive", return_inverse=return_inverse, return_counts=return_counts)
    _check_dim("unique_consecutive", dim, "")
    d = input._data
    if dim is None:
        keys = d.reshape(-1)
    else:
        keys = _slices(d, _axis(input, dim))
    order = np.arange(len(keys))
    return _finish(input, dim, order, _run_starts(keys), return_inverse, return_counts,
                   UniqueConsecutiveBackward0)


method("unique", python=True)(unique)
method("unique_consecutive", python=True)(unique_consecutive)


def _check_args(op: str, **flags) -> None:
    for name, v in flags.items():
        if type(v) is not bool:
            raise TypeError(f"{op}(): argument '{name}' must be bool, not {type(v).__name__}")


def _check_dim(op: str, dim, where: str) -> None:
    if dim is not None and not isinstance(dim, int) or type(dim) is bool:
        raise TypeError(f"{op}(): argument 'dim'{where} must be int, not {type(dim).__name__}")


def _axis(input, dim: int) -> int:
    if input._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return input._wrap_dim(dim)


def _slices(d: np.ndarray, axis: int) -> np.ndarray:
    """One row per index along ``axis``, holding that slice's values."""
    return np.moveaxis(d, axis, 0).reshape(d.shape[axis], d.size // max(d.shape[axis], 1))


def _run_starts(keys: np.ndarray) -> np.ndarray:
    """Where each run of equal entries (rows, for 2-d ``keys``) begins; NaNs never equal."""
    if len(keys) == 0:
        return np.zeros(0, dtype=np.int64)
    same = keys[1:] == keys[:-1]
    if keys.ndim == 2:
        same = same.all(axis=1)
    return np.concatenate([[0], np.flatnonzero(~same) + 1]).astype(np.int64)


def _finish(input, dim, order, starts, return_inverse, return_counts, node_class):
    """The result tensors from the sorted order and where the runs start."""
    d = input._data
    first = order[starts]
    if dim is None:
        values = d.reshape(-1)[first]
    else:
        values = np.take(d, first, axis=_axis(input, dim))
    out = Tensor._wrap(np.ascontiguousarray(values))
    if should_record(input) and d.dtype.kind in "fc":
        record(node_class(), out, input)
    results = [out]
    if return_inverse:
        run = np.cumsum(np.isin(np.arange(len(order)), starts)) - 1
        inverse = np.empty(len(order), dtype=np.int64)
        inverse[order] = run
        results.append(Tensor._wrap(inverse.reshape(d.shape if dim is None else -1)))
    if return_counts:
        results.append(Tensor._wrap(np.diff(np.append(starts, len(order))).astype(np.int64)))
    return results[0] if len(results) == 1 else tuple(results)
