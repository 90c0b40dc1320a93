"""Division: ``div`` (true division, and with a ``rounding_mode``), ``reciprocal``, and the
``/`` operators. As in PyTorch, ``2 / x`` is computed as ``reciprocal(x) * 2``.

>>> import minigrad as torch
>>> x = torch.tensor([1., 4.], requires_grad=True)
>>> (x / 2).grad_fn.name(), torch.div(x, 2, rounding_mode="floor").grad_fn.name()
('DivBackward0', 'DivBackward2')
"""

from __future__ import annotations

import numpy as np

from .._dtype import result_type
from .._layout import as_given, in_iterator_layout
from .._quiet import quietly
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved
from . import _formula as F
from ._core import (
    FUNCTION,
    MISSING,
    OPERATOR,
    binary_operands,
    broadcast_error,
    floor_div_floats,
    method,
    value,
)
from .arguments import bad_operand
from .arithmetic import elementwise, factor, mul, save_operand
from .rounding import HALF, half_opmath, opmath_array

__all__ = ["div", "true_divide", "reciprocal", "DivBackward0", "DivBackward2",
           "ReciprocalBackward0"]


class DivBackward0(Node):
    """The node of ``self / other``."""

    rule = _r("z = a / b", {"a": "self", "b": "other"}, a="grad / b", b="-grad * ((a / b) / b)")

    saved = saved_tensors_names = ("other", "self")
    _s_self = _s_other = None


class ReciprocalBackward0(Node):
    """The node of ``1 / self`` (``reciprocal``)."""

    rule = _r("z = 1 / a", {"z": "result"}, a="-grad * (z * z)")

    saved = ("result",)


_TRUE = object()  # no rounding_mode given: div.Tensor (DivBackward0); None given: DivBackward2


@method("div", "__truediv__", "divide", "true_divide", inplace=True)
def div(input=MISSING, other=MISSING, *, rounding_mode=_TRUE, out=None,
        _form=("div", FUNCTION)) -> Tensor:
    """``input / other`` (true division: integers give floats), broadcasting."""
    if out is not None:
        from .out import write_out
        return write_out(div, out, input, other, rounding_mode=rounding_mode, _form=_form)
    if rounding_mode is not _TRUE:  # (PyTorch's div.Tensor_mode, even for rounding_mode=None)
        out = _div_rounding(input, other, rounding_mode)
    else:
        out = elementwise(np.true_divide, input, other, float_result=True, opmath=True)
    if out is NotImplemented:  # (an operand that is no tensor or number: the rare path)
        kwargs = {} if rounding_mode is _TRUE else {"rounding_mode": rounding_mode}
        return bad_operand(_form, div, input, other, kwargs)
    if rounding_mode is not _TRUE:
        return out
    if should_record(input, other):
        node = DivBackward0() if out._data.dtype is not HALF else _HalfDivBackward0()
        node._s_other = save_operand(other)
        if isinstance(other, Tensor) and other._requires_grad:
            node._s_self = save_operand(input)
        record(node, out, input, other, broadcast=True)
    return out


true_divide = div


def _div_rounding(input, other, mode):
    # (saved first, as PyTorch's autograd kernel does before its checks: an inference operand
    # is refused before a bad rounding_mode)
    saved = _save_div2(input, other) if should_record(input, other) else None
    if mode is None:
        out = elementwise(np.true_divide, input, other, float_result=True, opmath=True)
        if out is not NotImplemented and saved is not None:
            _record_div2(out, input, other, mode, saved)
        return out
    if mode not in ("trunc", "floor"):
        raise RuntimeError(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"'{mode}'")
    a, b, nd = binary_operands(input, other)
    if a is NotImplemented:
        return NotImplemented
    fn = _trunc_divide if mode == "trunc" else floor_div_floats if nd.kind == "f" else \
        np.floor_divide
    try:
        if nd.kind == "b":  # (before the check for a division by zero, as PyTorch)
            raise NotImplementedError(f"\"div_{mode}_cpu\" not implemented for 'Bool'")
        int_zero_check(a, b, nd)
        out = Tensor._wrap(in_iterator_layout(opmath_array(fn, a, b, nd, other), as_given(input, a),
                                              as_given(other, b)))  # (x / 0: inf, NaN silently)
    except ValueError:
        raise broadcast_error(input, other) from None
    if saved is not None:  # (an integer result raises, as in PyTorch)
        _record_div2(out, input, other, mode, saved)
    return out


def _trunc_divide(a, b):
    return np.trunc(np.true_divide(a, b))


def int_zero_check(xa, xb, dt) -> None:
    """An integer division by zero raises, as PyTorch's (unless nothing is computed: empty)."""
    if dt.kind in "iub" and np.any(np.asarray(xb) == 0) and np.broadcast(xa, xb).size:
        raise RuntimeError("ZeroDivisionError")


