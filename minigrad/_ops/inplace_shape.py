"""In-place shape ops (``t_``, ``transpose_``, ``unsqueeze_``, ``squeeze_``, ``resize_``) and
``fill_diagonal_``, with PyTorch's refusals and node names.

An in-place shape op gives the tensor the shape of its out-of-place view and, when recorded,
that view's node under PyTorch's in-place name (``TBackward1`` for ``t_``): the tensor keeps its
identity, its version goes up.

>>> import minigrad as torch
>>> y = torch.ones(2, 3, requires_grad=True) * 1
>>> y.t_().shape, y.grad_fn.name(), y._version
(torch.Size([3, 2]), 'TBackward1', 1)
"""

from __future__ import annotations

import math

import numpy as np

from .._sizes import size_of
from .._tensor import Tensor
from .._types import row_major_strides, unsupported
from ..autograd._rule import _r
from ..autograd.grad_mode import no_grad
from ..autograd.graph import should_record
from ..autograd.reshaped import keep_metadata, not_differentiable
from ._core import method
from .inplace_checks import bump_version, check_inplace
from .linalg import SqueezeBackward4
from .movement import SqueezeBackward0, SqueezeBackward1, SqueezeBackward2, UnsqueezeBackward0
from .transpose import TBackward0, TransposeBackward0
from .views import _storage, as_strided

__all__ = ["t_", "transpose_", "unsqueeze_", "squeeze_", "resize_", "resized_data",
           "fill_diagonal_"]


# ---------------------------------------------------------------- in-place movement
class TBackward1(TBackward0):
    """The node of ``self.t_()`` (in place)."""

    rule = _r("a.t_()  (in place)", a="t(grad)")


class TransposeBackward1(TransposeBackward0):
    """z = self.transpose_(dim0, dim1) (in place):  swap the two dimensions back."""

    rule = _r("a.transpose_(d0, d1)  (in place)", {"d0": "dim0", "d1": "dim1"},
              np={"a": "swapaxes(grad, d0, d1)"}, a="grad.transpose(d0, d1)")


class UnsqueezeBackward1(UnsqueezeBackward0):
    """z = self.unsqueeze_(dim) (in place):  remove the added dimension from the gradient."""

    rule = _r("a.unsqueeze_(dim)  (in place)", {"dim": "dim"}, np={"a": "squeeze(grad, dim)"},
              a="grad.squeeze(dim)")


class SqueezeBackward3(SqueezeBackward0):
    """z = self.squeeze_() (in place):  the removed size-1 dimensions are put back."""

    rule = _r("a.squeeze_()  (in place)", {"shape": "self_sym_sizes"},
              np={"a": "reshape(grad, shape)"}, a="grad.reshape(shape)")


class SqueezeBackward5(SqueezeBackward2):
    """z = self.squeeze_(dims) (in place):  reshape the gradient back."""

    rule = _r("a.squeeze_(dims)  (in place)", {"shape": "self_sym_sizes"},
              np={"a": "reshape(grad, shape)"}, a="grad.reshape(shape)")


# the in-place op's node is the out-of-place op's, under PyTorch's in-place name
_INPLACE = {TBackward0: TBackward1, TransposeBackward0: TransposeBackward1,
            UnsqueezeBackward0: UnsqueezeBackward1, SqueezeBackward0: SqueezeBackward3,
            SqueezeBackward1: SqueezeBackward4, SqueezeBackward2: SqueezeBackward5}


@method("t_")
def t_(self):
    """Transpose a tensor of at most 2 dims in place."""
    check_inplace(self)
    if self._data.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                           f"{self._data.ndim}D")
    return _reshape_inplace(self, Tensor.t)


@method("transpose_", "swapaxes_", "swapdims_")
def transpose_(self, dim0: int, dim1: int):
    """Swap dimensions ``dim0`` and ``dim1`` in place."""
    check_inplace(self)
    return _reshape_inplace(self, Tensor.transpose, dim0, dim1)


@method("unsqueeze_")
def unsqueeze_(self, dim: int):
    """Insert a size-1 dimension at ``dim``, in place."""
    check_inplace(self)
    return _reshape_inplace(self, Tensor.unsqueeze, dim)


@method("squeeze_")
def squeeze_(self, dim=None):
    """Remove size-1 dimensions (all of them, or those among ``dim``), in place."""
    check_inplace(self)
    return _reshape_inplace(self, Tensor.squeeze, *(() if dim is None else (dim,)))


