"""Filling weights with starting values (in place, untracked by autograd), as ``torch.nn.init``.

Random values are drawn as PyTorch draws them (``tensor.uniform_``/``normal_`` on the same
generator), so after the same ``manual_seed`` a layer starts with PyTorch's weights.

>>> import minigrad as torch
>>> w = torch.empty(3, 5)
>>> torch.nn.init.kaiming_uniform_(w, a=5 ** 0.5) is w
True
>>> bool((w.abs() <= 1 / 5 ** 0.5).all())
True
"""

from __future__ import annotations

import math
import warnings

from .._creation import _gen
from .._random import normal_values, uniform_values

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "ones_", "zeros_",
           "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_"]

_LINEAR_LIKE = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The factor that keeps activations' spread steady through ``nonlinearity``."""
    if nonlinearity in _LINEAR_LIKE:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor) -> tuple[int, int]:
    """(inputs, outputs) feeding each unit: ``(in, out)`` of a (out, in, *kernel) weight."""
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    shape = tensor.shape
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def _calculate_correct_fan(tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _fill(tensor, values):
    """Write ``values`` into ``tensor`` in place (a change autograd does not see)."""
    tensor._data[...] = values
    tensor._vc[0] += 1
    return tensor


def uniform_(tensor, a: float = 0.0, b: float = 1.0, generator=None):
    """Fill with values drawn uniformly from ``[a, b)``."""
    return _fill(tensor, uniform_values(_gen(generator), tensor._data, a, b))


def normal_(tensor, mean: float = 0.0, std: float = 1.0, generator=None):
    """Fill with values drawn from the normal distribution N(mean, std**2)."""
    return _fill(tensor, normal_values(_gen(generator), tensor._data, mean, std))


def constant_(tensor, val: float):
    return _fill(tensor, val)


def ones_(tensor):
    return _fill(tensor, 1)


def zeros_(tensor):
    return _fill(tensor, 0)


def xavier_uniform_(tensor, gain: float = 1.0, generator=None):
    """Glorot uniform: ``U(-b, b)`` with ``b = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain: float = 1.0, generator=None):
    """Glorot normal: ``N(0, std**2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
        return None
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None):
    """He uniform: ``U(-b, b)`` with ``b = gain * sqrt(3 / fan)``.

    ``nn.Linear`` uses it with ``a=sqrt(5)``, which gives ``b = 1 / sqrt(in_features)``.
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None):
    """He normal: ``N(0, std**2)`` with ``std = gain / sqrt(fan)``."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0.0, std, generator)

