"""Elementwise functions of two tensors besides arithmetic: ``//`` and ``%`` (floor_divide,
remainder), ``fmod``, ``atan2``, ``hypot``, ``xlogy``, ``fmax``/``fmin``. (Three operands:
``ternary.py``.)

Operands promote as in PyTorch (``binary_operands``); gradients are un-broadcast by the
engine (``record(..., broadcast=True)``). Formulas use Tensor operations so they also run
under ``create_graph=True``.

>>> import minigrad as torch
>>> x = torch.tensor([5., -5.], requires_grad=True)
>>> x % 3, (x % 3).grad_fn.name()
(tensor([2., 1.], grad_fn=<RemainderBackward0>), 'RemainderBackward0')
"""

from __future__ import annotations

import numpy as np

from .._layout import as_given, in_iterator_layout
from .._quiet import quietly
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, record_raising, should_record
from ..autograd.reshaped import not_differentiable
from ..autograd.saved import refuse_saving_inference
from . import _formula as F
from ._backward import call, data, masked_zero, scale
from ._core import binary_operands, floor_div_floats, method, quiet_array, value, wrap_scalar
from .arithmetic import broadcast_error, factor
from .division import div, int_zero_check
from .errors import bool_negation, not_implemented
from .rounding import opmath_array

__all__ = ["floor_divide", "remainder", "fmod", "atan2", "arctan2", "hypot", "xlogy", "fmax",
           "fmin"]


def _operands(name: str, a, b):
    xa, xb, dt = binary_operands(a, b)
    if xa is NotImplemented:
        bad = b if isinstance(a, Tensor) else a
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(bad).__name__}")
    _check_broadcast(a, b)
    return xa, xb, np.dtype(dt)


def _check_broadcast(a, b) -> None:
    try:
        np.broadcast_shapes(np.shape(getattr(a, "_data", a)), np.shape(getattr(b, "_data", b)))
    except ValueError:
        raise broadcast_error(a, b) from None


class _Binary(Node):
    """Saves both operands; subclasses give ``grads(g, x, y)``: PyTorch's two formulas, on
    arrays or (create_graph) tensors."""

    saved = ("other", "self")
    saved_tensors_names = ("other", "self")

    def backward(self, g):
        y = value(self._s_other) if self._s_other is not None else None  # (PyTorch's order)
        x = value(self._s_self) if self._s_self is not None else None
        return self.grads(g, factor(x, g), factor(y, g))  # (in g's dtype: an int64 operand)


def _div_mode(g, x, y, mode: str):
    """``x.div(y, rounding_mode=mode)`` (a DivBackward2 on tensors), as the kind of ``g``."""
    return F.like(div(F.as_tensor(x), y, rounding_mode=mode), g)


def _record2(node, out, a, b, *, save=True, own=False):  # own: each kept for its own grad only
    save_a, save_b = (save and (not own or t.requires_grad) for t in (a, b))  # (hypot's)
    node._s_self = SavedTensor(a) if save_a and isinstance(a, Tensor) else None
    node._s_other = SavedTensor(b) if save_b and isinstance(b, Tensor) else \
        None if isinstance(b, Tensor) else b
    return record(node, out, a, b, broadcast=True)


# ---------------------------------------------------------------- floor division and remainders
class NotImplementedBackward(Node):
    """PyTorch records floor_divide with a node whose backward raises (no derivative)."""

    rule = _r("z = floor_divide(a, b) = floor(a / b)", words=True,
              a="raises: derivative for aten::floor_divide is not implemented",
              b="raises: derivative for aten::floor_divide is not implemented")

    def name(self) -> str:
        return "torch::autograd::NotImplemented"

    _op = "floor_divide"  # (remainder with a number first: "remainder")

    def backward(self, g):
        raise RuntimeError(f"derivative for aten::{self._op} is not implemented")


NotImplementedBackward.__name__ = "NotImplemented"  # (PyTorch's class name)


@method("floor_divide", "__floordiv__", inplace=True)
def floor_divide(input, other):
    """``floor(input / other)`` elementwise (``//``); not differentiable."""
    xa, xb, dt = _operands("floor_divide", input, other)
    if dt.kind == "b":
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    int_zero_check(xa, xb, dt)
    fn = floor_div_floats if dt.kind == "f" else np.floor_divide
    out = Tensor._wrap(in_iterator_layout(opmath_array(fn, xa, xb, dt, other), as_given(input, xa),
                                          as_given(other, xb)))
    if should_record(input, other) and dt.kind == "f":
        record_raising(NotImplementedBackward(), out, input, other)
    return out


