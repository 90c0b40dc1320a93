"""The backward engine, as a generator of steps.

``steps(outputs, grads)`` yields one :class:`Step` per node it executes; ``backward()`` and
``autograd.grad()`` run the same loop (:func:`run`) to the end, so a stepper that pulls one
step at a time sees exactly what the engine does.

**Execution order** (PyTorch's, for a backward on the CPU), kept by :class:`GraphTask`: first
count, for every node reachable from the outputs, how many edges point at it. A node is
*ready* once gradients have arrived along all of them. Ready nodes wait in a priority queue;
the engine always runs the ready node created most recently (highest ``_sequence_nr``), and
``AccumulateGrad`` nodes carry the largest number so that a ready leaf is updated at once. Ties
between leaves are broken the way PyTorch's ``std::priority_queue`` (a binary heap) breaks
them, reproduced in :mod:`minigrad.autograd.ready_queue`. After a node runs, its gradients are
sent along ``next_functions`` in order; gradients meeting at one input are summed.
:func:`execution_order` walks the same schedule without running anything.

>>> import minigrad as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> y = x * x + x
>>> [step.node.name() for step in steps(y)]
['AddBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
>>> x.grad
tensor(5.)
"""

from __future__ import annotations

import numpy as np

from .._quiet import quiet, restore
from .._state import anomaly as _anomaly
from .._state import local as _mode
from .._state import warn_once
from .._tensor import Tensor
from . import hooks as _hooks
from .anomaly_mode import check_nan, warn_failed_node
from .functional_utils import given_views, sum_to
from .graph import AccumulateGrad, grad_accumulator
from .graph_root import GraphRoot
from .ready_queue import heap_pop
from .reshaped import NOT_DIFFERENTIABLE, fit_gradients, fit_root, misfit
from .schedule import GraphTask, Plan
from .step import Contribution, Step, frozen

__all__ = ["Step", "Contribution", "steps", "execution_order", "run", "start", "GraphTask",
           "Plan", "GraphRoot"]


# ---------------------------------------------------------------- the loop
def run(root, buffers: dict, keep_graph: bool, create_graph: bool, plan: Plan | None = None,
        emit: bool = True, snapshot: bool = True, views: dict | None = None):
    """Run the graph from ``root``, whose gradient waits in ``buffers``; a generator.

    Each turn pops the next ready node, runs it (:func:`_execute`), sends its gradients along
    ``next_functions`` (:meth:`GraphTask.send`) and, with ``emit``, yields a :class:`Step`.
    Grad mode is ``create_graph`` while nodes run and the caller's own around each yield;
    without ``emit`` the whole pass runs on the first ``next()``.
    """
    task = GraphTask(root, buffers, plan, keep_graph, create_graph,
                     emit, (frozen if snapshot else _as_is) if emit else None, views)
    index, ready = 0, task.ready
    with _GradMode(create_graph) as mode:
        while ready:
            node = heap_pop(ready) if len(ready) > 1 else ready.pop()  # (task.pop(), inlined)
            g = buffers.pop(node, None)
            if plan is not None and not plan.visit(node, g):  # captured, not run
                continue
            try:
                g, out, leaf = _execute(node, g, task)
                if _anomaly.enabled and _anomaly.check_nan:
                    check_nan(node, out)
            except BaseException:
                if _anomaly.enabled:  # anomaly mode names the node and where it was made
                    warn_failed_node(node)
                raise
            if out:  # (a leaf sends nothing)
                task.send(node, g, out)
            if emit and type(node) is not GraphRoot:
                step = Step.made(index, node, g, out, leaf, task.arrivals.pop(node, ()),
                                 snapshot)
                index += 1
                mode.hand_back()
                yield step
                mode.take()


