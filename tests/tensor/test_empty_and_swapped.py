"""Empty tensors and leaves whose memory ``.data =`` swapped, against PyTorch: what the fuzzer
found failing with NumPy's errors where PyTorch computes (a leaf's gradient of another shape,
``unflatten`` of a dimension next to an empty one) and the strides PyTorch shows for an empty
tensor."""

from __future__ import annotations

import pytest
from helpers import assert_same_program, mg

pytestmark = pytest.mark.torch

LEAF = "x = torch.tensor([[1.5], [-0.5], [2.0]], requires_grad=True); "
SWAPPED_LEAF = {  # the graph was recorded before `.data =` gave the leaf another shape
    "same_numel": LEAF + "y = x * 2; x.data = torch.zeros(3); y.sum().backward()",
    "other_numel": LEAF + "y = x * 2; x.data = torch.zeros(2); y.sum().backward()",
    "softmax": LEAF + "y = torch.softmax(x, 0)\nwith torch.no_grad():\n    v = x.reshape(-1)\n"
                      "x.data = v; y.sum().backward(retain_graph=True)",
    "through_a_view": LEAF + "y = x[1:] * x[1:]; x.data = torch.ones(4, 1); y.sum().backward()",
    "create_graph": LEAF + "y = x ** 2; x.data = torch.zeros(3); "
                           "y.sum().backward(create_graph=True)",
    "create_graph_broadcast": "x = torch.tensor([1.5, -0.5], requires_grad=True); y = x ** 2; "
                              "x.data = torch.zeros(3, 2); y.sum().backward(create_graph=True)",
}


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph")  # (both warn)
@pytest.mark.parametrize("name", sorted(SWAPPED_LEAF))
def test_leaf_swapped_to_another_shape_gets_its_gradient_as_pytorch(torch, name):
    """PyTorch's AccumulateGrad keeps the gradient in the shape the graph computed it (NumPy's
    'could not broadcast' ValueError before)."""
    assert_same_program(torch, SWAPPED_LEAF[name] + "; r = (x.grad, x.shape)")


UNFLATTEN = [((0, 1), 0, (1, -1)), ((0, 2, 3), 2, (-1, 3)), ((2, 0), 1, (-1, 0)),
             ((2, 0), 1, (0, -1)), ((0, 6), 1, (2, -1)), ((4, 0), 0, (-1, 2)),
             ((4, 0), 0, (-1, 3)), ((6,), 0, (-1, 4)), ((0,), 0, (-1, 5)),
             ((0,), 0, (0, -1, 2)), ((3, 0, 2), -1, (1, -1))]


def _unflatten(lib, shape, dim, sizes):
    try:
        return tuple(lib.zeros(shape).unflatten(dim, sizes).shape)
    except RuntimeError as e:  # (PyTorch's C++ stack trace follows its message: not compared)
        return str(e).split("\nException raised from")[0]


@pytest.mark.parametrize(("shape", "dim", "sizes"), UNFLATTEN)
def test_unflatten_infers_its_size_within_the_dimension(torch, shape, dim, sizes):
    """-1 is inferred from dim's own size (the tensor's other empty dimensions made it
    'ambiguous' before), and the errors are PyTorch's."""
    assert _unflatten(mg, shape, dim, sizes) == _unflatten(torch, shape, dim, sizes)


@pytest.mark.parametrize("code", [
    "torch.zeros(0)", "torch.zeros(0, 3)", "torch.zeros(2, 0)", "torch.zeros(2, 0, 3)",
    "torch.zeros(0).log2()", "torch.ones(2, 0) * 2", "torch.empty(0, 0, 1)", "torch.ones(3)"])
def test_strides_of_an_empty_tensor_as_pytorch(torch, code):
    """PyTorch gives an empty tensor row-major strides (a size 0 counted as 1); NumPy's are 0."""
    assert_same_program(torch, f"t = {code}; r = (t.stride(), t.is_contiguous())")
