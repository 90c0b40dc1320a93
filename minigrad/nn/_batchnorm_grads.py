"""Batch normalisation's gradients computed as PyTorch's CPU kernels compute them, step by
step, so that the rounding comes out the same. It matters: the input's gradient of
``sum(batch_norm(x))`` is 0 in exact arithmetic, so all that is left of it is rounding noise,
and an optimizer such as Adam turns that noise's sign into a whole step.

Per channel, with ``d = x - mean`` and the batch size ``n`` (every element of the channel):
``dotp = sum(d * dy)``, ``sum = sum(dy)``, ``k = dotp * invstd * invstd / n``,
``grad_input = (dy - sum / n - d * k) * invstd * w`` (eval mode: ``dy * invstd * w``),
``grad_weight = dotp * invstd``, ``grad_bias = sum``. Which kernel computes it depends on the
layout (``batch_norm_backward_cpu``: input and gradient both contiguous or channels last, and
suggesting the same memory format from their strides); where the kernels' compiled code uses
multiply-adds was measured against PyTorch 2.13, bit for bit:

- ``_planes``: input and gradient contiguous, more than one value per channel and sample:
  each sample's plane of a channel summed in AVX2 vectors (8 floats or 4 doubles: the
  products added to the vector one by one, the plane's last partial vector with one
  multiply-add, the lanes folded in halves for float, one by one for double), the planes'
  sums added in float64; ``dy - sum / n - d * k`` with one multiply-add.
- ``_rows``: input and gradient contiguous, one value per channel and sample (``(N, C)``),
  or both laid out channels last (``(N, C, H, W)`` read as rows of channels):
  each thread adds its share of the rows up in the input's dtype (the products with a
  multiply-add), the threads' sums are added in float64; ``dy - sum / n - d * k`` with one
  multiply-add in whole vectors of channels, without in the last partial one.
- ``_generic``: any other layout (an expanded gradient, as ``y.sum()`` gives): ``sum`` by
  ``torch.sum``'s order, ``dotp`` added in float64 one element after the other (in the
  input's memory order), everything else in the input's dtype, one operation at a time.

>>> import numpy as np
>>> x = np.array([[1., 2.], [3., 6.]], np.float32)
>>> dx, dw, db = kernel_grads(np.ones((2, 2), np.float32), x, None, np.array([2., 4.],
...     np.float32), np.array([1., 0.5], np.float32), True, (True, False, True))
>>> dx.tolist(), db.tolist()
([[0.0, 0.0], [0.0, 0.0]], [2.0, 2.0])
"""

from __future__ import annotations

import numpy as np

from .. import _summation
from .._moments import fma, fma_sum
from .._quiet import quiet, restore

__all__ = ["kernel_grads", "channels_last", "as_rows", "from_rows"]


def kernel_grads(g: np.ndarray, x: np.ndarray, w, mean: np.ndarray, invstd: np.ndarray,
                 train: bool, need) -> tuple:
    """``(grad_input, grad_weight, grad_bias)`` of batch norm (None where ``need`` says no)
    from the gradient ``g``, the input ``x``, the weight ``w`` (or None) and the channels'
    ``mean`` and ``invstd`` (training: the batch's; eval: the running ones), all of one
    dtype, float32 or float64."""
    token = quiet()
    try:
        same = _strides_like_channels_last(x) == _strides_like_channels_last(g)
        if x.flags.c_contiguous and g.flags.c_contiguous and same:
            if x.size == x.shape[0] * x.shape[1]:
                dx, dw, db = _rows(g.reshape(x.shape[:2]), x.reshape(x.shape[:2]), w, mean,
                                   invstd, train, need)
                return (None if dx is None else dx.reshape(x.shape), dw, db)
            return _planes(g.reshape(x.shape[0], x.shape[1], -1),
                           x.reshape(x.shape[0], x.shape[1], -1), w, mean, invstd, train,
                           need, x.shape)
        if channels_last(x) and (channels_last(g) or g.flags.c_contiguous) and same:
            dx, dw, db = _rows(as_rows(g), as_rows(x), w, mean, invstd, train, need)
            return (None if dx is None else from_rows(dx, x.shape), dw, db)
        return _generic(g, x, w, mean, invstd, train, need)
    finally:
        restore(token)


def channels_last(a: np.ndarray) -> bool:
    """Whether ``a`` (4-d or 5-d) lies in memory channels last (PyTorch's ``ChannelsLast``
    and ``ChannelsLast3d``) and not also contiguous."""
    return a.ndim in (4, 5) and not a.flags.c_contiguous and \
        np.moveaxis(a, 1, -1).flags.c_contiguous


