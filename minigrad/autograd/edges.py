"""``torch.autograd.graph.GradientEdge``, ``get_gradient_edge`` and ``increment_version``.

>>> import minigrad as torch
>>> from minigrad.autograd.graph import get_gradient_edge
>>> a = torch.tensor([1., 2.], requires_grad=True)
>>> edge = get_gradient_edge(a * 2)
>>> edge.node.name(), edge.output_nr
('MulBackward0', 0)
"""

from __future__ import annotations

from typing import NamedTuple

from .._tensor import Tensor
from .engine import gradient_edge

__all__ = ["GradientEdge", "get_gradient_edge", "increment_version"]


class GradientEdge(NamedTuple):
    """Where a tensor's gradient is computed in the graph: a node and which of its outputs."""

    node: object
    output_nr: int
    ownership_token: object = None


def get_gradient_edge(tensor) -> GradientEdge:
    """The edge of the graph where ``tensor``'s gradient is computed (for a leaf: its
    AccumulateGrad node)."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    return GradientEdge(*gradient_edge(tensor))


def increment_version(tensor) -> None:
    """Count an in-place change made behind autograd's back (a tensor or a list of them), so
    that a node that saved the tensor raises when it is used."""
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        if not t._inference:
            t._vc[0] += 1
