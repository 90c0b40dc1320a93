"""``F.embedding`` against PyTorch: its checks in PyTorch's order (``padding_idx`` against the
number of rows, ``max_norm``'s renormalisation, the argument types, the number of rows a
recorded call saves, the weight's dimensions, the index dtype) and ``max_norm``, which scales
the rows it picks in place.

Each case is an expression run with ``lib`` bound to minigrad and to torch: the same repr (the
weight's too, after ``max_norm``) or the same exception type and message.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome

import minigrad as mg

pytestmark = pytest.mark.torch

CASES = [
    'F.embedding(lib.tensor(0), lib.tensor(2.5, requires_grad=True))',
    'F.embedding(lib.tensor([0]), lib.tensor(2.5, requires_grad=True))',
    'F.embedding(lib.tensor([0.]), lib.tensor(2.5, requires_grad=True))',
    'F.embedding(lib.tensor([0]), lib.tensor([2.5], requires_grad=True))',
    'F.embedding(lib.tensor([0]), lib.tensor([2.5]))',
    'F.embedding(lib.tensor([0]), lib.tensor(2.5))',
    'F.embedding(lib.tensor([0.]), lib.tensor(2.5))',
    'F.embedding(lib.tensor([0.]), lib.tensor([2.5]))',
    'F.embedding(lib.tensor([0.]), lib.ones(2, 2))',
    'F.embedding(lib.tensor([5]), lib.ones(2, 2))',
    'F.embedding(lib.tensor([0]), lib.ones(2, 2, 2))',
    'F.embedding(lib.tensor([0]), lib.ones(2, 2), padding_idx=3)',
    'F.embedding(lib.tensor([0]), lib.ones(2, 2), padding_idx=-3)',
    'F.embedding(lib.tensor([0]), lib.ones(2, 2), max_norm=1.)',
    'F.embedding(lib.tensor([0]), lib.tensor([2.5]), padding_idx=0)',
    'F.embedding(lib.tensor([0]), lib.tensor(2.5), padding_idx=0)',
    'F.embedding(lib.tensor([True]), lib.ones(2, 2))',
    'F.embedding(lib.tensor([0], dtype=lib.int32), lib.ones(2, 2))',
    'F.embedding(lib.tensor([0], dtype=lib.int32), lib.ones(2))',
    'F.embedding(lib.tensor([0]), lib.ones(2, dtype=lib.int64))',
    'F.embedding(lib.tensor([0]), lib.ones(2, 2, dtype=lib.int64))',
    'F.embedding([0], lib.ones(2, 2))',
    'F.embedding(lib.tensor([0]), [1., 2.])',
    'F.embedding(lib.tensor([0], dtype=lib.uint8), lib.ones(2, 2))',
    'F.embedding(lib.tensor([0], dtype=lib.int16), lib.ones(2, 2))',
    'F.embedding(lib.tensor([0], dtype=lib.float64), lib.ones(2, 2))',
    'F.embedding(lib.tensor([0], dtype=lib.int8), lib.ones(2, 2))',
    'F.embedding(lib.tensor([True]), lib.ones(2, 2), max_norm=1.)',
    'F.embedding(lib.tensor([0]), lib.ones(0, 2), padding_idx=0)',
    'F.embedding(lib.tensor([0]), lib.ones(0, 2), padding_idx=-1)',
    'F.embedding(lib.tensor([0]), lib.ones(3, 2), padding_idx=-3)',
    'F.embedding(lib.tensor([0]), lib.ones(3, 2), padding_idx=2)',
    'F.embedding(lib.tensor([0]), lib.ones(3, 2), padding_idx=3)',
    'F.embedding(lib.tensor([0]), lib.ones(3), max_norm=1.)',
    'F.embedding(lib.tensor([[0, 2], [1, 1]]), lib.tensor([[3., 4.], [0.1, 0.2], [-1., 2.]]), max_norm=1.5)',
    'F.embedding(lib.tensor([[0, 2], [1, 1]]), lib.tensor([[3., 4.], [0.1, 0.2], [-1., 2.]]), max_norm=1.5, norm_type=3)',
    'F.embedding(lib.tensor([[0, 2], [1, -1]]), lib.tensor([[3., 4.], [0.1, 0.2], [-1., 2.]]), max_norm=1.5, norm_type=3)',
    'F.embedding(lib.tensor([[0, 2], [1, 1]]), lib.tensor([[3., 4.], [0.1, 0.2], [-1., 2.]], requires_grad=True), max_norm=1.5)',
    'F.embedding(lib.tensor([0]), lib.tensor(2.5, requires_grad=True), padding_idx=0)',
    'F.embedding([0], lib.tensor(2.5, requires_grad=True))',
    'F.embedding([0], [1.])',
    'F.embedding(lib.tensor([0]), lib.tensor([2.5], requires_grad=True), padding_idx=1)',
    # max_norm changes the weight itself (once per row picked), outside the graph
    "(w := lib.tensor([[3., 4.], [0.1, 0.2]], requires_grad=True), "
    "F.embedding(lib.tensor([0, 0, 1]), w, max_norm=1.), w, w._version)",
    "(w := lib.tensor([[3., 4.], [0.1, 0.2]], dtype=lib.float64), "
    "F.embedding(lib.tensor([[1], [0]]), w, max_norm=2., norm_type=1.), w)",
]


@pytest.mark.parametrize("code", CASES)
def test_embedding_checks_and_max_norm_as_pytorch(torch, code):
    assert_same_outcome(torch, code)


def test_embedding_module_passes_max_norm_and_scale_grad_by_freq_on(torch):
    """``nn.Embedding(max_norm=..., scale_grad_by_freq=True)``: the weight after a forward and
    its gradient are PyTorch's."""
    out = []
    for L in (mg, torch):
        emb = L.nn.Embedding(3, 2, max_norm=1.0, scale_grad_by_freq=True)
        with L.no_grad():
            emb.weight.copy_(L.tensor([[3., 4.], [0.1, 0.2], [-1., 2.]]))
        emb(L.tensor([0, 2, 2])).pow(2).sum().backward()
        out.append((emb.weight.detach().numpy().tolist(), emb.weight.grad.numpy().tolist()))
    assert out[0] == out[1]
