"""How PyTorch's CPU kernels turn the generator's words into samples, in NumPy.

Every function takes a ``Generator`` (``minigrad._mt19937``), draws what PyTorch draws, in the
same order, and returns a NumPy array, so a seeded program prints PyTorch's numbers:

- **uniform** (``rand``, ``uniform_``): float32 takes one 32-bit word per sample and keeps its
  low 24 bits; float64 takes a 64-bit number and keeps 53 bits; ``u * (to - from) + from`` is
  one fused multiply-add where PyTorch's build fuses it (``_cpu.FUSED``).
- **normal** (``randn``, ``normal_``): a contiguous tensor of 16 or more elements is first
  filled with uniforms, then each block of 16 becomes 16 normals by Box-Muller (8 pairs: the
  first 8 uniforms give radii, the next 8 angles); if the size is not a multiple of 16, 16
  fresh uniforms redo the last 16 elements. float32 does that math in float32 with the
  polynomial ``log``/``sincos`` of PyTorch's AVX2 kernel (``_avx2_math``), or the C library's
  float functions where PyTorch has no AVX2 kernel (``_cpu``). Smaller tensors take
  scalar samples in float64, one Box-Muller pair at a time, and the generator keeps the second
  of a pair for the next draw.
- **integers** (``randint``, ``random_``): a word modulo the range, 64-bit numbers for ranges
  of 2**32 or more.
- **bernoulli** (``bernoulli_``, dropout): a float64 uniform per element, ``u < p``; for a
  number ``p`` on Intel CPUs, PyTorch uses MKL's own generator instead (``bernoulli_scalar``).
- **randperm**: a Fisher-Yates shuffle with one 32-bit word per step.

>>> from minigrad._mt19937 import Generator
>>> uniform(Generator().manual_seed(0), 2, np.float32)
array([0.4962566, 0.7682218], dtype=float32)
"""

from __future__ import annotations

import math

import numpy as np

from . import _cpu
from ._avx2_math import fma32, fma64, log_ps, sincos_ps

__all__ = ["float_kernel", "uniform", "normal", "random_ints", "random_default", "exponential",
           "multinomial", "poisson", "bernoulli", "bernoulli_scalar", "randperm", "in_memory_order"]

_F32_MASK, _F64_MASK = np.uint64(2**24 - 1), np.uint64(2**53 - 1)
_CHUNK = 2048  # blocks of 16 normals computed together


# ---------------------------------------------------------------- uniform
def _mul_add(a: np.ndarray, b, c) -> np.ndarray:
    """``a * b + c`` in ``a``'s dtype, fused into one rounding where PyTorch's build fuses it."""
    if not _cpu.FUSED:
        return a * a.dtype.type(b) + a.dtype.type(c)
    return fma32(a, b, c) if a.dtype == np.float32 else fma64(a, b, c)


def float_kernel(name: str, dtype) -> np.dtype:
    """``dtype`` if it is a float; PyTorch's error for kernel ``name`` otherwise."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        from ._dtype import from_numpy_dtype

        raise NotImplementedError(f'"{name}" not implemented for '
                                  f"'{from_numpy_dtype(dtype)._legacy_name[:-6]}'")
    return dtype



def _unit(gen, n: int, dtype) -> np.ndarray:
    """``n`` uniforms in [0, 1): 24 bits of a word (float32) or 53 of a 64-bit draw."""
    if np.dtype(dtype) == np.float32:
        return (gen.random32(n) & _F32_MASK).astype(np.float32) * np.float32(2.0**-24)
    return (gen.random64(n) & _F64_MASK).astype(np.float64) * 2.0**-53


def uniform(gen, n: int, dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
    """``n`` samples from [low, high) of ``dtype`` (float32 or float64)."""
    dtype = np.dtype(dtype)
    lo, hi = dtype.type(low), dtype.type(high)
    u = _unit(gen, n, dtype)
    if lo == 0 and hi == 1:
        return u
    return _mul_add(u, hi - lo, lo)


# ---------------------------------------------------------------- normal
def _glibc(fn, x: np.ndarray) -> np.ndarray:
    """``fn`` (a ``math`` function) on every element: the C library's results, bit for bit."""
    return np.fromiter(map(fn, x.tolist()), np.float64, len(x))


