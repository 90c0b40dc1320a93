"""Making tensors: ``tensor``, ``ones``, ``zeros``, ``arange``, random tensors and friends.

Random tensors come from PyTorch's CPU generator (``_mt19937``) and PyTorch's sampling rules
(``_sampling``): after ``manual_seed(s)`` they are the numbers PyTorch prints for the same seed.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from . import _sampling
from ._device import check as _check_device
from ._dtype import _Defaults, float32, from_numpy_dtype, int64
from ._dtype import bool as bool_
from ._dtype import dtype as _dtype_cls
from ._mt19937 import Generator, default_generator
from ._tensor import Tensor
from ._types import check_device, unsupported

__all__ = ["tensor", "as_tensor", "from_numpy", "ones", "zeros", "ones_like", "zeros_like",
           "full", "full_like", "empty", "empty_like", "arange", "linspace", "eye", "rand",
           "randn", "randint", "rand_like", "randn_like", "manual_seed", "seed", "initial_seed",
           "Generator", "default_generator"]


def manual_seed(seed) -> Generator:
    """Seed the default generator: random tensors then repeat run after run, and are the
    numbers PyTorch draws for the same seed.

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(3)
    tensor([0.4963, 0.7682, 0.0885])
    """
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    """Seed the default generator from the operating system; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator started from."""
    return default_generator.initial_seed()


def _infer_dtype(obj):
    """PyTorch's inference for nested Python data: bool < int64 < default float."""
    kind = -1  # stays -1 when there are no numbers at all, e.g. []
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, Tensor):
            k = 2 if x._data.dtype.kind == "f" else (0 if x._data.dtype.kind == "b" else 1)
            kind = max(kind, k)
        elif isinstance(x, (bool, np.bool_)):
            kind = max(kind, 0)
        elif isinstance(x, (int, np.integer)):
            kind = max(kind, 1)
        elif isinstance(x, (float, np.floating)):
            kind = 2
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")
    return (bool_, int64, _Defaults.float)[kind] if kind >= 0 else _Defaults.float


def _nested_array(data):
    if isinstance(data, (list, tuple)):
        return np.array([_nested_array(d) for d in data]) if data else np.array([])
    if isinstance(data, Tensor):
        return data._data
    return data


def _finish(data: np.ndarray, requires_grad: bool, device=None) -> Tensor:
    if device is not None:
        _check_device(device)
    t = Tensor._wrap(data)
    if requires_grad:
        if data.dtype.kind != "f":  # PyTorch's factory message (requires_grad_ has its own)
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t.requires_grad_(True)
    return t


