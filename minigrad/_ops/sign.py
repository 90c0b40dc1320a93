"""The sign of a number as an op: ``signbit`` (whether the sign bit is set, ``-0.0`` too) and
``copysign`` (the magnitude of one tensor with the sign of another). (``sign``/``sgn``, which
map a number to -1, 0 or 1, are in ``elementwise_math``.)

>>> import minigrad as torch
>>> torch.signbit(torch.tensor([-0.0, 0.0, -2.0]))
tensor([ True, False,  True])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ._core import method

__all__ = ["signbit"]


@method("signbit")
def signbit(input) -> Tensor:
    """Whether each element's sign bit is set (``-0.0`` and ``-nan`` too); never differentiable."""
    if not isinstance(input, Tensor):
        raise TypeError("signbit(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    d = input._data
    return Tensor._wrap(np.zeros(d.shape, bool) if d.dtype.kind in "bu" else np.signbit(d))
