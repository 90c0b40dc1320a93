"""Products that contract or combine whole dimensions: ``outer`` (``ger``) and ``tensordot``.

Both are made of other recorded ops (reshape, permute, ``*``, ``mm``), so their graphs are
PyTorch's: ``outer`` is a reshape and a ``MulBackward0``; ``tensordot`` ends in ``MmBackward0``.
"""

from __future__ import annotations

import numpy as np


def outer(input, vec2):
    """``input[i] * vec2[j]``: recorded as PyTorch does (a reshape, then MulBackward0)."""
    return input.reshape(-1, 1) * vec2


ger = outer


def tensordot(a, b, dims=2):
    """Contract the last ``dims`` dims of ``a`` with the first of ``b`` (or given lists)."""
    if isinstance(dims, int):
        if not 0 <= dims <= min(a.dim(), b.dim()):
            bound = ">= 0" if dims < 0 else "< ndim_a or ndim_b"
            raise RuntimeError(f"tensordot expects dims {bound}, but got dims={dims}")
        da, db = list(range(-dims, 0)), list(range(dims))
    else:
        da, db = [list(d) if isinstance(d, (list, tuple)) else [d] for d in dims]
    _tensordot_check(a, b, da, db)
    da = [a._wrap_dim(d) for d in da]
    db = [b._wrap_dim(d) for d in db]
    fa = [d for d in range(a.dim()) if d not in da]
    fb = [d for d in range(b.dim()) if d not in db]
    k = int(np.prod([a.shape[d] for d in da]))
    sa, sb = tuple(a.shape[d] for d in fa), tuple(b.shape[d] for d in fb)
    left = a.permute(*(fa + da)).reshape(int(np.prod(sa)), k)  # (sizes, not -1: k may be 0)
    right = b.permute(*(db + fb)).reshape(k, int(np.prod(sb)))
    shape = sa + sb
    return left.mm(right).reshape(shape)


def _tensordot_check(a, b, da, db) -> None:
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    for i, j in zip(da, db):
        s, t = a.shape[a._wrap_dim(i)], b.shape[b._wrap_dim(j)]
        if s != t and 1 not in (s, t):
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s} in "
                               f"dim {i} and second has size {t} in dim {j}")