def tensor(data, *, dtype=None, device=None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, or an ndarray).

    >>> tensor([[1., 2.], [3., 4.]])
    tensor([[1., 2.],
            [3., 4.]])
    >>> tensor([1, 2]).dtype, tensor(2.5).dtype
    (torch.int64, torch.float32)
    """
    check_device(device)
    unsupported("tensor", pin_memory=pin_memory)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        arr = data._data
        d = dtype or data.dtype
    elif isinstance(data, (np.ndarray, np.generic)):  # a NumPy scalar keeps its dtype too
        arr, d = np.asarray(data), dtype or from_numpy_dtype(np.asarray(data).dtype)
    else:
        d = dtype or _infer_dtype(data)
        arr = _nested_array(data)
    return _finish(np.array(arr, dtype=d.np, copy=True), requires_grad, device)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    _check_device(device)
    if isinstance(data, Tensor) and (dtype is None or data.dtype is dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or from_numpy_dtype(data.dtype) is dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``ndarray`` (changes to one show in the other)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    from_numpy_dtype(ndarray.dtype)
    return Tensor._wrap(ndarray)


def _size(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not isinstance(s, (int, np.integer)) and not (isinstance(s, Tensor) and s.numel() == 1):
            raise TypeError(f"ones(): argument 'size' must be tuple of ints, but found element of "
                            f"type {type(s).__name__}")
        if int(s) < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {int(s)}: "
                               f"[{', '.join(str(int(x)) for x in size)}]")
    return tuple(int(s) for s in size)


def _np(dtype):
    return (dtype or _Defaults.float).np


def ones(*size, dtype=None, device=None, requires_grad: bool = False, out=None) -> Tensor:
    """A tensor of ones of the given size."""
    unsupported("ones", out=out)
    return _finish(np.ones(_size(size), _np(dtype)), requires_grad, device)


def zeros(*size, dtype=None, device=None, requires_grad: bool = False, out=None) -> Tensor:
    """A tensor of zeros of the given size."""
    unsupported("zeros", out=out)
    return _finish(np.zeros(_size(size), _np(dtype)), requires_grad, device)


def empty(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of the given size (minigrad fills it with zeros)."""
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of the given size filled with ``fill_value`` (dtype inferred from it)."""
    check_device(device)
    d = dtype or _infer_dtype(fill_value)
    return _finish(np.full(_size((size,)), fill_value, d.np), requires_grad, device)


def _like(input, dtype):
    return input._data.shape, (dtype or input.dtype).np


def ones_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    shape, d = _like(input, dtype)
    return _finish(np.ones(shape, d), requires_grad, device)


def zeros_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    shape, d = _like(input, dtype)
    return _finish(np.zeros(shape, d), requires_grad, device)


def empty_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None,
              requires_grad: bool = False) -> Tensor:
    check_device(device)
    shape, d = _like(input, dtype)
    return _finish(np.full(shape, fill_value, d), requires_grad, device)


def arange(start, end=None, step=1, *, dtype=None, device=None,
           requires_grad: bool = False) -> Tensor:
    """Values from ``start`` up to (not including) ``end`` in steps of ``step``."""
    check_device(device)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    d = dtype or _infer_dtype([start, end, step])
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    n = int(np.ceil((end - start) / step))
    data = (start + np.arange(n, dtype=np.float64) * step).astype(d.np)
    return _finish(data, requires_grad, device)


def linspace(start, end, steps: int, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    check_device(device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return _finish(np.linspace(start, end, steps).astype(_np(dtype)), requires_grad, device)


def eye(n: int, m: int | None = None, *, dtype=None, device=None,
        requires_grad: bool = False) -> Tensor:
    """An ``n`` x ``m`` identity matrix."""
    return _finish(np.eye(n, m, dtype=_np(dtype)), requires_grad, device)


def _gen(generator) -> Generator:
    return default_generator if generator is None else generator


def rand(*size, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Uniform random numbers in [0, 1)."""
    check_device(device)
    shape = _size(size)
    data = _sampling.uniform(_gen(generator), math.prod(shape), _np(dtype)).reshape(shape)
    return _finish(data, requires_grad, device)


def randn(*size, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Standard normal random numbers."""
    check_device(device)
    shape = _size(size)
    data = _sampling.normal(_gen(generator), math.prod(shape), _np(dtype)).reshape(shape)
    return _finish(data, requires_grad, device)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """Random integers in [low, high)."""
    check_device(device)
    if size is None:
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    shape = _size((size,))
    data = _sampling.random_ints(_gen(generator), math.prod(shape), int(low), int(high))
    return _finish(data.reshape(shape).astype((dtype or int64).np), requires_grad, device)


def rand_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    return rand(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    return randn(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def _legacy_tensor_data(args, dtype) -> np.ndarray:
    """``Tensor(...)``: sizes make zeros; data is copied as float32."""
    d = (dtype or float32).np
    if len(args) == 0:
        return np.zeros((0,), d)
    if all(isinstance(a, (int, np.integer)) for a in args):
        return np.zeros(tuple(int(a) for a in args), d)
    if len(args) == 1:
        a = args[0]
        if isinstance(a, Tensor):
            return a._data
        if isinstance(a, (tuple, list)) and a and all(isinstance(x, int) for x in a) is False \
                or isinstance(a, (tuple, list, np.ndarray)):
            return np.array(_nested_array(a) if not isinstance(a, np.ndarray) else a, dtype=d)
    raise TypeError(f"new(): invalid data type '{type(args[0]).__name__}'")


_ = _dtype_cls
