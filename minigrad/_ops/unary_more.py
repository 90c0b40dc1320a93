"""More elementwise functions of one tensor: rounding, logs and exponentials, trigonometric and
hyperbolic functions, ``erf``, ``rsqrt``, and the NaN/inf tests.

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

from .._quiet import quiet, quietly, restore
from .._tensor import Tensor
from ..autograd.graph import Node, SavedTensor, record, should_record
from . import _formula as F
from ._backward import call, scale, sign_data
from ._backward import rsqrt as _rsqrt
from ._core import method, value
from .arithmetic import add_number
from .errors import not_implemented
from .rounding import HALF
from .unary import floats

__all__ = ["floor", "ceil", "round", "trunc", "sign", "log1p", "expm1", "log2", "log10", "tan",
           "atan", "asin", "acos", "sinh", "cosh", "erf", "rsqrt", "isnan", "isinf",
           "isfinite", "nan_to_num", "frac", "fix", "sgn", "arctan", "arcsin", "arccos",
           "isposinf", "isneginf", "erfc", "negative"]

_SQRT_PI = math.sqrt(math.pi)


def _erf(a: np.ndarray) -> np.ndarray:
    """The error function, elementwise (NumPy has none; ``math.erf`` is exact to the ulp)."""
    return np.vectorize(math.erf, otypes=[a.dtype])(a) if a.size else a.copy()


class _Unary(Node):
    """The gradient is ``self.formula(grad, x, result)``, PyTorch's formula for the op."""

    saved = ("self",)
    saved_tensors_names = ("self",)
    formula = None

    def backward(self, g):
        x = value(self._s_self) if "self" in self.saved else None
        r = value(self._s_result) if "result" in self.saved else None
        return (type(self).formula(g, x, r),)


def _zero(g, x, r):
    return F.zeros_like(g)


_C = 2 / _SQRT_PI
# name: (numpy forward, node name, saved, formula(grad, x, result) as in PyTorch's
# derivatives.yaml, integer inputs stay integer)
_TABLE = {
    "floor": (np.floor, "FloorBackward0", (), _zero, True),
    "ceil": (np.ceil, "CeilBackward0", (), _zero, True),
    "trunc": (np.trunc, "TruncBackward0", (), _zero, True),
    "sign": (sign_data, "SignBackward0", (), _zero, True),
    "sgn": (sign_data, "SgnBackward0", ("self", "result"), _zero, True),
    "log1p": (np.log1p, "Log1PBackward0", ("self",), lambda g, x, r: g / add_number(x, 1), False),
    "expm1": (np.expm1, "Expm1Backward0", ("result",), lambda g, x, r: g * add_number(r, 1),
              False),
    "log2": (np.log2, "Log2Backward0", ("self",), lambda g, x, r: g / scale(x, math.log(2)),
             False),
    "log10": (np.log10, "Log10Backward0", ("self",),
              lambda g, x, r: g / scale(x, math.log(10)), False),
    "tan": (np.tan, "TanBackward0", ("result",), lambda g, x, r: g * add_number(r ** 2, 1),
            False),
    "atan": (np.arctan, "AtanBackward0", ("self",), lambda g, x, r: g / add_number(x * x, 1),
             False),
    "asin": (np.arcsin, "AsinBackward0", ("self",),
             lambda g, x, r: g * _rsqrt(add_number(-x * x, 1)), False),
    "acos": (np.arccos, "AcosBackward0", ("self",),
             lambda g, x, r: g * -_rsqrt(add_number(-x * x, 1)), False),
    "sinh": (np.sinh, "SinhBackward0", ("self",), lambda g, x, r: g * call(x, "cosh"), False),
    "cosh": (np.cosh, "CoshBackward0", ("self",), lambda g, x, r: g * call(x, "sinh"), False),
    "erf": (_erf, "ErfBackward0", ("self",),
            lambda g, x, r: scale(call(-(x ** 2), "exp"), _C) * g, False),
    "erfc": (lambda a: 1 - _erf(a), "ErfcBackward0", ("self",),
             lambda g, x, r: scale(call(-(x ** 2), "exp"), -_C) * g, False),
    "rsqrt": (lambda a: 1 / np.sqrt(a), "RsqrtBackward0", ("result",),
              lambda g, x, r: scale(g, -0.5) * r ** 3, False),
    "frac": (lambda a: a - np.trunc(a), "FracBackward0", (), lambda g, x, r: g, True),
}


