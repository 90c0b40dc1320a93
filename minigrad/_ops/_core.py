"""What the op files share: operands and result dtypes, saved values, attaching methods.

Recording is not here: every op asks :func:`minigrad.autograd.graph.should_record` whether to
build a node and attaches it with :func:`minigrad.autograd.graph.record`.
"""

from __future__ import annotations

import inspect
import types

import numpy as np

from .. import _dtype
from .._dtype import _Defaults, from_numpy_dtype, result_type
from .._layout import in_iterator_layout, like_input
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd.graph import SavedTensor
from .rounding import HALF

__all__ = ["binary_operands", "broadcast_error", "value", "method", "wrap_scalar", "to_tensor",
           "dtype_of", "called_as", "FUNCTION", "METHOD", "OPERATOR", "MISSING",
           "floor_div_floats", "quiet_array", "INPLACE_VARIANTS", "in_iterator_layout",
           "like_input"]

_SCALARS = (int, float, bool)
_F32_MAX = 3.4028234663852886e38  # a larger Python float is inf in float32 (and float16)


INPLACE_VARIANTS: list = []  # ops declared with inplace=True (inplace.py makes their x.op_())


def method(*names, inplace: bool = False, python: bool = False):
    """Attach the decorated function to ``Tensor`` under ``names`` (its own name by default);
    ``inplace=True``: also its in-place method ``x.<name>_()`` (made in ``inplace.py``);
    ``python=True``: a method PyTorch writes in Python (``torch/_tensor.py``), whose argument
    errors say ``Tensor.<name>()`` (the method is then a copy named so, the function not)."""

    def deco(fn):
        for name in names or (fn.__name__,):
            setattr(Tensor, name, _named_copy(fn, f"Tensor.{name}") if python else fn)
        if inplace:
            INPLACE_VARIANTS.append((names or (fn.__name__,))[0])
        return fn

    return deco


