"""Where PyTorch's CPU kernels round differently from NumPy, and how minigrad follows them.

NumPy computes an op in its result's dtype, with a Python number first rounded to it. PyTorch's
CPU kernels do three things differently that a learner can see in the last bits:

- float16 with a number (``x * 0.1``, ``x / 3``, ``x // 0.1``): computed in float32 (float16's
  "opmath" type) with the number as a float32, rounded once (:func:`half_opmath`).
- running values (``cumsum``, ``cumprod``): kept in the accumulate type, float32 for float16
  and float64 for float32, each output rounded once (:func:`scan`).
- ``add``/``sub`` with ``alpha`` (``p.add_(grad, alpha=-lr)``): one fused multiply-add
  (:func:`fused_add`).

>>> import minigrad as torch
>>> x = torch.tensor([0.0001224], dtype=torch.float16)
>>> (x * (1 / 3)).item(), (x.numpy() * (1 / 3)).item()  # PyTorch's bits, NumPy's
(4.082918167114258e-05, 4.076957702636719e-05)
"""

from __future__ import annotations

import math

import numpy as np

from .._quiet import quiet, restore
from .._tensor import Tensor

__all__ = ["HALF", "half_opmath", "opmath_array", "scan", "fused_add", "fused_add_",
           "scalar_loop", "opmath_number", "fma", "lerp_number", "addc"]

HALF = np.dtype(np.float16)
_FLOAT = np.dtype(np.float32)
_NUMBERS = (int, float, bool, np.generic, np.ndarray)


def half_opmath(fn, a, b, other):
    """``fn(a, b)`` for a float16 ``a`` as PyTorch's CPU kernel computes ``x * 0.1``, ``x / 3``.

    Where the second operand ``other`` (``b`` is it as an operand) is a number or a 0-d tensor
    (a "wrapped number"), the kernel reads its own value as a float32 (the "opmath" type of
    float16), computes in float32 and rounds the result to float16 once. NumPy would round the
    number to float16 first, which can change the last bit. Any other ``other`` (a tensor with
    dimensions): ``fn(a, b)`` as is. Only ops whose kernel does this call it (mul, div); add,
    comparisons and pow round the number first, as NumPy does. Computed quietly (``_quiet``):
    overflow is inf, as in PyTorch.

    >>> x = np.array([0.0001224], np.float16)
    >>> half_opmath(np.multiply, x, 1 / 3, 1 / 3).item()  # (NumPy's x * (1/3): 4.0769...e-05)
    4.082918167114258e-05
    """
    if isinstance(other, Tensor):
        other = other._data
    token = quiet()
    try:
        if isinstance(a, np.ndarray) and isinstance(other, _NUMBERS) \
                and not (isinstance(other, np.ndarray) and other.ndim):
            b = np.float32(other)  # (NumPy then computes in float32: a float32 is not weak)
        return np.asarray(fn(a, b)).astype(HALF, copy=False)
    finally:
        restore(token)


def opmath_array(fn, a, b, dtype, other) -> np.ndarray:
    """``fn(a, b)`` as an array of ``dtype``, quietly; for float16 :func:`half_opmath`
    (``other``: the second operand as given): ``x // 0.1``, ``x.div(3, rounding_mode=...)``,
    ``x * 0.1`` in a backward formula."""
    if dtype is HALF:
        return half_opmath(fn, a, b, other)
    token = quiet()
    try:
        return np.asarray(fn(a, b)).astype(dtype, copy=False)
    finally:
        restore(token)


_SCAN_SUMS_IN = {HALF: np.float32, _FLOAT: np.float64}


