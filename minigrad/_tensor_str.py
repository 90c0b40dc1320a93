"""Printing tensors exactly as PyTorch 2.13 does (being completed: see tests/test_printing.py)."""

from __future__ import annotations

import numpy as np


def tensor_repr(t) -> str:
    body = np.array2string(t._data, precision=4, separator=", ", prefix="tensor(")
    extra = []
    if t._grad_fn is not None:
        extra.append(f"grad_fn=<{t._grad_fn.name()}>")
    elif t._requires_grad:
        extra.append("requires_grad=True")
    return "tensor(" + body + "".join(", " + e for e in extra) + ")"
