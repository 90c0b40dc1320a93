"""Largest and smallest elements: max/min (over all, or along a dim with indices), amax/amin,
argmax/argmin, and the elementwise maximum/minimum of two tensors.

Where several elements tie for the largest, ``max()`` and ``amax`` share the gradient evenly
between them, while ``max(dim)`` gives it all to the element at the returned index.

>>> import minigrad as torch
>>> x = torch.tensor([[1., 5.], [7., 2.]], requires_grad=True)
>>> values, indices = x.max(dim=1)
>>> values, indices
(tensor([5., 7.], grad_fn=<MaxBackward0>), tensor([1, 0]))
"""

from __future__ import annotations

import numpy as np

from .._layout import row_major
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._backward import where
from ._core import method, value
from ._formula import data
from .arithmetic import elementwise
from .errors import empty_reduction
from .movement import u64
from .reduce import _axes, _keep_shape
from .select_order import last_extreme

__all__ = ["max", "min", "amax", "amin", "argmax", "argmin", "maximum", "minimum",
           "return_types"]


# ---------------------------------------------------------------- max / min
class _ValuesIndices(tuple):
    """A ``(values, indices)`` pair, like ``torch.return_types.max``."""

    __slots__ = ()
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0

    def __new__(cls, seq):
        return tuple.__new__(cls, seq)

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self) -> str:
        return (f"torch.return_types.{type(self).__name__}(\nvalues={self[0]!r},\n"
                f"indices={self[1]!r})")


def _return_type(name):
    return type(name, (_ValuesIndices,), {"__slots__": (), "__module__": "minigrad.return_types",
                                          "__qualname__": name})


class return_types:  # noqa: N801 - PyTorch's name
    """The named tuples returned by ``max(dim)`` and ``min(dim)``."""

    max = _return_type("max")
    min = _return_type("min")


def _evenly(g, x, r):
    """Gradient of a full max/min: shared evenly by all elements equal to the result.

    PyTorch's ``evenly_distribute_backward`` (on the CPU): zeros with ``grad / count`` filled
    in where the mask holds, so an infinite or NaN ``grad`` leaves the other elements 0."""
    xd, rd = data(x), data(r)
    mask = xd == rd
    if not mask.any():  # the result is nan: it came from the nan elements
        mask = np.isnan(xd)
    out = where(mask, g / int(mask.sum()), 0)  # (PyTorch: into new_zeros, row-major)
    return out if isinstance(out, Tensor) else row_major(out)


class MaxBackward1(Node):
    """z = self.max():  the gradient is shared evenly by the elements equal to z."""

    rule = _r("z = a.max()", {"a": "self", "z": "result"},
              a="where(a == z, grad / total(a == z), 0)")

    saved = ("result", "self")

    def backward(self, g):
        return (_evenly(g, value(self._s_self), value(self._s_result)),)


class MinBackward1(MaxBackward1):
    """z = self.min():  the gradient is shared evenly by the elements equal to z."""

    rule = _r("z = a.min()", {"a": "self", "z": "result"},
              a="where(a == z, grad / total(a == z), 0)")


class MaxBackward0(Node):
    """(z, i) = self.max(dim):  the gradient goes to the element at index i (one per slice)."""

    rule = _r("(z, i) = a.max(dim)", words=True,
              a="zeros like a, with grad put at index i along dim")

    saved = ("dim", "indices", "keepdim", "self_sym_sizes")

    def backward(self, g):
        shape, axis = self._s_self_sym_sizes, self._axis
        idx = data(value(self._s_indices))
        if not shape:
            return (g,)
        if not self._s_keepdim:
            keep = _keep_shape(shape, (axis,))
            g, idx = g.reshape(keep), idx.reshape(keep)
        pos_shape = [1] * len(shape)
        pos_shape[axis] = shape[axis]
        return (g * (np.arange(shape[axis]).reshape(pos_shape) == idx),)


class MinBackward0(MaxBackward0):
    """(z, i) = self.min(dim):  the gradient goes to the element at index i (one per slice)."""

    rule = _r("(z, i) = a.min(dim)", words=True,
              a="zeros like a, with grad put at index i along dim")