def _strides_like_channels_last(a: np.ndarray) -> bool:
    """PyTorch's ``suggest_memory_format() == channels_last`` (``is_channels_last_strides``):
    the strides, channels first, then the last dim back to the batch, never decrease (a
    dim of size 1 counts as its stride; ambiguous cases are contiguous)."""
    if a.ndim not in (4, 5) or a.strides[1] == 0:
        return False
    low = 0
    for d in (1,) + tuple(range(a.ndim - 1, 1, -1)) + (0,):
        stride = a.strides[d] // a.itemsize
        if a.shape[d] == 0 or stride < low or (d == 0 and low == a.strides[1] // a.itemsize):
            return False
        low = stride * a.shape[d] if a.shape[d] > 1 else stride
    return True


def as_rows(a: np.ndarray) -> np.ndarray:
    """A channels-last ``a`` as its (positions, channels) rows (a view)."""
    return np.moveaxis(a, 1, -1).reshape(-1, a.shape[1])


def from_rows(rows: np.ndarray, shape) -> np.ndarray:
    """(positions, channels) rows back to ``shape``, laid out channels last."""
    return np.moveaxis(rows.reshape((shape[0],) + tuple(shape[2:]) + (shape[1],)), -1, 1)


def _lane_total(a: np.ndarray, b=None) -> np.ndarray:
    """``vec::reduce_all`` (``b`` None) or ``vec::map2_reduce_all`` of ``a * b`` over the
    last axis, in AVX2 vectors."""
    lanes = 32 // a.dtype.itemsize
    size = a.shape[-1]
    if size < lanes:  # (one partial vector: its lanes one by one)
        return np.cumsum(a if b is None else a * b, axis=-1)[..., -1]
    full = size - size % lanes
    head = a[..., :full] if b is None else a[..., :full] * b[..., :full]
    acc = np.add.reduce(head.reshape(a.shape[:-1] + (-1, lanes)), axis=-2)  # (in order)
    if full < size:
        rest = size - full
        tail = acc[..., :rest]
        acc[..., :rest] = tail + a[..., full:] if b is None else \
            fma(a[..., full:], b[..., full:], tail)
    if a.dtype == np.float32:  # (halves folded: 4, then 2, then 1)
        acc = acc[..., :4] + acc[..., 4:]
        acc = acc[..., :2] + acc[..., 2:]
        return acc[..., 0] + acc[..., 1]
    return np.cumsum(acc, axis=-1)[..., -1]


def _finish(dotp: np.ndarray, total: np.ndarray, invstd, need, dt) -> tuple:
    """grad_weight and grad_bias from the float64 ``dotp`` and ``sum``."""
    return ((dotp * invstd).astype(dt) if need[1] else None,
            total.astype(dt) if need[2] else None)


def _planes(g, x, w, mean, invstd, train, need, shape) -> tuple:
    """``batch_norm_cpu_backward_contiguous_impl``: ``g`` and ``x`` as (N, C, plane)."""
    dt = x.dtype
    d = x - mean[:, None]
    total = np.add.reduce(_lane_total(g).astype(np.float64), axis=0) + 0.0  # (from +0)
    dotp = np.add.reduce(_lane_total(d, g).astype(np.float64), axis=0) + 0.0
    dx = None
    if need[0]:
        if train:
            k = dotp.astype(dt) * invstd * invstd / dt.type(d.size // d.shape[1])
            grad_mean = (total / (d.size // d.shape[1])).astype(dt)
            dx = fma(d, -k[:, None], g - grad_mean[:, None])
            dx *= invstd[:, None]
        else:
            dx = g * invstd[:, None]
        dx = (dx if w is None else dx * w[:, None]).reshape(shape)
    return (dx,) + _finish(dotp, total, invstd, need, dt)


def _rows(g, x, w, mean, invstd, train, need) -> tuple:
    """``batch_norm_cpu_backward_channels_last_impl`` of the (positions, C) rows of an
    (N, C) or a channels-last input: the rows cut into one share per thread, as
    ``at::parallel_for`` does."""
    dt = x.dtype
    n = x.shape[0]
    used = min(_summation.get_num_threads(), n)
    step = -(-n // used)
    d = x - mean
    cuts = range(0, n, step)
    total = sum((np.add.reduce(g[k:k + step], axis=0).astype(np.float64) for k in cuts),
                np.zeros(x.shape[1]))
    dotp = sum((fma_sum(d[k:k + step], g[k:k + step]).astype(np.float64) for k in cuts),
               np.zeros(x.shape[1]))
    total, dotp = total.astype(dt), dotp.astype(dt)  # (the buffer is in the input's dtype)
    dx = None
    if need[0]:
        if train:
            k = dotp * invstd * invstd / dt.type(n)
            grad_mean = total / dt.type(n)
            full = x.shape[1] - x.shape[1] % (32 // dt.itemsize)  # (whole vectors)
            dx = np.empty_like(d)
            dx[:, :full] = fma(d[:, :full], -k[:full], g[:, :full] - grad_mean[:full])
            dx[:, full:] = g[:, full:] - grad_mean[full:] - d[:, full:] * k[full:]
            dx *= invstd
        else:
            dx = g * invstd
        dx = dx if w is None else dx * w
    return (dx,) + ((dotp * invstd) if need[1] else None, total if need[2] else None)


def _generic(g, x, w, mean, invstd, train, need) -> tuple:
    """``batch_norm_backward_cpu_template``'s own loops (Normalization.cpp)."""
    dt = x.dtype
    c = x.shape[1]
    dims = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    n = x.size // c
    total = _summation.reduce_sum(g, dims)
    d = x - mean.reshape(shape)
    order = sorted(dims, key=lambda a: -x.strides[a])  # (x's memory order, outermost first)
    products = np.transpose(d * g, [1] + order).reshape(c, -1)
    if dt == np.float64:  # (one after the other: float64 shows the order)
        dotp = np.cumsum(products, axis=1)[:, -1] if n else np.zeros(c)
    else:  # (float32 added in float64: any order rounds to the same float32, faster)
        dotp = np.sum(products, axis=1, dtype=np.float64)
    dx = None
    if need[0]:
        if train:
            k = (dotp.astype(dt) * invstd * invstd / dt.type(n)).reshape(shape)
            dx = (g - (total / dt.type(n)).reshape(shape) - d * k) * invstd.reshape(shape)
        else:
            dx = g * invstd.reshape(shape)
        dx = np.ascontiguousarray(dx if w is None else dx * w.reshape(shape))
    return (dx,) + _finish(dotp, total, invstd, need, dt)
