"""Reading and writing elements at positions given by an index tensor, along one dimension:
gather reads, scatter and scatter_add write (into a copy; their ``x.name_()`` write into ``x``).
Whole slices (index_select, index_add) are in ``index_slices.py``.

``x.gather(1, index)`` reads ``x[i][index[i][j]]`` into position ``[i][j]``; ``scatter`` is its
opposite, writing into position ``[i][index[i][j]]``. Each one's gradient is the other's
forward: gather's ``grad`` is scattered (added) back into zeros, scatter's source gets the
``grad`` gathered from the written positions.

>>> import minigrad as torch
>>> torch.zeros(3, 4).scatter_(1, torch.tensor([[2], [0], [3]]), 1)   # one-hot rows
tensor([[0., 0., 1., 0.],
        [1., 0., 0., 0.],
        [0., 0., 0., 1.]])
>>> q = torch.tensor([[0.1, 0.9], [0.7, 0.3]])
>>> q.gather(1, torch.tensor([1, 0]).unsqueeze(1))   # the value of each row's action
tensor([[0.9000],
        [0.7000]])
"""

from __future__ import annotations

import numpy as np

from .._state import warn_once
from .._tensor import Tensor
from .._tensor_data import fill_value
from .._types import invalid_combination, unsupported
from ..autograd._rule import _r
from ..autograd.engine import _user_stacklevel
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._core import method
from .binary_functions import NotImplementedBackward
from .movement import u64

__all__ = ["gather", "scatter", "scatter_add"]

_INDEX_DTYPES = ("int32", "int64")


# ---------------------------------------------------------------- nodes
class GatherBackward0(Node):
    """z = self.gather(dim, index):  the gradient is added into zeros at the read positions."""

    rule = _r("z = a.gather(dim, index)", {"a": "self", "dim": "dim", "index": "index"},
              numbers="dim index", a="gather_backward(grad, a, dim, index)",
              note="zeros like a, with grad added at index along dim (scatter_add)")

    saved = ("dim", "index", "self", "sparse_grad")
    _s_sparse_grad = False


class ScatterBackward0(Node):
    """z = self.scatter(dim, index, src):  self's gradient is 0 at the written positions; src
    gets the gradient read from them."""

    rule = _r("z = a.scatter(dim, index, s)", {"dim": "dim", "index": "index"},
              numbers="dim index", a="scatter(grad, dim, index, 0)", s="gather(grad, dim, index)")

    saved = ("dim", "index")


class ScatterBackward1(Node):
    """z = self.scatter(dim, index, number):  the gradient is 0 at the written positions."""

    rule = _r("z = a.scatter(dim, index, c)  (c a number)", {"dim": "dim", "index": "index"},
              numbers="dim index", a="scatter(grad, dim, index, 0)")

    saved = ("dim", "index")


class ScatterAddBackward0(Node):
    """z = self.scatter_add(dim, index, src):  self's gradient passes; src gets the gradient
    read from the positions it was added to."""

    rule = _r("z = a.scatter_add(dim, index, s)", {"dim": "dim", "index": "index"},
              numbers="dim index", a="grad", s="gather(grad, dim, index)")

    saved = ("dim", "index")


class ScatterReduceNotImplemented(NotImplementedBackward):
    """PyTorch records scatter with ``reduce=`` with a node whose backward raises."""

    rule = _r("z = a.scatter(dim, index, s, reduce=...)", words=True,
              **{"*": "raises: derivative for aten::scatter is not implemented"})
    _op = "scatter"


ScatterReduceNotImplemented.__name__ = "NotImplemented"  # (PyTorch's class name)
_REDUCE = {"add": np.add, "multiply": np.multiply}
_REDUCE_DEPRECATED = ("The reduce argument of torch.scatter with Tensor src is deprecated and "
                      "will be removed in a future PyTorch release. Use torch.scatter_reduce "
                      "instead for more reduction options.")


# A src larger than index: PyTorch's formula gives src a gradient of index's shape, which its
# engine refuses (minigrad's engine checks no shapes: these nodes do, under the same names)
class _ScatterMisfit(ScatterBackward0):
    def name(self) -> str:
        return "ScatterBackward0"

    def backward(self, grad):
        return _fit(self, ScatterBackward0.backward(self, grad))


class _ScatterAddMisfit(ScatterAddBackward0):
    def name(self) -> str:
        return "ScatterAddBackward0"

    def backward(self, grad):
        return _fit(self, ScatterAddBackward0.backward(self, grad))


def _fit(node, grads) -> tuple:
    if grads[1] is not None:
        raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index 1 - "
                           f"got {list(grads[1].shape)} but expected shape compatible with "
                           f"{list(node._src_shape)}")
    return grads


