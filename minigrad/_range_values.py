"""The values of ``arange`` as PyTorch's CPU kernel computes them, to the last bit.

``torch.arange(-8.0, 8.0, 0.1)[80]`` is ``4.4409e-16`` in PyTorch, not ``0.0``: its kernel does
not compute ``start + i * step`` one element at a time. It works in the dtype's accumulate
type (float64 for float32 and float64, float32 for float16, int64 for integers) and fills a
vector register at a time (32 bytes: 8 float32, 4 float64, 16 float16 values), two registers
per round: each register starts from ``base = start + step * i`` (one fused multiply-add on
builds with FMA), rounded to the dtype, and its lanes are ``base + j * step``, rounded again.
The last ``n % (2 * lanes)`` values are computed one by one. (Tensors of more than 32,768
values are split between threads, each part with its own rest; not followed here.)

An integer ``dtype`` truncates ``start`` and ``step`` to integers first; for ``int64`` the
number of values is counted in integers too, so ``arange(0, 10, 1.5, dtype=torch.int64)``
has ten values.

``linspace`` has no vector path: its first half is ``start + step * i`` and its second half
``end - step * (steps - 1 - i)``, computed in the dtype itself (in float64 for integers, with
``start`` and ``end`` truncated first).

``logspace`` is ``base ** e`` for those exponents, but computed another way: its step is
``(end - start)`` in the dtype, divided in float64; each exponent is ``start + step * i`` (or
``end - step * (steps - 1 - i)``) in float64, without fusing (its file is built for any x86-64
CPU); the power is C's ``pow`` in float64, then converted to the dtype (an integer dtype
truncates, and a value out of its range becomes its smallest, as x86's conversion gives).

>>> import minigrad as torch
>>> torch.arange(-8.0, 8.0, 0.1)[80].item()
4.440892098500626e-16
"""

from __future__ import annotations

import math

import numpy as np

from ._cpu import FUSED
from ._tensor_data import _C_NAMES

__all__ = ["arange_values", "integer_arange_length", "linspace_values", "logspace_values"]

_SPLIT = 134217729.0  # 2**27 + 1: Dekker's split of a float64 into two halves


def _product_error(a, b, p):
    """The rounding error of ``p = a * b`` in float64, exactly (Dekker's two-product)."""
    def split(x):
        c = _SPLIT * x
        hi = c - (c - x)
        return hi, x - hi
    ah, al = split(a)
    bh, bl = split(b)
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _fma64(a, b, c):
    """``a * b + c`` in float64 with one rounding, where the build fuses it (else two)."""
    a, b, c = np.float64(a), np.asarray(b, np.float64), np.asarray(c, np.float64)
    p = a * b
    if not FUSED:
        return p + c
    e = _product_error(a, b, p)
    s = p + c
    v = s - p
    t = (p - (s - v)) + (c - v)  # the rounding error of s = p + c (two-sum)
    return s + (t + e)


def _fma32(a, b, c):
    """``a * b + c`` in float32 (float16's accumulate type): exact in float64, rounded once."""
    a, b, c = np.float32(a), np.asarray(b, np.float32), np.asarray(c, np.float32)
    if not FUSED:
        return (a * b + c).astype(np.float32)
    return (np.float64(a) * b.astype(np.float64) + c.astype(np.float64)).astype(np.float32)


def arange_values(start, step, n: int, target: np.dtype) -> np.ndarray:
    """``n`` values of ``arange(start, ..., step)`` in the NumPy dtype ``target``."""
    if target.kind in "iub":
        first, stride = int(start), int(step)  # PyTorch's Scalar.to<int64_t>: truncated
        return (first + stride * np.arange(n, dtype=np.int64)).astype(target)
    fma = _fma32 if target.itemsize == 2 else _fma64
    acc = np.float32 if target.itemsize == 2 else np.float64
    lanes = 32 // target.itemsize
    out = np.empty(n, target)
    whole = n - n % (2 * lanes)
    if whole:
        firsts = np.arange(0, whole, lanes)
        bases = fma(step, firsts.astype(acc), start).astype(target).astype(acc)
        lane = np.arange(lanes).astype(acc)
        out[:whole] = fma(step, lane[None, :], bases[:, None]).astype(target).ravel()
    rest = np.arange(whole, n).astype(acc)
    out[whole:] = fma(step, rest, start).astype(target)
    return out


