"""Small value types of the tensor API: ``Size``, the CPU ``device``, the version counter,
and argument checks.

>>> import minigrad as torch
>>> torch.zeros(2, 3).shape
torch.Size([2, 3])
>>> torch.tensor([1.], pin_memory=True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
NotImplementedError: tensor(): minigrad does not support pin_memory=; minigrad tensors live in ...
"""

from __future__ import annotations

from array import array

import numpy as np

from ._device import check, cpu, device
from ._torch_names import TorchNamed

__all__ = ["Size", "cpu", "VersionCounter", "check_device", "unsupported", "invalid_combination",
           "check_assigned_grad", "row_major_strides", "element_strides", "as_data"]


def row_major_strides(shape) -> tuple:
    """The strides (in elements) PyTorch gives a row-major tensor of ``shape`` (a size 0 counts
    as 1, so an empty tensor's are not all 0 as NumPy's are)."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def element_strides(a) -> tuple:
    """The strides (in elements) PyTorch shows for a tensor of the array ``a``: its own. (A new
    empty array NumPy made has strides of 0: ``Tensor._wrap`` gives it PyTorch's row-major ones,
    ``as_data``; an empty array given to ``torch.tensor``/``from_numpy``, and the views of it,
    keep theirs, as in PyTorch.)"""
    return tuple(n // a.itemsize for n in a.strides)


def as_data(data) -> np.ndarray:
    """``data`` as a tensor's array (``Tensor._wrap``'s rare path: not a non-empty ndarray). An
    empty array NumPy made with strides of 0 gets PyTorch's row-major ones, so that the views
    and results made of it have PyTorch's strides too (``x.t()`` of a 0x3 tensor: (1, 3))."""
    data = np.asarray(data)
    if data.size or not data.ndim or any(data.strides):
        return data
    return np.ndarray(data.shape, data.dtype, buffer=np.empty(0, data.dtype), strides=tuple(
        s * data.itemsize for s in row_major_strides(data.shape)))


class Size(tuple, metaclass=TorchNamed):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


_Device = device  # the type of ``cpu`` (minigrad/_device.py)


class VersionCounter:
    """``tensor._vc``: the tensor's version counter, made the first time it is needed.

    A counter is a one-element ``array('q')`` shared by a tensor and its views; in-place ops
    do ``t._vc[0] += 1``. It is an ``array`` rather than a list because arrays are not tracked
    by Python's garbage collector: a long chain of ops then leaves fewer objects for it to
    scan (a measurable cost), and most tensors never need a counter at all.
    """

    def __get__(self, tensor, owner=None):
        if tensor is None:
            return self
        counter = tensor._vc = array("q", (0,))
        return counter


check_device = check  # minigrad/_device.py: PyTorch's errors for a CPU-only build


_HOW = {"out": "use the returned tensor instead",
        "pin_memory": "minigrad tensors live in ordinary CPU memory",
        "memory_format": "minigrad keeps NumPy's layout (use .contiguous() for a row-major copy)",
        "is_grads_batched": "call autograd.grad once per gradient",
        "assign": "copy the values in (assign=False) or set the parameters yourself"}


def unsupported(fn: str, **given) -> None:
    """Raise for an argument minigrad accepts (PyTorch's signature) but does not implement,
    when it is given a value other than its default (None/False): never ignore it silently."""
    for name, value in given.items():
        if value is not None and value is not False:
            raise NotImplementedError(f"{fn}(): minigrad does not support {name}=; "
                                      f"{_HOW.get(name, 'leave it out')}")


def invalid_combination(fn: str, args=(), kwargs=None) -> TypeError:
    """PyTorch's ``TypeError`` for arguments that fit none of ``fn``'s signatures (its first
    line, which names the type of each argument given)."""
    kwargs = kwargs or {}
    shown = [type(a).__name__ for a in args]
    named = [f"{k}={type(v).__name__}" for k, v in reversed(kwargs.items())]  # (as PyTorch)
    text = ", ".join(shown + named) if shown else "".join(n + ", " for n in named)
    return TypeError(f"{fn}() received an invalid combination of arguments - got ({text}), "
                     "but expected one of:")


def check_assigned_grad(tensor, value, tensor_type) -> None:
    """PyTorch's errors for ``tensor.grad = value`` with a value that cannot be its gradient."""
    if not isinstance(value, tensor_type):
        raise TypeError("assigned grad expected to be a Tensor or None but got grad of type "
                        f"{type(value).__name__}")
    if value is tensor:
        raise RuntimeError("can't assign Variable as its own grad")
    if value._data.dtype != tensor._data.dtype:
        raise RuntimeError(
            f"attempting to assign a gradient with dtype '{value.dtype._c_type}' to a tensor "
            f"with grad_dtype '{tensor.dtype._cpp}'. The gradient must match the tensor's "
            "grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
            "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
            "caution. Diverging the dtypes of a tensor and its gradient may break downstream "
            "systems that assume they match.")
    if value._data.shape != tensor._data.shape:
        raise RuntimeError(
            f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of size "
            f"'{list(tensor.shape)}'. Please ensure that the gradient and the tensor are the "
            "same size")
