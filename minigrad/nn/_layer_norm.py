"""Layer normalisation (``F.layer_norm``, ``nn.LayerNorm``) as PyTorch's CPU kernels compute
it: the moments by ``RowwiseMoments``, the output's multiply-adds, the backward by the kernel's
formula, and the second order as one ``NativeLayerNormBackwardBackward0`` node. Imported into
``nn.functional`` through ``_norms_embeddings_losses``.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> F.layer_norm(torch.tensor([[1., 2., 3.]], requires_grad=True), (3,))
tensor([[-1.2247,  0.0000,  1.2247]], grad_fn=<NativeLayerNormBackward0>)
"""

from __future__ import annotations

import numpy as np

from .._moments import fma, rowwise_moments
from .._ops.errors import not_implemented
from .._quiet import nan_of_nothing, quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import enable_grad
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved
from . import _bce_huber_losses as _more

__all__ = ["layer_norm"]


class NativeLayerNormBackward0(Node):
    """z = xhat * weight + bias, xhat = (x - mean) * rstd over the normalised (last) dims:
    dx = rstd (gw - mean(gw) - xhat mean(gw xhat)) with gw = g weight;
    dweight = the sum of g xhat over the other dims;  dbias = the sum of g."""

    rule = _r("z = xhat * w + b,  xhat = (a - mean) * rstd  (mean and rstd = 1 / sqrt(var + eps) "
              "over the normalised last dims)",
              {"a": "input",
               "w": "weight",
               "b": "bias",
               "mean": "result1",
               "rstd": "result2",
               "shape": "normalized_shape"},
              np={"a": "ln_grad_input(grad, a, w, mean, rstd, shape)",
                  "w": "ln_grad_weight(grad, a, mean, rstd, shape)",
                  "b": "ln_grad_bias(grad, shape)"},
              a="rstd * (gw - mean(gw) - xhat * mean(gw * xhat)),  gw = grad * w  (means over "
                "the normalised dims)", w="sum of grad * xhat over the other dims",
              b="sum of grad over the other dims")

    saved = ("bias", "input", "normalized_shape", "result1", "result2", "weight")
    saved_tensors_names = ("bias", "input", "result1", "result2", "weight")

    def backward(self, g):
        check_saved(self)  # (bias first: PyTorch's order)
        x, w = _more._value(self._s_input), _more._value(self._s_weight)
        need = [f is not None for f, _ in self.next_functions]
        if isinstance(g, Tensor):  # create_graph: the gradients are an op of their own
            return _layer_norm_recorded(self, g, x, w, need)
        mean, rstd = _more._value(self._s_result1)._data, _more._value(self._s_result2)._data
        if x._data.shape != g.shape:  # the input's `.data =` swapped since (PyTorch's kernel
            # then reads its buffers past their end: no defined value): what broadcasts
            g, mean, rstd = (np.broadcast_to(a, x._data.shape) for a in (g, mean, rstd))
        return _layer_norm_grads(g, x._data, mean, rstd, None if w is None else w._data,
                                 len(self._s_normalized_shape), need)

    def grads(self, g: Tensor, x: Tensor, w, need) -> tuple:
        """(grad_input, grad_weight, grad_bias) as tensor ops on ``g``, ``x`` and ``w``, mean
        and rstd computed again from ``x`` (so differentiated too): the second order's
        formulas (NativeLayerNormBackwardBackward0)."""
        dims = tuple(range(-len(self._s_normalized_shape), 0))
        batch = tuple(range(x.dim() - len(dims)))
        mean = x.mean(dims, keepdim=True)
        rstd = ((x - mean) * (x - mean)).mean(dims, keepdim=True).add(self._eps).rsqrt()
        xhat = (x - mean) * rstd
        gw = g if w is None else g * w
        n = int(np.prod(self._s_normalized_shape))
        dx = rstd * (gw - gw.sum(dims, keepdim=True) / n
                     - xhat * (gw * xhat).sum(dims, keepdim=True) / n)
        dw = ((g * xhat).sum(batch) if batch else g * xhat) if need[1] else None
        db = (g.sum(batch) if batch else g) if need[2] else None
        return dx if need[0] else None, dw, db


