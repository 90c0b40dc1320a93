"""Scans and sorting: ``cumsum``, ``cumprod``, ``median``, ``sort``, ``argsort``,
``topk`` (``var``, ``std`` and ``logsumexp`` are in statistics.py, ``unique`` in unique.py).

Formulas use Tensor operations where they must run under ``create_graph=True``; those that
route gradients to chosen positions (sort, topk, median) scatter with a constant index.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2., 3.], requires_grad=True)
>>> y = x.cumsum(0)
>>> y.sum().backward(); y.grad_fn.name(), x.grad
('CumsumBackward0', tensor([3., 2., 1.]))
"""

from __future__ import annotations

import numpy as np

from .._dtype import bool as _bool
from .._layout import like_input, row_major
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved
from . import _formula as F
from ._backward import data, reversed_cumsum, where
from ._core import method, value
from .errors import empty_reduction, not_implemented
from .minmax import _return_type, return_types
from .reduce import reduction_input
from .rounding import scan
from .select_order import median_index, sort_indices, topk_indices

_UINT64 = 2**64 - 1  # (a saved negative int shows as its unsigned 64-bit pattern)

__all__ = ["cumsum", "cumprod", "median", "sort", "argsort", "topk"]


def _expand_back(g, dims, keepdim: bool, shape):
    """``g`` reshaped so it broadcasts against the input (the reduced dims put back)."""
    if keepdim or not dims:
        return g
    full = list(shape)
    for d in dims:
        full[d] = 1
    return g.reshape(tuple(full))


# ---------------------------------------------------------------- scans
class CumsumBackward0(Node):
    """z = cumsum(self, dim):  dself = the reversed cumulative sum of the gradient."""

    rule = _r("z = cumsum(a, dim)", {"dim": "dim"},
              np={"a": "flip(cumsum(flip(grad, dim), dim), dim)"},
              a="grad.flip(dim).cumsum(dim).flip(dim)")

    saved = ("dim",)

    def backward(self, g):
        gd = data(g)
        if gd.size <= 1 or gd.shape[self._s_dim] == 1:  # (PyTorch's trivial case: g itself)
            return (g,)
        return (reversed_cumsum(g, self._s_dim),)


def _running(np_scan, input, dim: int, dtype):
    """``(dim, out)``: ``np_scan`` (np.cumsum, np.cumprod) along ``dim``, in ``dtype`` or
    PyTorch's default (int64 for integer and bool input, else the input's dtype)."""
    d = input._wrap_dim(dim)
    if dtype is _bool and input._data.ndim and input._data.size:  # (no kernel runs otherwise)
        raise not_implemented(f"{np_scan.__name__}_out_cpu", dtype)
    src, out_dtype = reduction_input(input, dtype, np_scan.__name__, dim)
    token = quiet()  # (overflow, inf * 0: inf and NaN as in PyTorch, no NumPy warning)
    try:
        data = scan(np_scan, src, d, out_dtype) if src.ndim else src.astype(out_dtype)
    finally:
        restore(token)
    return d, Tensor._wrap(np.asarray(data, order="C"))  # (contiguous, as PyTorch's)


@method("cumsum", inplace=True)
def cumsum(input, dim: int, *, dtype=None):
    """Running sums along ``dim``."""
    d, out = _running(np.cumsum, input, dim, dtype)
    if should_record(input):  # (an integer result raises, as in PyTorch)
        node = CumsumBackward0()
        node._s_dim = d
        record(node, out, input, broadcast=True)  # (a dtype= cast is undone on the gradient)
    return out