def _rfloordiv(self, other):
    return floor_divide(_scalar_tensor(other, self), self)


def _scalar_tensor(x, like, keep: bool = False):
    """A number operand as a 0-d tensor of the result's dtype (1e300 as float32: inf, without
    NumPy's warning); an integer that dtype cannot hold wraps around as PyTorch casts it
    (-2 as uint8: 254), or with ``keep`` keeps its value (in int64, which promotes as the
    number does: PyTorch's wrapped number in an op computed in floats, ``xlogy``)."""
    dt = binary_operands(like, x)[2]
    try:
        return Tensor._wrap(quietly(np.asarray, x, dt))
    except OverflowError:
        return wrap_scalar(x) if keep else Tensor._wrap(np.asarray(x).astype(dt))


Tensor.__rfloordiv__ = _rfloordiv


class RemainderBackward0(Node):
    """z = self % number:  dz/dself = 1."""

    rule = _r("z = a % c  (c a number)", a="grad")

    def backward(self, g):
        return (g,)


class RemainderBackward1(_Binary):
    """z = self % other:  dz/dself = 1;  dz/dother = -floor(self / other)."""

    rule = _r("z = a % b", {"a": "self", "b": "other"}, np={"b": "-grad * floor(a / b)"}, a="grad",
              b="-grad * a.div(b, rounding_mode='floor')")

    def grads(self, g, x, y):
        return g, (-g * _div_mode(g, x, y, "floor") if y is not None else None)


class FmodBackward0(RemainderBackward0):
    """z = fmod(self, number):  dz/dself = 1."""

    rule = _r("z = fmod(a, c)  (c a number)", a="grad")


class FmodBackward1(_Binary):
    """z = fmod(self, other):  dz/dself = 1;  dz/dother = -trunc(self / other)."""

    rule = _r("z = fmod(a, b)", {"a": "self", "b": "other"}, np={"b": "-grad * trunc(a / b)"},
              a="grad", b="-grad * a.div(b, rounding_mode='trunc')")

    def grads(self, g, x, y):
        return g, (-g * _div_mode(g, x, y, "trunc") if y is not None else None)


def _rem(name, np_fn, node0, node1):
    def op(input, other):
        if isinstance(other, Tensor) and other.requires_grad and should_record(input, other):
            refuse_saving_inference(input, other)  # (both saved for other's gradient)
        xa, xb, dt = _operands(name, input, other)
        if dt.kind == "b":
            raise not_implemented(f"{name}_cpu", input.dtype)
        int_zero_check(xa, xb, dt)
        out = Tensor._wrap(in_iterator_layout(quiet_array(np_fn, xa, xb, dt), as_given(input, xa),
                                              as_given(other, xb)))
        if not should_record(input, other):  # (an integer result raises, as in PyTorch: an
            return out  # integer tensor given a history by an in-place op is refused here)
        if isinstance(other, Tensor):  # (self and other are needed for other's gradient only)
            return _record2(node1(), out, input, other, save=other.requires_grad)
        return record(node0(), out, input)

    op.__name__ = name
    return op


def _remainder(a, b):
    """Python's ``%`` (the sign of the divisor), for floats as PyTorch: from ``fmod``."""
    if np.result_type(a, b).kind != "f":
        return np.remainder(a, b)
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), mod + b, mod)


remainder = method("remainder", "__mod__", inplace=True)(
    _rem("remainder", _remainder, RemainderBackward0, RemainderBackward1))
fmod = method("fmod", inplace=True)(_rem("fmod", np.fmod, FmodBackward0, FmodBackward1))
def _rmod(self, other):
    """``number % t``: PyTorch has no derivative for a number divided (NotImplemented node)."""
    out = remainder(_scalar_tensor(other, self), self.detach())
    if should_record(self) and out._data.dtype.kind == "f":
        node = NotImplementedBackward()
        node._op = "remainder"
        record_raising(node, out, self)
    return out


Tensor.__rmod__ = _rmod


