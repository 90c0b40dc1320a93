"""Statistics of a tensor: ``var``, ``std`` (with Bessel's correction), ``var_mean``,
``std_mean``, ``logsumexp`` and ``mode`` (the most frequent value).

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
from dataclasses import replace

import numpy as np

from .._layout import row_major
from .._moments import var_all, welford
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from . import _formula as F
from ._backward import call, data, masked_zero, mean_keep, scale, unsqueeze_dims
from ._core import method, value
from .arguments import var_signature_error
from .errors import empty_reduction
from .minmax import _return_type, return_types
from .reduce import _mean_data
from .scans_and_sorting import MedianBackward1, _ordered, _pair, _scalar_order
from .select_order import std_sort
from .unary import floats

__all__ = ["var", "std", "var_mean", "std_mean", "logsumexp", "mode"]


def _dims(input, dim) -> tuple:
    n = input._data.ndim
    if dim is None:
        return tuple(range(n))
    if isinstance(dim, Tensor):  # (a one-element integer tensor, as PyTorch takes it)
        dim = int(dim)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(input._wrap_dim(d) for d in dims)  # (checks the range)
    return dims if n else ()  # a 0-d tensor: dim 0 or -1 names the tensor itself


_NOT_GIVEN = object()  # (an argument left out: PyTorch then saves another correction)


def _arguments(input, dim, unbiased, correction):
    """``(dims, dim as saved, correction, correction as saved)`` from the arguments as given.

    PyTorch saves the correction it was given; ``unbiased`` (or a ``dim`` alone) becomes 1
    or 0; with neither (``x.var()``) it saves None, and the correction is 1.
    """
    if isinstance(dim, bool):  # var(unbiased) in the old positional form
        unbiased, dim = dim, _NOT_GIVEN
    if correction is not _NOT_GIVEN:
        shown = correction
    elif unbiased is not _NOT_GIVEN or dim is not _NOT_GIVEN:
        shown = 0 if unbiased is False else 1
    else:
        shown = None
    dim = None if dim is _NOT_GIVEN else dim
    dims = _dims(input, dim)
    return dims, (None if dim is None else dims), (1.0 if shown is None else float(shown)), shown


@formula_function
def var_backward(g, x, dims, correction, keepdim: bool):
    """PyTorch's ``var_backward``: ``2 / (n - correction) * g * (x - x.mean(dims))``;
    ``dims`` None: over all elements; ``correction`` None: 1. Over all elements with no
    degrees of freedom, ``g * where(x == x.mean(), nan, inf)`` (constant in x)."""
    correction = 1.0 if correction is None else float(correction)
    xd = data(x)
    if dims is None or xd.ndim == 0:
        dof, dims = xd.size - correction, None
        if dof <= 0:
            off = np.where(xd == data(mean_keep(xd, None)), np.nan, np.inf).astype(xd.dtype)
            return g * F.constant(off, g)
    else:
        if not keepdim and xd.ndim > 1:
            g = unsqueeze_dims(g, dims)
        dof = int(np.prod([xd.shape[d] for d in dims])) - correction
    # (no degrees of freedom: inf, nan where x is its mean; formulas run quietly)
    return scale(g, float(np.float64(2.0) / dof)) * (x - mean_keep(x, dims))


def std_backward(g, x, z, dims, correction: float, keepdim: bool):
    """PyTorch's ``std_backward``: var's gradient of ``g / (2 z)`` (0 where z is 0)."""
    g_var = masked_zero(g / scale(z, 2), data(z) == 0)
    return var_backward(g_var, x, dims, correction, keepdim)


def mean_backward(g, shape, dims, keepdim: bool):
    """PyTorch's ``mean_backward``: ``g`` spread back over ``shape``, divided by the count."""
    if dims is None:
        dims = tuple(range(len(shape)))
    if not keepdim:
        g = unsqueeze_dims(g, dims)
    return F.expand_to(g, shape) / int(np.prod([shape[d] for d in dims]))


