"""Values that do not fit a dtype: ``tensor``, ``full``, ``fill_``, ``masked_fill`` and setting
items raise (or wrap, or give inf) exactly as PyTorch does, with no NumPy warning or error.

Each case runs on both libraries (``L``); see test_dtypes.py for how they are compared.
"""

from __future__ import annotations

import pytest
from test_dtypes import same

pytestmark = pytest.mark.torch

TENSOR = [
    "L.tensor([2**63])", "L.tensor(2**63)", "L.tensor([-2**63-1])", "L.tensor([2**64])",
    "L.tensor([2**63], dtype=L.float32)", "L.tensor(2**63, dtype=L.float64)",
    "L.tensor([2**63], dtype=L.bool)", "L.tensor([2**63], dtype=L.uint8)",
    "L.tensor([128], dtype=L.int8)", "L.tensor([-129], dtype=L.int8)",
    "L.tensor([300, -1], dtype=L.uint8)", "L.tensor([256], dtype=L.uint8)",
    "L.tensor([-255], dtype=L.uint8)", "L.tensor([-256], dtype=L.uint8)",
    "L.tensor([40000], dtype=L.int16)", "L.tensor([2**31], dtype=L.int32)",
    "L.tensor([1.5e10], dtype=L.int32)", "L.tensor([127.9], dtype=L.int8)",
    "L.tensor([-128.0], dtype=L.int8)", "L.tensor([-128.5], dtype=L.int8)",
    "L.tensor([-0.5], dtype=L.uint8)", "L.tensor([255.0], dtype=L.uint8)",
    "L.tensor([255.5], dtype=L.uint8)", "L.tensor([9.3e18], dtype=L.int64)",
    "L.tensor([9.223372036854775807e18], dtype=L.int64)",
    "L.tensor([float('nan')], dtype=L.int64)", "L.tensor([float('inf')], dtype=L.int64)",
    "L.tensor([float('nan')], dtype=L.int8)", "L.tensor([5.0, float('nan')], dtype=L.bool)",
    "L.tensor([1e20], dtype=L.int64)", "L.tensor(3.7, dtype=L.int64)",
    "L.tensor(-3.7, dtype=L.int64)", "L.tensor(-3.7, dtype=L.uint8)",
    "L.tensor(-3, dtype=L.uint8)", "L.tensor([-3], dtype=L.uint8)",
    "L.tensor([True, 2], dtype=L.int8)", "L.tensor([1e39])", "L.tensor(1e39)",
    "L.tensor([-1e39])", "L.tensor([1e39], dtype=L.float16)",
    "L.tensor([65520.0], dtype=L.float16)", "L.tensor([1e300], dtype=L.float32)",
    "L.tensor([1.5, float('nan')], dtype=L.float16)",
    "L.tensor(np.array([np.nan]), dtype=L.int64)", "L.tensor(np.array([1e39]), dtype=L.float32)",
    "L.tensor(np.float64(1e39), dtype=L.float32)", "L.tensor(np.array([300]), dtype=L.int8)",
    "L.tensor([np.int64(2**62)], dtype=L.int8)", "L.tensor([L.tensor(300)], dtype=L.int8)",
    "L.as_tensor([300], dtype=L.int8)", "L.as_tensor([1e39])",
    "L.ones(2).new_tensor([300], dtype=L.int8)", "L.ones(2, dtype=L.int8).new_tensor([300])",
    "L.tensor(1e39, dtype=L.float64).to(L.float32)", "L.tensor([1e5]).to(L.float16)",
    "L.tensor([300., float('nan'), 1e20]).to(L.int8)", "L.tensor([-3.7, 300.5, -1.0]).byte()",
]
SHAPES_AND_TYPES = [
    "L.tensor([[1, 2], [3]])", "L.tensor([[1, 2], 3])", "L.tensor([[1., 2], 3])",
    "L.tensor([1, [2, 3]])", "L.tensor([1., [2, 3]])", "L.tensor([True, [2, 3]])",
    "L.tensor([[1], [2, 3]])", "L.tensor([[[1, 2]], [[3]]])", "L.tensor([[1, 2], [3, 4, 5]])",
    "L.tensor([[1], []])", "L.tensor([[], [1]])", "L.tensor([[]])", "L.tensor(())",
    "L.tensor([(1, 2), (3, 4)])", "L.tensor(['a'])", "L.tensor(['ab'])", "L.tensor('a')",
    "L.tensor([None])", "L.tensor(None)", "L.tensor({1: 2})", "L.tensor([1, 'a'])",
    "L.tensor([[1, 2], [3, 'a']])", "L.tensor([object()])", "L.tensor([1, None])",
    "L.tensor([L.ones(2), L.ones(2)])", "L.tensor([L.ones(2), L.ones(3)])",
    "L.tensor([L.tensor([1.]), L.tensor([2.])])", "L.tensor([L.tensor(1), 2.5])",
    "L.tensor([L.tensor(1., dtype=L.float64), 2])", "L.tensor([np.float64(1.0), 2])",
    "L.tensor([np.int32(1), 2])", "L.tensor(np.float16(1.5))",
    "L.tensor([np.int8(3), np.float16(1.5)])", "L.tensor([1, 2.5]), L.tensor([True, 2])",
]
FILL = [
    "L.full((2,), 300, dtype=L.int8)", "L.full((2,), -3, dtype=L.uint8)",
    "L.full((2,), 256, dtype=L.uint8)", "L.full((2,), -256, dtype=L.uint8)",
    "L.full((2,), 40000, dtype=L.int16)", "L.full((2,), 2**31, dtype=L.int32)",
    "L.full((2,), 3.7, dtype=L.int8)", "L.full((2,), 2**63)", "L.full((2,), 2**64)",
    "L.full((2,), -2**63-1)", "L.full((2,), 2**63, dtype=L.uint8)",
    "L.full((2,), 2**63, dtype=L.float32)", "L.full((2,), float('nan'), dtype=L.int64)",
    "L.full((2,), float('inf'), dtype=L.int32)", "L.full((2,), 1e39)",
    "L.full((2,), 3.4028235e38)", "L.full((2,), 1e39, dtype=L.float64)",
    "L.full((2,), 65504.0, dtype=L.float16)", "L.full((2,), 65519.0, dtype=L.float16)",
    "L.full((2,), float('inf')), L.full((2,), True), L.full((2,), 5, dtype=L.bool)",
    "L.full((2,), float('nan'), dtype=L.bool)", "L.full((2,), 1e39, dtype=L.float16)",
    "L.full_like(L.ones(2, dtype=L.int8), 300)", "L.full_like(L.ones(2), 1e39)",
    "L.ones(2).new_full((2,), 1e39)", "L.ones(2, dtype=L.int8).new_full((2,), 300)",
    "L.ones(2, dtype=L.int8).fill_(300)", "L.ones(2, dtype=L.int8).fill_(3.7)",
    "L.ones(2, dtype=L.int64).fill_(float('nan'))", "L.ones(2, dtype=L.int64).fill_(2**63)",
    "L.ones(2, dtype=L.uint8).fill_(-3)", "L.ones(2).fill_(1e39)",
    "L.ones(2, dtype=L.bool).fill_(5)", "L.ones(2, dtype=L.float16).fill_(1e6)",
    "L.zeros(2, dtype=L.int8).fill_(True)", "L.zeros(2, dtype=L.int8).fill_(L.tensor(300))",
    "L.zeros(2, dtype=L.int8).fill_(L.tensor(3.7))",
    "L.zeros(2).fill_(L.tensor(1e39, dtype=L.float64))", "L.zeros(2).fill_(L.tensor([1., 2.]))",
    "L.zeros(2).fill_('a')", "L.zeros(2).fill_(None)", "L.zeros(2).fill_(2**70)",
    "L.ones(2, dtype=L.int8).masked_fill(L.tensor([True, False]), 300)",
    "L.ones(2, dtype=L.int64).masked_fill(L.tensor([True, False]), float('nan'))",
    "L.ones(2).masked_fill(L.tensor([True, False]), 1e39)",
    "L.ones(2, dtype=L.uint8).masked_fill(L.tensor([True, False]), -3)",
]
SETITEM = [("int8", "300"), ("int64", "float('nan')"), ("int64", "2**63"), ("uint8", "-3"),
           ("float32", "1e39"), ("float16", "70000.0"), ("int8", "3.7"), ("bool", "7")]


