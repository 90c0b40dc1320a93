"""nll_loss's argument checks (and cross_entropy's, which calls nll_loss), in PyTorch's order.

Kept apart from ``functional.py`` so that the loss itself reads as the teaching code: the
usual case (2-D float scores, one int64 class per sample, no weight) returns at once.
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor

_INT64 = np.dtype(np.int64)


def check_nll_args(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """PyTorch's checks, in PyTorch's order: dimensions, batch size, target shape, target
    dtype, the 1-D input case, input dtype, then the weight."""
    x, t = input._data, target._data
    if x.ndim == 2 and t.ndim == 1 and t.dtype == _INT64 and weight is None and \
            x.shape[0] == t.shape[0] and x.dtype.kind == "f":
        return  # the usual (batch, classes) scores with one class index per sample
    if x.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {x.ndim})")
    if x.ndim != 1 and x.shape[0] != (t.shape[0] if t.ndim else 0):
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target "
                         f"batch_size ({t.shape[0] if t.ndim else 0}).")
    if x.ndim <= 2 and t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if x.ndim == 4 and t.ndim != 3:  # (4-D scores: PyTorch's nll_loss2d and its messages)
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {t.ndim}")
    if x.ndim > 2 and x.ndim != 4 and t.shape[1:] != x.shape[2:]:
        raise RuntimeError(f"Expected target size {[x.shape[0], *x.shape[2:]]}, got "
                           f"{list(t.shape)}")
    if t.dtype != _INT64 and t.dtype != np.uint8:
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{target.dtype._legacy_name[:-6]}")
    if x.ndim == 4:  # (nll_loss2d's checks: the weight's size, then the target's shape)
        if weight is not None and weight._data.size != x.shape[1]:
            raise RuntimeError("weight tensor should be defined either for all or no classes")
        if t.shape[1:] != x.shape[2:]:
            raise RuntimeError(f"size mismatch (got input: {list(x.shape)} , target: "
                               f"{list(t.shape)}")
    if x.ndim == 1 and t.ndim == 1 and t.shape[0] != 1:
        raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                         f"{t.shape[0]}")
    if x.dtype.kind != "f":
        kernel = "nll_loss2d_forward_out_frame" if x.ndim > 2 else "nll_loss_out_frame"
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{input.dtype._legacy_name[:-6]}'")
    if weight is not None:
        classes = x.shape[1] if x.ndim > 1 else x.shape[0]
        if weight._data.shape != (classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {classes} "
                               "classes or no classes but got weight tensor of shape: "
                               f"{list(weight.shape)}")
        if weight._data.dtype != x.dtype:
            raise RuntimeError(f"expected scalar type {input.dtype._legacy_name[:-6]} but "
                               f"found {weight.dtype._legacy_name[:-6]}")
        if weight.requires_grad:
            raise RuntimeError("The function 'nll_loss_forward' is not differentiable with "
                               "respect to argument 'weight'. This input cannot have "
                               "requires_grad True.")
