"""``Adam``: adaptive moment estimation, by PyTorch's update rule.

For each parameter ``p`` with gradient ``g`` (negated when ``maximize``), at step ``t``::

    g = g + weight_decay * p           (or p *= 1 - lr * weight_decay if decoupled)
    m = m + (1 - beta1) * (g - m)      (running mean of gradients)
    v = beta2 * v + (1 - beta2) * g*g  (running mean of squared gradients)
    v_max = max(v_max, v)              (amsgrad only; used instead of v below)
    p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.tensor([1., -1.]))
>>> opt = torch.optim.Adam([w], lr=0.1)
>>> (w * w).sum().backward()
>>> opt.step()
>>> w                       # the first step moves each weight by about lr
Parameter containing:
tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

import numpy as np

from .._ops.inplace_checks import check_memory
from .._tensor import Tensor
from .optimizer import Optimizer, check_grad_shape

__all__ = ["Adam"]


def _zeros_like(data) -> Tensor:
    return Tensor._wrap(np.zeros_like(data))


class Adam(Optimizer):
    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach=None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused=None,
                 decoupled_weight_decay: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if differentiable:
            raise NotImplementedError("minigrad's optimizers are not differentiable")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _state(self, p, amsgrad: bool) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = Tensor._wrap(np.array(0.0, np.float32))
            state["exp_avg"] = _zeros_like(p._data)
            state["exp_avg_sq"] = _zeros_like(p._data)
            if amsgrad:
                state["max_exp_avg_sq"] = _zeros_like(p._data)
        return state

    def _update(self, p, group) -> None:
        lr, (beta1, beta2), wd = group["lr"], group["betas"], group["weight_decay"]
        eps, amsgrad = group["eps"], group["amsgrad"]
        state = self._state(p, amsgrad)
        data, g = p._data, p._grad._data
        check_grad_shape(p, g)
        if group["maximize"]:
            g = -g
        step_t = state["step"]._data
        step_t += 1
        if wd != 0:
            if group["decoupled_weight_decay"]:
                check_memory(p, ())  # (an expanded parameter: PyTorch's in-place refusal)
                data *= 1 - lr * wd
                p._vc[0] += 1
            else:
                g = g + wd * data
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        m += (1 - beta1) * (g - m)
        v *= beta2
        v += (1 - beta2) * g * g
        if amsgrad:
            v_max = state["max_exp_avg_sq"]._data
            np.maximum(v_max, v, out=v_max)
            v = v_max
        step = float(step_t)
        step_size = lr / (1 - beta1**step)
        denom = np.sqrt(v) / (1 - beta2**step) ** 0.5 + eps
        check_memory(p, ())
        data -= step_size * m / denom
        p._vc[0] += 1
