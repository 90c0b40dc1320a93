"""``RMSprop``, ``Adagrad`` and ``AdamW``, by PyTorch's update rules.

RMSprop (for gradient ``g`` of parameter ``p``)::

    g = g + weight_decay * p
    s = alpha * s + (1 - alpha) * g*g           (running mean of squared gradients)
    avg = sqrt(s - m*m) + eps                   (centered: m is the running mean of g)
    buf = momentum * buf + g / avg;  p -= lr * buf    (or p -= lr * g / avg without momentum)

Adagrad::

    g = g + weight_decay * p;  sum += g*g
    p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(sum) + eps)

AdamW is Adam with decoupled weight decay (``p *= 1 - lr * weight_decay`` before the step).

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
from .adam import Adam
from .optimizer import Optimizer, check_grad_shape

__all__ = ["RMSprop", "Adagrad", "AdamW"]


def _check(name: str, value: float) -> None:
    if not 0.0 <= value:
        raise ValueError(f"Invalid {name}: {value}")


def _step_tensor() -> Tensor:
    return Tensor._wrap(np.array(0.0, np.float32))


class RMSprop(Optimizer):
    _torch_module = "torch.optim.rmsprop"  # (the file PyTorch defines it in)
    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach=None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check("learning rate", lr)
        _check("epsilon value", eps)
        _check("momentum value", momentum)
        _check("weight_decay value", weight_decay)
        _check("alpha value", alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, p, group) -> None:
        state = self.state[p]
        if not state:
            state["step"] = _step_tensor()
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


class Adagrad(Optimizer):
    _torch_module = "torch.optim.adagrad"  # (the file PyTorch defines it in)
    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach=None, *,
                 maximize: bool = False, differentiable: bool = False, fused=None) -> None:
        _check("learning rate", lr)
        _check("lr_decay value", lr_decay)
        _check("weight_decay value", weight_decay)
        _check("initial_accumulator_value value", initial_accumulator_value)
        _check("epsilon value", eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:  # PyTorch makes the state up front
            for p in group["params"]:
                self.state[p]["step"] = _step_tensor()
                self.state[p]["sum"] = Tensor._wrap(
                    np.full_like(p._data, group["initial_accumulator_value"]))

    def _update(self, p, group) -> None:
        state = self.state[p]
        state["step"]._data += 1
        step = float(state["step"]._data)
        data, g = p._data, p._grad._data
        check_grad_shape(p, g)
        g = -g if group["maximize"] else g
        if group["weight_decay"] != 0:
            g = g + group["weight_decay"] * data
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]._data
        total += g * g
        check_memory(p, ())  # (an expanded parameter: PyTorch's in-place refusal)
        data -= clr * g / (np.sqrt(total) + group["eps"])
        p._vc[0] += 1


class AdamW(Adam):
    """Adam with decoupled weight decay (default ``weight_decay=0.01``)."""
    _torch_module = "torch.optim.adamw"  # (the file PyTorch defines it in)

    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False,
                 foreach=None, capturable: bool = False, differentiable: bool = False,
                 fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