def write_before_zero(self: Tensor, op, args, kwargs) -> None:
    """What PyTorch's in-place integer division has written when it meets a zero divisor and
    raises ZeroDivisionError: its loop runs over ``self``'s memory in order, so every element
    before the first zero divisor (in memory order, broadcasting included) holds its result. A
    number or 0-d divisor is checked before the loop, and one that promotes ``self`` to another
    dtype makes the loop write into a buffer copied back at the end: nothing written. (Above
    32768 elements PyTorch splits the loop across threads: which ones it wrote is not
    deterministic then.)"""
    other = args[0] if args else None
    data = self._data
    if not isinstance(other, Tensor) or other._data.ndim == 0 or not data.flags.writeable \
            or result_type(self, other).np != data.dtype:
        return
    divisor = np.broadcast_to(other._data, data.shape)
    zero = divisor == 0
    offsets = np.zeros(data.shape, np.int64)  # each element's place in memory
    for dim, (n, stride) in enumerate(zip(data.shape, data.strides)):
        offsets += (np.arange(n) * stride).reshape((n,) + (1,) * (data.ndim - dim - 1))
    before = offsets < offsets[zero].min()
    safe = Tensor._wrap(np.where(zero, np.ones_like(divisor), divisor))
    full = op(Tensor._wrap(np.array(data)), safe, **kwargs)._data
    data[before] = full[before].astype(data.dtype, copy=False)


def _save_div2(input, other) -> tuple:
    return save_operand(other), save_operand(input) if isinstance(
        other, Tensor) and other._requires_grad else None


def _record_div2(out, input, other, mode, saved):
    node = DivBackward2()
    (node._s_other, self_saved), node._s_rounding_mode = saved, mode
    if self_saved is not None:
        node._s_self = self_saved
    record(node, out, input, other, broadcast=True)


class DivBackward2(DivBackward0):
    """z = div(self, other, rounding_mode): true division's gradients for rounding_mode=None;
    for 'floor' or 'trunc' piecewise constant, so both gradients are 0."""

    rule = _r("z = a.div(b, rounding_mode)  (floor or trunc: piecewise constant)",
              {"a": "self", "b": "other", "mode": "rounding_mode"},
              np={"a": "0 * grad if mode else grad / b",
                  "b": "0 * grad if mode else -grad * ((a / b) / b)"},
              a="zeros_like(grad)  (mode None: grad / b)",
              b="zeros_like(grad)  (mode None: -grad * ((a / b) / b))")

    saved = ("other", "rounding_mode", "self")

    def backward(self, g):
        if self._s_rounding_mode is None:  # (a float16 array: in float32, as the forward)
            true = _HalfDivBackward0 if getattr(g, "dtype", None) is HALF else DivBackward0
            return true.backward(self, g)
        check_saved(self)  # (PyTorch keeps self and other, used or not)
        zero = F.zeros(tuple(g.shape), g)  # PyTorch: zeros_like(grad), outside any graph
        return zero, zero


def _rtruediv(self, other):
    """``other / self`` for a number ``other``: PyTorch computes ``reciprocal(self) * other``."""
    if isinstance(other, Tensor):
        return div(other, self)
    return mul(reciprocal(self), other, _form=("mul", OPERATOR))


Tensor.__rtruediv__ = _rtruediv


@method("reciprocal", inplace=True)
def reciprocal(input) -> Tensor:
    """``1 / input``."""
    data = input._data
    if data.dtype.kind != "f":
        data = data.astype(np.float32)
    out = Tensor._wrap(in_iterator_layout(quietly(np.reciprocal, data), input._data))
    if should_record(input):
        node = ReciprocalBackward0()
        record(node, out, input)
        node._s_result = SavedTensor(out, node)
    return out


# ---------------------------------------------------------------- float16
class _HalfDivBackward0(DivBackward0):
    """``DivBackward0`` of a float16 quotient: the gradient divided by a number (or a 0-d
    tensor) is computed as the forward is, in float32 (:func:`~minigrad._ops.rounding.half_opmath`).
    PyTorch has one class; the second keeps the dtype test off every other quotient's path."""

    def backward(self, g):
        if isinstance(g, Tensor):  # (create_graph: Tensor division does it)
            return DivBackward0.backward(self, g)
        o = factor(self._s_other, g)
        ga = half_opmath(np.true_divide, g, o, value(self._s_other))
        gb = None if self._s_self is None else -g * ((factor(self._s_self, g) / o) / o)
        return ga, gb


_HalfDivBackward0.__name__ = "DivBackward0"  # (PyTorch's class name)
