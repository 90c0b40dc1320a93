"""The backward engine, as a generator of steps.

``steps(outputs, grads)`` yields one :class:`Step` per node it executes; ``backward()`` and
``autograd.grad()`` simply drain it, so a stepper that pulls one step at a time sees exactly
what the engine does.

**Execution order** (PyTorch's, for a backward on the CPU): first count, for every node
reachable from the outputs, how many edges point at it. A node is *ready* once gradients have
arrived along all of them. Ready nodes wait in a priority queue; the engine always runs the
ready node created most recently (highest ``_sequence_nr``), and ``AccumulateGrad`` nodes carry
the largest number so that a ready leaf is updated at once. Ties between leaves are broken the
way PyTorch's ``std::priority_queue`` (a binary heap) breaks them, reproduced by
``_heap_push``/``_heap_pop`` below. After a node runs, its gradients are sent along
``next_functions`` in order; gradients meeting at one input are summed.

>>> import minigrad as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> y = x * x + x
>>> [step.node.name() for step in steps(y)]
['AddBackward0', 'MulBackward0', 'AccumulateGrad']
>>> x.grad
tensor(5.)
"""

from __future__ import annotations

import numpy as np

from .._state import local as _mode
from .graph import AccumulateGrad, Node

__all__ = ["Step", "steps", "execution_order"]


class Step:
    """What the engine did at one node: read-only, and a snapshot unless made by ``backward()``.

    ``grads_in`` are the gradients that arrived (one per output of the forward op);
    ``grads_out`` are those sent along each entry of ``node.next_functions``. For an
    ``AccumulateGrad`` node, ``variable`` is the leaf tensor and ``grad_before``/``grad_after``
    its ``.grad`` around the update.
    """

    __slots__ = ("index", "node", "_grads_in", "_grads_out", "variable", "_before", "_after")

    def __init__(self, index, node, grads_in, grads_out, variable=None, before=None, after=None):
        self.index = index
        self.node = node
        self._grads_in = grads_in
        self._grads_out = grads_out
        self.variable = variable
        self._before = before
        self._after = after

    @property
    def is_accumulate(self) -> bool:
        return self.variable is not None

    @property
    def grads_in(self) -> tuple:
        return tuple(_as_tensor(g) for g in self._grads_in)

    @property
    def grads_out(self) -> tuple:
        return tuple(_as_tensor(g) for g in self._grads_out)

    @property
    def grad_before(self):
        return _as_tensor(self._before)

    @property
    def grad_after(self):
        return _as_tensor(self._after)

    def __repr__(self) -> str:
        extra = " accumulates into a leaf" if self.variable is not None else ""
        return f"<Step {self.index}: {self.node.name()}{extra}>"


def _as_tensor(g):
    from .._tensor import Tensor

    if g is None or isinstance(g, Tensor):
        return g
    return Tensor._wrap(g)


def _frozen(g):
    """A read-only copy of a gradient (array or tensor), for a Step snapshot."""
    if g is None:
        return None
    a = np.array(g._data if hasattr(g, '_data') else g, copy=True)
    a.flags.writeable = False
    return a


class GraphRoot(Node):
    """Internal start node when backward starts from several outputs (never shown as a step)."""

    def __init__(self, grads):
        self._grads = grads

    def backward(self, grad):
        return self._grads


# ---------------------------------------------------------------- the ready queue
def _heap_push(heap: list, node) -> None:
    """libstdc++'s push_heap with PyTorch's comparison (higher sequence number on top)."""
    heap.append(node)
    hole = len(heap) - 1
    seq = node._sequence_nr
    while hole > 0:
        parent = (hole - 1) // 2
        if not heap[parent]._sequence_nr < seq:
            break
        heap[hole] = heap[parent]
        hole = parent
    heap[hole] = node


def _heap_pop(heap: list):
    """libstdc++'s pop_heap + pop_back: take the top, re-heap the rest the same way C++ does."""
    top = heap[0]
    value = heap.pop()
    n = len(heap)
    if n == 0:
        return top
    hole = second = 0
    while second < (n - 1) // 2:
        second = 2 * (second + 1)
        if heap[second]._sequence_nr < heap[second - 1]._sequence_nr:
            second -= 1
        heap[hole] = heap[second]
        hole = second
    if n & 1 == 0 and second == (n - 2) // 2:
        second = 2 * (second + 1)
        heap[hole] = heap[second - 1]
        hole = second - 1
    seq = value._sequence_nr
    while hole > 0:
        parent = (hole - 1) // 2
        if not heap[parent]._sequence_nr < seq:
            break
        heap[hole] = heap[parent]
        hole = parent
    heap[hole] = value
    return top


