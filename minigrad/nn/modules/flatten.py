"""``Flatten``: merge dimensions ``start_dim..end_dim`` into one (images to vectors).

>>> import minigrad as torch
>>> torch.nn.Flatten()(torch.zeros(2, 3, 4)).shape
torch.Size([2, 12])
"""

from __future__ import annotations

from .module import Module

__all__ = ["Flatten"]


class Flatten(Module):
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
