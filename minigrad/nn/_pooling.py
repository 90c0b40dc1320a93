"""Pooling: ``F.max_pool2d`` (``MaxPool2DWithIndicesBackward0``), ``F.avg_pool2d``
(``AvgPool2DBackward0``) and ``F.adaptive_avg_pool2d`` (``AdaptiveAvgPool2DBackward0``).

Each pool looks at windows of the (padded) input, as a convolution does (the same strided
view, :func:`minigrad.nn._conv._windows`), and keeps one number per window: the largest (max
pooling, which also remembers where it was: the *indices*) or the mean. The backward sends
the gradient of each window back to where the window read it: all of it to the largest
element, or an equal share to each element.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> x = torch.arange(16.).reshape(1, 1, 4, 4).requires_grad_()
>>> F.max_pool2d(x, 2)
tensor([[[[ 5.,  7.],
          [13., 15.]]]], grad_fn=<MaxPool2DWithIndicesBackward0>)
"""

from __future__ import annotations

import numpy as np

from .._layout import in_memory_format_of, suggests_channels_last
from .._ops._core import value
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._conv import _windows
from ._kernel_dtypes import refuse as _refuse

__all__ = ["max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "MaxPool2DWithIndicesBackward0",
           "AvgPool2DBackward0", "AdaptiveAvgPool2DBackward0"]


def _out_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's ``pooling_output_shape``: with ``ceil_mode`` a last, partial window counts if
    it starts inside the input or its left padding."""
    span = n + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _pair(name: str, v, fn: str, allow_none: bool = False) -> tuple:
    if v is None and allow_none:
        return ()
    v = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if len(v) not in (1, 2) and not (allow_none and len(v) == 0):
        raise RuntimeError(f"{fn}: {name} must either be a single int, or a tuple of two ints")
    return tuple(int(i) for i in v)


def _geometry(x, kernel, stride, padding, dilation, ceil_mode):
    """The padded input (filled with ``fill``) and the output size of a 2-D pool."""
    sizes = x.shape[-2:]
    outs = tuple(_out_size(n, k, s, p, d, ceil_mode)
                 for n, k, s, p, d in zip(sizes, kernel, stride, padding, dilation))
    # pad enough for every window (ceil_mode may need more at the end)
    extra = tuple(max((o - 1) * s + d * (k - 1) + 1 - n - p, 0) for o, s, d, k, n, p in
                  zip(outs, stride, dilation, kernel, sizes, padding))
    return outs, extra


def _padded(x, padding, extra, fill):
    widths = [(0, 0)] * (x.ndim - 2) + [(p, e) for p, e in zip(padding, extra)]
    return np.pad(x, widths, constant_values=fill)


def _checks(fn, x, kernel, stride, padding, dilation):
    if fn == "max_pool2d" and any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: "
                           f"{dilation[0]} dilationW: {dilation[1]}")
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"pad must be non-negative, but got pad: {padding[0]}")
    for p, k, d in zip(padding, kernel, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if 0 in x.shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(x.shape)}")


def _too_small(x, outs):
    if any(o < 1 for o in outs):
        c, h, w = x.shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: "
                           f"({c}x{outs[0]}x{outs[1]}). Output size is too "
                           "small")


# ---------------------------------------------------------------- max pooling
class MaxPool2DWithIndicesBackward0(Node):
    """z = the largest element of each window (indices: where it is, row * width + column):
    grad_a = zeros with each window's grad added at its largest element (at indices)."""

    rule = _r("z = the largest element of each window of a  (indices: where each was)",
              {"a": "self",
               "kernel_size": "kernel_size",
               "stride": "stride",
               "padding": "padding",
               "indices": "result1",
               "dilation": "dilation"}, words=True,
              a="zeros like a, with each window's grad added at its largest element (at indices)")

    saved = ("ceil_mode", "dilation", "kernel_size", "padding", "self", "stride", "result1")
    saved_tensors_names = ("self", "result1")

    def backward(self, g):
        value(self._s_self)  # (PyTorch's error if it was freed)
        return (_recorded(self, g, _scatter_back(_data(g), self._indices, self._in_shape),
                          MaxPool2DWithIndicesBackwardBackward0),)