class CumprodBackward0(Node):
    """z = cumprod(self, dim):  dself_i = sum_{j >= i} g_j z_j / self_i (computed without the
    division where self has zeros)."""

    rule = _r("z = cumprod(a, dim)", {"a": "self", "z": "result", "dim": "dim"},
              np={"a": "cumprod_grad(grad, a, dim)"},
              a="(z * grad).flip(dim).cumsum(dim).flip(dim) / a  (a without zeros; else the "
                "product of the other factors)")

    saved = ("dim", "result", "self")
    saved_tensors_names = ("result", "self")

    def backward(self, g):  # PyTorch's cumprod_backward
        d, x, z = self._s_dim, value(self._s_self), value(self._s_result)
        xd = data(x)
        if xd.size <= 1 or xd.shape[d] == 1:
            return (g,)
        if not np.any(xd == 0):
            return (reversed_cumsum(z * g, d) / x,)  # (inf * 0: NaN, as in PyTorch)
        if F.recording(g):  # (PyTorch: GradMode on, an expression it can differentiate again)
            return (_cumprod_grad_by_slices(g, x, d),)
        return (_cumprod_grad_masked(xd, g, z, d),)


def _cumprod_grad_by_slices(g, x, d):
    """The gradient for inputs with zeros as PyTorch writes it to be differentiated again
    (O(n^2)): for each k, the sum over j >= k of g_j times the product of x_0..x_j without
    x_k, that is prod(x[:k]) * cumprod(x[k+1:])."""
    n = x.shape[d]
    ones = Tensor._wrap(np.ones(1, x._data.dtype)).expand(
        tuple(1 if i == d else s for i, s in enumerate(x.shape)))
    grad_input = Tensor._wrap(np.zeros(x.shape, g._data.dtype))
    for k in range(n):
        if k == 0:
            omitted = F.cat([ones, x.narrow(d, 1, n - 1).cumprod(d)], d)
        else:
            until_k = x.narrow(d, 0, k).prod(d, keepdim=True)
            if k == n - 1:
                omitted = until_k
            else:
                from_k1 = x.narrow(d, k + 1, n - k - 1).cumprod(d)
                omitted = F.cat([until_k, until_k.expand_as(from_k1) * from_k1], d)
        grad_input.select(d, k).copy_((g.narrow(d, k, n - k) * omitted).sum(d))
    return grad_input


def _cumprod_grad_masked(x, g, z, d):
    """PyTorch's O(n) gradient for inputs with zeros (first order only). Along ``d``, with z1
    the first zero and z2 the second: before z1, ``sum_{j >= k} g_j z_j / x_k`` over j < z1;
    at z1, ``z[z1 - 1] * sum_{z1 <= j < z2} g_j * prod(x[z1+1..j])``; after z1, 0. (Masked
    values are 0 or 1 as in PyTorch's expression, so an inf elsewhere can give its NaN.)"""
    seen = np.cumsum(x == 0, axis=d)  # zeros up to and including each position
    before, second = seen == 0, seen == 1
    out = np.where(before, reversed_cumsum(np.where(before, z * g, 0), d) / x, 0)
    first_at = np.argmax(second, axis=d, keepdims=True)
    first = second & (np.arange(x.shape[d]).reshape(
        (-1,) + (1,) * (x.ndim - d - 1)) == first_at)
    between = second & ~first
    total = (np.cumprod(np.where(between, x, 1), d) * np.where(second, g, 0)).sum(
        d, keepdims=True)
    before_z1 = np.take_along_axis(z, np.maximum(first_at - 1, 0), d)
    total = total * np.where(first_at == 0, 1, before_z1)
    return np.where(first, total, out).astype(g.dtype, copy=False)


@method("cumprod", inplace=True)
def cumprod(input, dim: int, *, dtype=None):
    """Running products along ``dim``."""
    d, out = _running(np.cumprod, input, dim, dtype)
    if should_record(input):  # (an integer result raises, as in PyTorch)
        node = CumprodBackward0()
        node._s_dim, node._s_self = d, SavedTensor(input)
        record(node, out, input, broadcast=True)  # (a dtype= cast is undone on the gradient)
        node._s_result = SavedTensor(out, node)
    return out