class NativeLayerNormBackwardBackward0(Node):
    """z = (grad_input, grad_weight, grad_bias) of layer norm, as an op of (grad_out, input,
    mean, rstd, weight, bias):  grad_out, input and weight get the gradient of these three
    with respect to them, found by minigrad's own autograd from NativeLayerNormBackward0's
    formulas (mean and rstd computed again from the input); mean, rstd and bias get none."""

    rule = _r("z = (grad_a, grad_w, grad_b) of layer norm, computed from (g, a, w)  (its "
              "gradient as an op)", {"g": "grad_out", "a": "input", "w": "weight"}, words=True,
              g="the three gradients' own gradient with respect to g",
              a="... with respect to a (mean and rstd depend on a too)", mean="None",
              rstd="None", w="... with respect to w", bias="None")

    saved = ("grad_out", "input", "mean", "normalized_shape", "rstd", "weight")
    saved_tensors_names = ("grad_out", "input", "mean", "rstd", "weight")

    def backward(self, grads):
        from ..autograd import grad

        gg = list(grads) + [None] * (3 - len(grads))
        third = any(isinstance(t, Tensor) for t in gg)  # a third order: all recorded
        g, x, w = (_more._value(s) for s in (self._s_grad_out, self._s_input, self._s_weight))
        with enable_grad():
            if not third:
                g, x = (Tensor._wrap(t._data).requires_grad_() for t in (g, x))
                w = None if w is None else Tensor._wrap(w._data).requires_grad_()
            outs = self._first.grads(g, x, w, self._need)
            pairs = [(o, t if isinstance(t, Tensor) else Tensor._wrap(t))
                     for o, t in zip(outs, gg)
                     if o is not None and o.requires_grad and t is not None]
            wrt = [i for i, t in enumerate((g, x, w)) if t is not None and t.requires_grad]
            found = grad([o for o, _ in pairs], [(g, x, w)[i] for i in wrt],
                         [t for _, t in pairs], allow_unused=True,
                         create_graph=third) if pairs and wrt else [None] * len(wrt)
        got = [None] * 3
        for i, a in zip(wrt, found):
            got[i] = a
        edges = self.next_functions
        out = [None if a is None and f is None else
               (a if a is not None else Tensor._wrap(np.zeros(t._data.shape, t._data.dtype)))
               for a, t, (f, _) in zip(got, (g, x, w if w is not None else g),
                                       (edges[0], edges[1], edges[4]))]
        if not third:
            out = [None if a is None else a._data for a in out]
        return out[0], out[1], None, None, out[2], None


def _layer_norm_recorded(first: NativeLayerNormBackward0, g: Tensor, x: Tensor, w,
                         need) -> tuple:
    """The three gradients under create_graph: one NativeLayerNormBackwardBackward0 node of
    three outputs, edges (grad_out, input, mean, rstd, weight, bias), as PyTorch's."""
    b = _more._value(first._s_bias)
    mean, rstd = _more._value(first._s_result1), _more._value(first._s_result2)
    arrays = _layer_norm_grads(g._data, x._data, mean._data, rstd._data,
                               None if w is None else w._data,
                               len(first._s_normalized_shape), need)  # (the kernel's values)
    outs = tuple(None if a is None else Tensor._wrap(a) for a in arrays)
    if should_record(g, x, w, b):
        node = NativeLayerNormBackwardBackward0()
        node._first, node._need = first, need
        node._s_normalized_shape = first._s_normalized_shape
        node._s_grad_out, node._s_input = SavedTensor(g), SavedTensor(x)
        node._s_weight = None if w is None else SavedTensor(w)
        node._s_mean, node._s_rstd = SavedTensor(mean), SavedTensor(rstd)
        record(node, outs, g, x, mean, rstd, w, b)
    return outs


def _layer_norm_grads(g, x, mean, rstd, w, k: int, need) -> tuple:
    """The gradients by PyTorch's layer-norm backward kernel's formula, in the input's dtype:
    with ``ds = sum(g w x)``, ``db = sum(g w)`` over each row, ``dx = rstd g w + b x + c``,
    ``b = (db mean - ds) rstd^3 / n``, ``c = -b mean - db rstd / n``; ``dw = sum(g (rstd x -
    rstd mean))`` over the rows (so a constant row gives PyTorch's rounding noise, not 0);
    float16 in float32 (the kernel's opmath), then rounded."""
    if x.dtype == np.float16:
        wide = [None if a is None else a.astype(np.float32) for a in (g, x, mean, rstd, w)]
        return tuple(None if d is None else d.astype(np.float16)
                     for d in _layer_norm_grads(*wide, k, need))
    t = x.dtype.type
    n = int(np.prod(x.shape[x.ndim - k:]))
    rows = x.shape[:x.ndim - k]
    token = quiet()
    try:
        gw = g if w is None else g * w
        axes = tuple(range(x.ndim - k, x.ndim))
        ds = np.sum(gw * x, axis=axes, keepdims=True, dtype=x.dtype)
        db = np.sum(gw, axis=axes, keepdims=True, dtype=x.dtype)
        scale = t(1) / t(n)
        b = (db * mean - ds) * rstd * rstd * rstd * scale
        c = -b * mean - db * rstd * scale
        dx = (rstd * gw + b * x + c).astype(x.dtype) if need[0] else None
        batch = tuple(range(len(rows)))
        dw = np.sum(g * fma(np.broadcast_to(rstd, x.shape), x,
                            np.broadcast_to(-rstd * mean, x.shape)), axis=batch,
                    dtype=x.dtype) if need[1] else None
        db_ = np.sum(g, axis=batch, dtype=x.dtype) if need[2] else None
    finally:
        restore(token)
    return tuple(None if d is None else np.ascontiguousarray(d) for d in (dx, dw, db_))


