"""In-place ops (``add_``, ``mul_``, ``x += y``, ``x[i] = v``, ...) and how autograd follows them.

An in-place op here is its out-of-place op plus three steps:

1. the result is written into the tensor's own memory, and its version counter (shared with
   every view of the same memory) goes up by one, so saved tensors notice the change;
2. the op's node becomes the tensor's ``grad_fn``: its history is *rebased* onto the op, whose
   ``next_functions`` lead to the old ``grad_fn`` (``a.mul_(2)`` gives ``MulBackward0``);
3. when the tensor is a view, the *base* is rebased instead, with a ``CopySlices`` node: its
   gradient is the incoming one, except on the view's elements, which go through the op's
   backward first. The view itself then reads from the base (``AsStridedBackward0``).

>>> import minigrad as torch
>>> x = torch.tensor([1., 2., 3.], requires_grad=True)
>>> a = x * 1
>>> a[0:2].mul_(10)
tensor([10., 20.], grad_fn=<AsStridedBackward0>)
>>> a.grad_fn.name(), a._version
('torch::autograd::CopySlices', 1)
>>> a.sum().backward()
>>> x.grad
tensor([10., 10.,  1.])
"""

from __future__ import annotations

import weakref

import numpy as np

from .._dtype import cast, result_type
from .._state import local as _mode
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.functional_utils import sum_to
from ..autograd.grad_mode import is_inference_mode_enabled, no_grad
from ..autograd.graph import CopyBackwards, Node, SavedTensor, record, should_record
from ..autograd.saved import FREED_MESSAGE
from ..autograd.zero_tensor import refuse_write
from . import _formula as F
from ._core import INPLACE_VARIANTS, broadcast_error, dtype_of, method
from .arithmetic import check_bool_sub
from .copy_overlap import copied_in_order
from .division import write_before_zero
from .errors import cant_cast
from .fill import _filled, _zeroed
from .index_put import expanded_warning, index_put_checks, put_in_place
from .inplace_checks import bump_version, check_inplace, check_memory
from .movement import clone
from .views import AsStridedBackward0, Placement, _sync_view, overlapping, put_flat

__all__ = ["apply_inplace", "attach_variants", "CopySlices", "AsStridedBackward0"]


class CopySlices(Node):
    """The base's node after an in-place op ``fn`` on one of its views.

    Gradient for the base: the incoming gradient, where the view's elements are replaced by
    what ``fn``'s backward makes of them. ``fn``'s other inputs get the rest of its gradients.
    """

    rule = _r("a[view] = f(a[view], ...)  (in place on a view)", words=True,
              a="grad outside the view; inside it, what f's backward sends",
              **{"*": "what f's backward sends to its other inputs"})

    _has_saved = True  # fn's saved values are released with it

    def __init__(self, base: Tensor, view: Tensor, fn: Node):
        self.fn = fn
        self._placement = Placement(view._data, base._data)

    def backward(self, g):
        if self._released:  # (PyTorch lets go of fn: a second backward is refused, always)
            raise RuntimeError(FREED_MESSAGE)
        at = self._placement.row_major()  # where the view sits in a row-major copy of the base
        if at is None:  # (an as_strided view that is no strided view of the base's rows)
            where = self._placement.where()
            res = self._fn_backward(F.index(g.reshape(-1), (Tensor._wrap(where),), where))
            mine = F.zeros(where.shape, g) if res[0] is None else res[0]
            return (put_flat(g, where, mine, False),) + res[1:]
        result = F.copied(g)
        grad_slice = F.strided(result, at)
        res = self._fn_backward(F.clone(grad_slice))
        F.copy_(grad_slice, F.zeros(at[0], g) if res[0] is None else res[0])
        return (result,) + res[1:]

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def _fn_backward(self, g) -> tuple:
        fn = self.fn
        res = tuple(fn.backward(g))
        if fn._sum_to is not None:
            res = tuple(r if m is None or r is None else sum_to(r, m[0], m[1])
                        for r, m in zip(res, fn._sum_to))
        return res

    def release_variables(self) -> None:
        self._released = True
        self.fn.release_variables()


