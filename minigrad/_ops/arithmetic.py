"""Arithmetic: add, sub, mul, div, neg, and the operators (``+``, ``2 * x``, ``x += y``).

Each op is one class named as PyTorch names its node, declaring the op's derivative as a rule
(its ``backward`` is written from the rule: :mod:`minigrad.autograd.formulas`), and the
function below it, which computes the forward with NumPy. A Python number is a constant
operand: ``x + 2`` has a ``(None, 0)`` edge for it, and ``2 / x`` is computed, as in PyTorch, as
``reciprocal(x) * 2``. PyTorch's edge cases (``alpha``, bool refusals, ``rsub``, float16) are
at the end of the file.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> y = 2 / x
>>> y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), y.grad_fn._saved_other
('MulBackward0', 'ReciprocalBackward0', tensor(2))
"""

from __future__ import annotations

import numpy as np

from .._layout import in_binary_layout, in_iterator_layout
from .._quiet import quiet, quietly, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import FREED
from ._core import (
    FUNCTION,
    MISSING,
    OPERATOR,
    binary_operands,
    broadcast_error,
    method,
    quiet_array,
    value,
)
from .arguments import bad_operand
from .errors import bool_negation
from .rounding import HALF, fused_add, half_opmath, opmath_array

# the commonest ops' ufuncs as module globals (NumPy's module defines __getattr__, so Python
# 3.11 looks each np.<name> up anew)
_ADD, _SUBTRACT, _MULTIPLY = np.add, np.subtract, np.multiply

__all__ = ["add", "sub", "mul", "neg", "rsub", "broadcast_error", "factor", "mul_by_number",
           "div_by_number", "add_number", "sub_number", "elementwise", "check_bool_sub",
           "save_operand"]


# ---------------------------------------------------------------- add / sub
class AddBackward0(Node):
    """The node of ``self + alpha * other`` (``x + y``: alpha is 1)."""

    rule = _r("z = a + alpha * b", {"alpha": "alpha"}, numbers="alpha",
              a="grad", b="grad * alpha")

    saved = ("alpha",)
    _s_alpha = 1


class SubBackward0(Node):
    """The node of ``self - alpha * other`` (``x - y``: alpha is 1)."""

    rule = _r("z = a - alpha * b", {"alpha": "alpha"}, numbers="alpha",
              a="grad", b="-grad * alpha")

    saved = ("alpha",)
    _s_alpha = 1


@method("add", "__add__", inplace=True)
def add(input=MISSING, other=MISSING, *, alpha=1, out=None, _form=("add", FUNCTION)) -> Tensor:
    """``input + alpha * other``, broadcasting."""
    if out is not None:
        from .out import write_out
        return write_out(add, out, input, other, alpha=alpha, _form=_form)
    return _add_or_sub(_ADD, AddBackward0, input, other, alpha, out, _form)


def __radd__(self, other):  # `2 + x` is `x.add(2)` in PyTorch: the tensor stays operand 0
    return add(self, other, _form=("add", OPERATOR))


Tensor.__radd__ = __radd__


@method("sub", "__sub__", "subtract")
def sub(input=MISSING, other=MISSING, *, alpha=1, out=None, _form=("sub", FUNCTION)) -> Tensor:
    """``input - alpha * other``, broadcasting."""
    if out is not None:
        from .out import write_out
        return write_out(sub, out, input, other, alpha=alpha, _form=_form)
    return _add_or_sub(_SUBTRACT, SubBackward0, input, other, alpha, out, _form)


# ---------------------------------------------------------------- mul
class MulBackward0(Node):
    """The node of ``self * other``.

    Like PyTorch, it keeps ``other`` only if ``self`` needs a gradient, and ``self`` only if
    ``other`` does; what it did not keep shows as ``None``.
    """

    rule = _r("z = a * b", {"a": "self", "b": "other"}, a="grad * b", b="grad * a")

    saved = saved_tensors_names = ("other", "self")
    _s_self = _s_other = None

    def release_variables(self) -> None:  # (Node's, unrolled: it runs after every x * y)
        self._released = True
        s, o = self._s_self, self._s_other
        if o is not None:  # a number too (PyTorch keeps tensor(2) for x * 2): see Node's
            if type(o) is SavedTensor:
                o.release()
            else:
                self._s_other = FREED
        if s is not None:
            if type(s) is SavedTensor:
                s.release()
            else:
                self._s_self = FREED


