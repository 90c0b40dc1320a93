"""Reading and writing whole slices at positions given by an index vector, along one
dimension: ``index_select`` reads them, ``index_add`` adds into them (into a copy; its
``x.index_add_()`` into ``x``). Each one's gradient is the other's forward, as for gather and
scatter (``gather_scatter.py``, whose helpers these share).

>>> import minigrad as torch
>>> x = torch.arange(6.).reshape(2, 3)
>>> x.index_select(1, torch.tensor([2, 0]))
tensor([[2., 0.],
        [5., 3.]])
>>> torch.zeros(2, 3).index_add(1, torch.tensor([0, 0]), torch.ones(2, 2))
tensor([[2., 0., 0.],
        [2., 0., 0.]])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._core import method
from .gather_scatter import _INDEX_DTYPES, _along, _array, _as_tensor, _axis, _in_bounds, _index_of
from .movement import u64

__all__ = ["index_select", "index_add"]


class IndexSelectBackward0(Node):
    """z = self.index_select(dim, index):  the gradient is added into zeros at those slices."""

    rule = _r("z = a.index_select(dim, index)",
              {"dim": "dim", "index": "index", "sizes": "self_sym_sizes"},
              numbers="dim index sizes",
              a="index_select_backward(grad, sizes, dim, index)",
              note="zeros like a, with grad added at index along dim (index_add)")

    saved = ("dim", "index", "self_sym_sizes")


class IndexAddBackward0(Node):
    """z = self.index_add(dim, index, source, alpha=alpha):  self's gradient passes; source
    gets alpha times the gradient of the slices it was added to."""

    rule = _r("z = a.index_add(dim, index, s, alpha=alpha)",
              {"dim": "dim", "index": "index", "s": "source", "alpha": "alpha",
               "source_dim": "source_dim"}, numbers="dim index alpha source_dim",
              a="grad", s="index_add_source_backward(grad, dim, index, s, source_dim) * alpha")

    saved = ("alpha", "dim", "index", "source", "source_dim")


@formula_function
def index_select_backward(g, sizes, dim: int, index):
    """PyTorch's ``index_select_backward``: ``g`` added into zeros of ``sizes`` at the slices
    ``index`` (``zeros(sizes).index_add_(dim, index, grad)``)."""
    if isinstance(g, Tensor):
        zeros = Tensor._wrap(np.zeros(tuple(sizes), g._data.dtype))
        return index_add(zeros, _axis(dim, g), _as_tensor(index), g)
    out = np.zeros(tuple(sizes), g.dtype)
    flat = out.reshape(out.shape or (1,))
    np.add.at(flat, _along(_axis(dim, g), _array(index).reshape(-1)),
              g.reshape(flat.shape[:0] + (g.shape or (1,))))
    return out


@formula_function
def index_add_source_backward(g, dim: int, index, source, source_dim: int):
    """The gradient of index_add's source: ``grad.index_select(dim, index)``, expanded as
    ``source`` (a 0-d source: the one slice, as it is)."""
    axis = _axis(dim, g)
    if isinstance(g, Tensor):
        picked = index_select(g, axis, _as_tensor(index).reshape(-1))
        return picked.expand_as(source) if source_dim > 0 else picked.reshape(())
    picked = np.take(g.reshape(g.shape or (1,)), _array(index).reshape(-1), axis)
    return np.broadcast_to(picked, np.shape(source)) if source_dim > 0 else picked.reshape(())


def _index_add_checked(input, axis: int, index, source) -> np.ndarray:
    """index_add's positions, after PyTorch's checks in its order."""
    i, x, src = index._data, input._data, source._data
    if i.ndim > 1:
        raise IndexError("index_add_(): Index is supposed to be a vector, but got dim: "
                         f"{i.ndim} with type: {index.dtype._cpp} and size: {list(i.shape)}")
    if i.dtype.name not in _INDEX_DTYPES:
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{index.dtype._cpp}")
    if src.dtype != x.dtype:
        raise RuntimeError(f"index_add_(): self ({input.dtype._cpp}) and source "
                           f"({source.dtype._cpp}) must have the same scalar type")
    if src.ndim and axis >= src.ndim:
        raise RuntimeError(f"index_add_(): Indexing dim {axis} is out of bounds of the source "
                           f"tensor with dim {src.ndim}")
    n = src.shape[axis] if src.ndim else 1
    if i.size != n:
        raise RuntimeError(f"index_add_(): Number of indices ({i.size}) should be equal to "
                           f"source.size(dim): ({n}), for dim: {axis}")
    if src.ndim != x.ndim or any(a != b for d, (a, b) in enumerate(zip(x.shape, src.shape))
                                 if d != axis):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(x.shape)} "
                           f"source.shape = {list(src.shape)}")
    where = i.reshape(-1)
    _in_bounds(where, x.shape[axis] if x.ndim else 1, axis)
    return where


@method("index_select")
def index_select(input, dim: int, index):
    """The slices of ``input`` at positions ``index`` (a vector) along ``dim``, in that order."""
    index = _index_of("index_select", index)
    axis = input._wrap_dim(dim)
    if index._data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index._data.dtype.name not in _INDEX_DTYPES:
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    where = index._data.reshape(-1)
    x = input._data
    if x.ndim == 0:
        if where.size != 1:
            raise RuntimeError("index_select(): Index to scalar can have only 1 value, got "
                               f"{where.size} value(s)")
        x = x.reshape(1)
    size = x.shape[axis]
    if x.ndim > 1 and where.size and not size:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    bad = where[(where < 0) | (where >= size)]
    if bad.size:  # (PyTorch's kernel for dim 1 says it otherwise)
        if axis == 1:
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad[0]} "
                               f"axis_dim={size}")
        raise IndexError("index out of range in self")
    picked = np.take(x, where, axis)
    result = Tensor._wrap(picked.reshape(()) if input._data.ndim == 0 else picked)
    if should_record(input, index):
        node = IndexSelectBackward0()
        node._s_dim, node._s_index = u64(dim), SavedTensor(index)
        node._s_self_sym_sizes = input._data.shape
        record(node, result, input)
    return result


@method("index_add", inplace=True)
def index_add(input, dim: int, index, source, *, alpha=1):
    """A copy of ``input`` with ``alpha * source`` added to the slices at ``index`` (a vector)
    along ``dim``, each in turn (a slice met twice gets both)."""
    index = _index_of("index_add", index)
    if not isinstance(source, Tensor):
        raise TypeError("index_add(): argument 'source' (position 3) must be Tensor, not "
                        f"{type(source).__name__}")
    axis = input._wrap_dim(dim)
    where = _index_add_checked(input, axis, index, source)
    x = input._data
    added = source._data if alpha == 1 else source._data * alpha
    result = np.array(x, order="C")  # (a new row-major tensor, as PyTorch's)
    flat = result.reshape(x.shape or (1,))
    np.add.at(flat, _along(axis, where), added.reshape(
        flat.shape[:axis] + (where.size,) + flat.shape[axis + 1:]).astype(x.dtype, copy=False))
    result = Tensor._wrap(result)
    if should_record(input, source):
        node = IndexAddBackward0()
        node._s_dim, node._s_index, node._s_alpha = u64(dim), SavedTensor(index), alpha
        node._s_source, node._s_source_dim = SavedTensor(source), source._data.ndim
        record(node, result, input, source)
    return result