# ---------------------------------------------------------------- graph analysis
def _dependencies(root) -> dict:
    """For every node reachable from ``root``: how many edges point at it (no recursion)."""
    deps = {}
    seen = {root}
    stack = [root]
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return deps


def _needed(root, targets) -> set:
    """The nodes on some path from ``root`` to a node in ``targets`` (iterative post-order)."""
    needed = set()
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
            if node in targets or any(n in needed for n, _ in node.next_functions):
                needed.add(node)
    return needed


# ---------------------------------------------------------------- running one node
def _run_tensor_hooks(node, grads, create_graph):
    """Tensor hooks and retain_grad of the node's outputs, before it runs (PyTorch's order)."""
    single = node._num_outputs == 1
    grads = [grads] if single else list(grads)
    if node._tensor_pre_hooks:
        for nr, hooks in node._tensor_pre_hooks.items():
            for hook in list(hooks.values()):
                if grads[nr] is not None:
                    grads[nr] = _call_grad_hook(hook, grads[nr], create_graph)
    if node._retains_grad:
        for nr, ref in node._retains_grad.items():
            t = ref()
            if t is not None and grads[nr] is not None:
                _store_retained(t, grads[nr], create_graph)
    return grads[0] if single else grads


def _call_grad_hook(hook, g, create_graph):
    from .._tensor import Tensor

    result = hook(g if isinstance(g, Tensor) else Tensor._wrap(g))
    if result is None:
        return g
    if not isinstance(result, Tensor):
        raise TypeError(f"hook should return None or a Tensor, got {type(result).__name__}")
    return result if create_graph else result._data


def _store_retained(t, g, create_graph):
    from .._tensor import Tensor

    new = g if isinstance(g, Tensor) else Tensor._wrap(g.copy())
    if not create_graph and isinstance(g, Tensor):
        new = g.detach().clone()
    t._grad = new if t._grad is None else t._grad + new


def _call_node(node, grads, create_graph):
    """Pre-hooks, the node's backward formula, un-broadcasting, post-hooks."""
    if node._pre_hooks:
        grads = _node_pre_hooks(node, grads)
    if node._num_outputs == 1 and grads is None:
        out = (None,) * len(node.next_functions)
    else:
        out = node.backward(grads)
        if node._sum_to is not None:
            out = _fix_grads(out, node._sum_to)
    if node._post_hooks:
        out = _node_post_hooks(node, out, grads)
    return out


def _fix_grads(grads, metas):
    from .functional_utils import sum_to

    return tuple(g if m is None or g is None else sum_to(g, m[0], m[1])
                 for g, m in zip(grads, metas))


def _node_pre_hooks(node, grads):
    single = node._num_outputs == 1
    as_tuple = tuple(_as_tensor(g) for g in ([grads] if single else grads))
    for hook in list(node._pre_hooks.values()):
        res = hook(as_tuple)
        if res is not None:
            as_tuple = tuple(res)
    raw = [g if (g is None or _mode.grad_enabled) else g._data for g in as_tuple]
    return raw[0] if single else raw


def _node_post_hooks(node, out, grads):
    grad_outputs = tuple(_as_tensor(g) for g in ([grads] if node._num_outputs == 1 else grads))
    grad_inputs = tuple(_as_tensor(g) for g in out)
    for hook in list(node._post_hooks.values()):
        res = hook(grad_inputs, grad_outputs)
        if res is not None:
            grad_inputs = tuple(res)
    return tuple(g if (g is None or _mode.grad_enabled) else g._data for g in grad_inputs)


def _accumulate(node: AccumulateGrad, grad, create_graph, snapshot):
    """Run a leaf's hooks and add ``grad`` to its ``.grad``; returns (before, after) for the Step."""
    var = node.variable
    if var._hooks:
        for hook in list(var._hooks.values()):
            grad = _call_grad_hook(hook, grad, create_graph)
    before = _frozen(var._grad) if snapshot and var._grad is not None else None
    if grad is not None:
        node.accumulate(grad, create_graph)
    if snapshot:
        return before, _frozen(var._grad)
    return None, var._grad


