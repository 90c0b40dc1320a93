"""The functions PyTorch's backward formulas are written with, for minigrad's formulas.

A formula gets NumPy arrays in a plain backward and Tensors under ``create_graph=True``; each
function here takes either, so a formula is written once. On tensors it records what PyTorch's
formula records (derivatives.yaml), so second-order graphs match PyTorch's node for node:

- ``scale(x, 2)`` is ``mul(Tensor, Scalar)``: a ``MulBackward1`` (``x * 2`` of two tensors is
  ``MulBackward0``).
- ``where(cond, a, b)`` with a constant mask: a ``WhereBackward0``.
- ``sigmoid_backward``, ``tanh_backward``, ``threshold_backward`` (relu's) are ops of their
  own, as in PyTorch: their nodes are ``SigmoidBackwardBackward0``, ``TanhBackwardBackward0``,
  ``ThresholdBackwardBackward0``.

>>> import numpy as np, minigrad as torch
>>> threshold_backward(np.ones(3), np.array([-1., np.nan, 2.]), 0)
array([0., 1., 1.])
>>> z = torch.tensor([0.5], requires_grad=True).sigmoid()
>>> sigmoid_backward(torch.ones(1), z).grad_fn.name()
'SigmoidBackwardBackward0'
"""

from __future__ import annotations

import numpy as np

from .. import _summation
from .._layout import in_iterator_layout
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._core import value
from ._formula import data, masked_zero, zero_where  # (re-exported: one definition each)
from ._formula import t as _t
from .arithmetic import mul_by_number
from .rounding import HALF, scan

__all__ = ["scale", "mean_of", "where", "sgn", "sign_data", "sigmoid_backward", "tanh_backward",
           "threshold_backward", "data", "unsqueeze_dims", "masked_zero", "call", "rsqrt",
           "reversed_cumsum", "mean_keep", "softmax_backward_data",
           "log_softmax_backward_data", "masked_sum", "mm_mat1_backward", "mm_mat2_backward"]


scale = mul_by_number  # ``x * c`` for a number ``c``: PyTorch's ``mul(Tensor, Scalar)`` (the
# formulas written from rules call it ``mul_number``; float16 in float32, as PyTorch's kernel)


@formula_function
def where(cond, a, b):
    """``a`` where the constant mask ``cond`` holds, else ``b`` (numbers or either kind)."""
    cond = data(cond)
    if isinstance(a, Tensor):
        return a.where(Tensor._wrap(np.asarray(cond)), b)  # (Tensor.where is compare.py's)
    if isinstance(b, Tensor):
        return Tensor._wrap(np.asarray(a, b._data.dtype)).where(Tensor._wrap(np.asarray(cond)), b)
    return in_iterator_layout(np.where(cond, a, b), cond, a, b)  # (as PyTorch's where)


def call(x, name: str):
    """``x.<name>()`` of a tensor (recorded), or NumPy's function of that name of an array."""
    return getattr(x, name)() if isinstance(x, Tensor) else getattr(np, name)(x)


@formula_function
def rsqrt(x):
    """``1 / sqrt(x)`` (on a tensor: ``x.rsqrt()``, an ``RsqrtBackward0``)."""
    return x.rsqrt() if isinstance(x, Tensor) else 1 / np.sqrt(x)


def reversed_cumsum(x, dim: int):
    """Sums from the end along ``dim`` (``x.flip(dim).cumsum(dim).flip(dim)``)."""
    if isinstance(x, Tensor):
        return x.flip(dim).cumsum(dim).flip(dim)
    if not np.ndim(x):  # a 0-d scan: the gradient itself
        return x
    # (PyTorch's flip writes a new tensor: row-major here, never NumPy's negative strides)
    return np.ascontiguousarray(np.flip(scan(np.cumsum, np.flip(x, dim), dim), dim))


def mean_keep(x, dims):
    """``x.mean(dims, keepdim=True)``; ``dims=None``: ``x.mean()`` (a 0-d mean)."""
    if isinstance(x, Tensor):
        return x.mean() if dims is None else x.mean(dims, keepdim=True)
    return mean_of(x, None if dims is None else tuple(dims), dims is not None)


def mean_of(x: np.ndarray, axis, keepdims: bool) -> np.ndarray:
    """``x.mean(axis, keepdims=keepdims)``: a sum divided by the count, so that the mean of
    nothing is NaN without NumPy's "Mean of empty slice" warning (PyTorch gives none). For
    backward formulas, which run quietly (0 / 0 gives no warning there)."""
    count = x.size if axis is None else int(np.prod([x.shape[a] for a in axis]))
    if x.dtype.kind == "f" and x.dtype.itemsize > 2:  # float32/64: added in PyTorch's order
        return np.true_divide(_summation.reduce_sum(x, axis, keepdims), count, dtype=x.dtype)
    wide = np.float32 if x.dtype == np.float16 else None  # (NumPy's mean adds float16 so)
    mean = np.true_divide(np.add.reduce(x, axis=axis, dtype=wide, keepdims=keepdims), count)
    return mean if wide is None else mean.astype(x.dtype)


