"""Rearranging elements: ``flip``, ``roll``, ``repeat``/``tile``, ``tril``/``triu``, ``diag``,
``diagonal``, ``unflatten``, ``hstack``/``vstack``, ``masked_select`` (the in-place ``t_``,
``squeeze_``... are in ``inplace_shape``; ``outer`` and ``tensordot`` in ``products``).

>>> import minigrad as torch
>>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> x.flip(0), x.tril().grad_fn.name()
(tensor([[3., 4.],
        [1., 2.]], grad_fn=<FlipBackward0>), 'TrilBackward0')
"""

from __future__ import annotations

import numpy as np

from .._layout import like_input, row_major
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved
from . import _formula as F
from ._core import method
from .arrange import movedim, unflatten  # noqa: F401 - (torch.movedim, ... are listed here)
from .errors import check_int, no_dims
from .indexing import SelectBackwardBackward0
from .inplace import apply_inplace
from .inplace_checks import SHARED_BY_ELEMENTS, check_inplace
from .join import cat
from .movement import strided, view_of
from .views import overlapping

__all__ = ["flip", "fliplr", "flipud", "roll", "tile", "tril", "triu", "diag", "diagonal",
           "unflatten", "hstack", "vstack", "masked_select", "diag_embed", "movedim"]


def _dims_arg(dims):
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        return tuple(dims[0])
    return tuple(dims)


# ---------------------------------------------------------------- flip and roll
class FlipBackward0(Node):
    """z = flip(self, dims):  dself = flip(g, dims)."""

    rule = _r("z = a.flip(dims)", {"dims": "dims"}, np={"a": "flip(grad, dims)"},
              a="grad.flip(dims)")

    saved = ("dims",)

    def backward(self, g):
        return (F.like(F.as_tensor(g).flip(self._s_dims), g),)


@method("flip")
def flip(input, *dims):
    """The elements in reverse order along each of ``dims``."""
    dims = tuple(input._wrap_dim(d) for d in _dims_arg(dims))
    flat = dims if input._data.ndim else ()
    # (laid out as empty_like(input), as PyTorch's flip: a transposed input stays so)
    out = Tensor._wrap(like_input(np.copy(np.flip(input._data, flat) if flat else input._data),
                                  input._data))
    if should_record(input):
        node = FlipBackward0()
        node._s_dims = list(dims)
        record(node, out, input)
    return out


def fliplr(input):
    return flip(input, 1)


def flipud(input):
    return flip(input, 0)


class RollBackward0(Node):
    """z = roll(self, shifts, dims):  dself = roll(g, -shifts, dims)."""

    rule = _r("z = a.roll(shifts, dims)", {"shifts": "shifts", "dims": "dims"},
              np={"a": "roll(grad, -shifts, dims)"}, a="grad.roll(-shifts, dims)")

    saved = ("dims", "shifts")

    def backward(self, g):
        back = [-s for s in self._s_shifts]
        return (F.like(F.as_tensor(g).roll(back, self._s_dims or None), g),)


@method("roll")
def roll(input, shifts, dims=None):
    """The elements shifted by ``shifts`` along ``dims`` (wrapping around)."""
    shifts_t = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims_t = () if dims is None else ((dims,) if isinstance(dims, int) else tuple(dims))
    if dims_t and input._data.size and input._data.ndim:
        data = np.ascontiguousarray(  # (contiguous, as PyTorch's)
            np.roll(input._data, shifts_t, tuple(input._wrap_dim(d) for d in dims_t)))
    elif not input._data.size or not input._data.ndim:  # (empty: PyTorch ignores the dims)
        if dims_t and not input._data.ndim:
            raise no_dims(dims_t[0])
        data = input._data.copy()
    else:
        data = np.roll(input._data.reshape(-1), shifts_t[0]).reshape(input._data.shape)
    out = Tensor._wrap(data)
    if should_record(input):
        node = RollBackward0()
        node._s_shifts, node._s_dims = list(shifts_t), list(dims_t)
        record(node, out, input)
    return out