# ---------------------------------------------------------------- atan2, hypot, xlogy, fmax/fmin
class Atan2Backward0(_Binary):
    """z = atan2(self, other):  dz/dself = other / (self² + other²);
    dz/dother = -self / (self² + other²)  (both 0 where self = other = 0)."""

    rule = _r("z = atan2(a, b)  (r = 1 / (a**2 + b**2), 0 where that is inf)",
              {"a": "self", "b": "other"},
              np={"a": "grad * b / (a**2 + b**2)", "b": "-grad * a / (a**2 + b**2)"},
              a="grad * b * r", b="grad * -a * r")

    def backward(self, g):
        y, x = value(self._s_other), value(self._s_self)  # (PyTorch's order of checks)
        neg_x = None
        if self.next_functions[1][0] is not None:  # (PyTorch's formula for other negates self,
            if data(x).dtype.kind == "b":  # before any cast: an integer 0 stays +0)
                raise bool_negation()
            neg_x = -x  # (of a 0-d array: a NumPy scalar, made an array for factor)
            neg_x = factor(np.asarray(neg_x) if isinstance(neg_x, np.generic) else neg_x, g)
        x, y = factor(x, g), factor(y, g)
        recip = call(x * x + y * y, "reciprocal")
        recip = masked_zero(recip, np.isinf(data(recip)))
        return g * y * recip, (None if neg_x is None else g * neg_x * recip)


class HypotBackward0(_Binary):
    """z = hypot(self, other):  dz/dself = self / z;  dz/dother = other / z."""

    rule = _r("z = hypot(a, b) = sqrt(a**2 + b**2)", {"a": "self", "b": "other", "z": "result"},
              a="grad * a / z", b="grad * b / z")

    saved = ("other", "result", "self")
    saved_tensors_names = saved

    def grads(self, g, x, y):
        z = value(self._s_result)
        return None if x is None else g * x / z, None if y is None else g * y / z


class XlogyBackward0(_Binary):
    """z = self * log(other):  dz/dself = log(other) (0 where self is 0);  dz/dother =
    self / other."""

    rule = _r("z = xlogy(a, b) = a * log(b)  (0 where a is 0)", {"a": "self", "b": "other"},
              np={"a": "where((a == 0) & (b <= 0), 0, grad * log(b))"},
              a="xlogy(grad, b), 0 where a == 0 and b <= 0", b="grad * a / b")

    def grads(self, g, x, y):
        off = (data(x) == 0) & (data(y) <= 0)
        g_log = F.like(xlogy(F.as_tensor(g), y), g)
        return masked_zero(g_log, off), g * x / y


class XlogyBackward1(_Binary):
    """z = c * log(other), c a number:  dz/dother = c / other."""

    rule = _r("z = xlogy(c, b) = c * log(b)  (c a number)", {"c": "self", "b": "other"},
              b="grad * c / b")

    saved_tensors_names = ("other",)

    def grads(self, g, c, y):
        return (scale(g, c) / y,)


class XlogyBackward2(_Binary):
    """z = self * log(c), c a number:  dz/dself = log(c) (0 where self is 0, if c <= 0)."""

    rule = _r("z = xlogy(a, c) = a * log(c)  (c a number)", {"a": "self", "c": "other"},
              np={"a": "where((a == 0) & (c <= 0), 0, grad * log(c))"},
              a="xlogy(grad, c), 0 where a == 0 and c <= 0")

    saved_tensors_names = ("self",)

    def grads(self, g, x, c):
        g_log = F.like(xlogy(F.as_tensor(g), c), g)
        return (g_log if c > 0 else masked_zero(g_log, data(x) == 0),)


class FmaxBackward0(_Binary):
    """z = fmax(self, other):  the gradient goes to the operand chosen (NaNs are skipped)."""

    rule = _r("z = fmax(a, b)  (a NaN is passed over)", {"a": "self", "b": "other"},
              a="grad * ((a >= b) | isnan(b))", b="grad * ~((a >= b) | isnan(b))")

    def grads(self, g, x, y):
        try:
            pick = self._pick(data(x), data(y))
        except ValueError:  # (an operand's .data = swapped since: PyTorch's self >= other
            raise broadcast_error(data(x), data(y)) from None  # fails to broadcast)
        return masked_zero(g, ~pick), masked_zero(g, pick)

    @staticmethod
    def _pick(a, b):
        return (a >= b) | np.isnan(b)


class FminBackward0(FmaxBackward0):
    """z = fmin(self, other):  the gradient goes to the operand chosen (NaNs are skipped)."""

    rule = _r("z = fmin(a, b)  (a NaN is passed over)", {"a": "self", "b": "other"},
              a="grad * ((a <= b) | isnan(b))", b="grad * ~((a <= b) | isnan(b))")

    @staticmethod
    def _pick(a, b):
        return (a <= b) | np.isnan(b)


