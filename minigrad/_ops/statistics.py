"""Statistics of a tensor: ``var``, ``std`` (with Bessel's correction), ``var_mean``,
``std_mean`` and ``logsumexp``.

Each backward is PyTorch's formula (``var_backward``, ``std_backward``,
``logsumexp_backward``), written once for arrays and tensors (``create_graph=True``).

>>> import minigrad as torch
>>> x = torch.tensor([1., 2., 4.], requires_grad=True)
>>> v = x.var()
>>> v.backward(); v, x.grad
(tensor(2.3333, grad_fn=<VarBackward0>), tensor([-1.3333, -0.3333,  1.6667]))
"""

from __future__ import annotations

import warnings

import numpy as np

from .._tensor import Tensor
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._backward import call, data, masked_zero, mean_keep, scale, unsqueeze_dims
from ._core import method, value
from .reduce import _expand_back
from .unary import floats

__all__ = ["var", "std", "var_mean", "std_mean", "logsumexp"]


def _dims(input, dim) -> tuple:
    n = input._data.ndim
    if dim is None:
        return tuple(range(n))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(input._wrap_dim(d) for d in dims)  # (checks the range)
    return dims if n else ()  # a 0-d tensor: dim 0 or -1 names the tensor itself


def _correction(unbiased, correction) -> float:
    if correction is not None:
        return float(correction)
    return 1.0 if unbiased is None or unbiased else 0.0


def var_backward(g, x, dims, correction: float, keepdim: bool):
    """PyTorch's ``var_backward``: ``2 / (n - correction) * g * (x - x.mean(dims))``;
    ``dims`` None: over all elements."""
    xd = data(x)
    if dims is None or xd.ndim == 0:
        dof, dims = xd.size - correction, None
    else:
        if not keepdim and xd.ndim > 1:
            g = unsqueeze_dims(g, dims)
        dof = int(np.prod([xd.shape[d] for d in dims])) - correction
    with np.errstate(all="ignore"):  # no degrees of freedom: inf (nan where x is its mean)
        return scale(g, float(np.float64(2.0) / dof)) * (x - mean_keep(x, dims))


class VarBackward0(Node):
    """z = var(self, dim, correction):  dself = 2 / (n - correction) * g * (self - mean)."""

    saved = ("correction", "dim", "keepdim", "self")
    saved_tensors_names = ("self",)

    def backward(self, g):
        return (var_backward(g, value(self._s_self), self._s_dim, self._s_correction,
                             self._s_keepdim),)


class StdBackward0(VarBackward0):
    """z = std(self, dim, correction):  var's gradient of g / (2 z) (0 where z is 0)."""

    saved = ("correction", "dim", "keepdim", "result", "self")
    saved_tensors_names = ("result", "self")

    def backward(self, g):
        x, z = value(self._s_self), value(self._s_result)  # (PyTorch reads them in this order)
        with np.errstate(all="ignore"):
            g_var = masked_zero(g / scale(z, 2), data(z) == 0)
        return (var_backward(g_var, x, self._s_dim, self._s_correction, self._s_keepdim),)


class VarMeanBackward0(VarBackward0):
    """(v, m) = var_mean(self, dim):  var's gradient of dv plus dm spread evenly (/ n)."""

    def backward(self, grads):
        gv, gm = grads
        x = value(self._s_self)
        out = None if gv is None else self._grad_of_var(gv)
        if gm is not None:
            xd = data(x)
            dims = tuple(range(xd.ndim)) if self._s_dim is None else self._s_dim
            n = int(np.prod([xd.shape[d] for d in dims]))
            gm = _expand_back(gm / n if n else gm * np.nan, xd.shape, dims, self._s_keepdim)
            out = gm if out is None else out + gm
        return (out,)

    def _grad_of_var(self, g):
        return var_backward(g, value(self._s_self), self._s_dim, self._s_correction,
                            self._s_keepdim)


class StdMeanBackward0(VarMeanBackward0):
    """(s, m) = std_mean(self, dim):  std's gradient of ds plus dm spread evenly (/ n)."""

    saved = ("correction", "dim", "keepdim", "result0", "self")
    saved_tensors_names = ("result0", "self")

    def _grad_of_var(self, g):
        z = value(self._s_result0)
        with np.errstate(all="ignore"):
            g_var = masked_zero(g / scale(z, 2), data(z) == 0)
        return super()._grad_of_var(g_var)


