"""Means and variances computed the way PyTorch's CPU kernels compute them, step by step, so
that rounding, overflow and NaN come out the same (not only the same formula).

- ``var_all``: ``std``/``var`` with one result (``std_var_all_cpu``): the mean in the input's
  dtype (``x.mean()``), then the squared deviations summed in float64.
- ``welford``: ``std``/``var`` with several results, ``var_mean``, ``std_mean``
  (``WelfordOps`` in float64, one element after the other).
- ``rowwise_moments``: ``layer_norm``'s and ``group_norm``'s mean and variance
  (``RowwiseMoments``: Welford on vectors of 8 floats or 4 doubles, in chunks of 16 vectors
  merged as a cascade, the rest one by one, then the vector's lanes merged), in the input's
  dtype: ``x - mean`` squared overflows there, and a merge can give ``inf * 0``, NaN.
- ``fma``: ``a * b + c`` rounded once, as the kernels' compiled multiply-adds.

>>> import numpy as np
>>> rowwise_moments(np.array([[1e30, 1e30]], np.float32))[1]  # (an overflow times 0)
array([nan], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from ._quiet import quiet, restore

__all__ = ["var_all", "welford", "rowwise_moments", "fma"]

_CHUNK = 16  # kChunkSize: vectors per Welford chunk


def var_all(x: np.ndarray, mean: float, correction: float, take_sqrt: bool) -> np.ndarray:
    """``std_var_all_cpu``: ``mean`` is ``x.mean()`` as PyTorch computes it (in x's dtype); the
    deviations from it, squared and summed in float64, over ``max(0, n - correction)``."""
    token = quiet()
    try:
        d = x.astype(np.float64) - np.float64(mean)
        v = np.float64(np.sum(d * d)) / max(0.0, x.size - correction)
        return np.asarray(np.sqrt(v) if take_sqrt else v).astype(x.dtype)
    finally:
        restore(token)


def welford(rows: np.ndarray, correction: float, take_sqrt: bool):
    """``WelfordOps`` over the last axis of ``rows`` (float64, element by element), PyTorch's
    reduction for several results: ``(var or std, mean)`` in ``rows``' dtype."""
    n = rows.shape[-1]
    mean = np.zeros(rows.shape[:-1])
    m2 = np.zeros(rows.shape[:-1])
    token = quiet()
    try:
        for k in range(n):
            x = rows[..., k].astype(np.float64)
            delta = x - mean
            mean = mean + delta / (k + 1)
            m2 = m2 + delta * (x - mean)
        v = m2 / (n - correction if n > correction else 0.0)
        stat = np.sqrt(v) if take_sqrt else v
    finally:
        restore(token)
    return stat.astype(rows.dtype), mean.astype(rows.dtype)


def _merge(m0_add, m1_add, m2_add, m0, m1, m2, vector: bool):
    """Chan's merge of ``(count, mean, m2)`` as this build's kernels round it: the vector form
    (``AddMomentsVec``) ``m2 + m2_add + (delta c)(delta m0)`` with one multiply-add, the lanes'
    scalar form (``AddMoments``) ``m2_add + delta^2 c m0`` first: there a huge mean merged
    with an empty side gives ``inf * 0``, NaN (measured against PyTorch 2.13, bit for bit)."""
    n = m0 + m0_add
    t = m1.dtype.type
    c = t(0) if n == 0 else t(m0_add) / t(n)
    delta = m1_add - m1
    if vector:
        return n, m1 + c * delta, _fma(delta * c, delta * t(m0), m2 + m2_add)
    return n, _fma(c, delta, m1), m2 + _fma(delta * delta * c, t(m0), m2_add)


def rowwise_moments(x: np.ndarray):
    """``RowwiseMoments`` of each row of the 2-d float array ``x`` (AVX2 vectors: 8 floats or
    4 doubles, as this PyTorch build runs them): ``(mean, variance)`` in x's dtype."""
    t = x.dtype.type
    lanes = 32 // x.dtype.itemsize
    rows, width = x.shape
    n = width // lanes
    token = quiet()
    try:
        vec = x[:, :n * lanes].reshape(rows, n, lanes)
        chunks = -(-n // _CHUNK)
        depth = 1 if chunks <= 2 else int(chunks - 1).bit_length()  # (CeilLog2)
        zero = np.zeros((rows, lanes), x.dtype)
        stack = [[0, zero, zero] for _ in range(depth)]  # the cascade: count, mean, m2
        inv = [t(1) / t(j + 1) for j in range(_CHUNK)]
        for i in range(chunks):
            chunk = vec[:, i * _CHUNK:(i + 1) * _CHUNK]
            m1, m2 = zero, zero
            for j in range(chunk.shape[1]):
                xv = chunk[:, j]
                delta = xv - m1
                m1 = _fma(delta, inv[j], m1)
                m2 = _fma(delta, xv - m1, m2)
            stack[0] = list(_merge(chunk.shape[1], m1, m2, *stack[0], vector=True))
            mask, j = i + 1, 1
            while j < depth and (mask & 1) == 0:
                stack[j] = list(_merge(*stack[j - 1], *stack[j], vector=True))
                stack[j - 1] = [0, zero, zero]
                mask >>= 1
                j += 1
        for level in stack[1:]:
            stack[0] = list(_merge(*level, *stack[0], vector=True))
        lane_m1, lane_m2 = stack[0][1], stack[0][2]
        m0, m1, m2 = 0, np.zeros(rows, x.dtype), np.zeros(rows, x.dtype)
        for i in range(n * lanes, width):  # the rest, one by one
            xs = x[:, i]
            delta = xs - m1
            m0 += 1
            m1 = m1 + delta / t(m0)
            m2 = m2 + delta * (xs - m1)
        for lane in range(lanes):
            m0, m1, m2 = _merge(n, lane_m1[:, lane], lane_m2[:, lane], m0, m1, m2,
                                vector=False)
        return m1, m2 / t(width)
    finally:
        restore(token)


def fma(a: np.ndarray, b, c) -> np.ndarray:
    """``a * b + c`` rounded once, in ``a``'s dtype: float32 through float64 (the product is
    exact there); float64 by Dekker's exact product (its low part added last)."""
    token = quiet()
    try:
        if a.dtype == np.float32:
            return (a.astype(np.float64) * np.float64(b) + c).astype(np.float32)
        p = a * b
        hi_a, hi_b = _split(a), _split(np.asarray(b, a.dtype))
        lo_a, lo_b = a - hi_a, b - hi_b
        err = ((hi_a * hi_b - p) + hi_a * lo_b + lo_a * hi_b) + lo_a * lo_b
        total = p + c  # (Knuth's two-sum: the rounding error of p + c, added back with err)
        back = total - p
        out = total + (((p - (total - back)) + (c - back)) + err)
        return np.where(np.isfinite(p) & np.isfinite(err), out, p + c)
    finally:
        restore(token)


def _fma(a, b, c):
    a, b, c = np.asarray(a), np.asarray(b), np.asarray(c)
    dt = np.result_type(a, b, c)
    return fma(np.broadcast_to(a.astype(dt), np.broadcast_shapes(a.shape, b.shape, c.shape)),
               b, c)


def _split(v: np.ndarray) -> np.ndarray:
    """The high half of each double's mantissa (Veltkamp's split)."""
    s = v * 134217729.0  # 2 ** 27 + 1
    return s - (s - v)
