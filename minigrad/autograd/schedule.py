"""Which node the engine runs next: PyTorch's order, in one place.

:class:`GraphTask` is shared by the engine's loop (:func:`minigrad.autograd.engine.run`) and
:func:`minigrad.autograd.engine.execution_order` (which the stepper widget shows as its plan).
It counts, for every node reachable from the root, how many edges point at it; a node is
*ready* once gradients have arrived along all of them, and ready nodes wait in the priority
queue of :mod:`minigrad.autograd.ready_queue` (newest node first). A :class:`Plan` limits a
pass to the nodes that lead to the gradients wanted (``autograd.grad``, ``inputs=``).

>>> import minigrad as torch
>>> a = torch.tensor(1., requires_grad=True)
>>> y = a * 2
>>> task = GraphTask(y.grad_fn, {})
>>> node = task.pop(); node.name()
'MulBackward0'
>>> task.send(node, None, (None, None)); [n.name() for n in task.ready]
['torch::autograd::AccumulateGrad']
"""

from __future__ import annotations

import numpy as np

from .._layout import like_input
from . import hooks as _hooks
from .graph import AccumulateGrad
from .graph_root import GraphRoot
from .ready_queue import heap_pop, heap_push

__all__ = ["GraphTask", "Plan"]

_ndarray = np.ndarray  # (a global: cheaper than np.ndarray, see _tensor.py)


class GraphTask:
    """One backward pass: which node runs next, and the gradients waiting at each node.

    ``deps`` counts the edges into each node still to deliver; ``ready`` is the priority queue
    of nodes whose edges all have. ``buffers`` holds each node's gradient so far (a list for a
    node with several outputs). With a :class:`Plan`, only the nodes it needs run; the others
    are reached (and their gradient captured, if asked) but dropped. ``arrivals`` (kept for
    the stepper) lists where each gradient came from.
    """

    def __init__(self, root, buffers: dict, plan: Plan | None = None, keep_graph=True,
                 create_graph=False, arrivals: bool = False, keep=None, views=None):
        self.deps = _dependencies(root)
        self.ready = [root]
        self.buffers = buffers
        self.plan = plan
        self.wanted = None  # with a plan: the nodes whose gradient is wanted
        if plan is not None:
            plan.prepare(root)
            self.wanted = plan.wanted
            if root not in plan.wanted:
                self.ready = []
        self.release = not keep_graph
        self.create_graph = create_graph
        self.keep = keep  # how a gradient is kept for a Step: a frozen copy, or as is
        self.owned: set = set()  # AccumulateGrad nodes whose gradient no one else holds
        self.views = {} if views is None else views  # memory kept as .grad: its version counter
        self.arrivals: dict | None = {} if arrivals else None  # node -> [(nr, sender, edge, g)]
        if arrivals:
            self._note_start(root)

    def pop(self):
        """The next ready node (the newest: see ready_queue.py)."""
        ready = self.ready
        return heap_pop(ready) if len(ready) > 1 else ready.pop()

    def send(self, node, g, out) -> None:
        """Pass each gradient ``node`` computed (``out``) along its edge; those meeting at one
        input are summed. A node whose edges have all delivered becomes ready."""
        if self.arrivals is not None:
            self._note_arrivals(node, out)
        deps, buffers, wanted = self.deps, self.buffers, self.wanted
        for i, nxt in enumerate(node._next_nodes):  # (enumerate: cheaper than a 3-way zip)
            if nxt is None:
                continue
            left = deps[nxt] = deps[nxt] - 1
            if wanted is not None and nxt not in wanted:
                continue
            gi = out[i]
            if nxt._num_outputs != 1:
                nr = node._next_nrs[i]
                buf = buffers.setdefault(nxt, [None] * nxt._num_outputs)
                if gi is not None:
                    buf[nr] = gi if buf[nr] is None else buf[nr] + gi
            elif buffers.get(nxt) is None:
                buffers[nxt] = gi
                if type(nxt) is AccumulateGrad and _fresh(gi, g, out, node):
                    self.owned.add(nxt)
            elif gi is not None:
                old = buffers[nxt]
                buffers[nxt] = s = old + gi
                if type(s) is _ndarray and 1 in s.shape and 0 in old.strides:
                    buffers[nxt] = like_input(s, old)  # (PyTorch adds into the first in place)
                self.owned.add(nxt)  # the sum is a new array
            if left == 0:
                if self.ready:
                    heap_push(self.ready, nxt)
                else:  # (nothing to sift past)
                    self.ready.append(nxt)

    def _note_arrivals(self, node, out) -> None:
        """For the stepper: each gradient sent, with its sender (None for the start) and edge."""
        sender = None if type(node) is GraphRoot else node
        wanted = self.wanted
        for edge, (nxt, nr, gi) in enumerate(zip(node._next_nodes, node._next_nrs, out)):
            if nxt is not None and gi is not None and (wanted is None or nxt in wanted):
                self.arrivals.setdefault(nxt, []).append((nr, sender, edge, self.keep(gi)))

    def _note_start(self, root) -> None:
        """The start gradient(s), sent by None."""
        g = self.buffers.get(root)
        if g is not None and root._num_outputs == 1:
            self.arrivals[root] = [(0, None, 0, self.keep(g))]
        elif g is not None and type(root) is not GraphRoot:  # (a GraphRoot's go out as sent)
            self.arrivals[root] = [(nr, None, 0, self.keep(x)) for nr, x in enumerate(g)
                                   if x is not None]