@pytest.mark.parametrize("code", TENSOR + SHAPES_AND_TYPES + FILL)
def test_tensor_and_fill_values_are_read_and_checked_as_in_pytorch(torch, code):
    same(torch, code)


@pytest.mark.parametrize("dtype,value", SETITEM)
def test_setting_an_item_checks_the_value_as_pytorch(torch, dtype, value):
    same(torch, f"(lambda t: (t.__setitem__(0, {value}), t)[1])(L.ones(2, dtype=L.{dtype}))")


CAST_VALUES = ("[float('nan'), float('inf'), -float('inf'), 1e20, -1e20, 3e9, -3e9, 2.0**31, "
               "-2.0**31 - 0.5, 2.0**31 - 0.5, 2.0**63, 40000.7, -40000.7, 300.0, -300.5, -1.0, "
               "70000.0]")


@pytest.mark.parametrize("src", ["float64", "float32", "float16"])
@pytest.mark.parametrize("dst", ["int64", "int32", "int16", "int8", "uint8", "bool"])
def test_casting_floats_that_do_not_fit_gives_pytorchs_integers(torch, src, dst):
    """NaN, infinities and huge floats cast as PyTorch's CPU casts them (int32's minimum, which
    wraps to 0 in the small types), through .to, .type and the named casts, 0-d as well."""
    x = f"L.tensor({CAST_VALUES}, dtype=L.float64).to(L.{src})"
    same(torch, f"{x}.to(L.{dst}), {x}.type(L.{dst}), {x}.repeat(3).to(L.{dst})")
    same(torch, f"[t.to(L.{dst}) for t in {x}]")
