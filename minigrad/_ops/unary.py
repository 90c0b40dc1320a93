"""Elementwise functions of one tensor: exp, log, sqrt, sin, cos, abs, and clamp.

Integer and bool inputs of a floating-point function compute in the default float dtype, as in
PyTorch (``torch.tensor([1, 2]).exp()`` is float32). Each backward formula is written so it
also runs on tensors (``create_graph=True``); masks such as ``self >= min`` are taken from the
data, as constants, since they have no gradient.

>>> import minigrad as torch
>>> x = torch.tensor([0., 1.], requires_grad=True)
>>> y = x.exp()
>>> y.grad_fn.name(), y.grad_fn._saved_result is not None
('ExpBackward0', True)
"""

from __future__ import annotations

import numpy as np

from .._dtype import _Defaults, cast, result_type
from .._layout import in_iterator_layout
from .._quiet import quietly
from .._tensor import Tensor
from .._tensor_data import fill_value
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from . import _formula as F
from ._backward import where
from ._core import broadcast_error, dtype_of, method
from ._formula import data  # noqa: F401 - op files import it from here too
from .errors import not_implemented
from .rounding import HALF

__all__ = ["exp", "log", "sqrt", "sin", "cos", "abs", "absolute", "clamp", "clip", "clamp_min",
           "clamp_max"]


def floats(x, name: str):
    """The data of ``x`` for a floating-point function (integers and bools become floats)."""
    try:
        d = x._data
    except AttributeError:
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}") from None
    return d if d.dtype.kind == "f" else d.astype(_Defaults.float.np)


def positive_nan(fn):
    """``fn`` (sqrt, log, ...) whose NaN for a number out of its domain is positive, as
    PyTorch's (NumPy's is negative, which ``signbit`` shows); a NaN given keeps its sign."""
    def op(a):
        out = np.asarray(fn(a))
        if out.dtype.kind == "f":
            np.abs(out, out=out, where=np.isnan(out) & ~np.isnan(a))
        return out
    return op


def record_result(node, out, input):
    """Record a one-input op whose backward uses its result (saved without a reference cycle)."""
    record(node, out, input)
    node._s_result = SavedTensor(out, node)


def record_self(node, out, input):
    """Record a one-input op whose backward uses its input, saved as ``_saved_self``."""
    node._s_self = SavedTensor(input)
    record(node, out, input)


def float_op(input, name: str, fn, node_cls, keep: str, quiet: bool = True) -> Tensor:
    """``fn`` of ``input``'s data (as floats), recorded with a ``node_cls`` node that keeps
    the op's ``"self"`` or ``"result"``. ``quiet``: values out of the domain become nan or inf
    as in PyTorch, without NumPy's warning (costs a context; tanh cannot warn)."""
    d = floats(input, name)
    if d.dtype is HALF:  # (PyTorch's float16 kernels compute in float32 and round once)
        wide = d.astype(np.float32)
        out = quietly(fn, wide)
        d = cast(nan_signs_kept(wide, out) if name in _NAN_SIGN_LOST else out, HALF)
    else:
        out = quietly(fn, d) if quiet else fn(d)
        d = nan_signs_kept(d, out) if name in _NAN_SIGN_LOST else out
    out = Tensor._wrap(in_iterator_layout(d, input._data))
    if should_record(input):
        (record_result if keep == "result" else record_self)(node_cls(), out, input)
    return out


# ---------------------------------------------------------------- exp / log / sqrt
class ExpBackward0(Node):
    """The node of ``exp(self)``."""

    rule = _r("z = exp(a)", {"z": "result"}, a="grad * z")

    saved = ("result",)


@method("exp", inplace=True)
def exp(input) -> Tensor:
    """``e ** input``, elementwise."""
    return float_op(input, "exp", np.exp, ExpBackward0, "result")


# the ops whose NumPy float32 loops make a NaN positive (PyTorch's float32 kernels pass its
# sign on; float16 sin/cos/tanh and float64 tanh have rules of their own, not followed here)
_NAN_SIGN_LOST = frozenset(("exp", "log", "sin", "cos", "tanh"))


def nan_signs_kept(src, out):
    """``out`` (an op of ``src`` that passes NaN through) with each NaN of ``src`` as it was:
    NumPy's float32 ``exp`` (``log``, ``sin``...) makes a NaN positive, PyTorch's keeps its sign."""
    if out.dtype == np.float32:
        nan = np.isnan(src)
        if nan.any():
            return np.where(nan, src, out)
    return out


class LogBackward0(Node):
    """The node of ``log(self)``."""

    rule = _r("z = log(a)", {"a": "self"}, a="grad / a")

    saved = ("self",)


@method("log", inplace=True)
def log(input) -> Tensor:
    """Natural logarithm (``-inf`` at 0, ``nan`` below), elementwise."""
    return float_op(input, "log", _log, LogBackward0, "self")


class SqrtBackward0(Node):
    """The node of ``sqrt(self)``."""

    rule = _r("z = sqrt(a)", {"z": "result"}, a="grad / (2 * z)")

    saved = ("result",)


