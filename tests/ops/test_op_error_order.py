"""Which error an op raises, and when, against PyTorch: the checks of its arguments in
PyTorch's order (operands broadcast first, then ``alpha``, then the dtypes; an in-place op's
output shape before the cast of its result and both before the kernel's dtype).

Each case is an expression run with ``lib`` bound to minigrad and to torch: both give the same
repr or raise the same exception type and message.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome, outcome

import minigrad as mg

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


INPLACE = [
    'lib.tensor(0.5).bitwise_and_(lib.tensor([[True], [False]]))',
    'lib.tensor([[1, 2, 3]]).bitwise_and_(lib.ones(1, 3, 3))',
    'lib.tensor([[1, 2, 3]]).bitwise_and_(1e30)',
    'lib.tensor([[1., 2, 3]]).bitwise_and_(1)',
    'lib.tensor([True]).bitwise_and_(lib.ones(2, dtype=lib.float64))',
    'lib.tensor([True, False]).bitwise_and_(lib.ones(2, dtype=lib.float64))',
    'lib.tensor([1, 2]).bitwise_and_(lib.ones(3, dtype=lib.int64))',
    'lib.tensor([1., 2]).bitwise_and_(lib.ones(3, dtype=lib.int64))',
    'lib.tensor([True]).lerp_(lib.tensor([True, False]), 0.5)',
    'lib.tensor([True, False]).lerp_(lib.tensor([True, False]), 0.5)',
    'lib.tensor([1., 2]).lerp_(lib.tensor([True, False]), 0.5)',
    'lib.tensor([1.]).lerp_(lib.tensor([True, False]), 0.5)',
    'lib.tensor([True, True, False]).fmod_(lib.tensor([[True, False, True], [False, True, True]]))',
    'lib.tensor([[3, 1, 2]]).fmod_(lib.tensor([[-1, 0, 0], [0, 1, 2]]))',
    'lib.tensor([[3, 1, 2]]).fmod_(lib.tensor([[-1, 0, 0]]))',
    'lib.tensor([3, 1, 2]).fmod_(0.5)',
    'lib.tensor([3, 1, 2]).fmod_(lib.tensor(0.5))',
    'lib.tensor([3, 1, 2]).remainder_(1.5)',
    'lib.tensor([True]).remainder_(0)',
    'lib.tensor([True]).floor_divide_(0)',
    'lib.tensor([False]).floor_divide_(lib.tensor([[True], [False]]))',
    'lib.tensor([True]).hypot_(lib.tensor([[1.]]))',
    'lib.tensor([1]).hypot_(lib.tensor([[1.]]))',
    'lib.tensor([1]).hypot_(lib.tensor([1.]))',
    'lib.tensor([True]).sub_(lib.tensor([True, False]))',
    'lib.tensor([1.]).sub_(lib.tensor([True, False]))',
    'lib.tensor([1]).add_(lib.tensor([1., 2.]), alpha=True)',
    'lib.tensor([1]).add_(lib.tensor([1., 2.]), alpha=2.5)',
    'lib.tensor([1]).add_(lib.tensor([1., 2.]))',
    'lib.tensor([1]).mul_(lib.tensor([1., 2.]))',
    'lib.tensor([1]).div_(lib.tensor([1, 2]), rounding_mode="floor")',
    'lib.tensor([1]).div_(lib.tensor([0]), rounding_mode="floor")',
    'lib.tensor([1]).div_(lib.tensor([0, 1]), rounding_mode="floor")',
    'lib.tensor([1]).div_(lib.tensor([0]), rounding_mode="xx")',
    'lib.tensor([1]).div_(lib.tensor([0, 1]), rounding_mode="xx")',
    'lib.tensor([1]).atan2_(lib.tensor([0, 1]))',
    'lib.tensor([1]).xlogy_(lib.tensor([0, 1]))',
    'lib.tensor([1]).pow_(lib.tensor([0, 1]))',
    'lib.tensor([1]).pow_(-1)',
    'lib.tensor([1, 2]).pow_(lib.tensor([-1, 1]))',
    'lib.tensor([1]).pow_(0.5)',
    'lib.tensor([1.]).addcmul_(lib.tensor([1, 2]), lib.tensor([1, 2]))',
    'lib.tensor([1]).addcdiv_(lib.tensor([1, 2]), lib.tensor([1, 2]))',
    'lib.tensor([1]).addcdiv_(lib.tensor([1]), lib.tensor([1]))',
    'lib.tensor([1]).clamp_(lib.tensor([0., 1.]))',
    'lib.tensor([1]).clamp_(0.5)',
    'lib.tensor([1]).clamp_(min=lib.tensor([0, 1]), max=lib.tensor([1, 1, 1]))',
    'lib.tensor([1]).clamp_min_(lib.tensor([0.5]))',
    'lib.tensor([1]).masked_fill_(lib.tensor([True, False]), 1)',
    'lib.tensor([1]).masked_fill_(lib.tensor([True]), 1.5)',
    'lib.tensor([1]).where(lib.tensor([True, False]), 1.5)',
    'lib.tensor([1]).exp_()',
    'lib.tensor([1]).sigmoid_()',
    'lib.tensor([1]).round_()',
    'lib.tensor([True]).neg_()',
    'lib.tensor([True]).abs_()',
    'lib.tensor([True]).floor_()',
    'lib.tensor([1]).log_()',
    'lib.tensor([1]).sqrt_()',
    'lib.tensor([1]).nan_to_num_()',
    'lib.tensor([1]).cumsum_(0)',
    'lib.tensor([1]).tril_()',
    'lib.ones(2, 2).expand(2, 2, 2).add_(lib.ones(3))',
    'lib.ones(2).expand(2, 2).bitwise_and_(lib.ones(3, dtype=lib.bool))',
    'lib.ones(2).expand(2, 2).mul_(lib.ones(2, 2, 2))',
    'lib.tensor([1]).expand(3).clamp_(3, 1e30)',
    'lib.tensor([-5]).expand(3).clamp_min_(-float("inf"))',
    'lib.tensor([-5]).expand(3).clamp_min_(lib.tensor(1.5))',
    'lib.tensor([-5]).expand(3).clamp_max_(1.5)',
    'lib.tensor([-5]).expand(3).clamp_(lib.tensor(1.5), None)',
    'lib.tensor([-5], dtype=lib.int32).clamp_(1.5)',
    'lib.tensor([-5], dtype=lib.int32).expand(2).fmod_(1.5)',
    'lib.tensor([-5], dtype=lib.int32).expand(2).add_(1.5)',
    'lib.tensor([-5], dtype=lib.int32).expand(2).add_(lib.ones(3))',
]


@pytest.mark.parametrize("code", INPLACE)
def test_inplace_op_checks_its_output_before_its_kernel_as_pytorch(torch, code):
    """Operands that do not broadcast, then an output shape that is not the broadcast one,
    then a result dtype the output cannot hold, and only then the kernel's own refusals (a
    dtype it is not built for, an integer division by zero)."""
    assert_same_outcome(torch, code)


VAR = [
    'lib.ones(3).var(0, 1)',
    'lib.ones(3).var(0, True, True, 1)',
    'lib.ones(3).var(dim=0, unbiased=True, correction=1)',
    'lib.ones(3).var("a")',
    'lib.ones(3).var(0, "a")',
    'lib.ones(3).var(1.5)',
    'lib.ones(3).var(0, correction="x")',
    'lib.ones(3).var(unbiased=True, keepdim=True)',
    'lib.ones(3).var(True, True)',
    'lib.ones(3).var(0, True, True)',
    'lib.ones(3).var(0, True, keepdim=True)',
    'lib.ones(3).var(None, unbiased=False)',
    'lib.ones(3).var([0], False)',
    'lib.ones(3).var(0, 1.5)',
    'lib.ones(3).var(0, None)',
    'lib.ones(3).var(foo=1)',
    'lib.ones(3).var(0, keepdim=1)',
    'lib.var(lib.ones(3), 0, 1)',
    'lib.var(lib.ones(3), "x")',
    'lib.var()',
    'lib.ones(3).std(0, 1)',
    'lib.ones(3).std("a")',
    'lib.ones(3).std(0, True, True, 1)',
    'lib.var_mean(lib.ones(3), 0, 1)',
    'lib.std_mean(lib.ones(3), "a")',
    'lib.ones(3).var(0, unbiased=1)',
    'lib.ones(3).var(correction=1, unbiased=True)',
    'lib.ones(3).var(0, True, False, correction=1)',
    'lib.ones(3).var(correction=True)',
    'lib.ones(3).var(correction=None)',
    'lib.ones(3).var(correction=lib.tensor(1))',
    'lib.ones(3).var(correction=2.5)',
    'lib.ones(3).var(dim=None)',
    'lib.ones(3).var(None, True)',
    'lib.ones(3).var((0,), True)',
    'lib.ones(3).var([0], keepdim=True, correction=0)',
    'lib.ones(3).var(0, True, keepdim=True)',
    'lib.ones(3).var(unbiased=False)',
    'lib.ones(3).var(False)',
    'lib.ones(3).var(dim=0, keepdim=True)',
    'lib.ones(3).var(lib.tensor(0))',
    'lib.ones(3).var(lib.tensor(0), True)',
    'lib.var(lib.ones(3), 0, True, True, out=None)',
    'lib.var(lib.ones(3), correction=1, out=None)',
    'lib.var(lib.ones(3), True, out=None)',
    'lib.var(lib.ones(3), unbiased=True)',
    'lib.var(input=lib.ones(3), dim=0)',
    'lib.var(lib.ones(3), dim=0, input=lib.ones(3))',
    'lib.var(3)',
    'lib.var_mean(lib.ones(3), 0, True, True)',
    'lib.var_mean(lib.ones(3), 0, True, True, out=None)',
    'lib.var_mean(lib.ones(3), unbiased=True, keepdim=True)',
    'lib.std_mean(lib.ones(3), correction=0)',
    'lib.std_mean(lib.ones(3), 1.5)',
    'lib.ones(3).var(0, True, True, unbiased=True)',
    'lib.ones(3).var(0, dim=0)',
]


def _signature_lines(result):
    """An outcome with PyTorch's notes on why a signature did not match left out (minigrad
    lists the signatures, not the reasons)."""
    kind, text = result
    if kind != "TypeError":
        return result
    return kind, [line for line in text.splitlines() if not line.startswith("      didn't")]


@pytest.mark.parametrize("code", VAR)
def test_var_and_std_bind_their_arguments_as_pytorch(torch, code):
    """var/std/var_mean/std_mean take three signatures (dim, unbiased, keepdim), (dim, *,
    correction, keepdim) and (unbiased): what fits none raises PyTorch's TypeError, with the
    signatures it lists."""
    def run(lib):
        return _signature_lines(outcome(lambda: eval(code, {"lib": lib})))  # noqa: S307

    assert run(mg) == run(torch)
