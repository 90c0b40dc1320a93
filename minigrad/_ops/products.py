"""Products that contract or combine whole dimensions: ``outer`` (``ger``), ``tensordot`` and
``inner``.

All are made of other recorded ops (reshape, permute, ``*``, ``mm``, ``dot``), so their graphs
are PyTorch's: ``outer`` is a reshape and a ``MulBackward0``; ``tensordot`` and ``inner`` end in
``MmBackward0`` (``DotBackward0`` when nothing is left but the contracted dimension).

>>> import minigrad as torch
>>> torch.inner(torch.tensor([1., 2.]), torch.tensor([[3., 4.], [5., 6.]]))
tensor([11., 17.])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ._core import method

__all__ = ["outer", "ger", "tensordot", "inner"]


@method("outer", "ger")
def outer(input, vec2):
    """``input[i] * vec2[j]``: recorded as PyTorch does (a reshape, then MulBackward0)."""
    for name, t in (("self", input), ("vec2", vec2)):
        if isinstance(t, Tensor) and t.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.dim()}-D")
    return input.reshape(-1, 1) * vec2


ger = outer


@method("inner")
def inner(input, other):
    """Sums of products over the last dimension of both (``tensordot`` of those dims); a 0-d
    operand multiplies the other."""
    if not isinstance(other, Tensor):
        raise TypeError(f"inner(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    if not input.dim() or not other.dim():
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got "
                           f"shapes {list(input.shape)} and {list(other.shape)}")
    return tensordot(input, other, ([-1], [-1]))


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
    given_a, given_b = da, db  # (permuted by as given: PyTorch keeps -1 as -1)
    da = [a._wrap_dim(d) for d in da]
    db = [b._wrap_dim(d) for d in db]
    fa = [d for d in range(a.dim()) if d not in da]
    fb = [d for d in range(b.dim()) if d not in db]
    k = int(np.prod([a.shape[d] for d in da]))
    sa, sb = tuple(a.shape[d] for d in fa), tuple(b.shape[d] for d in fb)
    left, right = a.permute(*(fa + given_a)), b.permute(*(given_b + fb))
    if int(np.prod(sa)) == int(np.prod(sb)) == 1:  # (nothing else left: a dot, as PyTorch)
        left, right = (t if t.dim() == 1 else t.reshape(k) for t in (left, right))
        return left.dot(right).reshape(sa + sb)
    left = left.reshape(int(np.prod(sa)), k)  # (sizes, not -1: k may be 0)
    right = right.reshape(k, int(np.prod(sb)))
    return left.mm(right).reshape(sa + sb)


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
