"""Comparisons and logic (``==``, ``<``, ..., ``all``/``any``, ``&``, ``|``, ``^``, ``~``), and
choosing by a condition (``where``, ``masked_fill``).

Comparisons return ``bool`` tensors and are not differentiable (no ``grad_fn``). Operands are
compared in PyTorch's promoted dtype, so ``int_tensor < 2.5`` compares as floats. ``where``
and ``masked_fill`` are differentiable in the values they choose from.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2., 3.], requires_grad=True)
>>> x > 1.5
tensor([False,  True,  True])
>>> (x == 2).any(), torch.equal(x, x.clone())
(tensor(True), True)
"""

from __future__ import annotations

import numpy as np

from .._dtype import cast, result_type
from .._layout import as_given, in_iterator_layout, row_major
from .._tensor import Tensor
from .._tensor_data import fill_value
from .._types import invalid_combination
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._backward import masked_sum, masked_zero
from ._core import FUNCTION, MISSING, binary_operands, broadcast_error, dtype_of, method
from .arguments import bad_operand
from .reduce import _dims

__all__ = ["eq", "ne", "lt", "le", "gt", "ge", "not_equal", "less", "less_equal", "greater",
           "greater_equal", "equal", "isclose", "allclose", "all", "any",
           "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
           "bitwise_or", "bitwise_xor", "bitwise_not", "where", "nonzero", "masked_fill",
           "is_nonzero"]


def _compare(ufunc, input, other):
    a, b, _ = binary_operands(input, other)
    if a is NotImplemented:
        return NotImplemented
    try:
        return Tensor._wrap(in_iterator_layout(np.asarray(ufunc(a, b)), as_given(input, a),
                                               as_given(other, b)))
    except ValueError:
        raise broadcast_error(input, other) from None


def _comparison(name: str, ufunc, dunder: str):
    def op(input=MISSING, other=MISSING, *, out=None, _form=(name, FUNCTION)):
        if out is not None:
            from .out import write_out
            return write_out(op, out, input, other, _form=_form)
        result = _compare(ufunc, input, other)
        if result is NotImplemented:  # (an operand that is no tensor or number: the rare path)
            return bad_operand(_form, op, input, other)
        return result

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
    try:
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    except ValueError:
        raise broadcast_error(input, other) from None
    return Tensor._wrap(np.asarray(close))


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
    if not data.ndim:  # a 0-d tensor: dim 0 or -1 names the tensor itself
        axes = None
    out = np.asarray(np_fn(data, axis=axes, keepdims=keepdim))
    return Tensor._wrap(row_major(out.astype(np.uint8) if data.dtype == np.uint8 else out))


@method("all")
def all(input, dim=None, keepdim: bool = False, *, out=None):  # noqa: A001
    """Whether all elements (or all along ``dim``) are non-zero."""
    if out is not None:
        from .out import write_out
        return write_out(all, out, input, dim, keepdim)
    return _reduce_bool(np.all, input, dim, keepdim)


@method("any")
def any(input, dim=None, keepdim: bool = False, *, out=None):  # noqa: A001
    """Whether any element (or any along ``dim``) is non-zero."""
    if out is not None:
        from .out import write_out
        return write_out(any, out, input, dim, keepdim)
    return _reduce_bool(np.any, input, dim, keepdim)


# ---------------------------------------------------------------- logical and bitwise
def _logical(ufunc, input, other):
    try:
        a, b = input._data, other._data
        return Tensor._wrap(in_iterator_layout(np.asarray(ufunc(a, b)), as_given(input, a),
                                               as_given(other, b)))
    except ValueError:
        raise broadcast_error(input, other) from None


@method("logical_and")
def logical_and(input, other):
    """Elementwise ``input and other`` (non-zero counts as True), as a bool tensor."""
    return _logical(np.logical_and, input, other)


@method("logical_or")
def logical_or(input, other):
    return _logical(np.logical_or, input, other)


@method("logical_xor")
def logical_xor(input, other):
    return _logical(np.logical_xor, input, other)


@method("logical_not")
def logical_not(input):
    return Tensor._wrap(in_iterator_layout(np.asarray(np.logical_not(input._data)), input._data))


@method("is_nonzero")
def is_nonzero(input) -> bool:
    """Whether the one element of ``input`` is not zero (``bool(input)``)."""
    if not isinstance(input, Tensor):
        raise TypeError("is_nonzero(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return bool(input)


def _bitwise(ufunc, kernel: str):
    def op(input, other):
        a, b, dt = binary_operands(input, other)
        if a is NotImplemented:
            return NotImplemented
        should_record(input, other)  # (autograd reads a view's history before the kernel)
        try:
            np.broadcast_shapes(np.shape(a), np.shape(b))
        except ValueError:
            raise broadcast_error(input, other) from None
        if dt.kind == "f":
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for '
                                      f"'{dtype_of(dt)._legacy_name[:-6]}'")
        out = np.asarray(ufunc(a, b)).astype(dt, copy=False)
        return Tensor._wrap(in_iterator_layout(out, as_given(input, a), as_given(other, b)))

    op.__name__ = kernel
    op.__doc__ = f"Elementwise {kernel} of integer or bool tensors."
    return op


bitwise_and = method("bitwise_and", "__and__", inplace=True)(
    _bitwise(np.bitwise_and, "bitwise_and"))
bitwise_or = method("bitwise_or", "__or__", inplace=True)(
    _bitwise(np.bitwise_or, "bitwise_or"))
bitwise_xor = method("bitwise_xor", "__xor__", inplace=True)(
    _bitwise(np.bitwise_xor, "bitwise_xor"))