def _var(name, input, dim, unbiased, keepdim, correction, take_sqrt, stacklevel=3,
         node_cls=None):
    """var or std (``take_sqrt``), and the number of elements reduced; ``name`` ('var',
    'std_mean'...) is what the messages call it."""
    if isinstance(dim, bool):  # var(unbiased) in the old positional form
        unbiased, dim = dim, None
    dims = _dims(input, dim)
    c = _correction(unbiased, correction)
    if input._data.dtype.kind != "f":
        raise RuntimeError(f"{'std and var' if len(name) == 3 else name} only support floating "
                           "point and complex dtypes")
    x = input._data
    n = int(np.prod([x.shape[d] for d in dims])) if dims else 1
    if (n if x.size else 0) - c <= 0:  # (PyTorch: input numel / output numel, 0 if empty)
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=stacklevel)
    with np.errstate(all="ignore"):
        mean = x.mean(axis=dims, keepdims=True) if n else np.full(  # (no "Mean of empty slice")
            [1 if i in dims else s for i, s in enumerate(x.shape)], np.nan, x.dtype)
        v = np.asarray(np.sum((x - mean) ** 2, axis=dims, keepdims=keepdim) / max(n - c, 0),
                       dtype=x.dtype)
        out = Tensor._wrap(np.sqrt(v) if take_sqrt else v)
    if node_cls is None and should_record(input):
        node = StdBackward0() if take_sqrt else VarBackward0()
        _save(node, c, keepdim, dim, dims, input)
        record(node, out, input)
        if take_sqrt:
            node._s_result = SavedTensor(out, node)
    return out, n, (c, dims)


def _save(node, c, keepdim, dim, dims, input) -> None:
    node._s_correction, node._s_keepdim = c, keepdim
    node._s_dim = None if dim is None else dims
    node._s_self = SavedTensor(input)


@method("var")
def var(input, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """The variance over ``dim`` (all dims by default), with Bessel's correction."""
    return _var("var", input, dim, unbiased, keepdim, correction, False)[0]


@method("std")
def std(input, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """The standard deviation over ``dim`` (all dims by default), with Bessel's correction."""
    return _var("std", input, dim, unbiased, keepdim, correction, True)[0]


def var_mean(input, dim=None, *, correction=None, keepdim: bool = False):
    """``(var, mean)`` over ``dim``."""
    return _with_mean("var_mean", input, dim, keepdim, correction, False)


def std_mean(input, dim=None, *, correction=None, keepdim: bool = False):
    """``(std, mean)`` over ``dim``."""
    return _with_mean("std_mean", input, dim, keepdim, correction, True)


def _with_mean(name, input, dim, keepdim, correction, take_sqrt):
    """(var or std, mean), both outputs of one node as in PyTorch (VarMeanBackward0...)."""
    node_cls = StdMeanBackward0 if take_sqrt else VarMeanBackward0
    out, n, (c, dims) = _var(name, input, dim, None, keepdim, correction, take_sqrt, 4, node_cls)
    with warnings.catch_warnings():  # empty: NaN, without NumPy's "Mean of empty slice"
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = input.detach().mean(dims, keepdim=keepdim)
    if should_record(input):
        node = node_cls()
        _save(node, c, keepdim, dim, dims, input)
        record(node, (out, mean), input)
        if take_sqrt:
            node._s_result0 = SavedTensor(out, node)
    return out, mean


# ---------------------------------------------------------------- logsumexp
class LogsumexpBackward0(Node):
    """z = log(sum(exp(self), dim)):  dself = g * exp(self - z)."""

    saved = ("dim", "keepdim", "result", "self")
    saved_tensors_names = ("result", "self")

    def backward(self, g):  # PyTorch's logsumexp_backward
        x, z = value(self._s_self), value(self._s_result)
        if not self._s_keepdim and data(x).ndim:
            g, z = unsqueeze_dims(g, self._s_dim), unsqueeze_dims(z, self._s_dim)
        with np.errstate(all="ignore"):
            return (g * call(x - z, "exp"),)


@method("logsumexp")
def logsumexp(input, dim, keepdim: bool = False):
    """``log(exp(input).sum(dim))``, computed without overflow."""
    dims = _dims(input, dim)
    x = floats(input, "logsumexp")
    with np.errstate(all="ignore"):
        m = np.max(x, axis=dims, keepdims=True) if x.size else np.zeros((1,) * x.ndim, x.dtype)
        m = np.where(np.isfinite(m), m, 0)
        data = np.log(np.sum(np.exp(x - m), axis=dims, keepdims=True)) + m
    data = np.asarray(data if keepdim else np.squeeze(data, axis=dims), dtype=x.dtype)
    out = Tensor._wrap(data)
    if should_record(input):
        node = LogsumexpBackward0()
        node._s_dim, node._s_keepdim = dims, keepdim
        node._s_self = SavedTensor(input)
        record(node, out, input)
        node._s_result = SavedTensor(out, node)
    return out
