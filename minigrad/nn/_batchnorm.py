"""Batch normalisation (``F.batch_norm``, behind ``nn.BatchNorm1d``/``2d``): one node,
``NativeBatchNormBackward0``, as in PyTorch.

While training, each channel (dimension 1) is normalised by the mean and variance of the batch
(over every dimension but 1), and the running averages move towards them; in eval mode by the
running averages. Then scaled by ``weight`` and shifted by ``bias``, per channel.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> x = torch.tensor([[1., 2.], [3., 6.]], requires_grad=True)
>>> y = F.batch_norm(x, None, None, training=True)
>>> y.grad_fn.name(), y.grad_fn._saved_result1
('NativeBatchNormBackward0', tensor([2., 4.]))
"""

from __future__ import annotations

import numpy as np

from .. import _summation
from .._moments import fma
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import enable_grad, no_grad
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved
from ._batchnorm_grads import as_rows, channels_last, from_rows, kernel_grads
from ._kernel_dtypes import refuse

__all__ = ["batch_norm", "NativeBatchNormBackward0", "NativeBatchNormBackwardBackward0"]


def _value(saved):
    """A saved tensor as a Tensor (None stays None)."""
    if saved is None:
        return None
    v = saved.get()
    return v if isinstance(v, Tensor) else Tensor._wrap(v)


class NativeBatchNormBackward0(Node):
    """z = xhat * w + b,  xhat = (a - mean) * invstd per channel (training: the batch's mean
    and invstd = 1 / sqrt(var + eps), saved as result1 and result2; eval: the running ones):
    training: grad_a = invstd * (gw - mean(gw) - xhat * mean(gw * xhat)),  gw = grad * w;
    eval: grad_a = grad * w * invstd;  grad_w = sum of grad * xhat;  grad_b = sum of grad
    (means and sums over every dimension but the channels)."""

    rule = _r("z = xhat * w + b,  xhat = (a - mean) * invstd per channel  (training: the batch's "
              "mean and invstd = 1 / sqrt(var + eps); eval: the running ones)",
              {"a": "input", "w": "weight", "mean": "result1", "invstd": "result2", "eps": "eps",
               "training": "training"}, words=True,
              a="training: invstd * (gw - mean(gw) - xhat * mean(gw * xhat)), gw = grad * w; "
                "eval: grad * w * invstd  (means over every dimension but the channels)",
              w="sum of grad * xhat over every dimension but the channels",
              b="sum of grad over every dimension but the channels")

    saved = ("eps", "input", "result1", "result2", "running_mean", "running_var", "training",
             "weight")
    saved_tensors_names = ("input", "result1", "result2", "running_mean", "running_var",
                           "weight")

    def backward(self, g):
        check_saved(self)
        x, w = _value(self._s_input), _value(self._s_weight)
        need = [f is not None for f, _ in self.next_functions]
        if isinstance(g, Tensor):  # create_graph: the gradients are an op of their own
            return _recorded(self, g, x, w, need)
        return self.arrays(g, x, w, need)

    def arrays(self, g: np.ndarray, x: Tensor, w, need) -> tuple:
        """The three gradients as arrays: float32 and float64 as PyTorch's kernels compute
        them (``_batchnorm_grads``), float16 by the formulas of ``grads``."""
        a = x._data
        stat = _value(self._s_result1)._data.dtype  # (float32 for float16 input: its dtypes)
        if a.dtype in (np.float32, np.float64) and stat == a.dtype:
            if self._s_training:
                mean, invstd = _value(self._s_result1)._data, _value(self._s_result2)._data
            else:
                mean = _value(self._s_running_mean)._data
                var = _value(self._s_running_var)._data.astype(np.float64)
                invstd = (1 / np.sqrt(var + self._s_eps)).astype(a.dtype)
            return kernel_grads(g, a, None if w is None else w._data, mean, invstd,
                                self._s_training, need)
        with no_grad():
            grads = self.grads(Tensor._wrap(g), x, w, need, recompute=False)
        return tuple(None if d is None else d._data.astype(t, copy=False)
                     for d, t in zip(grads, (a.dtype, stat, stat)))

    def grads(self, g: Tensor, x: Tensor, w, need, recompute: bool) -> tuple:
        """(grad_input, grad_weight, grad_bias) as tensor ops on ``g``, ``x`` and ``w``; with
        ``recompute`` the batch's mean and 1/std are computed again from ``x`` (so that they
        are differentiated too), else the saved ones are used."""
        dims = (0,) + tuple(range(2, x.dim()))
        shape = (1, -1) + (1,) * (x.dim() - 2)
        if not self._s_training:
            mean = _value(self._s_running_mean).reshape(shape)
            invstd = (_value(self._s_running_var).reshape(shape) + self._s_eps).rsqrt()
        elif recompute:
            mean = x.mean(dims, keepdim=True)
            invstd = (((x - mean) * (x - mean)).mean(dims, keepdim=True) + self._s_eps).rsqrt()
        else:
            mean = _value(self._s_result1).reshape(shape)
            invstd = _value(self._s_result2).reshape(shape)
        xhat = (x - mean) * invstd
        gw = g if w is None else g * w.reshape(shape)
        if self._s_training:
            n = x.numel() // x.shape[1]
            dx = invstd * (gw - gw.sum(dims, keepdim=True) / n
                           - xhat * (gw * xhat).sum(dims, keepdim=True) / n)
        else:
            dx = gw * invstd
        return (dx if need[0] else None, (g * xhat).sum(dims) if need[1] else None,
                g.sum(dims) if need[2] else None)


