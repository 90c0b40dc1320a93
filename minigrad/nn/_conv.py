"""Convolution (``F.conv1d``, ``F.conv2d``, ``F.conv3d``): one node, ``ConvolutionBackward0``.

A convolution slides each filter of ``weight`` (out_channels, in_channels / groups, *kernel)
over the zero-padded input (N, in_channels, *spatial) and takes a dot product at each place.
Here the places are a strided view of the input (NumPy's ``sliding_window_view``, no copy) and
the dot products one ``einsum``; the backward is two ``einsum``\\ s of the same view:

- ``grad_weight``: the incoming gradient dotted with the windows it came from;
- ``grad_input``: each window's share (``grad`` times the filters) added back where the window
  was read ("col2im");
- ``grad_bias``: the incoming gradient summed over the batch and the positions.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> x = torch.ones(1, 1, 3, 3, requires_grad=True)
>>> y = F.conv2d(x, torch.ones(1, 1, 2, 2))
>>> y, y.grad_fn._saved_stride
(tensor([[[[4., 4.],
          [4., 4.]]]], grad_fn=<ConvolutionBackward0>), (1, 1))
"""

from __future__ import annotations

import itertools

import numpy as np

from .._ops._core import value
from .._quiet import quiet, restore
from .._state import warn_once
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import enable_grad
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import INFERENCE_MESSAGE
from . import _conv_kernels as kernels
from ._conv_checks import _check_bias_type, _check_dtypes, _check_shapes, _invalid_arguments

__all__ = ["convolution", "ConvolutionBackward0", "ConvolutionBackwardBackward0"]


# ---------------------------------------------------------------- the arithmetic, on arrays
def _windows(xp: np.ndarray, kernel, stride, dilation) -> np.ndarray:
    """Every window the filters see: shape (N, C, *out, *kernel), a view of ``xp``."""
    d = len(kernel)
    spatial = tuple(range(2, 2 + d))
    extent = tuple(di * (k - 1) + 1 for k, di in zip(kernel, dilation))
    win = np.lib.stride_tricks.sliding_window_view(xp, extent, axis=spatial)
    picks = (slice(None),) * 2 + tuple(slice(None, None, s) for s in stride) + \
        tuple(slice(None, None, di) for di in dilation)
    return win[picks]


def _letters(d: int):
    """einsum letters for ``d`` output positions and ``d`` kernel positions."""
    return "pqr"[:d], "uvw"[:d]