_log, _sqrt = positive_nan(np.log), positive_nan(np.sqrt)


@method("sqrt", inplace=True)
def sqrt(input) -> Tensor:
    """Square root (``nan`` below 0), elementwise."""
    return float_op(input, "sqrt", _sqrt, SqrtBackward0, "result")


# ---------------------------------------------------------------- sin / cos
class SinBackward0(Node):
    """The node of ``sin(self)``."""

    rule = _r("z = sin(a)", {"a": "self"}, a="grad * cos(a)")

    saved = ("self",)


@method("sin", inplace=True)
def sin(input) -> Tensor:
    """Sine, elementwise (radians)."""
    return float_op(input, "sin", np.sin, SinBackward0, "self")


class CosBackward0(Node):
    """The node of ``cos(self)``."""

    rule = _r("z = cos(a)", {"a": "self"}, a="grad * -sin(a)")

    saved = ("self",)


@method("cos", inplace=True)
def cos(input) -> Tensor:
    """Cosine, elementwise (radians)."""
    return float_op(input, "cos", np.cos, CosBackward0, "self")


# ---------------------------------------------------------------- abs
class AbsBackward0(Node):
    """The node of ``abs(self)``."""

    rule = _r("z = |a|", {"a": "self"}, a="grad * sgn(a)", note="sgn(a) = sign(a);  sgn(nan) = 0")

    saved = ("self",)


@method("abs", "absolute", "__abs__", inplace=True)
def abs(input) -> Tensor:  # noqa: A001
    """Absolute value, elementwise (keeps integer dtypes)."""
    d = input._data
    if d.dtype.kind == "b":
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    out = Tensor._wrap(in_iterator_layout(np.abs(d), d))
    if should_record(input):
        record_self(AbsBackward0(), out, input)
    return out


absolute = abs


# ---------------------------------------------------------------- clamp
@formula_function
def clamp_backward(grad, x, lo, hi):
    """PyTorch's ``clamp_backward`` (number bounds, either may be None): ``grad`` where
    ``lo <= x <= hi``, else 0."""
    x = F.data(x)
    inside = (x >= lo) if lo is not None else True
    if hi is not None:
        inside = inside & (x <= hi)
    return where(inside, grad, 0.0)


@formula_function
def clamp_backward_min_max(grad, x, lo, hi, wrt: str):
    """PyTorch's ``clamp_backward_min_max`` (tensor bounds, either may be None), the gradient
    of ``wrt`` (``"self"``, ``"min"`` or ``"max"``): to whichever value ``clamp`` took."""
    x, lo, hi = F.data(x), F.data(lo), F.data(hi)
    if wrt == "self":
        inside = True if lo is None else x >= lo
        return where(inside & (x <= hi) if hi is not None else inside, grad, 0.0)
    if wrt == "min":
        return where((x < lo) & (lo < hi) if hi is not None else x < lo, grad, 0.0)
    return where((x > hi) | (lo > hi) if lo is not None else x > hi, grad, 0.0)


class ClampBackward1(Node):
    """z = clamp(self, min, max) with numbers:  dz/dself = 1 where min <= self <= max, else 0."""

    rule = _r("z = clamp(a, lo, hi)", {"a": "self", "lo": "min", "hi": "max"}, numbers="lo hi",
              a="clamp_backward(grad, a, lo, hi)",
              note="clamp_backward(grad, a, lo, hi) = where(lo <= a <= hi, grad, 0)")

    saved = ("max", "min", "self")
    _s_min = _s_max = None


class ClampBackward0(Node):
    """z = clamp(self, min, max) with tensors: the gradient goes to whichever value z took.

    self where min <= self <= max; min where self < min < max; max where max(self, min) > max.
    """

    rule = _r("z = clamp(a, lo, hi)", {"a": "self", "lo": "min", "hi": "max"},
              a='clamp_backward_min_max(grad, a, lo, hi, "self")',
              lo='clamp_backward_min_max(grad, a, lo, hi, "min")',
              hi='clamp_backward_min_max(grad, a, lo, hi, "max")',
              note="clamp_backward_min_max: self where lo <= a <= hi; min where a < lo < hi; "
                   "max where a > hi or lo > hi")

    saved = ("max", "min", "self")
    _s_min = _s_max = None


def _clamp_data(x, lo, hi, nd):
    out = x if x.dtype == nd else x.astype(nd)
    if lo is not None:  # (an element equal to a bound stays, -0.0 too, as PyTorch's)
        out = _beyond(out, _bound(lo, nd), np.less)
    if hi is not None:
        out = _beyond(out, _bound(hi, nd), np.greater)
    return np.asarray(out, dtype=nd)


def _beyond(x, bound, past):
    """``bound`` where ``x`` is ``past`` it (or it is NaN), else ``x``: an element equal to the
    bound stays itself (``-0.0`` clamped at ``0.0``), as in PyTorch."""
    return np.where(past(x, bound) | (np.asarray(bound) != bound), bound, x)


