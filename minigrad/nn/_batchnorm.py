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

from .._ops import _formula as F
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import check_saved

__all__ = ["batch_norm", "NativeBatchNormBackward0"]


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

    saved = ("eps", "input", "result1", "result2", "running_mean", "running_var", "training",
             "weight")
    saved_tensors_names = ("input", "result1", "result2", "running_mean", "running_var",
                           "weight")

    def backward(self, g):
        check_saved(self)
        x, w = _value(self._s_input), _value(self._s_weight)
        g0, g = g, F.as_tensor(g)
        dims = (0,) + tuple(range(2, x.dim()))
        shape = (1, -1) + (1,) * (x.dim() - 2)
        if self._s_training:
            mean, invstd = self._mean_invstd(x, g0, dims, shape)
        else:
            mean = _value(self._s_running_mean).reshape(shape)
            invstd = (_value(self._s_running_var).reshape(shape) + self._s_eps).rsqrt()
        xhat = (x - mean) * invstd
        gw = g if w is None else g * w.reshape(shape)
        if self._s_training:
            n = x.numel() // x.shape[1]
            dx = invstd * (gw - gw.sum(dims, keepdim=True) / n
                           - xhat * (gw * xhat).sum(dims, keepdim=True) / n)
        else:
            dx = gw * invstd
        need = [f is not None for f, _ in self.next_functions]
        dw = (g * xhat).sum(dims) if need[1] else None
        db = g.sum(dims) if need[2] else None
        return tuple(None if d is None else F.like(d, g0) for d in (dx, dw, db))

    def _mean_invstd(self, x, g0, dims, shape):
        """The batch's mean and 1/std: saved, or (create_graph) recomputed from ``x`` so that
        they are differentiated too."""
        if isinstance(g0, Tensor):
            mean = x.mean(dims, keepdim=True)
            var = ((x - mean) * (x - mean)).mean(dims, keepdim=True)
            return mean, (var + self._s_eps).rsqrt()
        return (_value(self._s_result1).reshape(shape), _value(self._s_result2).reshape(shape))


def _update(running: Tensor, stat: np.ndarray, momentum: float) -> None:
    """``running = (1 - momentum) * running + momentum * stat``, in place (as in PyTorch, the
    kernel's own write: no new version)."""
    running._data[...] = (1 - momentum) * running._data + momentum * stat


def batch_norm(input: Tensor, running_mean, running_var, weight=None, bias=None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel (dimension 1) by batch statistics while ``training`` (updating
    the running averages, if given), or by the running averages; then ``* weight + bias``."""
    x = input._data
    dims = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    empty = np.zeros(0, x.dtype)
    token = quiet()
    try:
        if training:
            n = x.size // x.shape[1]
            if n <= 1:
                raise ValueError("Expected more than 1 value per channel when training, got "
                                 f"input size {input.shape}")
            mean = x.mean(dims)
            centered = x - mean.reshape(shape)
            var = (centered * centered).mean(dims)
            invstd = (1 / np.sqrt(var + eps)).astype(x.dtype)
            if running_mean is not None:
                _update(running_mean, mean, momentum)
            if running_var is not None:
                _update(running_var, var * n / (n - 1), momentum)
            save_mean, save_invstd = mean.astype(x.dtype), invstd
        else:
            centered = x - running_mean._data.reshape(shape)
            invstd = (1 / np.sqrt(running_var._data + eps)).astype(x.dtype)
            save_mean = save_invstd = empty
        out = centered * invstd.reshape(shape)
        if weight is not None:
            out = out * weight._data.reshape(shape)
        if bias is not None:
            out = out + bias._data.reshape(shape)
    finally:
        restore(token)
    result = Tensor._wrap(np.ascontiguousarray(out, x.dtype))
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
