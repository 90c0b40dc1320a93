"""Comparisons and logic: ``==``, ``<``, ..., ``all``/``any``, ``&``, ``|``, ``^``, ``~``.

They return ``bool`` tensors and are not differentiable (no ``grad_fn``). Operands are
compared in PyTorch's promoted dtype, so ``int_tensor < 2.5`` compares as floats.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2., 3.], requires_grad=True)
>>> x > 1.5
tensor([False,  True,  True])
>>> (x == 2).any(), torch.equal(x, x.clone())
(tensor(True), True)
"""

from __future__ import annotations

import numpy as np

from ._core import Tensor, binary_operands, dtype_of, method
from .reduce import _dims

__all__ = ["eq", "ne", "lt", "le", "gt", "ge", "not_equal", "less", "less_equal", "greater",
           "greater_equal", "equal", "isclose", "allclose", "all", "any",
           "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
           "bitwise_or", "bitwise_xor", "bitwise_not"]


def _compare(ufunc, input, other):
    a, b, _ = binary_operands(input, other)
    if a is NotImplemented:
        return NotImplemented
    try:
        return Tensor._wrap(np.asarray(ufunc(a, b)))
    except ValueError:
        from .arithmetic import broadcast_error

        raise broadcast_error(input, other) from None


def _comparison(name: str, ufunc, dunder: str):
    def op(input, other, *, out=None):
        return _compare(ufunc, input, other)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``input {dunder} other`` elementwise, as a bool tensor (broadcasting)."
    return op


eq = _comparison("eq", np.equal, "==")
ne = _comparison("ne", np.not_equal, "!=")
lt = _comparison("lt", np.less, "<")
le = _comparison("le", np.less_equal, "<=")
gt = _comparison("gt", np.greater, ">")
ge = _comparison("ge", np.greater_equal, ">=")

for _fn, _names in ((eq, ("eq", "__eq__")), (ne, ("ne", "__ne__", "not_equal")),
                    (lt, ("lt", "__lt__", "less")), (le, ("le", "__le__", "less_equal")),
                    (gt, ("gt", "__gt__", "greater")), (ge, ("ge", "__ge__", "greater_equal"))):
    method(*_names)(_fn)
not_equal, less, less_equal, greater, greater_equal = ne, lt, le, gt, ge


def equal(input, other) -> bool:
    """Whether both tensors have the same shape and the same values."""
    if input._data.shape != other._data.shape:
        return False
    return bool(np.array_equal(input._data, other._data))


def isclose(input, other, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False):
    """``|input - other| <= atol + rtol * |other|`` elementwise, as a bool tensor."""
    a, b = input._data, other._data if isinstance(other, Tensor) else other
    if isinstance(other, Tensor) and a.dtype != b.dtype:
        raise RuntimeError(f"{input.dtype._legacy_name[:-6]} did not match "
                           f"{other.dtype._legacy_name[:-6]}")
    return Tensor._wrap(np.asarray(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def allclose(input, other, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether every element of ``input`` is close to ``other`` (see ``isclose``)."""
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())


method("equal")(equal)
method("isclose")(isclose)
method("allclose")(allclose)


# ---------------------------------------------------------------- all / any
def _reduce_bool(np_fn, input, dim, keepdim):
    data = input._data
    axes = None if dim is None else _dims(input, dim)
    out = np.asarray(np_fn(data, axis=axes, keepdims=keepdim))
    return Tensor._wrap(out.astype(np.uint8) if data.dtype == np.uint8 else out)


@method("all")
def all(input, dim=None, keepdim: bool = False, *, out=None):  # noqa: A001
    """Whether all elements (or all along ``dim``) are non-zero."""
    return _reduce_bool(np.all, input, dim, keepdim)


@method("any")
def any(input, dim=None, keepdim: bool = False, *, out=None):  # noqa: A001
    """Whether any element (or any along ``dim``) is non-zero."""
    return _reduce_bool(np.any, input, dim, keepdim)


# ---------------------------------------------------------------- logical and bitwise
def _tensor_arg(name: str, other):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    return other


@method("logical_and")
def logical_and(input, other):
    """Elementwise ``input and other`` (non-zero counts as True), as a bool tensor."""
    return Tensor._wrap(np.logical_and(input._data, _tensor_arg("logical_and", other)._data))


@method("logical_or")
def logical_or(input, other):
    return Tensor._wrap(np.logical_or(input._data, _tensor_arg("logical_or", other)._data))


@method("logical_xor")
def logical_xor(input, other):
    return Tensor._wrap(np.logical_xor(input._data, _tensor_arg("logical_xor", other)._data))


@method("logical_not")
def logical_not(input):
    return Tensor._wrap(np.asarray(np.logical_not(input._data)))


def _bitwise(ufunc, kernel: str):
    def op(input, other):
        a, b, dt = binary_operands(input, other)
        if a is NotImplemented:
            return NotImplemented
        if dt.kind == "f":
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for '
                                      f"'{dtype_of(dt)._legacy_name[:-6]}'")
        return Tensor._wrap(np.asarray(ufunc(a, b)).astype(dt, copy=False))

    op.__name__ = kernel
    op.__doc__ = f"Elementwise {kernel} of integer or bool tensors."
    return op


bitwise_and = method("bitwise_and", "__and__")(_bitwise(np.bitwise_and, "bitwise_and"))
bitwise_or = method("bitwise_or", "__or__")(_bitwise(np.bitwise_or, "bitwise_or"))
bitwise_xor = method("bitwise_xor", "__xor__")(_bitwise(np.bitwise_xor, "bitwise_xor"))
Tensor.__rand__ = lambda self, other: bitwise_and(other, self)
Tensor.__ror__ = lambda self, other: bitwise_or(other, self)
Tensor.__rxor__ = lambda self, other: bitwise_xor(other, self)


@method("bitwise_not", "__invert__")
def bitwise_not(input):
    """``~input``: logical not of a bool tensor, bitwise not of an integer one."""
    if input._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return Tensor._wrap(np.asarray(np.invert(input._data)))
