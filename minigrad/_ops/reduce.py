"""Reductions: sum, mean and norm (prod is in prod.py; max, min and friends in minmax.py).

``dim`` may be an int or a tuple, negative dims count from the end; ``keepdim=True`` keeps the
reduced dims with size 1. A negative dim shows in ``_saved_dim`` the way PyTorch shows it, as an
unsigned 64-bit number (-1 as 18446744073709551615).

>>> import minigrad as torch
>>> x = torch.tensor([[1., 5.], [7., 2.]], requires_grad=True)
>>> x.sum(dim=-1).grad_fn._saved_dim
(18446744073709551615,)
"""

from __future__ import annotations

import numpy as np

from .. import _dtype, _summation
from .._layout import row_major
from .._quiet import quiet, quietly, restore
from .._tensor import Tensor
from .._types import invalid_combination
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, record, should_record
from . import _formula as F
from ._backward import _axis, masked_zero, sgn, unsqueeze_dims
from ._core import method
from ._formula import data
from .errors import empty_norm
from .movement import u64
from .rounding import HALF

__all__ = ["sum", "mean", "norm"]

_ALL = object()  # "no dim given" (``x.sum()``), unlike an explicit ``dim=None``


def _axes(input, dim):
    """(what ``_saved_dim`` shows, the axes to reduce or None for all) for a dim argument."""
    if dim is None:
        return None, None
    if type(dim) is int:  # the common case, quickly
        axis = input._wrap_dim(dim)
        return (dim if dim >= 0 else dim + 2**64,), ((axis,) if input._data.ndim else None)
    if isinstance(dim, int):
        dims = (dim,)
    elif isinstance(dim, (tuple, list)):
        dims = tuple(dim)
    else:
        raise TypeError(f"reduction dim must be an int or a tuple of ints, got "
                        f"{type(dim).__name__}")
    axes = tuple(input._wrap_dim(d) for d in dims)
    if len(set(axes)) != len(axes):
        dup = next(a for a in axes if axes.count(a) > 1)
        raise RuntimeError(f"dim {dup} appears multiple times in the list of dims")
    if not axes or input._data.ndim == 0:
        axes = None
    return tuple(u64(d) for d in dims), axes


def _dims(input, dim) -> tuple:
    """``dim`` (an int or a sequence) as a tuple of non-negative axes."""
    if isinstance(dim, int):
        dim = (dim,)
    return tuple(input._wrap_dim(d) for d in dim)


def _keep_shape(shape, axes):
    """``shape`` with the reduced ``axes`` (all if None) set to 1."""
    if axes is None:
        return (1,) * len(shape)
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def _expand_back(g, shape, axes, keepdim):
    """The gradient of a reduction: put back the reduced axes, then broadcast to ``shape``."""
    if not keepdim:
        g = g.reshape(_keep_shape(shape, axes))
    return F.expand_to(g, shape)


def _record(out, node, input, dtype):
    """Wrap a reduction's result ``out`` and record ``node`` for it (if ``node``).

    A ``dtype=`` cast is undone on the gradient by the engine, as for a broadcast operand.
    """
    t = Tensor._wrap(row_major(out))  # (PyTorch allocates a reduction's result row-major)
    if node is not None:
        record(node, t, input, broadcast=dtype is not None)
    return t


# ---------------------------------------------------------------- sum / mean
class SumBackward0(Node):
    """The node of ``self.sum()``."""

    rule = _r("z = a.sum()", {"shape": "self_sym_sizes"}, numbers="shape",
              a="expand(grad, shape)")

    saved = ("self_sym_sizes",)


class SumBackward1(Node):
    """The node of ``self.sum(dim, keepdim)``."""

    rule = _r("z = a.sum(dim, keepdim)",
              {"shape": "self_sym_sizes", "dim": "dim", "keepdim": "keepdim"},
              numbers="shape dim keepdim", a="expand(grad, shape, dim, keepdim)")

    saved = ("dim", "keepdim", "self_sym_sizes")


@formula_function
def expand(grad, shape, dim=None, keepdim=False):
    """``grad`` broadcast back to ``shape``, the input's shape of a sum over ``dim`` (all dims
    if None): the summed dims are put back first, unless kept (PyTorch's ``sum_backward``)."""
    if dim is not None and not keepdim and len(shape) != np.ndim(data(grad)):
        axes = _reduced(dim, len(shape)) or tuple(range(len(shape)))
        grad = unsqueeze_dims(grad, axes) if isinstance(grad, Tensor) else \
            grad.reshape(_keep_shape(shape, axes))
    return F.expand_to(grad, shape)


