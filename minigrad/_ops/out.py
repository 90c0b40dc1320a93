"""``out=``: the torch functions that write their result into a tensor given to them,
``torch.add(x, y, out=result)``, as PyTorch does it.

The result is computed as without ``out``, then written into ``out`` (which is returned, the
same object). PyTorch's rules, by kind of function (``KINDS``):

- an op on elements (and ``cat``/``stack``, the reductions that take no ``dtype``): the
  result's dtype must cast to ``out``'s (an int ``out`` refuses a float result, a float one
  takes an int result); ``out`` of another shape is resized, with a warning if it had
  elements;
- ``sum``, ``prod``, ``mean``, ``cumsum``, ``cumprod``: computed in ``out``'s dtype;
- ``matmul``, ``mm``, ``bmm``, ``gather``, ``scatter``...: ``out`` must have the result's
  dtype;
- the factories (``zeros``, ``arange``, ``linspace``...): made in ``out``'s dtype, resized
  without a warning.

Nothing is recorded: when grad mode is on and an argument (``out`` too) requires grad,
PyTorch's error. ``out`` is changed in place (its version goes up), so memory it shares
partly with an input is refused, as in the in-place ops. Only the torch functions take
``out=``, not the methods (``x.add(y, out=r)`` is a TypeError in PyTorch too).

Where a function is declared without an ``out`` parameter, ``attach`` gives the torch
function a thin wrapper; where it has one (``add``, ``mul``, ``cat``...), its own
``if out is not None`` calls :func:`write_out`: a call without ``out`` pays nothing more.

>>> import minigrad as torch
>>> result = torch.empty(2)
>>> torch.add(torch.ones(2), torch.ones(2), out=result) is result, result
(True, tensor([2., 2.]))
"""

from __future__ import annotations

import functools
import warnings

from .._dtype import can_cast
from .._tensor import Tensor
from .._types import invalid_combination
from ..autograd.engine import _user_stacklevel
from ..autograd.grad_mode import is_grad_enabled
from ._core import METHOD
from .inplace_checks import bump_version, check_memory
from .inplace_shape import resized_data

__all__ = ["KINDS", "write_out", "attach"]

CAST, IN_DTYPE, SAME_DTYPE, JOIN, FACTORY = "cast", "in dtype", "same dtype", "join", "factory"

KINDS = {name: CAST for name in (
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "neg",
    "negative", "abs", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt",
    "rsqrt", "square", "sin", "cos", "tan", "tanh", "sigmoid", "sinh", "cosh", "asin", "acos",
    "atan", "atan2", "pow", "clamp", "clip", "floor", "ceil", "round", "trunc", "frac", "sign",
    "reciprocal", "maximum", "minimum", "fmax", "fmin", "fmod", "remainder", "hypot", "erf",
    "erfc", "xlogy", "addcmul", "addcdiv", "lerp", "eq", "ne", "lt", "le", "gt", "ge",
    "logical_and", "logical_or", "logical_xor", "logical_not", "where", "amax", "amin",
    "logsumexp", "std", "var", "all", "any")}
KINDS.update({name: IN_DTYPE for name in ("sum", "prod", "mean", "cumsum", "cumprod")})
# ops whose out must have the result's dtype, and PyTorch's message (default: matmul's)
_SAME = {"index_select": "index_select(): self and result must have the same scalar type",
         "amax": "Expected the dtype for input and out to match, but got {have} for input's "
                 "dtype and {want} for out's dtype.",
         "all": "all only supports bool tensor for result, got: {want}",
         "any": "any only supports bool tensor for result, got: {want}",
         "where": "Expected out type to be {have} but got {want}"}
_SAME["amin"] = _SAME["amax"]
_SAME.update({name: "Found dtype {want} but expected {have}" for name in (
    "abs", "ceil", "floor", "frac", "lerp", "neg", "negative", "round", "sign", "trunc", "clamp",
    "clip")})
KINDS.update({name: SAME_DTYPE for name in (
    "matmul", "mm", "bmm", "gather", "index_select", "scatter", "scatter_add", "index_add",
    *_SAME)})
KINDS.update({name: JOIN for name in ("cat", "concat", "concatenate", "stack")})
KINDS.update({name: FACTORY for name in (
    "zeros", "ones", "full", "empty", "arange", "linspace", "logspace", "eye", "rand", "randn")})

_NEED_DIM = ("sum", "mean", "prod")  # (their forms without a dim take no out=)
_RESIZED = ("An output with one or more elements was resized since it had shape {}, which does "
            "not match the required output shape {}. This behavior is deprecated, and in a "
            "future PyTorch release outputs will not be resized unless they have zero elements. "
            "You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
            "with t.resize_(0).")


