"""Powers: ``x ** 2`` (PowBackward0), ``x ** y`` (PowBackward1), ``2 ** x`` (PowBackward2).

Which node records a power depends on what is a tensor: the base, the exponent, or both. Where
the derivative has a 0 * inf (at a zero base), PyTorch defines it as 0, and so does minigrad.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> (x ** 3).grad_fn.name(), (x ** x).grad_fn.name(), (2 ** x).grad_fn.name()
('PowBackward0', 'PowBackward1', 'PowBackward2')
"""

from __future__ import annotations

import numpy as np

from .._layout import in_iterator_layout
from .._quiet import quiet, restore
from .._tensor import Tensor
from .._tensor_data import fill_value
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved
from . import _formula as F
from ._backward import scale, where
from ._core import binary_operands, broadcast_error, dtype_of, method, value
from ._formula import data
from .arithmetic import elementwise, factor, sub_number
from .rounding import HALF
from .unary import _sqrt

__all__ = ["pow", "square"]


def _power(x, p):
    """``x ** p`` for a number ``p``; for arrays +-0.5 as PyTorch computes them (sqrt,
    1 / sqrt). On a tensor (create_graph) it is ``x.pow(p)``, a PowBackward0, as in PyTorch."""
    if not isinstance(x, Tensor):
        if p == 0:  # (PyTorch fills ones: a signaling NaN ** 0 too, which float16's pow misses)
            return np.ones_like(x)
        if p == 0.5:
            return _sqrt(x)
        if p == -0.5:
            return 1 / _sqrt(x)
        if p in (3, -2) and x.dtype.kind == "f" and x.dtype.itemsize >= 4:
            # PyTorch's float32/float64 kernel multiplies: x * x * x, 1 / (x * x)
            return x * x * x if p == 3 else 1 / (x * x)
    return x ** p


@formula_function
def pow_backward(grad, x, p):
    """PyTorch's ``pow_backward`` (a number ``p``): ``grad * (p * x.pow(p - 1))``; where
    ``p == 0``, ``zeros_like(x)``, outside any graph (not for ``False``: a bool Scalar never
    equals a number in PyTorch, so ``x ** False`` gets ``0 * x ** -1``, NaN at 0)."""
    if p == 0 and type(p) is not bool:
        return F.zeros_like(grad)
    return grad * scale(_power(x, p - 1), p)


@formula_function
def pow_backward_self(grad, x, exponent):
    """PyTorch's ``pow_backward_self``: ``where(exponent == 0, 0, grad * (exponent *
    x.pow(exponent - 1)))``."""
    if data(exponent).dtype.kind == "b":  # (exponent - 1, in PyTorch: its error)
        sub_number(exponent, 1)
    x, p = factor(x, grad), factor(exponent, grad)
    return where(data(p) == 0, 0.0, grad * (p * x ** sub_number(p, 1)))


# ``True ** x`` records PowBackward2 as PyTorch does, whose backward then always fails
BOOL_BASE_ASSERT = ('false INTERNAL ASSERT FAILED at '
                    '"/__w/pytorch/pytorch/c10/core/Scalar.cpp":42, please report a bug to '
                    'PyTorch. unknown ivalue tag 4')


@formula_function
def pow_backward_exponent(grad, x, exponent, result):
    """PyTorch's ``pow_backward_exponent``: ``grad * where(x == 0 and exponent >= 0, 0,
    result * log(x))``; for a number ``x`` other than 0, ``grad * (result * log(x))``."""
    if not isinstance(x, (np.ndarray, Tensor)):  # (a number base: log(x) is a number)
        if isinstance(x, (bool, np.bool_)):  # PyTorch's Scalar of a saved bool: its assert
            raise RuntimeError(BOOL_BASE_ASSERT)
        log_base = float(np.log(np.float64(x)))
        if x == 0:
            return grad * where(data(exponent) >= 0, 0.0, scale(result, log_base))
        return grad * scale(result, log_base)
    x, p = factor(x, grad), factor(exponent, grad)
    zero_base = (data(x) == 0) & (data(p) >= 0)
    return grad * where(zero_base, 0.0, result * F.log(x))


class PowBackward0(Node):
    """z = self ** exponent (a number):  dz/dself = exponent * self ** (exponent - 1)."""

    rule = _r("z = a ** p  (p a number)", {"a": "self", "p": "exponent"}, numbers="p",
              a="pow_backward(grad, a, p)",
              note="pow_backward(grad, a, p) = grad * (p * a.pow(p - 1)); zeros_like(a) "
                   "where p == 0")

    saved = ("exponent", "self")