@formula_function
def count(shape, dim=None) -> int:
    """How many elements of a tensor of ``shape`` each sum over ``dim`` adds."""
    n = 1
    for a in _reduced(dim, len(shape)) or range(len(shape)):
        n *= shape[a]
    return n


def _reduced(dim, ndim):
    """The axes a saved ``dim`` names (``_saved_dim`` shows -1 as 2**64 - 1); None for all."""
    if dim is None or not ndim:
        return None
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple((d - 2**64 if d >= 2**63 else d) % ndim for d in dims) or None


def reduction_input(input, dtype, fn: str, dim=_ALL):
    """(the array a reduction works on, its result's NumPy dtype) for a ``dtype=`` argument.

    Without one, integers and bools reduce as int64; with one, ``input`` is cast to it first
    (an int8 sum wraps around as in PyTorch). An integer result of a tensor that requires grad
    is refused, as PyTorch refuses it.
    """
    d = input._data
    if dtype is None:
        return d, (np.int64 if d.dtype.kind in "biu" else d.dtype)
    if type(dtype) is not _dtype.dtype:
        error = invalid_combination(fn, (), {"dtype": dtype}) if dim is _ALL else None
        dtype = _dtype.check(dtype, fn, error=error)
    if not dtype.is_floating_point and should_record(input):
        raise RuntimeError(f"Autograd not support dtype: {dtype._cpp}")
    return _dtype.cast(d, dtype.np), dtype.np


def total(reduce, d: np.ndarray, nd, **kwargs) -> np.ndarray:
    """``reduce(d, dtype=nd, ...)``; float16 is added up in float32 and rounded once at the
    end, as PyTorch does (so a sum that overflows float16 is inf, without NumPy's warning)."""
    token = quiet()  # inf + -inf, overflow: NaN and inf as in PyTorch, no NumPy warning
    try:
        if nd.itemsize == 2 and nd.kind == "f":  # (float16: cheaper than nd == np.float16)
            return _dtype.cast(np.asarray(reduce(d, dtype=np.float32, **kwargs)), np.dtype(nd))
        if reduce == np.add.reduce and d.dtype == nd and d.dtype.kind == "f":  # PyTorch's order
            return np.asarray(_summation.reduce_sum(d, kwargs["axis"], kwargs.get("keepdims")))
        return np.asarray(reduce(d, dtype=nd, **kwargs))
    finally:
        restore(token)


