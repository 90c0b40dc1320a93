"""Products that contract or combine whole dimensions: ``outer`` (``ger``), ``tensordot``,
``inner`` and ``baddbmm`` (a batch of matrix products added to a tensor).

All are made of other recorded ops (reshape, permute, ``*``, ``mm``, ``dot``), so their graphs
are PyTorch's: ``outer`` is a reshape and a ``MulBackward0``; ``tensordot`` and ``inner`` end in
``MmBackward0`` (``DotBackward0`` when nothing is left but the contracted dimension).
``baddbmm`` is one node of its own, ``BaddbmmBackward0``.

>>> import minigrad as torch
>>> torch.inner(torch.tensor([1., 2.]), torch.tensor([[3., 4.], [5., 6.]]))
tensor([11., 17.])
"""

from __future__ import annotations

import numpy as np

from .._dtype import _Defaults, can_cast, int64
from .._dtype import bool as bool_
from .._quiet import quietly
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.grad_mode import no_grad
from ..autograd.graph import Node, SavedTensor, record, should_record
from ._core import method
from .errors import cant_cast, not_implemented

__all__ = ["outer", "ger", "tensordot", "inner", "baddbmm"]


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
    for i, j in zip(da, db):  # a size-1 dim against a longer one: summed first, as PyTorch does
        if b.shape[b._wrap_dim(j)] == 1:
            a = a.sum(i, keepdim=True, dtype=a.dtype)
        elif a.shape[a._wrap_dim(i)] == 1:
            b = b.sum(j, keepdim=True, dtype=b.dtype)
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


# ---------------------------------------------------------------- baddbmm
class BaddbmmBackward0(Node):
    """The node of ``beta * self + alpha * (batch1 @ batch2)``, batch by batch (``self``'s
    gradient is summed back to its shape)."""

    rule = _r("z = beta * c + alpha * bmm(A, B)",
              {"A": "batch1", "B": "batch2", "alpha": "alpha", "beta": "beta"},
              numbers="alpha beta",
              c="grad * beta", A="bmm(grad, mT(B)) * alpha", B="bmm(mT(A), grad) * alpha")

    saved = ("alpha", "batch1", "batch2", "beta")


def _check_baddbmm(input, batch1, batch2) -> tuple:
    """The output's shape, after PyTorch's checks in its order: the sizes it reads first
    (IndexError for too few dimensions), ``input`` expanded to them, the dtypes of ``input`` and
    ``batch1``, the batches' dimensions and sizes, then ``batch2``'s dtype."""
    shape = (batch1.size(0), batch1.size(1), batch2.size(2))
    if tuple(input.shape) != shape:
        with no_grad():
            input.expand(*shape)  # (PyTorch's error for an input that does not expand)
    d, d1, d2 = (t._data.dtype for t in (input, batch1, batch2))
    if d != d1:
        raise RuntimeError(f"Input dtypes must be the same, got: input {input.dtype._c_type}, "
                           f"batch1: {batch1.dtype._c_type}, batch2: {batch2.dtype._c_type}")
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t.dim() != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    b, n, m = batch1.shape
    if tuple(batch2.shape[:2]) != (b, m):
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {m}] but got: [{batch2.shape[0]}, {batch2.shape[1]}].")
    if d1 != d2:
        raise RuntimeError(f"expected scalar type {batch1.dtype._legacy_name[:-6]} but found "
                           f"{batch2.dtype._legacy_name[:-6]}")
    return shape


def _kernel_scalars(input, batch1, shape, alpha, beta) -> tuple:
    """PyTorch's kernel past the checks: nothing to do for an empty result; for an inner size
    of 0 the result is ``input * beta`` in place (an int ``beta`` refused on bool, a float one on
    integers); otherwise bool is refused, and integers take ``alpha``/``beta`` truncated."""
    dt = input.dtype
    if 0 in shape:
        return alpha, beta
    if not batch1.shape[-1]:
        kind = bool_ if isinstance(beta, bool) else int64 if isinstance(beta, int) else \
            _Defaults.float
        if beta != 0 and not can_cast(kind, dt):
            raise cant_cast(kind, dt)
        return alpha, beta
    if dt is bool_:
        raise not_implemented("baddbmm", dt)
    if not dt.is_floating_point:
        return int(alpha), int(beta)
    return alpha, beta


@method("baddbmm", inplace=True)
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` for a batch of matrices (``input`` is
    broadcast; with ``beta=0`` it is not read, so NaN in it does not spread)."""
    recorded = should_record(input, batch1, batch2)
    if recorded:  # (saved first, before any check: an inference tensor is refused first)
        # (each batch is kept for the other's gradient only, as PyTorch keeps them)
        saved = (SavedTensor(batch1) if batch2.requires_grad else None,
                 SavedTensor(batch2) if batch1.requires_grad else None)
    shape = _check_baddbmm(input, batch1, batch2)
    alpha, beta = _kernel_scalars(input, batch1, shape, alpha, beta)
    prod = quietly(np.matmul, batch1._data, batch2._data)
    # (nothing to multiply, an inner size of 0: the product is 0 whatever alpha, inf included)
    out = prod if alpha == 1 or not batch1._data.shape[-1] else quietly(np.multiply, prod, alpha)
    if beta != 0:
        out = quietly(np.add, out, input._data if beta == 1 else input._data * beta)
    result = Tensor._wrap(np.array(np.broadcast_to(out, shape), input._data.dtype))  # (a copy:
    # a broadcast of one element is C-contiguous, but read-only, with strides of 0)
    if recorded:
        node = BaddbmmBackward0()
        node._s_alpha, node._s_beta = alpha, beta
        node._s_batch1, node._s_batch2 = saved
        record(node, result, input, batch1, batch2, broadcast=True)  # (input: summed back)
    return result