def _reshape_inplace(self, view, *args):
    """Make ``self`` the (view) result ``view(self, *args)``: its data and, when recorded, its
    node (renamed as PyTorch names the in-place op's). Its version goes up, as for every
    in-place op.

    Not recorded (no_grad mode), a tensor with a history keeps its node, which expects
    gradients of the old shape (:func:`~minigrad.autograd.reshaped.keep_metadata`). An integer
    tensor with a history is reshaped, and then refused a node, as in PyTorch."""
    if self._data.dtype.kind not in "fc" and should_record(self):
        with no_grad():
            _reshape_inplace(self, view, *args)
        raise not_differentiable(self._data.dtype)
    new = view(self, *args)
    if new._grad_fn is None and new._data.shape != self._data.shape:
        keep_metadata(self, self._data.shape, self._data.dtype)
    self._data = new._data
    bump_version(self)
    node = new._grad_fn
    if node is not None:
        node.__class__ = _INPLACE[type(node)]
        self._grad_fn, self._output_nr, self._requires_grad = node, 0, True
        if self._base is not None:
            self._view_vc = self._vc[0]  # (up to date: the node is the view's own history)
    return self


@method("resize_")
def resize_(self, *sizes, size=None, memory_format=None):
    """Give the tensor the shape ``sizes``, row-major, over the same memory (its *storage*):
    its values are the storage's from the tensor's first element on, whatever its strides
    were. Refused for a tensor that requires grad, as in PyTorch.

    Where the storage is too small, PyTorch grows it with memory it leaves uninitialised
    (whatever was there); minigrad fills the new elements with zeros, and the tensor gets
    memory of its own (a view no longer shares the new memory with its base, as in PyTorch
    it would).
    """
    shape = _resize_shape(sizes if size is None else (size,))
    if memory_format is not None and getattr(memory_format, "_name", "") != "contiguous_format":
        unsupported("resize_", memory_format=memory_format)
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if shape == self._data.shape:
        return self  # (as in PyTorch: strides and version as they were)
    self._data = resized_data(self, shape)
    bump_version(self)
    return self


def resized_data(self, shape: tuple) -> np.ndarray:
    """``self``'s memory (its storage) from its first element on, as a row-major array of
    ``shape``: grown where it is too small (the new elements zeros, in memory of its own)."""
    data, offset, n = self._data, self.storage_offset(), math.prod(shape)
    stored = _storage(data).nbytes // data.itemsize
    if offset + n <= stored:
        return as_strided(self, shape, row_major_strides(shape), offset)._data
    grown = np.zeros(offset + n, data.dtype)
    grown[:stored] = as_strided(self, (stored,), (1,), 0)._data
    return grown[offset:].reshape(shape)


def _resize_shape(sizes) -> tuple:
    if not sizes:
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    try:
        return size_of(sizes, "resize_")
    except RuntimeError:  # (a negative size: PyTorch's count of elements refuses it)
        raise RuntimeError("numel: integer multiplication overflow") from None


@method("fill_diagonal_")
def fill_diagonal_(self, fill_value, wrap: bool = False):
    """Write ``fill_value`` on the main diagonal, in place (for a tall matrix with ``wrap``,
    also on the diagonals below, every ``columns + 1`` rows).

    As in PyTorch, the diagonal is an ``as_strided`` view that is filled (``fill_``): a leaf
    requiring grad is refused as "a view of a leaf", and the history is a ``CopySlices``.
    """
    if isinstance(fill_value, Tensor) and fill_value._data.ndim == 0:
        fill_value = fill_value.item()  # (a Number argument: PyTorch takes a 0-d tensor as one)
    elif not isinstance(fill_value, (int, float, bool, np.number, np.bool_)):
        raise TypeError("fill_diagonal_(): argument 'fill_value' (position 1) must be Number, "
                        f"not {type(fill_value).__name__}")
    n = self.dim()
    if n < 2:
        raise RuntimeError("dimensions must larger than 1")
    if n > 2 and len(set(self.shape)) > 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    rows, cols = self.shape[0], self.shape[1]
    step, offset = sum(self.stride()), self.storage_offset()
    self.as_strided((min(rows, cols),), (step,), offset).fill_(fill_value)
    if wrap and n == 2 and rows > cols + 1:
        rest = (self.numel() + cols) // (cols + 1) - cols
        self.as_strided((rest,), (step,), offset + self.stride(0) * (cols + 1)).fill_(fill_value)
    return self
