"""What follows from an op's declaration alone (CONTRIBUTING.md, "Adding an op"): its
``torch.<name>`` export (the ``__all__`` of its topic module in ``minigrad._ops.FUNCTIONS``) and
its in-place method (``@method(..., inplace=True)``)."""

from __future__ import annotations

import pytest

import minigrad
from minigrad import _ops
from minigrad._ops._core import INPLACE_VARIANTS


@pytest.mark.parametrize("module", _ops.FUNCTIONS, ids=lambda m: m.__name__.rsplit(".")[-1])
def test_a_function_modules_all_is_pytorch_functions_and_exported(torch, module):
    not_torch = [n for n in module.__all__ if not hasattr(torch, n)]
    assert not not_torch, f"{module.__name__}.__all__ lists names torch has not: {not_torch}"
    assert all(n in minigrad.__all__ and hasattr(minigrad, n) for n in module.__all__)


def test_every_op_declared_in_place_has_its_in_place_method_as_in_pytorch(torch):
    assert INPLACE_VARIANTS
    for name in INPLACE_VARIANTS:
        assert hasattr(torch.Tensor, name + "_"), f"PyTorch has no {name}_: drop inplace=True"
        assert callable(getattr(minigrad.Tensor, name + "_"))


def test_the_in_place_method_writes_into_the_tensor_as_pytorch(torch):
    def run(L):
        x = L.tensor([0.5, -1.5, 2.0])
        return [getattr(x.clone(), name + "_")().tolist() for name in ("sgn", "floor", "neg")]

    assert run(minigrad) == run(torch)
