"""Indexing: ``x[...]`` (select, slice, None, ``...``, integer and boolean tensors) and
index_put.

``x[i]``, ``x[a:b:s]``, ``x[None]`` and ``x[...]`` are *views* (``SelectBackward0``,
``SliceBackward0``, ``UnsqueezeBackward0``, ``AliasBackward0``); indexing with integer or
boolean tensors (or lists) gathers a copy (``IndexBackward0``). A combined index is applied
as PyTorch applies it: first the basic parts, left to right, one node each, then one
``IndexBackward0`` for all tensor indices together.

>>> import minigrad as torch
>>> x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
>>> x[0, 1:].grad_fn.name(), x[0, 1:].grad_fn.next_functions[0][0].name()
('SliceBackward0', 'SelectBackward0')
>>> x[[0, 0]].sum().backward()   # a repeated index adds up its gradients
>>> x.grad
tensor([[2., 2., 2.],
        [0., 0., 0.]])
"""

from __future__ import annotations

import warnings

import numpy as np

from .._layout import gather_layout
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, record, should_record
from ..autograd.saved import INFERENCE_MESSAGE, check_saved
from . import _formula as F
from ._core import method
from .index_checks import check_bounds, numpy_index
from .movement import strided, u64, unsqueeze, view_of

__all__ = ["select", "narrow", "alias", "index"]

_INT64_MAX = 2**63 - 1


def _along(dim: int, index) -> tuple:
    return (slice(None),) * dim + (index,)


class SelectBackwardBackward0(Node):
    """z = the gradient of a select, placed into zeros:  dz/dgrad picks it back out."""

    rule = _r("z = grad_a of a select, put into zeros", words=True, a="grad.select(dim, index)")

    def backward(self, gg):
        return (gg[self._where],)


class SliceBackwardBackward0(SelectBackwardBackward0):
    """z = the gradient of a slice, placed into zeros:  dz/dgrad picks it back out."""

    rule = _r("z = grad_a of a slice, put into zeros", words=True,
              a="grad[start:end:step] along dim")


# ---------------------------------------------------------------- select / slice / alias
class SelectBackward0(Node):
    """z = self.select(dim, index):  the gradient fills that slice of zeros."""

    rule = _r("z = a.select(dim, index)", words=True,
              a="zeros like a, with grad put at index along dim")

    saved = ("dim", "index", "self_sym_sizes")

    def backward(self, g):
        return (F.placed(g, self._s_self_sym_sizes, self._where, SelectBackwardBackward0),)


class SliceBackward0(Node):
    """z = self[start:end:step] along dim:  the gradient fills those entries of zeros."""

    rule = _r("z = a[start:end:step] along dim", words=True,
              a="zeros like a, with grad put in the slice")

    saved = ("dim", "end", "self_sym_sizes", "start", "step")

    def backward(self, g):
        return (F.placed(g, self._s_self_sym_sizes, self._where, SliceBackwardBackward0),)


class AliasBackward0(Node):
    """The node of a new view of the same data (``x[...]``)."""

    rule = _r("z = a  (a view of the same memory)", a="grad")


@method("select")
def select(input, dim: int, index: int):
    """The view ``input[..., index, ...]`` with ``index`` at dimension ``dim``."""
    return _select(input, dim, index)


def _select(input, dim: int, index: int, place=None):
    """``select``; ``place``: where the index sits in ``x[...]``'s tuple (PyTorch names that
    as the dimension when the index is out of bounds), None for select()'s own message (which
    names the whole shape)."""
    shape = input._data.shape
    if not shape:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = input._wrap_dim(dim)
    if not -shape[d] <= index < shape[d]:
        if place is None:
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"[{', '.join(map(str, shape))}] at dimension {d}")
        raise IndexError(f"index {index} is out of bounds for dimension {place} "
                         f"with size {shape[d]}")
    where = _along(d, index % shape[d])
    node = None
    if should_record(input):
        node = SelectBackward0()
        node._s_dim, node._s_index, node._s_self_sym_sizes = d, u64(index), shape
        node._where = where
    return view_of(input, input._data[where + (...,)], node)  # `...`: a 0-d view, not a copy