def _bound(v, nd):
    """A bound as the kernel holds it: a tensor's array; a number in the float result's dtype
    (float16 through float32), an integer in the integer result's dtype (-2 is 254 in uint8),
    refused with PyTorch's error where that dtype cannot hold it."""
    if isinstance(v, Tensor):
        return v._data
    if type(v) is bool or (nd.kind != "f" and not isinstance(v, int)):
        return v
    return fill_value(v, dtype_of(nd), "clamp")


@method("clamp", "clip")
def clamp(input, min=None, max=None) -> Tensor:  # noqa: A002
    """Limit every element to ``[min, max]`` (numbers or tensors; either may be None)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensors(input, min, max)
    nd = input._data.dtype
    if nd.kind != "f" or type(min) is bool or type(max) is bool:
        nd = result_type(*(v for v in (input, min, max) if v is not None)).np
        if nd.kind == "b":
            kind = "clamp" if min is not None and max is not None else \
                "clamp_min" if min is not None else "clamp_max"
            raise not_implemented(f"{kind}_scalar_cpu", input.dtype)
    d = _clamp_data(input._data, min, max, nd)
    out = Tensor._wrap(in_iterator_layout(d, input._data))
    if should_record(input):
        node = ClampBackward1()
        node._s_min, node._s_max, node._s_self = min, max, SavedTensor(input)
        record(node, out, input)
    return out


clip = clamp


def _as_tensor(v):
    return v if v is None or isinstance(v, Tensor) else Tensor._wrap(np.array(v))


def _clamp_tensors(input, lo, hi):
    lo, hi = _as_tensor(lo), _as_tensor(hi)
    nd = result_type(*(v for v in (input, lo, hi) if v is not None)).np
    bounds = [v for v in (lo, hi) if v is not None]
    try:
        np.broadcast_shapes(input._data.shape, *(v._data.shape for v in bounds))
    except ValueError:
        raise broadcast_error(input, *bounds) from None
    d = _clamp_data(input._data, lo, hi, nd)
    out = Tensor._wrap(in_iterator_layout(d, *(v._data for v in (input, lo, hi) if v is not None)))
    if should_record(input, lo, hi):
        node = ClampBackward0()
        node._s_self = SavedTensor(input)
        if lo is not None:
            node._s_min = SavedTensor(lo)
        if hi is not None:
            node._s_max = SavedTensor(hi)
        record(node, out, input, lo, hi, broadcast=True)
    return out


class ClampMinBackward0(Node):
    """z = max(self, min) with a number min:  dz/dself = 1 where self >= min."""

    rule = _r("z = max(a, lo)  (lo a number)", {"a": "self", "lo": "min"}, numbers="lo",
              a="where(a >= lo, grad, 0)")

    saved = ("min", "self")


class ClampMinBackward1(Node):
    """z = max(self, min) with a tensor min:  self where self >= min, else min."""

    rule = _r("z = max(a, lo)", {"a": "self", "lo": "min"}, a="where(a >= lo, grad, 0)",
              lo="where(a < lo, grad, 0)")

    saved = ("min", "self")


class ClampMaxBackward0(Node):
    """z = min(self, max) with a number max:  dz/dself = 1 where self <= max."""

    rule = _r("z = min(a, hi)  (hi a number)", {"a": "self", "hi": "max"}, numbers="hi",
              a="where(a <= hi, grad, 0)")

    saved = ("max", "self")


class ClampMaxBackward1(Node):
    """z = min(self, max) with a tensor max:  self where self <= max, else max."""

    rule = _r("z = min(a, hi)", {"a": "self", "hi": "max"}, a="where(a <= hi, grad, 0)",
              hi="where(a > hi, grad, 0)")

    saved = ("max", "self")


def _clamp_one(input, bound, is_min):
    """clamp_min / clamp_max: one bound, a number (…Backward0) or a tensor (…Backward1)."""
    bt = isinstance(bound, Tensor)
    nd = result_type(input, bound).np
    if nd.kind == "b" and not bt:
        raise not_implemented(f"clamp_{'min' if is_min else 'max'}_scalar_cpu", input.dtype)
    x = input._data if input._data.dtype == nd else input._data.astype(nd)
    b = _bound(bound, nd)
    try:
        d = np.asarray(_beyond(x, b, np.less if is_min else np.greater), dtype=nd)
    except ValueError:
        raise broadcast_error(input, bound) from None
    out = Tensor._wrap(in_iterator_layout(d, input._data, *((bound._data,) if bt else ())))
    if should_record(input, bound):
        if is_min:
            node = ClampMinBackward1() if bt else ClampMinBackward0()
            node._s_min = SavedTensor(bound) if bt else bound
        else:
            node = ClampMaxBackward1() if bt else ClampMaxBackward0()
            node._s_max = SavedTensor(bound) if bt else bound
        node._s_self = SavedTensor(input)
        if bt:
            record(node, out, input, bound, broadcast=True)
        else:
            record(node, out, input)
    return out


@method("clamp_min")
def clamp_min(input, min):  # noqa: A002
    """``max(input, min)`` elementwise."""
    return _clamp_one(input, min, True)


@method("clamp_max")
def clamp_max(input, max):  # noqa: A002
    """``min(input, max)`` elementwise."""
    return _clamp_one(input, max, False)
