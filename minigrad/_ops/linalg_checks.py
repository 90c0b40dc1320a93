"""PyTorch's argument checks for the matrix products (``mm``, ``addmm``, ``bmm``...), with its
messages in its order; the products themselves are in :mod:`linalg`.

>>> import minigrad as torch
>>> torch.ones(2, 3).mm(torch.ones(2, 3))
Traceback (most recent call last):
RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)
"""

from __future__ import annotations

from ..autograd.graph import should_record
from ..autograd.saved import INFERENCE_MESSAGE
from .errors import not_implemented

__all__ = ["short", "no_bool", "check_mm", "check_addmm", "addmm_bias", "saved_inference"]


def saved_inference(a, b, *others) -> None:
    """What PyTorch refuses before a product's own checks, as it reads the operands' histories
    (``others`` too: addmm's input) and saves each of ``a``, ``b`` for the other's gradient: a
    view made in no_grad mode whose base changed in place since (``should_record`` brings views
    up to date, and raises that), an inference tensor saved."""
    if should_record(a, b, *others) and (a.is_inference() and b.requires_grad or
                                b.is_inference() and a.requires_grad):
        raise RuntimeError(INFERENCE_MESSAGE)


def short(t) -> str:
    """A dtype's short PyTorch name: Float, Double, Long, Int, Byte, Bool."""
    return t.dtype._cpp


def no_bool(t, kernel):
    if t._data.dtype.kind == "b":
        raise not_implemented(kernel, t.dtype)


def check_mm(a, b, first="self", second="mat2", kernel: bool = True):
    if a._data.ndim != 2:
        raise RuntimeError(f"{first} must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError(f"{second} must be a matrix")
    (n, k), (k2, m) = a._data.shape, b._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    da, db = a._data.dtype, b._data.dtype
    if da != db:
        raise RuntimeError("expected m1 and m2 to have the same dtype, but got: "
                           f"{a.dtype._c_type} != {b.dtype._c_type}")
    if kernel and da.kind == "b" and (n * m * k or first != "self"):  # (mm: no kernel runs
        no_bool(a, "addmm_impl_cpu_")  # on nothing)


def check_addmm(input, mat1, mat2):
    """PyTorch's checks and errors for ``addmm``, in its order: dtypes, then shapes."""
    if input._data.dtype != mat2._data.dtype:
        raise RuntimeError("self and mat2 must have the same dtype, but got "
                           f"{short(input)} and {short(mat2)}")
    if mat1._data.dtype != mat2._data.dtype:
        raise RuntimeError("mat1 and mat2 must have the same dtype, but got "
                           f"{short(mat1)} and {short(mat2)}")
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m._data.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m._data.ndim}-D tensor")
    check_mm(mat1, mat2, "mat1", "mat2", kernel=False)
    addmm_bias(input, mat2, (mat1._data.shape[0], mat2._data.shape[1]))
    no_bool(mat1, "addmm_impl_cpu_")  # (the kernel's refusal: after the bias's expansion)


def addmm_bias(input, mat2, shape):
    """``input`` broadcast to the product's ``shape``, with PyTorch's errors."""
    d = input._data
    if d.dtype != mat2._data.dtype:
        raise RuntimeError("self and mat2 must have the same dtype, but got "
                           f"{short(input)} and {short(mat2)}")
    if d.ndim > 2:
        raise RuntimeError(
            f"expand(torch.{input.dtype._legacy_name}{{[{', '.join(map(str, d.shape))}]}}, "
            f"size=[{', '.join(map(str, shape))}]): the number of sizes provided (2) must be "
            f"greater or equal to the number of dimensions in the tensor ({d.ndim})")
    for i in range(1, d.ndim + 1):
        if d.shape[-i] not in (1, shape[-i]):
            raise RuntimeError(
                f"The expanded size of the tensor ({shape[-i]}) must match the existing size "
                f"({d.shape[-i]}) at non-singleton dimension {2 - i}.  Target sizes: "
                f"[{', '.join(map(str, shape))}].  Tensor sizes: [{', '.join(map(str, d.shape))}]")
    return d
