"""What the engine reports after each node it runs: a :class:`Step`.

``engine.steps(...)`` yields one per node. A step holds the gradients the node received
(``grads_in``, one per output of the forward op), those it sent (``grads_out``, one per
``next_functions`` entry), where each received gradient came from (``contributions``) and, for
an ``AccumulateGrad`` node, the leaf's ``.grad`` before and after the update.

>>> import minigrad as torch
>>> from minigrad.autograd.engine import steps
>>> x = torch.tensor(3., requires_grad=True)
>>> mul, acc = steps(x * x)
>>> [c.edge for c in acc.contributions[0]], acc.grads_in[0]
([0, 1], tensor(6.))
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._tensor import Tensor
from .graph import AccumulateGrad

__all__ = ["Step", "Contribution"]

# One gradient arriving at a node: sent by `node` (None: the start gradient) along its edge
# `node.next_functions[edge]`.
Contribution = namedtuple("Contribution", "node edge grad")


class Step:
    """What the engine did at one node: a read-only snapshot (live arrays if ``snapshot=False``).

    ``grads_in`` are the gradients the node's formula received (one per output of the forward
    op, after tensor hooks and pre-hooks); ``grads_out`` those it sent along each entry of
    ``node.next_functions`` (None along edges that lead nowhere). ``contributions``: per
    element of ``grads_in``, the :class:`Contribution`\\ s summed into it (before hooks), in
    arrival order; a node reached along two edges (``x * x``) lists two. For an
    ``AccumulateGrad`` node, ``variable`` is the leaf tensor and ``grad_before``/``grad_after``
    its ``.grad`` around the update.
    """

    __slots__ = ("index", "node", "_grads_in", "_grads_out", "variable", "_before", "_after",
                 "_arrived")

    def __init__(self, index, node, grads_in, grads_out, variable=None, before=None, after=None,
                 arrived=()):
        self.index = index
        self.node = node
        self._grads_in = grads_in
        self._grads_out = grads_out
        self.variable = variable
        self._before = before
        self._after = after
        self._arrived = arrived  # (input_nr, sender, edge, grad) per gradient that came in

    @classmethod
    def made(cls, index, node, g, out, leaf, arrived, snapshot: bool) -> Step:
        """The step for ``node``, which received ``g`` and sent ``out``; ``leaf`` is the
        ``(before, after)`` of its ``.grad`` for an ``AccumulateGrad`` node."""
        keep = frozen if snapshot else _same
        grads_in = (g,) if node._num_outputs == 1 else tuple(g)
        grads_out = tuple(None if f is None else x for f, x in zip(node._next_nodes, out))
        step = cls(index, node, tuple(keep(x) for x in grads_in),
                   tuple(keep(x) for x in grads_out), arrived=arrived)
        if type(node) is AccumulateGrad:
            step.variable = node.variable
            step._before, step._after = leaf
        return step

    @property
    def is_accumulate(self) -> bool:
        return self.variable is not None

    @property
    def grads_in(self) -> tuple:
        return tuple(as_tensor(g) for g in self._grads_in)

    @property
    def grads_out(self) -> tuple:
        return tuple(as_tensor(g) for g in self._grads_out)

    @property
    def contributions(self) -> tuple:
        groups: list = [[] for _ in self._grads_in]
        for nr, node, edge, g in self._arrived:
            groups[nr].append(Contribution(node, edge, as_tensor(g)))
        return tuple(tuple(group) for group in groups)

    @property
    def grad_before(self):
        return as_tensor(self._before)

    @property
    def grad_after(self):
        return as_tensor(self._after)

    def __repr__(self) -> str:
        extra = " accumulates into a leaf" if self.variable is not None else ""
        return f"<Step {self.index}: {self.node.name()}{extra}>"


def as_tensor(g):
    """A gradient as the learner sees it: a Tensor (the engine may hold an ndarray)."""
    if g is None or isinstance(g, Tensor):
        return g
    return Tensor._wrap(g)


def frozen(g):
    """A read-only copy of a gradient (array or tensor), for a Step snapshot."""
    if g is None:
        return None
    a = np.array(g._data if isinstance(g, Tensor) else g, copy=True)
    a.flags.writeable = False
    return a


def _same(g):
    return g