@method("mul", "__mul__", "multiply", inplace=True)
def mul(input=MISSING, other=MISSING, *, out=None, _form=("mul", FUNCTION)) -> Tensor:
    """``input * other``, elementwise, broadcasting."""
    if out is not None:
        from .out import write_out
        return write_out(mul, out, input, other, _form=_form)
    if type(other) is float and type(input) is Tensor and input._data.dtype.char in "fd" and \
            -3.4e38 <= other <= 3.4e38:  # (a larger number is inf in float32: see _core)
        # the commonest case, `x * 0.5`, without the general checks (it cannot fail; float16
        # is not one: its kernel computes in float32, see rounding.half_opmath)
        token = quiet()  # (overflow: inf, as in PyTorch, without NumPy's warning)
        d = np.multiply(input._data, other)
        restore(token)  # (NumPy's new array of under two dimensions is laid out as PyTorch's)
        out = Tensor._wrap(d if d.ndim < 2 else in_iterator_layout(d, input._data, other))
        if should_record(input, other):
            node = MulBackward0()
            node._s_other = other
            record(node, out, input, other)  # (a float keeps the input's shape and dtype)
        return out
    out = elementwise(_MULTIPLY, input, other, opmath=True)
    if out is NotImplemented:  # (an operand that is no tensor or number: the rare path)
        return bad_operand(_form, mul, input, other)
    if should_record(input, other):
        node = MulBackward0() if out._data.dtype is not HALF else _HalfMulBackward0()
        if isinstance(input, Tensor) and input._requires_grad:  # (_save, inlined: every x * y)
            node._s_other = SavedTensor(other) if isinstance(other, Tensor) else other
        if isinstance(other, Tensor) and other._requires_grad:
            node._s_self = SavedTensor(input) if isinstance(input, Tensor) else input
        record(node, out, input, other, broadcast=True)
    return out


Tensor.__rmul__ = lambda self, other: mul(self, other, _form=("mul", OPERATOR))  # `2 * x`


# ---------------------------------------------------------------- neg
class NegBackward0(Node):
    """The node of ``-self``."""

    rule = _r("z = -a", a="-grad")


@method("neg", "__neg__", "negative", inplace=True)
def neg(input) -> Tensor:
    """``-input``."""
    if input._data.dtype.kind == "b":
        raise bool_negation()
    out = Tensor._wrap(in_iterator_layout(np.negative(input._data), input._data))
    if should_record(input):
        record(NegBackward0(), out, input)
    return out


Tensor.__pos__ = lambda self: self


# ---------------------------------------------------------------- a tensor and a number
# PyTorch's ``mul(Tensor, Scalar)`` and friends: what its backward formulas (and nn losses)
# record for ``2 * t``, ``t / n``, ``t - 1`` (a Python ``x * 2`` is ``MulBackward0``).
class MulBackward1(Node):
    """The node of a tensor times a number (PyTorch's C++ ``mul(Tensor, Scalar)``)."""

    rule = _r("z = a * c  (c a number)", {"c": "other"}, numbers="c", a="grad * c")

    saved = ("other",)


class DivBackward1(Node):
    """The node of a tensor divided by a number (``div(Tensor, Scalar)``)."""

    rule = _r("z = a / c  (c a number)", {"c": "other"}, numbers="c", a="grad / c")

    saved = ("other",)


class AddBackward1(Node):
    """The node of a tensor plus a number (``add(Tensor, Scalar)``)."""

    rule = _r("z = a + c  (c a number)", a="grad")


class SubBackward1(Node):
    """The node of a tensor minus a number (``sub(Tensor, Scalar)``)."""

    rule = _r("z = a - c  (c a number)", a="grad")


_NUMBER_UFUNCS = {MulBackward1: np.multiply, DivBackward1: np.true_divide,
                  AddBackward1: np.add, SubBackward1: np.subtract}
_OPMATH = (MulBackward1, DivBackward1)  # (PyTorch's add/sub round the number to float16 first)


def _number_op(input, other, node_cls):
    """``input <op> other`` for a Python number ``other``, recorded with ``node_cls``
    (arrays, in a plain backward, are computed without a node)."""
    ufunc = _NUMBER_UFUNCS[node_cls]
    if not isinstance(input, Tensor):
        return half_opmath(ufunc, input, other, other) if input.dtype is HALF and \
            node_cls in _OPMATH else ufunc(input, other)
    dtype = input._data.dtype  # (float16 with mul, div: in float32, see half_opmath)
    out = Tensor._wrap(in_iterator_layout(
        opmath_array(ufunc, input._data, other, dtype, other) if node_cls in _OPMATH else
        quiet_array(ufunc, input._data, other, dtype), input._data, other))
    if should_record(input):
        node = node_cls()
        if node_cls.saved:
            node._s_other = other
        record(node, out, input)
    return out


