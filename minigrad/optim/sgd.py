"""``SGD``: stochastic gradient descent, with optional momentum, dampening, weight decay and
Nesterov momentum, by PyTorch's update rule.

For each parameter ``p`` with gradient ``g`` (negated when ``maximize``)::

    g = g + weight_decay * p                       (if weight_decay)
    buf = g                                         (first step)
    buf = momentum * buf + (1 - dampening) * g      (later steps)
    g = g + momentum * buf if nesterov else buf     (if momentum)
    p = p - lr * g

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.tensor([1.]))
>>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
>>> for _ in range(2):
...     opt.zero_grad()
...     (w * 3).sum().backward()
...     opt.step()
>>> w
Parameter containing:
tensor([0.1300], requires_grad=True)
"""

from __future__ import annotations

import numpy as np

from .._ops.inplace_checks import check_memory
from .._ops.rounding import HALF, fused_add, fused_add_
from .._tensor import Tensor
from .optimizer import Optimizer, check_grad_shape

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach=None, differentiable: bool = False, fused=None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if differentiable:
            raise NotImplementedError("minigrad's optimizers are not differentiable")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        foreach=foreach, differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update_all(self) -> None:  # (one loop per group: the hyper-parameters read once)
        scratch = self.__dict__.setdefault("_scratch", {})  # float64 buffers, one per shape
        for group in self.param_groups:
            lr, momentum, wd = group["lr"], group["momentum"], group["weight_decay"]
            maximize, dampening, nesterov = group["maximize"], group["dampening"], \
                group["nesterov"]
            for p in group["params"]:
                grad = p._grad
                if grad is None:
                    continue
                d, g = p._data, grad._data
                if g.shape != d.shape:
                    check_grad_shape(p, g)
                if maximize:
                    g = -g
                if wd != 0:  # PyTorch's grad.add(param, alpha=weight_decay)
                    g = _plus(g, d, wd)
                check_memory(p, ())  # (an expanded parameter: PyTorch's in-place refusal,
                buf = scratch.get(d.shape)  # before it keeps a momentum buffer)
                if buf is None:
                    buf = scratch[d.shape] = np.empty(d.shape, np.float64)
                if momentum != 0:
                    g = self._momentum(p, g, momentum, dampening, nesterov, buf)
                fused_add_(d, g, -lr, buf)  # param.add_(grad, alpha=-lr), rounded as PyTorch
                p._vc[0] += 1

    def _momentum(self, p, g, momentum, dampening, nesterov, scratch):
        state = self.state[p]
        buf = state.get("momentum_buffer")
        if buf is None:
            buf = state["momentum_buffer"] = Tensor._wrap(np.array(g, copy=True))
        else:
            b = buf._data
            b *= momentum
            fused_add_(b, g, 1 - dampening, scratch)
        return _plus(g, buf._data, momentum) if nesterov else buf._data


def _plus(a: np.ndarray, b: np.ndarray, alpha) -> np.ndarray:
    """``a.add(b, alpha=alpha)`` on arrays, rounded as PyTorch's kernel (fused for float32)."""
    if a.dtype is _FLOAT or a.dtype is HALF:
        return fused_add(a, b, alpha, a.dtype)
    return a + b * alpha


_FLOAT = np.dtype(np.float32)
