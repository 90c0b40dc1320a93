"""Elementwise math of one tensor besides unary.py's exp/log/sqrt/sin/cos: rounding, logs
and exponentials, trigonometric and hyperbolic functions, ``erf``, ``rsqrt``, and the NaN/inf
tests.

Each op is one row of a table: its name, its NumPy forward, PyTorch's node name and the local
derivative ``d result / d self`` written with Tensor operations (so it also runs under
``create_graph=True``; on a plain backward it runs with grad mode off and records nothing).

>>> import minigrad as torch
>>> x = torch.tensor([0.5, 2.0], requires_grad=True)
>>> y = x.log1p()
>>> y.grad_fn.name(); y.sum().backward(); x.grad
'Log1PBackward0'
tensor([0.6667, 0.3333])
"""

from __future__ import annotations

import math

import numpy as np

from .._layout import in_iterator_layout, like_input
from .._quiet import quiet, quietly, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.zero_tensor import efficient_zeros
from . import _formula as F
from ._backward import sign_data
from ._core import method, value
from .errors import not_implemented
from .rounding import HALF
from .unary import floats, positive_nan

__all__ = ["floor", "ceil", "round", "trunc", "sign", "log1p", "expm1", "log2", "log10", "tan",
           "atan", "asin", "acos", "sinh", "cosh", "erf", "rsqrt", "isnan", "isinf",
           "isfinite", "nan_to_num", "frac", "fix", "sgn", "arctan", "arcsin", "arccos",
           "isposinf", "isneginf", "erfc", "negative"]

_SQRT_PI = math.sqrt(math.pi)


def _erf(a: np.ndarray) -> np.ndarray:
    """The error function, elementwise (NumPy has none; ``math.erf`` is exact to the ulp)."""
    return np.vectorize(math.erf, otypes=[a.dtype])(a) if a.size else a.copy()


# ---------------------------------------------------------------- piecewise constant: no gradient
class FloorBackward0(Node):
    """The node of ``floor``."""

    rule = _r("z = floor(a)", a="zeros_like(grad)")


class CeilBackward0(Node):
    """The node of ``ceil``."""

    rule = _r("z = ceil(a)", a="zeros_like(grad)")


class TruncBackward0(Node):
    """The node of ``trunc``."""

    rule = _r("z = trunc(a)", a="zeros_like(grad)")


class SignBackward0(Node):
    """The node of ``sign``."""

    rule = _r("z = sign(a)", a="zeros_like(grad)")


@method("_is_zerotensor")
def _is_zerotensor(input) -> bool:
    """PyTorch's ``Tensor._is_zerotensor()``: whether ``input`` is its ZeroTensor, such as the
    gradient ``sgn`` gives (see ``autograd/zero_tensor.py``)."""
    return input._zero


class SgnBackward0(Node):
    """The node of ``sgn`` (PyTorch keeps self and the result, for complex numbers)."""

    rule = _r("z = sgn(a)  (0 at 0 and at NaN)", np={"a": "0 * grad"}, a="zeros_like(grad)",
              note="PyTorch's sgn_backward gives its ZeroTensor: autograd/zero_tensor.py")

    saved = saved_tensors_names = ("self", "result")

    def backward(self, grad):
        value(self._s_self), value(self._s_result)  # (read, as PyTorch's formula does: a
        return (efficient_zeros(grad),)  # saved tensor modified in place raises here)


class FracBackward0(Node):
    """The node of ``frac`` (self minus its integer part): the gradient passes unchanged."""

    rule = _r("z = a - trunc(a)", a="grad")



# ---------------------------------------------------------------- logs, exponentials, trigonometry
class Log1PBackward0(Node):
    """The node of ``log1p``: z = log(1 + self)."""

    rule = _r("z = log1p(a) = log(1 + a)", {"a": "self"}, a="grad / (a + 1)")

    saved = saved_tensors_names = ("self",)


class Expm1Backward0(Node):
    """The node of ``expm1``: z = exp(self) - 1."""

    rule = _r("z = expm1(a) = exp(a) - 1", {"z": "result"}, a="grad * (z + 1)")

    saved = saved_tensors_names = ("result",)


class Log2Backward0(Node):
    """The node of ``log2``."""

    rule = _r("z = log2(a)", {"a": "self"}, a="grad / (a * log(2))")

    saved = saved_tensors_names = ("self",)


class Log10Backward0(Node):
    """The node of ``log10``."""

    rule = _r("z = log10(a)", {"a": "self"}, a="grad / (a * log(10))")

    saved = saved_tensors_names = ("self",)


