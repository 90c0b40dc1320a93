"""Activation layers: ``ReLU``, ``Tanh``, ``Sigmoid``, ``Softmax``, ``LogSoftmax``, and the
others of a first course (``LeakyReLU``, ``ELU``, ``GELU``, ``SiLU``, ``Softplus``, ...).

>>> import minigrad as torch
>>> torch.nn.Softmax(dim=1)
Softmax(dim=1)
>>> torch.nn.ReLU()(torch.tensor([-1., 2.]))
tensor([0., 2.])
"""

from __future__ import annotations

from ..._creation import empty
from .. import functional as F
from ..parameter import Parameter
from .module import Module

__all__ = ["ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Softmin", "LeakyReLU", "ELU",
           "SELU", "CELU", "GELU", "SiLU", "Softplus", "Hardtanh", "ReLU6", "LogSigmoid", "Mish",
           "Hardswish", "Hardsigmoid", "Threshold", "Softsign", "Tanhshrink", "PReLU"]


def _with_inplace(text: str, inplace: bool) -> str:
    """A layer's ``extra_repr`` with ``, inplace=True`` when it is (PyTorch prints it then)."""
    return text + (", inplace=True" if inplace else "")


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


class Softmin(_AlongDim):
    """``softmax(-x, dim)``: small entries get large probabilities."""

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class _InPlace(Module):
    """An activation with an ``inplace`` flag (shown only when True)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """``x`` where positive, ``negative_slope * x`` elsewhere."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return _with_inplace(f"negative_slope={self.negative_slope}", self.inplace)


class ELU(Module):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return _with_inplace(f"alpha={self.alpha}", self.inplace)


class CELU(ELU):
    """``x`` where positive, ``alpha * (exp(x / alpha) - 1)`` elsewhere."""

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class SELU(_InPlace):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""

    def forward(self, input):
        return F.selu(input, self.inplace)


class GELU(Module):
    """``x * Phi(x)`` (``approximate='tanh'``: its tanh approximation)."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(_InPlace):
    """``x * sigmoid(x)``."""

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)


class Mish(_InPlace):
    """``x * tanh(softplus(x))``."""

    def forward(self, input):
        return F.mish(input, inplace=self.inplace)


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``; ``x`` itself above ``threshold``."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    """``x`` clamped to ``[min_val, max_val]``."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if max_val <= min_val:
            raise AssertionError

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return _with_inplace(f"min_val={self.min_val}, max_val={self.max_val}", self.inplace)


class ReLU6(Hardtanh):
    """``x`` clamped to ``[0, 6]``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    """``log(sigmoid(x))``."""

    def forward(self, input):
        return F.logsigmoid(input)


class Hardswish(_InPlace):
    """``x * relu6(x + 3) / 6``."""

    def forward(self, input):
        return F.hardswish(input, self.inplace)

    def extra_repr(self) -> str:
        return ""


class Hardsigmoid(_InPlace):
    """``relu6(x + 3) / 6``."""

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)

    def extra_repr(self) -> str:
        return ""


class Threshold(Module):
    """``x`` where it is above ``threshold``, ``value`` elsewhere."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return _with_inplace(f"threshold={self.threshold}, value={self.value}", self.inplace)


class Softsign(Module):
    """``x / (1 + |x|)``."""

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """``x - tanh(x)``."""

    def forward(self, input):
        return F.tanhshrink(input)


class PReLU(Module):
    """``x`` where positive, ``weight * x`` elsewhere: the slope is learned (one, or one per
    channel), starting at ``init``."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(empty(num_parameters, dtype=dtype).fill_(init))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"