# ---------------------------------------------------------------- order statistics
class _Scatter(Node):
    """The gradient of each output goes back to the input position it was taken from."""

    _idx = None  # sort/topk/median(dim): the positions along _axis each value came from

    def backward(self, g, *rest):
        check_saved(self)  # (the indices, median's self and result: read or not, checked)
        if self._idx is not None:  # (PyTorch's value_selecting_reduction_backward)
            return (scatter_into_zeros(F.unsqueeze(g, self._axis) if self._squeezed else g,
                                       self._axis, self._idx, self._shape),)
        gt = F.as_tensor(g)
        onehot = self._onehot  # (input size, output size) weights (0/1), a constant
        if self._shared:  # one output shared by several positions: PyTorch's masked_fill_
            # of zeros with grad / count (an infinite or NaN grad leaves the others 0)
            mask = onehot[:, 0].reshape(self._shape) != 0
            return (where(mask, g / self._shared, 0),)
        flat = Tensor._wrap(onehot.astype(gt._data.dtype)) @ gt.reshape(-1)
        return (F.like(flat.reshape(self._shape), g),)


def _scatter_node(cls, input, positions: np.ndarray, share=None):
    """``positions``: for each output element, the flat index into the input it came from
    (or, with ``share``, the positions one single output is shared by, each getting its
    gradient divided by ``share``, their count)."""
    node = cls()
    if share is None:
        onehot = np.zeros((input._data.size, positions.size), np.uint8)
        onehot[positions.reshape(-1), np.arange(positions.size)] = 1
    else:
        onehot = np.zeros((input._data.size, 1), np.uint8)
        onehot[positions.reshape(-1), 0] = 1
    node._onehot, node._shape, node._shared = onehot, input._data.shape, share
    return node


class ScatterBackward0(Node):
    """z = zeros.scatter(dim, index, src):  dsrc = grad.gather(dim, index) (the zeros get none)."""

    rule = _r("z = zeros.scatter(dim, index, src)  (sort/topk/median's gradient)", words=True,
              zeros="none (no gradient)", src="grad.gather(dim, index)")

    saved = ("dim", "index")

    @property
    def _s_index(self):
        return Tensor._wrap(self._idx)

    def backward(self, gg):
        where = _along(self._idx, self._s_dim)
        return None, F.index(gg, tuple(Tensor._wrap(w) for w in where), where)


def _along(idx, dim):
    """The NumPy index that takes ``idx`` along ``dim`` (``take_along_axis``'s)."""
    return tuple(idx if i == dim else np.arange(n).reshape(
        (1,) * i + (n,) + (1,) * (idx.ndim - i - 1)) for i, n in enumerate(idx.shape))


def scatter_into_zeros(src, dim, idx, shape):
    """``zeros(shape).scatter_(dim, idx, src)``: each value of ``src`` put back where it was
    taken from; on tensors an op of its own (``ScatterBackward0``), as in PyTorch."""
    out = np.zeros(shape, F.data(src).dtype)
    np.put_along_axis(out, idx, F.data(src), dim)
    if not isinstance(src, Tensor):
        return out
    t = Tensor._wrap(out)
    if should_record(src):
        node = ScatterBackward0()
        node._s_dim, node._idx = dim, idx
        record(node, t, None, src)
    return t


for _name in ("sort", "topk", "median"):
    setattr(return_types, _name, _return_type(_name))


def _pair(name: str, values, indices):
    return getattr(return_types, name)((values, indices))


class SortBackward0(_Scatter):
    """z = sort(self):  each sorted value's gradient goes back to where it came from."""

    rule = _r("(z, i) = a.sort(dim)", {"i": "indices", "dim": "dim", "shape": "self_sym_sizes"},
              np={"a": "put_along(grad, i, dim, shape)"},
              a="zeros(shape), with grad put back at indices i along dim")

    saved = ("dim", "indices", "self_sym_sizes")  # as PyTorch (the backward uses _onehot)
    saved_tensors_names = ("indices",)


class TopkBackward0(_Scatter):
    """z = topk(self, k):  each chosen value's gradient goes back to where it came from."""

    rule = _r("(z, i) = a.topk(k, dim)", {"i": "indices", "dim": "dim", "shape": "self_sym_sizes"},
              np={"a": "put_along(grad, i, dim, shape)"},
              a="zeros(shape), with grad put back at indices i along dim")

    saved = ("dim", "indices", "self_sym_sizes")
    saved_tensors_names = ("indices",)