Tensor.__rand__ = lambda self, other: bitwise_and(other, self)
Tensor.__ror__ = lambda self, other: bitwise_or(other, self)
Tensor.__rxor__ = lambda self, other: bitwise_xor(other, self)


@method("bitwise_not")
def bitwise_not(input):
    """``~input``: logical not of a bool tensor, bitwise not of an integer one."""
    if input._data.dtype.kind == "f":
        raise NotImplementedError(f'"bitwise_not_cpu" not implemented for \'{input.dtype._cpp}\'')
    return Tensor._wrap(in_iterator_layout(np.asarray(np.invert(input._data)), input._data))


def _invert(input):
    if input._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return bitwise_not(input)


Tensor.__invert__ = _invert


# ---------------------------------------------------------------- where / masked_fill
class WhereBackward0(Node):
    """z = where(condition, self, other):  the gradient goes to self where condition holds,
    to other elsewhere."""

    rule = _r("z = where(c, a, b)", {"c": "condition"}, a="where(c, grad, 0)",
              b="where(c, 0, grad)")

    saved = saved_tensors_names = ("condition",)


@method("nonzero")
def nonzero(input, *, as_tuple: bool = False):
    """Indices of the non-zero entries: one row each, or (as_tuple) one tensor per dimension."""
    if as_tuple:  # (a 0-d input counts as 1-d here, as in PyTorch)
        return tuple(Tensor._wrap(i.astype(np.int64)) for i in np.nonzero(
            input._data if input._data.ndim else input._data.reshape(1)))
    return Tensor._wrap(np.argwhere(input._data).astype(np.int64))


_NOT_GIVEN = object()
_OPERAND = (Tensor, int, float, bool, np.number, np.bool_)


def where(condition, input=_NOT_GIVEN, other=_NOT_GIVEN, *, out=None):
    """``input`` where ``condition`` holds, else ``other`` (tensors or numbers, broadcast).

    With only ``condition``: ``condition.nonzero(as_tuple=True)``.
    """
    if out is not None:
        from .out import write_out
        return write_out(where, out, condition, input, other)
    if input is _NOT_GIVEN and other is _NOT_GIVEN and isinstance(condition, Tensor):
        return nonzero(condition, as_tuple=True)
    given = [a for a in (condition, input, other) if a is not _NOT_GIVEN]
    if len(given) < 3 or not isinstance(condition, Tensor) or [
            a for a in given if not isinstance(a, _OPERAND)]:
        raise invalid_combination("where", given)
    if condition._data.dtype.kind != "b":
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {condition.dtype._legacy_name[:-6]}")
    if isinstance(input, Tensor) or isinstance(other, Tensor):
        a, b, dt = binary_operands(input, other)
    else:
        dt = result_type(input, other).np
        a, b = np.asarray(input, dt), np.asarray(other, dt)
    try:
        data = np.where(condition._data, a, b).astype(dt, copy=False)
    except ValueError:
        raise broadcast_error(condition, input, other) from None
    out = Tensor._wrap(in_iterator_layout(data, condition._data, a, b))
    if should_record(input, other):
        node = WhereBackward0()
        node._s_condition = SavedTensor(condition)
        record(node, out, input, other, broadcast=True)
    return out


def _where_method(self, condition=_NOT_GIVEN, other=_NOT_GIVEN, *, out=None):
    if condition is _NOT_GIVEN or other is _NOT_GIVEN or out is not None:  # (out=: torch.where's)
        raise invalid_combination("where", [a for a in (condition, other) if a is not _NOT_GIVEN],
                                  {} if out is None else {"out": out})
    return where(condition, self, other)


Tensor.where = _where_method


@formula_function(name="masked_fill")
def _masked_fill_formula(x, mask, number):
    """``x.masked_fill(mask, number)`` in a formula (only ``0`` there: ``masked_zero``)."""
    if number != 0:
        raise ValueError("a formula's masked_fill fills with 0")
    out = masked_zero(x, mask)  # (PyTorch's masked_fill fills a row-major clone)
    return out if isinstance(out, Tensor) else row_major(out)


formula_function(masked_sum, name="masked_fill_backward")  # (grad.masked_select(mask).sum())


class MaskedFillBackward0(Node):
    """z = self.masked_fill(mask, number):  dz/dself = 1 where mask is False, 0 where True."""

    rule = _r("z = a.masked_fill(mask, number)", {"mask": "mask"},
              a="masked_fill(grad, mask, 0)")

    saved = saved_tensors_names = ("mask",)


class MaskedFillBackward1(MaskedFillBackward0):
    """z = self.masked_fill(mask, value tensor):  value gets the sum of the masked gradient."""

    rule = _r("z = a.masked_fill(mask, v)", {"mask": "mask"}, a="masked_fill(grad, mask, 0)",
              v="masked_fill_backward(grad, mask)",
              note="masked_fill_backward(grad, mask) = grad.masked_select(mask).sum()")


@method("masked_fill")
def masked_fill(input, mask, value):
    """A copy of ``input`` with ``value`` (a number or 0-d tensor) where ``mask`` is True."""
    if mask._data.dtype.kind != "b":
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype._c_type}")
    vt = isinstance(value, Tensor)
    if vt and value._data.ndim:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._data.ndim} dimension(s).")
    dt = input._data.dtype
    fill = cast(value._data, dt) if vt else fill_value(value, input.dtype, "masked_fill")
    try:
        data = np.where(mask._data, fill, input._data)
    except ValueError:
        raise broadcast_error(mask, input) from None
    out = Tensor._wrap(row_major(data))  # (PyTorch fills a row-major copy)
    if should_record(input, value):
        node = MaskedFillBackward1() if vt else MaskedFillBackward0()
        node._s_mask = SavedTensor(mask)
        record(node, out, input, *((value,) if vt else ()), broadcast=True)
    return out