def _extreme(input, dim, keepdim, name, pick, full_node, dim_node, rtype):
    d = input._data
    if dim is None:
        if d.size == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        out = last_extreme(d, name == "max")  # (nan wins, as in PyTorch)
        t = Tensor._wrap(out)
        if should_record(input):
            node = full_node()
            node._s_self = SavedTensor(input)
            record(node, t, input)
            node._s_result = SavedTensor(t, node)
        return t
    if isinstance(dim, Tensor):
        return (maximum if name == "max" else minimum)(input, dim)
    axis = input._wrap_dim(dim)
    idx, values = _arg_values(d, axis, keepdim, name, pick)
    indices, out = Tensor._wrap(row_major(idx)), Tensor._wrap(row_major(values))
    if should_record(input):
        node = dim_node()
        node._s_dim, node._axis, node._s_keepdim = u64(dim), axis, keepdim
        node._s_indices, node._s_self_sym_sizes = SavedTensor(indices), d.shape
        record(node, out, input)
    return rtype((out, indices))


def _arg_values(d, axis, keepdim, name, pick):
    """Indices (int64) and values of the max/min along ``axis`` (a nan wins, as in PyTorch)."""
    if d.ndim == 0:
        return np.zeros((), np.int64), d.copy()
    if d.shape[axis] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
    idx = np.expand_dims(pick(d, axis=axis), axis) if d.size else \
        np.zeros(_keep_shape(d.shape, (axis,)), np.int64)
    values = np.take_along_axis(d, idx, axis)
    if not keepdim:
        idx, values = idx.squeeze(axis), values.squeeze(axis)
    return idx.astype(np.int64, copy=False), values


@method("max")
def max(input, dim=None, keepdim: bool = False):  # noqa: A001
    """Largest element; with ``dim``, (values, indices) along it; with a tensor, maximum."""
    return _extreme(input, dim, keepdim, "max", np.argmax, MaxBackward1, MaxBackward0,
                    return_types.max)


@method("min")
def min(input, dim=None, keepdim: bool = False):  # noqa: A001
    """Smallest element; with ``dim``, (values, indices) along it; with a tensor, minimum."""
    return _extreme(input, dim, keepdim, "min", np.argmin, MinBackward1, MinBackward0,
                    return_types.min)


# ---------------------------------------------------------------- amax / amin
class AmaxBackward0(Node):
    """z = self.amax(dim):  the gradient is shared evenly by the elements equal to z."""

    rule = _r("z = a.amax(dim)", words=True,
              a="grad shared evenly by the elements of a equal to z")

    saved = ("dim", "keepdim", "result", "self")

    def backward(self, g):
        x, r = data(value(self._s_self)), value(self._s_result)
        keep = _keep_shape(x.shape, self._axes)
        if not self._s_keepdim:
            g = g.reshape(keep)
        mask = x == data(r).reshape(keep)
        return (g * (mask / mask.sum(self._axes, keepdims=True)).astype(x.dtype),)


class AminBackward0(AmaxBackward0):
    """z = self.amin(dim):  the gradient is shared evenly by the elements equal to z."""

    rule = _r("z = a.amin(dim)", words=True,
              a="grad shared evenly by the elements of a equal to z")


def _aextreme(input, dim, keepdim, name, fn, node_cls):
    d = input._data
    shown, axes = _axes(input, dim)
    shown = () if shown is None else shown
    if d.size == 0 and axes is None:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                           "input.numel() == 0. Specify the reduction dim with the 'dim' "
                           "argument.")
    try:
        t = Tensor._wrap(row_major(np.asarray(fn(d, axis=axes, keepdims=keepdim))))
    except ValueError:  # NumPy: a zero-size dimension has no identity
        dims = dim if isinstance(dim, (tuple, list)) else (dim,)
        raise empty_reduction(name, next(i for i in dims if not d.shape[i])) from None
    if should_record(input):
        node = node_cls()
        node._s_dim, node._axes, node._s_keepdim = shown, axes, keepdim
        node._s_self = SavedTensor(input)
        record(node, t, input)
        node._s_result = SavedTensor(t, node)
    return t


@method("amax")
def amax(input, dim=(), keepdim: bool = False):
    """Largest elements over ``dim`` (all dims by default); ties share the gradient."""
    return _aextreme(input, dim, keepdim, "amax", np.max, AmaxBackward0)


