"""Backward formulas that meet an integer or bool operand, against PyTorch: the errors
PyTorch's own formulas raise there (``exponent - 1`` of a bool exponent, ``-self`` of a bool
in atan2's, a target of another dtype in huber_loss's), and otherwise gradients in the
result's dtype, with the signs of zero PyTorch's formulas give (the target's gradient of a
loss is computed with the operands swapped, not negated).

Each case (a line of ``tests/cases/backward_dtypes.txt``) is an expression run with ``lib`` bound to minigrad and to torch (``F`` is its
``nn.functional``): the same repr or the same exception type and message.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome, cases

pytestmark = pytest.mark.torch

CASES = cases("backward_dtypes")


@pytest.mark.parametrize("code", CASES)
def test_backward_with_integer_or_bool_operands_as_pytorch(torch, code):
    assert_same_outcome(torch, code)
