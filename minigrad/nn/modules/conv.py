"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv3d``.

>>> import minigrad as torch
>>> conv = torch.nn.Conv2d(1, 6, 5)
>>> conv
Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
>>> conv.weight.shape, conv(torch.zeros(2, 1, 32, 32)).shape
(torch.Size([6, 1, 5, 5]), torch.Size([2, 6, 28, 28]))
"""

from __future__ import annotations

import math

from .. import _conv, init
from .linear import weight_and_bias
from .module import Module

__all__ = ["Conv1d", "Conv2d", "Conv3d"]


_PADDING_STRINGS = {"same", "valid"}  # (printed as PyTorch prints its set, made in this order)


def _ntuple(v, n: int) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


class _ConvNd(Module):
    """What the convolution layers share: the arguments, the weight (out_channels,
    in_channels / groups, *kernel_size) and bias, and PyTorch's starting values."""

    _d = 2

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__()
        d = self._d
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{_PADDING_STRINGS}")
            if padding == "same" and any(s != 1 for s in _ntuple(stride, d)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode != "zeros":
            raise NotImplementedError(f"padding_mode={padding_mode!r} is not in minigrad; "
                                      "only 'zeros' is")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _ntuple(kernel_size, d), _ntuple(stride, d)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, d)
        self.dilation, self.groups = _ntuple(dilation, d), groups
        self.transposed, self.output_padding = False, (0,) * d
        self.padding_mode = padding_mode
        weight_and_bias(self, (out_channels, in_channels // groups) + self.kernel_size,
                        out_channels if bias else None, dtype)

    def reset_parameters(self) -> None:
        """PyTorch's starting values: ``kaiming_uniform_(a=sqrt(5))`` for the weight, then the
        bias uniform in ``±1/sqrt(fan_in)``, drawn in that order."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return _conv.conv(self._d, input, self.weight, self.bias, self.stride, self.padding,
                          self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, " \
            f"stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNd):
    """A 1-D convolution over (N, in_channels, L) inputs."""

    _d = 1


class Conv2d(_ConvNd):
    """A 2-D convolution over (N, in_channels, H, W) inputs: ``out_channels`` filters of
    ``in_channels / groups`` x ``kernel_size``, each slid over the (padded) input."""

    _d = 2


class Conv3d(_ConvNd):
    """A 3-D convolution over (N, in_channels, D, H, W) inputs."""

    _d = 3