def _binary(name, np_fn, node_cls, float_only=True, scalars=False, ints=True, inplace=True):
    def op(input, other):
        given = (input, other)  # (a number operand: a node of its own, as in PyTorch)
        if not isinstance(other, Tensor):
            if not scalars:
                raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                                f"{type(other).__name__}")
            other = _scalar_tensor(other, input, keep=True)
        if not isinstance(input, Tensor):
            input = _scalar_tensor(input, other, keep=True)
        xa, xb, dt = binary_operands(input, other, float_result=float_only and ints)
        recorded = should_record(input, other)  # (a stale view's refusal before the shapes')
        if recorded:
            refuse_saving_inference(*(t for t in (input, other) if node_cls is not HypotBackward0
                                or t.requires_grad))
        _check_broadcast(input, other)
        if np.dtype(dt).kind in "iub" and not ints:
            cpp = {"b": "Bool", "u": "Byte"}.get(np.dtype(dt).kind, "Long" if np.dtype(
                dt).itemsize == 8 else "Int")
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{cpp}'")
        out = Tensor._wrap(in_iterator_layout(quiet_array(np_fn, xa, xb, dt), as_given(input, xa),
                                              as_given(other, xb)))
        if recorded:
            if np.dtype(dt).kind != "f":  # (fmax/fmin of integers or bools: PyTorch's
                raise not_differentiable(dt)  # autograd kernel refuses to give them a history)
            if scalars and not all(isinstance(v, Tensor) for v in given):
                return _record_with_number(scalars, out, given, input, other)
            node = node_cls()
            _record2(node, out, input, other, own=node_cls is HypotBackward0)
            if "result" in node.saved:
                node._s_result = SavedTensor(out, node)
        return out

    op.__name__ = name
    op.__doc__ = f"``{name}(input, other)`` elementwise (node ``{node_cls.__name__}``)."
    return method(name, inplace=inplace)(op)


def _record_with_number(node_classes, out, given, input, other):
    """Record ``out`` of an op with one Python-number operand: ``node_classes[0]`` when it is
    ``self``, ``[1]`` when it is ``other``; the number is saved as given."""
    number_first = not isinstance(given[0], Tensor)
    node = node_classes[0 if number_first else 1]()
    if number_first:
        node._s_self, node._s_other = given[0], SavedTensor(other)
    else:
        node._s_self, node._s_other = SavedTensor(input), given[1]
    return record(node, out, other if number_first else input, broadcast=True)


atan2 = _binary("atan2", np.arctan2, Atan2Backward0)
arctan2 = method("arctan2")(atan2)
hypot = _binary("hypot", np.hypot, HypotBackward0, ints=False)
def _second_nan(np_fn):
    """``np_fn`` (fmax, fmin) giving the second operand where both are NaN, as PyTorch's kernel
    (NumPy gives the first: the sign of the NaN differs, which ``signbit`` shows)."""
    def fn(a, b):
        out = np_fn(a, b)
        return np.where(np.isnan(a), b, out) if out.dtype.kind == "f" else out
    return fn


fmax = _binary("fmax", _second_nan(np.fmax), FmaxBackward0, float_only=False, inplace=False)
fmin = _binary("fmin", _second_nan(np.fmin), FminBackward0, float_only=False, inplace=False)


def _xlogy(a, b):
    """PyTorch's kernel: NaN (positive) where ``b`` is NaN, else 0 where ``a`` is 0, else
    ``a * log(b)``; the NaN of a negative ``b`` is C's: positive for float64 (``log``), negative
    for float32 and float16 (``logf``). Where both factors are NaN, the product is ``log(b)``'s
    (``a``'s in float16): chosen here, as NumPy's vector loops keep either."""
    log_b = np.asarray(np.log(b))
    nan_log, nan_a = np.isnan(log_b), np.isnan(a)
    if log_b.dtype == np.float64:
        np.abs(log_b, out=log_b, where=nan_log)
    first, second = (a, log_b) if log_b.dtype == np.float16 else (log_b, a)
    nan_first = nan_a if log_b.dtype == np.float16 else nan_log
    out = np.where(nan_first, first, np.where(nan_a | nan_log, second, a * log_b))
    return np.where(np.isnan(b), np.nan, np.where(a == 0, 0.0, out))


xlogy = _binary("xlogy", _xlogy, XlogyBackward0, scalars=(XlogyBackward1, XlogyBackward2))
