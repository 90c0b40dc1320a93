"""Loss layers: ``MSELoss``, ``CrossEntropyLoss``, ``NLLLoss``, ``BCELoss``,
``BCEWithLogitsLoss``, ``HuberLoss``, ``SmoothL1Loss``, ``L1Loss``.

>>> import minigrad as torch
>>> loss_fn = torch.nn.CrossEntropyLoss()
>>> loss = loss_fn(torch.zeros(2, 3, requires_grad=True), torch.tensor([0, 2]))
>>> round(loss.item(), 4), loss.grad_fn.name()
(1.0986, 'NllLossBackward0')
"""

from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "HuberLoss",
           "SmoothL1Loss", "L1Loss"]


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = _legacy_reduction(size_average, reduce)
        self.reduction = reduction


def _legacy_reduction(size_average, reduce) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "none" if not reduce else ("mean" if size_average else "sum")


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


def _weight(loss):
    """``loss.weight``, read from its buffers directly (a step's loss asks for it each time,
    and ``Module.__getattr__`` is a longer way)."""
    buffers = loss._buffers
    return buffers["weight"] if "weight" in buffers else loss.weight


class MSELoss(_Loss):
    """Mean squared error between input and target (``reduction``: 'mean', 'sum', 'none')."""

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross-entropy of raw scores (logits) against class indices: log_softmax + nll_loss."""

    def __init__(self, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=_weight(self),
                               ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of log-probabilities against class indices."""

    def __init__(self, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=_weight(self), ignore_index=self.ignore_index,
                          reduction=self.reduction)


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
