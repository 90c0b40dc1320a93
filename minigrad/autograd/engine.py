"""The backward engine, as a generator of steps.

``steps(outputs, grads)`` yields one :class:`Step` per node it executes; ``backward()`` and
``autograd.grad()`` run the same loop to the end, so a stepper that pulls one step at a time
sees exactly what the engine does.

**Execution order** (PyTorch's, for a backward on the CPU): first count, for every node
reachable from the outputs, how many edges point at it. A node is *ready* once gradients have
arrived along all of them. Ready nodes wait in a priority queue; the engine always runs the
ready node created most recently (highest ``_sequence_nr``), and ``AccumulateGrad`` nodes carry
the largest number so that a ready leaf is updated at once. Ties between leaves are broken the
way PyTorch's ``std::priority_queue`` (a binary heap) breaks them, reproduced in
:mod:`minigrad.autograd.ready_queue`. After a node runs, its gradients are sent along
``next_functions`` in order; gradients meeting at one input are summed.

>>> import minigrad as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> y = x * x + x
>>> [step.node.name() for step in steps(y)]
['AddBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
>>> x.grad
tensor(5.)
"""

from __future__ import annotations

import warnings
from collections import namedtuple

import numpy as np

from .._state import local as _mode
from .._tensor import Tensor
from . import hooks as _hooks
from .functional_utils import sum_to
from .graph import AccumulateGrad, Node, record
from .ready_queue import heap_pop, heap_push

__all__ = ["Step", "Contribution", "steps", "execution_order", "GraphRoot"]

# One gradient arriving at a node: sent by `node` (None: the start gradient) along its edge.
Contribution = namedtuple("Contribution", "node edge grad")


class Step:
    """What the engine did at one node: a read-only snapshot (live arrays if ``snapshot=False``).

    ``grads_in`` are the gradients the node's formula received (one per output of the forward
    op, after tensor hooks and pre-hooks); ``grads_out`` those it sent along each entry of
    ``node.next_functions``. For an ``AccumulateGrad`` node, ``variable`` is the leaf tensor
    and ``grad_before``/``grad_after`` its ``.grad`` around the update.

    ``contributions``: per element of ``grads_in``, the ``Contribution``\\ s summed into it
    (before hooks), in arrival order; a node reached along two edges (``x * x``) lists two.
    """

    __slots__ = ("index", "node", "_grads_in", "_grads_out", "variable", "_before", "_after",
                 "_arrived")

    def __init__(self, index, node, grads_in, grads_out, variable=None, before=None, after=None):
        self.index = index
        self.node = node
        self._grads_in = grads_in
        self._grads_out = grads_out
        self.variable = variable
        self._before = before
        self._after = after
        self._arrived = ()

    @property
    def contributions(self) -> tuple:
        groups = [[] for _ in self._grads_in]
        for nr, node, edge, g in self._arrived:
            groups[nr].append(Contribution(node, edge, _as_tensor(g)))
        return tuple(map(tuple, groups))

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
    if g is None or isinstance(g, Tensor):
        return g
    return Tensor._wrap(g)


def _frozen(g):
    """A read-only copy of a gradient (array or tensor), for a Step snapshot."""
    if g is None:
        return None
    a = np.array(g._data if hasattr(g, "_data") else g, copy=True)
    a.flags.writeable = False
    return a


class GraphRoot(Node):
    """The start node when backward starts from several outputs (runs first, never a Step).

    Its input is the tuple of the outputs' gradients, which it sends along ``roots``.
    """

    def __init__(self, roots):
        record(self, (), *roots)

    def name(self) -> str:
        return "torch::autograd::GraphRoot"

    def backward(self, grads):
        return grads


# ---------------------------------------------------------------- graph analysis
def _dependencies(root) -> dict:
    """For every node reachable from ``root``: how many edges point at it (no recursion)."""
    deps = {}
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

    def capture(self, node, g):
        """Keep the gradient arriving at a captured node (after its hooks if it won't run)."""
        if node not in self.needed:  # PyTorch runs the tensor hooks here only
            if type(node) is AccumulateGrad:
                if node.variable._hooks:
                    g = _hooks.leaf_hooks(node.variable, g)
            elif node._hooked:
                g = _hooks.tensor_pre_hooks(node, g)
        for nr, slot in self.captures[node]:
            self.results[slot] = g if node._num_outputs == 1 else g[nr]


# ---------------------------------------------------------------- running one node
def _run_hooked(node, g, release, create_graph):
    """A node with hooks: tensor hooks, retain_grad, pre-hooks, formula, post-hooks."""
    if node._tensor_pre_hooks or node._retains_grad:
        g = _hooks.tensor_pre_hooks(node, g)
    if node._pre_hooks:
        g = _hooks.pre_hooks(node, g)
    out = _apply(node, g)
    if release and node._has_saved:
        node.release_variables()
    if node._post_hooks:
        out = _hooks.post_hooks(node, _live(node, out), g)
    return g, out


