"""Elementwise functions of three operands: ``lerp``, ``addcmul``, ``addcdiv`` (Adam's and
RMSprop's updates are made of them).

Operands broadcast together and promote as in PyTorch; a number operand (the weight, the
``value``) is applied as PyTorch's kernels apply it (``rounding.py``).

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> torch.lerp(x, torch.tensor([3., 3.]), 0.5)
tensor([2.0000, 2.5000], grad_fn=<LerpBackward0>)
"""

from __future__ import annotations

import numpy as np

from .._dtype import bool as _bool
from .._dtype import result_type
from .._layout import in_iterator_layout
from .._quiet import quiet, restore
from .._tensor import Tensor
from .._tensor_data import fill_value
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from . import _formula as F
from ._backward import data, scale
from ._core import dtype_of, method, value
from .arithmetic import broadcast_error
from .binary_functions import _Binary
from .errors import not_implemented
from .inplace import apply_inplace
from .inplace_checks import check_inplace
from .rounding import addc, lerp_number, opmath_number

__all__ = ["lerp", "addcmul", "addcdiv"]


class LerpBackward0(Node):
    """z = self + weight (end - self), weight a number:  dz/dself = 1 - weight;
    dz/dend = weight."""

    rule = _r("z = a + w * (e - a)  (w a number)", {"w": "weight"}, numbers="w",
              a="grad * (1 - w)", e="grad * w")

    saved = ("weight",)


class LerpBackward1(_Binary):
    """z = self + weight (end - self):  dz/dself = 1 - weight;  dz/dend = weight;
    dz/dweight = end - self."""

    rule = _r("z = a + w * (e - a)", {"a": "self", "e": "end", "w": "weight"}, a="grad * (1 - w)",
              e="grad * w", w="grad * (e - a)")

    saved = ("end", "self", "weight")
    saved_tensors_names = saved

    def backward(self, g):
        e, s, w = (value(v) for v in (self._s_end, self._s_self, self._s_weight))
        one = F.constant(np.ones((), data(w).dtype), w)  # (PyTorch: a tensor 1, SubBackward0)
        return g * (one - w), g * w, None if s is None else g * (e - s)


@method("lerp", inplace=True)
def lerp(input, end, weight):
    """``input + weight * (end - input)``."""
    w = weight._data if isinstance(weight, Tensor) else weight
    s, e = input._data, end._data
    if s.dtype != e.dtype or s.dtype.kind != "f" or isinstance(weight, Tensor) and w.ndim:
        _lerp_check(input, end, weight)
    token = quiet()  # PyTorch's two-sided formula (exact at w = 0 and w = 1), inf/NaN silent
    try:
        data = lerp_number(s, e, w, s.dtype) if opmath_number(w, s.dtype) is not None and \
            not isinstance(weight, Tensor) else \
            np.where(np.abs(w) < 0.5, s + w * (e - s), e - (e - s) * (1 - w))
    except ValueError:
        raise broadcast_error(input, end, weight) from None
    finally:
        restore(token)
    out = Tensor._wrap(in_iterator_layout(np.asarray(data, dtype=input._data.dtype), *(
        x._data for x in (input, end, weight) if isinstance(x, Tensor))))  # (a number weight:
    # no operand)
    if not should_record(input, end, weight if isinstance(weight, Tensor) else None):
        return out  # (a number weight is a Scalar in PyTorch: no tensor of its own)
    if isinstance(weight, Tensor):
        node = LerpBackward1()  # (each kept only for the gradients that need it, as PyTorch)
        record(node, out, input, end, weight, broadcast=True)
        keep = node._next_nodes[2] is not None  # (the weight is always kept)
        node._s_self, node._s_end = (SavedTensor(t) if keep else None for t in (input, end))
        node._s_weight = SavedTensor(weight)
        return out
    node = LerpBackward0()
    node._s_weight = weight
    return record(node, out, input, end, broadcast=True)


def lerp_(self, end, weight):
    """``lerp`` in place: its dtype check comes before the refusal of expanded memory."""
    if isinstance(end, Tensor) and end.dtype is not self.dtype or isinstance(
            weight, Tensor) and weight.ndim and weight.dtype is not self.dtype:
        check_inplace(self, (end, weight))
        _lerp_check(self, end, weight)
    return apply_inplace(self, lerp, end, weight)


Tensor.lerp_ = lerp_