def _make(name: str, forward, node_name: str, saved: tuple, formula, keep_int: bool):
    node_cls = type(node_name, (_Unary,), {
        "saved": saved, "saved_tensors_names": saved, "formula": staticmethod(formula),
        "__doc__": f"z = {name}(self): the gradient's formula is in unary_more._TABLE.",
        "__module__": __name__})

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
        out = Tensor._wrap(data)
        if should_record(input):  # (an integer result raises, as in PyTorch)
            node = node_cls()
            if "self" in saved:
                node._s_self = SavedTensor(input)
            record(node, out, input)
            if "result" in saved:
                node._s_result = SavedTensor(out, node)
        return out

    op.__name__ = name
    op.__doc__ = f"``{name}`` elementwise (node ``{node_name}``)."
    return method(name)(op), node_cls


floor, FloorBackward0 = _make("floor", *_TABLE["floor"])
ceil, CeilBackward0 = _make("ceil", *_TABLE["ceil"])
trunc, TruncBackward0 = _make("trunc", *_TABLE["trunc"])
sign, SignBackward0 = _make("sign", *_TABLE["sign"])
sgn, SgnBackward0 = _make("sgn", *_TABLE["sgn"])
log1p, Log1PBackward0 = _make("log1p", *_TABLE["log1p"])
expm1, Expm1Backward0 = _make("expm1", *_TABLE["expm1"])
log2, Log2Backward0 = _make("log2", *_TABLE["log2"])
log10, Log10Backward0 = _make("log10", *_TABLE["log10"])
tan, TanBackward0 = _make("tan", *_TABLE["tan"])
atan, AtanBackward0 = _make("atan", *_TABLE["atan"])
asin, AsinBackward0 = _make("asin", *_TABLE["asin"])
acos, AcosBackward0 = _make("acos", *_TABLE["acos"])
sinh, SinhBackward0 = _make("sinh", *_TABLE["sinh"])
cosh, CoshBackward0 = _make("cosh", *_TABLE["cosh"])
erf, ErfBackward0 = _make("erf", *_TABLE["erf"])
erfc, ErfcBackward0 = _make("erfc", *_TABLE["erfc"])
rsqrt, RsqrtBackward0 = _make("rsqrt", *_TABLE["rsqrt"])
frac, FracBackward0 = _make("frac", *_TABLE["frac"])

fix = method("fix")(globals()["trunc"])
arctan = method("arctan")(globals()["atan"])
arcsin = method("arcsin")(globals()["asin"])
arccos = method("arccos")(globals()["acos"])
negative = method("negative")(Tensor.neg)


# ---------------------------------------------------------------- round (with decimals)
class RoundBackward0(Node):
    """z = round(self):  dz/dself = 0 (piecewise constant)."""

    def backward(self, g):
        return (g * 0,)


class RoundBackward1(RoundBackward0):
    """z = round(self, decimals):  dz/dself = 0."""

    saved = ("decimals",)


@method("round")
def round(input, *, decimals: int | None = None):  # noqa: A001 - PyTorch's name
    """Round half to even (as PyTorch), to ``decimals`` places (integers only without them)."""
    kind = input._data.dtype.kind
    if kind == "b" or kind in "iu" and decimals is not None:
        raise not_implemented("round_cpu" if decimals else "round_vml_cpu", input.dtype)
    decimals = decimals or 0
    data = quietly(np.round, input._data, decimals)  # (x * 10**decimals may overflow: inf)
    out = Tensor._wrap(data)
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
        return Tensor._wrap(fn(d) if d.dtype.kind == "f" else np.full(d.shape, name == "isfinite"))

    op.__name__ = name
    op.__doc__ = f"``{name}`` elementwise: a bool tensor."
    return method(name)(op)


isnan = _test("isnan", np.isnan)
isinf = _test("isinf", np.isinf)
isfinite = _test("isfinite", np.isfinite)
isposinf = _test("isposinf", np.isposinf)
isneginf = _test("isneginf", np.isneginf)


class NanToNumBackward0(Node):
    """z = nan_to_num(self):  dz/dself = 1 where self is finite, else 0."""

    saved = ("self",)
    saved_tensors_names = ("self",)

    def backward(self, g):
        return (g * np.isfinite(F.data(value(self._s_self))),)


@method("nan_to_num")
def nan_to_num(input, nan: float = 0.0, posinf=None, neginf=None):
    """NaN to ``nan``, +inf/-inf to ``posinf``/``neginf`` (the dtype's largest/smallest)."""
    d = input._data
    # (an integer tensor is copied; with a history, its record raises, as in PyTorch)
    data = np.nan_to_num(d, nan=nan, posinf=posinf, neginf=neginf) if d.dtype.kind == "f" \
        else d.copy()
    out = Tensor._wrap(data)
    if should_record(input):
        node = NanToNumBackward0()
        node._s_self = SavedTensor(input)
        record(node, out, input)
    return out
