"""Shape ops: reshape/view, flatten, squeeze, unsqueeze, expand, clone (``transpose`` and
``permute`` are in transpose.py, ``movedim`` in rearrange).

Most of them return a *view*: a tensor sharing memory (and the version counter) with its
base, made from a NumPy view of the base's array. Writing into a view writes into the base.
Their backward formulas only move the gradient back into the input's shape.

>>> import minigrad as torch
>>> x = torch.zeros(2, 3)
>>> v = x.t()
>>> v[0, 1] = 5.
>>> x
tensor([[0., 0., 0.],
        [5., 0., 0.]])
"""

from __future__ import annotations

import math

import numpy as np

from .._dtype import cpu_type_name
from .._layout import like_input
from .._tensor import Tensor
from .._types import invalid_combination, row_major_strides, unsupported
from .._view_strides import unsqueezed_strides, view_strides
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.functional_utils import sum_to
from ..autograd.graph import Node, record, should_record
from . import _formula as F
from ._core import method
from .views import overlapping, strided, view_of, views_of

__all__ = ["reshape", "view", "flatten", "squeeze", "unsqueeze", "expand", "expand_as", "clone",
           "contiguous", "view_of", "views_of", "u64", "strided", "overlapping"]


def u64(n: int) -> int:
    """How PyTorch shows a negative int saved for backward: as unsigned 64-bit (-1 -> 2**64-1)."""
    return n if n >= 0 else n + 2**64