class NativeBatchNormBackwardBackward0(Node):
    """z = (grad_input, grad_weight, grad_bias) of batch norm, as an op of (grad_out, input,
    weight):  each input gets the gradient of these three with respect to it, found by
    minigrad's own autograd from the formulas of NativeBatchNormBackward0."""

    rule = _r("z = (grad_a, grad_w, grad_b) of batch norm, computed from (g, a, w)  (its "
              "gradient as an op)", {"g": "grad_out", "a": "input", "w": "weight"}, words=True,
              g="the three gradients' own gradient with respect to g",
              a="... with respect to a (the batch's mean and invstd depend on a too)",
              w="... with respect to w", save_mean="None", save_invstd="None")

    saved = ("eps", "grad_out", "input", "running_mean", "running_var", "save_invstd",
             "save_mean", "train", "weight")
    saved_tensors_names = ("grad_out", "input", "running_mean", "running_var", "save_invstd",
                           "save_mean", "weight")

    def backward(self, grads):
        from ..autograd import grad

        first = self._first
        gg = list(grads) + [None] * (3 - len(grads))
        third = any(isinstance(t, Tensor) for t in gg)  # a third order: all recorded
        g, x, w = (_value(s) for s in (self._s_grad_out, self._s_input, self._s_weight))
        with enable_grad():
            if not third:
                g, x = (Tensor._wrap(t._data).requires_grad_() for t in (g, x))
                w = None if w is None else Tensor._wrap(w._data).requires_grad_()
            outs = first.grads(g, x, w, self._need, recompute=True)
            pairs = [(o, t if isinstance(t, Tensor) else Tensor._wrap(t))
                     for o, t in zip(outs, gg) if o is not None and t is not None]
            wrt = [t for t in (g, x, w) if t is not None]
            got = grad([o for o, _ in pairs], wrt, [t for _, t in pairs], allow_unused=True,
                       create_graph=third) if pairs else [None] * len(wrt)
        got = list(got) + ([None] if w is None else [])
        out = [None if a is None and f is None else
               (a if a is not None else Tensor._wrap(np.zeros(t._data.shape, t._data.dtype)))
               for a, t, (f, _) in zip(got, (g, x, w if w is not None else g),
                                       self.next_functions[:3])]
        if not third:
            out = [None if a is None else a._data for a in out]
        return tuple(out) + (None, None)