def _slice(input, dim: int, start, stop, step):
    """The view of entries ``start:stop:step`` along ``dim`` (a SliceBackward0 node)."""
    shape = input._data.shape
    if not shape:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    where = _along(dim, slice(start, stop, step))
    node = None
    if should_record(input):
        node = SliceBackward0()
        node._s_dim, node._s_self_sym_sizes, node._s_step = dim, shape, step
        node._s_start = u64(0 if start is None else start)
        node._s_end = u64(_INT64_MAX if stop is None else stop)
        node._where = where
    out = input._data[where]
    if step != 1 and not out.shape[dim]:  # (NumPy keeps the stride of an emptied dimension)
        strides = list(out.strides)
        strides[dim] = input._data.strides[dim] * step
        out = strided(out, out.shape, tuple(strides))
    return view_of(input, out, node)


@method("narrow")
def narrow(input, dim: int, start: int, length: int):
    """The view of ``length`` entries from ``start`` along ``dim``."""
    if not input._data.ndim:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = input._wrap_dim(dim)
    size = input._data.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    start = start + size if start < 0 else start
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return _slice(input, d, start, start + length, 1)


def alias(input):
    """A new view of all of ``input`` (what ``x[...]`` returns)."""
    return view_of(input, input._data[...], AliasBackward0() if should_record(input) else None)


# ---------------------------------------------------------------- parsing an index
_ZERO_DIM = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")


def _zero_dim(index: int) -> IndexError:
    """PyTorch's error for ``x[index]`` on a 0-d ``x``: its own words for index 0; for another
    index the bounds check of a dimension of size 0."""
    if index:
        return IndexError(f"index {index} is out of bounds for dimension 0 with size 0")
    return IndexError(_ZERO_DIM)


def _is_int(i) -> bool:
    """An integer, or a 0-d integer tensor other than uint8 (which PyTorch reads as a bool)."""
    if isinstance(i, Tensor):
        return i._data.ndim == 0 and i._data.dtype.kind == "i"
    return isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))


def _is_flag(i) -> bool:
    """``True``/``False``, or a 0-d bool or uint8 tensor: a new dimension, kept or emptied."""
    if isinstance(i, Tensor):
        return i._data.ndim == 0 and i._data.dtype.kind in "bu"
    return isinstance(i, (bool, np.bool_))


def _as_index(i) -> Tensor:
    """A list or tensor used as an index, as a tensor (its dtype is checked later, in
    ``numpy_index``, as PyTorch checks it after the basic indexing)."""
    if isinstance(i, Tensor):
        t = i
    else:
        if isinstance(i, range):  # y_hat[range(len(y_hat)), y]: a range is a list of ints
            i = list(i)
        if isinstance(i, (str, bytes)):  # a sequence, but of no numbers: PyTorch's new() error
            raise TypeError(f"new(): invalid data type '{type(i).__name__}'")
        if not isinstance(i, (list, tuple, np.ndarray)):
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                f"are valid indices (got {type(i).__name__})")
        a = np.asarray([x.item() if isinstance(x, Tensor) else x for x in i]
                       if isinstance(i, list) else i)
        if a.dtype.kind in "US":  # [0, 'a']: PyTorch's error for text in a tensor's data
            kind = "str" if a.dtype.kind == "U" else "bytes"
            raise TypeError(f"new(): invalid data type '{kind}'")
        # (PyTorch makes a list bool, uint8 or else int64: [1.7] is [1])
        t = Tensor._wrap(a if a.size and a.dtype in (np.bool_, np.uint8) else a.astype(np.int64))
    return t




def _dims_taken(i) -> int:
    """How many dimensions of the indexed tensor an entry of the index uses up."""
    if i is None or i is Ellipsis or _is_flag(i):
        return 0
    a = i._data if isinstance(i, Tensor) else i
    if isinstance(a, np.ndarray) and (a.dtype.kind == "b" or (a.dtype.kind == "u" and a.ndim)):
        return a.ndim  # a mask
    return 1


def _sequence_as_tuple(index: list) -> bool:
    """PyTorch reads ``x[[0, slice]]``-like lists as tuples (with a deprecation warning)."""
    if len(index) >= 32:
        return False
    return any(isinstance(i, (list, tuple, Tensor, slice)) or i is None or i is Ellipsis
               for i in index)


def _step(s: slice) -> int:
    step = 1 if s.step is None else s.step
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    return step