def _lerp_check(input, end, weight) -> None:
    """PyTorch's checks of lerp: one dtype for all (a 0-d weight excepted), a float one."""
    tensor_weight = isinstance(weight, Tensor)
    for name, t in (("end", end), ("weight", weight if tensor_weight and weight.ndim else None)):
        if t is not None and t.dtype is not input.dtype:
            raise RuntimeError(f"expected dtype {input.dtype._c_type} for `{name}` but got dtype "
                               f"{t.dtype._c_type}")
    if not input.dtype.is_floating_point:
        try:
            np.broadcast_shapes(input.shape, end.shape, weight.shape if tensor_weight else ())
        except ValueError:
            raise broadcast_error(input, end, weight) from None
        kind = "tensor" if tensor_weight else "scalar"
        raise not_implemented(f"lerp_kernel_{kind}", input.dtype)


class AddcmulBackward0(Node):
    """z = self + value t1 t2:  dz/dself = 1;  dz/dt1 = value t2;  dz/dt2 = value t1."""

    rule = _r("z = a + v * t1 * t2", {"t1": "tensor1", "t2": "tensor2", "v": "value"}, a="grad",
              t1="grad * v * t2", t2="grad * v * t1")

    saved = ("tensor1", "tensor2", "value")
    saved_tensors_names = ("tensor1", "tensor2")

    def backward(self, g):
        a, b, v = value(self._s_tensor1), value(self._s_tensor2), self._s_value
        return g, None if b is None else _like(g, g * scale(b, v)), \
            None if a is None else _like(g, g * scale(a, v))


def _like(g, grad):
    """``grad`` in ``g``'s dtype: a bool or integer factor (saved ``tensor2``) does not promote
    it, as in PyTorch (NumPy would make float32 times int64 a float64; of 0-d arrays, a NumPy
    scalar)."""
    return np.asarray(grad, g.dtype) if isinstance(grad, (np.ndarray, np.generic)) and \
        grad.dtype != g.dtype else grad


class AddcdivBackward0(AddcmulBackward0):
    """z = self + value t1 / t2:  dz/dself = 1;  dz/dt1 = value / t2;
    dz/dt2 = -value t1 / t2²."""

    rule = _r("z = a + v * t1 / t2", {"t1": "tensor1", "t2": "tensor2", "v": "value"}, a="grad",
              t1="grad * v / t2", t2="-grad * v * t1 / t2**2")

    def backward(self, g):
        a, b, v = value(self._s_tensor1), value(self._s_tensor2), self._s_value
        if self._next_nodes[1] is not None and data(b).dtype.kind in "biu":  # (value / t2)
            raise RuntimeError("result type Float can't be cast to the desired output type "
                               f"{dtype_of(data(b).dtype)._cpp}")
        vt = None if b is None else F.constant(  # (None: unkept; the value checked)
            fill_value(v, dtype_of(data(b).dtype), "addcdiv"), b)
        return g, None if b is None else _like(g, g * (vt / b)), \
            None if a is None else _like(g, -g * (scale(a, v) / (b * b)))


def _addc(name, fn, node_cls):
    def op(input, tensor1, tensor2, *, value=1):
        if recorded := should_record(input, tensor1, tensor2):  # (saved before any check, as
            saved = (SavedTensor(tensor1) if tensor2.requires_grad else None,  # PyTorch's: an
                     SavedTensor(tensor2) if tensor1.requires_grad  # inference one refused)
                     or node_cls is AddcdivBackward0 else None)  # (addcdiv's always)
        dt = result_type(input, tensor1, tensor2)
        if not dt.is_floating_point or tensor1._data.dtype.kind != "f":
            _addc_check(name, dt, tensor1, tensor2)
            if not dt.is_floating_point:  # (the value in the result's dtype: 0.5 is 0)
                value = int(value)
        token = quiet()  # (inf, NaN and overflow as in PyTorch, without NumPy's warnings)
        try:
            data = addc(input._data, tensor1._data, tensor2._data, value, dt.np, fn is np.divide) \
                if opmath_number(value, dt.np) is not None else \
                input._data + value * fn(tensor1._data, tensor2._data)
        except ValueError:
            raise broadcast_error(input, tensor1, tensor2) from None
        finally:
            restore(token)
        out = Tensor._wrap(in_iterator_layout(np.asarray(data, dtype=dt.np), input._data,
                                              tensor1._data, tensor2._data))
        if recorded:
            node = node_cls()
            node._s_value = value
            record(node, out, input, tensor1, tensor2, broadcast=True)
            node._s_tensor1, node._s_tensor2 = saved  # (each kept for the other's gradient)
        return out

    op.__name__ = name
    return method(name, inplace=True)(op)


def _addc_check(name, dt, tensor1, tensor2) -> None:
    """What PyTorch refuses of addcmul/addcdiv with an integer or bool result."""
    if name == "addcdiv" and not (tensor1.is_floating_point() or tensor2.is_floating_point()):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")
    if dt is _bool:
        raise not_implemented(f"{name}_cpu_out", dt)


addcmul = _addc("addcmul", np.multiply, AddcmulBackward0)
addcdiv = _addc("addcdiv", np.divide, AddcdivBackward0)