def _recorded(first: NativeBatchNormBackward0, g: Tensor, x: Tensor, w, need) -> tuple:
    """The three gradients under create_graph: one NativeBatchNormBackwardBackward0 node of
    three outputs, edges (grad_out, input, weight, save_mean, save_invstd), as PyTorch's."""
    arrays = first.arrays(g._data, x, w, need)
    outs = tuple(None if a is None else Tensor._wrap(a) for a in arrays)
    if should_record(g, x, w):
        node = NativeBatchNormBackwardBackward0()
        node._first, node._need = first, need
        node._s_eps, node._s_train = first._s_eps, first._s_training
        node._s_grad_out, node._s_input = SavedTensor(g), SavedTensor(x)
        node._s_weight = None if w is None else SavedTensor(w)
        for mine, theirs in (("running_mean", "running_mean"), ("running_var", "running_var"),
                             ("save_mean", "result1"), ("save_invstd", "result2")):
            kept = _value(getattr(first, "_s_" + theirs))  # (its own: freed on its own)
            setattr(node, "_s_" + mine, None if kept is None else SavedTensor(kept))
        record(node, outs, g, x, w, None, None)
    return outs


def _update(running: Tensor, stat: np.ndarray, momentum: float) -> None:
    """``running = (1 - momentum) * running + momentum * stat``, in place (as in PyTorch, the
    kernel's own write: no new version)."""
    running._data[...] = (1 - momentum) * running._data + momentum * stat