def apply_slicing(self, index: tuple):
    """The basic part of ``index`` applied as views, and the tensor indices left for ``index``.

    Ints select, slices slice (a slice of everything is skipped), None unsqueezes, ``...``
    skips dimensions; list and tensor indices are collected (``None`` marking dimensions they
    leave alone, a boolean mask counting once however many dimensions it covers).
    """
    ndim = self._data.ndim
    specified = sum(_dims_taken(i) for i in index)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    out, dim, shift, found = self, 0, 0, []
    for place, i in enumerate(index):
        if _is_int(i):
            if not out._data.ndim:
                raise _zero_dim(int(i))
            out = _select(out, dim, int(i), place)
        elif isinstance(i, slice):
            start, stop, step = i.start, i.stop, _step(i)
            if not (start in (None, 0) and step == 1 and out._data.ndim and
                    (stop is None or stop >= out._data.shape[dim])):
                out = _slice(out, dim, start, stop, step)
            dim += 1
        elif i is None:
            out, dim = unsqueeze(out, dim), dim + 1
        elif i is Ellipsis:
            dim += ndim - specified
        else:
            if _is_flag(i):
                out = unsqueeze(out, dim)  # True keeps that new dimension, False empties it
                i = Tensor._wrap(np.array([0] if bool(i) else [], np.int64))
            t = _as_index(i)
            found.extend([None] * (dim - shift - len(found)))
            found.append(t)
            taken = t._data.ndim if t._data.dtype.kind in "bu" else 1
            dim, shift = dim + taken, shift + taken - 1
    return out, found


@method("__getitem__")
def getitem(self, index):
    """``self[index]``, following PyTorch's rules (see the module docstring)."""
    if type(index) is not tuple:
        if _is_int(index) and not isinstance(index, Tensor):
            if not self._data.ndim:
                raise _zero_dim(index)
            return _select(self, 0, index, 0)
        if index is None:
            return unsqueeze(self, 0)
        if index is Ellipsis:
            return alias(self)
        if isinstance(index, slice):  # a lone slice is always recorded, even ``x[:]``
            return _slice(self, 0, index.start, index.stop, _step(index))
        if isinstance(index, list) and _sequence_as_tuple(index):
            warnings.warn(
                "Using a non-tuple sequence for multidimensional indexing is deprecated and will "
                "be changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 "
                "this will be interpreted as tensor index, x[torch.tensor(seq)], which will "
                "result either in an error or a different result", UserWarning, stacklevel=2)
            index = tuple(index)
        else:
            index = (index,)
    out, found = apply_slicing(self, index)
    if found:
        return _index(out, found)
    return alias(self) if out is self else out


# ---------------------------------------------------------------- index (gather)
class IndexBackward0(Node):
    """z = self[indices]:  each gradient entry is added back where it was taken from.

    An element taken twice (``x[[0, 0]]``) gets both gradients: ``np.add.at`` adds at repeated
    indices, where ``a[idx] += g`` would keep only one.
    """

    rule = _r("z = a[indices]", words=True,
              a="zeros like a, with grad added where a[indices] was taken")

    saved = ("indices", "self_sym_sizes")  # and _where: the indices as a NumPy index
    saved_lists = ("indices",)

    def backward(self, g):
        check_saved(self)  # (freed indices)
        zeros = F.zeros(self._s_self_sym_sizes, g)
        return (F.index_put(zeros, self._s_indices, self._where, g, True),)


def refuse_inference_indices(indices) -> None:
    """PyTorch's autograd saves the index tensors of a recorded op before the op checks them:
    an inference tensor among them is refused."""
    if any(isinstance(t, Tensor) and t.is_inference() for t in indices):
        raise RuntimeError(INFERENCE_MESSAGE)


def _index(input, indices):
    recorded = should_record(input, *indices)  # (an inference input alone records nothing)
    if recorded:
        refuse_inference_indices(indices)
    where = check_bounds(input._data.shape, numpy_index(input, indices))
    data = input._data[where]
    if data.ndim and all(t is None or t._data.dtype.kind not in "bu" for t in indices):
        data = gather_layout(data, input._data, [None if t is None else t._data for t in indices])
    elif input._data.flags.c_contiguous and not _row_major(data):
        data = np.array(data, order="C")  # (PyTorch's gather of a contiguous tensor is too)
    out = Tensor._wrap(data)
    if recorded:
        node = IndexBackward0()
        node._s_indices, node._s_self_sym_sizes = tuple(indices), input._data.shape
        node._where = where
        record(node, out, input)
    return out


def _row_major(a: np.ndarray) -> bool:
    """Whether ``a`` has the strides of a new C-ordered array (size-1 dimensions included)."""
    step, want = a.itemsize, []
    for n in reversed(a.shape):
        want.append(step)
        step *= n
    return a.strides == tuple(reversed(want))


def index(input, indices):
    """``input[indices]`` for a list of index tensors (``None`` for a dimension left alone)."""
    return _index(input, [None if i is None else _as_index(i) for i in indices])


Tensor._index = _index  # (the gather with ready index tensors, for formulas: see _formula)
