"""dtype conversions: ``to``, ``float()``, ``double()``, ``long()``, ``int()``, ``bool()``, ...

Converting to the dtype a tensor already has returns the tensor itself (no copy, no node).
A differentiable conversion (float32 <-> float64) records ``ToCopyBackward0``, whose
backward casts the gradient back to the input's dtype; conversions to integer or bool types
are not differentiable.

>>> import minigrad as torch
>>> x = torch.tensor([1.5, 2.5], requires_grad=True)
>>> x.float() is x, x.double().grad_fn.name(), x.long()
(True, 'ToCopyBackward0', tensor([1, 2]))
"""

from __future__ import annotations

import builtins

from .. import _dtype, _legacy_types
from .._device import NO_CUDA
from .._device import check as _check_device
from .._device import device as _Device
from .._dtype import dtype as _dtype_cls
from .._layout import like_input
from .._tensor import Tensor
from .._types import invalid_combination, unsupported
from ..autograd._rule import _r
from ..autograd.graph import Node, record, should_record
from ._core import method

__all__ = ["to"]

_ALL = _dtype.SUPPORTED


class ToCopyBackward0(Node):
    """The node of ``self.to(dtype)`` (the engine casts the gradient back to self's dtype)."""

    rule = _r("z = a.to(dtype)", a="grad")


def _to_copy(input, dt):
    data = _dtype.cast(input._data, dt.np)  # as PyTorch casts: no NumPy overflow warnings
    if data is input._data:
        data = data.copy()
    out = Tensor._wrap(like_input(data, input._data))
    if dt.is_floating_point and should_record(input):  # to an integer dtype: not recorded
        record(ToCopyBackward0(), out, input, broadcast=True)
    return out


@method("to")
def to(input, *args, dtype=None, device=None, non_blocking: bool = False, copy: bool = False,
       memory_format=None):
    """This tensor converted to ``dtype`` (or to ``other.dtype`` for ``to(other)``).

    ``to('cpu')`` is accepted (minigrad lives on the CPU). Without a change, and unless
    ``copy=True``, the tensor itself is returned.
    """
    for a in args:
        if isinstance(a, _dtype_cls):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, (str, _Device)):
            device = a
        elif isinstance(a, bool):
            pass  # non_blocking: everything here is synchronous
        elif isinstance(a, int):  # a device index: of an accelerator this machine lacks
            raise RuntimeError("Cannot access accelerator device when none is available.")
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got "
                            f"({type(a).__name__})")
    if dtype is not None and not isinstance(dtype, _dtype_cls):
        dtype = _dtype.check(dtype, "to", error=invalid_combination(
            "to", [a for a in args if not isinstance(a, bool)], {"dtype": dtype}))
    _check_device(device)
    unsupported("to", memory_format=memory_format)
    if dtype is None or dtype.np == input._data.dtype:
        return _to_copy(input, input.dtype) if copy else input
    return _to_copy(input, dtype)


def _converter(dt, name: str):
    def convert(self, memory_format=None):
        unsupported(name, memory_format=memory_format)
        return to(self, dt)

    convert.__name__ = name
    convert.__doc__ = f"``self.to({dt!r})``."
    return convert


for _name, _dt in (("float", _dtype.float32), ("double", _dtype.float64),
                   ("half", _dtype.float16), ("long", _dtype.int64), ("int", _dtype.int32),
                   ("short", _dtype.int16), ("char", _dtype.int8), ("bool", _dtype.bool),
                   ("byte", _dtype.uint8), ("bfloat16", _dtype.bfloat16),
                   ("cfloat", _dtype.complex64), ("cdouble", _dtype.complex128)):
    setattr(Tensor, _name, _converter(_dt, _name))


@method("type_as")
def type_as(input, other):
    """``input`` converted to ``other``'s dtype."""
    return to(input, other.dtype)


@method("type")
def type(input, dtype=None, non_blocking: bool = False):  # noqa: A001
    """Without arguments, the type name (``'torch.FloatTensor'``); else ``to(dtype)``."""
    if dtype is None:
        return "torch." + input.dtype._legacy_name
    if isinstance(dtype, _legacy_types.tensortype):  # x.type(torch.FloatTensor)
        dtype = dtype.dtype
    if dtype is Tensor:  # x.type(torch.Tensor): the default floating type
        dtype = _dtype._Defaults.float
    if isinstance(dtype, builtins.type):  # x.type(int): PyTorch's legacy types only
        raise ValueError(f"invalid type: '{dtype.__name__}'")
    if not isinstance(dtype, (str, _dtype_cls, builtins.type)):
        raise TypeError("dtype must be a type, str, or dtype object")
    if isinstance(dtype, str):  # PyTorch's type names only: "torch.LongTensor", "torch.Tensor"
        match = [d for d in _ALL if dtype == "torch." + d._legacy_name]
        if dtype == "torch.Tensor":
            match = [_dtype._Defaults.float]
        if not match:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = match[0]
    return to(input, dtype)


@method("cpu")
def cpu(input, memory_format=None):
    """The tensor itself: minigrad tensors always live on the CPU."""
    unsupported("cpu", memory_format=memory_format)
    return input


@method("cuda")
def cuda(input, device=None, non_blocking: bool = False):
    raise AssertionError(NO_CUDA)
