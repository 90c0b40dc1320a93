"""The start node of a backward pass from several outputs (``backward([y1, y2], [g1, g2])``).

>>> import minigrad as torch
>>> from minigrad.autograd.graph_root import GraphRoot
>>> x = torch.ones(2, requires_grad=True)
>>> GraphRoot([x * 2, x * 3]).name()
'torch::autograd::GraphRoot'
"""

from __future__ import annotations

from ._rule import _r
from .graph import Node, record

__all__ = ["GraphRoot"]


class GraphRoot(Node):
    """The start node when backward starts from several outputs (runs first, never a Step).

    Its input is the tuple of the outputs' gradients, which it sends along ``roots``.
    """

    rule = _r("backward() of several outputs", words=True,
              **{"*": "the gradient given for that output"})

    def __init__(self, roots):
        record(self, (), *roots)

    def name(self) -> str:
        return "torch::autograd::GraphRoot"

    def backward(self, grads):
        return grads
