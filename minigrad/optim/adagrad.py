"""``Adagrad``, by PyTorch's update rule::

    g = g + weight_decay * p;  sum += g*g
    p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(sum) + eps)
"""

from __future__ import annotations

import numpy as np

from .._ops.inplace_checks import check_memory
from .._tensor import Tensor
from .optimizer import Optimizer, check_grad_shape, check_value, step_tensor

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    _torch_module = "torch.optim.adagrad"  # (the file PyTorch defines it in)
    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach=None, *,
                 maximize: bool = False, differentiable: bool = False, fused=None) -> None:
        check_value("learning rate", lr)
        check_value("lr_decay value", lr_decay)
        check_value("weight_decay value", weight_decay)
        check_value("initial_accumulator_value value", initial_accumulator_value)
        check_value("epsilon value", eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:  # PyTorch makes the state up front
            for p in group["params"]:
                self.state[p]["step"] = step_tensor()
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