# ---------------------------------------------------------------- repeat and tile
class RepeatBackward0(Node):
    """z = repeat(self, repeats):  dself = the sum of the gradient over all the copies."""

    rule = _r("z = a.repeat(repeats)", {"repeats": "repeats"}, np={"a": "unrepeat(grad, repeats)"},
              a="the sum of grad's copies (grad's blocks, repeats of them)")

    saved = ("repeats", "self_sym_sizes")

    @property
    def _s_self_sym_sizes(self) -> tuple:
        return tuple(self._shape)

    def backward(self, g):  # (PyTorch's repeat_backward, step by step)
        reps, shape = self._s_repeats, self._shape
        if 0 in reps:
            return (F.zeros(shape, g),)
        gt = F.as_tensor(g)
        lead = len(reps) - len(shape)
        for _ in range(lead):  # the leading copies, one sum each
            gt = gt.sum(0)
        split, dims = [], []  # (repeat, size) where a dimension was repeated, else size
        for r, s in zip(reps[lead:], shape):
            if r != 1:
                split.append(r)
                dims.append(len(split) - 1)
            split.append(s)
        if dims:
            gt = gt.reshape(split).sum(dims)
        return (F.like(gt, g),)


@method("repeat")
def repeat(input, *sizes):
    """The tensor copied ``sizes[i]`` times along each dimension."""
    reps = _dims_arg(sizes)
    if len(reps) < input._data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    try:
        out = Tensor._wrap(row_major(np.tile(input._data, reps)))  # (PyTorch: a new tensor)
    except ValueError:  # NumPy's "negative dimensions are not allowed"
        shape = (1,) * (len(reps) - input._data.ndim) + input._data.shape
        shape = [r * s for r, s in zip(reps, shape)]
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{next(s for s in shape if s < 0)}: [{', '.join(map(str, shape))}]"
                           ) from None
    if should_record(input):
        node = RepeatBackward0()
        node._s_repeats, node._shape = list(reps), input._data.shape
        record(node, out, input)
    return out


@method("tile")
def tile(input, *dims):
    """``repeat``, with missing leading repetitions taken as 1."""
    reps = _dims_arg(dims)
    reps = (1,) * (input._data.ndim - len(reps)) + reps
    return repeat(input, *reps)


# ---------------------------------------------------------------- triangles and diagonals
class TrilBackward0(Node):
    """z = tril(self, k):  dself = tril(g, k)."""

    rule = _r("z = a.tril(k)", {"k": "diagonal"}, np={"a": "tril(grad, k)"}, a="grad.tril(k)")

    saved = ("diagonal",)

    def backward(self, g):
        return (F.like(F.as_tensor(g).tril(self._s_diagonal), g),)


class TriuBackward0(TrilBackward0):
    """z = triu(self, k):  dself = triu(g, k)."""

    rule = _r("z = a.triu(k)", {"k": "diagonal"}, np={"a": "triu(grad, k)"}, a="grad.triu(k)")

    def backward(self, g):
        return (F.like(F.as_tensor(g).triu(self._s_diagonal), g),)


def _triangle(name, np_fn, node_cls):
    def op(input, diagonal: int = 0):
        check_int(name, "diagonal", diagonal)
        if input._data.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        out = Tensor._wrap(row_major(np_fn(input._data, diagonal)))  # (as PyTorch's)
        if should_record(input):
            node = node_cls()
            node._s_diagonal = diagonal
            record(node, out, input)
        return out

    op.__name__ = name
    op.__doc__ = f"The {'lower' if name == 'tril' else 'upper'} triangle (others set to 0)."
    return method(name, inplace=True)(op)


tril = _triangle("tril", np.tril, TrilBackward0)
triu = _triangle("triu", np.triu, TriuBackward0)


def _triangle_(name, np_fn):
    """``x.tril_()``/``x.triu_()``: PyTorch checks the dimensions before anything but autograd's
    refusals, and writes only the zeros: expanded memory is no error, and an element sharing
    memory with one zeroed reads 0."""
    def op_(self, diagonal: int = 0):
        check_inplace(self)
        check_int(name + "_", "diagonal", diagonal)
        if self._data.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        shared = overlapping(self._data)
        if shared and not _batches_in_place(self):  # (its copy back into self refuses it)
            raise RuntimeError(SHARED_BY_ELEMENTS)
        apply_inplace(self, getattr(Tensor, name), diagonal, fills=shared)
        if shared:
            self._data[..., ~np_fn(np.ones(self._data.shape[-2:], bool), diagonal)] = 0
        return self

    op_.__name__, op_.__doc__ = name + "_", f"In-place ``{name}``."
    return op_