def _fresh(gi, g, out, node) -> bool:
    """Whether array ``gi`` was just computed by ``node`` and sent on one edge only.

    Only then may a leaf keep it as its ``.grad`` without a copy (PyTorch steals a gradient
    that no one else holds: this saves one copy per leaf on large arrays); a gradient passed
    through, shared, or from user code is copied. (A view, such as nn.Linear's weight
    gradient, is kept only if nothing else reaches its memory: ``functional_utils.in_layout_of``.)
    """
    if type(gi) is not _ndarray or node._custom or node._hooked:
        return False
    if gi is g or (type(g) is list and any(gi is x for x in g)):
        return False
    n = 0
    for o in out:
        if o is gi:
            n += 1
    return n == 1


def _dependencies(root) -> dict:
    """For every node reachable from ``root``: how many edges point at it (no recursion)."""
    deps: dict = {}
    stack = [root]
    while stack:
        for nxt in stack.pop()._next_nodes:
            if nxt is not None:
                if nxt in deps:
                    deps[nxt] += 1
                else:
                    deps[nxt] = 1
                    stack.append(nxt)
    return deps


class Plan:
    """Which nodes run when only some gradients are wanted (``autograd.grad``, ``inputs=``).

    ``captures`` maps a node to ``(input_nr, slot)`` pairs: the gradient arriving there is kept
    in ``results[slot]``. ``must_run`` nodes execute (``backward(inputs=...)``). A node runs
    only if it is in ``must_run`` or has a path to a captured or running node.
    """

    def __init__(self, captures: dict, must_run=(), n_results: int = 0):
        self.captures = captures
        self.must_run = set(must_run)
        self.results = [None] * n_results
        self.needed: set = set()
        self.wanted: set = set()

    def prepare(self, root) -> None:
        """Find the nodes to run (iterative post-order walk from ``root``)."""
        wanted = self.must_run | self.captures.keys()
        needed = self.needed
        done = set()
        stack = [(root, iter(root.next_functions))]
        while stack:
            node, children = stack[-1]
            for nxt, _ in children:
                if nxt is not None and nxt not in done:
                    stack.append((nxt, iter(nxt.next_functions)))
                    break
            else:
                stack.pop()
                done.add(node)
                if node in self.must_run or any(
                        n in needed or n in wanted for n, _ in node.next_functions):
                    needed.add(node)
        self.wanted = needed | self.captures.keys()

    def visit(self, node, g) -> bool:
        """A node just came off the queue: capture its gradient if asked; whether it runs."""
        if node in self.captures:
            self.capture(node, g)
        return node in self.needed

    def capture(self, node, g) -> None:
        """Keep the gradient arriving at a captured node (after its hooks if it won't run)."""
        if node not in self.needed:  # PyTorch runs the tensor hooks here only
            if type(node) is AccumulateGrad:
                if node.variable._hooks:
                    g = _hooks.leaf_hooks(node.variable, g)
            elif node._hooked:
                g = _hooks.tensor_pre_hooks(node, g)
        for nr, slot in self.captures[node]:
            self.results[slot] = g if node._num_outputs == 1 else g[nr]