def scan(np_scan, x, axis: int, dtype=None) -> np.ndarray:
    """``np_scan`` (np.cumsum, np.cumprod) of ``x`` along ``axis`` as PyTorch's CPU kernel runs
    it: the running value is kept in its accumulate type (float16's is float32, float32's is
    float64) and each output rounded once to ``dtype`` (``x``'s by default). NumPy would keep
    it in ``dtype``: a float32 cumsum of 10,000 values then differs in most elements."""
    dtype = np.dtype(dtype or x.dtype)
    acc = _SCAN_SUMS_IN.get(dtype)
    return np_scan(x, axis=axis, dtype=dtype) if acc is None else \
        np_scan(x, axis=axis, dtype=acc).astype(dtype)


# ---------------------------------------------------------------- add with alpha
_LIMITS = {HALF: (65504.0, "c10::Half"), _FLOAT: (3.4028234663852886e38, "float")}
_LANES = 32  # elements per step of the vectorized loop (two float16 vectors, 16 float32 pairs)


def fused_add(a, b, alpha, dtype) -> np.ndarray:
    """``a + alpha * b`` for a float16 or float32 ``dtype`` as PyTorch's CPU ``add`` computes
    it (``x.add(y, alpha=2)``, ``sub``, ``rsub``, SGD's ``p.add_(grad, alpha=-lr)``).

    Its kernel is one fused multiply-add with ``alpha`` converted to ``dtype`` (an ``alpha``
    that does not fit raises PyTorch's error). float32: the product and the sum are exact in
    float64 and rounded once to float32. float16: the product of two float16 values is exact
    in float32, the sum is rounded to float32 and then to float16, except in the elements that
    PyTorch's scalar loop computes (the last ``n % 32`` of each innermost run, see
    :func:`scalar_loop`), where float16 arithmetic rounds the product first. A number ``b`` is
    first rounded to ``dtype``. Computed quietly.
    """
    token = quiet()
    try:
        al, xa, xb = _alpha(alpha, dtype), np.asarray(a, dtype), np.asarray(b, dtype)
        if dtype is _FLOAT:
            return (xa.astype(np.float64) + xb.astype(np.float64) * np.float64(al)).astype(
                _FLOAT)
        xa, product = xa.astype(np.float32), xb.astype(np.float32) * np.float32(al)
        out = np.asarray((xa + product).astype(HALF))
        tail = scalar_loop(out.shape, a, b)
        if tail is not None:
            np.copyto(out, (xa + product.astype(HALF).astype(np.float32)).astype(HALF),
                      where=tail)
        return out
    finally:
        restore(token)


def fused_add_(a: np.ndarray, b: np.ndarray, alpha, scratch: np.ndarray | None = None) -> None:
    """``a += alpha * b`` in place, rounded as PyTorch's ``a.add_(b, alpha=alpha)`` (SGD's
    update): float32 through ``scratch``, a float64 array of ``a``'s shape that the caller
    keeps, so that a training step allocates nothing; float16 by :func:`fused_add`; float64
    with NumPy's two roundings (PyTorch fuses it too: not followed yet, as in ``add``). The
    caller runs it quietly."""
    if a.dtype is _FLOAT and b.dtype is _FLOAT and scratch is not None and b.shape == a.shape:
        al = _ALPHA32.get(alpha) if type(alpha) is float and alpha else None
        if al is None:  # (SGD asks for the same -lr at every step: read once, then kept)
            al = np.float64(_alpha(alpha, _FLOAT))
            if type(alpha) is float and alpha and len(_ALPHA32) < 64:
                _ALPHA32[alpha] = al
        np.multiply(b, al, scratch)  # exact in float64
        np.add(scratch, a, scratch)  # the sum, rounded once to float32 as it is stored:
        a[...] = scratch  # a fused multiply-add (``out`` given by position: cheaper)
    elif a.dtype is _FLOAT or a.dtype is HALF:
        a[...] = fused_add(a, b, alpha, a.dtype)
    else:
        a += b * alpha


_ALPHA32: dict = {}  # a float alpha (not 0: -0.0 == 0.0) -> its float32 value, as a float64


def _alpha(alpha, dtype) -> np.ndarray:
    """``alpha`` as the kernel reads it, in ``dtype``; PyTorch's error if it does not fit."""
    limit, name = _LIMITS[dtype]
    if type(alpha) in (int, float) and math.isfinite(alpha) and abs(alpha) > limit:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    return np.asarray(alpha, dtype)


