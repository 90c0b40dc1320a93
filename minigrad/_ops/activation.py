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

from .._layout import in_iterator_layout
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, should_record
from ._core import method
from .movement import u64
from .rounding import HALF
from .unary import float_op, nan_signs_kept, record_result

__all__ = ["relu", "relu_", "sigmoid", "tanh", "softmax", "log_softmax"]


class ReluBackward0(Node):
    """The node of ``relu(self)``."""

    rule = _r("z = relu(a) = max(a, 0)", {"z": "result"}, a="threshold_backward(grad, z, 0)",
              note="threshold_backward(grad, z, 0) = where(z <= 0, 0, grad)")

    saved = ("result",)


@method("relu", inplace=True)
def relu(input) -> Tensor:
    """``max(input, 0)`` elementwise (keeps integer dtypes)."""
    d = input._data
    if d.dtype.kind == "b":
        raise RuntimeError("Boolean inputs not supported for relu")
    zero = d.dtype.type(0)  # (-0.0 stays -0.0, as in PyTorch: NumPy's float32/64 maximum gives
    # its second operand where they are equal, its float16 one the first)
    out = np.maximum(zero, d) if d.dtype is not HALF else np.where(d < zero, zero, d)
    out = Tensor._wrap(in_iterator_layout(out, d))
    if should_record(input):
        record_result(ReluBackward0(), out, input)
    return out


def relu_(input):
    """``relu`` in place: ``input`` becomes the output (``Tensor.relu_``, from inplace.py)."""
    return input.relu_()


class SigmoidBackward0(Node):
    """The node of ``sigmoid(self)``."""

    rule = _r("z = sigmoid(a) = 1 / (1 + exp(-a))", {"z": "result"},
              a="sigmoid_backward(grad, z)", note="sigmoid_backward(grad, z) = grad * (1 - z) * z")

    saved = ("result",)


@method("sigmoid", inplace=True)
def sigmoid(input) -> Tensor:
    """The logistic function ``1 / (1 + exp(-input))``, elementwise."""
    return float_op(input, "sigmoid", _sigmoid, SigmoidBackward0, "result")


def _sigmoid(d):
    """PyTorch's kernel: ``1 / (1 + exp(-d))`` (exp overflows to inf for a very negative ``d``:
    0, quietly); tiny values stay (a tanh-based form rounds sigmoid(-20) to 0 in float32)."""
    out = np.negative(d, out=np.empty_like(d))
    np.exp(out, out=out)
    if d.dtype == np.float32 and np.isnan(d).any():  # (a NaN goes through as -d's, sign
        out = nan_signs_kept(-d, out)  # flipped, as in PyTorch's kernel)
    out += 1
    return np.reciprocal(out, out=out)


class TanhBackward0(Node):
    """The node of ``tanh(self)``."""

    rule = _r("z = tanh(a)", {"z": "result"}, a="tanh_backward(grad, z)",
              note="tanh_backward(grad, z) = grad * (1 - z**2)")

    saved = ("result",)


@method("tanh", inplace=True)
def tanh(input) -> Tensor:
    """Hyperbolic tangent, elementwise."""
    return float_op(input, "tanh", np.tanh, TanhBackward0, "result", quiet=False)


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
    """The node of ``softmax(self, dim)``."""

    rule = _r("z = softmax(a, dim)", {"z": "result", "dim": "dim"}, numbers="dim",
              a="softmax_backward_data(grad, z, dim)",
              note="softmax_backward_data(grad, z, dim) = z * (grad - sum(grad * z, dim))")

    saved = ("dim", "result")


@method("softmax")
def softmax(input, dim=None, dtype=None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)``, computed stably (the max is subtracted first)."""
    return _softmax_like(input, dim, dtype, "softmax", SoftmaxBackward0, _softmax_shifted)


def _softmax_shifted(e, axis):
    np.exp(e, out=e)
    e /= np.add.reduce(e, axis, keepdims=True)
    return e


def _softmax_like(input, dim, dtype, name, node_cls, shifted):
    """softmax or log_softmax: ``shifted(x - max(x, dim), axis)``, recorded with
    ``node_cls`` (rows holding inf give NaN, as in PyTorch, without NumPy's warning)."""
    input, d, axis = _softmax_input(input, dim, dtype, name)
    token = quiet()  # inf - inf, overflow: NaN and inf as in PyTorch, no NumPy warning
    try:
        if d.ndim == 0 or d.size == 0:
            out = (d - d if name == "log_softmax" else np.exp(d - d)) if d.size else d.copy()
        else:  # (a contiguous result whatever the input's layout, as PyTorch's)
            x = d.astype(np.float32) if d.dtype is HALF and name == "softmax" else d
            out = shifted(np.ascontiguousarray(x - _max_keep(x, axis)), axis)  # (float16
            out = out.astype(d.dtype, copy=False)  # softmax: in float32, rounded once)
    finally:
        restore(token)
    out = Tensor._wrap(out)
    if should_record(input):
        node = node_cls()
        node._s_dim = u64(dim)
        record_result(node, out, input)
    return out


class LogSoftmaxBackward0(Node):
    """The node of ``log_softmax(self, dim)``."""

    rule = _r("z = log_softmax(a, dim)", {"z": "result", "dim": "dim"}, numbers="dim",
              a="log_softmax_backward_data(grad, z, dim)",
              note="log_softmax_backward_data(grad, z, dim) = grad - exp(z) * sum(grad, dim)")

    saved = ("dim", "result")


@method("log_softmax")
def log_softmax(input, dim=None, dtype=None) -> Tensor:
    """``x - log(exp(x).sum(dim))``, computed stably."""
    return _softmax_like(input, dim, dtype, "log_softmax", LogSoftmaxBackward0,
                         _log_softmax_shifted)


def _log_softmax_shifted(z, axis):
    z -= np.log(np.add.reduce(np.exp(z), axis, keepdims=True))
    return z
