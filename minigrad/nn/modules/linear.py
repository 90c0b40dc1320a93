"""``Linear`` (``y = x W^T + b``) and ``Identity``.

>>> import minigrad as torch
>>> layer = torch.nn.Linear(3, 2)
>>> layer
Linear(in_features=3, out_features=2, bias=True)
>>> layer.weight.shape, layer.bias.shape
(torch.Size([2, 3]), torch.Size([2]))
>>> layer(torch.ones(4, 3)).grad_fn.name()
'AddmmBackward0'
"""

from __future__ import annotations

import math

from ..._creation import empty
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Linear", "Identity"]


class Linear(Module):
    """A fully connected layer: ``weight`` has shape (out_features, in_features).

    Weights start uniform in ``±1/sqrt(in_features)`` (PyTorch's scheme: ``kaiming_uniform_``
    with ``a=sqrt(5)``), and so does the bias.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        weight_and_bias(self, (out_features, in_features), out_features if bias else None,
                        dtype)

    def reset_parameters(self) -> None:
        """Draw fresh starting values (PyTorch's scheme, minigrad's random numbers)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        params = self._parameters  # (a direct look-up: this runs at every step)
        return F.linear(input, params["weight"], params["bias"])

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Identity(Module):
    """Returns its input unchanged (a placeholder; arguments are ignored)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input):
        return input


def weight_and_bias(module, shape: tuple, bias_size, dtype) -> None:
    """A layer's ``weight`` of ``shape`` and its ``bias`` of ``bias_size`` (None: no bias,
    registered as None as PyTorch does), then its starting values (``reset_parameters``)."""
    module.weight = Parameter(empty(shape, dtype=dtype))
    if bias_size is not None:
        module.bias = Parameter(empty(bias_size, dtype=dtype))
    else:
        module.register_parameter("bias", None)
    module.reset_parameters()
