"""What a backward formula needs, for both of the values it may get.

The engine hands a formula NumPy arrays, or Tensors when it runs with ``create_graph=True``
(then the formula itself is recorded, and can be differentiated again). Operators (``g * x``,
``g / y``, ``-g``, ``@``) and ``reshape``/``sum(axis)``/``.T`` work on both; what does not is
here, once, so that each formula is written once, as PyTorch writes it. The layout
optimisations that measure are here too, each with what it saves.

>>> import numpy as np, minigrad as torch
>>> cos(np.zeros(2)), cos(torch.zeros(2))
(array([1., 1.]), tensor([1., 1.]))
"""

from __future__ import annotations

import numpy as np

from .._layout import like_input
from .._tensor import Tensor
from ..autograd.formulas import formula_function
from ..autograd.functional_utils import expand_to as _expand_array
from ..autograd.graph import record as _record
from ..autograd.graph import should_record as _should_record

__all__ = ["recording", "as_tensor", "like", "constant", "data", "exp", "log", "sqrt", "sin",
           "cos", "abs", "sign", "mT", "t", "permute", "bmm", "expand_to", "unsqueeze",
           "sum_keepdim", "zeros_like", "masked_zero", "sum_rows", "zeros", "narrow", "cat",
           "stack", "placed", "index_put", "index", "clone", "copied", "strided", "copy_"]


def recording(g) -> bool:
    """Whether the formula given ``g`` is itself being recorded (``create_graph=True``; inside
    PyTorch's backward: ``GradMode::is_enabled()``). PyTorch's own formulas choose a slower
    expression that can be differentiated again then (cumprod's at zeros, prod's)."""
    return isinstance(g, Tensor)


def data(x):
    """The NumPy data of ``x``: a constant (masks such as ``self >= min`` carry no gradient)."""
    return x._data if isinstance(x, Tensor) else x


def _unary(name: str):
    def fn(x):
        return getattr(x, name)() if isinstance(x, Tensor) else getattr(np, name)(x)

    fn.__name__ = name
    fn.__doc__ = f"``{name}(x)`` of an array or (recorded) of a tensor."
    return fn


exp, log, sqrt, sin, cos, abs, sinh, cosh = (formula_function(_unary(n)) for n in (
    "exp", "log", "sqrt", "sin", "cos", "abs", "sinh", "cosh"))


def as_tensor(x):
    """``x`` as a Tensor (an array wrapped, outside any graph): for a formula written with the
    Tensor methods PyTorch's formula calls (``flip``, ``roll``, ``xlogy``...); :func:`like`
    gives its result back as the kind of value the formula was given."""
    return x if isinstance(x, Tensor) else Tensor._wrap(np.asarray(x))


def like(result, g):
    """``result`` (a Tensor) as the kind of value ``g`` is: itself under create_graph (then it
    is recorded), else its array."""
    return result if isinstance(g, Tensor) else result._data


def constant(x, like):
    """The array ``x`` as a constant of the kind of ``like``: an array, or a tensor outside
    any graph (a mask a formula multiplies by)."""
    return Tensor._wrap(np.asarray(x)) if isinstance(like, Tensor) else x


def sign(x):
    """The sign of ``x``'s data, as a constant."""
    return np.sign(data(x))


@formula_function
def mT(x):
    """The last two dimensions swapped (``x.mT``)."""
    return x.transpose(-2, -1) if isinstance(x, Tensor) else x.swapaxes(-1, -2)


@formula_function
def t(x):
    """The transpose of a matrix (``x.t()``; a vector as it is)."""
    return x.t() if isinstance(x, Tensor) else x.T


def permute(x, order):
    """The dimensions of ``x`` reordered (``x.permute(order)``)."""
    return x.permute(order) if isinstance(x, Tensor) else x.transpose(order)


@formula_function
def bmm(a, b):
    """Batched matrix product (``a.bmm(b)``)."""
    return a.bmm(b) if isinstance(a, Tensor) else np.matmul(a, b)


def expand_to(g, shape):
    """``g`` broadcast to ``shape`` (``g.expand(shape)``; for arrays a read-only view)."""
    return g.expand(tuple(shape)) if isinstance(g, Tensor) else _expand_array(g, shape)


def unsqueeze(g, axis: int):
    """``g`` with a new size-1 dimension at ``axis``."""
    return g.unsqueeze(axis) if isinstance(g, Tensor) else np.expand_dims(g, axis)


def sum_keepdim(x, axis):
    """``x`` summed over ``axis``, keeping it as a size-1 dimension."""
    if isinstance(x, Tensor):
        return x.sum(axis, keepdim=True)
    return np.add.reduce(x, axis, keepdims=True)


@formula_function
def zeros_like(g):
    """Zeros shaped like ``g`` that take no part in any graph."""
    return Tensor._wrap(np.zeros_like(g._data)) if isinstance(g, Tensor) else np.zeros_like(g)


def masked_zero(g, mask):
    """``g`` with zeros where the constant ``mask`` (an array or a bool tensor) holds
    (``g.masked_fill(mask, 0)``)."""
    if isinstance(g, Tensor):
        return g.masked_fill(mask if isinstance(mask, Tensor) else Tensor._wrap(mask), 0)
    return zero_where(data(mask), g)


