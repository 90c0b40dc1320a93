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

import numpy as np

from .._creation import _gen, empty, empty_like
from .._creation import tensor as _tensor
from .._ops.compare import where
from .._random import normal_values, uniform_values
from ..autograd.grad_mode import no_grad

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "ones_", "zeros_",
           "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
           "trunc_normal_", "orthogonal_", "eye_", "dirac_"]

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



# ---------------------------------------------------------------- more starting values
def trunc_normal_(tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator=None):
    """Fill with N(mean, std**2) values kept inside ``[a, b]``, drawn as PyTorch draws them.

    When most of the normal's mass lies inside (more than 0.3), values are drawn from the
    normal and those outside redrawn until none is; otherwise candidates are drawn uniformly in
    ``[a, b]`` and each accepted with probability ``exp(-((x - mean) / std)**2 / 2)`` relative
    to the peak (rejection sampling), the rejected ones drawn again.
    """
    def cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)
    with no_grad():
        if cdf((b - mean) / std) - cdf((a - mean) / std) > 0.3:
            lo, hi = float(_tensor(a, dtype=tensor.dtype)), float(_tensor(b, dtype=tensor.dtype))
            result = normal_(tensor, mean, std, generator)
            while True:
                outside = (result < lo) | (result > hi)
                if not outside.any():
                    break
                result = where(outside, normal_(empty_like(result), mean, std, generator),
                               result)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
        uniform_(tensor, a, b, generator)
        candidates = tensor.clone()
        candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(peak)
        buffer = empty_like(tensor)
        pending = uniform_(buffer, 0.0, 1.0, generator).log_().gt(candidates)
        result = tensor
        while pending.any():
            uniform_(candidates, a, b, generator)
            result = where(pending, candidates, result)
            candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(peak)
            pending = where(pending, uniform_(buffer, 0.0, 1.0, generator).log_().gt(candidates),
                            pending)
        if result is not tensor:
            tensor.copy_(result)
    return tensor


def orthogonal_(tensor, gain: float = 1, generator=None):
    """Fill with a (semi-)orthogonal matrix: the Q of the QR decomposition of a standard normal
    matrix (trailing dimensions flattened), signs fixed by R's diagonal, times ``gain``."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = normal_(empty((rows, cols), dtype=tensor.dtype), 0, 1, generator)._data
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, (q.reshape(tensor.shape) * gain).astype(tensor._data.dtype))


def eye_(tensor):
    """Fill a 2-D tensor with the identity matrix (ones on the diagonal)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor.shape, dtype=tensor._data.dtype))


def dirac_(tensor, groups: int = 1):
    """Fill a 3-, 4- or 5-D convolution weight so that the convolution passes its input
    through: a one at the centre of filter (d, d) of each group, zeros elsewhere."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    values = np.zeros(sizes, tensor._data.dtype)
    centre = tuple(n // 2 for n in sizes[2:])
    for g in range(groups):
        for d in range(min(per_group, sizes[1])):
            values[(g * per_group + d, d) + centre] = 1
    return _fill(tensor, values)
