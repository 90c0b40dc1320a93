"""The dtypes NumPy can hold, with PyTorch's promotion, printing, reductions and conversions.

Every case is one expression run on both libraries (``L`` is ``torch`` or ``minigrad``); the
printed result, or the exception's type and first line, must be the same. Warnings are errors:
no NumPy ``RuntimeWarning`` may escape.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import minigrad as mg

pytestmark = pytest.mark.torch

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
VALUES = {"bool": "[True, False, True]", "uint8": "[1, 200, 3]", "int8": "[-3, 100, 7]",
          "int16": "[-300, 2, 7]", "int32": "[5, -7, 9]", "int64": "[5, -7, 9]",
          "float16": "[1.5, -2.25, 3.0]", "float32": "[1.5, -2.25, 3.0]",
          "float64": "[1.5, -2.25, 3.0]"}


def outcome(L, code: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return repr(eval(code, {"L": L, "np": np}))
        except Exception as e:  # noqa: BLE001 - the exception is the result compared
            return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def same(torch, code: str) -> None:
    got, want = outcome(mg, code), outcome(torch, code)
    assert got == want, f"{code}\n  minigrad: {got}\n  pytorch:  {want}"


def t(d: str) -> str:
    return f"L.tensor({VALUES[d]}, dtype=L.{d})"


BINARY = [f"{t(a)} {op} {t(b)}" for a, b in itertools.product(DTYPES, DTYPES)
          for op in ("+", "*", "/", ">")]
SCALARS = [f"{t(a)} {op}" for a in DTYPES for op in ("+ 1", "* 2.5", "+ True", "* 1000")]
ZERO_DIM = [f"{t(a)} * L.tensor({VALUES[b][1:-1].split(',')[0]}, dtype=L.{b})"
            for a, b in itertools.product(DTYPES, DTYPES)]
UNARY = [f"{t(a)}.{op}" for a in DTYPES for op in (
    "sum()", "prod()", "cumsum(0)", "abs()", "exp()", "max()", "float()", "half()", "long()",
    "to(L.int8)", "short()", "char()", "type()", "element_size()", "is_signed()",
    "is_floating_point()", "numpy().dtype.name", "bitwise_not()", "sort()[0]")]
PRINTING = [
    "L.tensor([3.14159, 1e-5, 60000], dtype=L.float16)",
    "L.tensor([[-3, 100]], dtype=L.int8)", "L.tensor([], dtype=L.int16)",
    "L.zeros(2, 0, dtype=L.float16)", "L.ones(2, dtype=L.float16, requires_grad=True) * 2",
    "L.tensor(70000.0).half()", "L.tensor([1, 2], dtype=L.float16) / 3",
    "L.half, L.short, L.int8, L.bfloat16, L.float16.itemsize, L.int8.is_signed",
    "L.uint8.is_signed, L.float16.is_floating_point, L.bfloat16.is_floating_point",
    "L.promote_types(L.uint8, L.int8), L.promote_types(L.float16, L.int64)",
    "L.promote_types(L.bool, L.uint8), L.promote_types(L.int16, L.float16)",
    "L.result_type(L.tensor([1], dtype=L.int8), 1000)",
    "L.result_type(L.tensor([1], dtype=L.float16), L.tensor(1.0))",
    "L.can_cast(L.float32, L.int32), L.can_cast(L.int64, L.float16)",
    "L.iinfo(L.int8).max, L.iinfo(L.uint8).min, L.finfo(L.float16).eps",
    "L.finfo(L.float16).max, L.finfo().dtype, L.finfo(L.float32).tiny",
    "L.finfo(L.int8)", "L.iinfo(L.float32)", "L.iinfo(L.bool)",
    "L.arange(5, dtype=L.int8)", "L.arange(0, 1, 0.25, dtype=L.float16)",
    "L.eye(2, dtype=L.int16)", "L.full((2,), 3, dtype=L.int8)",
    "L.zeros(2, dtype=float), L.zeros(2, dtype=int), L.zeros(2, dtype=bool)",
    "L.ones(2).sum(dtype=float)",
    "L.tensor(__import__('numpy').array([1, 2], dtype='int8'))",
    "L.from_numpy(__import__('numpy').array([1.5], dtype='float16'))",
    "L.ones(2, dtype=L.int8).requires_grad_()",
    "L.ones(2).half().sum(), L.ones(2).half().mean()",
]
REDUCTIONS = [
    "L.tensor([True, False]).sum()", "L.tensor([True, False]).prod()",
    "L.tensor([True, False]).cumsum(0)", "L.tensor([True, False]).sum(dtype=L.bool)",
    "L.tensor([1, 2]).sum(dtype=L.bool)", "L.tensor([1, 2]).sum(dtype=L.float16)",
    "L.ones(3, dtype=L.int8).mul(100).sum(dtype=L.int8)",
    "L.ones(3, dtype=L.int8).mul(100).sum()",
    "L.ones(3, dtype=L.int8).mul(100).prod(dtype=L.int8)",
    "L.ones(3, dtype=L.int8).mul(100).cumsum(0)",
    "L.ones(3, dtype=L.int8).mul(100).cumprod(0)",
    "L.ones(3, dtype=L.int8).mul(100).cumsum(0, dtype=L.int8)",
    "L.tensor([1, 2, 3], dtype=L.int8).cumsum(0, dtype=L.int8)",
    "L.tensor([300., 2]).sum(dtype=L.int8)", "L.sum(L.tensor([1., 2]), dtype=L.int8)",
    "L.tensor([[1, 2]]).prod(1, True, dtype=L.int8)", "L.tensor([[1, 2]]).sum(dtype=L.int16)",
    "L.tensor([1, 2, 3]).mean()", "L.tensor([1, 2, 3]).mean(dtype=L.float64)",
    "L.tensor([1, 2, 3]).mean(dtype=L.int64)", "L.tensor([1., 2, 3]).mean(dtype=L.int64)",
    "L.tensor([True]).mean()", "L.tensor([1.5, 2]).sum(dtype=L.int64)",
    "L.tensor([1.5, 2], requires_grad=True).sum(dtype=L.int64)",
    "L.tensor([1.5, 2], requires_grad=True).sum(0, dtype=L.int64)",
    "L.tensor([1.5, 2], requires_grad=True).prod(dtype=L.int64)",
    "L.tensor([1.5, 2], requires_grad=True).cumsum(0, dtype=L.int64)",
    "L.tensor([1.5, 2], requires_grad=True).cumprod(0, dtype=L.int32)",
    "L.tensor([1.5, 2], requires_grad=True).mean(dtype=L.int64)",
    "L.tensor([1.5, 2], requires_grad=True).sum(dtype=L.float64)",
    "L.tensor([[1.5, 2]], requires_grad=True).sum((0, 1), dtype=L.float64)",
    "L.tensor([1., 2], requires_grad=True).cumsum(0, dtype=L.float64)",
    "L.tensor([1., 2], requires_grad=True).prod(0, dtype=L.float64)",
    "L.tensor([1., 2], requires_grad=True).mean(0, dtype=L.float64)",
    "L.tensor([1.5, 2], requires_grad=True).nansum(dtype=L.float64)",
    "L.tensor([1.5, 2], requires_grad=True).nansum(dtype=L.int64)",
    "L.tensor([1, 2]).nansum()", "L.tensor([1, 2], dtype=L.int8).nansum()",
    "L.nansum(L.tensor([True, True]))", "L.tensor([1, 2]).nanmean()",
    "L.tensor([1., 2]).nanmean(dtype=L.float64)",
    "L.tensor([1., float('nan')]).nanmean(0, True)", "L.tensor([float('nan')]).nanmean()",
    "L.tensor([[1., float('nan')], [2, 3]], requires_grad=True).nanmean()",
    "L.tensor([[1., float('nan')], [2, 3]], requires_grad=True).nansum(-1).grad_fn._saved_dim",
    "L.tensor([1., 2]).sum(dtype='float64')", "L.tensor([[1, 2]]).sum(dtype=5)",
    "L.ones(2).sum(0, dtype='float32')", "L.ones(2).mean(dtype='float32')",
    "L.ones(2).prod(dtype='float32')", "L.ones(2).cumsum(0, dtype='float32')",
    "L.tensor([1, 2], dtype=L.uint8).prod()", "L.tensor([1, 2], dtype=L.int32).cumsum(0)",
    # float16 adds up in float32 and rounds once, as in PyTorch
    "L.arange(0, 2000, dtype=L.float16).sum()", "L.arange(0, 20, dtype=L.float16).mean()",
    "L.arange(0, 20, dtype=L.float16).reshape(4, 5).sum(0, keepdim=True)",
    "L.arange(0, 20, dtype=L.float16).nansum()", "L.arange(1, 8, dtype=L.float16).prod()",
    "L.arange(0, 2000, dtype=L.float16).mean()", "L.ones(3).sum(dtype=L.float16)",
]


@pytest.mark.parametrize("code", BINARY + SCALARS + ZERO_DIM)
def test_binary_ops_promote_as_pytorch(torch, code):
    same(torch, code)


@pytest.mark.parametrize("code", UNARY + PRINTING)
def test_dtypes_convert_and_print_as_pytorch(torch, code):
    same(torch, code)


@pytest.mark.parametrize("code", REDUCTIONS)
def test_reduction_dtype_argument_as_pytorch(torch, code):
    same(torch, code)


def test_nansum_gradient_skips_nan(torch):
    def grad(L):
        x = L.tensor([[1., float("nan")], [2, 3]], requires_grad=True)
        x.nansum(1, keepdim=True).sum().backward()
        y = L.tensor([1., 2], requires_grad=True)
        y.sum(dtype=L.float64).backward()
        return repr(x.grad), repr(y.grad)

    assert grad(mg) == grad(torch)


def test_dtypes_numpy_cannot_hold_raise_a_clear_error():
    for name in ("bfloat16", "complex64", "uint16"):
        with pytest.raises(TypeError, match=f"minigrad does not support torch.{name}"):
            mg.ones(2, dtype=getattr(mg, name))
    with pytest.raises(TypeError, match="NumPy has no bfloat16"):
        mg.ones(2).bfloat16()
