"""Integer and bool tensors with a history, against PyTorch.

An in-place op can give an integer tensor a ``grad_fn`` (``a[:1] = t`` with ``t`` requiring
grad: ``CopySlices``; ``a.floor_()`` then records ``FloorBackward0``), as PyTorch's do. An
out-of-place differentiable op on such a tensor (``a.floor()``, ``a.cumsum(0)``,
``torch.div(a, 2, rounding_mode='trunc')``, ``a.fmod(2)``...) must then raise PyTorch's
"Autograd not support dtype", and so must the in-place ops PyTorch builds from them
(``nan_to_num_``, ``cumprod_``); so must sort, topk and median. ``norm(dtype=...)`` checks
its dtype first.

Each case (a line of ``tests/cases/integer_history.txt``) is an expression run with ``lib`` bound to minigrad and to torch: the same repr or
the same exception type and message.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome, cases

pytestmark = pytest.mark.torch

CASES = cases("integer_history")


@pytest.mark.parametrize("code", CASES)
def test_integer_tensor_with_a_history_as_pytorch(torch, code):
    assert_same_outcome(torch, code)
