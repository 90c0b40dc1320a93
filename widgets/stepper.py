"""``BackwardStepper``: run backward() one node at a time, forwards and back.

For a minigrad tensor the stepper drives minigrad's real engine
(``minigrad.autograd.engine.steps``): each ``step()`` runs exactly one node, and the
learner's tensors change for real (after an ``AccumulateGrad`` step, ``x.grad`` in another
cell is what the panel says). For a PyTorch tensor, whose C++ engine cannot stop between
nodes, the stepper runs PyTorch's own ``backward()`` once when it is created, records every
node with hooks, puts every ``.grad`` back, and then replays the record step by step.
"""

from __future__ import annotations

import numpy as np

from ._format import format_array, format_value, is_leaf_node
from .graph_model import GRADIENT_EDGES, build_graph, outputs_of
from .names import resolve_names
from .reduce import limit_graph
from .stepping import EngineSource, StepLog, Watch, record_torch
from .text import graph_tree, panel_text
from .widget import WidgetBase

__all__ = ["BackwardStepper"]

_EDGE_STATE = {"pending": "pending", "current": "active", "done": "done"}
_RUNNABLE = ("backward", "leaf", "chain")
LIST_WINDOW = 12  # steps listed before and after the current one in the text form


def _library(t) -> str:
    return type(t).__module__.partition(".")[0]


