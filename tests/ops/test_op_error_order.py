"""Which error an op raises, and when, against PyTorch: the checks of its arguments in
PyTorch's order (operands broadcast first, then ``alpha``, then the dtypes; an in-place op's
output shape before the cast of its result and both before the kernel's dtype).

Each case is an expression run with ``lib`` bound to minigrad and to torch: both give the same
repr or raise the same exception type and message.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome

pytestmark = pytest.mark.torch

F32 = "lib.tensor([1., 2.])"
I64 = "lib.tensor([1, 2])"
B = "lib.tensor([True, False])"
GRAD = "lib.tensor([1., 2.], requires_grad=True)"

ALPHA = [
    f"{F32}.add({F32}, alpha=True)",
    f"{F32}.add({F32}, alpha=False)",
    f"{I64}.add({I64}, alpha=True)",
    f"{I64}.add(2.5, alpha=True)",
    f"{B}.add(2, alpha=True)",
    f"{F32}.sub({F32}, alpha=True)",
    f"lib.add({F32}, 2, alpha=False)",
    f"lib.rsub({F32}, {F32}, alpha=True)",
    f"lib.rsub({F32}, 2, alpha=False)",
    f"{B}.add({GRAD}, alpha=False)",
    f"{F32}.add_(2, alpha=True)",
    # a bool result takes a bool alpha, and stays bool with an integer one
    f"{B}.add({B}, alpha=True)",
    f"{B}.add({B}, alpha=2)",
    f"{B}.add({B}, alpha=0)",
    f"{B}.add(True, alpha=False)",
    # operands that do not broadcast are reported before alpha
    f"lib.add({I64}, lib.tensor([1, 2, 3]), alpha=1.5)",
    f"lib.add({F32}, lib.tensor([1., 2, 3]), alpha=True)",
    f"lib.rsub({F32}, lib.tensor([1., 2, 3]), alpha=False)",
    "lib.add(lib.tensor([True]), lib.tensor([True]), alpha=1.5)",
]


@pytest.mark.parametrize("code", ALPHA)
def test_alpha_of_add_and_sub_is_checked_as_in_pytorch(torch, code):
    assert_same_outcome(torch, code)
