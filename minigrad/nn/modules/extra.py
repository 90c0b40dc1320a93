"""More layers and losses: ``Embedding``, ``LayerNorm``, ``BCELoss``,
``BCEWithLogitsLoss``, ``HuberLoss``, ``SmoothL1Loss``, ``L1Loss``.

>>> import minigrad as torch
>>> torch.nn.LayerNorm(3)
LayerNorm((3,), eps=1e-05, elementwise_affine=True, bias=True)
"""

from __future__ import annotations

from ..._creation import empty, ones, zeros
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .loss import _Loss, _WeightedLoss
from .module import Module

__all__ = ["Embedding", "LayerNorm", "BCELoss",
           "BCEWithLogitsLoss", "HuberLoss", "SmoothL1Loss", "L1Loss"]


class Embedding(Module):
    """A lookup table: row ``i`` of ``weight`` (num_embeddings x embedding_dim) for index ``i``.

    Rows start standard normal; the ``padding_idx`` row starts at zero and gets no gradient.
    """
    _torch_module = "torch.nn.modules.sparse"  # (the file PyTorch defines it in)

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx=None, max_norm=None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False,
                 _weight=None, _freeze: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(empty((num_embeddings, embedding_dim), dtype=dtype),
                                    requires_grad=not _freeze)
            init.normal_(self.weight)
            if padding_idx is not None:
                self.weight._data[padding_idx] = 0
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        return s + (f", padding_idx={self.padding_idx}" if self.padding_idx is not None else "")

    @classmethod
    def from_pretrained(cls, embeddings, freeze: bool = True, padding_idx=None, **kwargs):
        rows, cols = embeddings.shape
        return cls(rows, cols, _weight=embeddings, _freeze=freeze, padding_idx=padding_idx,
                   **kwargs)


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


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities against targets in [0, 1]."""
    _torch_module = "torch.nn.modules.loss"  # (the file PyTorch defines it in)

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross-entropy of logits (a sigmoid inside, computed stably)."""
    _torch_module = "torch.nn.modules.loss"  # (the file PyTorch defines it in)

    def __init__(self, weight=None, size_average=None, reduce=None, reduction: str = "mean",
                 pos_weight=None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class HuberLoss(_Loss):
    """Squared error below ``delta``, absolute error (times delta) beyond."""
    _torch_module = "torch.nn.modules.loss"  # (the file PyTorch defines it in)

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class SmoothL1Loss(_Loss):
    """Squared error (divided by ``beta``) below ``beta``, absolute error beyond."""
    _torch_module = "torch.nn.modules.loss"  # (the file PyTorch defines it in)

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean",
                 beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class L1Loss(_Loss):
    """Mean absolute error."""
    _torch_module = "torch.nn.modules.loss"  # (the file PyTorch defines it in)

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)
