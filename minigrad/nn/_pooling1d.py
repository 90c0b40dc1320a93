"""1-D pooling: ``F.max_pool1d``, ``F.avg_pool1d`` and ``F.adaptive_avg_pool1d``, computed as
PyTorch computes them: the 2-D pool of ``input.unsqueeze(-2)`` with 1 x k windows, squeezed
back (``SqueezeBackward1``); ``max_pool1d`` without indices first makes the checks of its
own kernel (``max_pool1d_impl``), with their messages.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> F.max_pool1d(torch.tensor([[[1., 3., 2., 0.]]]), 2)
tensor([[[3., 2.]]])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ._kernel_dtypes import refuse
from ._pooling import _out_size, adaptive_avg_pool2d, avg_pool2d, max_pool2d

__all__ = ["max_pool1d", "avg_pool1d", "adaptive_avg_pool1d"]


def _one(v, name: str, fn: str) -> int:
    v = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    if len(v) != 1:
        raise RuntimeError(f"{fn}() argument '{name}' should contain one int (got {len(v)})")
    return int(v[0])


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """Max pooling along the last dimension: the 2-D pool of ``input.unsqueeze(-2)`` with
    1 x k windows, squeezed back (``SqueezeBackward1``), as PyTorch computes it."""
    k = _one(kernel_size, "kernel_size", "max_pool1d")
    s = k if stride is None or stride == () or stride == [] else _one(stride, "stride",
                                                                     "max_pool1d")
    p, d = _one(padding, "padding", "max_pool1d"), _one(dilation, "dilation", "max_pool1d")
    if return_indices and input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "max_pool1d)")
    if not return_indices:
        _check_max_pool1d(input._data, k, s, p, d, ceil_mode)
    out = max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode, True)
    values, indices = out[0].squeeze(-2), out[1].squeeze(-2)
    if not return_indices and values.grad_fn is None:  # (PyTorch's own kernel: a new tensor,
        return Tensor._wrap(values._data.copy())  # not a view, where nothing is recorded)
    return (values, indices) if return_indices else values


def _check_max_pool1d(x: np.ndarray, k: int, s: int, p: int, d: int, ceil_mode: bool):
    """PyTorch's checks of ``max_pool1d`` without indices (its own kernel), in its order."""
    if x.ndim not in (2, 3) or 0 in x.shape[-2:]:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(x.shape)}")
    for name, v, ok in (("kernel_size", k, k > 0), ("stride", s, s > 0)):
        if not ok:
            raise RuntimeError(f"max_pool1d() {name} must be greater than zero, but got {v}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError("max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={p} and kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = _out_size(x.shape[-1], k, s, p, d, ceil_mode)
    if out < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    refuse("max_pool1d_impl", x)


def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """Average pooling along the last dimension (through the 2-D pool, as PyTorch)."""
    k = _one(kernel_size, "kernel_size", "avg_pool1d")
    s = k if stride is None or stride == () or stride == [] else _one(stride, "stride",
                                                                     "avg_pool1d")
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _one(padding, "padding",
                                                                     "avg_pool1d")),
                      ceil_mode, count_include_pad).squeeze(-2)


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """The mean over ``output_size`` regions of the last dimension (through the 2-D pool)."""
    n = _one(output_size, "output_size", "adaptive_avg_pool1d")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, n)).squeeze(-2)