class MedianBackward0(_Scatter):
    """z = median(self):  the gradient goes to the median element."""

    rule = _r("z = a.median()", {"a": "self", "z": "result"},
              a="where(a == z, grad / total(a == z), 0)")

    saved = ("result", "self")
    saved_tensors_names = ("result", "self")


class MedianBackward1(_Scatter):
    """z = median(self, dim):  the gradient goes to each row's median element."""

    rule = _r("(z, i) = a.median(dim, keepdim)",
              {"i": "indices", "dim": "dim", "shape": "self_sym_sizes", "keepdim": "keepdim"},
              np={"a": "put_along(grad, i, dim, shape, keepdim)"},
              a="zeros(shape), with grad put at indices i along dim")

    saved = ("dim", "indices", "keepdim", "self_sym_sizes")
    saved_tensors_names = ("indices",)


def _ordered(input, dim, idx, node_cls, squeeze: bool = False, given=None,
             layout: bool = False):
    """The values of ``input`` at ``idx`` along ``dim`` (and the indices), recorded so that each
    value's gradient goes back to its position; ``squeeze`` drops ``dim`` (size 1); ``given``:
    the dim as the caller wrote it (PyTorch saves that one, a negative one unsigned);
    ``layout``: laid out in memory as ``input`` is (sort's ``empty_like``), else row-major
    (topk's, median's new tensors)."""
    values = np.take_along_axis(input._data, idx, axis=dim)
    out_idx = idx.astype(np.int64)
    if squeeze:
        values, out_idx = np.squeeze(values, axis=dim), np.squeeze(out_idx, axis=dim)
    lay = (lambda a: like_input(a, input._data)) if layout else row_major
    values, out_idx = lay(values), lay(out_idx)
    vals, inds = Tensor._wrap(values), Tensor._wrap(out_idx)
    if should_record(input):  # (an integer result raises, as in PyTorch)
        node = node_cls()
        node._shape, node._shared, node._squeezed = input._data.shape, False, squeeze
        node._axis, node._idx = dim, idx.astype(np.int64)
        _keep_indices(node, (dim if given is None else given) & _UINT64, inds, input,
                      keepdim=not squeeze)
        record(node, vals, input)
    return vals, inds


def _descending_key(x: np.ndarray) -> np.ndarray:
    """Sort keys for largest-first order, NaN first (PyTorch counts NaN as the largest)."""
    if x.dtype.kind == "b":
        return ~x  # (True first, ties in their order: PyTorch's stable order)
    if x.dtype.kind != "f":
        return -x.astype(np.int64) if x.dtype.kind == "u" else -x
    return np.where(np.isnan(x), -np.inf, -x)


def _keep_indices(node, dim, indices, input, keepdim) -> None:
    """What PyTorch keeps for the rule of sort/topk/median(dim): dim, indices, input sizes."""
    node._s_dim, node._s_indices = dim, indices
    node._s_self_sym_sizes = list(input._data.shape)
    if "keepdim" in node.saved:
        node._s_keepdim = keepdim


@method("sort")
def sort(input, dim: int = -1, descending: bool = False, stable: bool = False):
    """Values sorted along ``dim`` and the indices they came from."""
    x = input._data
    if x.ndim == 0:
        return _pair("sort", *_scalar_order(input, SortBackward0, dim))
    d = input._wrap_dim(dim)
    idx = np.argsort(_descending_key(x) if descending else x, axis=d, kind="stable")
    if not stable:  # (PyTorch's default: std::sort, which orders ties otherwise)
        idx = sort_indices(x, d, descending, idx)
    return _pair("sort", *_ordered(input, d, idx, SortBackward0, given=dim, layout=True))