@method("sum")
def sum(input, dim=_ALL, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A001
    """Sum of all elements, or over dimension(s) ``dim``. Integers sum as int64."""
    d = input._data
    nd = d.dtype
    if dtype is not None or nd.kind != "f":
        d, nd = reduction_input(input, dtype, "sum", dim)
    if dim is _ALL:
        if d.dtype is nd and nd.kind == "f" and nd.itemsize > 2:  # float32/64: PyTorch's order
            token = quiet()  # inf + -inf, overflow: NaN and inf as in PyTorch, no NumPy warning
            try:
                out = Tensor._wrap(_summation.reduce_sum(d))
            finally:
                restore(token)
        else:  # (np.sum's own reduction, minus its wrapper)
            out = Tensor._wrap(total(np.add.reduce, d, nd, axis=None))
        if should_record(input):
            node = SumBackward0()
            node._s_self_sym_sizes = d.shape
            record(node, out, input, broadcast=dtype is not None)
        return out
    shown, axes = _axes(input, dim)
    out = total(np.add.reduce, d, nd, axis=axes, keepdims=keepdim)
    if should_record(input):
        node = SumBackward1()
        node._s_dim, node._axes, node._s_keepdim, node._s_self_sym_sizes = \
            shown, axes, keepdim, d.shape
        return _record(out, node, input, dtype)
    return Tensor._wrap(row_major(out))


class MeanBackward0(Node):
    """The node of ``self.mean()``."""

    rule = _r("z = a.mean()", {"shape": "self_sym_sizes", "n": "self_sym_numel"},
              numbers="shape n", a="expand(grad, shape) / n")

    saved = ("self_sym_numel", "self_sym_sizes")


class MeanBackward1(Node):
    """The node of ``self.mean(dim, keepdim)``."""

    rule = _r("z = a.mean(dim, keepdim)",
              {"shape": "self_sym_sizes", "dim": "dim", "keepdim": "keepdim"},
              numbers="shape dim keepdim",
              a="expand(grad, shape, dim, keepdim) / count(shape, dim)")

    saved = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")


def _mean_data(d, axes, keepdim, count):
    """The sum divided by ``count``; a mean of no elements is nan (without NumPy's warning)."""
    s = total(np.add.reduce, d, np.float32 if d.dtype == np.float16 else d.dtype, axis=axes,
              keepdims=keepdim)
    if count == 0:  # 0 / 0 on this CPU (x86 gives -nan, as PyTorch does)
        return _dtype.cast(np.asarray(quietly(np.true_divide, s, s.dtype.type(0))), d.dtype)
    return _dtype.cast(np.asarray(np.true_divide(s, count, dtype=s.dtype)), d.dtype)


@method("mean")
def mean(input, dim=_ALL, keepdim: bool = False, *, dtype=None) -> Tensor:
    """Mean of all elements, or over dimension(s) ``dim`` (floating tensors only)."""
    d = input._data
    if dtype is None and d.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {input.dtype._cpp}")
    if dtype is not None:
        dtype = _dtype.check(dtype, "mean", error=invalid_combination(
            "mean", (), {"dtype": dtype}) if dim is _ALL else None)
        if not dtype.is_floating_point:
            raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be "
                               f"either a floating point or complex dtype. Got: {dtype._cpp}")
        d = _dtype.cast(d, dtype.np)
    if dim is _ALL:
        out = _mean_data(d, None, False, d.size)
        if should_record(input):
            node = MeanBackward0()
            node._s_self_sym_numel, node._s_self_sym_sizes = d.size, d.shape
            return _record(out, node, input, dtype)
        return Tensor._wrap(out)
    shown, axes = _axes(input, dim)
    count = d.size if axes is None else int(np.prod([d.shape[a] for a in axes]))
    out = _mean_data(d, axes, keepdim, count)
    if should_record(input):
        node = MeanBackward1()
        node._s_dim, node._axes, node._s_keepdim = shown, axes, keepdim
        node._s_self_sym_numel, node._s_self_sym_sizes = d.size, d.shape
        return _record(out, node, input, dtype)
    return Tensor._wrap(row_major(out))


# ---------------------------------------------------------------- norm
def _norm_data(d, p, axes, keepdim):  # 0 ** -1, inf - inf: as PyTorch, no NumPy warning
    if d.dtype is HALF:  # (PyTorch's float16 norm runs in float32: 300 ** 2 is no inf)
        return _dtype.cast(np.asarray(_norm_data(d.astype(np.float32), p, axes, keepdim)), HALF)
    return quietly(_norm_of_abs, np.abs(d), p, axes, keepdim)


def _norm_of_abs(a, p, axes, keepdim):
    count = a.size if axes is None else int(np.prod([a.shape[x] for x in axes]))
    if count == 1 and p != 0 and (a.ndim or axes is None):  # one element per result: PyTorch's
        # kernel gives its magnitude (not over a 0-d tensor's dim 0: |x| ** p ** (1 / p) there)
        return a.reshape(()) if axes is None and not keepdim else (
            a if keepdim else np.squeeze(a, axis=tuple(axes)))
    if p == 2:
        return np.sqrt((a * a).sum(axis=axes, keepdims=keepdim))
    if p == 1:
        return a.sum(axis=axes, keepdims=keepdim)
    if p == np.inf:
        return a.max(axis=axes, keepdims=keepdim, initial=0)
    if p == -np.inf:
        return a.min(axis=axes, keepdims=keepdim)
    if p == 0:
        return (a != 0).sum(axis=axes, keepdims=keepdim).astype(a.dtype)
    s = (a ** p).sum(axis=axes, keepdims=keepdim)
    if p != p and not a.size:  # (p = nan over nothing: PyTorch's norm of nothing, 0)
        return s
    return s ** (1.0 / p)


class LinalgVectorNormBackward0(Node):
    """z = ||self||_p over dim:  dz/dself = self |self|^(p-2) / z^(p-1)  (x / z for p = 2).

    The gradient is 0 where z is 0; for p = inf it is shared by the largest |self|.
    """

    rule = _r("z = norm(a, p, dim)  (p = 2: the length)",
              {"a": "self", "z": "result", "p": "ord", "dim": "dim", "keepdim": "keepdim"},
              numbers="p dim keepdim", a="linalg_vector_norm_backward(grad, a, p, z, dim, keepdim)",
              note="= expand(grad * z ** (1 - p), a.shape, dim, keepdim) * sign(a) * "
                   "abs(a) ** (p - 1), case by case for p = 0, 1, 2, inf and where z is 0")

    saved = ("dim", "keepdim", "ord", "result", "self")


