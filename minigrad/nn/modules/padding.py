"""Padding layers: ``ZeroPad2d``.

>>> import minigrad as torch
>>> torch.nn.ZeroPad2d(1)(torch.ones(1, 1, 2)).shape
torch.Size([1, 3, 4])
"""

from __future__ import annotations

from .. import _padding
from .module import Module

__all__ = ["ZeroPad2d"]


class ZeroPad2d(Module):
    """Zeros around the last two dimensions: ``padding`` is one int, or (left, right, top,
    bottom)."""

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * 4

    def forward(self, input):
        return _padding.pad(input, self.padding, "constant", 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"