# ---------------------------------------------------------------- the in-place recipe
def _kind(d: np.dtype) -> int:
    return 2 if d.kind == "f" else (0 if d.kind == "b" else 1)


def _write(self: Tensor, data: np.ndarray, fills: bool = False,
           scalar_clamp: bool = False) -> None:
    """Copy an op's result into ``self``'s memory (shared with its views); bump the version.

    Memory that several elements share (``expand``) is refused, as in PyTorch, unless the op
    ``fills`` it with one number.
    """
    dst = self._data
    if data.shape != dst.shape:
        raise _shape_error(dst.shape, data.shape)
    if _kind(data.dtype) > _kind(dst.dtype):
        target = getattr(dtype_of(dst.dtype), "_c_type" if scalar_clamp else "_cpp")  # clamp_
        raise RuntimeError(f"result type {dtype_of(data.dtype)._cpp} can't be cast to the "
                           f"desired output type {target}")
    np.copyto(dst, data, casting="unsafe")  # (no float into an integer: refused above)
    bump_version(self)


def _save_original(node: Node, self: Tensor) -> None:
    """``self`` is about to change: a node that saved it keeps a clone of its current value."""
    saved = node.__dict__.get("_s_self")
    if type(saved) is SavedTensor and saved.tensor is self:
        node._s_self = SavedTensor(clone(self))


def _follow_result(node: Node, out: Tensor, self: Tensor) -> None:
    """The op's result now lives in ``self``: a node that saved it follows ``self``'s version."""
    for name in type(node).saved:
        saved = node.__dict__.get("_s_" + name)
        if type(saved) is SavedTensor and saved.tensor is None and saved.data is out._data:
            saved.data, saved.vc, saved.version = self._data, self._vc, self._vc[0]


def _cast_back(node: Node, self: Tensor, args) -> None:
    """An op computed in a wider dtype than ``self`` keeps ``self``'s in place: its gradient
    arrives in that dtype, and PyTorch's engine casts what it sends each input to the input's."""
    sums = list(node._sum_to or [None] * len(node._next_nodes))
    for i, x in enumerate((self, *args)[:len(sums)]):
        if isinstance(x, Tensor) and x._data.dtype != self._data.dtype and sums[i] is None:
            sums[i] = (x._data.shape, x._data.dtype)
    node._sum_to = sums


def _follow_view(node: Node, view: Tensor) -> None:
    """A result saved by an in-place op on a view is named by the view's history (its
    AsStridedBackward0) in PyTorch's in-place error, while the view lives with that history."""
    for name in type(node).saved:
        saved = node.__dict__.get("_s_" + name)
        if type(saved) is SavedTensor and saved.tensor is None and saved.data is view._data:
            saved.view_fn = weakref.ref(view), weakref.ref(view._grad_fn)


def _rebase(self: Tensor, node: Node) -> None:
    """Make ``node`` the new history of ``self`` (of its base, through CopySlices, for a view)."""
    base = self._base
    if base is None:
        old = self._grad_fn
        self._grad_fn, self._requires_grad, self._output_nr = node, True, 0
        self._history_changed(old)  # retain_grad follows the new grad_fn
        return
    old, mine = base._grad_fn, self._grad_fn  # (the base's dtype may not be the view's: `.data =`)
    _any_dtype(base, record, CopySlices(base, self, node), base, base, *node.next_functions[1:])
    base._history_changed(old)
    self._view_vc = -1
    _sync_view(self)  # the view now reads from its base: AsStridedBackward0
    self._history_changed(mine)  # (the view's retain_grad follows it there)


