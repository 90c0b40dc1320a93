"""The float32 ``log`` and ``sin``/``cos`` of PyTorch's AVX2 ``randn`` kernel, in NumPy.

On x86 CPUs with AVX2 (nearly all of them), PyTorch turns uniforms into float32 normals with
8-lane polynomial approximations (Cephes' single-precision ``logf`` and ``sincosf``, as ported
to AVX), not with the C library. To print the same digits, minigrad repeats that arithmetic
step by step in float32, including the multiply-adds the compiler fuses (``fma32``).

``fma64`` is a float64 fused multiply-add (``a * b + c`` rounded once), built from error-free
transformations since NumPy has none; ``fma32`` rounds a float64 result once more to float32.

>>> import numpy as np
>>> float(log_ps(np.array([1.0], np.float32))[0]), float(sincos_ps(np.float32([0]))[1][0])
(0.0, 1.0)
"""

from __future__ import annotations

import numpy as np

__all__ = ["fma32", "fma64", "log_ps", "sincos_ps"]

f32 = np.float32
_LOG_POLY = (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
             1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
             3.3333331174e-1)
_SIN_POLY = (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)
_COS_POLY = (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)
_PI_4_PARTS = (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)  # -pi/4


def fma32(a, b, c) -> np.ndarray:
    """float32 ``a * b + c`` with one rounding (the float64 product of two floats is exact)."""
    exact = np.multiply(a, b, dtype=np.float64)
    return np.add(exact, c, dtype=np.float64, out=np.empty(exact.shape, f32), casting="same_kind")


def _split(a):
    t = a * 134217729.0  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    hi = t - (t - a)
    return hi, a - hi


def fma64(a, b, c) -> np.ndarray:
    """float64 ``a * b + c`` with (almost always) one rounding."""
    a, b, c = np.broadcast_arrays(np.float64(a), np.float64(b), np.float64(c))
    p = a * b
    (ah, al), (bh, bl) = _split(a), _split(b)
    p_err = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # a * b == p + p_err exactly
    s = p + c
    bb = s - p
    s_err = (p - (s - bb)) + (c - bb)                      # p + c == s + s_err exactly
    return s + (s_err + p_err)


def _horner(coefs, x):
    y = np.full_like(x, f32(coefs[0]))
    for c in coefs[1:]:
        y = fma32(y, x, f32(c))
    return y


def log_ps(x: np.ndarray) -> np.ndarray:
    """Natural log of positive float32 ``x``: x = m * 2**e with m in [sqrt(1/2), sqrt(2))."""
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(f32) + f32(1)
    m = ((bits & ~np.int32(0x7F800000)) | np.int32(0x3F000000)).view(f32)  # in [0.5, 1)
    small = m < f32(0.707106781186547524)
    e = e - small.astype(f32)
    m = (m - f32(1)) + np.where(small, m, f32(0))  # m - 1, or 2m - 1 when m was small
    z = m * m
    y = _horner(_LOG_POLY, m) * m
    y = fma32(y, z, e * f32(-2.12194440e-4))
    y = y - z * f32(0.5)
    return fma32(e, f32(0.693359375), m + y)


def sincos_ps(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sin x, cos x) for float32 ``x``: reduce to [-pi/4, pi/4] by octants, then polynomials."""
    negative = x < 0
    x = np.abs(x)
    octant = ((x * f32(1.27323954473516)).astype(np.int32) + 1) & ~1  # even octant: 4/pi
    y = octant.astype(f32)
    for part in _PI_4_PARTS:  # x - y * pi/4 in three steps, to keep the bits
        x = fma32(y, f32(part), x)
    sin_sign = negative ^ ((octant & 4) != 0)
    cos_sign = (~(octant - 2) & 4) != 0
    use_sin_poly = (octant & 2) == 0
    z = x * x
    cos_poly = fma32(_horner(_COS_POLY, z) * z, z, -(z * f32(0.5))) + f32(1)
    sin_poly = fma32(_horner(_SIN_POLY, z) * z, x, x)
    sin = np.where(use_sin_poly, sin_poly, cos_poly)
    cos = np.where(use_sin_poly, cos_poly, sin_poly)
    np.negative(sin, out=sin, where=sin_sign)
    np.negative(cos, out=cos, where=cos_sign)
    return sin, cos