def _batches_in_place(t: Tensor) -> bool:
    """Whether PyTorch's in-place ``tril_``/``triu_`` writes into ``t`` itself (its
    checkTrilTriuBatchContiguous): contiguous, at most 3 dimensions, or batch strides of
    matrices laid one after another (the first may be 0 or of size 1); else it works on a copy
    and copies the result back into ``t``."""
    if t.dim() <= 3 or t.is_contiguous():
        return True
    size, stride = t.shape, t.stride()
    expected = size[-1] * size[-2]
    for i in range(t.dim() - 3, -1, -1):
        if not (i == 0 and (stride[0] == 0 or size[0] == 1)):
            if stride[i] != expected:
                return False
            expected *= size[i]
    return True


Tensor.tril_, Tensor.triu_ = _triangle_("tril", np.tril), _triangle_("triu", np.triu)


class DiagonalBackward0(Node):
    """z = diagonal(self, offset, dim1, dim2):  dself = zeros with g on that diagonal."""

    rule = _r("z = a.diagonal(offset, d1, d2)",
              {"offset": "offset", "d1": "dim1", "d2": "dim2", "shape": "self_sym_sizes"},
              np={"a": "undiagonal(grad, shape, offset, d1, d2)"},
              a="zeros(shape), with grad on its diagonal (offset, d1, d2)")

    saved = ("dim1", "dim2", "offset", "self_sym_sizes")

    def backward(self, g):
        shape = tuple(self._s_self_sym_sizes)
        return (F.placed(g, shape, self._where(shape), DiagonalBackwardBackward0),)

    def _where(self, shape) -> tuple:
        """The diagonal's elements as a NumPy index into a tensor of ``shape``."""
        flat = np.arange(int(np.prod(shape))).reshape(shape)
        return np.unravel_index(np.diagonal(flat, self._s_offset, self._s_dim1, self._s_dim2),
                                shape)


class DiagonalBackwardBackward0(SelectBackwardBackward0):
    """z = the gradient of a diagonal, placed into zeros:  dz/dgrad picks the diagonal out."""

    rule = _r("z = grad_a of a diagonal, put into zeros", words=True,
              a="grad.diagonal(offset, d1, d2)")


def _diagonal_view(a: np.ndarray, offset: int, d1: int, d2: int) -> np.ndarray:
    """The diagonal as a writable view of ``a`` (``np.diagonal``'s is read-only): the other
    dimensions in order, then the diagonal, whose stride is the sum of the two strides."""
    start = [slice(None)] * a.ndim
    start[d2 if offset >= 0 else d1] = slice(abs(offset), None)
    b = a[tuple(start)]
    keep = [i for i in range(a.ndim) if i not in (d1, d2)]
    shape = tuple(b.shape[i] for i in keep) + (min(b.shape[d1], b.shape[d2]),)
    return strided(b, shape, tuple(b.strides[i] for i in keep) + (b.strides[d1] + b.strides[d2],))


@method("diagonal")
def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """The diagonal ``offset`` of the planes (dim1, dim2), as a view."""
    check_int("diagonal", "offset", offset)
    d1, d2 = input._wrap_dim(dim1), input._wrap_dim(dim2)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    data = _diagonal_view(input._data, offset, d1, d2)
    node = None
    if should_record(input):
        node = DiagonalBackward0()
        node._s_dim1, node._s_dim2, node._s_offset = d1, d2, offset
        node._s_self_sym_sizes = list(input._data.shape)
    return view_of(input, data, node)


class DiagEmbedBackward0(Node):
    """z = diag(v, k) (a matrix from a vector):  dv = the diagonal k of g."""

    rule = _r("z = a.diag(offset)  (a vector: a matrix with a on a diagonal)",
              {"offset": "offset", "d1": "dim1", "d2": "dim2"},
              np={"a": "diagonal(grad, offset, d1, d2)"}, a="grad.diagonal(offset, d1, d2)")

    saved = ("dim1", "dim2", "offset")

    def backward(self, g):
        return (F.like(F.as_tensor(g).diagonal(self._s_offset, self._s_dim1, self._s_dim2), g),)


@method("diag")
def diag(input, diagonal: int = 0):
    """A vector to a diagonal matrix, or a matrix's diagonal (a copy) as a vector."""
    check_int("diag", "diagonal", diagonal)
    if input._data.ndim == 1:
        out = Tensor._wrap(np.diag(input._data, diagonal))
        if should_record(input):
            node = DiagEmbedBackward0()
            node._s_dim1, node._s_dim2, node._s_offset = 0, 1, diagonal
            record(node, out, input)
        return out
    if input._data.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input._data.ndim}D")
    out = Tensor._wrap(np.diagonal(input._data, diagonal).copy())
    if should_record(input):
        node = _DiagonalCopy()
        node._s_dim1, node._s_dim2, node._s_offset = 0, 1, diagonal
        node._s_self_sym_sizes = list(input._data.shape)
        record(node, out, input)
    return out