def integer_arange_length(start, end, step) -> int:
    """How many values ``arange`` makes for ``int64``: counted in integers, as PyTorch does."""
    first, last, stride = int(start), int(end), int(step)
    if stride == 0:
        raise ValueError("step must be nonzero")  # (PyTorch: the int64 count divides by it)
    sign = (stride > 0) - (stride < 0)
    count = last - first + stride - sign
    return max(0, int(math.copysign(abs(count) // abs(stride), count * stride)))


def _converted(value, target: np.dtype):
    """``value`` as PyTorch's ``Scalar.to<T>()`` converts it: an error where it overflows
    (an unsigned type takes a negative Python int from ``-max``, wrapped around, but no
    negative float; NaN and inf fit no integer type), integers truncated."""
    if target.kind in "iu":
        info = np.iinfo(target)
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            value = int(value)
            low = -info.max if target.kind == "u" else info.min
        else:
            value, low = float(value), info.min
            if math.isnan(value):
                raise _overflow(target)
        if value > info.max or value < low:
            raise _overflow(target)
        return np.array(int(value)).astype(target)[()]
    value = float(value)
    if math.isfinite(value) and abs(value) > float(np.finfo(target).max):
        raise _overflow(target)
    return target.type(value)


def _overflow(target: np.dtype) -> RuntimeError:
    return RuntimeError(f"value cannot be converted to type {_C_NAMES[target.name]} without "
                        "overflow")


def linspace_values(start, end, steps: int, target: np.dtype) -> np.ndarray:
    """``steps`` values of ``linspace(start, end, steps)`` in the NumPy dtype ``target``."""
    if steps <= 1:
        return np.full(steps, start).astype(target)
    idx = np.arange(steps)
    first = idx < steps // 2
    start, end = _converted(start, target), _converted(end, target)
    if target.kind in "iub":
        lo, hi = float(start), float(end)  # truncated, then stepped in float64
        step = (hi - lo) / (steps - 1)
        wide = np.where(first, _fma64(step, idx, lo), _fma64(-step, steps - 1 - idx, hi))
        return np.trunc(wide).astype(np.int64).astype(target)
    if target.itemsize == 2:  # float16 arithmetic: each operation rounded to float16
        h = np.float16
        lo, hi = h(start), h(end)
        step = h(np.float32(h(np.float32(hi) - np.float32(lo))) / np.float32(h(steps - 1)))
        up = (np.float32(step) * idx.astype(h).astype(np.float32)).astype(h)
        down = (np.float32(step) * (steps - 1 - idx).astype(h).astype(np.float32)).astype(h)
        return np.where(first, (np.float32(lo) + up.astype(np.float32)).astype(h),
                        (np.float32(hi) - down.astype(np.float32)).astype(h))
    fma = _fma32 if target.itemsize == 4 else _fma64
    acc = np.float32 if target.itemsize == 4 else np.float64
    lo, hi = acc(start), acc(end)
    step = acc(acc(hi - lo) / acc(steps - 1))
    return np.where(first, fma(step, idx.astype(acc), lo),
                    fma(-step, (steps - 1 - idx).astype(acc), hi)).astype(target)


def _c_pow(base: float, e: float) -> float:
    """C's ``pow`` (Python's ``math.pow`` raises where C gives inf or NaN)."""
    try:
        return math.pow(base, e)
    except OverflowError:
        return -math.inf if base < 0 and e % 2 == 1 else math.inf
    except ValueError:
        # (a negative base to a fraction: x86's default NaN, its sign bit set; 0 ** -e: inf)
        return -math.nan if base < 0 else math.inf


def logspace_values(start, end, steps: int, base, target: np.dtype) -> np.ndarray:
    """``steps`` values of ``logspace(start, end, steps, base)`` in the NumPy dtype ``target``."""
    if steps <= 1:  # (filled with pow(base, start) in float64, converted as fill_ converts)
        return np.full(steps, _converted(_c_pow(float(base), float(start)), target)
                       if steps else 0, target)
    lo, hi = _converted(start, target), _converted(end, target)
    diff = float(int(hi) - int(lo)) if target.kind in "iub" else float(hi - lo)  # in the dtype
    step = diff / (steps - 1)
    idx = np.arange(steps)
    exponents = np.where(idx < steps // 2, float(lo) + step * idx.astype(np.float64),
                         float(hi) - step * (steps - 1 - idx).astype(np.float64))
    with np.errstate(over="ignore", invalid="ignore"):
        # (C's pow, one value at a time: NumPy's vectorised power may differ in the last bit)
        values = np.array([_c_pow(float(base), e) for e in exponents.tolist()], np.float64)
        if target.kind not in "iub":
            return values.astype(target)
        wide = np.int64 if target.itemsize == 8 else np.int32  # x86's truncating conversion
        info = np.iinfo(wide)
        fits = (values >= info.min) & (values < -float(info.min))
        ints = np.where(fits, np.trunc(np.where(fits, values, 0)), info.min).astype(wide)
    return ints.astype(target)
