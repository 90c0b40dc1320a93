"""More movement ops: ``flip``, ``roll``, ``repeat``/``tile``, ``tril``/``triu``, ``diag``,
``diagonal``, ``unflatten``, ``hstack``/``vstack``, ``masked_select``, ``outer``,
``tensordot``, and the in-place ``t_``, ``unsqueeze_``, ``squeeze_``,
``fill_diagonal_``.

>>> import minigrad as torch
>>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> x.flip(0), x.tril().grad_fn.name()
(tensor([[3., 4.],
        [1., 2.]], grad_fn=<FlipBackward0>), 'TrilBackward0')
"""

from __future__ import annotations

import math

import numpy as np

from .._tensor import Tensor
from ..autograd.graph import Node, SavedTensor, record, should_record
from . import _formula as F
from ._core import method
from .indexing import SelectBackwardBackward0
from .join import cat
from .movement import strided, view_of

__all__ = ["flip", "fliplr", "flipud", "roll", "tile", "tril", "triu", "diag", "diagonal",
           "unflatten", "hstack", "vstack", "masked_select", "outer", "ger", "tensordot",
           "diag_embed"]


def _dims_arg(dims):
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        return tuple(dims[0])
    return tuple(dims)


# ---------------------------------------------------------------- flip and roll
class FlipBackward0(Node):
    """z = flip(self, dims):  dself = flip(g, dims)."""

    saved = ("dims",)

    def backward(self, g):
        return (F.like(F.as_tensor(g).flip(self._s_dims), g),)


@method("flip")
def flip(input, *dims):
    """The elements in reverse order along each of ``dims``."""
    dims = tuple(input._wrap_dim(d) for d in _dims_arg(dims))
    flat = dims if input._data.ndim else ()
    # (order K keeps the input's layout, as PyTorch's flip does: a transposed input stays so)
    out = Tensor._wrap(np.copy(np.flip(input._data, flat) if flat else input._data, order="K"))
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

    saved = ("dims", "shifts")

    def backward(self, g):
        back = [-s for s in self._s_shifts]
        return (F.like(F.as_tensor(g).roll(back, self._s_dims or None), g),)


@method("roll")
def roll(input, shifts, dims=None):
    """The elements shifted by ``shifts`` along ``dims`` (wrapping around)."""
    shifts_t = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims_t = () if dims is None else ((dims,) if isinstance(dims, int) else tuple(dims))
    if dims_t and input._data.ndim:
        data = np.roll(input._data, shifts_t, tuple(input._wrap_dim(d) for d in dims_t))
    elif not input._data.ndim:
        if dims_t:
            raise IndexError(f"Dimension specified as {dims_t[0]} but tensor has no dimensions")
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

    saved = ("repeats", "self_sym_sizes")

    @property
    def _s_self_sym_sizes(self) -> tuple:
        return tuple(self._shape)

    def backward(self, g):
        gt = F.as_tensor(g)
        reps, shape = self._s_repeats, self._shape
        lead = len(reps) - len(shape)
        split = []
        for r, s in zip(reps[lead:], shape):
            split += [r, s]
        gt = gt.reshape(tuple(gt.shape[:lead]) + tuple(split)) if split else gt
        dims = tuple(range(lead)) + tuple(lead + 2 * i for i in range(len(shape)))
        return (F.like(gt.sum(dims) if dims else gt, g),)


@method("repeat")
def repeat(input, *sizes):
    """The tensor copied ``sizes[i]`` times along each dimension."""
    reps = _dims_arg(sizes)
    if len(reps) < input._data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    out = Tensor._wrap(np.tile(input._data, reps))
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

    saved = ("diagonal",)

    def backward(self, g):
        return (F.like(F.as_tensor(g).tril(self._s_diagonal), g),)


class TriuBackward0(TrilBackward0):
    """z = triu(self, k):  dself = triu(g, k)."""

    def backward(self, g):
        return (F.like(F.as_tensor(g).triu(self._s_diagonal), g),)


def _triangle(name, np_fn, node_cls):
    def op(input, diagonal: int = 0):
        if input._data.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        out = Tensor._wrap(np_fn(input._data, diagonal))
        if should_record(input):
            node = node_cls()
            node._s_diagonal = diagonal
            record(node, out, input)
        return out

    op.__name__ = name
    op.__doc__ = f"The {'lower' if name == 'tril' else 'upper'} triangle (others set to 0)."
    return method(name)(op)


tril = _triangle("tril", np.tril, TrilBackward0)
triu = _triangle("triu", np.triu, TriuBackward0)


class DiagonalBackward0(Node):
    """z = diagonal(self, offset, dim1, dim2):  dself = zeros with g on that diagonal."""

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

    saved = ("dim1", "dim2", "offset")

    def backward(self, g):
        return (F.like(F.as_tensor(g).diagonal(self._s_offset), g),)


