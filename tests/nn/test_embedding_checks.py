"""``F.embedding`` against PyTorch: its checks in PyTorch's order (``padding_idx`` against the
number of rows, ``max_norm``'s renormalisation, the argument types, the number of rows a
recorded call saves, the weight's dimensions, the index dtype) and ``max_norm``, which scales
the rows it picks in place.

Each case (a line of ``tests/cases/embedding.txt``) is an expression run with ``lib`` bound to minigrad and to torch: the same repr (the
weight's too, after ``max_norm``) or the same exception type and message.
"""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome, cases, on_both

pytestmark = pytest.mark.torch

CASES = cases("embedding")


@pytest.mark.parametrize("code", CASES)
def test_embedding_checks_and_max_norm_as_pytorch(torch, code):
    assert_same_outcome(torch, code)


@on_both
def test_embedding_module_passes_max_norm_and_scale_grad_by_freq_on(L):
    """``nn.Embedding(max_norm=..., scale_grad_by_freq=True)``: the weight after a forward and
    its gradient are PyTorch's."""
    emb = L.nn.Embedding(3, 2, max_norm=1.0, scale_grad_by_freq=True)
    with L.no_grad():
        emb.weight.copy_(L.tensor([[3., 4.], [0.1, 0.2], [-1., 2.]]))
    emb(L.tensor([0, 2, 2])).pow(2).sum().backward()
    return emb.weight.detach().numpy().tolist(), emb.weight.grad.numpy().tolist()
