"""``Dropout`` and ``Dropout2d``: randomly zero activations (or whole channels) while training
(a regulariser).

>>> import minigrad as torch
>>> drop = torch.nn.Dropout(p=0.5)
>>> drop
Dropout(p=0.5, inplace=False)
>>> x = torch.ones(8)
>>> drop.eval()(x) is x         # in evaluation mode it does nothing
True
"""

from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d"]


class _DropoutNd(Module):
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_DropoutNd):
    """In training mode, zero each channel (a whole row of length L) with probability ``p``;
    scale the rest by 1/(1-p)."""

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """In training mode, zero each channel (a whole (H, W) plane) with probability ``p``;
    scale the rest by 1/(1-p)."""

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout(_DropoutNd):
    """In training mode, zero each element with probability ``p``; scale the rest by 1/(1-p)."""

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