def mul_by_number(input, other):
    """``input * other`` recorded as PyTorch's ``mul(Tensor, Scalar)`` (``MulBackward1``)."""
    return _number_op(input, other, MulBackward1)


def div_by_number(input, other):
    """``input / other`` recorded as PyTorch's ``div(Tensor, Scalar)`` (``DivBackward1``)."""
    return _number_op(input, other, DivBackward1)


def add_number(input, other):
    """``input + other`` as PyTorch's ``add(Tensor, Scalar)`` (``AddBackward1``)."""
    return _number_op(input, other, AddBackward1)


def maybe_multiply(input, number):
    """``input * number`` (``mul(Tensor, Scalar)``), or ``input`` itself when the number is 1:
    PyTorch's ``maybe_multiply``, for the ``alpha`` of add and sub."""
    return input if number == 1 else _number_op(input, number, MulBackward1)


def rsub_number(input, other):
    """``other - input`` for a number ``other`` (PyTorch's ``rsub(Tensor, Scalar)``:
    ``RsubBackward1`` when recorded)."""
    return rsub(input, other) if isinstance(input, Tensor) else other - input


def sub_number(input, other):
    """``input - other`` as PyTorch's ``sub(Tensor, Scalar)`` (``SubBackward1``); a bool
    ``input`` (pow's exponent, in its backward) raises PyTorch's error."""
    if (input._data if isinstance(input, Tensor) else np.asarray(input)).dtype == _BOOL:
        check_bool_sub(input, other)
    return _number_op(input, other, SubBackward1)


for _fn, _name in ((mul_by_number, "mul_number"), (div_by_number, "div_number"),
                   (add_number, "add_number"), (sub_number, "sub_number"),
                   (rsub_number, "rsub_number"), (maybe_multiply, "maybe_multiply")):
    formula_function(_fn, name=_name)  # (the functions numbers in a formula are written as)


# ---------------------------------------------------------------- PyTorch's edge cases
# add and sub with an ``alpha``; what PyTorch refuses for bools; ``rsub``, what ``2 - x``
# records; the operands as the forward takes and saves them.
def _add_or_sub(ufunc, node_cls, input, other, alpha, out, form):
    """``ufunc(input, alpha * other)`` for add and sub, recorded with a ``node_cls`` node."""
    a, b, nd = binary_operands(input, other)
    if a is NotImplemented:  # (an operand that is no tensor or number: the rare path)
        return bad_operand(form, add if ufunc is np.add else sub, input, other,
                           {} if alpha == 1 else {"alpha": alpha})
    if ufunc is _SUBTRACT and (_is_bool(input) or _is_bool(other)):
        check_bool_sub(input, other)
    token = quiet()  # inf - inf, overflow: NaN and inf as in PyTorch, no NumPy warning
    try:
        result = Tensor._wrap(in_binary_layout(
            ufunc(a, b) if alpha == 1 and alpha is not True else
            _plus_alpha(ufunc, a, b, alpha, nd), input, a, other, b))
    except ValueError:
        raise broadcast_error(input, other) from None
    finally:
        restore(token)
    if should_record(input, other):
        node = node_cls()
        if alpha != 1:
            node._s_alpha = alpha
        record(node, result, input, other, broadcast=True)
    return result


def _plus_alpha(ufunc, a, b, alpha, dtype):
    """``ufunc(a, alpha * b)`` for add and subtract, after PyTorch's checks of ``alpha`` (made
    once the operands are found to broadcast): a float ``alpha`` on integers, a bool ``alpha``
    on anything but a bool result; a bool result stays bool (``True + 2 * True`` is True).
    float16 and float32 are fused, as PyTorch's kernel (:func:`~minigrad._ops.rounding.fused_add`).
    Callers run it quietly."""
    np.broadcast_shapes(np.shape(a), np.shape(b))  # (its ValueError: the caller's error)
    if dtype.kind in "iub" and isinstance(alpha, float):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if dtype.kind == "b":
        return ufunc(a, np.logical_and(b, bool(alpha)))
    if type(alpha) is bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dtype is HALF or dtype is _FLOAT:
        return fused_add(a, b, alpha if ufunc is np.add else -alpha, dtype)
    return ufunc(a, b * alpha)


_FLOAT = np.dtype(np.float32)


_BOOL = np.dtype(bool)