def _box_muller_16(block: np.ndarray, mean, std) -> np.ndarray:
    """16 uniforms -> 16 normals: radii from the first 8, angles from the last 8."""
    u1, u2 = 1 - block[:, :8], block[:, 8:]
    if block.dtype == np.float32 and _cpu.AVX2_NORMAL:
        radius = np.sqrt(np.float32(-2) * log_ps(u1))
        sin, cos = sincos_ps(np.float32(2 * math.pi) * u2)
        normals = np.concatenate([radius * cos, radius * sin], 1)
        return normals if (std, mean) == (1, 0) else fma32(normals, std, mean)
    if block.dtype == np.float32:  # the C library's float functions, as PyTorch calls them
        radius = np.sqrt(np.float32(-2) * _cpu.c_float("logf", u1))
        theta = (2 * math.pi * u2.astype(np.float64)).astype(np.float32)
        pairs = [radius * _cpu.c_float("cosf", theta), radius * _cpu.c_float("sinf", theta)]
    else:
        radius = np.sqrt(-2 * _glibc(math.log, u1.ravel())).reshape(u1.shape)
        theta = 2 * math.pi * u2.ravel()
        pairs = [radius * _glibc(math.cos, theta).reshape(u2.shape),
                 radius * _glibc(math.sin, theta).reshape(u2.shape)]
    normals = np.concatenate(pairs, 1)
    fma = fma32 if block.dtype == np.float32 else fma64
    return normals if (std, mean) == (1, 0) else fma(normals, std, mean)


def _normal_fill(gen, n: int, dtype, mean, std) -> np.ndarray:
    """The path of contiguous tensors of 16 or more elements."""
    mean, std = dtype.type(mean), dtype.type(std)
    data = _unit(gen, n, dtype)
    blocks = data[:n // 16 * 16].reshape(-1, 16)
    for i in range(0, len(blocks), _CHUNK):  # a chunk at a time: temporaries stay in cache
        blocks[i:i + _CHUNK] = _box_muller_16(blocks[i:i + _CHUNK], mean, std)
    if n % 16:
        data[n - 16:] = _box_muller_16(_unit(gen, 16, dtype).reshape(1, 16), mean, std).ravel()
    return data


def _normal_scalar(gen, n: int, mean: float, std: float) -> np.ndarray:
    """float64 samples one by one: pairs (cos, sin) from two uniforms, the sin kept for later."""
    first = [] if gen._normal is None or n == 0 else [gen._normal]
    if first:
        gen._normal = None
    pairs = (n - len(first) + 1) // 2
    u = _unit(gen, 2 * pairs, np.float64)
    radius = np.sqrt(-2 * _glibc(math.log1p, -u[1::2]))
    theta = 2 * math.pi * u[0::2]
    z = np.empty(2 * pairs)
    z[0::2], z[1::2] = radius * _glibc(math.cos, theta), radius * _glibc(math.sin, theta)
    z = np.concatenate([first, z])
    if len(z) > n:
        gen._normal = float(z[-1])
    return _mul_add(z[:n], float(std), float(mean))


def normal(gen, n: int, dtype, mean: float = 0.0, std: float = 1.0,
           contiguous: bool = True) -> np.ndarray:
    """``n`` samples of N(mean, std**2) as PyTorch's ``normal_`` draws them."""
    dtype = np.dtype(dtype)
    if n >= 16 and contiguous:
        return _normal_fill(gen, n, dtype, mean, std)
    return _normal_scalar(gen, n, mean, std).astype(dtype)


# ---------------------------------------------------------------- integers
def random_ints(gen, n: int, low: int, high: int) -> np.ndarray:
    """``n`` integers in [low, high) (``randint``, ``random_(from, to)``), as int64."""
    span = high - low
    if span <= 0:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    words = gen.random64(n) if span >= 2**32 else gen.random32(n)
    if span >= 2**63:  # only random_(-2**63, 2**63): wraps around as PyTorch's int64 does
        return (words % np.uint64(span) + np.uint64(low % 2**64)).view(np.int64)
    return (words % np.uint64(span)).astype(np.int64) + low


_DEFAULT_RANGE = {"float32": 2**24 + 1, "float64": 2**53 + 1, "int64": 2**63, "int32": 2**31,
                  "int16": 2**15, "int8": 2**7, "uint8": 2**8, "bool": 2}


def random_default(gen, n: int, dtype) -> np.ndarray:
    """``random_()`` without bounds: from 0 up to what ``dtype`` holds exactly."""
    dtype = np.dtype(dtype)
    wide = dtype in (np.float64, np.int64)
    words = gen.random64(n) if wide else gen.random32(n)
    return (words % np.uint64(_DEFAULT_RANGE[dtype.name])).astype(dtype)


# ---------------------------------------------------------------- exponential, multinomial
def exponential(gen, n: int, lambd: float = 1.0) -> np.ndarray:
    """``n`` samples of Exp(lambd) in float64: ``-1/lambd * log(1 - u)``."""
    return (-1.0 / lambd) * _glibc(math.log1p, -_unit(gen, n, np.float64))


def multinomial(gen, weights: np.ndarray, k: int, replacement: bool) -> np.ndarray:
    """``k`` category indices per row of the 2-D ``weights``.

    Without replacement (or for one sample): the ``k`` largest ``weight / q`` with ``q`` ~
    Exp(1) drawn per weight. With replacement: a float64 uniform per sample looked up in the
    row's cumulative sums (normalised, the last one set to 1).
    """
    if not replacement or k == 1:
        q = exponential(gen, weights.size).astype(weights.dtype).reshape(weights.shape)
        keys = weights / q
        return np.argsort(-keys, axis=-1, kind="stable")[:, :k]
    out = np.empty((len(weights), k), np.int64)
    for i, row in enumerate(weights):
        cum = np.cumsum(row)
        cum = cum / cum[-1]
        cum[-1] = 1
        out[i] = np.searchsorted(cum, _unit(gen, k, np.float64), side="left")
    return out


def _uniform_scalar(gen) -> float:
    return (int(gen.random64(1)[0]) & (2**53 - 1)) * 2.0**-53


def _poisson_one(gen, lam: float) -> int:
    """One Poisson(lam) sample: multiplying uniforms below 10, else transformed rejection
    (Hoermann's PTRS), one float64 uniform per step, as PyTorch's CPU kernel."""
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha, vr = 1.1239 + 1.1328 / (b - 3.4), 0.9277 - 3.6224 / (b - 2)
        while True:
            u = _uniform_scalar(gen) - 0.5
            v = _uniform_scalar(gen)
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - math.lgamma(k + 1.0)):
                return k
    count, product, limit = 0, 1.0, math.exp(-lam)
    while lam > 0:
        product *= _uniform_scalar(gen)
        if product <= limit:
            break
        count += 1
    return count


