"""The product of elements: ``prod`` (all of them, or along one dim) and its node.

Its gradient is the product of the *other* elements, ``grad * z / a``, written so that zeros
in ``a`` give what PyTorch gives (one zero: only it gets a gradient; two: none does).

>>> import minigrad as torch
>>> x = torch.tensor([2., 3., 4.], requires_grad=True)
>>> x.prod().backward(); x.grad
tensor([12.,  8.,  6.])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.formulas import formula_function
from ..autograd.graph import Node, SavedTensor, should_record
from ._backward import _axis, unsqueeze_dims
from ._core import method
from ._formula import data
from .join import cat
from .movement import u64
from .reduce import _ALL, _keep_shape, _record, reduction_input, total

__all__ = ["prod"]


def _prod_others(x, axis):
    """For each element, the product of the *other* elements along ``axis`` (exact with 0s)."""
    n = x.shape[axis]
    ones = np.ones_like(np.take(x, [0], axis))
    left = np.cumprod(np.concatenate([ones, np.take(x, range(n - 1), axis)], axis), axis)
    rev = np.flip(x, axis)
    right = np.cumprod(np.concatenate([ones, np.take(rev, range(n - 1), axis)], axis), axis)
    return left * np.flip(right, axis)


def _prod_safe_zeros(g, x, axis):
    """``g`` times the product of the *other* elements along ``axis``, exact with zeros
    (PyTorch's prod_safe_zeros_backward: the exclusive cumulative products from both ends)."""
    if not isinstance(x, Tensor):
        return g * _prod_others(x, axis)
    n = x.shape[axis]
    if n == 0:
        return g.expand_as(x)
    ones = Tensor._wrap(np.ones(_keep_shape(x.shape, (axis,)), x._data.dtype))
    left = cat([ones, x.narrow(axis, 0, n - 1)], axis).cumprod(axis)
    right = cat([ones, x.narrow(axis, 1, n - 1).flip(axis)], axis).cumprod(axis).flip(axis)
    return g * (left * right)


def _prod_grad(g, x, r, axis, keepdim):
    """PyTorch's prod_backward: ``g * (result / self)``, or the exact product of the others
    where ``self`` has zeros."""
    xd = data(x)
    if xd.ndim == 0:
        return g
    if axis is not None and not keepdim:
        g, r = unsqueeze_dims(g, (axis,)), unsqueeze_dims(r, (axis,))
    if not (xd == 0).any():
        return g * (r / x)
    if axis is not None:
        return _prod_safe_zeros(g, x, axis)
    flat = x.contiguous().view(-1) if isinstance(x, Tensor) else xd.reshape(-1)
    out = _prod_safe_zeros(g, flat, 0)
    return out.view_as(x) if isinstance(out, Tensor) else out.reshape(xd.shape)


@formula_function
def prod_backward(g, x, r, dim=None, keepdim=True):
    """PyTorch's ``prod_backward``: ``grad * result / self``, made safe where ``self`` has
    zeros (``dim`` as ``_saved_dim`` shows it; None: the product of all)."""
    axis = None if dim is None else _axis(int(dim), np.ndim(data(x)))
    return _prod_grad(g, x, r, axis, keepdim)


class ProdBackward0(Node):
    """z = self.prod():  dz/dself_i = product of all other elements."""

    rule = _r("z = a.prod()", {"a": "self", "z": "result"}, a="prod_backward(grad, a, z)",
              note="prod_backward(grad, a, z) = grad * z / a (made safe where a has zeros)")

    saved = ("result", "self")


class ProdBackward1(Node):
    """z = self.prod(dim, keepdim):  dz/dself_i = product of the others along dim."""

    rule = _r("z = a.prod(dim, keepdim)",
              {"a": "self", "z": "result", "dim": "dim", "keepdim": "keepdim"},
              numbers="dim keepdim", a="prod_backward(grad, a, z, dim, keepdim)",
              note="prod_backward = expand(grad * z, a.shape, dim, keepdim) / a (made safe "
                   "where a has zeros)")

    saved = ("dim", "keepdim", "result", "self")


@method("prod")
def prod(input, dim=None, keepdim: bool = False, *, dtype=None):
    """Product of all elements, or along one dimension ``dim``. Integers multiply as int64."""
    d, nd = reduction_input(input, dtype, "prod", _ALL if dim is None else dim)
    if dim is None:
        out = total(np.prod, d, nd)
        node = ProdBackward0() if should_record(input) else None
    else:
        axis = input._wrap_dim(dim)
        out = total(np.prod, d, nd, axis=axis, keepdims=keepdim) if d.ndim else d.astype(nd)
        node = ProdBackward1() if should_record(input) else None
        if node is not None:
            node._s_dim, node._s_keepdim = u64(dim), keepdim
    t = _record(out, node, input, dtype)
    if node is not None:
        node._s_self = SavedTensor(input)
        node._s_result = SavedTensor(t, node)
    return t