def _live(node, out) -> tuple:
    """The gradients as PyTorch shows them: None along edges that lead nowhere."""
    return tuple(None if f is None else x for f, x in zip(node._next_nodes, out))


def _apply(node, g):
    """The node's formula, with un-broadcasting; no formula runs when no gradient came."""
    if node._num_outputs == 1:
        if g is None and not node._custom:
            return (None,) * len(node._next_nodes)
    elif not node._custom and all(x is None for x in g):
        return (None,) * len(node._next_nodes)
    out = node.backward(g)
    if node._sum_to is not None:
        out = _sum_back(out, node._sum_to)
    return out


def _check_nan(node, out) -> None:
    """Anomaly mode: a node whose backward returned NaN is named (PyTorch's message)."""
    for i, gi in enumerate(out):
        if gi is not None and np.isnan(_as_array(gi)).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                               "output.")


def _warn_anomaly(node) -> None:
    """Anomaly mode: say which node failed, with its forward traceback if one was kept."""
    trace = (node._metadata or {}).get("traceback_", "")
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the "
                  f"error:\n{''.join(trace)}", stacklevel=2)


def _as_array(g):
    return g._data if isinstance(g, Tensor) else np.asarray(g)


def _sum_back(grads, metas) -> tuple:
    """Sum each gradient back to its input's shape and dtype (the forward broadcast them)."""
    return tuple(g if m is None or g is None else sum_to(g, m[0], m[1])
                 for g, m in zip(grads, metas))


def _fresh(gi, g, out, node) -> bool:
    """Whether array ``gi`` was just computed by ``node`` and sent on one edge only.

    Only then may a leaf keep it as its ``.grad`` without a copy (PyTorch steals a gradient
    that no one else holds); a gradient passed through, shared, or from user code is copied.
    """
    if type(gi) is not np.ndarray or gi.base is not None or node._custom or node._hooked:
        return False
    if gi is g or (type(g) is list and any(gi is x for x in g)):
        return False
    n = 0
    for o in out:
        if o is gi:
            n += 1
    return n == 1


def _run_leaf(node: AccumulateGrad, g, owned, create_graph, snapshot):
    """Hooks of the leaf, the update of its ``.grad``, post-hooks; returns (g, before, after)."""
    var = node.variable
    if var._hooks and g is not None:
        new = _hooks.leaf_hooks(var, g)
        owned = owned and new is g
        g = new
    if node._pre_hooks:
        new = _hooks.pre_hooks(node, g)
        owned = owned and new is g
        g = new
    before = _frozen(var._grad) if snapshot else None
    if g is not None:
        node.accumulate(g, owned, create_graph)
        if var._post_acc_hooks:
            for hook in list(var._post_acc_hooks.values()):
                hook(var)
    if node._post_hooks:
        _hooks.post_hooks(node, (), g)
    return g, before, (_frozen(var._grad) if snapshot else var._grad)


def _route_multi(buffers, nxt, nr, gi) -> None:
    """Add gradient ``gi`` to input ``nr`` of a node with several outputs."""
    buf = buffers.get(nxt)
    if buf is None:
        buf = buffers[nxt] = [None] * nxt._num_outputs
    if gi is not None:
        buf[nr] = gi if buf[nr] is None else buf[nr] + gi


