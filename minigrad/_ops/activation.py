"""Activation functions: relu, sigmoid, tanh, softmax and log_softmax.

Each saves its *result*, which is all its derivative needs (``sigmoid' = z (1 - z)``).

>>> import minigrad as torch
>>> x = torch.tensor([-1., 2.], requires_grad=True)
>>> x.relu().sum().backward()
>>> x.grad
tensor([0., 1.])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd.graph import Node, should_record
from . import _formula as F
from ._core import method, value
from ._formula import data
from .movement import u64
from .unary import floats, record_result

__all__ = ["relu", "relu_", "sigmoid", "tanh", "softmax", "log_softmax"]


class ReluBackward0(Node):
    """z = max(self, 0):  dz/dself = 1 where z > 0, else 0."""

    saved = ("result",)

    def backward(self, g):
        return (g * (data(value(self._s_result)) > 0),)


@method("relu")
def relu(input) -> Tensor:
    """``max(input, 0)`` elementwise (keeps integer dtypes)."""
    d = input._data
    if d.dtype.kind == "b":
        raise RuntimeError("Boolean inputs not supported for relu")
    d = np.maximum(d, d.dtype.type(0))
    out = Tensor._wrap(d)
    if should_record(input):
        record_result(ReluBackward0(), out, input)
    return out


def relu_(input):
    """``relu`` in place: ``input`` becomes the output (``Tensor.relu_``, from inplace.py)."""
    return input.relu_()


class SigmoidBackward0(Node):
    """z = 1 / (1 + exp(-self)):  dz/dself = z (1 - z)."""

    saved = ("result",)

    def backward(self, g):
        z = value(self._s_result)
        return (g * (z * (1 - z)),)


@method("sigmoid")
def sigmoid(input) -> Tensor:
    """The logistic function ``1 / (1 + exp(-input))``, elementwise."""
    d = floats(input, "sigmoid")
    half = d.dtype.type(0.5)
    d = np.tanh(d * half)  # sigmoid(x) = (tanh(x/2) + 1) / 2, which cannot overflow
    d *= half
    d += half
    out = Tensor._wrap(d)
    if should_record(input):
        record_result(SigmoidBackward0(), out, input)
    return out


class TanhBackward0(Node):
    """z = tanh(self):  dz/dself = 1 - z**2."""

    saved = ("result",)

    def backward(self, g):
        z = value(self._s_result)
        return (g * (1 - z * z),)


@method("tanh")
def tanh(input) -> Tensor:
    """Hyperbolic tangent, elementwise."""
    d = np.tanh(floats(input, "tanh"))
    out = Tensor._wrap(d)
    if should_record(input):
        record_result(TanhBackward0(), out, input)
    return out


# ---------------------------------------------------------------- softmax
def _max_keep(d, axis):
    """``d.max(axis, keepdims=True)``, the shift that keeps ``exp`` from overflowing.

    For speed: NumPy reduces each row of a C matrix along a short last axis in a call of its
    own, so for many short rows (a batch of class scores) it is about twice as fast to reduce a
    transposed copy down its columns, in a few long runs.
    """
    if d.ndim == 2 and axis == 1 and d.shape[1] <= 32 <= d.shape[0] and d.flags.c_contiguous:
        return np.maximum.reduce(np.ascontiguousarray(d.T), 0)[:, None]
    return np.maximum.reduce(d, axis, keepdims=True)


def _softmax_input(input, dim, dtype, name):
    """(input, data, axis) for softmax-like ops: checks dim and dtype as PyTorch does."""
    if dim is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if dtype is not None:
        input = input.to(dtype)
    axis = input._wrap_dim(dim)
    d = input._data
    if d.dtype.kind != "f" and d.size:  # (PyTorch returns an empty tensor as it is)
        last = "lastdim_" if axis == d.ndim - 1 or d.ndim == 0 else ""
        raise NotImplementedError(f"\"{name}_{last}kernel_impl\" not implemented for "
                                  f"'{input.dtype._legacy_name[:-6]}'")
    return input, d, axis


class SoftmaxBackward0(Node):
    """z = softmax(self, dim):  dself = z * (g - sum(g * z, dim))."""

    saved = ("dim", "result")

    def backward(self, g):
        z = value(self._s_result)
        gz = g * z
        return (gz - z * F.sum_keepdim(gz, self._axis),)


@method("softmax")
def softmax(input, dim=None, dtype=None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)``, computed stably (the max is subtracted first)."""
    input, d, axis = _softmax_input(input, dim, dtype, "softmax")
    if d.ndim == 0 or d.size == 0:
        e = np.exp(d - d) if d.size else d.copy()
    else:
        e = d - _max_keep(d, axis)
        np.exp(e, out=e)
        e /= np.add.reduce(e, axis, keepdims=True)
    out = Tensor._wrap(e)
    if should_record(input):
        node = SoftmaxBackward0()
        node._s_dim, node._axis = u64(dim), axis
        record_result(node, out, input)
    return out


class LogSoftmaxBackward0(Node):
    """z = log_softmax(self, dim):  dself = g - exp(z) * sum(g, dim)."""

    saved = ("dim", "result")

    def backward(self, g):
        z = value(self._s_result)
        ez = F.exp(z)
        return (g - ez * F.sum_keepdim(g, self._axis),)


@method("log_softmax")
def log_softmax(input, dim=None, dtype=None) -> Tensor:
    """``x - log(exp(x).sum(dim))``, computed stably."""
    input, d, axis = _softmax_input(input, dim, dtype, "log_softmax")
    if d.ndim == 0 or d.size == 0:
        z = d - d if d.size else d.copy()
    else:
        z = d - _max_keep(d, axis)
        z -= np.log(np.add.reduce(np.exp(z), axis, keepdims=True))
    out = Tensor._wrap(z)
    if should_record(input):
        node = LogSoftmaxBackward0()
        node._s_dim, node._axis = u64(dim), axis
        record_result(node, out, input)
    return out