@method("argsort")
def argsort(input, dim: int = -1, descending: bool = False, stable: bool = False):
    """The indices that sort ``input`` along ``dim``."""
    return sort(input, dim, descending, stable).indices


@method("topk")
def topk(input, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
    """The ``k`` largest (or smallest) values along ``dim`` and their indices."""
    should_record(input)  # (autograd reads a view's history before the kernel's checks)
    d = input._wrap_dim(dim)
    size = input._data.shape[d] if input._data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if input._data.dtype.kind == "b":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if not input._data.ndim:  # a 0-d input: itself (k = 1) as 0-d results
        return _pair("topk", *_scalar_order(input, TopkBackward0, dim))
    x = input._data
    idx = topk_indices(x, k, d, largest, np.argsort(_descending_key(x) if largest else x, axis=d,
                                                    kind="stable"))
    return _pair("topk", *_ordered(input, d, idx, TopkBackward0, given=dim))


def _scalar_order(input, node_cls, given: int):
    """sort/topk of a 0-d tensor: a copy of it, recorded with ``node_cls``, and index 0."""
    out = Tensor._wrap(input._data.copy())
    if should_record(input):  # (an integer result raises, as in PyTorch)
        node = _scatter_node(node_cls, input, np.zeros(1, np.int64))
        _keep_indices(node, given & _UINT64, Tensor._wrap(np.zeros((), np.int64)), input, True)
        record(node, out, input)
    return out, Tensor._wrap(np.zeros((), np.int64))


def _nan_in(dtype: np.dtype) -> np.ndarray:
    """NaN converted to ``dtype`` as PyTorch's C++ does for an empty median: True for bool, the
    lowest int32/int64 (which wraps to 0 in the narrower integers) for integers."""
    if dtype.kind in "iu":
        wide = np.int64 if dtype == np.int64 else np.int32
        return np.array(np.iinfo(wide).min).astype(dtype)
    return np.array(True if dtype.kind == "b" else np.nan, dtype)


@method("median")
def median(input, dim=None, keepdim: bool = False):
    """The lower median (of all elements, or along ``dim`` with its indices)."""
    x = input._data
    if dim is None:
        if x.dtype.kind == "b" and x.size:
            raise NotImplementedError("\"median_cpu\" not implemented for 'Bool'")
        flat = x.reshape(-1)
        nan = np.flatnonzero(np.isnan(flat)) if x.dtype.kind == "f" else ()  # (NaN: the median)
        pos = nan[-1:] if len(nan) else [median_index(flat)] if flat.size else ()
        out = Tensor._wrap(np.asarray(flat[pos[0]]) if x.size else _nan_in(x.dtype))
        if should_record(input):  # (an integer result raises, as in PyTorch)
            # PyTorch shares the gradient evenly by the elements equal to it (or NaN, if NaN)
            ties = np.flatnonzero(np.isnan(flat) if np.isnan(out._data) else flat == out._data)
            node = _scatter_node(MedianBackward0, input, ties, max(ties.size, 1))
            node._s_self = SavedTensor(input)
            record(node, out, input)
            node._s_result = SavedTensor(out, node)
        return out
    d = input._wrap_dim(dim)
    if x.ndim and not x.shape[d]:  # (before the dtype: PyTorch's order; the dim wrapped)
        raise empty_reduction("median", d)
    if x.dtype.kind == "b":
        raise NotImplementedError("\"median_out\" not implemented for 'Bool'")
    if not x.ndim:  # a 0-d input: itself, index 0
        return _pair("median", *_scalar_order(input, MedianBackward1, dim))
    order = np.argsort(x, axis=d, kind="stable")
    mid = (x.shape[d] - 1) // 2
    idx = np.take(order, [mid], axis=d)
    if x.dtype.kind == "f" and x.size:  # a slice with NaN: its median is its first NaN
        nan = np.isnan(x)
        idx = np.where(nan.any(d, keepdims=True), np.argmax(nan, d, keepdims=True), idx)
    return _pair("median", *_ordered(input, d, idx, MedianBackward1, squeeze=not keepdim,
                                     given=dim))