def scalar_loop(shape, *operands):
    """Where PyTorch's CPU loop over float16 ``operands`` (arrays or numbers) of the result
    ``shape`` computes one element at a time (a bool mask, or None for nowhere).

    It goes over the innermost run of elements (the trailing dimensions that every operand
    walks through evenly, as TensorIterator merges them) in steps of 32 with vector
    instructions, and does the rest of each run (``run % 32``) one by one; where an operand's
    innermost step is neither one element nor zero, everything goes one by one. (Tensors of
    32,768 elements or more are split between threads, each part with its own rest: not
    followed here.)
    """
    size = math.prod(shape)
    dims = [i for i, n in enumerate(shape) if n != 1]
    if not size or not dims:
        return None if not size else np.ones(shape, bool)
    arrays = [np.broadcast_to(x, shape) for x in operands if isinstance(x, np.ndarray) and x.ndim]
    steps = [[s // x.itemsize for s in x.strides] for x in arrays]
    inner, run = dims[-1], shape[dims[-1]]
    if any(st[inner] not in (0, 1) for st in steps):
        return np.ones(shape, bool)
    for i in reversed(dims[:-1]):
        if any(st[i] != st[inner] * run for st in steps):
            break
        run *= shape[i]
    one_by_one = np.arange(run) >= run - run % _LANES
    return np.broadcast_to(one_by_one, (size // run, run)).reshape(shape)


# ---------------------------------------------------------------- lerp, addcmul, addcdiv
def opmath_number(x, dtype):
    """A number ``x`` (``lerp``'s weight, ``addcmul``'s value) as the float32 PyTorch's kernel
    computes with for a float16 or float32 ``dtype`` (None for others); one that float32
    cannot hold raises PyTorch's error."""
    if dtype is not HALF and dtype is not _FLOAT:
        return None
    if type(x) in (int, float) and math.isfinite(x) and abs(x) > _LIMITS[_FLOAT][0]:
        raise RuntimeError("value cannot be converted to type float without overflow")
    return np.float32(x)


def fma(a, b, c, dtype) -> np.ndarray:
    """``a * b + c`` rounded once to float32 (a fused multiply-add: the product of two
    float32 values is exact in float64), then to ``dtype``. Callers run it quietly."""
    exact = np.multiply(a, b, dtype=np.float64) + np.asarray(c, np.float64)
    return np.asarray(exact.astype(np.float32)).astype(dtype, copy=False)


def lerp_number(start, end, weight, dtype) -> np.ndarray:
    """``lerp(start, end, weight)`` for a number ``weight`` and a float16 or float32 ``dtype``
    as PyTorch's kernel: in float32, the two-sided formula (exact at 0 and 1) as one fused
    multiply-add: ``weight * (end - start) + start`` below 0.5, ``(weight - 1) * (end -
    start) + end`` from there. Callers run it quietly."""
    w, s, e = opmath_number(weight, dtype), start.astype(np.float32), end.astype(np.float32)
    if abs(w) < 0.5:
        return fma(w, e - s, s, dtype)
    return fma(w - np.float32(1), e - s, e, dtype)


def addc(input, tensor1, tensor2, value, dtype, divide: bool) -> np.ndarray:
    """``input + value * tensor1 * tensor2`` (or ``/ tensor2``) for a float16 or float32
    ``dtype`` as PyTorch's addcmul/addcdiv kernels: in float32, ``value * tensor1`` first;
    addcmul's product and sum one fused multiply-add. Callers run it quietly."""
    v = opmath_number(value, dtype)
    s, a, b = (np.asarray(x, dtype).astype(np.float32) for x in (input, tensor1, tensor2))
    if divide:
        return np.asarray(s + v * a / b).astype(dtype, copy=False)
    return fma(v * a, b, s, dtype)
