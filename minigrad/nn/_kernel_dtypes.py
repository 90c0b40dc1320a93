"""The dtypes the CPU kernels of the layers accept, with PyTorch's refusals: a kernel with no
loop for a dtype (``"avg_pool2d" not implemented for 'Long'``), and the normalisations'
parameters of another floating dtype than their input (``mixed dtype (CPU)``).

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> F.avg_pool2d(torch.ones(1, 1, 2, 2, dtype=torch.int32), 2)
Traceback (most recent call last):
    ...
NotImplementedError: "avg_pool2d" not implemented for 'Int'
"""

from __future__ import annotations

import numpy as np

from .._dtype import from_numpy_dtype

__all__ = ["refuse", "refuse_mixed"]


def refuse(kernel: str, x: np.ndarray, allowed: str = "f") -> None:
    """PyTorch's refusal of a dtype (NumPy kind not in ``allowed``) its CPU kernel ``kernel``
    has no loop for; called after the shape checks, as PyTorch dispatches after them."""
    if x.dtype.kind not in allowed:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{from_numpy_dtype(x.dtype)._cpp}'")


def refuse_mixed(x: np.ndarray, *params) -> None:
    """A normalisation's parameters (tensors or None) must have its input's dtype."""
    if any(p is not None and p._data.dtype != x.dtype for p in params):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