@method("diag")
def diag(input, diagonal: int = 0):
    """A vector to a diagonal matrix, or a matrix's diagonal (a copy) as a vector."""
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
    def name(self) -> str:
        return "DiagonalBackward0_copy"


def diag_embed(input, offset: int = 0, dim1: int = -2, dim2: int = -1):
    return diag(input, offset)


# ---------------------------------------------------------------- reshaping and joining
@method("unflatten")
def unflatten(input, dim: int, sizes):
    """Dimension ``dim`` split into ``sizes`` (one may be -1)."""
    if input.dim() == 0:  # (PyTorch's C++ error, without its stack trace)
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as "
                           f"{dim} but tensor has no dimensions")
    d = input._wrap_dim(dim)
    shape, sizes = input._data.shape, tuple(sizes)
    known = math.prod(s for s in sizes if s != -1)
    if (known != shape[d]) if -1 not in sizes else (not known or shape[d] % known):
        raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't "
                           f"multiply up to the size of dim {d} ({shape[d]}) in the input tensor")
    return input.view(shape[:d] + sizes + shape[d + 1:])


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

    saved = ("mask", "self")  # as PyTorch: the mask and the input
    saved_tensors_names = ("mask", "self")

    def backward(self, g):
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
        node._s_mask = Tensor._wrap(mask._data)
        record(node, out, input)
    return out


def outer(input, vec2):
    """``input[i] * vec2[j]``: recorded as PyTorch does (a reshape, then MulBackward0)."""
    return input.reshape(-1, 1) * vec2


ger = outer


def tensordot(a, b, dims=2):
    """Contract the last ``dims`` dims of ``a`` with the first of ``b`` (or given lists)."""
    if isinstance(dims, int):
        da, db = list(range(a.dim() - dims, a.dim())), list(range(dims))
    else:
        da, db = [list(d) if isinstance(d, (list, tuple)) else [d] for d in dims]
    da = [a._wrap_dim(d) for d in da]
    db = [b._wrap_dim(d) for d in db]
    fa = [d for d in range(a.dim()) if d not in da]
    fb = [d for d in range(b.dim()) if d not in db]
    k = int(np.prod([a.shape[d] for d in da]))
    left = a.permute(*(fa + da)).reshape(-1, k)
    right = b.permute(*(db + fb)).reshape(k, -1)
    shape = tuple(a.shape[d] for d in fa) + tuple(b.shape[d] for d in fb)
    return left.mm(right).reshape(shape)


# ---------------------------------------------------------------- in-place movement
@method("t_")
def t_(self):
    """Transpose a tensor of at most 2 dims in place."""
    return _reshape_inplace(self, self.t())


@method("unsqueeze_")
def unsqueeze_(self, dim: int):
    return _reshape_inplace(self, self.unsqueeze(dim))


@method("squeeze_")
def squeeze_(self, dim=None):
    return _reshape_inplace(self, self.squeeze() if dim is None else self.squeeze(dim))


def _reshape_inplace(self, new):
    """Make ``self`` the (view) result ``new``: its data, node and base."""
    if new._grad_fn is not None:  # (recorded: the in-place checks of every in-place op)
        from .inplace import _check_inplace

        _check_inplace(self, True)
    self._data = new._data
    if new._grad_fn is not None:
        self._grad_fn, self._output_nr = new._grad_fn, new._output_nr
    return self


@method("fill_diagonal_")
def fill_diagonal_(self, fill_value, wrap: bool = False):
    """Write ``fill_value`` on the main diagonal, in place: as PyTorch, ``fill_`` of an
    ``as_strided`` view of the diagonal (the tensor's node becomes a ``CopySlices``); with
    ``wrap`` a tall matrix's diagonal starts again every ``width + 1`` rows."""
    from .views import _storage

    if isinstance(fill_value, Tensor):  # (a Number argument: a 0-d tensor outside any graph)
        if fill_value.dim() or fill_value.requires_grad:
            raise TypeError("fill_diagonal_(): argument 'fill_value' (position 1) must be "
                            "Number, not Tensor")
        fill_value = fill_value.item()
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) > 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    d = self._data
    height, width = d.shape[:2]
    stride = (sum(self.stride()),)
    self.as_strided((min(height, width),), stride).fill_(fill_value)
    if wrap and d.ndim == 2 and height > width + 1:
        step = width + 1
        offset = (d.ctypes.data - _storage(d).ctypes.data) // d.itemsize
        self.as_strided(((d.size + step - 1) // step - width,), stride,
                        offset + self.stride(0) * step).fill_(fill_value)
    return self
