"""The argument checks of ``F.conv1d``/``conv2d``/``conv3d``, with PyTorch's messages, in its
order: the shapes (``check_shape_forward``), then the dtypes, which depend on the kernel
PyTorch picks (oneDNN's or its own slow ones, see :mod:`._conv_kernels`)."""

from __future__ import annotations

import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor import Tensor
from . import _conv_kernels as kernels
from ._kernel_dtypes import refuse

__all__ = ["_check_shapes", "_check_dtypes", "_check_bias_type", "_invalid_arguments"]


def _check_shapes(x, w, b, stride, padding, dilation, groups) -> None:
    """PyTorch's ``check_shape_forward``, in its order."""
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(di <= 0 for di in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    ws = list(w.shape)
    if w.ndim != x.ndim:
        raise RuntimeError(f"Expected {w.ndim}-dimensional input for {w.ndim}-dimensional "
                           f"weight {ws}, but got {x.ndim}-dimensional input of size "
                           f"{list(x.shape)} instead")
    if ws[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at "
                           f"dimension 0, but got weight of size {ws} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{ws}] instead")
    if x.shape[1] != ws[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {ws}, expected input"
                           f"{list(x.shape)} to have {ws[1] * groups} channels, but got "
                           f"{x.shape[1]} channels instead")
    if b is not None and (b.ndim != 1 or b.shape[0] != ws[0]):
        raise RuntimeError(f"Given weight of size {ws}, expected bias to be 1-dimensional with "
                           f"{ws[0]} elements, but got bias of size {list(b.shape)} instead")
    padded = [s + 2 * p for s, p in zip(x.shape[2:], padding)]
    kernel = [di * (k - 1) + 1 for k, di in zip(ws[2:], dilation)]
    if any(p < k for p, k in zip(padded, kernel)):
        raise RuntimeError("Calculated padded input size per channel: ("
                           + " x ".join(map(str, padded)) + "). Kernel size: ("
                           + " x ".join(map(str, kernel)) + "). Kernel size can't be greater "
                           "than actual input size")
    if x.shape[0] and x.shape[1] and 0 in x.shape[2:]:  # (a 1-d input shown as PyTorch's 2-d)
        shape = list(x.shape[:2]) + [1] * (4 - x.ndim) + list(x.shape[2:])
        raise RuntimeError("Only zero batch or zero channel inputs are supported, but got "
                           f"input shape: {shape}")


def _check_dtypes(x, w, b, stride, dilation, groups: int) -> None:
    """PyTorch's dtype checks after the shapes (the bias's came before, unless the padding was
    a string), which differ for its MKLDNN backend (a float32 input, see
    :func:`._conv_kernels.mkldnn`: the weight's, then the bias's) and its slow kernels (the
    kernel's dtypes, then the weight's)."""
    if x.dtype == np.float32 and w.ndim > 2 and kernels.mkldnn(x.shape, w.shape, stride,
                                                                dilation, groups):
        for name, other in (("weight", w), ("bias", b)):
            if other is not None and other.dtype != x.dtype:
                raise RuntimeError(f"Input type ({Tensor._wrap(x[:0]).type()}) and {name} type "
                                   f"({Tensor._wrap(other[:0]).type()}) should be the same or "
                                   f"input should be a MKLDNN tensor and {name} is a dense tensor")
        return
    if any(d > 1 for d in dilation):
        refuse("slow_conv_dilated<>", x, "fc" if x.dtype != np.int64 else "fci")
    else:
        refuse("slow_conv2d_cpu", x, "fiuc")
    if w.dtype != x.dtype:
        raise RuntimeError(f"expected scalar type {from_numpy_dtype(x.dtype)._cpp} but found "
                           f"{from_numpy_dtype(w.dtype)._cpp}")


def _check_bias_type(x, b) -> None:
    if b.dtype != x.dtype:
        raise RuntimeError(f"Input type ({_C_TYPES[x.dtype.name]}) and bias type "
                           f"({_C_TYPES[b.dtype.name]}) should be the same")


_C_TYPES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool", "float32": "float", "float64": "double",
            "float16": "c10::Half"}


def _invalid_arguments(d: int, input, weight) -> TypeError:
    """PyTorch's argument parser's error for an input or weight that is not a tensor."""
    def name(v):
        return "Tensor" if isinstance(v, Tensor) else type(v).__name__

    sig = "(Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, {}, " \
          "tuple of ints dilation = 1, int groups = 1)"
    forms = [sig.format("tuple of ints padding = 0"), sig.format('str padding = "valid"')]
    return TypeError(f"conv{d}d() received an invalid combination of arguments - got "
                     f"({name(input)}, {name(weight)}), but expected one of:\n"
                     + "".join(f" * {form}\n" for form in forms))
