"""Reductions: sum and mean (over everything, or over ``dim`` with ``keepdim``)."""

from __future__ import annotations

import numpy as np

from .._dtype import int64
from .._state import local as _mode
from ..autograd.graph import Node
from ._core import Tensor, make, method

__all__ = ["sum", "mean"]


def _dims(input, dim) -> tuple:
    """``dim`` (an int or a sequence) as a tuple of non-negative axes."""
    if isinstance(dim, int):
        dim = (dim,)
    return tuple(input._wrap_dim(d) for d in dim)


def _expand_back(g, shape, axes, keepdim):
    """The gradient of a reduction: put back the reduced axes, then broadcast to ``shape``."""
    if not keepdim and axes:
        full = list(shape)
        for a in axes:
            full[a] = 1
        g = g.reshape(tuple(full))
    if not isinstance(g, Tensor):
        return np.broadcast_to(g, shape)
    return g.expand(tuple(shape))


class SumBackward0(Node):
    """z = self.sum():  every element gets the gradient of z."""

    saved = ("self_sym_sizes",)

    def backward(self, g):
        shape = self._s_self_sym_sizes
        if not isinstance(g, Tensor):
            return (np.broadcast_to(g, shape),)
        return (g.expand(shape),)


class SumBackward1(Node):
    """z = self.sum(dim, keepdim):  each element gets the gradient of the sum it fell in."""

    saved = ("dim", "keepdim", "self_sym_sizes")

    def backward(self, g):
        return (_expand_back(g, self._s_self_sym_sizes, self._s_dim, self._s_keepdim),)


def _sum_dtype(data):
    return np.int64 if data.dtype.kind in "biu" else None


@method("sum")
def sum(input, dim=None, keepdim: bool = False, *, dtype=None):  # noqa: A001
    """Sum of all elements, or over dimension(s) ``dim``. Integers sum as int64."""
    data = input._data
    npd = dtype.np if dtype is not None else _sum_dtype(data)
    if dim is None:
        out = np.asarray(data.sum(dtype=npd))
        if _mode.grad_enabled and input._requires_grad:
            node = SumBackward0()
            node._s_self_sym_sizes = data.shape
            return make(out, node, input)
        return Tensor._wrap(out)
    axes = _dims(input, dim)
    out = np.asarray(data.sum(axis=axes, keepdims=keepdim, dtype=npd))
    if _mode.grad_enabled and input._requires_grad:
        node = SumBackward1()
        node._s_dim, node._s_keepdim, node._s_self_sym_sizes = axes, keepdim, data.shape
        return make(out, node, input)
    return Tensor._wrap(out)


class MeanBackward0(Node):
    """z = self.mean():  every element gets grad / numel."""

    saved = ("self_sym_numel", "self_sym_sizes")

    def backward(self, g):
        shape = self._s_self_sym_sizes
        g = g / self._s_self_sym_numel
        return (np.broadcast_to(g, shape) if not isinstance(g, Tensor) else g.expand(shape),)


class MeanBackward1(Node):
    """z = self.mean(dim, keepdim):  grad / (number of elements averaged)."""

    saved = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")

    def backward(self, g):
        shape = self._s_self_sym_sizes
        n = 1
        for a in self._s_dim:
            n *= shape[a]
        return (_expand_back(g / n, shape, self._s_dim, self._s_keepdim),)


@method("mean")
def mean(input, dim=None, keepdim: bool = False, *, dtype=None):
    """Mean of all elements, or over dimension(s) ``dim`` (floating tensors only)."""
    data = input._data
    if data.dtype.kind != "f" and dtype is None:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {input.dtype._legacy_name[:-6]}")
    if dim is None:
        out = np.asarray(data.mean(dtype=None if dtype is None else dtype.np))
        if _mode.grad_enabled and input._requires_grad:
            node = MeanBackward0()
            node._s_self_sym_numel, node._s_self_sym_sizes = data.size, data.shape
            return make(out, node, input)
        return Tensor._wrap(out)
    axes = _dims(input, dim)
    out = np.asarray(data.mean(axis=axes, keepdims=keepdim))
    if _mode.grad_enabled and input._requires_grad:
        node = MeanBackward1()
        node._s_dim, node._s_keepdim = axes, keepdim
        node._s_self_sym_numel, node._s_self_sym_sizes = data.size, data.shape
        return make(out, node, input)
    return Tensor._wrap(out)


_ = int64
