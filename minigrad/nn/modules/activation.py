"""Activation layers: ``ReLU``, ``Tanh``, ``Sigmoid``, ``Softmax``, ``LogSoftmax``.

>>> import minigrad as torch
>>> torch.nn.Softmax(dim=1)
Softmax(dim=1)
>>> torch.nn.ReLU()(torch.tensor([-1., 2.]))
tensor([0., 2.])
"""

from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax"]


class ReLU(Module):
    """``max(x, 0)`` elementwise."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """``tanh(x)`` elementwise."""

    def forward(self, input):
        return input.tanh()


class Sigmoid(Module):
    """``1 / (1 + exp(-x))`` elementwise."""

    def forward(self, input):
        return input.sigmoid()


class _AlongDim(Module):
    """A layer that works on each slice along ``dim`` (``Softmax``, ``LogSoftmax``)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax(_AlongDim):
    """Turns each slice along ``dim`` into probabilities (non-negative, summing to 1)."""

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_AlongDim):
    """``log(softmax(x, dim))``, computed without overflow."""

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)