class TanBackward0(Node):
    """The node of ``tan``."""

    rule = _r("z = tan(a)", {"z": "result"}, a="grad * (1 + z**2)")

    saved = saved_tensors_names = ("result",)


class AtanBackward0(Node):
    """The node of ``atan``."""

    rule = _r("z = atan(a)", {"a": "self"}, a="grad / (a * a + 1)")

    saved = saved_tensors_names = ("self",)


class AsinBackward0(Node):
    """The node of ``asin``."""

    rule = _r("z = asin(a)", {"a": "self"}, a="grad * rsqrt(-a * a + 1)")

    saved = saved_tensors_names = ("self",)


class AcosBackward0(Node):
    """The node of ``acos``."""

    rule = _r("z = acos(a)", {"a": "self"}, a="grad * -rsqrt(-a * a + 1)")

    saved = saved_tensors_names = ("self",)


class SinhBackward0(Node):
    """The node of ``sinh``."""

    rule = _r("z = sinh(a)", {"a": "self"}, a="grad * cosh(a)")

    saved = saved_tensors_names = ("self",)


class CoshBackward0(Node):
    """The node of ``cosh``."""

    rule = _r("z = cosh(a)", {"a": "self"}, a="grad * sinh(a)")

    saved = saved_tensors_names = ("self",)


class ErfBackward0(Node):
    """The node of ``erf``."""

    rule = _r("z = erf(a)", {"a": "self"}, a="2 / sqrt(pi) * exp(-a**2) * grad")

    saved = saved_tensors_names = ("self",)


class ErfcBackward0(Node):
    """The node of ``erfc`` (1 - erf)."""

    rule = _r("z = erfc(a) = 1 - erf(a)", {"a": "self"}, a="-2 / sqrt(pi) * exp(-a**2) * grad")

    saved = saved_tensors_names = ("self",)


class RsqrtBackward0(Node):
    """The node of ``rsqrt``: z = 1 / sqrt(self)."""

    rule = _r("z = rsqrt(a) = 1 / sqrt(a)", {"z": "result"}, a="-0.5 * grad * z**3")

    saved = saved_tensors_names = ("result",)


# name: (NumPy forward, node class, keeps an integer input's dtype)
_TABLE = {
    "floor": (np.floor, FloorBackward0, True), "ceil": (np.ceil, CeilBackward0, True),
    "trunc": (np.trunc, TruncBackward0, True), "sign": (sign_data, SignBackward0, True),
    "sgn": (sign_data, SgnBackward0, True), "log1p": (np.log1p, Log1PBackward0, False),
    "expm1": (np.expm1, Expm1Backward0, False),
    "log2": (positive_nan(np.log2), Log2Backward0, False),
    "log10": (positive_nan(np.log10), Log10Backward0, False), "tan": (np.tan, TanBackward0, False),
    "atan": (np.arctan, AtanBackward0, False), "asin": (np.arcsin, AsinBackward0, False),
    "acos": (np.arccos, AcosBackward0, False), "sinh": (np.sinh, SinhBackward0, False),
    "cosh": (np.cosh, CoshBackward0, False), "erf": (_erf, ErfBackward0, False),
    "erfc": (lambda a: 1 - _erf(a), ErfcBackward0, False),
    "rsqrt": (lambda a: 1 / np.sqrt(a), RsqrtBackward0, False),
    "frac": (lambda a: a - np.trunc(a), FracBackward0, True),
}


def _make(name: str, forward, node_cls, keep_int: bool):
    """The op ``name``: ``forward`` of the data, recorded with a ``node_cls`` node."""
    saved = node_cls.saved

    def op(input):
        kind = input._data.dtype.kind if isinstance(input, Tensor) else "f"
        if keep_int and kind in "iub" and name not in ("sign", "sgn"):
            if kind == "b" or name == "frac":
                cpp = "Bool" if kind == "b" else input.dtype._legacy_name[:-6]
                kernel = "frac_cpu" if name == "frac" else f"{name}_vml_cpu"
                raise NotImplementedError(f"\"{kernel}\" not implemented for '{cpp}'")
        d = input._data if keep_int and kind in "iub" else floats(input, name)
        token = quiet()  # (out of the domain: NaN and inf as in PyTorch, no NumPy warning)
        try:
            data = d.copy() if kind == "b" and name in ("sign", "sgn") else \
                np.asarray(forward(d if d.dtype is not HALF else d.astype(np.float32))).astype(
                    d.dtype, copy=False)  # (float16: in float32, rounded once, as PyTorch's)
        finally:
            restore(token)
        out = Tensor._wrap(in_iterator_layout(data, input._data))
        if should_record(input):  # (an integer result raises, as in PyTorch)
            node = node_cls()
            if "self" in saved:
                node._s_self = SavedTensor(input)
            record(node, out, input)
            if "result" in saved:
                node._s_result = SavedTensor(out, node)
        return out

    op.__name__ = name
    op.__doc__ = f"``{name}`` elementwise (node ``{node_cls.__name__}``)."
    return method(name, inplace=True)(op)