# ---------------------------------------------------------------- the loop
def _execute(roots, grads, keep_graph, create_graph, targets=None, snapshot=True):
    """Run the graph from ``roots`` (edges) seeded with ``grads``; yield a Step per node.

    ``targets`` (for ``inputs=``): node -> list of (input_nr, callback); the gradient arriving
    there is handed to ``callback`` instead of (or before) running the node, and only nodes on
    a path to a target run.
    """
    if len(roots) == 1:
        root, nr = roots[0]
        buffers = {root: grads[0] if root._num_outputs == 1 else _slot(root, nr, grads[0])}
    else:
        root = GraphRoot(tuple(grads))
        root.next_functions = tuple(roots)
        from .graph import _sequence

        root._sequence_nr = next(_sequence)
        buffers = {root: None}
    deps = _dependencies(root)
    needed = _needed(root, targets) if targets is not None else None
    heap = [root]
    index = 0
    previous_mode = _mode.grad_enabled
    while heap:
        node = _heap_pop(heap) if len(heap) > 1 else heap.pop()
        g = buffers.pop(node)
        if targets is not None and node in targets:
            if node._num_outputs == 1:
                g = _run_tensor_hooks(node, g, create_graph)
            for nr, callback in targets[node]:
                callback(g if node._num_outputs == 1 else g[nr])
            if node not in needed:
                continue
        elif needed is not None and node not in needed:
            continue
        _mode.grad_enabled = create_graph
        try:
            if type(node) is AccumulateGrad:
                before, after = _accumulate(node, g, create_graph, snapshot)
                step = Step(index, node, (_frozen(g) if snapshot else g,), (), node.variable,
                            before, after)
                index += 1
                yield_now = True
                out = ()
            else:
                if node._tensor_pre_hooks or node._retains_grad:
                    g = _run_tensor_hooks(node, g, create_graph)
                out = _call_node(node, g, create_graph)
                if not keep_graph:
                    node.release_variables()
                yield_now = type(node) is not GraphRoot
                if yield_now:
                    gin = (g,) if node._num_outputs == 1 else tuple(g)
                    if snapshot:
                        step = Step(index, node, tuple(_frozen(x) for x in gin),
                                    tuple(_frozen(x) for x in out))
                    else:
                        step = Step(index, node, gin, out)
                    index += 1
        finally:
            _mode.grad_enabled = previous_mode
        for (nxt, nr), gi in zip(node.next_functions, out):
            if nxt is None:
                continue
            left = deps[nxt] - 1
            deps[nxt] = left
            if needed is not None and nxt not in needed and nxt not in targets:
                continue
            if nxt._num_outputs == 1:
                if nxt in buffers:
                    old = buffers[nxt]
                    if gi is not None:
                        buffers[nxt] = gi if old is None else old + gi
                else:
                    buffers[nxt] = gi
            else:
                buf = buffers.get(nxt)
                if buf is None:
                    buf = buffers[nxt] = [None] * nxt._num_outputs
                if gi is not None:
                    buf[nr] = gi if buf[nr] is None else buf[nr] + gi
            if left == 0:
                if heap:
                    _heap_push(heap, nxt)
                else:
                    heap.append(nxt)
        if yield_now:
            yield step


def _slot(node, nr, g):
    buf = [None] * node._num_outputs
    buf[nr] = g
    return buf


def execution_order(*outputs) -> list:
    """The nodes a backward from ``outputs`` would run, in order, without running any.

    >>> import minigrad as torch
    >>> a = torch.tensor(1., requires_grad=True)
    >>> [n.name() for n in execution_order((a.exp() * a).sin())]
    ['SinBackward0', 'MulBackward0', 'ExpBackward0', 'AccumulateGrad']
    """
    roots = [(t.grad_fn, t.output_nr) for t in outputs if t.grad_fn is not None]
    if not roots:
        return []
    root = roots[0][0] if len(roots) == 1 else None
    if root is None:
        root = GraphRoot(())
        root.next_functions = tuple(roots)
        from .graph import _sequence

        root._sequence_nr = next(_sequence)
    deps = _dependencies(root)
    heap, order = [root], []
    while heap:
        node = _heap_pop(heap) if len(heap) > 1 else heap.pop()
        if type(node) is not GraphRoot:
            order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    _heap_push(heap, nxt)
    return order


def steps(tensors, grad_tensors=None, retain_graph=None, create_graph: bool = False, *,
          inputs=None, snapshot: bool = True):
    """Start a backward pass and return a generator yielding one :class:`Step` per node run.

    Arguments are those of ``autograd.backward``. Each ``next()`` runs exactly one node (the
    learner's tensors change for real: after an ``AccumulateGrad`` step, ``x.grad`` is
    updated). Grad mode is set for the node and restored before the step is handed back, so
    code run between two steps sees its own mode. With ``snapshot=False`` (what ``backward()``
    uses) the steps hold the live gradient arrays instead of read-only copies.
    """
    from . import _prepare_backward

    roots, grads, keep_graph, targets = _prepare_backward(
        tensors, grad_tensors, retain_graph, create_graph, inputs)
    return _execute(roots, grads, keep_graph, create_graph, targets, snapshot)
