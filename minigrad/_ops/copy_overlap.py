"""``dst.copy_(src)`` when ``src`` shares memory with ``dst`` in a way PyTorch does not refuse
(views that are not dense, so its overlap check gives up: ``x[1:].copy_(x[:-1])`` on a
transposed ``x``): PyTorch's copy loop then reads elements it has already written, and the
result depends on its order. minigrad replays that order on a scratch copy of the memory:

- the dimensions run from the largest stride of ``dst`` (outermost) to the smallest;
- along the innermost one, when both are contiguous there, the kernel's vector loop loads a
  block of 64 bytes of ``src`` before it stores it (what PyTorch 2.13's CPU copy does on
  x86), the rest one element at a time.

>>> import minigrad as torch
>>> x = torch.tensor([[1, 2], [3, 4]]).t()
>>> x[1:].copy_(x[:-1])
tensor([[1, 3]])
>>> x
tensor([[1, 3],
        [1, 3]])
"""

from __future__ import annotations

import ctypes

import numpy as np

__all__ = ["copied_in_order"]

BLOCK_BYTES = 64


def copied_in_order(dst: np.ndarray, src: np.ndarray) -> np.ndarray:
    """What ``dst`` holds after PyTorch's element-order copy of ``src`` (same shape and dtype)
    into it, both views of one memory; neither array is changed."""
    lo = min(_start(dst), _start(src))
    hi = max(_end(dst), _end(src))
    scratch = np.frombuffer(bytearray(_raw(lo, hi)), np.uint8)
    d = _view(scratch, dst, lo)
    s = _view(scratch, src, lo)
    order = sorted(range(dst.ndim), key=lambda i: -abs(dst.strides[i]))
    d, s = d.transpose(order), s.transpose(order)
    if d.ndim == 0:
        return np.array(s, copy=True)
    item = dst.itemsize
    vector = d.strides[-1] == item and s.strides[-1] == item
    block = BLOCK_BYTES // item if vector else 1
    for outer in np.ndindex(*d.shape[:-1]):
        drow, srow = d[outer], s[outer]
        n = drow.shape[0]
        i = 0
        while i + block <= n and block > 1:
            drow[i:i + block] = srow[i:i + block].copy()
            i += block
        for j in range(i, n):
            drow[j] = srow[j]
    return np.array(d.transpose(np.argsort(order)), copy=True)


def _start(a: np.ndarray) -> int:
    return a.ctypes.data + sum(st * (n - 1) for n, st in zip(a.shape, a.strides) if st < 0)


def _end(a: np.ndarray) -> int:
    return a.ctypes.data + a.itemsize + sum(st * (n - 1) for n, st in zip(a.shape, a.strides)
                                             if st > 0)


def _raw(lo: int, hi: int) -> bytes:
    return ctypes.string_at(lo, hi - lo)


def _view(scratch: np.ndarray, a: np.ndarray, lo: int) -> np.ndarray:
    """``a``'s elements in the scratch copy of the memory that starts at address ``lo``."""
    return np.ndarray(a.shape, a.dtype, buffer=scratch.data, offset=a.ctypes.data - lo,
                      strides=a.strides)