# ---------------------------------------------------------------- the loop
def run(root, buffers: dict, keep_graph: bool, create_graph: bool, plan: Plan | None = None,
        emit: bool = True, snapshot: bool = True):
    """Run the graph from ``root``, whose gradient waits in ``buffers``; a generator.

    With ``emit`` it yields a :class:`Step` after each node (grad mode is set to
    ``create_graph`` while a node runs and given back before each yield); without, it runs to
    the end on the first ``next()``.
    """
    deps = _dependencies(root)
    if plan is not None:
        plan.prepare(root)
        wanted, needed = plan.wanted, plan.needed
        if root not in wanted:
            return
    heap = [root]
    owned = set()  # AccumulateGrad nodes whose buffered gradient no one else holds
    release = not keep_graph
    index = 0
    leaf_type, pop, push = AccumulateGrad, heap_pop, heap_push  # locals: a faster loop
    outer = _mode.grad_enabled
    _mode.grad_enabled = create_graph
    arrivals = _first_arrivals(root, buffers, snapshot) if emit else None
    while heap:
        node = pop(heap) if len(heap) > 1 else heap.pop()
        g = buffers.pop(node, None)
        if plan is not None:
            if node in plan.captures:
                try:
                    plan.capture(node, g)
                except BaseException:
                    _mode.grad_enabled = outer
                    raise
            if node not in needed:
                continue
        try:
            if type(node) is leaf_type:
                var = node.variable
                if emit or node._hooked or var._hooks or var._post_acc_hooks:
                    g, before, after = _run_leaf(node, g, node in owned, create_graph,
                                                 emit and snapshot)
                elif g is not None:  # the common case, inlined: no hooks, no Step to report
                    node.accumulate(g, node in owned, create_graph)
                out = ()
            elif node._hooked:
                g, out = _run_hooked(node, g, release, create_graph)
            else:
                if g is not None and node._num_outputs == 1:  # the common case, inlined
                    out = node.backward(g)
                    if node._sum_to is not None:
                        out = _sum_back(out, node._sum_to)
                else:
                    out = _apply(node, g)
                if release and node._has_saved:
                    node.release_variables()
            if _mode.anomaly_enabled and _mode.anomaly_check_nan:
                _check_nan(node, out)
        except BaseException:
            _mode.grad_enabled = outer
            if _mode.anomaly_enabled:
                _warn_anomaly(node)
            raise
        if arrivals is not None:
            _note_arrivals(arrivals, node, out, wanted if plan is not None else None, snapshot)
        for nxt, nr, gi in zip(node._next_nodes, node._next_nrs, out):
            if nxt is None:
                continue
            left = deps[nxt] - 1
            deps[nxt] = left
            if plan is not None and nxt not in wanted:
                continue
            if nxt._num_outputs != 1:
                _route_multi(buffers, nxt, nr, gi)
            elif nxt not in buffers:
                buffers[nxt] = gi
                if type(nxt) is leaf_type and _fresh(gi, g, out, node):
                    owned.add(nxt)
            elif gi is not None:
                old = buffers[nxt]
                if old is None:
                    buffers[nxt] = gi
                    if type(nxt) is leaf_type and _fresh(gi, g, out, node):
                        owned.add(nxt)
                else:
                    buffers[nxt] = old + gi
                    owned.add(nxt)
            if left == 0:
                if heap:
                    push(heap, nxt)
                else:
                    heap.append(nxt)
        if emit and type(node) is not GraphRoot:
            step = _make_step(index, node, g, out, snapshot)
            step._arrived = arrivals.pop(node, ())
            if step.variable is not None:
                step._before, step._after = before, after
            index += 1
            _mode.grad_enabled = outer
            yield step
            outer = _mode.grad_enabled  # the caller may have changed it between steps
            _mode.grad_enabled = create_graph
    _mode.grad_enabled = outer


def _first_arrivals(root, buffers, snapshot) -> dict:
    """node -> [(input_nr, sender, edge, grad)]: first the start gradient, sent by None."""
    g, keep = buffers.get(root), (_frozen if snapshot else (lambda x: x))
    if type(root) is GraphRoot or g is None:
        return {}
    gs = [g] if root._num_outputs == 1 else g
    return {root: [(nr, None, 0, keep(x)) for nr, x in enumerate(gs) if x is not None]}


def _note_arrivals(arrivals, node, out, wanted, snapshot) -> None:
    sender = None if type(node) is GraphRoot else node
    for edge, (nxt, nr, gi) in enumerate(zip(node._next_nodes, node._next_nrs, out)):
        if nxt is not None and gi is not None and (wanted is None or nxt in wanted):
            arrivals.setdefault(nxt, []).append(
                (nr, sender, edge, _frozen(gi) if snapshot else gi))


def _make_step(index, node, g, out, snapshot) -> Step:
    gin = (g,) if node._num_outputs == 1 else tuple(g)
    var = node.variable if type(node) is AccumulateGrad else None
    out = _live(node, out)
    if snapshot:
        return Step(index, node, tuple(_frozen(x) for x in gin),
                    tuple(_frozen(x) for x in out), var)
    return Step(index, node, gin, out, var)


def execution_order(*outputs) -> list:
    """The nodes a backward from ``outputs`` would run, in order, without running any.

    >>> import minigrad as torch
    >>> a = torch.tensor(1., requires_grad=True)
    >>> [n.name() for n in execution_order((a * 2 + a) * 3)]
    ['MulBackward0', 'AddBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
    """
    from .graph import grad_accumulator

    roots = [(t._grad_fn or grad_accumulator(t), t._output_nr) for t in outputs
             if t._requires_grad]
    if not roots:
        return []
    root = roots[0][0] if len(roots) == 1 else GraphRoot(roots)
    deps = _dependencies(root)
    heap, order = [root], []
    while heap:
        node = heap_pop(heap) if len(heap) > 1 else heap.pop()
        if type(node) is not GraphRoot:
            order.append(node)
        for nxt in node._next_nodes:
            if nxt is not None:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heap_push(heap, nxt)
    return order


def steps(tensors, grad_tensors=None, retain_graph=None, create_graph: bool = False, *,
          inputs=None, snapshot: bool = True):
    """Start a backward pass and return a generator yielding one :class:`Step` per node run.

    Arguments are those of ``autograd.backward``. Each ``next()`` runs exactly one node (the
    learner's tensors change for real: after an ``AccumulateGrad`` step, ``x.grad`` is
    updated). Grad mode is set for the node and restored before the step is handed back, so
    code run between two steps sees its own mode. With ``snapshot=False`` the steps hold the
    live gradient arrays instead of read-only copies.
    """
    from . import _start_backward

    return _start_backward(tensors, grad_tensors, retain_graph, create_graph, inputs,
                           emit=True, snapshot=snapshot)