@method("amin")
def amin(input, dim=(), keepdim: bool = False):
    """Smallest elements over ``dim`` (all dims by default); ties share the gradient."""
    return _aextreme(input, dim, keepdim, "amin", np.min, AminBackward0)


# ---------------------------------------------------------------- argmax / argmin
def _arg(input, dim, keepdim, name, pick):
    d = input._data
    if d.dtype.kind == "b":
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if d.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        idx = np.asarray(pick(d), dtype=np.int64)
        return Tensor._wrap(idx.reshape((1,) * d.ndim) if keepdim else idx)
    return Tensor._wrap(row_major(_arg_values(d, input._wrap_dim(dim), keepdim, name, pick)[0]))


@method("argmax")
def argmax(input, dim=None, keepdim: bool = False):
    """Index of the largest element (of the flattened tensor, or along ``dim``); int64."""
    return _arg(input, dim, keepdim, "argmax", np.argmax)


@method("argmin")
def argmin(input, dim=None, keepdim: bool = False):
    """Index of the smallest element (of the flattened tensor, or along ``dim``); int64."""
    return _arg(input, dim, keepdim, "argmin", np.argmin)


# ---------------------------------------------------------------- maximum / minimum
class MaximumBackward0(Node):
    """z = maximum(self, other):  the larger one gets the gradient; a tie splits it in halves."""

    rule = _r("z = maximum(a, b)", {"a": "self", "b": "other"},
              a="grad * ((a > b) + (a == b) / 2)", b="grad * ((b > a) + (a == b) / 2)")

    saved = ("other", "self")

    def backward(self, g):
        y, x = data(value(self._s_other)), data(value(self._s_self))  # (PyTorch's order)
        to_self = np.where(x == y, 0.5, (x >= y) | (x != x) | (y != y)).astype(data(g).dtype)
        to_other = np.where(x == y, 0.5, (y >= x) | (x != x) | (y != y)).astype(data(g).dtype)
        return _sides(self, g, to_self, to_other)


class MinimumBackward0(Node):
    """z = minimum(self, other):  the smaller one gets the gradient; a tie splits it in halves."""

    rule = _r("z = minimum(a, b)", {"a": "self", "b": "other"},
              a="grad * ((a < b) + (a == b) / 2)", b="grad * ((b < a) + (a == b) / 2)")

    saved = ("other", "self")

    def backward(self, g):
        y, x = data(value(self._s_other)), data(value(self._s_self))  # (PyTorch's order)
        to_self = np.where(x == y, 0.5, (x <= y) | (x != x) | (y != y)).astype(data(g).dtype)
        to_other = np.where(x == y, 0.5, (y <= x) | (x != x) | (y != y)).astype(data(g).dtype)
        return _sides(self, g, to_self, to_other)


def _sides(node, g, to_self, to_other):
    """The two gradients, None for an input that needs none (a nan sends it to both). Where
    an input gets nothing its gradient is 0 even where grad is nan or inf: PyTorch fills
    (masked_fill_), it does not multiply by 0."""
    return (_share(g, to_self) if node.next_functions[0][0] is not None else None,
            _share(g, to_other) if node.next_functions[1][0] is not None else None)


def _share(g, part):
    if isinstance(g, np.ndarray):
        return np.where(part == 0, np.zeros((), g.dtype), g * part)
    return g * part  # (create_graph: recorded as a product; nan or inf grads then stay)


def _elementwise(input, other, fn, node_cls, name):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    out = elementwise(fn, input, other)
    if out._data.dtype.kind == "f":  # (PyTorch's NaN is positive whatever the operands' sign)
        np.abs(out._data, out=out._data, where=np.isnan(out._data))
    if should_record(input, other):
        node = node_cls()
        node._s_self, node._s_other = SavedTensor(input), SavedTensor(other)
        record(node, out, input, other, broadcast=True)
    return out


@method("maximum")
def maximum(input, other):
    """The larger of two tensors, elementwise (nan if either is nan), broadcasting."""
    return _elementwise(input, other, np.maximum, MaximumBackward0, "maximum")


@method("minimum")
def minimum(input, other):
    """The smaller of two tensors, elementwise (nan if either is nan), broadcasting."""
    return _elementwise(input, other, np.minimum, MinimumBackward0, "minimum")
