"""An in-place integer division by a tensor holding a zero, against PyTorch: it raises
ZeroDivisionError after writing every element its loop reached before the first zero divisor
(the loop runs over the written tensor's memory in order, broadcasting included); a number or
0-d divisor is checked first and nothing is written. (A fuzz finding: minigrad checked first
and left the tensor unchanged.)"""

from __future__ import annotations

import pytest
from helpers import snippet_outcome

import minigrad as mg

pytestmark = pytest.mark.torch

SELF = {
    "contiguous": "lib.arange(1, 13).reshape(3, 4) * 7 + 3",
    "transposed": "(lib.arange(1, 13).reshape(4, 3) * 7 + 3).t()",
    "strided": "(lib.arange(1, 25).reshape(3, 8) * 7 + 3)[:, ::2]",
    "a view": "(lib.arange(1, 19).reshape(3, 6) * 7 + 3)[:, 1:5]",
    "int32": "(lib.arange(1, 13).reshape(3, 4) * 7 + 3).int()",
    "uint8": "(lib.arange(1, 13).reshape(3, 4) * 7 + 3).to(lib.uint8)",
}
DIVISOR = {
    "a zero inside": "lib.tensor([[2, 3, 0, 5], [4, 0, 6, 7], [1, 2, 3, 4]])",
    "transposed": "lib.tensor([[2, 4, 1], [3, 5, 2], [1, 6, 3], [5, 7, 0]]).t()",
    "a broadcast row": "lib.tensor([3, 1, 0, 1])",
    "a broadcast column": "lib.tensor([[3], [0], [2]])",
    "bool": "lib.tensor([[True, True, False, True]] * 3)",
    "0-d": "lib.tensor(0)",
    "a number": "0",
}
OPS = ["a.remainder_(b)", "a.fmod_(b)", "a.floor_divide_(b)", "a.div_(b, rounding_mode='trunc')",
       "a.div_(b, rounding_mode='floor')", "a %= b", "a //= b"]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("divisor", DIVISOR)
@pytest.mark.parametrize("self_", SELF)
def test_the_elements_before_the_first_zero_are_written(torch, self_, divisor, op):
    code = (f"a = {SELF[self_]}\nb = {DIVISOR[divisor]}\ntry:\n    {op}\n"
            f"except RuntimeError as e:\n    error = str(e)\nelse:\n    error = None\n"
            f"out = error, a, a._version")
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)


def test_over_a_long_tensor_too(torch):
    code = ("a = lib.arange(1, 2001) * 3\nb = lib.full((2000,), 7)\nb[1500] = 0\n"
            "try:\n    a.remainder_(b)\nexcept RuntimeError:\n    pass\nout = a")
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