class VarBackward0(Node):
    """z = var(self, dim, correction):  dself = 2 / (n - correction) * g * (self - mean)."""

    rule = _r("z = var(a, dim, correction)  (N: the number of elements reduced)",
              {"a": "self", "dim": "dim", "keepdim": "keepdim", "correction": "correction"},
              numbers="dim keepdim correction",
              a="var_backward(grad, a, dim, correction, keepdim)",
              note="var_backward = expand(grad) * 2 * (a - mean(a, dim)) / (N - correction)")

    saved = ("correction", "dim", "keepdim", "self")
    saved_tensors_names = ("self",)


class StdBackward0(VarBackward0):
    """z = std(self, dim, correction):  var's gradient of g / (2 z) (0 where z is 0)."""

    rule = _r("z = std(a, dim, correction)  (N: the number of elements reduced)",
              {"a": "self",
               "dim": "dim",
               "keepdim": "keepdim",
               "correction": "correction",
               "z": "result"},
              np={"a": "expand(grad / z, a.shape, dim, keepdim) * (a - mean(a, dim)) / "
                       "(count(a.shape, dim) - one(correction))"},
              a="expand(grad / z) * (a - mean(a, dim)) / (N - correction)")

    saved = ("correction", "dim", "keepdim", "result", "self")
    saved_tensors_names = ("result", "self")

    def backward(self, g):
        x, z = value(self._s_self), value(self._s_result)  # (PyTorch reads them in this order)
        return (std_backward(g, x, z, self._s_dim, self._c, self._s_keepdim),)


class VarMeanBackward0(Node):
    """(v, m) = var_mean(self, dim, correction):  var's gradient plus mean's (the gradient of
    m spread back and divided by the count)."""

    rule = _r("(z0, z1) = (var(a, dim, correction), mean(a, dim))", words=True,
              a="expand(grad_0) * 2 * (a - z1) / (N - correction) + expand(grad_1) / N")

    saved = ("correction", "dim", "keepdim", "self")
    saved_tensors_names = ("self",)

    def backward(self, grads):
        g_stat, g_mean = grads
        x = value(self._s_self)
        out = None if g_stat is None else self._stat_backward(g_stat, x)
        if g_mean is not None:
            aux = mean_backward(g_mean, data(x).shape, self._s_dim, self._s_keepdim)
            out = aux if out is None else out + aux
        return (out,)

    def _stat_backward(self, g, x):
        return var_backward(g, x, self._s_dim, self._c, self._s_keepdim)


class StdMeanBackward0(VarMeanBackward0):
    """(s, m) = std_mean(self, dim, correction):  std's gradient plus mean's."""

    rule = _r("(z0, z1) = (std(a, dim, correction), mean(a, dim))", words=True,
              a="expand(grad_0 / z0) * (a - z1) / (N - correction) + expand(grad_1) / N")

    saved = ("correction", "dim", "keepdim", "result0", "self")
    saved_tensors_names = ("result0", "self")

    def _stat_backward(self, g, x):
        z = value(self._s_result0)
        return std_backward(g, x, z, self._s_dim, self._c, self._s_keepdim)


def _statistic(name, input, dims, c, keepdim, take_sqrt, with_mean: bool = False):
    """The variance (or its root) over ``dims``, with PyTorch's error and warning for
    ``name``, computed as PyTorch's CPU kernels do: one result of var/std (not float16) by
    ``std_var_all_cpu``, else (and always with the mean) by the Welford reduction."""
    if input._data.dtype.kind != "f":
        what = "std and var" if name in ("std", "var") else name
        raise RuntimeError(f"{what} only support floating point and complex dtypes")
    x = input._data
    n = int(np.prod([x.shape[d] for d in dims])) if dims else 1
    if (n if x.size else 0) - c <= 0:  # (PyTorch: input numel / output numel, 0 if empty)
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=3)
    if not x.size:  # (PyTorch fills NaN)
        nan = np.full(_kept_shape(x.shape, dims, keepdim), np.nan, x.dtype)
        return (nan, nan.copy()) if with_mean else nan
    if with_mean:
        return _welford(x, dims, c, keepdim, take_sqrt)
    if n == x.size and x.dtype != np.float16:  # one result: PyTorch's std_var_all_cpu
        mean = _mean_data(x, None, False, x.size)
        return var_all(x, float(mean), c, take_sqrt).reshape(_kept_shape(x.shape, dims, keepdim))
    return _welford(x, dims, c, keepdim, take_sqrt)[0]