class _GradMode:
    """Grad mode set to ``create_graph`` while nodes run, the caller's around each yield;
    NumPy's float warnings off while nodes run (formulas meet inf and NaN as PyTorch's do)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def take(self) -> _GradMode:
        self.outer, self.running = _mode.grad_enabled, True
        _mode.grad_enabled = self.enabled
        self.numpy_state = quiet()
        return self

    def hand_back(self, *exc) -> None:
        if self.running:  # (a generator dropped between steps leaves the caller's mode alone)
            _mode.grad_enabled, self.running = self.outer, False
            restore(self.numpy_state)

    __enter__, __exit__ = take, hand_back  # (the same code, without a call more per pass)


def _as_is(g):
    return g


# ---------------------------------------------------------------- the order, without running
def execution_order(*outputs, inputs=None) -> list:
    """The nodes a backward from ``outputs`` (with ``inputs=``: towards those only) would run,
    in order, without running any: the engine's own :class:`GraphTask`, sent no gradients.

    >>> import minigrad as torch
    >>> a = torch.tensor(1., requires_grad=True)
    >>> [n.name() for n in execution_order((a * 2 + a) * 3)]
    ['MulBackward0', 'AddBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
    """
    edges = [gradient_edge(t) for t in outputs if t.requires_grad]
    if not edges:
        return []
    root = edges[0][0] if len(edges) == 1 else GraphRoot(edges)
    plan = None if inputs is None else _plan_for(as_tensors(inputs))
    task, order = GraphTask(root, {}, plan), []
    while task.ready:
        node = task.pop()
        if plan is None or node in plan.needed:
            if type(node) is not GraphRoot:
                order.append(node)
            task.send(node, None, (None,) * len(node._next_nodes))
    return order


# ---------------------------------------------------------------- running one node
def _execute(node, g, task: GraphTask):
    """Run one node: its hooks, its formula (with un-broadcasting), or a leaf's update.

    Returns the gradients it received (after hooks), those it sent, and for a leaf its
    ``.grad`` before and after (snapshots, if the task keeps them).
    """
    if type(node) is AccumulateGrad:
        var = node.variable
        if var._grad_fn is not None:  # (changed in place since: a history of its own)
            raise RuntimeError("leaf variable has been moved into the graph interior")
        if node._hooked or var._hooks or var._post_acc_hooks or task.keep is not None:
            return _run_leaf(node, g, task)
        if g is not None and var._requires_grad:  # a plain leaf and no Step to show: the
            node.accumulate(g, node in task.owned, task.create_graph, task.views)  # alone
        return g, (), None
    if node._hooked:  # tensor hooks, retain_grad, pre-hooks (steps 1-3 in hooks.py)
        if node._tensor_pre_hooks or node._retains_grad:
            g = _hooks.tensor_pre_hooks(node, g)
        if node._pre_hooks:
            g = _hooks.pre_hooks(node, g)
    if g is None if node._num_outputs == 1 else all(x is None for x in g):
        if not node._custom:  # no gradient came: no formula runs (a custom Function's does)
            return g, (None,) * len(node._next_nodes), None
    out = node.backward(g)
    if misfit[0]:  # (a tensor changed shape or dtype after its node was made: see reshaped.py)
        out = fit_gradients(node, out)
    elif node._sum_to is not None:  # the forward broadcast: sum back to each input's shape
        out = tuple(x if m is None or x is None else sum_to(x, m[0], m[1])
                    for x, m in zip(out, node._sum_to))
    if task.release and node._has_saved:
        node.release_variables()
    if node._post_hooks:
        out = _hooks.post_hooks(node, _live(node, out), g)
    return g, out, None


def _run_leaf(node: AccumulateGrad, g, task: GraphTask):
    """Hooks of the leaf, the update of its ``.grad``, post-hooks."""
    var, owned = node.variable, node in task.owned
    if var._hooks and g is not None:
        new = _hooks.leaf_hooks(var, g)
        owned, g = owned and new is g, new
    if node._pre_hooks:
        new = _hooks.pre_hooks(node, g)
        owned, g = owned and new is g, new
    keep = task.keep  # (None: no Step to show the grad in)
    before = None if keep is None else keep(var._grad)
    if g is not None:
        if var._requires_grad:  # (a leaf set to requires_grad_(False) since keeps its .grad)
            node.accumulate(g, owned, task.create_graph, task.views)
        for hook in list((var._post_acc_hooks or {}).values()):
            hook(var)
    if node._post_hooks:
        _hooks.post_hooks(node, (), g)
    return g, (), (before, var._grad if keep is None else keep(var._grad))


def _live(node, out) -> tuple:
    """The gradients as PyTorch shows them: None along edges that lead nowhere."""
    return tuple(None if f is None else x for f, x in zip(node._next_nodes, out))


# ---------------------------------------------------------------- starting a backward pass
def steps(tensors, grad_tensors=None, retain_graph=None, create_graph: bool = False, *,
          inputs=None, snapshot: bool = True):
    """Start a backward pass and return a generator yielding one :class:`Step` per node run.

    Arguments are those of ``autograd.backward``. Each ``next()`` runs exactly one node (the
    learner's tensors change for real: after an ``AccumulateGrad`` step, ``x.grad`` is
    updated). Grad mode is set for the node and restored before the step is handed back, so
    code run between two steps sees its own mode. With ``snapshot=False`` the steps hold the
    live gradient arrays instead of read-only copies.
    """
    return start(tensors, grad_tensors, retain_graph, create_graph, inputs, emit=True,
                 snapshot=snapshot)


CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak."
)


def start(tensors, grad_tensors, retain_graph, create_graph, inputs, *, emit, snapshot=True):
    """Check the arguments of ``backward`` and return the engine's generator for them."""
    if grad_tensors is None and inputs is None and not create_graph and type(tensors) is Tensor:
        start_node = _loss_root(tensors)  # `loss.backward()`: nothing else to check (saves ~1 us)
        if start_node is not None:
            return run(start_node[0], start_node[1], bool(retain_graph), False, None, emit,
                       snapshot)
    outputs = as_tensors(tensors)
    if inputs is not None:
        inputs = as_tensors(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    given = tensor_tuple(grad_tensors, len(outputs))
    grads = make_grads(outputs, given, create_graph)
    if not outputs:
        return iter(())
    root, buffers = graph_root(outputs, grads)
    if inputs is not None:
        for t in inputs:
            t.retain_grad()  # as PyTorch: a non-leaf input keeps its .grad from now on
    if create_graph:  # (PyTorch warns once per process)
        warn_once("create_graph", CREATE_GRAPH_WARNING, _user_stacklevel())
    keep_graph = create_graph if retain_graph is None else retain_graph
    plan = None if inputs is None else _plan_for(inputs)
    views = None if grad_tensors is None else given_views(given)  # (memory .grad may keep)
    return run(root, buffers, keep_graph, create_graph, plan, emit, snapshot, views)


def _loss_root(t):
    """For the commonest call, a float scalar with a history and no gradient given: its node
    and the gradient 1 to start from; None in every other case (then make_grads and
    graph_root check the arguments and raise PyTorch's errors)."""
    node, data = t._grad_fn, t._data
    if node is None or t._base is not None or node._num_outputs != 1 or data.size != 1 \
            or data.dtype.kind != "f" or node._expected is not None:  # (a view's grad_fn may
        return None  # need bringing up to date; a tensor changed since, its gradient checking)
    g, shape = np.array(1, data.dtype), data.shape
    return node, {node: g.reshape(shape) if shape else g}


def _plan_for(inputs) -> Plan:
    """The plan of ``backward(inputs=...)``: run only what leads to those tensors."""
    return Plan({}, must_run=[gradient_edge(t)[0] for t in inputs])


def make_grads(outputs, grads, create_graph: bool) -> list:
    """PyTorch's ``_make_grads``: check the given gradients, make ones for scalar outputs."""
    made = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out.requires_grad:
                data = out._data
                if data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if data.dtype.kind != "f":
                    raise RuntimeError("grad can be implicitly created only for real scalar "
                                       f"outputs but got {out.dtype}")
                ones = np.array(1, data.dtype).reshape(data.shape)  # cheaper than np.ones
                g = Tensor._wrap(ones) if create_graph else ones
            made.append(g)
            continue
        if not isinstance(g, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
        if g._data.shape != out._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                f"has a shape of {out.shape}.")
        if g._data.dtype != out._data.dtype:  # the engine casts it to the output's dtype
            g = g.to(out.dtype) if create_graph else Tensor._wrap(
                g._data.astype(out._data.dtype))
        made.append(g if create_graph else g._data)
    return made


def graph_root(outputs, grads):
    """The node backward starts from and its input buffer (a GraphRoot for several outputs)."""
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    edges = []
    for i, out in enumerate(outputs):
        if not out._requires_grad or (out._view_no_grad and out.grad_fn is None):
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(gradient_edge(out))
    for out in outputs:  # (after every output's check, as PyTorch's engine starts)
        if out._data.dtype.kind not in "fc":
            raise RuntimeError(NOT_DIFFERENTIABLE.format(out.dtype))
    if misfit[0]:  # (some tensor's shape or dtype changed after its node was recorded)
        grads = fit_root(edges, grads)
    if len(edges) == 1:
        node, nr = edges[0]
        g = grads[0]
        if node._num_outputs != 1:
            g = [None] * node._num_outputs
            g[nr] = grads[0]
        return node, {node: g}
    root = GraphRoot(edges)
    return root, {root: tuple(grads)}


def gradient_edge(t) -> tuple:
    """Where the gradient of tensor ``t`` enters the graph: ``(node, input_nr)``."""
    if t.grad_fn is not None:
        return t._grad_fn, t._output_nr
    return grad_accumulator(t), 0


def as_tensors(x) -> tuple:
    return (x,) if isinstance(x, Tensor) else tuple(x)


def tensor_tuple(x, length: int) -> tuple:
    """``None`` -> ``(None,) * length``; a tensor -> ``(tensor,)``; a sequence -> a tuple."""
    if x is None:
        return (None,) * length
    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first caller outside minigrad."""
    import os
    import sys

    package = os.path.dirname(os.path.dirname(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level