def _any_dtype(self: Tensor, fn, *args, **kwargs):
    """``fn(*args)``; on an integer or bool ``self`` the nodes are recorded all the same, as
    PyTorch's in-place ops do (``a.fill_(t)`` gives an int64 tensor with ``FillBackward3``, a
    CopySlices for a view of it; ``copy_`` is the exception: see ``_copied``)."""
    if self._data.dtype.kind in "fc":
        return fn(*args, **kwargs)
    state = _mode.any_dtype
    _mode.any_dtype = True
    try:
        return fn(*args, **kwargs)
    finally:
        _mode.any_dtype = state


def apply_inplace(self: Tensor, op, *args, fills: bool = False, differentiable: bool = True,
                  overlap: str = "partial", any_dtype: bool = True, **kwargs):
    """Run the out-of-place ``op(self, *args)`` and make its result and node ``self``'s own.

    ``fills``: the op writes one number everywhere (allowed on expanded memory);
    ``differentiable``: False for ops PyTorch never records (``logical_not_``); ``overlap``:
    which memory shared with an input is refused ('partial' overlaps; 'own': the op checks its
    inputs itself, as ``index_put_`` does after its count of indices); ``any_dtype``: False for
    ops PyTorch does not record on an integer tensor with a history (they raise "Autograd not
    support dtype", as the out-of-place op does)."""
    inputs, name = (*args, *kwargs.values()), getattr(op, "__name__", "")
    check_inplace(self, inputs if name not in _SCALARS else tuple(
        a for a in inputs if isinstance(a, Tensor)), differentiable)
    check_memory(self, inputs if overlap != "own" else (), fills)
    if self._inference and not is_inference_mode_enabled():
        with no_grad():  # PyTorch makes the change, then refuses it (see bump_version)
            _write(self, op(self, *args, **kwargs)._data, fills)
    try:
        out = _any_dtype(self, op, self, *args, **kwargs) if any_dtype else \
            op(self, *args, **kwargs)
    except (NotImplementedError, RuntimeError) as e:  # a kernel's: after the output's checks
        if (type(e) is NotImplementedError or str(e).startswith(_KERNEL_ERRORS)) and (
                name not in _OWN_SHAPES):
            _check_output(self, args)
        if str(e) == "ZeroDivisionError":  # (the elements its loop did before the zero)
            write_before_zero(self, op, args, kwargs)
        raise
    if out is NotImplemented:
        return NotImplemented
    node = out._grad_fn if differentiable else None
    if node is not None:
        if type(node).__name__ == "NotImplemented":  # its error names the in-place op
            node._op += "_"
        _save_original(node, self)
    _write(self, out._data, fills, name.startswith("clamp") and not any(
        isinstance(a, Tensor) for a in inputs))
    if node is not None:
        if out._data.dtype != self._data.dtype:
            _cast_back(node, self, args)
        _follow_result(node, out, self)
        _any_dtype(self, _rebase, self, node)
        if self._base is not None:
            _follow_view(node, self)
    return self


# what an op checks only after its output (PyTorch's kernels and TensorIterator's users)
_KERNEL_ERRORS = ("ZeroDivisionError", "Boolean alpha only", "For integral input tensors")
# ops whose numbers are PyTorch's Scalars, no tensors that bring autograd back (only_inference);
# baddbmm (not elementwise) ran its own shape checks before its kernel's
_SCALARS, _OWN_SHAPES = {"clamp", "clamp_min", "clamp_max", "_filled", "pow", "lerp", "addcmul",
                         "addcdiv", "nan_to_num"}, {"baddbmm"}