def masked_sum(x, mask):
    """``x.masked_select(mask).sum()``: the sum of ``x`` where ``mask`` (broadcast) holds."""
    if isinstance(x, Tensor):
        return x.masked_select(mask if isinstance(mask, Tensor) else Tensor._wrap(mask)).sum()
    return np.asarray(x[np.broadcast_to(data(mask), np.shape(x))].sum(), dtype=x.dtype)


# ---------------------------------------------------------------- matrix products
def _column_major(sizes, strides) -> bool:
    """Whether a matrix was laid out by columns (nn.Linear's ``weight.t()``): PyTorch then
    makes its gradient in that layout, which saves a copy where it reaches the leaf."""
    return len(strides) == 2 and strides[0] == 1 and strides[1] == sizes[0]


@formula_function
def mm_mat1_backward(g, mat2, sizes, strides, alpha=1):
    """The gradient of ``mat1`` in ``alpha * mat1 @ mat2`` (``sizes``/``strides``: mat1's):
    ``grad @ mat2.t()``, or ``(mat2 @ grad.t()).t()`` for a column-major mat1; then times
    ``alpha`` unless it is 1 (PyTorch's ``mm_mat1_backward`` and ``maybe_multiply``)."""
    if type(g) is np.ndarray and type(mat2) is np.ndarray:  # (a plain backward: NumPy's .T,
        r = (mat2 @ g.T).T if _column_major(sizes, strides) else g @ mat2.T  # no _t calls)
    else:
        r = _t(mat2 @ _t(g)) if _column_major(sizes, strides) else g @ _t(mat2)
    return r if alpha == 1 else scale(r, alpha)


@formula_function
def mm_mat2_backward(g, mat1, sizes, strides, alpha=1):
    """The gradient of ``mat2`` in ``alpha * mat1 @ mat2`` (``sizes``/``strides``: mat2's):
    ``mat1.t() @ grad``, or ``(grad.t() @ mat1).t()`` for a column-major mat2."""
    if type(g) is np.ndarray and type(mat1) is np.ndarray:  # (as in mm_mat1_backward)
        r = (g.T @ mat1).T if _column_major(sizes, strides) else mat1.T @ g
    else:
        r = _t(_t(g) @ mat1) if _column_major(sizes, strides) else _t(mat1) @ g
    return r if alpha == 1 else scale(r, alpha)


def sign_data(d: np.ndarray) -> np.ndarray:
    """``sign`` as PyTorch computes it: 0 at NaN (NumPy gives NaN)."""
    s = np.sign(d)
    return np.where(np.isnan(s), s.dtype.type(0), s) if s.dtype.kind == "f" else s


@formula_function
def sgn(x):
    """``x.sgn()``: -1, 0 or 1 (0 at NaN)."""
    return x.sgn() if isinstance(x, Tensor) else sign_data(np.asarray(x))


def unsqueeze_dims(x, axes):
    """``x`` with a size-1 dimension put back at each of ``axes`` (a reduction's, sorted)."""
    for a in sorted(axes):
        x = x.unsqueeze(a) if isinstance(x, Tensor) else np.expand_dims(x, a)
    return x


# ---------------------------------------------------------------- backward ops with own nodes
class _BackwardOp(Node):
    """An op made of a backward formula: ``grad_output`` (the gradient) and one saved tensor."""

    saved = ("grad_output", "output")
    _s_grad_output = _s_output = None

    def _grad_and_output(self):
        return value(self._s_grad_output), value(self._s_output)


class SigmoidBackwardBackward0(Node):
    """The node of ``sigmoid_backward(grad_output, output)`` (sigmoid's gradient, recorded)."""

    rule = _r("z = sigmoid_backward(g, y) = g * (1 - y) * y", {"g": "grad_output", "y": "output"},
              g="sigmoid_backward(grad, y)", y="grad * g * (-2 * y + 1)")

    saved = ("grad_output", "output")


class TanhBackwardBackward0(Node):
    """The node of ``tanh_backward(grad_output, output)`` (tanh's gradient, recorded)."""

    rule = _r("z = tanh_backward(g, y) = g * (1 - y**2)", {"g": "grad_output", "y": "output"},
              g="tanh_backward(grad, y)", y="grad * (-2 * y * g)")

    saved = ("grad_output", "output")


class ThresholdBackwardBackward0(Node):
    """The node of ``threshold_backward(grad_output, self, threshold)`` (relu's gradient)."""

    rule = _r("z = threshold_backward(g, a, t)", {"a": "self", "t": "threshold"}, numbers="t",
              g="threshold_backward(grad, a, t)", a="zeros_like(grad)",
              note="threshold_backward(g, a, t) = where(a <= t, 0, g)")

    saved = ("self", "threshold")


def _record_pair(node, out, g, y, dim=None):
    if should_record(g, y):
        node._s_grad_output, node._s_output = SavedTensor(g), SavedTensor(y)
        if dim is not None:
            node._s_dim, node._axis = dim, _axis(dim, np.ndim(data(y)))
        record(node, out, g, y, broadcast=True)
    return out