def _is_bool(x) -> bool:
    return type(x) is bool or (isinstance(x, Tensor) and x._data.dtype == _BOOL)


def check_bool_sub(a, b) -> None:
    """Raise PyTorch's error for subtracting booleans (one operand is a bool)."""
    if _is_bool(a) and _is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                       "If you are trying to invert a mask, use the `~` or `logical_not()` "
                       "operator instead.")


class RsubBackward0(Node):
    """The node of ``torch.rsub(self, other)``: ``other - alpha * self``."""

    rule = _r("z = b - alpha * a", {"alpha": "alpha"}, numbers="alpha",
              a="-grad * alpha", b="grad")

    saved = ("alpha",)
    _s_alpha = 1


class RsubBackward1(Node):
    """The node of a number minus a tensor (``2 - x``: ``other - alpha * self``)."""

    rule = _r("z = c - alpha * a  (c a number)", {"alpha": "alpha"}, numbers="alpha",
              a="-grad * alpha")

    saved = ("alpha",)
    _s_alpha = 1


def rsub(input, other, *, alpha=1):  # a function only: PyTorch's Tensor has no .rsub method
    """``other - alpha * input`` (what ``2 - x`` computes)."""
    a, b, nd = binary_operands(input, other)
    if a is NotImplemented:
        return NotImplemented
    if _is_bool(input) or _is_bool(other):
        check_bool_sub(other, input)
    try:
        out = Tensor._wrap(in_binary_layout(
            quiet_array(np.subtract, b, a, nd) if alpha == 1 and alpha is not True else
            quietly(_plus_alpha, np.subtract, b, a, alpha, nd), other, b, input, a))
    except ValueError:
        raise broadcast_error(other, input) from None
    if should_record(input, other):
        two = isinstance(other, Tensor)
        node = RsubBackward0() if two else RsubBackward1()
        if alpha != 1:
            node._s_alpha = alpha
        record(node, out, *((input, other) if two else (input,)), broadcast=True)
    return out


Tensor.__rsub__ = lambda self, other: rsub(self, other)


def save_operand(x):
    """Save an operand: a tensor is checked for in-place changes; a Python number kept as is."""
    return SavedTensor(x) if isinstance(x, Tensor) else x


def elementwise(fn, input, other, *, float_result: bool = False, opmath: bool = False):
    """``fn`` of the operands' arrays, promoted as PyTorch promotes them, as a new tensor;
    PyTorch's error where the shapes do not broadcast; NotImplemented for an operand that is
    neither a tensor nor a number (Python then tries the other operand's method). ``opmath``:
    a float16 result with a number ``other`` is computed as PyTorch's kernel does
    (:func:`~minigrad._ops.rounding.half_opmath`)."""
    a, b, nd = binary_operands(input, other, float_result)
    if a is NotImplemented:
        return NotImplemented
    token = quiet()  # 0 * inf, 1 / 0, overflow: NaN and inf as in PyTorch, no NumPy warning
    try:
        if nd is HALF and opmath:
            return Tensor._wrap(in_binary_layout(half_opmath(fn, a, b, other), input, a, other, b))
        return Tensor._wrap(in_binary_layout(fn(a, b), input, a, other, b))
    except ValueError:
        raise broadcast_error(input, other) from None
    finally:
        restore(token)


def factor(saved, g):
    """A saved operand as a factor of the gradient ``g``, in ``g``'s dtype.

    NumPy would make ``float32 * int64`` arrays float64 (PyTorch keeps the gradient's dtype);
    Python numbers and tensors (under create_graph) already combine as PyTorch does.
    """
    v = saved.get() if type(saved) is SavedTensor else saved
    if type(v) is np.ndarray and v.dtype != g.dtype:
        return v.astype(g.dtype)
    return v


# ---------------------------------------------------------------- float16
class _HalfMulBackward0(MulBackward0):
    """``MulBackward0`` of a float16 product: the gradient times a number (or a 0-d tensor) is
    computed as the forward is, in float32 (:func:`~minigrad._ops.rounding.half_opmath`).
    PyTorch has one class; the second keeps the dtype test off every other product's path."""

    def backward(self, g):
        s, o = self._s_self, self._s_other
        if o is None or isinstance(g, Tensor):  # (create_graph: Tensor mul does it)
            return MulBackward0.backward(self, g)
        return (half_opmath(np.multiply, g, factor(o, g), value(o)),
                None if s is None else g * factor(s, g))


_HalfMulBackward0.__name__ = "MulBackward0"  # (PyTorch's class name)
