"""signbit and copysign (minigrad/_ops/sign.py) at the values where the sign matters: -0.0,
NaN with either sign bit, infinities, integers and bools, against PyTorch."""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome

VALUES = "[-0.0, 0.0, -1.5, 2.0, float('nan'), -float('nan'), float('inf'), -float('inf')]"


@pytest.mark.parametrize("expr", [
    f"lib.signbit(lib.tensor({VALUES}))",
    f"lib.tensor({VALUES}, dtype=lib.float16).signbit()",
    "lib.signbit(lib.tensor([-1, 0, 2]))",
    "lib.signbit(lib.tensor([True, False]))",
    "lib.signbit(lib.tensor([1, 2], dtype=lib.uint8))",
    "lib.signbit(lib.tensor(-2.0, requires_grad=True))",
    "lib.signbit(3.0)",
])
def test_signbit_as_pytorch(torch, expr):
    assert_same_outcome(torch, expr)