@formula_function
def linalg_vector_norm_backward(g, x, p, r, dim, keepdim):
    """PyTorch's ``linalg_vector_norm_backward``: ``dim`` as ``_saved_dim`` shows it (None:
    all dims), ``g`` and ``r`` given back the reduced dims unless ``keepdim``."""
    ndim = np.ndim(data(x))
    axes = tuple(_axis(int(d), ndim) for d in dim) if dim is not None and len(dim) and ndim \
        else None
    if not keepdim and axes is not None:
        g, r = unsqueeze_dims(g, axes), unsqueeze_dims(r, axes)
    return norm_backward(g, x, r, float(p), axes)


def norm_backward(g, x, r, p: float, axes=None):
    """PyTorch's norm_backward, case by case (0/0 where the norm ``r`` is 0: masked); ``g`` and
    ``r`` have ``x``'s dims (``axes``: those reduced, None for all). For p = 0 no gradient at
    all (PyTorch's returns an undefined tensor: ``.grad`` stays None)."""
    if p == 0:
        return None
    rd = data(r)
    if p == 1:
        return sgn(x) * g
    if p == 2:
        return g * masked_zero(x / r, rd == 0)
    if np.isinf(p):  # the largest |x| (or NaN) share the gradient
        ax = np.abs(data(x))
        mask = (ax == rd) | np.isnan(ax)
        axes = axes if axes is not None else tuple(range(ax.ndim))
        return sgn(x) * ((g / mask.sum(axes, keepdims=True).astype(ax.dtype)) * mask)
    if p < 1:
        scaled = sgn(x) * masked_zero(F.abs(x) ** (p - 1), data(x) == 0)
        return scaled * g * r ** (1 - p)
    scaled = sgn(x) * F.abs(x) ** (p - 1) if p < 2 else x * F.abs(x) ** (p - 2)
    return scaled * masked_zero(g / r ** (p - 1), rd == 0)


def _check_norm_dtype(input, dtype, matrix: bool) -> None:
    """PyTorch's refusals of norm's ``dtype=``: not a float, or narrower than the input's."""
    fn = "linalg.matrix_norm" if matrix else "linalg.vector_norm"
    if not dtype.is_floating_point:
        raise RuntimeError(f"{fn}: dtype should be floating point or complex, but got "
                           f"{dtype._cpp}")
    if dtype.np.itemsize < input._data.dtype.itemsize:
        raise RuntimeError(f"{fn}: the dtype of the input ({input.dtype._cpp}) should be "
                           f"convertible without narrowing to the specified dtype "
                           f"({dtype._cpp})")


@method("norm", python=True)
def norm(input, p="fro", dim=None, keepdim: bool = False, dtype=None):
    """The vector p-norm of all elements, or over ``dim`` (p=2 by default, also 1, inf, ...)."""
    d = input._data
    if d.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {input.dtype._legacy_name[:-6]}")
    if isinstance(dim, int):
        dim = (dim,)
    if dtype is not None:
        _check_norm_dtype(input, dtype, p == "nuc")
        d = d.astype(dtype.np, copy=False)
    if p == "fro" and dim is not None and len(dim) > 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                           + " ".join(str(d) for d in dim))
    ord = 2 if p == "fro" else 2.0 if p is None else p  # noqa: A001
    shown, axes = _axes(input, dim) if dim is not None else (None, None)
    error = None if d.size else empty_norm(ord, dim, d.shape)  # (dims as given: PyTorch's)
    if error is not None:
        raise error
    out = np.asarray(_norm_data(d, ord, () if dim is not None and not d.ndim else axes, keepdim),
                     dtype=d.dtype)  # (a 0-d tensor's dim: PyTorch's kernel, |x| ** p ** (1 / p))
    if should_record(input):
        node = LinalgVectorNormBackward0()
        node._s_dim, node._s_keepdim, node._s_ord = shown, keepdim, ord
        node._s_self = SavedTensor(input)
        t = _record(out, node, input, dtype)
        node._s_result = SavedTensor(t, node)
        return t
    return Tensor._wrap(row_major(out))
