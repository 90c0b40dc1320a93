"""``RMSprop``, by PyTorch's update rule.

For gradient ``g`` of parameter ``p``)::

    g = g + weight_decay * p
    s = alpha * s + (1 - alpha) * g*g           (running mean of squared gradients)
    avg = sqrt(s - m*m) + eps                   (centered: m is the running mean of g)
    buf = momentum * buf + g / avg;  p -= lr * buf    (or p -= lr * g / avg without momentum)

>>> import minigrad as torch
>>> w = torch.nn.Parameter(torch.tensor([1., -1.]))
>>> opt = torch.optim.RMSprop([w], lr=0.01)
>>> (w * w).sum().backward(); opt.step()
>>> w
Parameter containing:
tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

import numpy as np

from .._ops.inplace_checks import check_memory
from .._tensor import Tensor
from .optimizer import Optimizer, check_grad_shape, check_value, step_tensor

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    _torch_module = "torch.optim.rmsprop"  # (the file PyTorch defines it in)
    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach=None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_value("learning rate", lr)
        check_value("epsilon value", eps)
        check_value("momentum value", momentum)
        check_value("weight_decay value", weight_decay)
        check_value("alpha value", alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, p, group) -> None:
        state = self.state[p]
        if not state:
            state["step"] = step_tensor()
            state["square_avg"] = Tensor._wrap(np.zeros_like(p._data))
            if group["momentum"] > 0:
                state["momentum_buffer"] = Tensor._wrap(np.zeros_like(p._data))
            if group["centered"]:
                state["grad_avg"] = Tensor._wrap(np.zeros_like(p._data))
        state["step"]._data += 1
        data, g = p._data, p._grad._data
        check_grad_shape(p, g)
        g = -g if group["maximize"] else g
        if group["weight_decay"] != 0:
            g = g + group["weight_decay"] * data
        alpha = group["alpha"]
        sq = state["square_avg"]._data
        sq *= alpha
        sq += (1 - alpha) * g * g
        if group["centered"]:
            ga = state["grad_avg"]._data
            ga += (1 - alpha) * (g - ga)
            avg = np.sqrt(sq - ga * ga) + group["eps"]
        else:
            avg = np.sqrt(sq) + group["eps"]
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]._data
            buf *= group["momentum"]
            buf += g / avg
            check_memory(p, ())  # (an expanded parameter: PyTorch's in-place refusal)
            data -= group["lr"] * buf
        else:
            check_memory(p, ())
            data -= group["lr"] * g / avg
        p._vc[0] += 1