def _check_output(self: Tensor, args) -> None:
    """What PyTorch refuses before an in-place op's own checks (its kernel's dtypes, a
    division by zero...): operands that do not broadcast, a broadcast shape that is not
    ``self``'s, a result dtype ``self`` cannot hold (``int_tensor.fmod_(0.5)``; the first
    operand decides it: lerp's weight does not)."""
    tensors = [a for a in args if isinstance(a, Tensor)]
    try:
        shape = np.broadcast_shapes(self._data.shape, *(a._data.shape for a in tensors))
    except ValueError:
        raise broadcast_error(self, *tensors) from None
    if shape != self._data.shape:
        raise _shape_error(self._data.shape, shape)
    if not args or not isinstance(args[0], (Tensor, bool, int, float)):
        return
    result = result_type(self, args[0])
    if _kind(result.np) > _kind(self._data.dtype):
        raise cant_cast(result, self.dtype)


# ---------------------------------------------------------------- the in-place ops
# in-place ops PyTorch builds from their out-of-place op even on an integer tensor
_NO_INTEGER_HISTORY = {"nan_to_num", "cumprod"}


def _variant(name: str, differentiable: bool = True):
    """``x.name_(...)``: the in-place form of the out-of-place op ``x.name(...)``."""
    any_dtype = name not in _NO_INTEGER_HISTORY

    def op_(self, *args, **kwargs):
        return apply_inplace(self, getattr(Tensor, name), *args, differentiable=differentiable,
                             any_dtype=any_dtype, **kwargs)

    op_.__name__ = name + "_"
    op_.__doc__ = f"In-place ``{name}``: writes the result into this tensor and returns it."
    return op_


def _clamp_variant(name: str):
    """``x.clamp_(...)`` and its min/max forms: number bounds an integer tensor cannot hold
    are refused first (before expanded memory), with the C name of its type, as PyTorch does."""
    plain = _variant(name)

    def op_(self, *args, **kwargs):
        bounds = (*args, *kwargs.values())
        if self._data.dtype.kind in "iub" and any(type(b) is float for b in bounds) \
                and not any(isinstance(b, Tensor) for b in bounds):
            if should_record(self):  # (a history: autograd refuses the dtype first)
                raise RuntimeError("Autograd not support dtype: "
                                   + dtype_of(self._data.dtype)._legacy_name[:-6])
            raise RuntimeError("result type Float can't be cast to the desired output type "
                               + dtype_of(self._data.dtype)._c_type)
        return plain(self, *args, **kwargs)

    op_.__name__, op_.__doc__ = plain.__name__, plain.__doc__
    return op_


for _name in ("clamp", "clamp_min", "clamp_max"):
    setattr(Tensor, _name + "_", _clamp_variant(_name))


def _sub_variant():
    """``x.sub_(y)`` and ``x -= y``: a bool operand is refused after autograd's refusals (a
    leaf requiring grad...) and before expanded memory, as PyTorch's sub kernel checks it."""
    plain = _variant("sub")

    def sub_(self, other, *args, **kwargs):
        if self._data.dtype == _BOOL or type(other) is bool or (
                isinstance(other, Tensor) and other._data.dtype == _BOOL):
            check_inplace(self, (other,))
            check_bool_sub(self, other)
        return plain(self, other, *args, **kwargs)

    sub_.__name__, sub_.__doc__ = plain.__name__, plain.__doc__
    return sub_


_BOOL = np.dtype(bool)
Tensor.sub_ = Tensor.__isub__ = _sub_variant()


def index_put_(self, indices, values, accumulate: bool = False):
    """In-place ``index_put``: writes ``values`` at the tensor ``indices`` of this tensor."""
    index_put_checks(self, indices, values)  # (before the in-place recipe's)
    return apply_inplace(self, put_in_place, indices, values, accumulate, fills=True,
                         overlap="own")  # (expanded memory: PyTorch only warns)


Tensor.index_put_ = index_put_
Tensor.logical_not_ = _variant("logical_not", differentiable=False)  # (never recorded)
Tensor.clip_ = Tensor.clamp_