def _channel_stats(x: np.ndarray):
    """Each channel's mean and sum of squared deviations as PyTorch's kernel for a contiguous
    input computes them: added one after the other in float64 (samples, then positions), the
    mean rounded to x's dtype, each ``(x - mean) ** 2`` in x's dtype (so a constant channel
    has exactly its value as mean and 0 as variance)."""
    if x.size == x.shape[0] * x.shape[1]:  # (N, C): "channels last", by threads
        return _channels_last_stats(x.reshape(x.shape[0], x.shape[1]))
    n = x.size // x.shape[1]
    dims = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if x.dtype == np.float64:  # (in the kernel's order: float64 shows the order)
        def total(a):
            return np.cumsum(np.moveaxis(a, 1, 0).reshape(a.shape[1], -1), axis=1)[:, -1]
    else:  # (float32 added in float64: any order rounds to the same float32, faster)
        def total(a):
            return np.sum(a, axis=dims, dtype=np.float64)
    token = quiet()
    try:
        mean = (total(x) / n).astype(x.dtype)
        d = x - mean.reshape(shape)
        if x.dtype == np.float64 and (x.size // x.shape[0] // x.shape[1]) % 2:
            return mean, _odd_planes(d.reshape(x.shape[0], x.shape[1], -1))
        return mean, total(d * d).astype(x.dtype)
    finally:
        restore(token)


def _odd_planes(d: np.ndarray) -> np.ndarray:
    """The float64 kernel's ``var_sum += d * d`` over (N, C, plane) deviations of planes of
    odd size as this PyTorch build runs it (measured bit for bit): two elements at a time
    (products rounded, then added in order), each plane's last element with a multiply-add."""
    acc = np.zeros(d.shape[1])
    for plane in d:
        acc = np.cumsum(np.concatenate([acc[:, None], plane[:, :-1] ** 2], axis=1),
                        axis=1)[:, -1]
        acc = fma(plane[:, -1], plane[:, -1], acc)
    return acc


def _generic_stats(x: np.ndarray, running_mean, running_var, momentum: float, eps: float):
    """PyTorch's statistics of an input of any other layout (Normalization.cpp): the mean
    by ``torch.mean``, the squared deviations from it in float64 one after the other in
    memory order, 1/std and the running averages in float64 (updated in place)."""
    c = x.shape[1]
    n = x.size // c
    dims = (0,) + tuple(range(2, x.ndim))
    mean = (_summation.reduce_sum(x, dims) / x.dtype.type(n)).astype(x.dtype)
    order = sorted(dims, key=lambda a: -x.strides[a])  # (outermost first)
    d = np.transpose(x, [1] + order).reshape(c, -1) - mean.astype(np.float64)[:, None]
    var_sum = np.cumsum(d * d, axis=1)[:, -1] if x.dtype == np.float64 else \
        np.sum(d * d, axis=1)  # (float32 added in float64: any order rounds the same)
    if running_mean is not None:
        r = running_mean._data
        r[...] = momentum * mean.astype(np.float64) + (1 - momentum) * r.astype(np.float64)
    if running_var is not None:
        r = running_var._data
        r[...] = momentum * (var_sum / (n - 1)) + (1 - momentum) * r.astype(np.float64)
    return mean, (1 / np.sqrt(var_sum / n + eps)).astype(x.dtype)


def _channels_last_stats(x: np.ndarray):
    """PyTorch's statistics of an (N, C) input: each thread adds its share of the rows up in
    x's dtype (the squares with a multiply-add), the threads' sums are added in float64."""
    threads = _summation.get_num_threads()
    used = min(threads, x.shape[0])
    step = -(-x.shape[0] // used)
    token = quiet()
    try:
        parts = [np.cumsum(x[k:k + step], axis=0, dtype=x.dtype)[-1]
                 for k in range(0, x.shape[0], step)]
        mean = (np.sum(parts, axis=0, dtype=np.float64) / x.shape[0]).astype(x.dtype)
        squares = []
        for k in range(0, x.shape[0], step):
            acc = np.zeros(x.shape[1], x.dtype)
            for row in x[k:k + step]:
                d = row - mean
                acc = fma(d, d, acc)
            squares.append(acc)
        return mean, np.sum(squares, axis=0, dtype=np.float64).astype(x.dtype)
    finally:
        restore(token)


def _check(input, training, eps) -> None:
    """PyTorch's first checks of ``F.batch_norm``: the batch size while training, ``eps``."""
    shape = input.shape
    if training and int(np.prod((shape[0],) + tuple(shape[2:]))) == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input "
                         f"size {shape}")
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")


def _check_arguments(input, running_mean, running_var, weight, bias) -> np.dtype:
    """The parameters' sizes, the input's dtype, the parameters' dtypes (not for an empty
    input); the dtype of the statistics. As PyTorch's kernel: parameters of another dtype
    than the input's (the first one given says) must all be float32, for a float16 input."""
    c = input.size(1)
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
    x = input._data
    refuse("batch_norm", x)
    params = [t for t in (weight, bias, running_mean, running_var) if t is not None]
    if params and params[0]._data.dtype != x.dtype:
        if any(t._data.dtype != np.float32 for t in params):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if x.dtype != np.float16:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return np.dtype(np.float32)
    for t in params:
        if t._data.dtype != x.dtype:
            raise RuntimeError(f"expected scalar type {input.dtype._cpp} but found "
                               f"{t.dtype._cpp}")
    return x.dtype


def batch_norm(input: Tensor, running_mean, running_var, weight=None, bias=None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel (dimension 1) by batch statistics while ``training`` (updating
    the running averages, if given), or by the running averages; then ``* weight + bias``."""
    x = input._data
    _check(input, training, eps)
    if x.size == 0:  # PyTorch's shortcut for an empty input (its nodes, no statistics)
        out = input.clone()
        out = out if weight is None else out * weight.select(0, 0)  # (C++ weight[0])
        return out if bias is None else out + bias.select(0, 0)
    stat = _check_arguments(input, running_mean, running_var, weight, bias)
    x = x if stat == x.dtype else x.astype(stat)  # (float16 with float32 parameters)
    dims = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    empty = np.zeros(0, stat)
    token = quiet()
    try:
        last = channels_last(x)  # (PyTorch's kernels read it as rows of channels)
        kernel = stat == input._data.dtype and (last or input.is_contiguous())
        if training and kernel:
            n = x.size // x.shape[1]
            mean, var_sum = _channels_last_stats(as_rows(x)) if last else _channel_stats(x)
            t = x.dtype.type
            invstd = (1 / np.sqrt((var_sum / t(n)).astype(np.float64) + eps)).astype(stat)
            if running_mean is not None:
                _update(running_mean, mean, momentum)
            if running_var is not None:  # (the kernel's types: float and double products)
                m = t(momentum)
                r = running_var._data
                running_var._data[...] = (np.float64(m) * (var_sum / t(n - 1)).astype(np.float64)
                                          + ((t(1) - m) * r).astype(np.float64)).astype(r.dtype)
            save_mean, save_invstd = mean, invstd
            result = _transform(x, last, mean, invstd, weight, bias, shape)
        elif training and stat == input._data.dtype:  # (any other layout)
            mean, invstd = _generic_stats(x, running_mean, running_var, momentum, eps)
            save_mean, save_invstd = mean, invstd
            result = _generic_output(x, mean, invstd, weight, bias, shape)
        elif training:
            n = x.size // x.shape[1]
            mean = x.mean(dims)
            centered = x - mean.reshape(shape)
            var = (centered * centered).mean(dims)
            invstd = (1 / np.sqrt(var + eps)).astype(stat)
            if running_mean is not None:
                _update(running_mean, mean, momentum)
            if running_var is not None:
                _update(running_var, var * n / (n - 1), momentum)
            save_mean, save_invstd = mean, invstd
            result = affine(centered * invstd.reshape(shape), weight, bias, shape,
                            input._data.dtype)
        elif kernel:  # (eval: 1/std of the running variance in the input's dtype)
            t = x.dtype.type
            invstd = t(1) / np.sqrt(running_var._data + t(eps))
            save_mean = save_invstd = empty
            result = _transform(x, last, running_mean._data, invstd, weight, bias, shape)
        else:
            centered = x - running_mean._data.reshape(shape)
            invstd = (1 / np.sqrt(running_var._data + eps)).astype(stat)
            save_mean = save_invstd = empty
            result = affine(centered * invstd.reshape(shape), weight, bias, shape,
                            input._data.dtype)
    finally:
        restore(token)
    if not should_record(input, weight, bias):
        return result
    node = NativeBatchNormBackward0()
    node._s_eps, node._s_training = eps, bool(training)
    node._s_input = SavedTensor(input)
    node._s_weight = None if weight is None else SavedTensor(weight)
    node._s_running_mean = None if running_mean is None else SavedTensor(running_mean)
    node._s_running_var = None if running_var is None else SavedTensor(running_var)
    node._s_result1 = SavedTensor(Tensor._wrap(save_mean))
    node._s_result2 = SavedTensor(Tensor._wrap(save_invstd))
    return record(node, result, input, weight, bias)


def _generic_output(x: np.ndarray, mean, invstd, weight, bias, shape) -> Tensor:
    """PyTorch's generic loop: ``((x - mean) * invstd) * weight + bias``, one operation at
    a time, with ``1`` and ``0`` for a missing weight and bias (``+ 0`` turns -0 into 0)."""
    t = x.dtype.type
    w = t(1) if weight is None else weight._data.reshape(shape)
    b = t(0) if bias is None else bias._data.reshape(shape)
    return Tensor._wrap(np.ascontiguousarray((x - mean.reshape(shape)) * invstd.reshape(shape)
                                             * w + b))


def _transform(x: np.ndarray, last: bool, mean, invstd, weight, bias, shape) -> Tensor:
    """PyTorch's kernel for a contiguous or channels-last ``x``: ``x * alpha + beta`` with
    one multiply-add, ``alpha = invstd * weight``, ``beta = bias - mean * alpha`` (another),
    per channel; a channels-last ``x`` gives a channels-last result."""
    alpha = invstd if weight is None else invstd * weight._data
    beta = fma(-mean, alpha, 0 if bias is None else bias._data)
    out = fma(x, alpha.reshape(shape), beta.reshape(shape))
    return Tensor._wrap(from_rows(as_rows(out).astype(x.dtype, order="C"), x.shape)
                        if last else np.ascontiguousarray(out, x.dtype))


def affine(out: np.ndarray, weight, bias, shape, dtype) -> Tensor:
    """``out * weight + bias``, the per-channel weight and bias reshaped to ``shape`` (either
    may be None), as a contiguous tensor of ``dtype``: the last step of batch and group
    normalisation."""
    if weight is not None:
        out = out * weight._data.reshape(shape)
    if bias is not None:
        out = out + bias._data.reshape(shape)
    return Tensor._wrap(np.ascontiguousarray(out, dtype))