# ---------------------------------------------------------------- the formulas' functions
def _axis(dim: int, x) -> int:
    """A dim saved for backward (unsigned, as PyTorch shows it) as an axis of ``x``."""
    dim = dim - 2**64 if dim >= 2**63 else dim
    return dim % max(np.ndim(x), 1)


@formula_function(name="gather")
def gather_grad(g, dim: int, index):
    """``g.gather(dim, index)`` of an array or (recorded) of a tensor."""
    if isinstance(g, Tensor):
        return _gather_op(g, _axis(dim, g), _as_tensor(index))
    return _gathered(g, _axis(dim, g), _array(index))


@formula_function(name="scatter")
def scatter_grad(g, dim: int, index, value):
    """``g.scatter(dim, index, value)`` (a number) of an array or (recorded) of a tensor."""
    if isinstance(g, Tensor):
        return _scatter_op(g, _axis(dim, g), _as_tensor(index), value)
    return _written(g, _axis(dim, g), _array(index), value)


@formula_function
def gather_backward(g, self, dim: int, index):
    """PyTorch's ``gather_backward``: ``g`` added into zeros shaped as ``self`` at ``index``
    (``grad.new_zeros(self.sizes()).scatter_add(dim, index, grad)``)."""
    if isinstance(g, Tensor):
        zeros = Tensor._wrap(np.zeros(np.shape(self), g._data.dtype))
        return scatter_add(zeros, _axis(dim, g), _as_tensor(index), g)
    return _written(np.zeros(np.shape(self), g.dtype), _axis(dim, g), _array(index), g,
                    combine=np.add)


def _as_tensor(index) -> Tensor:
    """A saved index as a tensor (the index's own under create_graph), for the recorded op."""
    index = _read(index)
    return index if isinstance(index, Tensor) else Tensor._wrap(index)


def _array(index) -> np.ndarray:
    """A saved index as an array (an index is read as it is: never cast to the gradient's
    dtype, as the formulas' ``load`` casts a saved number array)."""
    index = _read(index)
    return index._data if isinstance(index, Tensor) else index


def _read(index):
    return index.get() if type(index) is SavedTensor else index


# ---------------------------------------------------------------- the arrays' work
def _along(axis: int, index) -> tuple:
    return (slice(None),) * axis + (index,)


def _coordinates(index: np.ndarray, axis: int) -> tuple:
    """For each element of ``index``: its own position, with ``axis`` replaced by its value."""
    grids = list(np.indices(index.shape, sparse=True))
    grids[axis] = index
    return tuple(grids)


def _gathered(x: np.ndarray, axis: int, index: np.ndarray) -> np.ndarray:
    flat = x.reshape(x.shape or (1,))
    return flat[_coordinates(index.reshape(index.shape or (1,)), axis)].reshape(index.shape)


def _written(x: np.ndarray, axis: int, index: np.ndarray, src, combine=None):
    """A copy of ``x`` with ``src`` (a number, or an array at least as large as ``index``)
    written at ``index`` along ``axis`` (``combine``: ``np.add`` or ``np.multiply`` with what
    is there, each element in turn)."""
    out = np.array(x, order="C")  # (a new row-major tensor, as PyTorch's)
    flat = out.reshape(out.shape or (1,))
    index = index.reshape(index.shape or (1,))
    where = _coordinates(index, axis)
    if np.ndim(src):  # (a number is written everywhere)
        src = src.reshape(src.shape or (1,))[tuple(slice(0, n) for n in index.shape)]
    if combine is None:
        flat[where] = src
    else:
        combine.at(flat, where, src)
    return out


# ---------------------------------------------------------------- checks, in PyTorch's order
def _index_of(fn: str, index, position: int = 2):
    if not isinstance(index, Tensor):
        raise TypeError(f"{fn}(): argument 'index' (position {position}) must be Tensor, not "
                        f"{type(index).__name__}")
    return index


def _checked(fn: str, input, dim, index, src=None, reduce=None) -> int:
    """The axis, after PyTorch's checks of gather's and scatter's index (and src)."""
    axis = input._wrap_dim(dim)
    if index._data.dtype.name not in _INDEX_DTYPES:
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")
    if src is not None and src._data.dtype != input._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    n = max(input._data.ndim, 1)
    if max(index._data.ndim, 1) != n and index._data.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as "
                           f"{'input' if fn == 'gather' else 'self'} tensor")
    if src is not None and max(src._data.ndim, 1) != n and index._data.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    sizes = [int(s) for s in (input._data.shape or (1,))]
    given = [int(s) for s in (index._data.shape or (1,))]
    if fn == "gather":
        for d, (i, s) in enumerate(zip(given, sizes)):
            if d != axis and i > s:
                raise RuntimeError(f"Size does not match at dimension {d} expected index "
                                   f"{given} to be no larger than self {sizes} apart from "
                                   f"dimension {axis}")
    elif index._data.size:
        srcs = [int(s) for s in (src._data.shape or (1,))] if src is not None else None
        if any(d != axis and i > s for d, (i, s) in enumerate(zip(given, sizes))) or \
                srcs and any(i > s for i, s in zip(given, srcs)):
            shown = f" and to be no larger size than src {srcs}" if srcs else ""
            raise RuntimeError(f"Expected index {given} to be no larger than self {sizes} apart "
                               f"from dimension {axis}{shown}")
    if reduce is not None and reduce not in _REDUCE:
        raise RuntimeError("reduce argument must be either add or multiply.")
    _in_bounds(index._data, sizes[axis], axis)
    return axis


