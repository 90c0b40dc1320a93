"""Selection ops (median, mode, sort, topk, min, max) over expanded tensors: the result is a
function of the values alone, so minigrad's must be PyTorch's result for the same values laid
out contiguously. PyTorch's own ``median(dim)`` of an expanded tensor reads past the repeated
element (undefined memory; the fuzzer tells it apart, ``tests/fuzz/fuzz_programs.py``
``layout_dependent``), so it is compared with the contiguous copy only; the others with both."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

pytestmark = pytest.mark.torch

OPS = ["x.median(1)", "x.median()", "x.mode(1)", "x.sort(1)", "x.topk(2, 1)", "x.min(1)",
       "x.max(1)", "x.sort(0, descending=True)"]
READS_OUTSIDE = {"x.median(1)"}  # PyTorch's CPU kernel on a stride-0 row


def _expanded(lib, data, shape):
    return lib.tensor(np.array(data))[:, :1].expand(shape)


def _lists(result):
    return [t.numpy().tolist() for t in (result if isinstance(result, tuple) else (result,))]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("data", [[[5.0]], [[5.0, 1.0]], [[1, 2]], [[-0.0, 3.0]]])
@pytest.mark.parametrize("shape", [(3, 4), (2, 5)])
def test_selection_of_an_expanded_tensor_is_that_of_its_values(torch, op, data, shape):
    x = _expanded(mg, data, shape)
    assert x.stride()[1] == 0
    got = _lists(eval(op))
    x = _expanded(torch, data, shape).contiguous()
    assert got == _lists(eval(op))
    if op not in READS_OUTSIDE:
        x = _expanded(torch, data, shape)
        assert got == _lists(eval(op))