def _grouped(a: np.ndarray, groups: int, axis: int) -> np.ndarray:
    """``a`` with its ``axis`` split into (groups, size / groups)."""
    shape = a.shape
    return a.reshape(shape[:axis] + (groups, shape[axis] // groups) + shape[axis + 1:])


def conv_forward(x, w, b, stride, padding, dilation, groups) -> np.ndarray:
    """The convolution of arrays: ``x`` (N, C, *S) with ``w`` (O, C/groups, *K), plus ``b``
    (a non-finite filter value over the padding: as PyTorch's kernel, see ``_conv_kernels``)."""
    d = w.ndim - 2
    if any(padding) and x.dtype == np.float32 and not np.isfinite(w).all() and \
            kernels.skips_padding("forward", x.shape, w.shape, None, stride, padding, dilation,
                                  groups):
        out = kernels.forward_valid(x, w, stride, padding, dilation, groups)
        if b is not None:
            out = out + b.reshape((-1,) + (1,) * d)
        return np.ascontiguousarray(out, dtype=x.dtype)
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple((p, p) for p in padding))
    win = _grouped(_windows(xp, w.shape[2:], stride, dilation), groups, 1)
    pos, ker = _letters(d)
    # win: n g c <pos> <ker>;  w: g o c <ker>  ->  n g o <pos>
    out = np.einsum(f"ngc{pos}{ker},goc{ker}->ngo{pos}", win, _grouped(w, groups, 0),
                    optimize=True)
    out = out.reshape((x.shape[0], w.shape[0]) + out.shape[3:])
    # PyTorch's kernels add the products to a sum that starts at +0 (or at the bias): a sum
    # of products that are all -0 is +0 there (einsum keeps a single product's -0)
    out = out + (0.0 if b is None else b.reshape((-1,) + (1,) * d))
    return np.ascontiguousarray(out, dtype=x.dtype)


def conv_grad_weight(g, x, weight_shape, stride, padding, dilation, groups,
                     kind: str = "weight") -> np.ndarray:
    """d(loss)/d(weight): the incoming gradient ``g`` dotted with the windows it came from
    (a non-finite ``g`` next to the padding: as PyTorch's kernel for ``kind``, see
    :func:`._conv_kernels.skips_padding`)."""
    d = len(weight_shape) - 2
    if any(padding) and x.dtype == np.float32 and not np.isfinite(g).all() and \
            kernels.skips_padding(kind, x.shape, weight_shape, g.shape, stride, padding,
                                  dilation, groups):
        gw = kernels.weight_grad_valid(g, x, weight_shape, stride, padding, dilation, groups)
        return np.ascontiguousarray(gw, dtype=g.dtype)
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple((p, p) for p in padding))
    win = _grouped(_windows(xp, weight_shape[2:], stride, dilation), groups, 1)
    pos, ker = _letters(d)
    gw = np.einsum(f"ngo{pos},ngc{pos}{ker}->goc{ker}", _grouped(g, groups, 1), win,
                   optimize=True)
    return np.ascontiguousarray(gw.reshape(weight_shape) + 0.0, dtype=g.dtype)  # (+0 start)


def conv_grad_input(g, w, input_shape, stride, padding, dilation, groups) -> np.ndarray:
    """d(loss)/d(input): each window's share ``g * w`` added back where it was read."""
    d = w.ndim - 2
    pos, ker = _letters(d)
    # n g o <pos>, g o c <ker> -> n g c <pos> <ker>: what each input element of each window gets
    cols = np.einsum(f"ngo{pos},goc{ker}->ngc{pos}{ker}", _grouped(g, groups, 1),
                     _grouped(w, groups, 0), optimize=True)
    cols = cols.reshape((g.shape[0], input_shape[1]) + cols.shape[3:])
    padded = tuple(s + 2 * p for s, p in zip(input_shape[2:], padding))
    gxp = np.zeros(input_shape[:2] + padded, g.dtype)
    out = g.shape[2:]
    for k in itertools.product(*(range(n) for n in w.shape[2:])):
        where = (slice(None),) * 2 + tuple(
            slice(ki * di, ki * di + s * (o - 1) + 1, s)
            for ki, di, s, o in zip(k, dilation, stride, out))
        gxp[where] += cols[(Ellipsis,) + k]
    inner = (slice(None),) * 2 + tuple(slice(p, p + s) for p, s in zip(padding, input_shape[2:]))
    gx = np.ascontiguousarray(gxp[inner])
    if g.dtype == np.float32 and kernels.reads_past_the_width(input_shape, w.shape, stride,
                                                              dilation, groups) \
            and not np.isfinite(w).all():  # PyTorch's kernel multiplies zeros past the ends
        gx[:, kernels.past_the_width(w, input_shape, out, stride, padding, dilation)] = np.nan
    return gx


def conv_grad_bias(g) -> np.ndarray:
    """d(loss)/d(bias): the incoming gradient summed over the batch and every position."""
    return g.sum((0,) + tuple(range(2, g.ndim)))


