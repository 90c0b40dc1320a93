"""PyTorch's error for a saved tensor modified in place names the tensor's type as its C++ code
does: ``torch.FloatTensor``, ``torch.LongTensor``... but ``CPUBoolType`` for a bool tensor."""

from __future__ import annotations

import pytest
from helpers import both_raise


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float32", "float64"])
def test_a_saved_tensor_changed_in_place_is_named_as_pytorch_names_it(torch, dtype):
    def build(lib):
        x = lib.ones(3, requires_grad=True)
        m = lib.ones(3, dtype=getattr(lib, dtype))
        y = x * m  # MulBackward0 saves m
        m.zero_()
        y.sum().backward()

    both_raise(torch, build)


@pytest.mark.parametrize("dtype", ["bool", "int64", "float32"])
def test_expand_names_the_type_as_pytorch_does(torch, dtype):
    both_raise(torch, lambda lib: lib.ones(2, 3, dtype=getattr(lib, dtype)).expand(3))