class BackwardStepper(WidgetBase):
    """Step through ``loss.backward(gradient, retain_graph, create_graph, inputs)`` node by node.

    Buttons Reset, Back, Step, Run and Play in the notebook; ``step()``, ``back()``,
    ``reset()`` and ``run()`` in Python do the same. The panel shows the gradients entering
    and leaving the current node, and for an ``AccumulateGrad`` step the leaf's ``.grad``
    before, plus the incoming gradient, equals after, and that ``variable is x``.

    ``back()`` puts back every ``.grad`` the last step changed (the very same objects with
    the same values); stepping forward again replays the step from the record, so back then
    step changes nothing, and ``reset()`` goes back to before ``backward()``. The engine
    runs each node only once, so none of this needs ``retain_graph=True``; after ``run()``
    the tensors are exactly as a plain ``backward()`` leaves them.

    With PyTorch tensors, PyTorch's backward runs (for real, with hooks recording each node)
    when the stepper is made; every ``.grad`` is then put back and the steps are replayed.

    >>> import minigrad as torch
    >>> x = torch.tensor(2., requires_grad=True)
    >>> stepper = BackwardStepper(x * x + x)
    >>> stepper.step(); stepper.step()
    >>> stepper.total_steps, x.grad
    (3, None)
    >>> stepper.step(); x.grad
    tensor(5.)
    >>> stepper.back(); print(x.grad)
    None
    """

    def __init__(self, loss, gradient=None, retain_graph=None, create_graph: bool = False,
                 inputs=None, names=None, *, max_nodes: int | None = None, **kwargs):
        super().__init__(kind="stepper", **kwargs)
        outputs = outputs_of(loss)
        self._outputs = outputs
        self._seeds = (None,) * len(outputs) if gradient is None else outputs_of(gradient)
        graph = build_graph(outputs, names=resolve_names(names))
        self._graph = graph
        self._show(limit_graph(graph, max_nodes))
        inputs_t = outputs_of(inputs) if inputs is not None else ()
        watch = Watch(self._watched(graph, inputs_t))
        if _library(outputs[0]) == "minigrad":
            from minigrad.autograd import engine

            gen = engine.steps(loss, gradient, retain_graph, create_graph, inputs=inputs,
                               snapshot=True)
            self._planned = engine.execution_order(*outputs, inputs=inputs_t or None)
            self._log = StepLog(watch, EngineSource(gen, self._describe, self._leaf_names))
        else:
            import importlib

            autograd = importlib.import_module(_library(outputs[0])).autograd

            def backward():
                autograd.backward(loss, grad_tensors=gradient, retain_graph=retain_graph,
                                  create_graph=create_graph, inputs=inputs)

            records = record_torch(backward, list(graph.node_of), watch, self._describe,
                                   self._leaf_names)
            self._planned = [rec.node for rec in records]
            self._log = StepLog(watch, None, records)
        self.on_msg(self._on_msg)
        self._sync()

    # ------------------------------------------------------------ the Python twins
    def step(self) -> None:
        """Run the next node (or redo it from the record after ``back()``)."""
        self._log.forward()
        self._sync()

    def back(self) -> None:
        """Undo the last step: each ``.grad`` it changed is put back as it was."""
        self._log.backward()
        self._sync()

    def reset(self) -> None:
        """Undo every step: all ``.grad`` as before ``backward()``; stepping starts over."""
        while self._log.backward() is not None:
            pass
        self.playing = False
        self._sync()

    def run(self) -> None:
        """Run every remaining step (tensors end as a plain ``backward()`` leaves them)."""
        while self._log.forward() is not None:
            pass
        self._sync()

    def _on_msg(self, _widget, content, _buffers) -> None:
        actions = {"step": self.step, "back": self.back, "reset": self.reset, "run": self.run}
        action = actions.get(content.get("event")) if isinstance(content, dict) else None
        if action is None:
            return
        try:
            action()
        except Exception as error:  # shown to the learner; the kernel log gets it too
            self.playing = False
            self.note = f"{type(error).__name__}: {error}"
            raise

    # ------------------------------------------------------------ what the learner sees
    @property
    def _total(self) -> int:
        done = len(self._log.records)
        return done if self._log.finished else max(len(self._planned), done)

    def _sync(self) -> None:
        pos, total = self._log.position, self._total
        states = self._node_states()
        with self.hold_sync():
            self.total_steps = total
            self.step_index = pos
            self.node_states = states
            self.edge_states = {e.id: _EDGE_STATE[states.get(e.dst, "pending")]
                                for e in self._view.edges if e.kind in GRADIENT_EDGES}
            self.panel = (self._log.records[pos - 1].panel(pos, total) if pos
                          else self._start_panel(total))
            if pos >= total:
                self.playing = False

    def _node_states(self) -> dict:
        view, pos = self._view, self._log.position
        runs: dict = {}
        for rec in self._log.records[:pos]:
            vid = view.node_of.get(rec.node)
            runs[vid] = runs.get(vid, 0) + 1
        current = view.node_of.get(self._log.records[pos - 1].node) if pos else None
        states = {}
        for node in view.nodes:
            if node.kind in _RUNNABLE:
                done = runs.get(node.id, 0) >= max(1, len(node.members))
                states[node.id] = ("current" if node.id == current
                                   else "done" if done else "pending")
            elif node.kind == "output":
                states[node.id] = "done"
        return states

    def _start_panel(self, total: int) -> dict:
        lines = []
        for t, seed in zip(self._outputs, self._seeds):
            start = self._describe(t.grad_fn) if t.grad_fn is not None else "the tensor itself"
            grad = format_value(seed) if seed is not None else format_array(
                np.ones(tuple(t.shape)))
            lines.append(f"backward() starts at {start} with gradient {grad}")
        lines.append(f"{total} nodes to run: press Step to run the first one.")
        return {"title": "Before backward()", "lines": lines}

    def _describe(self, node) -> str:
        """A node as the learner knows it: ``MulBackward0 (y.grad_fn)``, ``x (AccumulateGrad)``."""
        nid = self._graph.node_of.get(node)
        gnode = self._graph.by_id[nid] if nid is not None else None
        if is_leaf_node(node):
            return f"{gnode.name if gnode and gnode.name else 'leaf'} ({node.name()})"
        if gnode is not None and gnode.name:
            return f"{node.name()} ({gnode.name}.grad_fn)"
        return node.name()

    def _leaf_names(self, variable) -> tuple:
        name = self._graph.names.name_of(variable)
        if name is None:
            return "(unnamed leaf)", None
        return name, self._graph.names.tensor_named(name)

    # ------------------------------------------------------------ set-up helpers
    def _watched(self, graph, inputs) -> list:
        """Tensors whose ``.grad`` a step may change: leaves, outputs, named results, inputs."""
        tensors = [n.tensor for n in graph.nodes if n.kind in ("leaf", "output")]
        tensors += [t for _, t in graph.names.items() if t.grad_fn is not None]
        return tensors + list(inputs)

    # ------------------------------------------------------------ text form
    def __repr__(self) -> str:
        pos, total = self._log.position, self._total
        out = [f"BackwardStepper: step {pos} of {total}"]
        nodes = [rec.node for rec in self._log.records]
        nodes += self._planned[len(nodes):]
        lo, hi = max(0, pos - 1 - LIST_WINDOW), min(len(nodes), pos + LIST_WINDOW)
        if lo:
            out.append(f"   … {lo} earlier steps")
        for i in range(lo, hi):
            state = "done" if i < pos - 1 else "current" if i == pos - 1 else "pending"
            vid = self._view.node_of.get(nodes[i], "hidden")
            out.append(f"{'>' if i == pos - 1 else ' '} {i + 1:>3} {state:<8} "
                       f"{self._describe(nodes[i])}  [{vid}]")
        if hi < len(nodes):
            out.append(f"   … {len(nodes) - hi} more steps")
        if self.note:
            out.append(f"note: {self.note}")
        return "\n".join(out + panel_text(self.panel))

    def graph_text(self) -> str:
        """The graph being stepped through, as a text tree."""
        return "\n".join(graph_tree(self._view))
