"""Comparisons, logic and dtype conversions against torch: values, dtypes, identities."""

from __future__ import annotations

import numpy as np
import pytest
from op_table import assert_close

import minigrad as mg

pytestmark = pytest.mark.torch

OPERANDS = {
    "float_float": lambda L: (L.tensor([[1.0, 2.5, -3.0]]), L.tensor([[1.0], [2.5]])),
    "float_int": lambda L: (L.tensor([1.0, 2.5, 3.0]), L.tensor([1, 2, 3])),
    "int_python_float": lambda L: (L.tensor([1, 2, 3]), 2.5),
    "python_int_int": lambda L: (2, L.tensor([1, 2, 3])),
    "bool_python_int": lambda L: (L.tensor([True, False]), 1),
    "float_0d_double": lambda L: (L.tensor([1.0, 2.0]), L.tensor(2.0, dtype=L.float64)),
    "uint8_int": lambda L: (L.tensor([1, 200], dtype=L.uint8), L.tensor([1, 2])),
    "float_numpy_scalar": lambda L: (L.tensor([1.0, 2.0]), np.float64(2.0)),
}
COMPARE = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
}


@pytest.mark.parametrize("op", sorted(COMPARE))
@pytest.mark.parametrize("operands", sorted(OPERANDS))
def test_comparison_matches_torch(torch, op, operands):
    t = COMPARE[op](*OPERANDS[operands](torch))
    m = COMPARE[op](*OPERANDS[operands](mg))
    assert_close(m, t)


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less",
                                  "greater_equal", "less_equal", "not_equal"])
def test_comparison_functions_and_methods_match_operators(torch, name):
    for lib in (torch, mg):
        a, b = lib.tensor([1.0, 2.0, 3.0]), lib.tensor([2.0, 2.0, 2.0])
        assert getattr(lib, name)(a, b).tolist() == getattr(a, name)(b).tolist()
    t = getattr(torch, name)(torch.tensor([1.0, 2.0, 3.0]), 2)
    assert_close(getattr(mg, name)(mg.tensor([1.0, 2.0, 3.0]), 2), t)


def test_comparing_with_none_or_strings_is_plain_python(torch):
    for lib in (torch, mg):
        x = lib.tensor([1.0, 2.0])
        assert (x == None) is False and (x != None) is True  # noqa: E711
        assert (x == "a") is False
        assert x in [x] and {x: 1}[x] == 1  # found by identity; hashing still works


@pytest.mark.parametrize("expr", [
    "x.all()", "x.any()", "(x > 0).all()", "(x > 0).any(1)", "L.all(x > 0, dim=0)",
    "(x > 0).all(dim=(0, 1), keepdim=True)", "x.any(-1, keepdim=True)", "i.all()",
    "u.all()", "u.any(0)", "b.all()", "L.any(b)",
    "b & c", "b | c", "b ^ c", "~b", "~i", "i & 1", "i | b", "b & True", "1 & b", "True | b",
    "i ^ i", "L.bitwise_and(i, 3)", "L.bitwise_not(b)",
    "L.logical_and(x, i)", "L.logical_or(b, c)", "L.logical_xor(x > 0, b)", "x.logical_not()",
    "L.logical_not(i)", "b.logical_and(c)",
    "L.isclose(x, x + 1e-6)", "L.isclose(i, i)", "x.isclose(x + 0.5, atol=0.6)",
    "L.where(x > 0)[0]", "(x > 0).nonzero()", "x.nonzero(as_tuple=True)[1]",
])
def test_logic_matches_torch(torch, expr):
    def run(L):
        x = L.tensor([[1.0, -2.0, 0.0], [4.0, 0.5, -6.0]])
        i = L.tensor([[1, 0, 3], [2, 2, 0]])
        u = L.tensor([[1, 0, 3], [2, 2, 0]], dtype=L.uint8)
        b, c = x > 0, L.tensor([True, False, True])
        return eval(expr, {"L": L, "x": x, "i": i, "u": u, "b": b, "c": c})

    assert_close(run(mg), run(torch))


def test_equal_and_allclose_match_torch(torch):
    for lib in (torch, mg):
        x = lib.tensor([1.0, 2.0, 3.0])
        assert lib.equal(x, x.clone()) and x.equal(x.double()) and not lib.equal(x, x[:2])
        assert not lib.equal(x, x + 1)
        assert lib.allclose(x, x + 1e-9) and not lib.allclose(x, x + 1e-3)
        assert x.allclose(x + 0.1, atol=0.2) and lib.allclose(x, x, rtol=0, atol=0)
        assert type(lib.equal(x, x)) is bool and type(lib.allclose(x, x)) is bool


def test_comparisons_are_not_recorded(torch):
    for lib in (torch, mg):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        for out in (x > 1, x == x, (x > 1).all(), lib.isclose(x, x), x.bool()):
            assert not out.requires_grad and out.grad_fn is None


# ---------------------------------------------------------------- conversions
@pytest.mark.parametrize("expr", [
    "x.float()", "x.double()", "x.long()", "x.int()", "x.bool()", "x.byte()",
    "x.to(L.float64)", "x.to(L.int64)", "x.to(L.zeros(1, dtype=L.int32))", "x.to('cpu')",
    "x.to('cpu', L.float64)", "x.to(dtype=L.float64)", "x.to(device='cpu')",
    "x.type(L.float64)", "x.type('torch.DoubleTensor')", "x.type_as(L.tensor([1]))",
    "i.float()", "i.double()", "i.bool()", "i.to(L.uint8)", "x.cpu()",
])
def test_conversion_matches_torch(torch, expr):
    def run(L):
        x = L.tensor([[1.5, -2.7, 0.0], [3.99, 255.0, -0.5]])
        i = L.tensor([[1, 0, 3], [2, 2, 0]])
        return eval(expr, {"L": L, "x": x, "i": i})

    assert_close(run(mg), run(torch))


def test_converting_to_the_same_dtype_returns_the_tensor_itself(torch):
    for lib in (torch, mg):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        for same in (x.float(), x.to(lib.float32), x.to("cpu"), x.type_as(x), x.cpu(),
                     x.type(lib.float32), x.to(x)):
            assert same is x
        copy = x.to(lib.float32, copy=True)
        assert copy is not x and copy.grad_fn.name() == "ToCopyBackward0"


def test_float_to_double_backward_gives_float_gradient(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.double()
        z = (y * y).sum() + (x.to(y) * 3).sum()
        z.backward()
        return y, x.grad

    (ty, tg), (my, mgrad) = run(torch), run(mg)
    assert my.grad_fn.name() == ty.grad_fn.name() == "ToCopyBackward0"
    assert_close(mgrad, tg)
    assert not mg.tensor([1.0], requires_grad=True).long().requires_grad


def test_type_without_arguments_names_the_tensor_type(torch):
    for dtype in ("float32", "float64", "float16", "int64", "int32", "int16", "int8", "bool",
                  "uint8"):
        t = torch.zeros(1, dtype=getattr(torch, dtype)).type()
        assert mg.zeros(1, dtype=getattr(mg, dtype)).type() == t


def test_half_is_float16_as_in_pytorch(torch):
    x = mg.tensor([1.0, 2.0], dtype=mg.float64)
    assert x.half().dtype is mg.float16 and mg.half is mg.float16
    assert repr(x.half()) == repr(torch.tensor([1.0, 2.0], dtype=torch.float64).half())
