"""``torch.autograd.Variable``: the old wrapper, kept as PyTorch keeps it.

Since PyTorch 0.4 a Variable *is* a Tensor: ``Variable(t, requires_grad=True)`` returns a
tensor (``type(...)`` is ``Tensor``) sharing ``t``'s data.

>>> import minigrad as torch
>>> from minigrad.autograd import Variable
>>> v = Variable(torch.ones(2), requires_grad=True)
>>> type(v).__name__, v
('Tensor', tensor([1., 1.], requires_grad=True))
"""

from __future__ import annotations

import warnings

from .._tensor import Tensor
from .._torch_names import TorchNamed

__all__ = ["Variable"]


class _VariableMeta(TorchNamed):
    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: a Tensor (``isinstance`` checks pass)."""

    def __new__(cls, *args, **kwargs):
        data, requires_grad, volatile, grad_fn = _legacy_arguments(args, kwargs)
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                          "instead.", UserWarning, stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if grad_fn is not None and not getattr(grad_fn, "_custom", False):  # a Function's ctx
            raise TypeError(f"_grad_fn has to be a Function object or None, but got "
                            f"{type(grad_fn).__name__}")
        if data is None:  # legacy serialization code (and nn.Parameter()) make an empty tensor
            from .._creation import tensor

            out = tensor([])
        elif isinstance(data, Tensor):
            out = data.detach()
        else:
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if grad_fn is not None:
            raise RuntimeError("_grad_fn argument to legacy Variable constructor is no longer "
                               "supported.  Instead, please invoke your _grad_fn to produce a "
                               "variable with it as the _grad_fn.")
        if requires_grad:
            if out._data.dtype.kind not in "fc":  # (the C++ message, not requires_grad_'s)
                raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                                   "gradients")
            out.requires_grad_(True)
        return out


_NAMES = ("data", "requires_grad", "volatile", "_grad_fn", "name")


def _legacy_arguments(args, kwargs) -> tuple:
    """PyTorch's legacy constructor reads (data, requires_grad, volatile, _grad_fn, name)."""
    if len(args) > len(_NAMES):
        raise TypeError(f"function takes at most 5 arguments ({len(args) + len(kwargs)} given)")
    values = dict(zip(_NAMES, args))
    for key, v in kwargs.items():
        if key not in _NAMES:
            raise TypeError(f"'{key}' is an invalid keyword argument for this function")
        if key in values:
            raise TypeError(f"argument for function given by name ('{key}') and position "
                            f"({_NAMES.index(key) + 1})")
        values[key] = v
    return (values.get("data"), bool(values.get("requires_grad", False)),
            bool(values.get("volatile", False)), values.get("_grad_fn"))