def _data(g):
    return g._data if isinstance(g, Tensor) else g


def _recorded(first: Node, g, grad: np.ndarray, node_cls):
    """A pool's gradient ``grad``, computed from ``g``: the array, or under create_graph a
    tensor recorded as ``node_cls`` (PyTorch's ``...BackwardBackward0``: the pool's backward
    is linear in ``g``, so its own gradient is the pool again)."""
    x = value(first._s_self)
    grad = in_memory_format_of(grad, _data(x))  # (as PyTorch's backward kernels allocate it)
    if not isinstance(g, Tensor):
        return grad
    out = Tensor._wrap(grad)
    if should_record(g, x):
        node = node_cls()
        node._first = first
        if "self" in node_cls.saved:
            node._s_self = SavedTensor(x)
        record(node, out, g, x)
    return out


def _scatter_back(g: np.ndarray, indices: np.ndarray, shape: tuple) -> np.ndarray:
    """Each gradient of ``g`` added into zeros of ``shape`` at its flat index (per plane)."""
    plane = shape[-2] * shape[-1]
    lead = int(np.prod(shape[:-2]))
    flat_idx = indices.reshape(lead, -1) + (np.arange(lead) * plane)[:, None]
    out = np.zeros(lead * plane, g.dtype)
    np.add.at(out, flat_idx.reshape(-1), g.reshape(-1))
    return out.reshape(shape)


class MaxPool2DWithIndicesBackwardBackward0(Node):
    """z = max_pool2d_backward(g, a, indices), the gradient of max pooling as an op:
    grad_g = gg read at the indices (max pooling by the same indices);  grad_a = zeros."""

    rule = _r("z = max_pool2d_backward(g, a, indices)  (the gradient of max pooling as an op; "
              "linear in g)", {"indices": "indices"}, words=True, g="grad read at the indices",
              a="zeros_like(a)")

    saved = ("indices",)
    saved_tensors_names = ("indices",)

    @property
    def _s_indices(self):
        return self._first._s_result1

    def backward(self, gg):
        first = self._first
        flat = _data(gg).reshape(gg.shape[:-2] + (-1,))
        picked = np.take_along_axis(flat, first._indices.reshape(flat.shape[:-1] + (-1,)), -1)
        return _same_kind(picked.reshape(first._indices.shape), gg), _zeros(first, gg)


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """The largest element of each ``kernel_size`` window; with ``return_indices`` also
    where it was (flat index in its plane, int64): ``(values, indices)``."""
    kernel = _pair("kernel_size", kernel_size, "max_pool2d")
    stride = _pair("stride", stride, "max_pool2d", allow_none=True)
    saved_stride = stride * 2 if len(stride) == 1 else stride  # (None: PyTorch saves ())
    stride = saved_stride or kernel
    padding, dilation = _pair("padding", padding, "max_pool2d"), _pair("dilation", dilation,
                                                                       "max_pool2d")
    kernel, stride, padding, dilation = (v * 2 if len(v) == 1 else v
                                         for v in (kernel, stride, padding, dilation))
    x = input._data
    _checks("max_pool2d", x, kernel, stride, padding, dilation)
    outs, extra = _geometry(x, kernel, stride, padding, dilation, ceil_mode)
    _too_small(x, outs)
    _refuse("max_pool2d", x, "fiu")
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = _padded(x, padding, extra, fill)
    win = _windows(xp.reshape((-1, 1) + xp.shape[-2:]), kernel, stride, dilation)
    win = win[:, 0, :outs[0], :outs[1]].reshape(-1, outs[0], outs[1], kernel[0] * kernel[1])
    values, idx = _largest(win, x.shape[-2:], outs, kernel, stride, padding, dilation, fill)
    shape = x.shape[:-2] + outs
    out = Tensor._wrap(in_memory_format_of(values.reshape(shape), x))
    indices = Tensor._wrap(in_memory_format_of(idx.reshape(shape), x))
    if should_record(input):
        node = MaxPool2DWithIndicesBackward0()
        node._s_ceil_mode, node._s_dilation, node._s_kernel_size = ceil_mode, dilation, kernel
        node._s_padding, node._s_stride = padding, saved_stride
        node._s_self, node._s_result1 = SavedTensor(input), SavedTensor(indices)
        node._indices, node._in_shape = indices._data, x.shape
        record(node, out, input)
    return (out, indices) if return_indices else out