# ---------------------------------------------------------------- the node
class ConvolutionBackward0(Node):
    """z = conv(input, weight) + bias:  grad_input = the windows' shares ``grad * weight``
    added back where they were read;  grad_weight = grad dotted with the windows;
    grad_bias = grad summed over the batch and positions."""

    rule = _r("z = conv(a, w) + b  (each filter of w slid over a, padded, with stride, dilation "
              "and groups)",
              {"a": "input", "w": "weight", "stride": "stride", "padding": "padding",
               "dilation": "dilation", "groups": "groups"}, words=True,
              a="each window's share grad * w, added back where the window was read (a "
                "transposed convolution of grad with w)",
              w="grad dotted with the windows of a it came from (a convolution of a with grad)",
              b="grad summed over the batch and every position")

    saved = ("bias_sym_sizes_opt", "dilation", "groups", "input", "output_padding", "padding",
             "stride", "transposed", "weight")
    saved_tensors_names = ("input", "weight")

    def backward(self, g):
        x, w = value(self._s_input), value(self._s_weight)
        if isinstance(g, Tensor):  # create_graph: the gradient is an op of its own
            return conv_backward_recorded(g, x, w, self)
        return _grads(g, x._data if isinstance(x, Tensor) else x,
                      w._data if isinstance(w, Tensor) else w, self)


def _needed(node) -> list:
    return [f is not None for f, _ in node.next_functions]


def _grads(g, x, w, node) -> tuple:
    """The three gradients of a convolution, as arrays (None where no one needs one)."""
    need = _needed(node)
    geo = (node._stride, node._pad, node._dilation, node._s_groups)
    return (conv_grad_input(g, w, x.shape, *geo) if need[0] else None,
            conv_grad_weight(g, x, w.shape, *geo) if need[1] else None,
            conv_grad_bias(g) if len(need) > 2 and need[2] else None)


class ConvolutionBackwardBackward0(Node):
    """z = the gradients of a convolution as an op of (grad_output, input, weight): it is
    linear in each, so each of its inputs gets a convolution-shaped gradient back:
    grad_grad_output = conv(gg_input, weight) + conv(input, gg_weight) + gg_bias;
    grad_input = conv_grad_input(grad_output, gg_weight);
    grad_weight = conv_grad_weight(gg_input, grad_output)."""

    rule = _r("z = (grad_a, grad_w, grad_b) of conv, computed from (g, a, w)  (the gradient of "
              "conv's backward as an op; linear in g)",
              {"g": "grad_output", "a": "input", "w": "weight"}, words=True,
              g="conv(gg_a, w) + conv(a, gg_w) + gg_b", a="conv's grad_a of (g, gg_w)",
              w="conv's grad_w of (gg_a, g)")

    saved = ("dilation", "grad_output", "groups", "input", "output_padding", "padding",
             "stride", "transposed", "weight")
    saved_tensors_names = ("grad_output", "input", "weight")

    def backward(self, grads):
        if any(isinstance(gg, Tensor) for gg in grads):  # a third order: recorded
            return _double_backward_recorded(self, (list(grads) + [None] * 3)[:3])
        gg_i, gg_w, gg_b = (None if gg is None else (gg._data if isinstance(gg, Tensor) else gg)
                            for gg in (list(grads) + [None] * 3)[:3])
        g, x, w = (value(s) for s in (self._s_grad_output, self._s_input, self._s_weight))
        g, x, w = (t._data if isinstance(t, Tensor) else t for t in (g, x, w))
        geo = (self._stride, self._pad, self._dilation, self._s_groups)
        need = _needed(self)
        dg = None
        if need[0]:
            dg = np.zeros(g.shape, g.dtype)
            if gg_i is not None:
                dg = dg + conv_forward(gg_i, w, None, *geo)
            if gg_w is not None:
                dg = dg + conv_forward(x, gg_w, None, *geo)
            if gg_b is not None:
                dg = dg + gg_b.reshape((-1,) + (1,) * (g.ndim - 2))
        dx = conv_grad_input(g, gg_w, x.shape, *geo) if need[1] and gg_w is not None else None
        dw = conv_grad_weight(g, gg_i, w.shape, *geo, kind="weight2") \
            if need[2] and gg_i is not None else None
        return dg, dx, dw


