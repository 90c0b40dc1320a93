"""Nodes whose backward only raises: PyTorch's ``NotImplemented`` (floor division, a number
``%`` a tensor) and ``Error`` (a gradient of ``once_differentiable``).

PyTorch gives such a node the sequence number UINT64_MAX, as it gives ``AccumulateGrad``: the
engine runs it as soon as it is ready, before any node made earlier or later, so a backward
through it stops there, and the leaves it would have reached later keep their ``.grad``.

>>> import minigrad as torch
>>> x = torch.tensor([3.], requires_grad=True)
>>> (x // 2).grad_fn._sequence_nr == 2**64 - 1
True
"""

from __future__ import annotations

from .graph import AccumulateGrad, Node, record

__all__ = ["record_raising"]


def record_raising(node: Node, outputs, *inputs):
    """:func:`~minigrad.autograd.graph.record` for a node whose backward only raises: it takes
    UINT64_MAX (``AccumulateGrad``'s number)."""
    record(node, outputs, *inputs)
    node._sequence_nr = AccumulateGrad._sequence_nr
    return outputs