def _largest(win, sizes, outs, kernel, stride, padding, dilation, fill):
    """Each window's largest element and its flat index in the plane, as PyTorch's CPU kernel
    finds them: it looks only at the window's positions inside the input (in order), keeps
    the first largest, but the last NaN; a window with none inside gives ``fill`` and the index
    of its first position moved inside by whole dilation steps."""
    starts, inside = [], []
    for n, o, k, st, p, d in zip(sizes, outs, kernel, stride, padding, dilation):
        pos = np.arange(o)[:, None] * st - p + np.arange(k)[None, :] * d  # (o, k)
        inside.append((pos >= 0) & (pos < n))
        first = np.arange(o) * st - p
        starts.append(np.where(first < 0, first + -(first // d) * d, first))
    valid = (inside[0][:, None, :, None] & inside[1][None, :, None, :]).reshape(
        outs + (kernel[0] * kernel[1],))
    token = quiet()
    try:
        nan = (np.isnan(win) if win.dtype.kind == "f" else np.zeros(win.shape, bool)) & valid
        top = np.where(valid, win, fill).max(-1, keepdims=True)
        first_top = (valid & (win == top)).argmax(-1)
        last_nan = win.shape[-1] - 1 - nan[..., ::-1].argmax(-1)
    finally:
        restore(token)
    pick = np.where(nan.any(-1), last_nan, first_top)
    values = np.where(valid.any(-1), np.take_along_axis(win, pick[..., None], -1)[..., 0], fill)
    ki, kj = np.divmod(pick, kernel[1])
    rows = np.arange(outs[0])[:, None] * stride[0] + ki * dilation[0] - padding[0]
    cols = np.arange(outs[1])[None, :] * stride[1] + kj * dilation[1] - padding[1]
    none = ~valid.any(-1)
    rows = np.where(none, starts[0][:, None], rows)
    cols = np.where(none, starts[1][None, :], cols)
    return values, (rows * sizes[1] + cols).astype(np.int64)


# ---------------------------------------------------------------- average pooling
class AvgPool2DBackward0(Node):
    """z = the mean of each window (divided by the window's size, or ``divisor_override``):
    grad_a = each window's grad / its divisor, added to every element of the window."""

    rule = _r("z = the mean of each window of a  (divided by the window's size, or "
              "divisor_override)",
              {"a": "self",
               "kernel_size": "kernel_size",
               "stride": "stride",
               "padding": "padding",
               "divisor_override": "divisor_override"}, words=True,
              a="each window's grad / its divisor, added to every element of the window")

    saved = ("ceil_mode", "count_include_pad", "divisor_override", "kernel_size", "padding",
             "self", "stride")
    saved_tensors_names = ("self",)

    def backward(self, g):
        value(self._s_self)  # (PyTorch's error if it was freed)
        return (_recorded(self, g, self._grad(_data(g)), AvgPool2DBackwardBackward0),)

    def _grad(self, gd: np.ndarray) -> np.ndarray:
        share = gd / self._divisors
        k, s = self._kernel, self._stride
        out = np.zeros(self._padded_shape, gd.dtype)
        oh, ow = gd.shape[-2:]
        for i in range(k[0]):
            for j in range(k[1]):
                out[..., i:i + s[0] * (oh - 1) + 1:s[0], j:j + s[1] * (ow - 1) + 1:s[1]] += share
        p = self._pad
        h, w = self._in_shape[-2:]
        return np.ascontiguousarray(out[..., p[0]:p[0] + h, p[1]:p[1] + w])


class AvgPool2DBackwardBackward0(Node):
    """z = avg_pool2d_backward(g, a), the gradient of average pooling as an op:
    grad_g = avg_pool2d(gg) with the same arguments;  grad_a = zeros."""

    rule = _r("z = avg_pool2d_backward(g, a)  (the gradient of average pooling as an op; linear "
              "in g)", words=True, g="avg_pool2d(grad) with the same arguments", a="zeros_like(a)")

    saved = ("self",)
    saved_tensors_names = ("self",)

    def backward(self, gg):
        f = self._first
        return _same_kind(_avg_forward(_data(gg), f._s_kernel_size, f._stride, f._pad,
                                       f._divisors), gg), _zeros(f, gg)


def _zeros(first: Node, like):
    """The pool's input's gradient from its own gradient: zeros (it does not depend on it)."""
    return _same_kind(np.zeros(first._in_shape, _data(like).dtype), like)


def _same_kind(a: np.ndarray, like):
    """``a`` as the kind of value ``like`` is (a tensor under create_graph, else an array)."""
    return Tensor._wrap(np.ascontiguousarray(a)) if isinstance(like, Tensor) else a


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    """The mean of each ``kernel_size`` window (the padding's zeros count unless
    ``count_include_pad=False``; ``divisor_override`` divides by that number instead)."""
    kernel = _pair("kernel_size", kernel_size, "avg_pool2d")
    stride = _pair("stride", stride, "avg_pool2d", allow_none=True)
    saved_stride = stride * 2 if len(stride) == 1 else stride  # (None: PyTorch saves ())
    stride = saved_stride or kernel
    padding = _pair("padding", padding, "avg_pool2d")
    kernel, stride, padding = (v * 2 if len(v) == 1 else v for v in (kernel, stride, padding))
    x = input._data
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _checks("avg_pool2d", x, kernel, stride, padding, (1, 1))
    outs, extra = _geometry(x, kernel, stride, padding, (1, 1), ceil_mode)
    _too_small(x, outs)
    if x.dtype != np.int64:
        _refuse("avg_pool2d", x)
    divisors = _divisors(x.shape[-2:], outs, kernel, stride, padding, count_include_pad,
                         divisor_override).astype(x.dtype)
    values = _avg_forward(x, kernel, stride, padding, divisors)
    xp_shape = tuple(n + p + e for n, p, e in zip(x.shape[-2:], padding, extra))
    out = Tensor._wrap(in_memory_format_of(values.astype(x.dtype, copy=False), x))
    if should_record(input):
        node = AvgPool2DBackward0()
        node._s_ceil_mode, node._s_count_include_pad = ceil_mode, count_include_pad
        node._s_divisor_override, node._s_kernel_size = divisor_override, kernel
        node._s_padding, node._s_stride, node._s_self = padding, saved_stride, SavedTensor(input)
        node._divisors, node._kernel, node._stride, node._pad = divisors, kernel, stride, padding
        node._padded_shape, node._in_shape = x.shape[:-2] + xp_shape, x.shape
        record(node, out, input)
    return out


def _avg_forward(x, kernel, stride, padding, divisors) -> np.ndarray:
    """Each window's sum (zeros padded in) divided by its divisor."""
    outs = divisors.shape
    _, extra = _geometry(x, kernel, stride, padding, (1, 1), True)
    xp = _padded(x, padding, extra, 0)
    win = _windows(xp.reshape((-1, 1) + xp.shape[-2:]), kernel, stride, (1, 1))
    win = win[:, 0, :outs[0], :outs[1]]
    token = quiet()  # (inf and -inf in a window: NaN, without NumPy's warning, as in PyTorch)
    try:
        return (win.sum((-2, -1)) / divisors).reshape(x.shape[:-2] + outs)
    finally:
        restore(token)


def _divisors(sizes, outs, kernel, stride, padding, count_pad, override) -> np.ndarray:
    """What each window's sum is divided by, as PyTorch's avg_pool2d kernel counts it."""
    if override is not None:
        return np.full(outs, float(override))
    parts = []
    for n, o, k, s, p in zip(sizes, outs, kernel, stride, padding):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        size = end - start  # the window inside input + padding
        if not count_pad:
            size = np.minimum(end, n) - np.maximum(start, 0)
        parts.append(size)
    return np.outer(parts[0], parts[1]).astype(float)


# ---------------------------------------------------------------- adaptive average pooling
class AdaptiveAvgPool2DBackward0(Node):
    """z = the mean of each of out_h x out_w regions (region i spans rows floor(i * H / out_h)
    to ceil((i + 1) * H / out_h)):  grad_a = each region's grad / its size, added to each
    element of the region."""

    rule = _r("z = the mean of each of out_h x out_w regions of a", {"a": "self"}, words=True,
              a="each region's grad / its size, added to every element of the region")

    saved = ("self",)
    saved_tensors_names = ("self",)

    def backward(self, g):
        value(self._s_self)  # (PyTorch's error if it was freed)
        gd = _data(g)
        out = np.zeros(self._in_shape, gd.dtype)
        for i, (r0, r1) in enumerate(self._rows):
            for j, (c0, c1) in enumerate(self._cols):
                share = gd[..., i, j] / ((r1 - r0) * (c1 - c0))
                out[..., r0:r1, c0:c1] += share[..., None, None]
        return (_recorded(self, g, out, AdaptiveAvgPool2DBackwardBackward0),)


class AdaptiveAvgPool2DBackwardBackward0(Node):
    """z = adaptive_avg_pool2d_backward(g, a), its gradient as an op:
    grad_g = adaptive_avg_pool2d(gg) to the same size;  grad_a = zeros."""

    rule = _r("z = adaptive_avg_pool2d_backward(g, a)  (the gradient of adaptive pooling as an "
              "op; linear in g)", words=True, g="adaptive_avg_pool2d(grad) to the same size",
              a="zeros_like(a)")

    saved = ("self",)
    saved_tensors_names = ("self",)

    def backward(self, gg):
        f = self._first
        return _same_kind(_adaptive_forward(_data(gg), f._rows, f._cols), gg), _zeros(f, gg)


def _regions(n: int, o: int) -> list:
    return [(i * n // o, -(-(i + 1) * n // o)) for i in range(o)]


def _adaptive_forward(x: np.ndarray, rows: list, cols: list) -> np.ndarray:
    data = np.empty(x.shape[:-2] + (len(rows), len(cols)), x.dtype)
    token = quiet()  # (as in _avg_forward)
    try:
        for i, (r0, r1) in enumerate(rows):
            for j, (c0, c1) in enumerate(cols):
                data[..., i, j] = x[..., r0:r1, c0:c1].mean((-2, -1))
    finally:
        restore(token)
    return data


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """The mean over ``output_size`` regions of each plane (``None``: keep that size). To
    1 x 1 it is a mean over the last two dimensions, recorded as such (``MeanBackward1``)."""
    size = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,) * 2
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    x = input._data
    if x.ndim not in (3, 4):
        raise RuntimeError("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{list(x.shape)}")
    size = tuple(x.shape[-2 + i] if s is None else int(s) for i, s in enumerate(size))
    if size == (1, 1):  # (PyTorch restrides a channels-last input's mean to (C, 1, C, C))
        out = input.mean((-1, -2), keepdim=True)
        if suggests_channels_last(x):
            out._data = in_memory_format_of(out._data, x)
        return out
    for d in range(1, x.ndim):
        if x.shape[d] == 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for "
                               f"non-batch dimensions, but input has sizes {list(x.shape)} "
                               f"with dimension {d} being empty")
    _refuse("adaptive_avg_pool2d", x)
    rows, cols = _regions(x.shape[-2], size[0]), _regions(x.shape[-1], size[1])
    out = Tensor._wrap(in_memory_format_of(_adaptive_forward(x, rows, cols), x))
    if should_record(input):
        node = AdaptiveAvgPool2DBackward0()
        node._s_self, node._in_shape, node._rows, node._cols = SavedTensor(input), x.shape, \
            rows, cols
        record(node, out, input)
    return out
