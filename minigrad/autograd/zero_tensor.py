"""PyTorch's ZeroTensor: the zeros some backward formulas return without allocating them.

PyTorch's ``sgn`` of a real tensor has the derivative 0 everywhere, and its formula
(``sgn_backward``) returns ``at::_efficientzerotensor(sizes, options)``: a tensor flagged as
all zeros. Arithmetic knows the flag (``zero * x`` and ``zero / x`` stay such zeros, ``zero + x``
is ``x``), other ops read it as plain zeros, views keep it. A leaf's first ``.grad`` keeps the
tensor itself, so ``.grad`` can be one; it then refuses what would write into it or read its
memory:

- ``x.grad.zero_()``, ``add_``..., and a second ``backward()`` adding into it in place:
  "ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone()
  if you want a mutable tensor."
- ``x.grad.numpy()`` (and ``np.asarray``): " Cannot convert a ZeroTensor to numpy. ..."
  (``numpy(force=True)`` gives the zeros); ``tolist()``.

``x.grad.clone()`` (and any op but the ones above) gives ordinary zeros.

In minigrad a formula's gradient is an array (a :class:`ZeroArray` here) or, under
``create_graph=True``, a tensor whose ``_zero`` is set; a tensor's ``_zero`` is ``False`` unless
it is such a gradient, and only in-place ops and conversions look at it.

>>> import minigrad as torch
>>> x = torch.tensor([-2., 3.], requires_grad=True)
>>> x.sgn().sum().backward()
>>> x.grad
tensor([0., 0.])
>>> x.grad.zero_()  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
RuntimeError: ZeroTensors are immutable. Please use the materialized zero tensor obtained ...
>>> x.grad.clone().zero_()
tensor([0., 0.])
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .grad_mode import is_grad_enabled

__all__ = ["ZeroArray", "efficient_zeros", "as_grad", "added", "refuse_write", "refuse_numpy",
           "IMMUTABLE", "IMMUTABLE_COPY"]

IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using "
             ".clone() if you want a mutable tensor.")
IMMUTABLE_COPY = ("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, "
                  "if you want a mutable zero tensor.")  # (copy_ and index assignment)
TO_NUMPY = " Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array."
NOT_GRAD = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."

_ndarray = np.ndarray  # (a module global: NumPy's __getattr__ stops Python caching np.<name>)
_KEEP = {np.multiply, np.divide, np.matmul}  # a zero operand: zeros (dividing: the numerator)
_BOTH = {np.add, np.subtract}  # zeros only if both are


class ZeroArray(np.ndarray):
    """A read-only array of zeros standing for PyTorch's ZeroTensor in a backward pass."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [x.view(np.ndarray) if isinstance(x, ZeroArray) else x for x in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, ZeroArray) else x
                                  for x in kwargs["out"])
        result = getattr(ufunc, method)(*plain, **kwargs)
        if method != "__call__" or "out" in kwargs:
            return result
        zeros = [isinstance(x, ZeroArray) for x in inputs]
        if (ufunc in _KEEP and (zeros[0] or ufunc is not np.divide and any(zeros))) or \
                (ufunc in _BOTH and all(zeros)):
            return efficient_zeros(np.asarray(result))
        return result


def efficient_zeros(like):
    """PyTorch's ``at::_efficientzerotensor(like.sizes(), like.options())``: for an array a
    :class:`ZeroArray`, for a tensor (under ``create_graph``) a tensor flagged ``_zero``."""
    if isinstance(like, Tensor):
        t = Tensor._wrap(efficient_zeros(like._data).view(np.ndarray))
        t._zero = True
        return t
    z = np.zeros(np.shape(like), np.asarray(like).dtype)
    z.flags.writeable = False
    return z.view(ZeroArray)


def as_grad(g) -> Tensor:
    """A gradient the engine computed, as the tensor a learner gets (``.grad``, the results of
    ``autograd.grad``): a ZeroArray becomes a tensor flagged ``_zero`` (its memory read-only)."""
    if type(g) is _ndarray:
        return Tensor._wrap(g)
    if type(g) is ZeroArray:
        g = g.view(np.ndarray)
        g.flags.writeable = False
        t = Tensor._wrap(g)
        t._zero = True
        return t
    return g if isinstance(g, Tensor) else Tensor._wrap(g)


def added(old, grad):
    """``old.grad + grad`` for a ``.grad`` whose memory is read-only (expanded, or a
    ZeroTensor's: PyTorch's in-place add then refuses it)."""
    refuse_write(old)
    return old._data + grad


def refuse_write(t, copy: bool = False) -> None:
    """PyTorch's refusal to change a ZeroTensor in place (``copy``: copy_'s and ``t[i] = v``'s
    message)."""
    if t._zero:
        raise RuntimeError(IMMUTABLE_COPY if copy else IMMUTABLE)


def refuse_numpy(t) -> None:
    """``t.numpy()`` refused: a ZeroTensor's memory, or a tensor requiring grad in grad mode."""
    if t._zero:
        raise RuntimeError(TO_NUMPY)
    if t.requires_grad and is_grad_enabled():
        raise RuntimeError(NOT_GRAD)
