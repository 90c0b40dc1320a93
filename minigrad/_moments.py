"""Means and variances computed the way PyTorch's CPU kernels compute them, step by step, so
that rounding, overflow and NaN come out the same (not only the same formula).

- ``var_all``: ``std``/``var`` with one result (``std_var_all_cpu``): the mean in the input's
  dtype (``x.mean()``), then the squared deviations summed in float64.
- ``welford``: ``std``/``var`` with several results, ``var_mean``, ``std_mean``
  (``WelfordOps`` in float64, one element after the other; for finite float32/float16 input
  float64's two passes, which round to the same values, faster).
- ``rowwise_moments``: ``layer_norm``'s and ``group_norm``'s mean and variance
  (``RowwiseMoments``: Welford on vectors of 8 floats or 4 doubles, in chunks of 16 vectors
  merged as a cascade, the rest one by one, then the vector's lanes merged), in the input's
  dtype: ``x - mean`` squared overflows there, and a merge can give ``inf * 0``, NaN.
- ``fma``: ``a * b + c`` rounded once, as the kernels' compiled multiply-adds; ``fma_sum``:
  products added up one after the other from 0 that way (a kernel's ``acc += a * b``).

>>> import numpy as np
>>> rowwise_moments(np.array([[1e30, 1e30]], np.float32))[1]  # (an overflow times 0)
array([nan], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from ._quiet import quiet, restore

__all__ = ["var_all", "welford", "rowwise_moments", "fma", "fma_sum"]

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
        if rows.dtype != np.float64 and np.isfinite(rows).all():
            # (float32, float16: float64's two passes round to the same values, faster)
            wide = rows.astype(np.float64)
            mean = wide.sum(-1) / n
            m2 = np.square(wide - mean[..., None]).sum(-1)
            n_steps = 0
        else:
            n_steps = n
        for k in range(n_steps):
            x = rows[..., k].astype(np.float64)
            delta = x - mean
            mean = mean + delta / (k + 1)
            m2 = m2 + delta * (x - mean)
        v = m2 / (n - correction if n > correction else 0.0)
        stat = np.sqrt(v) if take_sqrt else v
        return stat.astype(rows.dtype), mean.astype(rows.dtype)  # (overflow: inf, quietly)
    finally:
        restore(token)


def _merge(m0_add, m1_add, m2_add, m0, m1, m2, vector: bool):
    """Chan's merge of ``(count, mean, m2)`` as this build's kernels round it: the vector form
    (``AddMomentsVec``) ``m2 + m2_add + (delta c)(delta m0)`` with one multiply-add, the lanes'
    scalar form (``AddMoments``) ``m2_add + delta^2 c m0`` first: there a huge mean merged
    with an empty side gives ``inf * 0``, NaN (measured against PyTorch 2.13, bit for bit).
    Vector counts may be arrays (one per chunk, the chunks on axis 1)."""
    t = m1.dtype.type
    n = m0 + m0_add
    delta = m1_add - m1
    if vector:
        n_, a_, m_ = (np.asarray(v).astype(m1.dtype)[..., None] for v in (n, m0_add, m0))
        c = np.divide(a_, n_, out=np.zeros_like(n_), where=n_ != 0)
        return n, m1 + c * delta, _fma(delta * c, delta * m_, m2 + m2_add)
    c = t(0) if n == 0 else t(m0_add) / t(n)
    return n, _fma(c, delta, m1), m2 + _fma(delta * delta * c, t(m0), m2_add)


def _chunks(vec: np.ndarray):
    """Welford within each chunk of up to 16 vectors: ``(counts, means, m2s)``, the chunks on
    axis 1 (all full chunks at once, then the short last one)."""
    rows, n, lanes = vec.shape
    full, rest = divmod(n, _CHUNK)
    t = vec.dtype.type
    inv = [t(1) / t(j + 1) for j in range(_CHUNK)]
    parts = []
    for start, size, count in ((0, full * _CHUNK, _CHUNK), (full * _CHUNK, rest, rest)):
        if not size:
            continue
        blocks = vec[:, start:start + size].reshape(rows, -1, count, lanes)
        m1 = m2 = np.zeros((rows, blocks.shape[1], lanes), vec.dtype)
        for j in range(count):
            xv = blocks[:, :, j]
            delta = xv - m1
            m1 = _fma(delta, inv[j], m1)
            m2 = _fma(delta, xv - m1, m2)
        parts.append((np.full(blocks.shape[1], count), m1, m2))
    if not parts:
        return np.zeros(0, int), np.zeros((rows, 0, lanes), vec.dtype), \
            np.zeros((rows, 0, lanes), vec.dtype)
    return tuple(np.concatenate(p, axis=min(i, 1)) for i, p in enumerate(zip(*parts)))


def _cascade(cnt, m1, m2, depth: int, second=None):
    """The chunks merged as RowwiseMoments' stack of ``depth`` levels does it: at each level
    every second arrival is merged into the one before and carried up (the top level keeps
    what it gets); then the levels left over are merged into level 0, bottom up. ``second``:
    the chunks' other halves (float16: each vector of 16 halves is two float vectors, whose
    chunk moments arrive one after the other)."""
    zero = np.zeros((m1.shape[0], 1, m1.shape[2]), m1.dtype)
    empty = (np.zeros(1, int), zero, zero)
    slots = []
    for level in range(depth):
        k = len(cnt)
        firsts = _merge(cnt[0::2], m1[:, 0::2], m2[:, 0::2],
                        np.zeros_like(cnt[0::2]), np.zeros_like(m1[:, 0::2]),
                        np.zeros_like(m1[:, 0::2]), vector=True)
        if second is not None:
            firsts = _merge(*(a[..., 0::2] if a.ndim == 1 else a[:, 0::2] for a in second),
                            *firsts, vector=True)
        pairs = _merge(cnt[1::2], m1[:, 1::2], m2[:, 1::2],
                       *(a[..., :k // 2] if a.ndim == 1 else a[:, :k // 2] for a in firsts),
                       vector=True)
        if second is not None:
            pairs = _merge(*(a[..., 1::2] if a.ndim == 1 else a[:, 1::2] for a in second),
                           *pairs, vector=True)
            second = None  # (the levels above merge whole chunks' moments)
        if level == depth - 1:  # (the top: at most two arrive)
            slots.append(pairs if k == 2 else firsts if k == 1 else empty)
            break
        slots.append(tuple(a[..., -1:] if a.ndim == 1 else a[:, -1:] for a in firsts)
                     if k % 2 else empty)
        cnt, m1, m2 = pairs
    total = slots[0]
    for slot in slots[1:]:
        total = _merge(*slot, *total, vector=True)
    return total[1][:, 0], total[2][:, 0]


def rowwise_moments(x: np.ndarray):
    """``RowwiseMoments`` of each row of the 2-d float array ``x`` (AVX2 vectors: 8 floats or
    4 doubles, as this PyTorch build runs them): ``(mean, variance)`` in x's dtype; float16
    in float32 (its vectors of 16 halves as two float vectors), the moments float32."""
    lanes = 32 // x.dtype.itemsize
    rows, width = x.shape
    n = width // lanes
    half = x.dtype == np.float16
    if half:
        x = x.astype(np.float32)
    t = x.dtype.type
    token = quiet()
    try:
        chunks = -(-n // _CHUNK)
        depth = 1 if chunks <= 2 else int(chunks - 1).bit_length()  # (CeilLog2)
        vec = x[:, :n * lanes].reshape(rows, n, lanes)
        if half:  # (each lane of the 8 floats then holds 2 n elements)
            lane_m1, lane_m2 = _cascade(*_chunks(vec[..., :8]), depth, _chunks(vec[..., 8:]))
            n, lanes = 2 * n, 8
        else:
            lane_m1, lane_m2 = _cascade(*_chunks(vec), depth)
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


def fma(a, b, c) -> np.ndarray:
    """``a * b + c`` rounded once (broadcast; arrays of one float dtype, or numbers): float32
    through float64 (the product is exact there); float64 by Dekker's exact product, its
    low part and the rounding error of the sum added back (Knuth's two-sum)."""
    token = quiet()
    try:
        dt = np.result_type(a, b, c)
        if dt == np.float32:  # (in one float64 buffer: fresh large temporaries are slow)
            shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
            t = np.asarray(a, np.float64)  # (a copy: a is float32)
            t = t if t.shape == shape else np.broadcast_to(t, shape).copy()
            np.multiply(t, np.asarray(b, np.float64), out=t)
            return np.add(t, c, out=t).astype(np.float32)
        a, b = np.asarray(a, dt), np.asarray(b, dt)
        p = a * b
        hi_a, hi_b = _split(a), _split(b)
        lo_a, lo_b = a - hi_a, b - hi_b
        err = ((hi_a * hi_b - p) + hi_a * lo_b + lo_a * hi_b) + lo_a * lo_b
        total = p + c
        back = total - p
        out = total + (((p - (total - back)) + (c - back)) + err)
        return np.where(np.isfinite(p) & np.isfinite(err), out, p + c)
    finally:
        restore(token)


_fma = fma


def fma_sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``acc = a[i] * b[i] + acc`` for each ``i`` along axis 0, from ``acc = 0``, each step
    rounded once (float32: the product is exact in float64; float64: the products' exact
    low parts are found at once, each step adds with Knuth's two-sum, as ``fma`` does)."""
    acc = np.zeros(a.shape[1:], a.dtype)
    token = quiet()
    try:
        if a.dtype == np.float32:
            for row in a.astype(np.float64) * b:
                np.add(row, acc, out=acc, casting="same_kind")
            return acc
        p = a * b
        if not np.isfinite(p).all():  # (inf and NaN: the plain steps, slowly)
            for ra, rb in zip(a, b):
                acc = fma(ra, rb, acc)
            return acc
        hi_a, hi_b = _split(a), _split(b)
        lo_a, lo_b = a - hi_a, b - hi_b
        low = ((hi_a * hi_b - p) + hi_a * lo_b + lo_a * hi_b) + lo_a * lo_b
        for pi, li in zip(p, low):
            total = acc + pi
            back = total - acc
            acc = total + (((acc - (total - back)) + (pi - back)) + li)
        return acc
    finally:
        restore(token)


def _split(v: np.ndarray) -> np.ndarray:
    """The high half of each double's mantissa (Veltkamp's split)."""
    s = v * 134217729.0  # 2 ** 27 + 1
    return s - (s - v)
