"""The loss ops behind ``nn.functional``: mean squared error and negative log-likelihood.

Each is one node class (named as PyTorch names it) next to the function computing its forward.
``reduction`` is kept as PyTorch keeps it: 0 = 'none', 1 = 'mean', 2 = 'sum'.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._dtype import from_numpy_dtype
from .._ops import _formula as F
from .._ops._core import binary_operands, in_iterator_layout, value
from .._quiet import nan_of_nothing, quiet, restore
from .._summation import nll_total, reduce_sum
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import FREED_MESSAGE, check_saved
from . import _loss_grads  # noqa: F401  (mse_loss_backward, the formula of MseLossBackward0)

__all__ = ["REDUCTIONS", "mse_loss", "nll_loss", "MseLossBackward0", "NllLossBackward0",
           "NllLoss2DBackward0", "NllLossBackwardBackward0", "NllLoss2DBackwardBackward0"]

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def reduction_enum(size_average, reduce, reduction: str) -> int:
    """PyTorch's code for ``reduction`` (the deprecated ``size_average``/``reduce`` win, with
    PyTorch's warning)."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "none" if not reduce else ("mean" if size_average else "sum")
        warnings.warn("size_average and reduce args will be deprecated, please use "
                      f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    code = REDUCTIONS.get(reduction)
    if code is None:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return code
_UINT64 = 2**64 - 1  # PyTorch shows a saved negative int as its uint64 bit pattern


def _reduce(per_element, reduction: int):
    ordered = per_element.dtype.kind == "f" and per_element.itemsize > 2  # PyTorch's order
    if reduction == 1:
        if per_element.size == 0:  # the mean of nothing: PyTorch's 0 / 0
            return nan_of_nothing((), per_element.dtype)
        if ordered:  # (PyTorch's mean: the sum, divided)
            return np.asarray(reduce_sum(per_element) / per_element.dtype.type(per_element.size))
        return np.asarray(per_element.mean())
    if reduction == 2:
        return np.asarray(reduce_sum(per_element) if ordered else per_element.sum())
    return per_element


# ---------------------------------------------------------------- mean squared error
class MseLossBackward0(Node):
    """The node of ``mse_loss(self, target, reduction)``."""

    rule = _r("loss = mean((a - t)**2)  (or sum, with reduction='sum')",
              {"a": "self", "t": "target", "reduction": "reduction"}, numbers="reduction",
              a="mse_loss_backward(grad, a, t, reduction)",
              t="mse_loss_backward(grad, t, a, reduction)",
              note="mse_loss_backward(grad, a, t, reduction) = 2 * (a - t) / a.numel() * grad")

    saved = ("reduction", "self", "target")
    saved_tensors_names = ("self", "target")


def mse_loss(input: Tensor, target: Tensor, reduction: int) -> Tensor:
    """``reduce((input - target)**2)``; both already expanded to one shape."""
    a, b, dtype = binary_operands(input, target)
    if dtype.kind != "f":
        name = from_numpy_dtype(dtype)._legacy_name[:-6]
        raise NotImplementedError(f"\"mse_cpu\" not implemented for '{name}'")
    token = quiet()  # inf - inf is NaN, as in PyTorch, without a warning
    try:
        diff = a - b
        out = Tensor._wrap(in_iterator_layout(_reduce(diff * diff, reduction), input._data,
                                              target._data))
    finally:
        restore(token)
    if should_record(input, target):
        node = MseLossBackward0()
        node._s_reduction = reduction
        node._s_self = SavedTensor(input)
        node._s_target = SavedTensor(target)
        record(node, out, input, target)
        if input._data.dtype != diff.dtype or target._data.dtype != diff.dtype:
            # mixed dtypes: the engine casts each gradient back to its input's dtype
            node._sum_to = [(x._data.shape, x._data.dtype) if x._data.dtype != diff.dtype
                            else None for x in (input, target)]
    return out


# ---------------------------------------------------------------- negative log-likelihood
class NllLossBackward0(Node):
    """loss_i = -weight[t_i] * self[i, t_i]:  d/dself is zero except at each row's target class,
    where it is -weight[t_i] (divided by the total weight for 'mean'), times the gradient."""

    rule = _r("loss = -mean_i(w[t_i] * a[i, t_i])", words=True,
              a="zeros like a, with -grad * w[t_i] / total weight at [i, t_i]",
              **{"*": "None (targets and weights get no gradient)"})

    saved = ("ignore_index", "reduction", "self", "target", "total_weight", "weight")
    saved_tensors_names = ("self", "target", "total_weight", "weight")
    _s_weight = None
    _counted = None  # rows whose target is not ignore_index (set only if some are ignored)

    @property
    def _s_total_weight(self):  # made on demand: the backward formula uses the array
        if self._released:
            raise RuntimeError(FREED_MESSAGE)
        return Tensor._wrap(self._total)

    def backward(self, g):
        check_saved(self)  # (PyTorch's errors if self, target or weight were freed or changed)
        x = value(self._s_self)
        return (nll_loss_backward(g, x, self),)

    def grad_data(self, g: np.ndarray) -> np.ndarray:
        """The gradient for ``self`` from the incoming gradient ``g`` (arrays)."""
        # each target entry gets -w * g (its sample's g for reduction='none', in the order of
        # the rows; 'mean': w * -(g / total weight), rounded in PyTorch's order); elsewhere 0,
        # even where g is inf or nan: one scatter
        if self._s_reduction == 1:
            values = self._w * -(g / self._total)
        else:
            values = -self._w * (g if g.ndim == 0 else g.reshape(-1))
        if self._counted is not None:  # an ignored row gets 0, even from an inf or NaN g
            values = np.where(self._counted, values, self._dtype.type(0))
        return self._one_hot(values)

    def _one_hot(self, values):
        """``values`` at each (sample, target class), zeros elsewhere, in the input's layout."""
        shape = self._shape
        flat = np.zeros((self._rows.size, shape[1] if len(shape) > 1 else shape[0]), self._dtype)
        flat[self._rows, self._cols] = values
        if len(shape) == 1:
            return flat[0]
        if len(shape) == 2:
            return flat
        moved = flat.reshape((shape[0],) + tuple(shape[2:]) + (shape[1],))
        return np.moveaxis(moved, -1, 1)


class NllLossBackwardBackward0(Node):
    """z = nll_loss_backward(grad_output, self, ...), the gradient of nll_loss as an op:
    d/dgrad_output = nll_loss(grad, target, weight, reduction, ignore_index);  d/dself = 0."""

    rule = _r("z = nll_loss_backward(g, a, t, w, reduction, ignore_index)  (the gradient of "
              "nll_loss)", words=True, g="nll_loss(grad, t, w, reduction, ignore_index)",
              a="zeros_like(grad)")

    saved = ("ignore_index", "reduction", "target", "weight")

    def backward(self, gg):
        first = self._first  # the NllLossBackward0 this node is the gradient of
        weight = None if first._s_weight is None else Tensor._wrap(F.data(value(first._s_weight)))
        as_tensor = gg if isinstance(gg, Tensor) else Tensor._wrap(gg)
        out = nll_loss(as_tensor, Tensor._wrap(F.data(value(first._s_target))), weight,
                       self._ignore_index, first._s_reduction)
        return out if as_tensor is gg else out._data, F.zeros_like(gg)


class NllLoss2DBackwardBackward0(NllLossBackwardBackward0):
    """The same, for the gradient of NllLoss2DBackward0."""

    rule = _r("z = nll_loss2d_backward(g, a, t, w, reduction, ignore_index)  (per position)",
              words=True, g="nll_loss2d(grad, t, w, reduction, ignore_index)",
              a="zeros_like(grad)")


def nll_loss_backward(g, x, first: NllLossBackward0):
    """The gradient of nll_loss's input: ``-grad * weight[t] (/ total weight)`` at each target
    class, zeros elsewhere. On tensors an op of its own (``NllLossBackwardBackward0``), as in
    PyTorch."""
    if not isinstance(g, Tensor):
        return first.grad_data(g)
    out = Tensor._wrap(np.ascontiguousarray(first.grad_data(g._data)))  # (as PyTorch lays it)
    if should_record(g, x):
        node = (NllLoss2DBackwardBackward0 if isinstance(first, NllLoss2DBackward0)
                else NllLossBackwardBackward0)()
        node._first, node._ignore_index = first, first._ignore
        node._s_ignore_index, node._s_reduction = first._s_ignore_index, first._s_reduction
        node._s_target, node._s_weight = first._s_target, first._s_weight
        record(node, out, g, x)
    return out


def _as_rows(x: np.ndarray, t: np.ndarray):
    """The input as (samples, classes) and the targets as one flat vector."""
    if x.ndim == 1:
        return x.reshape(1, -1), t.reshape(1)
    if x.ndim == 2:
        return x, t
    return np.moveaxis(x, 1, -1).reshape(-1, x.shape[1]), t.reshape(-1)


def _all_classes(t: np.ndarray, n_classes: int) -> bool:
    """Whether every target is a class index, in one pass (negatives wrap to huge unsigned)."""
    if t.size == 0:
        return True
    return np.maximum.reduce(t.view(np.uint64) if t.dtype.kind == "i" else t, None) < n_classes


def _row_weights(t, n_classes, weight, ignore_index, dtype):
    """Each row's weight: its class weight, or 0 where the target is ``ignore_index``."""
    keep = t != ignore_index
    bad = keep & ((t < 0) | (t >= n_classes))
    if bad.any():
        raise IndexError(f"Target {t[bad][0]} is out of bounds.")
    w = keep.astype(dtype) if weight is None else np.where(keep, weight[np.where(keep, t, 0)], 0)
    return w.astype(dtype, copy=False)


_ARANGES: dict = {}


def _arange(n: int) -> np.ndarray:
    """``np.arange(n)``, kept (read-only) for the next batch of the same size."""
    rows = _ARANGES.get(n)
    if rows is None:
        rows = _ARANGES[n] = np.arange(n)
        rows.flags.writeable = False
    return rows


class NllLoss2DBackward0(NllLossBackward0):
    """The same, for (N, C, H, W) input with (N, H, W) targets: one sample per position."""

    rule = _r("loss = -mean_ij(w[t_ij] * a[i, t_ij, j])", words=True,
              a="zeros like a, with -grad * w[t] / total weight at each target",
              **{"*": "None (targets and weights get no gradient)"})


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int,
             reduction: int) -> Tensor:
    """``-input[i, target[i]]`` per sample (times its class weight), then reduced.

    As in PyTorch, 4-D input goes through ``NllLoss2DBackward0``, and 3-D or 5-D+ input is
    first viewed as 4-D ``(N, C, 1, -1)`` (and a per-sample result viewed back).
    """
    ndim = input._data.ndim
    if ndim == 3 or ndim > 4:
        n, c = input._data.shape[:2]  # (an empty input or target: viewed as (.., 0, 0))
        x = input.view(n, c, 1, -1) if input._data.size else input.view(n, c, 0, 0)
        t = target.view(n, 1, -1) if target._data.size else target.view(n, 0, 0)
        out = _nll(x, t, weight, ignore_index, reduction, NllLoss2DBackward0)
        return out.view(target._data.shape) if reduction == 0 else out
    return _nll(input, target, weight, ignore_index, reduction,
                NllLoss2DBackward0 if ndim == 4 else NllLossBackward0)