def _kept_shape(shape, dims, keepdim: bool) -> tuple:
    return tuple(1 if i in dims else s for i, s in enumerate(shape) if keepdim or i not in dims)


def _welford(x, dims, c, keepdim: bool, take_sqrt: bool):
    """``(statistic, mean)`` by PyTorch's Welford reduction over ``dims`` (float16: float32)."""
    rest = tuple(i for i in range(x.ndim) if i not in dims)
    rows = np.transpose(x, rest + tuple(dims)).reshape(tuple(x.shape[i] for i in rest) + (-1,))
    stat, mean = welford(rows, c, take_sqrt)
    shape = _kept_shape(x.shape, dims, keepdim)
    return stat.reshape(shape), mean.reshape(shape)


def _save_arguments(node, input, dim, c, shown, keepdim):
    node._s_correction, node._c, node._s_keepdim, node._s_dim = shown, c, keepdim, dim
    node._s_self = SavedTensor(input)


def _var_like(name, node_cls, take_sqrt):
    def op(input, dim=_NOT_GIVEN, unbiased=_NOT_GIVEN, keepdim: bool = False, *,
           correction=_NOT_GIVEN, out=None):
        if out is not None:
            from .out import write_out
            return write_out(op, out, input, dim, unbiased, keepdim, correction=correction)
        dims, dim, c, shown = _arguments(input, dim, unbiased, correction)
        out = Tensor._wrap(row_major(_statistic(name, input, dims, c, keepdim, take_sqrt)))
        if should_record(input):
            node = node_cls()
            _save_arguments(node, input, dim, c, shown, keepdim)
            record(node, out, input)
            if take_sqrt:
                node._s_result = SavedTensor(out, node)
        return out

    op.__name__ = name
    op.__doc__ = f"The {name} over ``dim`` (all dims by default), with Bessel's correction."
    return method(name)(op)


var = _var_like("var", VarBackward0, False)
std = _var_like("std", StdBackward0, True)


def _with_mean(name, node_cls, take_sqrt):
    def op(*args, **kwargs):
        if "keepdims" in kwargs and "keepdim" not in kwargs:  # NumPy's name, as PyTorch takes it
            kwargs["keepdim"] = kwargs.pop("keepdims")
        error = var_signature_error(name, args, kwargs, False)
        if error is not None:
            raise error
        return _stat_and_mean(*args, **kwargs)

    def _stat_and_mean(input, dim=_NOT_GIVEN, unbiased=_NOT_GIVEN, keepdim: bool = False, *,
                       correction=_NOT_GIVEN):
        dims, dim, c, shown = _arguments(input, dim, unbiased, correction)
        stat, mean = (Tensor._wrap(row_major(a)) for a in
                      _statistic(name, input, dims, c, keepdim, take_sqrt, with_mean=True))
        if should_record(input):
            node = node_cls()
            _save_arguments(node, input, dim, c, shown, keepdim)
            record(node, (stat, mean), input)
            if take_sqrt:
                node._s_result0 = SavedTensor(stat, node)
        return stat, mean

    op.__name__ = name
    op.__doc__ = f"``({name[:3]}, mean)`` over ``dim`` (all dims by default), one node."
    return op


var_mean = _with_mean("var_mean", VarMeanBackward0, False)
std_mean = _with_mean("std_mean", StdMeanBackward0, True)


# ---------------------------------------------------------------- logsumexp
class LogsumexpBackward0(Node):
    """z = log(sum(exp(self), dim)):  dself = g * exp(self - z)."""

    rule = _r("z = logsumexp(a, dim) = log(sum(exp(a), dim))",
              {"a": "self", "z": "result", "dim": "dim", "keepdim": "keepdim"},
              np={"a": "expand(grad, a.shape, dim, keepdim) * exp(a - expand(z, a.shape, dim, "
                       "keepdim))"}, a="expand(grad) * exp(a - expand(z))")

    saved = ("dim", "keepdim", "result", "self")
    saved_tensors_names = ("result", "self")

    def backward(self, g):  # PyTorch's logsumexp_backward
        x, z = value(self._s_self), value(self._s_result)
        if not self._s_keepdim and data(x).ndim:
            g, z = unsqueeze_dims(g, self._s_dim), unsqueeze_dims(z, self._s_dim)
        return (g * call(x - z, "exp"),)


