"""The size arguments of the creation functions, checked as PyTorch checks them, so a learner
sees PyTorch's error and never NumPy's (``negative dimensions are not allowed``, ``array is too
big``).

>>> import minigrad as torch
>>> torch.zeros(2**62)
Traceback (most recent call last):
RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904]
>>> torch.eye(-1)
Traceback (most recent call last):
RuntimeError: n must be greater or equal to 0, got -1
"""

from __future__ import annotations

import math

import numpy as np

from ._types import invalid_combination

__all__ = ["size_of", "allocate", "check_eye", "arange_length", "check_linspace"]

_INT64_MAX = 2**63 - 1


def _is_int(x) -> bool:
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        return True
    data = getattr(x, "_data", None)  # a one-element integer tensor counts as an int
    return data is not None and data.size == 1 and data.dtype.kind in "iu"


def size_of(size: tuple, fn: str = "ones") -> tuple:
    """``zeros(2, 3)``/``zeros((2, 3))``'s sizes as a tuple of ints, with PyTorch's errors."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    elif len(size) == 1 and not _is_int(size[0]):
        raise TypeError(f"{fn}(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size[0]).__name__}")
    for pos, s in enumerate(size, 1):
        if not _is_int(s) and fn == "full":
            raise TypeError("full(): argument 'size' (position 1) must be tuple of ints, but "
                            f"found element of type {type(s).__name__} at pos {pos - 1}")
        if not _is_int(s):
            raise TypeError(f"{fn}(): argument 'size' failed to unpack the object at pos {pos} "
                            f"with error \"type must be tuple of ints,but got "
                            f"{type(s).__name__}\"")
    size = tuple(int(s) for s in size)
    if any(s < 0 for s in size):
        if fn == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        bad = next(s for s in size if s < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: "
                           f"[{', '.join(map(str, size))}]")
    return size


def allocate(make, shape: tuple, dtype: np.dtype, *args) -> np.ndarray:
    """``make(shape, *args, dtype)`` (np.zeros, np.full...), refusing sizes PyTorch refuses."""
    if math.prod(shape) * np.dtype(dtype).itemsize > _INT64_MAX:
        raise RuntimeError("Storage size calculation overflowed with sizes="
                           f"[{', '.join(map(str, shape))}]")
    try:
        return make(shape, *args, dtype=dtype)
    except MemoryError:
        nbytes = math.prod(shape) * np.dtype(dtype).itemsize
        raise RuntimeError(
            "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate "
            f"memory: you tried to allocate {nbytes} bytes. Error code 12 (Cannot allocate "
            "memory)") from None


def check_eye(n, m, given: tuple) -> None:
    """``eye(n, m)``'s arguments: ints, not negative, not too many elements."""
    if not _is_int(n) or (m is not None and not _is_int(m)) or (m is None and len(given) > 1):
        if len(given) == 1:
            raise TypeError(f"eye(): argument 'n' (position 1) must be int, not "
                            f"{type(n).__name__}")
        raise invalid_combination("eye", given)
    for name, v in (("n", n), ("m", m)):
        if v is not None and int(v) < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {int(v)}")
    if int(n) * int(n if m is None else m) > _INT64_MAX:
        raise RuntimeError("numel: integer multiplication overflow")


def _number(x) -> bool:
    return isinstance(x, (int, float, np.number)) or (
        getattr(x, "_data", None) is not None and x._data.size == 1)


def _shown(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def arange_length(start, end, step, given: tuple) -> int:
    """The number of values of ``arange``, after PyTorch's checks of its arguments."""
    if not given:
        raise invalid_combination("arange", given)
    if not all(_number(a) for a in given):
        if len(given) == 1:
            raise TypeError("arange(): argument 'end' (position 1) must be Number, not "
                            f"{type(given[0]).__name__}")
        raise invalid_combination("arange", given)
    start, end, step = float(start), float(end), float(step)
    if step == 0 or step != step:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {_shown(given[0] if len(given) > 1 else 0)} -> "
                           f"{_shown(given[1] if len(given) > 1 else given[0])}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = math.ceil((end - start) / step)
    if n > _INT64_MAX:
        raise RuntimeError("invalid size, possible overflow?")
    return n


def check_linspace(start, end, steps, given: tuple, fn: str = "linspace") -> None:
    if not (_number(start) and _number(end) and _is_int(steps)):
        raise invalid_combination(fn, given)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
