"""The activation functions of ``nn.functional`` beyond relu, sigmoid, tanh and softmax
(their nodes are in ``_activations``). Imported into ``nn.functional``.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> F.gelu(torch.tensor([1.0]))
tensor([0.8413])
"""

from __future__ import annotations

import warnings

from .._tensor import Tensor
from . import _activations as _act

__all__ = ["leaky_relu", "leaky_relu_", "elu", "elu_", "selu", "celu", "gelu", "silu",
           "softplus", "hardtanh", "hardtanh_", "relu6", "logsigmoid", "softmin", "mish",
           "hardswish", "hardsigmoid", "threshold", "softsign", "tanhshrink"]


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``negative_slope * input`` elsewhere."""
    return _act.activation(_act.LeakyReluBackward0, input, "leaky_relu", inplace,
                           negative_slope=negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, True)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``alpha * (exp(input) - 1)`` elsewhere."""
    return _act.activation(_act.EluBackward0, input, "elu", inplace, alpha=alpha,
                           input_scale=1, scale=1)


def elu_(input: Tensor, alpha: float = 1) -> Tensor:
    return elu(input, alpha, True)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """``scale * elu(input, alpha)`` with PyTorch's self-normalising constants."""
    return _act.activation(_act.EluBackward0, input, "elu", inplace,
                           alpha=1.6732632423543772, input_scale=1, scale=1.0507009873554805)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` where positive, ``alpha * (exp(input / alpha) - 1)`` elsewhere."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    return _act.activation(_act.CeluBackward0, input, "elu", inplace, alpha=float(alpha))


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``input * Phi(input)``, Phi the standard normal CDF (or its tanh approximation)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _act.activation(_act.GeluBackward0, input, "gelu", approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * sigmoid(input)`` (also called swish)."""
    return _act.activation(_act.SiluBackward0, input, "silu", inplace)


def softplus(input: Tensor, beta=1, threshold=20) -> Tensor:
    """``log(1 + exp(beta * input)) / beta``, a smooth relu (linear above ``threshold``)."""
    return _act.activation(_act.SoftplusBackward0, input, "softplus", beta=beta,
                           threshold=threshold)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """``input`` clamped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _act.activation(_act.HardtanhBackward0, input, "hardtanh", inplace,
                           max_val=max_val, min_val=min_val)


def hardtanh_(input: Tensor, min_val: float = -1, max_val: float = 1) -> Tensor:
    return hardtanh(input, min_val, max_val, True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``input`` clamped to [0, 6] (``HardtanhBackward0``, as in PyTorch)."""
    return _act.activation(_act.HardtanhBackward0, input, "hardtanh", inplace,
                           max_val=6, min_val=0)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(input))``, computed without overflow."""
    return _act.activation(_act.LogSigmoidBackward0, input, "log_sigmoid")


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``softmax(-input, dim)``: small entries get large probabilities."""
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim, dtype)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * tanh(softplus(input))``."""
    return _act.activation(_act.MishBackward0, input, "mish", inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * relu6(input + 3) / 6``."""
    return _act.activation(_act.HardswishBackward0, input, "hardswish", inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``relu6(input + 3) / 6``."""
    return _act.activation(_act.HardsigmoidBackward0, input, "hardsigmoid", inplace)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``input`` where it is above ``threshold``, ``value`` elsewhere."""
    return _act.activation(_act.ThresholdBackward0, input, "threshold", inplace,
                           threshold=threshold, value=value)


def softsign(input: Tensor) -> Tensor:
    """``input / (1 + |input|)``, recorded as those ops (as in PyTorch)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """``input - tanh(input)``, recorded as those ops (as in PyTorch)."""
    return input - input.tanh()
