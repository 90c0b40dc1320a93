"""Pooling layers: ``MaxPool2d``, ``AvgPool2d``, ``AdaptiveAvgPool2d`` and their 1-D twins.

>>> import minigrad as torch
>>> torch.nn.MaxPool2d(2)
MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
>>> torch.nn.AdaptiveAvgPool2d((1, 1))(torch.ones(2, 3, 5, 5)).shape
torch.Size([2, 3, 1, 1])
"""

from __future__ import annotations

from .. import _pooling, _pooling1d
from .module import Module

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "MaxPool1d", "AvgPool1d",
           "AdaptiveAvgPool1d"]


def _window(module: Module, kernel_size, stride, padding) -> None:
    """A pooling layer's window: its size, its stride (the size unless given) and padding."""
    Module.__init__(module)
    module.kernel_size = kernel_size
    module.stride = stride if stride is not None else kernel_size
    module.padding = padding


class MaxPool2d(Module):
    """The largest element of each ``kernel_size`` window (stride: the kernel size unless
    given); ``return_indices=True`` also returns where each was."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        _window(self, kernel_size, stride, padding)
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def forward(self, input):
        return _pooling.max_pool2d(input, self.kernel_size, self.stride, self.padding,
                                   self.dilation, self.ceil_mode, self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """The mean of each ``kernel_size`` window."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override=None) -> None:
        _window(self, kernel_size, stride, padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return _pooling.avg_pool2d(input, self.kernel_size, self.stride, self.padding,
                                   self.ceil_mode, self.count_include_pad,
                                   self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """The mean over a grid of ``output_size`` regions, whatever the input's size."""

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return _pooling.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class MaxPool1d(MaxPool2d):
    """The largest element of each window along the last dimension."""

    def forward(self, input):
        return _pooling1d.max_pool1d(input, self.kernel_size, self.stride, self.padding,
                                   self.dilation, self.ceil_mode, self.return_indices)


def _single(v) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


class AvgPool1d(Module):
    """The mean of each window along the last dimension."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        _window(self, _single(kernel_size), _single(stride if stride is not None else kernel_size),
                _single(padding))
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return _pooling1d.avg_pool1d(input, self.kernel_size, self.stride, self.padding,
                                   self.ceil_mode, self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """The mean over ``output_size`` regions of the last dimension."""

    def forward(self, input):
        return _pooling1d.adaptive_avg_pool1d(input, self.output_size)
