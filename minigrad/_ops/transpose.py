"""Swapping dimensions: transpose, permute, t, and the ``.T``, ``.mT``, ``.mH``, ``.H`` properties.

Each returns a *view* (see :mod:`movement`): the same memory, read with the strides swapped.
The backward swaps the gradient's dimensions back.

>>> import minigrad as torch
>>> x = torch.zeros(2, 3, requires_grad=True)
>>> x.t().grad_fn.name(), x.permute(1, 0).grad_fn.name()
('TBackward0', 'PermuteBackward0')
"""

from __future__ import annotations

import numpy as np

from .._state import warn_once
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, should_record
from . import _formula as F
from ._core import method
from .movement import _size_args, u64
from .views import view_of

__all__ = ["transpose", "permute", "t", "swapaxes", "swapdims", "TransposeBackward0",
           "PermuteBackward0", "TBackward0"]


# ---------------------------------------------------------------- transpose / permute / t
class TransposeBackward0(Node):
    """z = self.transpose(dim0, dim1):  swap the two dimensions of the gradient back."""

    rule = _r("z = a.transpose(d0, d1)", {"d0": "dim0", "d1": "dim1"},
              np={"a": "swapaxes(grad, d0, d1)"}, a="grad.transpose(d0, d1)")

    saved = ("dim0", "dim1")

    def backward(self, g):
        return (g if g.ndim == 0 else g.swapaxes(*self._dims),)


class PermuteBackward0(Node):
    """z = self.permute(dims):  apply the inverse permutation to the gradient."""

    rule = _r("z = a.permute(dims)", {"dims": "dims"}, np={"a": "transpose(grad, argsort(dims))"},
              a="grad.permute(the inverse of dims)")

    saved = ("dims",)

    def backward(self, g):
        inverse = tuple(np.argsort(self._order).tolist())
        return (F.permute(g, inverse),)


class TBackward0(Node):
    """The node of ``self.t()``."""

    rule = _r("z = a.t()", a="t(grad)")


@method("transpose", "swapaxes", "swapdims")
def transpose(input, dim0: int, dim1: int) -> Tensor:
    """A view with dimensions ``dim0`` and ``dim1`` swapped (also ``swapaxes``, ``swapdims``)."""
    a, b = input._wrap_dim(dim0), input._wrap_dim(dim1)
    out = input._data.swapaxes(a, b) if input._data.ndim else input._data.view()
    node = None
    if should_record(input):
        node = TransposeBackward0()
        node._s_dim0, node._s_dim1, node._dims = u64(dim0), u64(dim1), (a, b)
    return view_of(input, out, node)


@method("permute")
def permute(input, *dims) -> Tensor:
    """A view with the dimensions reordered: dimension ``i`` of the result is ``dims[i]``."""
    dims = _size_args("permute", dims)
    n = input._data.ndim
    if len(dims) != n:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{n} is not equal to len(dims) = {len(dims)}")
    order = tuple(input._wrap_dim(d) for d in dims)
    if len(set(order)) != n:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    node = None
    if should_record(input):
        node = PermuteBackward0()
        node._s_dims, node._order = tuple(u64(d) for d in dims), order
    return view_of(input, input._data.transpose(order), node)


swapaxes = swapdims = transpose


@method("t")
def t(input) -> Tensor:
    """Transpose of a matrix (a 0-d or 1-d tensor is returned as a view of itself)."""
    n = input._data.ndim
    if n > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {n}D")
    return view_of(input, input._data.T, TBackward0() if should_record(input) else None)


def _T(self):
    n = self._data.ndim
    if n == 0:
        warn_once("T0d", "Tensor.T is deprecated on 0-D tensors. This function is the identity "
                  "in these cases.", 2)
    elif n != 2:
        warn_once(
            "T", "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.", 2)
    return permute(self, tuple(range(n - 1, -1, -1)))


def _matrices(self, name: str):
    """``self`` with its last two dimensions swapped (``.mT``; ``.mH`` and ``.H`` are the same
    for real tensors, which have no complex conjugate); a 0-d tensor is itself, with a warning
    (once per process, as PyTorch's, like ``.T``'s)."""
    n = self._data.ndim
    if n == 0:
        then = "This function is the identity in these cases." if name == "mT" else \
            "Consider using x.conj()."
        warn_once(name, f"Tensor.{name} is deprecated on 0-D tensors. {then}", 3)
        return self
    if name == "H" and n != 2:
        batches = ". For batches of matrices, consider using tensor.mH" if n > 2 else "."
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D "
                           f"tensor{batches}")
    if n < 2:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of "
                           f"matrices. Got {n}-D tensor.")
    return transpose(self, -2, -1)


Tensor.T = property(_T, doc="All dimensions reversed (``permute``); for matrices, the transpose.")
Tensor.mT = property(lambda self: _matrices(self, "mT"), doc="The last two dimensions swapped.")
Tensor.mH = property(lambda self: _matrices(self, "mH"),
                     doc="The conjugate transpose of (batches of) matrices: ``mT`` when real.")
Tensor.H = property(lambda self: _matrices(self, "H"),
                    doc="The conjugate transpose of a matrix: ``mT`` when real.")
