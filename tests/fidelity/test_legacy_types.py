"""The legacy typed tensor classes (torch.FloatTensor, torch.LongTensor, ...) that older and
Chinese tutorials use: as constructors, as type() arguments and results, in isinstance, and
their reprs and errors, each expression run on minigrad and on PyTorch."""

import numpy as np
import pytest
from helpers import assert_same_outcome

pytestmark = pytest.mark.torch

TYPES = ["FloatTensor", "DoubleTensor", "HalfTensor", "ByteTensor", "CharTensor",
         "ShortTensor", "IntTensor", "LongTensor", "BoolTensor"]

CONSTRUCTORS = [
    "lib.{T}([1, 2])", "lib.{T}([[1, 0], [3, 4]])", "lib.{T}((2, 3))", "lib.{T}(2, 3).shape",
    "lib.{T}(2, 3).zero_()", "lib.{T}()", "lib.{T}([])", "lib.{T}(0)",
    "lib.{T}(lib.Size([2, 3])).shape", "lib.{T}(np.array([1.5, 2.5]))", "lib.{T}(np.int64(3)).shape",
    "lib.{T}(2.5)", "lib.{T}('a')", "lib.{T}(True)", "lib.{T}(None)", "lib.{T}(np.float64(2.0))",
    "lib.{T}(2, [3])", "lib.{T}(2, 3.0)", "lib.{T}(-1)", "lib.{T}([1, 2], dtype=lib.float64)",
    "lib.{T}([1, 2], requires_grad=True)", "lib.{T}(2, device='cpu').shape",
    "lib.{T}(lib.tensor([1., 2.]))", "lib.{T}(lib.tensor([1, 2]))",
    "isinstance(lib.tensor([1., 2.]), lib.{T})", "isinstance(lib.tensor([1, 2]), lib.{T})",
    "isinstance(lib.tensor([True]), lib.{T})", "isinstance(lib.{T}([1]), lib.{T})",
    "isinstance(lib.nn.Parameter(lib.ones(1)), lib.{T})", "issubclass(lib.{T}, lib.Tensor)",
    "repr(lib.{T})", "lib.{T}.__name__", "lib.{T}.dtype", "lib.{T}.is_cuda",
    "lib.tensor([1.5, -2.5]).type(lib.{T})", "lib.tensor([1.5, -2.5]).type('torch.{T}')",
    "lib.tensor([1, 0]).type(lib.{T}).type()", "lib.{T}([1]).type()",
]


@pytest.mark.parametrize("T", TYPES)
@pytest.mark.parametrize("code", CONSTRUCTORS)
def test_legacy_type_expression_matches_pytorch(torch, T, code):
    assert_same_outcome(torch, code.replace("{T}", T).replace("np.", "__import__('numpy')."))


@pytest.mark.parametrize("code", [
    "lib.Tensor(lib.Size([2, 3])).shape", "lib.Tensor((2, 3))", "lib.Tensor(2, 3).shape",
    "lib.tensor([1., 2.]).type(lib.Tensor).dtype", "lib.tensor([1., 2.]).type()",
    "lib.tensor([1., 2.]).type('FloatTensor')", "lib.tensor([1., 2.]).type(int)",
    "lib.LongTensor([1.7, -2.7])", "lib.ByteTensor([-1, 300])", "lib.BoolTensor([2, 0])",
    "lib.FloatTensor(lib.tensor([1., 2.]), lib.tensor([1., 2.]))", "lib.FloatTensor([1], 2)",
    "lib.FloatTensor('a', 2)", "lib.FloatTensor(lib.tensor([1., 2.]), 2)",
    "lib.tensor([1., 2.]).type(float)", "lib.tensor([1., 2.]).type(bool)",
])
def test_legacy_constructor_edge_matches_pytorch(torch, code):
    assert_same_outcome(torch, code)


def test_a_legacy_alias_of_a_tensor_requiring_grad_records_alias_backward(torch):
    def run(lib):
        x = lib.tensor([1., 2.], requires_grad=True)
        y = lib.FloatTensor(x)
        (y * y).sum().backward()
        return y.grad_fn.name(), y.requires_grad, x.grad.tolist()
    import minigrad
    assert run(minigrad) == run(torch)


def test_legacy_constructor_gives_zeros_where_pytorch_leaves_memory_uninitialized():
    import minigrad
    assert np.array_equal(minigrad.FloatTensor(2, 3).numpy(), np.zeros((2, 3), np.float32))
