"""Which error an op raises, and when, against PyTorch: the checks of its arguments in
PyTorch's order (operands broadcast first, then ``alpha``, then the dtypes; an in-place op's
output shape before the cast of its result and both before the kernel's dtype).

Each case (a line of ``tests/cases/alpha.txt``, ``div_rounding.txt``,
``inplace_error_order.txt``, ``var_signatures.txt``) is an expression run with ``lib`` bound
to minigrad and to torch: both give the same repr or raise the same exception type and message.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome, cases, outcome

import minigrad as mg

pytestmark = pytest.mark.torch

ALPHA = cases("alpha")


@pytest.mark.parametrize("code", ALPHA)
def test_alpha_of_add_and_sub_is_checked_as_in_pytorch(torch, code):
    assert_same_outcome(torch, code)


DIV = cases("div_rounding")


@pytest.mark.parametrize("code", DIV)
def test_div_with_a_rounding_mode_refuses_bools_before_dividing_as_pytorch(torch, code):
    assert_same_outcome(torch, code)


INPLACE = cases("inplace_error_order")


@pytest.mark.parametrize("code", INPLACE)
def test_inplace_op_checks_its_output_before_its_kernel_as_pytorch(torch, code):
    """Operands that do not broadcast, then an output shape that is not the broadcast one,
    then a result dtype the output cannot hold, and only then the kernel's own refusals (a
    dtype it is not built for, an integer division by zero)."""
    assert_same_outcome(torch, code)


VAR = cases("var_signatures")


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