class _DiagonalCopy(DiagonalBackward0):

    rule = _r("z = a.diag(offset)  (a matrix: a copy of its diagonal)",
              {"offset": "offset", "d1": "dim1", "d2": "dim2", "shape": "self_sym_sizes"},
              np={"a": "undiagonal(grad, shape, offset, d1, d2)"},
              a="zeros(shape), with grad on its diagonal (offset, d1, d2)")
    def name(self) -> str:
        return "DiagonalBackward0_copy"


@method("diag_embed")
def diag_embed(input, offset: int = 0, dim1: int = -2, dim2: int = -1):
    """The last dimension of ``input`` put on the diagonal ``offset`` of the planes (dim1, dim2)
    of a new tensor of zeros (one more dimension)."""
    x = input._data
    d1, d2 = (_wrap_new(d, x.ndim + 1) for d in (dim1, dim2))
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n, i = x.shape[-1], np.arange(x.shape[-1])
    out = np.zeros(x.shape[:-1] + (n + abs(offset),) * 2, x.dtype)
    out[..., i + max(-offset, 0), i + max(offset, 0)] = x
    out = Tensor._wrap(np.ascontiguousarray(np.moveaxis(out, (-2, -1), (d1, d2))))
    if should_record(input):
        node = DiagEmbedBackward0()
        node._s_dim1, node._s_dim2, node._s_offset = d1, d2, offset
        record(node, out, input)
    return out


def _wrap_new(dim: int, n: int) -> int:
    """``dim`` of a result with ``n`` dimensions, checked as PyTorch checks it."""
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


# ---------------------------------------------------------------- reshaping and joining
def _at_least_1d(t):
    """``t`` with at least one dimension: a 0-d tensor becomes ``[t]`` (a view, as PyTorch's)."""
    return t.reshape(1) if t.dim() == 0 else t


def _at_least_2d(t):
    """``t`` with at least two dimensions: 0-d -> ``[[t]]``, 1-d -> one row (``unsqueeze(0)``)."""
    return t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t


def hstack(tensors):
    """Join along dimension 1 (0 for 1-D tensors); 0-d tensors count as 1-D, as in PyTorch."""
    tensors = [_at_least_1d(t) for t in _non_empty(tensors, "hstack")]
    return cat(tensors, 0 if tensors[0].dim() == 1 else 1)


def vstack(tensors):
    """Join along dimension 0, 0-d and 1-D tensors taken as rows (PyTorch's ``atleast_2d``)."""
    return cat([_at_least_2d(t) for t in _non_empty(tensors, "vstack")], 0)


def _non_empty(tensors, name: str) -> list:
    if not len(tensors):
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return list(tensors)


class MaskedSelectBackward0(Node):
    """z = self[mask]:  dself = zeros with g at the selected places."""

    rule = _r("z = masked_select(a, mask) = a[mask]", {"mask": "mask", "a": "self"},
              np={"a": "unmask(grad, mask, a)"},
              a="zeros like a, with grad put where mask is True")

    saved = ("mask", "self")  # as PyTorch: the mask and the input
    saved_tensors_names = ("mask", "self")

    def backward(self, g):
        check_saved(self)  # (the mask and self, kept as PyTorch keeps them)
        gt = F.as_tensor(g)
        pos = np.flatnonzero(self._mask)
        onehot = np.zeros((self._mask.size, pos.size), gt._data.dtype)
        onehot[pos, np.arange(pos.size)] = 1
        flat = Tensor._wrap(onehot) @ gt.reshape(-1)
        return (F.like(flat.reshape(self._mask.shape), g),)


@method("masked_select")
def masked_select(input, mask):
    """The elements where ``mask`` (broadcast) is True, as a 1-D tensor."""
    if mask._data.dtype.kind != "b":
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    x, m = np.broadcast_arrays(input._data, mask._data)
    out = Tensor._wrap(x[m])
    if should_record(input):
        node = MaskedSelectBackward0()
        node._s_self = SavedTensor(input)
        if x.shape != input._data.shape:
            input = input.expand(x.shape)
        node._mask = m.copy()
        node._s_mask = SavedTensor(mask)
        record(node, out, input)
    return out


