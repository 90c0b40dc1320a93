"""``torch.finfo`` and ``torch.iinfo``: the limits of a floating or integer dtype.

>>> import minigrad as torch
>>> torch.iinfo(torch.int8).max, torch.finfo(torch.float16).eps
(127, 0.0009765625)
"""

from __future__ import annotations

import numpy as np

from . import _dtype
from ._torch_names import TorchNamed

__all__ = ["finfo", "iinfo"]


class finfo(metaclass=TorchNamed):
    """The limits of a floating dtype (the default dtype when none is given)."""

    def __init__(self, type=None):  # noqa: A002 - PyTorch's name
        d = _dtype.get_default_dtype() if type is None else type
        if not isinstance(d, _dtype.dtype) or not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        info = np.finfo(d.np)
        self.bits, self.dtype = info.bits, d.name
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = float(info.resolution)

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo(metaclass=TorchNamed):
    """The limits of an integer dtype."""

    def __init__(self, type):  # noqa: A002 - PyTorch's name
        if type is _dtype.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if not isinstance(type, _dtype.dtype) or type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        info = np.iinfo(type.np)
        self.bits, self.dtype = info.bits, type.name
        self.max, self.min = int(info.max), int(info.min)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