def _sum_keep(x, axis):
    return x.sum(axis, keepdim=True) if isinstance(x, Tensor) else np.add.reduce(x, axis,
                                                                                keepdims=True)


@formula_function
def sigmoid_backward(g, y):
    """The gradient of ``y = sigmoid(x)``: ``g * (1 - y) * y``."""
    if not (isinstance(g, Tensor) or isinstance(y, Tensor)):
        return g * ((1 - y) * y)
    gd, yd = data(g), data(y)
    return _record_pair(SigmoidBackwardBackward0(), Tensor._wrap(gd * ((1 - yd) * yd)), g, y)


@formula_function
def tanh_backward(g, y):
    """The gradient of ``y = tanh(x)``: ``g * (1 - y * y)``."""
    if not (isinstance(g, Tensor) or isinstance(y, Tensor)):
        if y.dtype is HALF:  # (in float32, rounded once, as PyTorch's kernel)
            return (g.astype(np.float32) * (1 - y.astype(np.float32) ** 2)).astype(HALF)
        return g * (1 - y * y)
    gd, yd = data(g), data(y)
    return _record_pair(TanhBackwardBackward0(), Tensor._wrap(gd * (1 - yd * yd)), g, y)


class SoftmaxBackwardDataBackward0(_BackwardOp):
    """z = softmax_backward_data(g, y, dim) = y * (g - sum(g * y, dim))."""

    rule = _r("z = softmax_backward_data(g, y, dim) = y * (g - sum(g * y, dim))",
              {"g": "grad_output", "y": "output", "dim": "dim"},
              np={"g": "y * (grad - sum(grad * y, dim))"}, g="softmax_backward_data(grad, y, dim)",
              y="g * grad - sum(y * g, dim) * grad - g * sum(grad * y, dim)")

    saved = ("dim", "grad_output", "output")

    def backward(self, grad):
        g, y = self._grad_and_output()
        a = self._axis
        return (softmax_backward_data(grad, y, self._s_dim),
                g * grad - _sum_keep(y * g, a) * grad - g * _sum_keep(grad * y, a))


class LogSoftmaxBackwardDataBackward0(_BackwardOp):
    """z = log_softmax_backward_data(g, y, dim) = g - exp(y) * sum(g, dim)."""

    rule = _r("z = log_softmax_backward_data(g, y, dim) = g - exp(y) * sum(g, dim)",
              {"g": "grad_output", "y": "output", "dim": "dim"},
              g="grad - sum(grad * exp(y), dim)", y="-sum(g, dim) * exp(y) * grad")

    saved = ("dim", "grad_output", "output")

    def backward(self, grad):
        g, y = self._grad_and_output()
        a, ey = self._axis, call(y, "exp")
        return grad - _sum_keep(grad * ey, a), -_sum_keep(g, a) * ey * grad


def _axis(dim: int, ndim: int) -> int:
    """The axis a saved ``dim`` names (``_saved_dim`` shows -1 as 2**64 - 1)."""
    return (dim - 2**64 if dim >= 2**63 else dim) % max(ndim, 1)


@formula_function
def softmax_backward_data(g, y, dim):
    """The gradient of ``y = softmax(x, dim)``: ``y * (g - sum(g * y, dim))``."""
    if not (isinstance(g, Tensor) or isinstance(y, Tensor)):
        return _softmax_grad(g, y, _axis(dim, y.ndim))
    out = Tensor._wrap(_softmax_grad(data(g), data(y), _axis(dim, np.ndim(data(y)))))
    return _record_pair(SoftmaxBackwardDataBackward0(), out, g, y, dim)


def _softmax_grad(g, y, a):
    """``y * (g - sum(g * y, a))``; float16 in float32, rounded once (PyTorch's kernel)."""
    if y.dtype is HALF:
        return _softmax_grad(g.astype(np.float32), y.astype(np.float32), a).astype(HALF)
    return y * (g - np.add.reduce(g * y, a, keepdims=True))


@formula_function
def log_softmax_backward_data(g, y, dim):
    """The gradient of ``y = log_softmax(x, dim)``: ``g - exp(y) * sum(g, dim)``."""
    a = _axis(dim, np.ndim(data(y)))
    if not (isinstance(g, Tensor) or isinstance(y, Tensor)):
        return g - np.exp(y) * np.add.reduce(g, a, keepdims=True)
    gd, yd = data(g), data(y)
    out = Tensor._wrap(gd - np.exp(yd) * np.add.reduce(gd, a, keepdims=True))
    return _record_pair(LogSoftmaxBackwardDataBackward0(), out, g, y, dim)


@formula_function
def threshold_backward(g, x, threshold):
    """``g`` where ``x > threshold``, else 0; NaN in ``x`` lets ``g`` through, as in PyTorch
    (relu's gradient at NaN is 1)."""
    off = data(x) <= threshold
    if not isinstance(g, Tensor):
        return zero_where(off, g)
    out = Tensor._wrap(zero_where(off, g._data))
    if should_record(g, x):
        node = ThresholdBackwardBackward0()
        node._s_self, node._s_threshold = SavedTensor(x), threshold
        record(node, out, g, x, broadcast=True)
    return out