def _layer_moments(x: np.ndarray, n: int, k: int, eps: float):
    """Each row's mean and ``1 / sqrt(var + eps)`` as PyTorch's layer-norm kernel computes
    them: ``RowwiseMoments`` and the root in the input's dtype (eps cast to it)."""
    m = x.size // n if n else int(np.prod(x.shape[:x.ndim - k]))
    if not n or not m:  # (nothing to normalise: mean 0, rstd 0 / 0, as PyTorch's kernel)
        return np.zeros(m, x.dtype), nan_of_nothing(m, x.dtype)
    rows = np.ascontiguousarray(x).reshape(m, n)
    mean, var = rowwise_moments(rows)  # (float16: in float32, the kernel's opmath)
    t = mean.dtype.type
    token = quiet()
    try:
        return mean, (t(1) / np.sqrt(var + t(eps))).astype(mean.dtype)
    finally:
        restore(token)


def _layer_output(x, mean, rstd, weight, bias) -> np.ndarray:
    """``(x - mean) * rstd * weight + bias`` with the kernel's roundings: the last multiply and
    the add as one multiply-add (``rstd * (x - mean) + bias`` without a weight); ``+ 0``
    without a bias (so no -0)."""
    token = quiet()
    try:
        if x.dtype != mean.dtype:
            return _half_output(x, mean, rstd, weight, bias)
        centred = x - mean
        if weight is None and bias is None:
            return centred * rstd + 0
        if weight is None:
            return fma(centred, np.broadcast_to(rstd, x.shape), np.broadcast_to(bias._data,
                                                                                x.shape))
        scaled = centred * rstd
        if bias is None:
            return scaled * weight._data + 0
        return fma(scaled, np.broadcast_to(weight._data, x.shape),
                   np.broadcast_to(bias._data, x.shape))
    finally:
        restore(token)


def _half_output(x, mean, rstd, weight, bias) -> np.ndarray:
    """float16: the mixed kernel's float32 steps ``(x * rstd + -rstd * mean) * w + b``, each
    line one fused multiply-add (as this build compiles it), then rounded to float16."""
    f = mean.dtype
    xf = x.astype(f)
    y = fma(xf, np.broadcast_to(rstd, x.shape), np.broadcast_to(-rstd * mean, x.shape))
    w = np.ones(1, f) if weight is None else weight._data.astype(f)
    b = np.zeros(1, f) if bias is None else bias._data.astype(f)
    return fma(y, np.broadcast_to(w, x.shape), np.broadcast_to(b, x.shape))


def layer_norm(input: Tensor, normalized_shape, weight=None, bias=None,
               eps: float = 1e-5) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dimensions, then scale and shift:
    one ``NativeLayerNormBackward0`` node, as in PyTorch (it saves the mean and 1/std)."""
    shape = tuple(normalized_shape) if not isinstance(normalized_shape, int) \
        else (normalized_shape,)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    if tuple(input.shape[len(input.shape) - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size"
                           f"{list(input.shape)}")
    if not input.dtype.is_floating_point:
        raise not_implemented("LayerNormKernelImpl", input.dtype)
    x = input._data
    mean, rstd = _layer_moments(x, int(np.prod(shape)), len(shape), eps)
    mean, rstd = (a.reshape(x.shape[:x.ndim - len(shape)] + (1,) * len(shape))
                  for a in (mean, rstd))
    d = _layer_output(x, mean, rstd, weight, bias)
    out = Tensor._wrap(np.ascontiguousarray(d, x.dtype))  # (contiguous, as PyTorch's)
    if not should_record(input, weight, bias):
        return out
    node = NativeLayerNormBackward0()
    node._s_normalized_shape, node._eps = shape, eps
    node._s_input = SavedTensor(input)
    node._s_weight = None if weight is None else SavedTensor(weight)
    node._s_bias = None if bias is None else SavedTensor(bias)
    node._s_result1 = SavedTensor(Tensor._wrap(mean.astype(x.dtype, copy=False)))
    node._s_result2 = SavedTensor(Tensor._wrap(rstd.astype(x.dtype, copy=False)))
    return record(node, out, input, weight, bias)