def _nll(input, target, weight, ignore_index, reduction, node_cls):
    x, t = _as_rows(input._data, target._data)
    n_classes, dtype = x.shape[1], x.dtype
    rows = _arange(t.size)
    ordered = dtype.itemsize > 2  # (PyTorch's cascade of sums, 1-D to 4-D alike: nll_total)
    add = nll_total if ordered else (lambda v, _: np.add.reduce(v))
    token = quiet()  # -inf * a zero weight, 0 / 0: NaN as in PyTorch, no NumPy warning
    try:
        counted = None  # rows whose target is not ignore_index, if some are
        if weight is None and not 0 <= ignore_index < n_classes and _all_classes(t, n_classes):
            cols, w = t, np.array(1, dtype)  # the common case: every row counts once
            losses = -x[rows, cols]
            total = np.asarray(t.size, dtype)
        else:
            w = _row_weights(t, n_classes, None if weight is None else weight._data,
                             ignore_index, dtype)
            cols = np.where(t == ignore_index, 0, t)
            losses = -x[rows, cols] * w
            if (t == ignore_index).any():  # an ignored row is 0, even where x is inf or NaN
                counted = t != ignore_index
                losses = np.where(counted, losses, dtype.type(0))
            total = np.asarray(add(w, counted), dtype)
        if reduction == 1 and not t.size:  # (no samples: PyTorch fills its quiet NaN)
            data = np.full((), np.nan, dtype)
        elif reduction == 1:  # (no sample counts: 0 / 0 is nan, as in PyTorch)
            data = np.asarray(add(losses, counted) / total)
        elif reduction == 2:
            data = np.asarray(add(losses, counted))
        else:
            data = losses.reshape(target._data.shape)
            total = np.zeros((), dtype)
    finally:
        restore(token)
    out = Tensor._wrap(data)
    if should_record(input):
        node = node_cls()
        node._s_ignore_index, node._ignore = ignore_index & _UINT64, ignore_index
        node._s_reduction = reduction
        node._s_self = SavedTensor(input)
        node._s_target = SavedTensor(target)
        if weight is not None:
            node._s_weight = SavedTensor(weight)
        node._rows, node._cols, node._w, node._total = rows, cols, w, total
        node._counted = counted
        node._shape, node._dtype = input._data.shape, dtype
        record(node, out, input)
    return out