def _in_bounds(where: np.ndarray, size: int, axis: int) -> None:
    bad = where[(where < 0) | (where >= size)]
    if bad.size:
        raise RuntimeError(f"index {bad.flat[0]} is out of bounds for dimension {axis} with "
                           f"size {size}")


def _node(cls, index, src):
    """A new ``cls`` node; where src is larger than index, its misfit variant (above)."""
    if index._data.shape == src._data.shape:
        return cls()
    node = (_ScatterMisfit if cls is ScatterBackward0 else _ScatterAddMisfit)()
    node._src_shape = src._data.shape
    return node


# ---------------------------------------------------------------- the ops
@method("gather")
def gather(input, dim: int, index, *, sparse_grad: bool = False):
    """The elements of ``input`` at ``index`` along ``dim``: ``out[i][j] = input[i][index[i][j]]``
    for ``dim=1``. The result has ``index``'s shape."""
    unsupported("gather", sparse_grad=sparse_grad)
    return _gather_op(input, dim, _index_of("gather", index))


def _gather_op(input, dim, index):
    axis = _checked("gather", input, dim, index)
    result = Tensor._wrap(_gathered(input._data, axis, index._data))
    if should_record(input, index):
        node = GatherBackward0()
        node._s_dim, node._s_index, node._s_self = u64(dim), SavedTensor(index), \
            SavedTensor(input)
        record(node, result, input)
    return result


@method("scatter", inplace=True)
def scatter(input, dim: int, index, src=None, *, value=None, reduce=None):
    """A copy of ``input`` with ``src`` (a tensor, or a number: ``value``) written at ``index``
    along ``dim``: ``out[i][index[i][j]] = src[i][j]`` for ``dim=1``. A position written twice
    keeps the last value written, as PyTorch's CPU kernel does (``reduce='add'`` or
    ``'multiply'``: each combined with what is there; not differentiable)."""
    src = value if src is None else src
    if not isinstance(index, Tensor) or not isinstance(src, (Tensor, int, float, bool)):
        raise TypeError(f"{invalid_combination('scatter', (dim, index, src))}")
    return _scatter_op(input, dim, index, src, reduce)


def _scatter_op(input, dim, index, src, reduce=None):
    """``scatter``; ``reduce`` ('add' or 'multiply'): combined with what is there, recorded
    with a node that has no derivative, as in PyTorch."""
    tensor_src = isinstance(src, Tensor)
    if reduce is not None and tensor_src:
        warn_once("scatter reduce", _REDUCE_DEPRECATED, _user_stacklevel())
    axis = _checked("scatter", input, dim, index, src if tensor_src else None, reduce)
    written = src._data if tensor_src else fill_value(src, input.dtype)
    result = Tensor._wrap(_written(input._data, axis, index._data, written,
                                   None if reduce is None else _REDUCE[reduce]))
    if should_record(input, src if tensor_src else None):
        if reduce is not None:
            return record(ScatterReduceNotImplemented(), result, input,
                          *((src,) if tensor_src else ()))
        node = _node(ScatterBackward0, index, src) if tensor_src else ScatterBackward1()
        node._s_dim, node._s_index = u64(dim), SavedTensor(index)
        record(node, result, input, *((src,) if tensor_src else ()))
    return result


@method("scatter_add", inplace=True)
def scatter_add(input, dim: int, index, src):
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim``: ``out[i][index[i][j]]
    += src[i][j]`` for ``dim=1``, each in turn (a position met twice gets both)."""
    _index_of("scatter_add", index)
    if not isinstance(src, Tensor):
        raise TypeError("scatter_add(): argument 'src' (position 3) must be Tensor, not "
                        f"{type(src).__name__}")
    axis = _checked("scatter", input, dim, index, src)
    result = Tensor._wrap(_written(input._data, axis, index._data, src._data, combine=np.add))
    if should_record(input, src):
        node = _node(ScatterAddBackward0, index, src)
        node._s_dim, node._s_index = u64(dim), SavedTensor(index)
        record(node, result, input, src)
    return result