def _double_backward_recorded(node: ConvolutionBackwardBackward0, gg: list) -> tuple:
    """ConvolutionBackwardBackward0's gradients under create_graph, as convolutions recorded
    (PyTorch's _convolution_double_backward is made of differentiable ops too): a third order
    then reaches grad_output, input and weight."""
    from ..autograd import grad

    gg_i, gg_w, gg_b = (None if t is None else t if isinstance(t, Tensor) else Tensor._wrap(t)
                        for t in gg)
    g, x, w = (t if isinstance(t, Tensor) else Tensor._wrap(t) for t in (
        value(s) for s in (node._s_grad_output, node._s_input, node._s_weight)))
    geo = (node._stride, node._pad, node._dilation, node._s_groups)
    need = _needed(node)
    dg = dx = dw = None
    with enable_grad():
        if need[0]:
            terms = [convolution(a, b, None, *geo) for a, b in ((gg_i, w), (x, gg_w))
                     if a is not None and b is not None]
            if gg_b is not None:
                terms.append(gg_b.reshape((-1,) + (1,) * (g.dim() - 2)))
            dg = sum(terms[1:], terms[0]) if terms else Tensor._wrap(np.zeros(g.shape, g.dtype.np))
        if need[1] and gg_w is not None:  # conv's grad_input of (g, gg_w)
            at = Tensor._wrap(np.zeros(x.shape, x.dtype.np)).requires_grad_()
            (dx,) = grad(convolution(at, gg_w, None, *geo), at, g, create_graph=True)
        if need[2] and gg_i is not None:  # conv's grad_weight of (gg_i, g)
            at = Tensor._wrap(np.zeros(w.shape, w.dtype.np)).requires_grad_()
            (dw,) = grad(convolution(gg_i, at, None, *geo), at, g, create_graph=True)
    return dg, dx, dw


def conv_backward_recorded(g: Tensor, x, w, first: ConvolutionBackward0) -> tuple:
    """The gradients of a convolution under ``create_graph=True``: one node of three outputs
    (``ConvolutionBackwardBackward0``), as PyTorch records them."""
    xd = x._data if isinstance(x, Tensor) else x
    wd = w._data if isinstance(w, Tensor) else w
    arrays = _grads(g._data, xd, wd, first)
    outs = tuple(None if a is None else Tensor._wrap(a) for a in arrays)
    xt = x if isinstance(x, Tensor) else Tensor._wrap(xd)
    wt = w if isinstance(w, Tensor) else Tensor._wrap(wd)
    if should_record(g, xt, wt):
        node = ConvolutionBackwardBackward0()
        for name in ("dilation", "groups", "output_padding", "padding", "stride", "transposed"):
            setattr(node, "_s_" + name, getattr(first, "_s_" + name))
        node._stride, node._pad, node._dilation = first._stride, first._pad, first._dilation
        node._s_grad_output = SavedTensor(g)
        node._s_input, node._s_weight = SavedTensor(xt), SavedTensor(wt)
        record(node, outs, g, xt, wt)
    return outs


# ---------------------------------------------------------------- the op
def convolution(input: Tensor, weight: Tensor, bias, stride: tuple, padding: tuple,
                dilation: tuple, groups: int, saved_padding: tuple | None = None) -> Tensor:
    """``input`` (N, C, *S) convolved with ``weight``; arguments already checked and made
    tuples of one entry per spatial dimension. ``saved_padding``: what PyTorch shows as
    ``_saved_padding`` where it differs (``padding='valid'`` saves ``(0,)``)."""
    token = quiet()
    try:
        data = conv_forward(input._data, weight._data, None if bias is None else bias._data,
                            stride, padding, dilation, groups)
    finally:
        restore(token)
    out = Tensor._wrap(data)
    if not should_record(input, weight, bias):
        return out
    node = ConvolutionBackward0()
    d = len(stride)
    node._stride, node._pad, node._dilation = stride, padding, dilation
    node._s_stride, node._s_dilation, node._s_groups = stride, dilation, groups
    node._s_padding = padding if saved_padding is None else saved_padding
    node._s_transposed = False
    node._s_output_padding = (0,) if saved_padding == (0,) else (0,) * d  # ('valid': PyTorch's)
    node._s_bias_sym_sizes_opt = (0,) if bias is None else tuple(bias._data.shape)
    node._s_input, node._s_weight = SavedTensor(input), SavedTensor(weight)
    return record(node, out, input, weight, bias)