class PowBackward1(Node):
    """z = self ** exponent (both tensors):

    dz/dself = exponent * self ** (exponent - 1)  (0 where exponent == 0),
    dz/dexponent = z * log(self)  (0 where self == 0 and exponent >= 0).
    """

    rule = _r("z = a ** b", {"a": "self", "b": "exponent", "z": "result"},
              a="pow_backward_self(grad, a, b)", b="pow_backward_exponent(grad, a, b, z)",
              note="pow_backward_self = where(b == 0, 0, grad * (b * a.pow(b - 1))); "
                   "pow_backward_exponent = grad * where(a == 0 and b >= 0, 0, z * log(a))")

    saved = saved_tensors_names = ("exponent", "result", "self")
    _s_self = _s_exponent = None

    def backward(self, g):  # (by hand: PyTorch checks self before result, see the docs list)
        check_saved(self)  # (the result is kept, and checked, even if only self needs it)
        x = factor(self._s_self, g)
        exponent = value(self._s_exponent)  # (unpacked once: saved-tensor hooks see it once)
        ga = gb = None
        if self.next_functions[0][0] is not None:
            ga = pow_backward_self(g, x, exponent)
        if self.next_functions[1][0] is not None:
            gb = pow_backward_exponent(g, x, exponent, value(self._s_result))
        return ga, gb


class PowBackward2(Node):
    """z = self ** exponent (self a number):  dz/dexponent = z * log(self)
    (0 where self == 0 and exponent >= 0)."""

    rule = _r("z = c ** b  (c a number)", {"c": "self", "b": "exponent", "z": "result"},
              numbers="c", b="pow_backward_exponent(grad, c, b, z)",
              note="pow_backward_exponent = grad * (z * log(c)); 0 where c == 0 and b >= 0")

    saved = ("exponent", "result", "self")


def _power_arrays(a, b):  # (quiet: elementwise switches NumPy's warnings off)
    return np.power(a, b) if np.asarray(a).dtype.kind == "f" else _int_pow(a, b)


def _int_pow(a, b):
    """Integer power as PyTorch does it: a negative exponent gives 0, but 1 for a base of 1 and
    +-1 for a base of -1 (0 ** -1 is 0 too). Callers run it quietly."""
    a, b = np.asarray(a), np.asarray(b)
    if np.any(b < 0):
        pos = np.power(a, np.maximum(b, 0))
        neg = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0))
        return np.where(b < 0, neg, pos).astype(np.result_type(a, b))
    return np.power(a, b)


@method("pow", "__pow__", inplace=True)
def pow(input, exponent) -> Tensor:  # noqa: A001
    """``input ** exponent``: a tensor to a number, a tensor or number to a tensor's power."""
    if not isinstance(input, Tensor):
        return _rpow(exponent, input)
    if not isinstance(exponent, Tensor):
        return _pow_scalar(input, exponent)
    if input._data.dtype.kind == "b" and exponent._data.dtype.kind == "b":
        try:  # (shapes are checked first, as in PyTorch)
            np.broadcast_shapes(input._data.shape, exponent._data.shape)
        except ValueError:
            raise broadcast_error(input, exponent) from None
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    out = elementwise(_power_arrays, input, exponent)
    if should_record(input, exponent):
        node = PowBackward1()
        # exponent first: saved_tensors_hooks see them in PyTorch's order
        node._s_exponent, node._s_self = SavedTensor(exponent), SavedTensor(input)
        record(node, out, input, exponent, broadcast=True)
        node._s_result = SavedTensor(out, node)
    return out


def _pow_scalar(input, p):
    a, b, nd = binary_operands(input, p)
    if a is NotImplemented:
        return NotImplemented
    if nd.kind != "f" and p < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if nd is HALF:  # (the exponent as a float16: PyTorch refuses one past 65504)
        fill_value(p, dtype_of(nd), "pow")
    if nd.kind == "b":  # a bool tensor to a bool power stays bool
        return Tensor._wrap(np.power(a.astype(np.int64), int(p)).astype(bool))
    token = quiet()  # 0 ** -1, overflow: inf and NaN as in PyTorch, no NumPy warning
    try:
        data = _power(a, b) if nd.kind == "f" else np.power(a, b)
    finally:
        restore(token)
    out = Tensor._wrap(in_iterator_layout(data, a))  # (the exponent is no operand)
    if should_record(input):
        node = PowBackward0()
        node._s_exponent, node._s_self = p, SavedTensor(input)
        record(node, out, input)
    return out


def _rpow(self, base):
    """``base ** self`` for a number ``base`` (what ``2 ** x`` computes)."""
    a, b, nd = binary_operands(base, self)
    if a is NotImplemented:
        return NotImplemented
    if nd.kind == "b":
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    token = quiet()  # 0 ** -1, overflow: inf and NaN as in PyTorch, no NumPy warning
    try:
        data = np.power(a, b) if nd.kind == "f" else _int_pow(a, b)
    finally:
        restore(token)
    out = Tensor._wrap(np.asarray(data, order="C"))  # (contiguous: PyTorch's pow(Scalar, x))
    if should_record(self):
        node = PowBackward2()
        node._s_self, node._s_exponent = base, SavedTensor(self)
        record(node, out, self)
        node._s_result = SavedTensor(out, node)
    return out


Tensor.__rpow__ = _rpow


@method("square", inplace=True)
def square(input) -> Tensor:
    """``input ** 2``."""
    return _pow_scalar(input, 2)
