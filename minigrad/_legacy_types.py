"""The legacy typed tensor classes: ``torch.FloatTensor``, ``torch.LongTensor``...

Older tutorials (and many Chinese ones) make tensors with them and test types with them::

    >>> import minigrad as torch
    >>> torch.FloatTensor([1, 2])
    tensor([1., 2.])
    >>> torch.LongTensor(2, 3).shape          # sizes make a tensor of that shape
    torch.Size([2, 3])
    >>> x = torch.tensor([1.5, 2.5])
    >>> isinstance(x, torch.FloatTensor), x.type()
    (True, 'torch.FloatTensor')
    >>> x.type(torch.LongTensor)
    tensor([1, 2])

As in PyTorch, these classes are not subclasses of ``Tensor`` (what they make is a plain
``Tensor``): each is an instance of the metaclass ``tensortype``, which makes ``isinstance``
compare the tensor's dtype, and calling the class runs PyTorch's legacy constructor ``new()``.
Where PyTorch fills a new tensor with whatever memory held, minigrad gives zeros.
"""

from __future__ import annotations

import numpy as np

from . import _dtype
from ._tensor import Tensor
from ._types import Size

__all__ = ["tensortype", "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor",
           "ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor"]

_SIGNATURES = """ * (*, torch.device device = None)
 * (torch.Storage storage)
 * (Tensor other)
 * (tuple of ints size, *, torch.device device = None)
 * (object data, *, torch.device device = None)
"""


class tensortype(type):
    """The type of ``torch.FloatTensor`` and its siblings (PyTorch's ``torch.tensortype``)."""

    dtype: _dtype.dtype
    is_cuda = False
    is_sparse = False

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args, device=None, **kwargs):
        if kwargs:
            got = ", ".join([type(a).__name__ for a in args]
                            + [f"{k}=torch.dtype" if isinstance(v, _dtype.dtype)
                               else f"{k}={type(v).__name__}" for k, v in kwargs.items()])
            first, rest = _SIGNATURES.split("\n", 1)
            raise TypeError(f"new() received an invalid combination of arguments - got ({got}), "
                            f"but expected one of:\n{first}\n      didn't match because some of "
                            f"the keywords were incorrect: {', '.join(kwargs)}\n{rest}")
        if device is not None and str(device).split(":")[0] != "cpu":
            kind = str(device).split(":")[0]
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: "
                               f"{kind} was passed")
        return legacy_new(cls.dtype, args, same_dtype=True)


tensortype.__module__ = "torch"


def _options(d: _dtype.dtype) -> str:
    return (f"TensorOptions(dtype={d._c_type}, device=cpu, layout=Strided, requires_grad=false "
            f"(default), pinned_memory=false (default), memory_format=(nullopt))")


def legacy_new(dtype: _dtype.dtype, args: tuple, same_dtype: bool) -> Tensor:
    """PyTorch's legacy ``new(*args)``: no argument makes an empty tensor; integers or a
    ``torch.Size`` make a tensor of that shape (zeros here); a tensor is aliased (of the same
    dtype where ``same_dtype``); anything else is data, converted to ``dtype``."""
    from ._creation import tensor
    from ._ops.indexing import alias

    if not args:
        return Tensor._wrap(np.zeros((0,), dtype.np))
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if same_dtype and first.dtype is not dtype:
            raise TypeError(f"expected {_options(dtype)} (got {_options(first.dtype)})")
        return alias(first)
    if len(args) == 1 and isinstance(first, Size):
        args = tuple(first)
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_))
           for a in args):
        sizes = [int(a) for a in args]
        negative = [s for s in sizes if s < 0]
        if negative:
            raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: "
                               f"{sizes}")
        return Tensor._wrap(np.zeros(tuple(sizes), dtype.np))
    if len(args) > 1 and not isinstance(first, (int, np.integer)):
        shown = ", ".join(f"!{_described(a)}!" for a in args)
        first_line, rest = _SIGNATURES.split("\n", 1)
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)}), but expected one of:\n"
                        f"{first_line}\n      didn't match because some of the arguments have "
                        f"invalid types: ({shown})\n{rest}")
    if len(args) > 1:
        bad = next(i for i, a in enumerate(args) if not isinstance(a, (int, np.integer)))
        raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {bad + 1} "
                        f"with error \"type must be tuple of ints,but got "
                        f"{type(args[bad]).__name__}\"")
    if isinstance(first, str):
        raise TypeError(f"new(): invalid data type '{type(first).__name__}'")
    if not isinstance(first, (list, tuple, np.ndarray)):
        name = type(first).__name__
        if isinstance(first, np.generic):
            name = "numpy." + name
        raise TypeError(f"new(): data must be a sequence (got {name})")
    return tensor(first, dtype=dtype)


def _described(value) -> str:
    """How PyTorch's argument parser names a value's type (``list of [int]``)."""
    if isinstance(value, list):
        return f"list of [{', '.join(type(v).__name__ for v in value)}]"
    return type(value).__name__


def _legacy(name: str, dtype):
    """One typed tensor class, printed as PyTorch prints it: ``<class 'torch.FloatTensor'>``."""
    return tensortype(name, (), {"dtype": dtype, "__module__": "torch", "__qualname__": name})


FloatTensor = _legacy("FloatTensor", _dtype.float32)
DoubleTensor = _legacy("DoubleTensor", _dtype.float64)
HalfTensor = _legacy("HalfTensor", _dtype.float16)
BFloat16Tensor = _legacy("BFloat16Tensor", _dtype.bfloat16)
ByteTensor = _legacy("ByteTensor", _dtype.uint8)
CharTensor = _legacy("CharTensor", _dtype.int8)
ShortTensor = _legacy("ShortTensor", _dtype.int16)
IntTensor = _legacy("IntTensor", _dtype.int32)
LongTensor = _legacy("LongTensor", _dtype.int64)
BoolTensor = _legacy("BoolTensor", _dtype.bool)

BY_DTYPE = {c.dtype: c for c in (FloatTensor, DoubleTensor, HalfTensor, BFloat16Tensor,
                                 ByteTensor, CharTensor, ShortTensor, IntTensor, LongTensor,
                                 BoolTensor)}