def _named_copy(fn, qualname: str):
    """The same code under another ``__qualname__`` (what Python's TypeErrors print)."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    copy.__kwdefaults__, copy.__doc__, copy.__module__ = fn.__kwdefaults__, fn.__doc__, \
        fn.__module__
    copy.__annotations__, copy.__qualname__ = fn.__annotations__, qualname
    return copy


# How an op was called, for its answer to an operand it cannot use (``_form=(name, how)``)
FUNCTION, METHOD, OPERATOR = "function", "method", "operator"
MISSING = object()  # an operand not given (``x.mul()``): PyTorch's "missing" message


def called_as(fn, name: str, how: str):
    """``fn`` under the name ``name``, called as a ``how`` (FUNCTION, METHOD, OPERATOR).

    The same code, not a wrapper (nothing extra per call): only ``fn``'s ``_form`` keyword
    defaults to ``(name, how)``. An op reads it only for an operand it cannot use, where
    PyTorch's answer depends on the call: ``torch.mul(x, 'a')`` and ``x.mul('a')`` count
    positions differently, ``torch.multiply`` has another message, and ``x * 'a'`` returns
    NotImplemented (Python then tries ``'a'.__rmul__`` and raises its own TypeError).
    """
    copy = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__,
                              fn.__closure__)
    copy.__kwdefaults__ = {**fn.__kwdefaults__, "_form": (name, how)}
    copy.__doc__, copy.__module__, copy.__annotations__ = fn.__doc__, fn.__module__, \
        fn.__annotations__
    copy.__qualname__ = name
    sig = inspect.signature(fn)  # what help() and the stub show: PyTorch's parameters
    copy.__signature__ = sig.replace(parameters=[
        p.replace(default=p.empty) if p.default is MISSING else p
        for p in sig.parameters.values() if p.name != "_form"])
    return copy


def value(saved):
    """What a backward formula uses of a saved value: array/tensor for a SavedTensor, else as is."""
    return saved.get() if type(saved) is SavedTensor else saved


def wrap_scalar(x) -> Tensor:
    """A Python number as the 0-d tensor PyTorch makes of it (int64, float64 or bool)."""
    return Tensor._wrap(np.array(x))


def to_tensor(x) -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, _SCALARS) or isinstance(x, np.generic):
        return Tensor._wrap(np.array(x, dtype=result_type(x).np))
    raise TypeError(f"expected Tensor as element 1 in argument 0, but got {type(x).__name__}")


def binary_operands(a, b, float_result: bool = False):
    """The arrays (or weak Python scalars) to compute with, and the result's NumPy dtype.

    NumPy's own promotion differs from PyTorch's (``int64 * 2.5`` is float64 in NumPy,
    float32 in PyTorch), so operands are cast to PyTorch's result dtype where they differ.
    """
    ta = type(a) is Tensor or isinstance(a, Tensor)
    tb = type(b) is Tensor or isinstance(b, Tensor)
    if ta and tb:
        da, db = a._data.dtype, b._data.dtype
        if da is db and (da.kind == "f" or not float_result):
            return a._data, b._data, da
        rd = result_type(a, b)
    elif ta:
        if type(b) not in (float, int, bool):
            if isinstance(b, np.ndarray):
                return binary_operands(a, Tensor._wrap(b), float_result)
            if not isinstance(b, _SCALARS + (np.generic,)):
                return NotImplemented, None, None
            b = b.item() if isinstance(b, np.generic) else b
        da = a._data.dtype
        if da.kind == "f" and type(b) is not complex:
            if type(b) is float and (da is HALF or not -_F32_MAX <= b <= _F32_MAX):
                b = weak_float(b, da)
            return a._data, b, da
        rd = result_type(a, b)
    else:
        if not tb or not isinstance(a, _SCALARS + (np.generic,)):
            return NotImplemented, None, None
        a = a.item() if isinstance(a, np.generic) else a
        db = b._data.dtype
        if db.kind == "f":
            if type(a) is float and (db is HALF or not -_F32_MAX <= a <= _F32_MAX):
                a = weak_float(a, db)
            return a, b._data, db
        rd = result_type(a, b)
    if float_result and not rd.is_floating_point:
        rd = _Defaults.float
    nd = rd.np
    xa = a._data if ta else np.asarray(a)
    xb = b._data if tb else np.asarray(b)
    return (xa if xa.dtype == nd else xa.astype(nd), xb if xb.dtype == nd else xb.astype(nd), nd)


def quiet_array(fn, a, b, dtype) -> np.ndarray:
    """``fn(a, b)`` as an array of ``dtype``, computed with NumPy's warnings off (``_quiet``):
    inf and NaN as PyTorch gives them, silently."""
    token = quiet()
    try:
        return np.asarray(fn(a, b)).astype(dtype, copy=False)
    finally:
        restore(token)


def floor_div_floats(a, b):
    """Float floor division as PyTorch's kernel computes it: ``(a - fmod(a, b)) / b`` rounded
    down (so ``inf // 2`` is NaN, not inf), IEEE's ``a / b`` where ``b`` is 0. Callers run it
    quietly (``_quiet``): inf and NaN without NumPy's warnings."""
    mod = np.fmod(a, b)
    div = (a - mod) / b
    div = np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), div - 1, div)
    floor = np.floor(div)
    floor = np.where(div - floor > 0.5, floor + 1, floor)
    floor = np.where(div != 0, floor, np.copysign(0, a / b))
    return np.where(np.asarray(b) == 0, a / b, floor)


def weak_float(x: float, dtype) -> float:
    """A Python float as an array of ``dtype`` would hold it (1e39 in float32 is inf), without
    NumPy's overflow warning: PyTorch gives inf silently. float16 holds it as PyTorch converts
    it: through float32 (``1 + 2**-11 + 2**-40`` is 1.0, not NumPy's 1.000977)."""
    return float(_dtype.cast(np.asarray(x, np.float64), np.dtype(dtype)))


def broadcast_error(*operands) -> RuntimeError:
    """PyTorch's error for operands whose shapes do not broadcast (NumPy raises ValueError).

    Shapes are combined left to right, as PyTorch does: the message names the first pair
    (the shape so far, the next operand's) that does not fit.
    """
    sa = tuple(getattr(operands[0], "shape", ()))
    for b in operands[1:]:
        sb = tuple(getattr(b, "shape", ()))
        for i in range(1, min(len(sa), len(sb)) + 1):
            x, y = sa[-i], sb[-i]
            if x != y and x != 1 and y != 1:
                return RuntimeError(
                    f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                    f"non-singleton dimension {max(len(sa), len(sb)) - i}")
        sa = np.broadcast_shapes(sa, sb)
    return RuntimeError(f"shapes {tuple(sa)} do not broadcast")


def dtype_of(npdtype):
    return from_numpy_dtype(npdtype)
