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
from ._dtype import check as _check_dtype
from ._dtype import dtype as _dtype_cls
from ._layout import like_input
from ._mt19937 import Generator, default_generator
from ._range_values import arange_values, integer_arange_length, linspace_values, logspace_values
from ._sizes import allocate, arange_length, check_eye, check_linspace
from ._sizes import size_of as _size
from ._tensor import Tensor
from ._tensor_data import fill_value as _fill_value
from ._tensor_data import infer_dtype as _infer_dtype
from ._tensor_data import to_array
from ._types import Size, check_device, invalid_combination, unsupported

_REQUIRED = object()  # an argument PyTorch requires (its "missing ... arguments" message)

__all__ = ["tensor", "as_tensor", "from_numpy", "ones", "zeros", "ones_like", "zeros_like",
           "full", "full_like", "empty", "empty_like", "arange", "linspace", "logspace", "eye",
           "rand", "randn", "randint", "rand_like", "randn_like", "manual_seed", "seed",
           "initial_seed", "Generator", "default_generator"]


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


def _finish(data: np.ndarray, requires_grad: bool, device=None, fn: str | None = None,
            strided: bool = False) -> Tensor:
    if fn is not None and not isinstance(requires_grad, bool):
        raise TypeError(f"{fn}(): argument 'requires_grad' must be bool, not "
                        f"{type(requires_grad).__name__}")
    if device is not None:
        _check_device(device)
    t = Tensor._wrap(data)
    if strided:  # (a copy of a given array or tensor: its strides even where it is empty)
        t._data = data
    if requires_grad:
        if data.dtype.kind != "f":  # PyTorch's factory message (requires_grad_ has its own)
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t.requires_grad_(True)
    return t


def tensor(data=_REQUIRED, *, dtype=None, device=None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, or an ndarray).

    >>> tensor([[1., 2.], [3., 4.]])
    tensor([[1., 2.],
            [3., 4.]])
    >>> tensor([1, 2]).dtype, tensor(2.5).dtype
    (torch.int64, torch.float32)
    """
    if data is _REQUIRED:
        raise TypeError('tensor() missing 1 required positional arguments: "data"')
    check_device(device)
    unsupported("tensor", pin_memory=pin_memory)
    dtype = _check_dtype(dtype, "tensor")
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    arr, d = to_array(data, dtype)
    given = data._data if isinstance(data, Tensor) else data if isinstance(data, np.ndarray) \
        else None  # (PyTorch copies an array or a tensor with preserve_format: its strides)
    return _finish(arr if given is None else like_input(arr, given), requires_grad, device,
                   "tensor", strided=given is not None)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    _check_device(device)
    dtype = _check_dtype(dtype, "as_tensor")
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
    t = Tensor._wrap(ndarray)
    t._data = ndarray  # (its strides even where it is empty, as in PyTorch)
    return t


def _dtype_arg(dtype, fn, *args):
    """A ``dtype=`` argument checked; PyTorch's overload error for ``fn(*args, dtype=...)``."""
    if dtype is None or type(dtype) is _dtype_cls:
        return dtype
    args = [a for a in args if a is not None]
    return _check_dtype(dtype, fn, error=invalid_combination(fn, args, {"dtype": dtype}))


def _np(dtype, fn: str = "zeros", *args):
    """The NumPy dtype for ``fn``'s ``dtype=`` (default: the default float); with ``args``,
    a bad one gets PyTorch's overload error (arange, eye, linspace), else its argument error."""
    if dtype is not None and type(dtype) is not _dtype_cls:
        dtype = _dtype_arg(dtype, fn, *args) if args else _check_dtype(dtype, fn)
    return (dtype or _Defaults.float).np


def _filled(make, fn: str, size: tuple, dtype, requires_grad, device) -> Tensor:
    """``make`` (np.zeros or np.ones) of ``size`` for the creation function ``fn``."""
    if not size:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "size"')
    shape = _size(size, fn)
    return _finish(allocate(make, shape, _np(dtype, fn)), requires_grad, device, fn)


def _sizes(name: str, sizes: tuple, size) -> tuple:
    """The shape arguments as given: ``name(2, 3)``, ``name((2, 3))`` or ``name(size=(2, 3))``."""
    if size is None:
        return sizes
    if sizes and name.startswith("rand"):
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({', '.join(type(s).__name__ for s in sizes)}, size=tuple), but "
                        "expected one of:")
    if sizes:
        raise TypeError(f"{name}() got multiple values for argument 'size'")
    return (size,)


def ones(*sizes, size=None, dtype=None, device=None, requires_grad: bool = False,
         out=None) -> Tensor:
    """A tensor of ones of the given size (``ones(2, 3)``, ``ones((2, 3))``, ``ones(size=...)``)."""
    if out is not None:
        from ._ops.out import write_out
        return write_out(ones, out, *sizes, size=size, dtype=dtype, device=device,
                         requires_grad=requires_grad)
    return _filled(np.ones, "ones", _sizes("ones", sizes, size), dtype, requires_grad, device)