@method("logsumexp")
def logsumexp(input, dim, keepdim: bool = False):
    """``log(exp(input).sum(dim))``, computed without overflow."""
    dims = saved_dims = _dims(input, dim)
    x = floats(input, "logsumexp")
    if not dims and x.ndim:  # dim=[]: PyTorch's max and sum reduce every dimension then,
        dims = tuple(range(x.ndim))  # and without keepdim its in-place add_ refuses
        if not keepdim and x.size:
            raise RuntimeError("output with shape [] doesn't match the broadcast shape "
                               f"{[1] * x.ndim}")
    token = quiet()  # (inf - inf, log 0: NaN and -inf as in PyTorch, no NumPy warning)
    try:
        m = np.max(x, axis=dims, keepdims=True) if x.size else np.zeros((1,) * x.ndim, x.dtype)
        m = np.where(np.isfinite(m), m, 0)
        data = np.log(np.sum(np.exp(x - m), axis=dims, keepdims=True)) + m
    finally:
        restore(token)
    data = np.asarray(data if keepdim else np.squeeze(data, axis=dims), dtype=x.dtype)
    out = Tensor._wrap(row_major(data))
    if should_record(input):
        node = LogsumexpBackward0()
        node._s_dim, node._s_keepdim = saved_dims, keepdim
        node._s_self = SavedTensor(input)
        record(node, out, input)
        node._s_result = SavedTensor(out, node)
    return out


# ---------------------------------------------------------------- mode
class ModeBackward0(MedianBackward1):
    """(z, i) = mode(self, dim):  the gradient goes to each row's element at index i (as
    median(dim)'s: the same rule, the same saved values)."""

    rule = replace(MedianBackward1.rule, forward="(z, i) = a.mode(dim, keepdim)")


return_types.mode = _return_type("mode")


def _by_value(x, y) -> bool:
    return x[0] < y[0]


def _sorted_order(row: np.ndarray) -> list:
    """The positions of ``row`` in the order PyTorch's ``std::sort`` leaves them: for a short
    row an insertion sort by ``<`` (stable; a NaN stops the values behind it moving past); a
    longer one (without NaN) libstdc++'s introsort (``select_order``), not stable."""
    if len(row) > 16 and not np.isnan(row).any():
        pairs = [(v, i) for i, v in enumerate(row.tolist())]
        std_sort(pairs, len(pairs), _by_value)
        return [i for _, i in pairs]
    order = list(range(len(row)))
    for i in range(1, len(row)):
        v, j = order[i], i
        if row[v] < row[order[0]]:
            order[1:i + 1], order[0] = order[0:i], v
            continue
        while row[v] < row[order[j - 1]]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = v
    return order


def _mode_position(row: np.ndarray) -> int:
    """Where the mode of ``row`` is: the first longest run of equal sorted values (so the
    smallest of equally frequent ones), at the run's last position, as PyTorch's CPU kernel."""
    order, best, count, longest = _sorted_order(row), 0, 0, 0
    for k, pos in enumerate(order):
        count += 1
        if k == len(order) - 1 or row[pos] != row[order[k + 1]]:
            if count > longest:
                best, longest = pos, count
            count = 0
    return best


@method("mode")
def mode(input, dim: int = -1, keepdim: bool = False):
    """The most frequent value along ``dim`` and the index of its last occurrence."""
    x = input._data
    if not x.ndim:  # a 0-d input: itself, index 0
        return _pair("mode", *_scalar_order(input, ModeBackward0, dim))
    d = input._wrap_dim(dim)
    if not x.shape[d]:
        raise empty_reduction("mode", d)
    rows = np.moveaxis(x, d, -1)
    best = [_mode_position(row) for row in rows.reshape(-1, x.shape[d])]
    idx = np.moveaxis(np.array(best, np.int64).reshape(rows.shape[:-1] + (1,)), -1, d)
    return _pair("mode", *_ordered(input, d, idx, ModeBackward0, squeeze=not keepdim,
                                   given=dim))
