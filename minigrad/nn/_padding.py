"""``F.pad`` with a constant: one node, ``ConstantPadNdBackward0``.

``pad`` lists (before, after) pairs starting from the LAST dimension, as PyTorch does:
``F.pad(x, (1, 2))`` adds one column in front and two behind; a negative amount crops.

>>> import minigrad as torch
>>> import minigrad.nn.functional as F
>>> F.pad(torch.ones(1, 2, requires_grad=True), (1, 2))
tensor([[0., 1., 1., 0., 0.]], grad_fn=<ConstantPadNdBackward0>)
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, record, should_record

__all__ = ["pad", "ConstantPadNdBackward0"]


def _padded(a: np.ndarray, pad: tuple, value) -> np.ndarray:
    """``a`` padded (or cropped, for negative amounts) as ``pad`` says, filled with ``value``."""
    widths = [(0, 0)] * a.ndim
    for i in range(len(pad) // 2):
        widths[a.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    grown = np.pad(a, [(max(lo, 0), max(hi, 0)) for lo, hi in widths], constant_values=value)
    crop = tuple(slice(max(-lo, 0), grown.shape[i] - max(-hi, 0))
                 for i, (lo, hi) in enumerate(widths))
    return np.ascontiguousarray(grown[crop])


class ConstantPadNdBackward0(Node):
    """z = pad(a, pad):  grad_a = grad with the padding cut off again (pad(grad, -pad))."""

    rule = _r("z = pad(a, pad)  (zeros around a's last dimensions)", {"pad": "pad"}, words=True,
              a="grad with the padding cut off again")

    saved = ("pad",)

    def backward(self, g):
        back = tuple(-p for p in self._s_pad)
        if isinstance(g, Tensor):
            return (pad(g, back),)
        return (_padded(g, back, 0),)


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:
    """``input`` with ``value`` (default 0) added around its last ``len(pad) // 2``
    dimensions (``mode='constant'``; the other modes are not in minigrad)."""
    if mode != "constant":
        raise NotImplementedError(f"F.pad(mode={mode!r}) is not in minigrad; only "
                                  "mode='constant' is")
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {input.dim()}")
    out = Tensor._wrap(_padded(input._data, pad, 0 if value is None else value))
    if should_record(input):
        node = ConstantPadNdBackward0()
        node._s_pad = pad
        record(node, out, input)
    return out