def _size_args(name: str, args, arg: str = "size") -> tuple:
    """``(2, 3)``, ``((2, 3),)`` or ``(torch.Size([2, 3]),)`` as a tuple of ints."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    for i, s in enumerate(args):
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            if isinstance(s, Tensor) and s.numel() == 1 and not s.is_floating_point():
                continue
            raise TypeError(f"{name}(): argument '{arg}' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got "
                            f"{type(s).__name__}\"")
    return tuple(int(s) for s in args)


def _infer_size(shape: tuple, numel: int) -> tuple:
    """Fill in the one ``-1`` of ``shape`` so that it holds ``numel`` elements."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for i, s in enumerate(shape):
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                               f"[{', '.join(map(str, shape))}]")
        if s != -1:
            known *= s
    bad = RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size "
                       f"{numel}")
    if -1 in shape:
        if known == 0 and not numel:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape "
                               f"[{', '.join(map(str, shape))}] because the unspecified dimension "
                               "size -1 can be any value and is ambiguous")
        if known == 0 or numel % known:
            raise bad
        return tuple(numel // known if s == -1 else s for s in shape)
    if known != numel:
        raise bad
    return shape


# ---------------------------------------------------------------- view / reshape / flatten
class ViewBackward0(Node):
    """The node of ``self.view(shape)``."""

    rule = _r("z = a.view(new shape)", {"shape": "self_sym_sizes"}, numbers="shape",
              a="grad.reshape(shape)")

    saved = ("self_sym_sizes",)


class UnsafeViewBackward0(ViewBackward0):
    """The node of ``reshape`` when no view is possible (a reshape of a copy)."""

    rule = _r("z = a.reshape(new shape)", {"shape": "self_sym_sizes"}, numbers="shape",
              a="grad.reshape(shape)")


class ReshapeAliasBackward0(ViewBackward0):
    """The node of ``self.reshape(shape)`` as a view of a non-contiguous ``self``."""

    rule = _r("z = a.reshape(new shape)", {"shape": "self_sym_sizes"}, numbers="shape",
              a="grad.reshape(shape)")


class CloneBackward0(Node):
    """The node of ``self.clone()``."""

    rule = _r("z = a.clone()", a="grad")


def _view_node(x: Tensor, cls=ViewBackward0):
    node = cls()
    node._s_self_sym_sizes = x._data.shape
    return node


@method("view")
def view(input, *shape) -> Tensor:
    """The same data seen with another shape; raises if the strides do not allow it."""
    data = input._data
    if not shape:  # (PyTorch lists its two signatures)
        raise TypeError(f"{invalid_combination('view')}\n * (torch.dtype dtype)\n"
                        " * (tuple of ints size)\n")
    shape = _infer_size(_size_args("view", shape), data.size)
    out = _viewed(data, shape)
    if out is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None
    return view_of(input, out, _view_node(input) if should_record(input) else None)


@method("reshape")
def reshape(input, *shape) -> Tensor:
    """A view with the new shape when the strides allow it, else a reshaped copy.

    Recorded as PyTorch records it: ``ViewBackward0`` for a contiguous input,
    ``ReshapeAliasBackward0`` for another view, ``CloneBackward0`` + ``UnsafeViewBackward0``
    for a copy.
    """
    data = input._data
    if not shape:
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    shape = _infer_size(_size_args("reshape", shape), data.size)
    out = _viewed(data, shape)
    if out is None:
        copy = np.ascontiguousarray(data)
        if not should_record(input):
            return Tensor._wrap(copy.reshape(shape))
        cloned = record(CloneBackward0(), Tensor._wrap(copy), input)
        return record(_view_node(cloned, UnsafeViewBackward0), Tensor._wrap(copy.reshape(shape)),
                      cloned)
    if not should_record(input):
        return view_of(input, out)
    cls = ViewBackward0 if data.flags.c_contiguous else ReshapeAliasBackward0
    return view_of(input, out, _view_node(input, cls))


def _viewed(data: np.ndarray, shape: tuple):
    """``data`` seen with ``shape`` and PyTorch's strides (``computeStride``), or None where
    PyTorch needs a copy. NumPy's own reshape where it gives those strides: a row-major array
    without size-1 dimensions."""
    if data.flags.c_contiguous and 1 not in data.shape and data.size:
        return np.reshape(data, shape)
    item = data.itemsize
    if not data.size:  # (PyTorch: the strides kept for the same shape, else row-major)
        strides = data.strides if shape == data.shape else tuple(
            s * item for s in row_major_strides(shape))
    else:
        strides = view_strides(data.shape, data.strides, shape, item)
        if strides is None:
            return None
    return strided(data, shape, strides)


@method("view_as")
def view_as(input, other):
    return view(input, other._data.shape)


@method("reshape_as")
def reshape_as(input, other):
    return reshape(input, other._data.shape)


@method("flatten")
def flatten(input, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dimensions ``start_dim`` .. ``end_dim`` into one (a reshape)."""
    shape = input._data.shape
    s, e = input._wrap_dim(start_dim), input._wrap_dim(end_dim)
    if not shape:
        return reshape(input, 1)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    return reshape(input, shape[:s] + (-1,) + shape[e + 1:])


# ---------------------------------------------------------------- squeeze / unsqueeze
class SqueezeBackward0(Node):
    """z = self.squeeze():  the removed size-1 dimensions are put back into the gradient."""

    rule = _r("z = a.squeeze()", {"shape": "self_sym_sizes"}, np={"a": "reshape(grad, shape)"},
              a="grad.reshape(shape)")

    saved = ("self_sym_sizes",)

    def backward(self, g):
        for axis in self._axes:
            g = F.unsqueeze(g, axis)
        return (g,)


class SqueezeBackward1(SqueezeBackward0):
    """z = self.squeeze(dim):  reshape the gradient back."""

    rule = _r("z = a.squeeze(dim)", {"shape": "self_sym_sizes"}, np={"a": "reshape(grad, shape)"},
              a="grad.reshape(shape)")

    saved = ("dim", "self_sym_sizes")


class SqueezeBackward2(SqueezeBackward1):
    """z = self.squeeze(dims):  reshape the gradient back."""

    rule = _r("z = a.squeeze(dims)", {"shape": "self_sym_sizes"}, np={"a": "reshape(grad, shape)"},
              a="grad.reshape(shape)")


class UnsqueezeBackward0(Node):
    """z = self.unsqueeze(dim):  remove the added dimension from the gradient."""

    rule = _r("z = a.unsqueeze(dim)", {"dim": "dim"}, np={"a": "squeeze(grad, dim)"},
              a="grad.squeeze(dim)")

    saved = ("dim",)

    def backward(self, g):
        return (g.squeeze(self._axis),)


@method("squeeze")
def squeeze(input, dim=None) -> Tensor:
    """A view without size-1 dimensions (all of them, or those among ``dim``)."""
    shape = input._data.shape
    if dim is None:
        axes, node = tuple(i for i, s in enumerate(shape) if s == 1), SqueezeBackward0()
    elif isinstance(dim, (tuple, list)):
        axes, node = tuple(input._wrap_dim(d) for d in dim), SqueezeBackward2()
        for i, a in enumerate(axes):
            if a in axes[:i]:
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
        node._s_dim = tuple(u64(d) for d in dim)
        axes = tuple(a for a in axes if shape and shape[a] == 1)
    else:
        a = input._wrap_dim(dim)
        axes, node = ((a,) if shape and shape[a] == 1 else ()), SqueezeBackward1()
        node._s_dim = u64(dim)
    if not should_record(input):
        node = None
    else:
        node._s_self_sym_sizes, node._axes = shape, axes
    return view_of(input, np.squeeze(input._data, axes), node)


@method("unsqueeze")
def unsqueeze(input, dim: int) -> Tensor:
    """A view with a new size-1 dimension at position ``dim``."""
    n = input._data.ndim + 1
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    node = None
    if should_record(input):
        node = UnsqueezeBackward0()
        node._s_dim, node._axis = u64(dim), dim % n
    data, d = input._data, dim % n
    out = np.expand_dims(data, d)
    strides = unsqueezed_strides(data.shape, data.strides, d, data.itemsize)
    return view_of(input, out if out.strides == strides else strided(data, out.shape, strides),
                   node)


# ---------------------------------------------------------------- expand
class ExpandBackward0(Node):
    """The node of ``self.expand(sizes)``."""

    rule = _r("z = a.expand(sizes)", {"shape": "self_sym_sizes"}, numbers="shape",
              a="sum_to(grad, shape)")

    saved = ("self_sym_sizes",)


formula_function(sum_to)  # (the engine's un-broadcast: functional_utils.sum_to)


def _expanded_shape(input, sizes) -> tuple:
    shape = input._data.shape
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(
            f"expand({cpu_type_name(input._data.dtype)}"
            f"{{[{', '.join(map(str, shape))}]}}, "
            f"size=[{', '.join(map(str, sizes))}]): the number of sizes provided ({len(sizes)}) "
            f"must be greater or equal to the number of dimensions in the tensor ({len(shape)})")
    if min(sizes, default=0) < 0 and (not shape or min(sizes[:lead], default=0) < -1):
        raise RuntimeError("numel: integer multiplication overflow")  # (PyTorch's, as unsigned)
    out = []
    for i in range(len(sizes) - 1, -1, -1):  # (from the last dimension, as PyTorch checks)
        s = sizes[i]
        if i < lead:
            if s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            out.append(s)
            continue
        old = shape[i - lead]
        if s == -1:
            s = old
        elif old != 1 and s != old:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({old}) at "
                f"non-singleton dimension {i}.  Target sizes: [{', '.join(map(str, sizes))}].  "
                f"Tensor sizes: [{', '.join(map(str, shape))}]")
        out.append(s)
    return tuple(reversed(out))


@method("expand")
def expand(input, *sizes) -> Tensor:
    """A read-only view repeating size-1 dimensions (``-1`` keeps a size); no data is copied."""
    shape = _expanded_shape(input, _size_args("expand", sizes))
    node = None
    if should_record(input):
        node = ExpandBackward0()
        node._s_self_sym_sizes = input._data.shape
    try:
        data = strided(input._data, shape, _expanded_strides(input._data, shape))
    except ValueError:  # NumPy: "array is too big", or a size below -1 expanding a 1
        if 0 <= math.prod(shape) < 2**63 and min(shape) >= 0:
            raise
        raise RuntimeError("numel: integer multiplication overflow") from None
    return view_of(input, data, node)


def _expanded_strides(data: np.ndarray, shape: tuple) -> tuple:
    """The strides (in bytes) of ``data`` expanded to ``shape``: 0 where it repeats; a new
    dimension of size 1 has the stride of those after it, as in PyTorch (``x[None] = x``
    then overlaps fully, not partly)."""
    if not data.ndim:
        return (0,) * len(shape)
    lead = len(shape) - data.ndim
    strides = [0 if n == 1 and s != 1 else st for n, s, st in
               zip(data.shape, shape[lead:], data.strides)]
    for i in range(lead - 1, -1, -1):
        strides.insert(0, shape[i + 1] * strides[0] if shape[i] == 1 else 0)
    return tuple(strides)


@method("expand_as")
def expand_as(input, other):
    return expand(input, other._data.shape)


# ---------------------------------------------------------------- clone / contiguous
@method("clone")
def clone(input, *, memory_format=None) -> Tensor:
    """A copy with its own memory; gradients flow through it unchanged."""
    unsupported("clone", memory_format=memory_format)
    data = input._data
    # keeps the memory layout (preserve_format), unless elements share memory (expand): then
    # in the order of the strides, as PyTorch's clone gives
    out = Tensor._wrap(data)
    out._data = like_input(np.copy(data), data)  # (an empty input's strides too)
    if should_record(input):
        record(CloneBackward0(), out, input)
    return out


@method("contiguous")
def contiguous(input, memory_format=None):
    """``input`` itself if its memory is row-major already, else a row-major copy."""
    unsupported("contiguous", memory_format=memory_format)
    if input._data.flags.c_contiguous:
        return input
    out = Tensor._wrap(np.ascontiguousarray(input._data))
    if should_record(input):
        record(CloneBackward0(), out, input)
    return out