_SAME_SIZE_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def zero_where(off, g: np.ndarray) -> np.ndarray:
    """``np.where(off, 0, g)`` in ``g``'s dtype, bit for bit: +0 where ``off``, ``g``'s own
    value elsewhere (inf, NaN and -0 included). From 4,096 elements on, a float ``g`` of
    ``off``'s shape has its bits ANDed with a mask that is all ones where kept: 2-10x faster
    than np.where there (below that, np.where is the cheaper call)."""
    ints = _SAME_SIZE_INT.get(g.dtype.itemsize) if g.dtype.kind == "f" else None
    if ints is None or g.size < 4096 or off.shape != g.shape:  # (off: bool array or np.bool)
        return np.where(off, g.dtype.type(0), g)
    mask = off.astype(ints)  # 1 where off
    mask -= 1  # 0 where off, -1 (all bits set) where kept
    mask &= g.view(ints)
    return mask.view(g.dtype)


# ---------------------------------------------------------------- layout optimisations
def sum_rows(g):
    """``g.sum(0)``: a bias row's gradient (``np.add.reduce`` skips ``ndarray.sum``'s Python
    wrapper, measurable on nn.Linear's small batches)."""
    return g.sum(dim=(0,)) if isinstance(g, Tensor) else np.add.reduce(g, 0)


# ---------------------------------------------------------------- indexing, in-place and join
# (the `views` helper's block.) The formulas of indexing, CopySlices and cat/split/unbind
# write zeros and place or gather gradients at NumPy indices; NumPy arrays have no
# index_put/narrow/cat methods, so each is here once, for both kinds of value.
def zeros(shape, like):
    """Zeros of ``shape`` in ``like``'s dtype, outside any graph (PyTorch's ``zeros_like``
    parts of a formula)."""
    if isinstance(like, Tensor):
        return Tensor._wrap(np.zeros(shape, like._data.dtype))
    return np.zeros(shape, like.dtype)


def narrow(g, dim: int, start: int, length: int):
    """``g.narrow(dim, start, length)``: ``length`` entries from ``start`` along ``dim``."""
    if isinstance(g, Tensor):
        return g.narrow(dim, start, length)
    return g[(slice(None),) * dim + (slice(start, start + length),)]


def cat(gs, dim: int):
    """``torch.cat(gs, dim)``. (For tensors ``Tensor._cat``, which join.py attaches: this module
    cannot import join.py, which builds on movement.py, which uses this module.)"""
    return Tensor._cat(gs, dim) if isinstance(gs[0], Tensor) else np.concatenate(gs, dim)


def stack(gs, dim: int):
    """``torch.stack(gs, dim)`` (``Tensor._stack``, attached by join.py)."""
    return Tensor._stack(gs, dim) if isinstance(gs[0], Tensor) else np.stack(gs, dim)


def placed(g, shape, where, node_cls):
    """Zeros of ``shape`` with ``g`` written at ``where`` (a NumPy index): the gradient of
    taking ``x[where]`` (select, slice, diagonal). A Tensor ``g`` is recorded as ``node_cls``,
    whose own backward takes ``gg[where]`` back out."""
    z = np.zeros(shape, data(g).dtype)
    z[where] = data(g)
    if not isinstance(g, Tensor):
        return z
    out = Tensor._wrap(z)
    if _should_record(g):
        node = node_cls()
        node._where = where
        _record(node, out, g)
    return out


def index_put(x, indices, where, values, accumulate: bool):
    """``x.index_put(indices, values, accumulate)``; for arrays a copy of ``x`` with ``values``
    put (or added: an index given twice gets both) at ``where``, the NumPy form of
    ``indices``."""
    if isinstance(x, Tensor):
        return x._index_put_impl(indices, values, accumulate)
    out = _copy(x)
    if accumulate:
        np.add.at(out, where, values)
    else:
        out[where] = values
    return out


def index(g, indices, where):
    """``g[indices]`` (a gather: IndexBackward0 when recorded); ``where`` is its NumPy form."""
    return g._index(indices) if isinstance(g, Tensor) else g[where]


def clone(x):
    """A copy of ``x`` with its own memory (``x.clone()``)."""
    return x.clone() if isinstance(x, Tensor) else _copy(x)


def _copy(a):
    """A copy of array ``a`` as PyTorch's ``clone()`` lays it out (a size-1 dimension keeps its
    stride, 0 included: the gradient of a one-element sum is such an expanded view)."""
    out = np.array(a)
    return like_input(out, a) if 1 in out.shape else out


def copied(g):
    """A row-major copy of ``g`` written by ``copy_`` (``torch::autograd::CopyBackwards`` when
    ``g`` is recorded), as PyTorch's CopySlices starts the base's gradient."""
    if isinstance(g, Tensor):
        return Tensor._wrap(np.empty(g._data.shape, g._data.dtype)).copy_(g)
    return np.array(g, order="C")


def strided(x, geometry):
    """``x.as_strided(sizes, strides, offset)`` (in elements) of a row-major ``x``: a view
    whose writes reach ``x``."""
    sizes, strides, offset = geometry
    if isinstance(x, Tensor):
        return x.as_strided(sizes, strides, offset)
    if offset < 0 or offset + sum((n - 1) * s for n, s in zip(sizes, strides)) >= x.size or \
            not x.flags.c_contiguous:  # (never a view outside x's own memory)
        raise RuntimeError("strided view out of bounds")
    return np.lib.stride_tricks.as_strided(x.reshape(-1)[offset:], sizes,
                                           tuple(s * x.itemsize for s in strides))


def copy_(dst, src):
    """``dst.copy_(src)``: ``src`` written into ``dst`` (a view: into its base's memory)."""
    if isinstance(dst, Tensor):
        return dst.copy_(src)
    dst[...] = src
    return dst