def poisson(gen, rates: np.ndarray) -> np.ndarray:
    """A Poisson sample per rate (element by element: the number of draws varies)."""
    flat = np.ravel(rates).tolist()
    return np.array([_poisson_one(gen, lam) for lam in flat], np.float64).reshape(np.shape(rates))


# ---------------------------------------------------------------- bernoulli, randperm
def bernoulli(gen, p) -> np.ndarray:
    """``u < p`` per element of the array ``p``: a float64 uniform for float64 (or Python
    number) probabilities, a float32 one for float32 probabilities."""
    p = np.asarray(p)
    u = _unit(gen, p.size, np.float32 if p.dtype == np.float32 else np.float64)
    return u.reshape(p.shape) < p


_MCG_A, _MCG_M = 1132489760, 2**31 - 1


def bernoulli_scalar(gen, n: int, p: float) -> np.ndarray:
    """``n`` draws of ``bernoulli_(p)`` for a number ``p`` (dropout's masks), in C order.

    On Intel CPUs PyTorch's wheels hand this to MKL: one 32-bit word seeds MKL's MCG31
    generator (``x -> 1132489760 * x mod (2**31 - 1)``, starting from the seed itself) and
    element i is 1 when ``x_i / (2**31 - 1) < p``. Elsewhere each element takes a float64
    uniform, as ``bernoulli`` does.
    """
    if not _cpu.MKL_BERNOULLI:
        return bernoulli(gen, np.full(n, p, np.float64))
    x0 = int(gen.random32(1)[0]) % _MCG_M or 1
    powers = np.ones(max(n, 1), np.uint64)  # a**i mod m, doubling the known part each step
    known, step = 1, _MCG_A
    while known < n:
        take = min(known, n - known)
        powers[known:known + take] = powers[:take] * np.uint64(step) % np.uint64(_MCG_M)
        known, step = known + take, step * step % _MCG_M
    x = powers[:n] * np.uint64(x0) % np.uint64(_MCG_M)
    return x / _MCG_M < p


def randperm(gen, n: int) -> np.ndarray:
    """A permutation of ``range(n)``: step ``i`` swaps ``i`` with ``i + word % (n - i)``."""
    if n >= 2**32 // 20:
        raise RuntimeError(f"randperm of n={n} elements is more than minigrad handles")
    steps = (gen.random32(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
    perm = list(range(n))
    for i, z in enumerate(steps):
        perm[i], perm[i + z] = perm[i + z], perm[i]
    return np.array(perm, np.int64)


# ---------------------------------------------------------------- memory order
def in_memory_order(target: np.ndarray, draw, along=None) -> np.ndarray:
    """Call ``draw(n, contiguous, along)`` for ``target``'s elements in the order PyTorch visits
    them (memory order) and return the values shaped like ``target``. ``along`` (optional, of
    ``target``'s shape, e.g. probabilities) reaches ``draw`` flattened in that same order."""
    contiguous = target.flags.c_contiguous
    if contiguous or target.ndim < 2:
        flat = None if along is None else np.ravel(along)
        return draw(target.size, contiguous, flat).reshape(target.shape)
    axes = sorted(range(target.ndim), key=lambda a: -abs(target.strides[a]))
    out = np.empty(target.shape, target.dtype)
    moved = out.transpose(axes)
    flat = None if along is None else np.ravel(np.transpose(along, axes))
    moved[...] = draw(target.size, False, flat).reshape(moved.shape)
    return out