floor, ceil, trunc, sign, sgn, log1p, expm1, log2, log10, tan, atan, asin, acos, sinh, cosh, \
    erf, erfc, rsqrt, frac = (_make(name, *row) for name, row in _TABLE.items())

fix = method("fix")(trunc)
arctan = method("arctan")(atan)
arcsin = method("arcsin")(asin)
arccos = method("arccos")(acos)
negative = method("negative")(Tensor.neg)


# ---------------------------------------------------------------- round (with decimals)
class RoundBackward0(Node):
    """The node of ``round(self)``."""

    rule = _r("z = round(a)", a="zeros_like(grad)")


class RoundBackward1(Node):
    """The node of ``round(self, decimals)``."""

    rule = _r("z = round(a, decimals)", {"decimals": "decimals"}, a="zeros_like(grad)")

    saved = ("decimals",)


@method("round", inplace=True)
def round(input, *, decimals: int | None = None):  # noqa: A001 - PyTorch's name
    """Round half to even (as PyTorch), to ``decimals`` places (integers only without them)."""
    kind = input._data.dtype.kind
    if kind == "b" or kind in "iu" and decimals is not None:
        raise not_implemented("round_cpu" if decimals else "round_vml_cpu", input.dtype)
    decimals = decimals or 0
    data = quietly(np.round, input._data, decimals)  # (x * 10**decimals may overflow: inf)
    out = Tensor._wrap(in_iterator_layout(data, input._data))
    if should_record(input):  # (an integer result raises, as in PyTorch)
        node = RoundBackward1() if decimals else RoundBackward0()
        if decimals:
            node._s_decimals = decimals
        record(node, out, input)
    return out


# ---------------------------------------------------------------- tests for NaN and inf
def _test(name: str, fn):
    def op(input):
        d = input._data
        return Tensor._wrap(in_iterator_layout(
            fn(d) if d.dtype.kind == "f" else np.full(d.shape, name == "isfinite"), d))

    op.__name__ = name
    op.__doc__ = f"``{name}`` elementwise: a bool tensor."
    return method(name)(op)


isnan = _test("isnan", np.isnan)
isinf = _test("isinf", np.isinf)
isfinite = _test("isfinite", np.isfinite)
isposinf = _test("isposinf", np.isposinf)
isneginf = _test("isneginf", np.isneginf)


class NanToNumBackward0(Node):
    """The node of ``nan_to_num(self)``."""

    rule = _r("z = nan_to_num(a, nan, posinf, neginf)", {"a": "self"}, a="grad * isfinite(a)")

    saved = ("self",)
    saved_tensors_names = ("self",)


@formula_function(name="isfinite")
def _finite(x):
    """Where ``x`` is finite, as a constant mask (a formula multiplies by it)."""
    return np.isfinite(F.data(x))


@method("nan_to_num", inplace=True)
def nan_to_num(input, nan: float = 0.0, posinf=None, neginf=None):
    """NaN to ``nan``, +inf/-inf to ``posinf``/``neginf`` (the dtype's largest/smallest)."""
    d = input._data
    # (an integer tensor is copied; with a history, its record raises, as in PyTorch)
    data = np.nan_to_num(d, nan=nan, posinf=posinf, neginf=neginf) if d.dtype.kind == "f" \
        else d.copy()
    out = Tensor._wrap(like_input(data, d))  # (empty_like(input), as PyTorch's)
    if should_record(input):
        node = NanToNumBackward0()
        node._s_self = SavedTensor(input)
        record(node, out, input)
    return out


def nan_to_num_(self, *args, **kwargs):
    """In-place ``nan_to_num``: PyTorch copies an integer or bool tensor onto itself, which
    expanded memory allows (as a fill); with a history that raises (its out-of-place op's)."""
    from .inplace import apply_inplace  # (late: the in-place recipe builds on the ops)

    return apply_inplace(self, Tensor.nan_to_num, *args, any_dtype=False,
                         fills=self._data.dtype.kind in "iub", **kwargs)


Tensor.nan_to_num_ = nan_to_num_