def attach_variants() -> None:
    """``x.exp_()`` for every op declared ``@method(..., inplace=True)``: its out-of-place op
    plus the recipe above (run once, after every op module attached itself)."""
    for name in INPLACE_VARIANTS:
        if not hasattr(Tensor, name + "_"):
            setattr(Tensor, name + "_", _variant(name))
    Tensor.subtract_, Tensor.multiply_, Tensor.divide_ = Tensor.sub_, Tensor.mul_, Tensor.div_
    Tensor.true_divide_, Tensor.negative_ = Tensor.div_, Tensor.neg_

# augmented assignment on a tensor is in place, as in PyTorch (`a += 1` keeps `a`'s identity)
for _dunder, _name in (("__iadd__", "add"), ("__imul__", "mul"),
                       ("__itruediv__", "div"), ("__iand__", "bitwise_and"),
                       ("__ior__", "bitwise_or"), ("__ixor__", "bitwise_xor"),
                       ("__ipow__", "pow"), ("__ifloordiv__", "floor_divide"),
                       ("__imod__", "remainder")):
    setattr(Tensor, _dunder, _variant(_name))


def _shape_error(dst_shape, shape) -> RuntimeError:
    return RuntimeError(f"output with shape [{', '.join(map(str, dst_shape))}] doesn't match "
                        f"the broadcast shape [{', '.join(map(str, shape))}]")


def _copied(input, src):
    shape = input._data.shape
    if src._data.shape != shape:
        try:
            full = np.broadcast_shapes(shape, src._data.shape)
        except ValueError:
            raise broadcast_error(input, src) from None
        if full != shape:
            raise _shape_error(shape, full)
    if src._data.shape == shape and src._data.dtype == input._data.dtype \
            and np.shares_memory(src._data, input._data):  # (not refused: PyTorch's order)
        data = copied_in_order(input._data, src._data)
    else:  # (cast: NaN and 300.0 into int8 as PyTorch casts them, without NumPy's warning)
        data = np.array(cast(np.broadcast_to(src._data, shape), input._data.dtype))
    out = Tensor._wrap(data)
    if data.dtype.kind in "fc" and should_record(input, src):  # (an integer copy: no history)
        record(CopyBackwards(), out, input, src, broadcast=True)
    return out


@method("zero_")
def zero_(self):
    """Fill with zeros, in place."""
    return apply_inplace(self, _zeroed, fills=True)


@method("masked_fill_")
def masked_fill_(self, mask, value):
    """Write ``value`` where ``mask`` holds, in place (into expanded memory too, with
    PyTorch's deprecation warning, once the autograd checks have passed)."""
    return apply_inplace(self, _masked_filled, mask, value, fills=True)


def _masked_filled(self, mask, value):
    if overlapping(self._data):
        expanded_warning("masked_fill_", "mask", "scalar", stacklevel=7)
    return self.masked_fill(mask, value)


@method("fill_")
def fill_(self, value):
    """Fill with ``value`` (a number or a 0-d tensor), in place."""
    # (a tensor value sharing this tensor's memory is read first, as PyTorch clones it)
    return apply_inplace(self, _filled, value, fills=not isinstance(value, Tensor), overlap="own")


@method("copy_")
def copy_(self, src, non_blocking: bool = False):
    """Copy ``src`` (broadcast, converted to this tensor's dtype) into this tensor."""
    if self._zero:
        refuse_write(self, copy=True)
    if isinstance(src, (bool, int, float)):  # a number is taken as a 0-d tensor, as in PyTorch
        src = Tensor._wrap(np.asarray(src))
    elif not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'other' (position 1) must be Tensor, not "
                        f"{type(src).__name__}")
    # (into an integer or bool tensor nothing is recorded, so no view is refused: PyTorch)
    a, b = self._data, src._data  # the very same elements: PyTorch's kernel does nothing, so
    same = a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides \
        and a.ctypes.data == b.ctypes.data  # (expanded memory is not refused then)
    return apply_inplace(self, _copied, src, differentiable=a.dtype.kind in "fc", fills=same)