# ---------------------------------------------------------------- F.conv1d / conv2d / conv3d
def _expanded(name: str, v, d: int) -> tuple:
    """``stride`` (etc.) as one int per spatial dimension, with PyTorch's error otherwise."""
    v = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if len(v) == 1:
        v = v * d
    if len(v) != d:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {d} "
                           f"values to match the convolution dimensions, but got "
                           f"{name}={list(v)}")
    return tuple(int(i) for i in v)


def _per_dim(v, d: int):
    return v if isinstance(v, (tuple, list)) else (v,) * d


def conv(d: int, input: Tensor, weight: Tensor, bias, stride, padding, dilation,
         groups: int) -> Tensor:
    """``F.conv{d}d``: checks, an unbatched input batched (``UnsqueezeBackward0``, then
    ``SqueezeBackward1``), ``padding='same'``/``'valid'``, then :func:`convolution`."""
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor):
        raise _invalid_arguments(d, input, weight)
    if bias is not None and not isinstance(padding, str):  # (PyTorch's first check)
        _check_bias_type(input._data, bias._data)
    if input.dim() not in (d + 1, d + 2):
        raise RuntimeError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to "
                           f"conv{d}d, but got input of size: {list(input.shape)}")
    unbatched = input.dim() == d + 1
    if unbatched:
        input = input.unsqueeze(0)
    k = max(weight.dim() - 2, 0)
    saved_padding, string = None, isinstance(padding, str)
    if string:
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        input, padding, saved_padding = _string_padding(padding, input, weight, stride,
                                                        dilation, k)
    # (F.conv{d}d takes d numbers each, as PyTorch's parser does; the weight then says how
    # many the convolution needs)
    stride, padding, dilation = (_expanded(name, _per_dim(v, d), k) for name, v in (
        ("stride", stride), ("padding", padding), ("dilation", dilation)))
    x, w = input._data, weight._data
    b = None if bias is None else bias._data
    if should_record(input, weight, bias) and (input.is_inference() or weight.is_inference()):
        raise RuntimeError(INFERENCE_MESSAGE)  # (autograd saves both before the kernel checks)
    _check_shapes(x, w, b, stride, padding, dilation, groups)
    _check_dtypes(x, w, b, stride, dilation, groups)
    out = convolution(input, weight, bias, stride, padding, dilation, groups, saved_padding)
    return out.squeeze(0) if unbatched else out


def _string_padding(padding: str, input: Tensor, weight: Tensor, stride, dilation, k: int):
    """``'valid'``: no padding (PyTorch then saves ``(0,)``). ``'same'``: the output as large
    as the input (stride 1 only); an odd total is padded one more at the end, by ``F.pad``
    first (``ConstantPadNdBackward0``), as PyTorch does."""
    if padding == "valid":
        return input, 0, (0,)
    if any(s != 1 for s in _expanded("stride", stride, k)):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dilation = _expanded("dilation", dilation, k)
    totals = [di * (n - 1) for di, n in zip(dilation, weight.shape[2:])]
    left = tuple(t // 2 for t in totals)
    if any(t % 2 for t in totals):
        from ._padding import pad

        warn_once("conv_same", "Using padding='same' with even kernel lengths and odd "  # (once
                  "dilation may require a zero-padded copy of the input be created (Triggered "
                  "internally at /__w/pytorch/pytorch/aten/src/ATen/native/"  # per process,
                  "Convolution.cpp:1101.)", 3)  # as PyTorch's TORCH_WARN_ONCE)
        extra = []
        for t in reversed(totals):  # F.pad lists the last dimension first
            extra += [0, t % 2]
        input = pad(input, tuple(extra))
    return input, left, None