def zeros(*sizes, size=None, dtype=None, device=None, requires_grad: bool = False,
          out=None) -> Tensor:
    """A tensor of zeros of the given size."""
    if out is not None:
        from ._ops.out import write_out
        return write_out(zeros, out, *sizes, size=size, dtype=dtype, device=device,
                         requires_grad=requires_grad)
    return _filled(np.zeros, "zeros", _sizes("zeros", sizes, size), dtype, requires_grad, device)


def empty(*sizes, size=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of the given size (minigrad fills it with zeros)."""
    return _filled(np.zeros, "empty", _sizes("empty", sizes, size), dtype, requires_grad, device)


def full(size=_REQUIRED, fill_value=_REQUIRED, *extra, dtype=None, device=None,
         requires_grad: bool = False) -> Tensor:
    """A tensor of the given size filled with ``fill_value`` (dtype inferred from it)."""
    if extra:  # (PyTorch's message: Python's would say "from 0 to 2")
        raise TypeError(f"full() takes 2 positional arguments but {2 + len(extra)} were given")
    if fill_value is _REQUIRED:
        raise TypeError('full() missing 2 required positional argument: "size", "fill_value"'
                        if size is _REQUIRED else
                        'full() missing 1 required positional arguments: "fill_value"')
    check_device(device)
    if not isinstance(size, (tuple, list)):
        raise TypeError("full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    if not isinstance(fill_value, (int, float, np.number, np.bool_, Tensor)):
        raise TypeError("full(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(fill_value).__name__}")
    d = _check_dtype(dtype, "full") or _infer_dtype(fill_value)
    value = _fill_value(fill_value, d, "full")
    return _finish(allocate(np.full, _size((size,), "full"), d.np, value), requires_grad, device)


def _like(input, dtype, fn):
    if not isinstance(input, Tensor):
        raise TypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return (_check_dtype(dtype, fn) or input.dtype).np


def _laid_out_like(input, d, fill=0) -> np.ndarray:
    """``fill`` in dtype ``d``, laid out as PyTorch's ``*_like(input)`` lays out its result
    (``memory_format=torch.preserve_format``): a transposed input gives a transposed result,
    an input whose elements share memory (``expand``) a row-major one."""
    return like_input(np.full(input._data.shape, fill, d), input._data)


def _random_like(input, dtype, requires_grad, fn, kernel, draw) -> Tensor:
    """``rand_like``/``randn_like``: ``draw(generator, n, dtype, contiguous)`` numbers written
    into the new tensor's memory in order, as PyTorch's sampling kernels write them."""
    d = _like(input, dtype, fn + "_like")
    if d.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{from_numpy_dtype(d)._cpp}'")
    out = _laid_out_like(input, d)
    values = draw(default_generator, out.size, d, out.flags.c_contiguous)
    axes = sorted(range(out.ndim), key=lambda i: -out.strides[i])  # memory order
    out.transpose(axes)[...] = values.reshape([out.shape[i] for i in axes])
    return _finish(out, requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    d = _like(input, dtype, "ones_like")
    return _finish(_laid_out_like(input, d, 1), requires_grad, device)


def zeros_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    d = _like(input, dtype, "zeros_like")
    return _finish(_laid_out_like(input, d), requires_grad, device)


def empty_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    _like(input, dtype, "empty_like")
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None,
              requires_grad: bool = False) -> Tensor:
    check_device(device)
    d = _like(input, dtype, "full_like")
    value = _fill_value(fill_value, from_numpy_dtype(d), "full_like")
    return _finish(_laid_out_like(input, d, value), requires_grad, device)


def arange(start=_REQUIRED, end=None, step=1, *, dtype=None, device=None,
           requires_grad: bool = False) -> Tensor:
    """Values from ``start`` up to (not including) ``end`` in steps of ``step``."""
    check_device(device)
    given = tuple(a for a in (start, end) if a is not None and a is not _REQUIRED) + (
        (step,) if step != 1 else ())
    if start is None:
        given = (None,)
    d = _dtype_arg(dtype, "arange", *given)
    if end is None:
        start, end = 0, start
    n = arange_length(start, end, step, given)
    if d is not None and d.np.kind == "b":
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    d = d or _infer_dtype([start, end, step])
    if d is int64:
        n = integer_arange_length(start, end, step)
    return _finish(arange_values(start, step, n, d.np), requires_grad, device)


def linspace(start, end, steps=_REQUIRED, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    check_device(device)
    given = (start, end) + (() if steps is _REQUIRED else (steps,))
    check_linspace(start, end, steps, given)
    d = _np(dtype, "linspace", *given)
    if d.kind == "b":  # (0 or 1 steps: filled without the kernel, as in PyTorch)
        if steps in (0, 1):
            return _finish(np.full(steps, bool(start)), requires_grad, device)
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    return _finish(linspace_values(start, end, steps, d), requires_grad, device)


def logspace(start, end, steps=_REQUIRED, base: float = 10.0, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced in the exponent
    (computed as PyTorch computes them: ``minigrad/_range_values.py``)."""
    check_device(device)
    given = (start, end) + (() if steps is _REQUIRED else (steps,))
    check_linspace(start, end, steps, given, "logspace")
    d = _np(dtype, "logspace", *given)
    if d.kind == "b":
        raise NotImplementedError("\"logspace_cpu\" not implemented for 'Bool'")
    return _finish(logspace_values(start, end, steps, base, d), requires_grad, device)


def eye(n: int | None = None, m: int | None = _REQUIRED, *, dtype=None, device=None,
        requires_grad: bool = False) -> Tensor:
    """An ``n`` x ``m`` identity matrix."""
    if n is None:
        raise invalid_combination("eye", ())
    given = (n,) if m is _REQUIRED else (n, m)
    m = None if m is _REQUIRED else m
    d = _np(dtype, "eye", *given)
    check_eye(n, m, given)
    return _finish(np.eye(int(n), None if m is None else int(m), dtype=d), requires_grad, device)


def _gen(generator) -> Generator:
    return default_generator if generator is None else generator


def _random_shape(fn: str, size: tuple, dtype, kernel: str, requires_grad) -> tuple:
    """(shape, NumPy dtype) of ``rand``/``randn``, with PyTorch's errors for bad ones."""
    if not size or not isinstance(requires_grad, bool):
        kwargs = {} if dtype is None else {"dtype": dtype}
        if not isinstance(requires_grad, bool):
            kwargs["requires_grad"] = requires_grad
        raise invalid_combination(fn, size, kwargs)
    shape = _size(size, fn)
    d = _np(dtype, fn, *size)
    allocate(lambda s, dtype: None, shape, d)  # (refuses sizes PyTorch cannot hold)
    if d.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{from_numpy_dtype(d)._cpp}'")
    return shape, d


def rand(*sizes, size=None, generator=None, dtype=None, device=None,
         requires_grad: bool = False) -> Tensor:
    """Uniform random numbers in [0, 1)."""
    return _random("rand", "check_uniform_bounds", _sampling.uniform, sizes, size, generator,
                   dtype, device, requires_grad)


def randn(*sizes, size=None, generator=None, dtype=None, device=None,
          requires_grad: bool = False) -> Tensor:
    """Standard normal random numbers (d2l writes ``randn(size=(2, 3))``)."""
    return _random("randn", "normal_kernel_cpu", _sampling.normal, sizes, size, generator,
                   dtype, device, requires_grad)


def _random(fn: str, kernel: str, sample, sizes, size, generator, dtype, device,
            requires_grad: bool) -> Tensor:
    """``sample(generator, n, dtype)`` numbers from PyTorch's CPU generator, in ``sizes``."""
    check_device(device)
    shape, d = _random_shape(fn, _sizes(fn, sizes, size), dtype, kernel, requires_grad)
    data = sample(_gen(generator), math.prod(shape), d).reshape(shape)
    return _finish(data, requires_grad, device)


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """Random integers in [low, high)."""
    check_device(device)
    given = tuple(a for a in (low, high, size) if a is not None)
    if size is None:
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    if len(given) == 2 and isinstance(size, (tuple, list)) and not _is_int(high):
        raise TypeError("randint(): argument 'high' (position 1) must be int, not "
                        f"{type(high).__name__}")
    if not isinstance(size, (tuple, list)) or not _is_int(low) or not _is_int(high):
        raise invalid_combination("randint", given)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    shape = _size((size,), "randint")
    allocate(lambda s, dtype: None, shape, np.int64)  # (refuses sizes PyTorch cannot hold)
    data = _sampling.random_ints(_gen(generator), math.prod(shape), int(low), int(high))
    return _finish(data.reshape(shape).astype((dtype or int64).np), requires_grad, device)


def rand_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    return _random_like(input, dtype, requires_grad, "rand", "check_uniform_bounds",
                        lambda g, n, d, contiguous: _sampling.uniform(g, n, d))


def randn_like(input, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    return _random_like(input, dtype, requires_grad, "randn", "normal_kernel_cpu",
                        lambda g, n, d, contiguous: _sampling.normal(g, n, d,
                                                                     contiguous=contiguous))


def _legacy_tensor_data(args, dtype) -> np.ndarray:
    """``Tensor(...)``: sizes make zeros; data is copied as float32."""
    d = (dtype or float32).np
    if len(args) == 0:
        return np.zeros((0,), d)
    if len(args) == 1 and isinstance(args[0], Size):  # Tensor(torch.Size([2, 3])): sizes
        args = tuple(args[0])
    if all(isinstance(a, (int, np.integer)) for a in args):
        return np.zeros(tuple(int(a) for a in args), d)
    if len(args) == 1:
        a = args[0]
        if isinstance(a, Tensor):
            return a._data
        if isinstance(a, (tuple, list)) and a and all(isinstance(x, int) for x in a) is False \
                or isinstance(a, (tuple, list, np.ndarray)):
            return to_array(a, dtype or float32)[0]
    raise TypeError(f"new(): invalid data type '{type(args[0]).__name__}'")


_ = _dtype_cls
