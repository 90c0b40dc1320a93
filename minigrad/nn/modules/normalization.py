"""``LayerNorm``: normalise over the last dimensions of each sample (``BatchNorm`` is in
batchnorm.py).

>>> import minigrad as torch
>>> torch.nn.LayerNorm(3)
LayerNorm((3,), eps=1e-05, elementwise_affine=True, bias=True)
"""

from __future__ import annotations

from ..._creation import ones, zeros
from .. import functional as F
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm"]


class LayerNorm(Module):
    """Normalise over the last dimensions (``normalized_shape``), then scale and shift."""
    _torch_module = "torch.nn.modules.normalization"  # (the file PyTorch defines it in)

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(ones(self.normalized_shape, dtype=dtype))
            self.bias = Parameter(zeros(self.normalized_shape, dtype=dtype)) if bias else None
        else:
            self.weight = self.bias = None

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")