def write_out(fn, out, *args, **kwargs):
    """``fn(*args, **kwargs)`` written into ``out`` (see the module docstring); ``fn`` is the
    torch function, called again without ``out``."""
    form = kwargs.get("_form")
    name = form[0] if form is not None else fn.__name__
    if form is not None and form[1] == METHOD:  # (a method: the overloaded ones list theirs)
        if name in ("add", "sub", "mul", "div") or name.endswith("_"):
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        kwargs.pop("_form")
        raise invalid_combination(name, args[1:], {**kwargs, "out": out})
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    kind = KINDS.get(name, CAST)
    if kind == FACTORY:
        return _factory(fn, out, args, kwargs)
    inputs = [t for a in (*args, *kwargs.values())
              for t in (a if isinstance(a, (list, tuple)) else (a,)) if isinstance(t, Tensor)]
    if is_grad_enabled() and (out.requires_grad or any(t.requires_grad for t in inputs)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    check_memory(out, inputs)
    if kind == IN_DTYPE:
        if name in _NEED_DIM and len(args) < 2 and "dim" not in kwargs:
            raise invalid_combination(name, args, {**kwargs, "out": out})
        if name == "mean" and not can_cast(_input_dtype(inputs), out.dtype):
            raise RuntimeError(_cast_error(_input_dtype(inputs), out.dtype))
        result = fn(*args, **kwargs, dtype=out.dtype)
    else:
        result = fn(*args, **kwargs)
        if name == "stack":  # (stack resizes out before cat's check of its dtype)
            _write(out, result, warn=True, values=False)
        _check_dtype(name, kind, result.dtype, out.dtype)
    return _write(out, result, warn=True)


def _input_dtype(inputs):
    return inputs[0].dtype


def _cast_error(have, want) -> str:
    return f"result type {have._cpp} can't be cast to the desired output type {want._cpp}"


def _check_dtype(name: str, kind: str, have, want) -> None:
    if kind == SAME_DTYPE and have is not want:
        if name in _SAME:
            raise RuntimeError(_SAME[name].format(have=have._cpp, want=want._cpp))
        raise RuntimeError(f"Expected out tensor to have dtype {have._c_type}, but got "
                           f"{want._c_type} instead")
    if kind == JOIN and not can_cast(have, want):
        raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                        f"{want._cpp}")
    if not can_cast(have, want):
        raise RuntimeError(_cast_error(have, want))


def _factory(fn, out, args, kwargs):
    dtype = kwargs.pop("dtype", None)
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"dtype {dtype._cpp} does not match dtype of out parameter "
                           f"({out.dtype._cpp})")
    requires_grad = kwargs.pop("requires_grad", False)
    result = fn(*args, **kwargs, dtype=out.dtype)
    n, have = result._data.size, out._data.size
    if fn.__name__ == "arange" and have and have != n:
        warnings.warn(f"The number of elements in the out tensor of shape {list(out.shape)} is "
                      f"{have} which does not match the computed number of elements {n}. Note "
                      "that this may occur as a result of rounding error. The out tensor will be "
                      f"resized to a tensor of shape ({n},).", UserWarning,
                      stacklevel=_user_stacklevel())
    _write(out, result, warn=False)
    if requires_grad:
        out.requires_grad_()
    return out


def _write(out, result, warn: bool, values: bool = True):
    """``result`` written into ``out`` (``values=False``: only ``out`` resized to it)."""
    shape = result._data.shape
    if out._data.shape != shape:
        if warn and out._data.size:
            warnings.warn(_RESIZED.format(list(out.shape), list(shape)), UserWarning,
                          stacklevel=_user_stacklevel())
        out._data = resized_data(out, shape)
    if not values:
        return out
    out._data[...] = result._data
    bump_version(out)
    return out


def _with_out(fn, name: str):
    """The torch function ``fn`` (declared without ``out``) taking ``out=``."""
    @functools.wraps(fn)
    def with_out(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        return write_out(with_out, out, *args, **kwargs)

    with_out.__name__ = with_out.__qualname__ = name
    return with_out


def attach(namespace: dict) -> None:
    """Give the functions of ``namespace`` (``minigrad``'s) that PyTorch gives ``out=`` it:
    a wrapper where the function has no ``out`` parameter of its own."""
    for name in KINDS:
        fn = namespace.get(name)
        if fn is None:
            continue
        code = getattr(getattr(fn, "__wrapped__", fn), "__code__", None)
        if code is None or "out" not in code.co_varnames[:code.co_argcount +
                                                       code.co_kwonlyargcount]:
            namespace[name] = _with_out(fn, name)
