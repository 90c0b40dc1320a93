"""Stepping through backward(), forwards and back: the logic behind ``BackwardStepper``.

A :class:`StepLog` keeps one :class:`Record` per step: what the step showed (its panel) and
how it changed the ``.grad`` of the tensors being watched (each change as the object and
values before and after). Going back restores the "before" of the last step; going forward
again replays the "after" from the log, and only past the end of the log asks the source for
a new step. So ``back()`` then ``step()`` leaves every ``.grad`` as it was (same object, same
values), and the engine runs each node exactly once, so no ``retain_graph`` is needed to
start over.

Sources: :class:`EngineSource` pulls steps from minigrad's real engine
(``minigrad.autograd.engine.steps``), one node per ``next()``. :func:`record_torch` runs
PyTorch's own ``backward()`` once, with hooks on every node, and returns the records for
replay: PyTorch's C++ engine cannot be paused between nodes.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass, field

import numpy as np

from ._format import format_array, is_leaf_node, to_numpy

__all__ = ["Record", "Watch", "StepLog", "EngineSource", "record_torch", "step_panel"]


# ---------------------------------------------------------------- watching .grad
def read_grad(t):
    """``t.grad`` without the warning PyTorch (and minigrad) give for non-leaf tensors."""
    if t.grad_fn is None:
        return t.grad
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.grad


def _values(g) -> np.ndarray | None:
    return None if g is None else np.array(to_numpy(g), copy=True)


def _restore(t, obj, values) -> None:
    """Make ``t.grad`` the object ``obj`` again, holding ``values`` (copied in place)."""
    if obj is not None:
        library = sys.modules[type(obj).__module__.partition(".")[0]]
        with library.no_grad():
            obj.copy_(library.from_numpy(values.copy()))
    t.grad = obj


@dataclass
class Change:
    """How one step changed ``tensor.grad``: (object, values) before and after."""

    tensor: object
    before: tuple
    after: tuple


class Watch:
    """The ``.grad`` of a few tensors as last seen; :meth:`changes` reports what moved since.

    A ``.grad`` counts as changed when it is another object, or the same one at another
    version (every in-place change bumps a tensor's ``_version``).
    """

    def __init__(self, tensors):
        self.tensors = list({id(t): t for t in tensors}.values())
        self.seen = {id(t): self._look(t) for t in self.tensors}

    @staticmethod
    def _look(t) -> tuple:
        g = read_grad(t)
        return g, (None if g is None else g._version), _values(g)

    def changes(self) -> list[Change]:
        out = []
        for t in self.tensors:
            g = read_grad(t)
            old = self.seen[id(t)]
            if g is not old[0] or (g is not None and g._version != old[1]):
                new = (g, g._version if g is not None else None, _values(g))
                out.append(Change(t, (old[0], old[2]), (new[0], new[2])))
                self.seen[id(t)] = new
        return out

    def put(self, t, state: tuple) -> None:
        """Restore ``t.grad`` to ``state`` (object, values) and remember that."""
        _restore(t, *state)
        g = state[0]
        self.seen[id(t)] = (g, None if g is None else g._version, state[1])


# ---------------------------------------------------------------- records and the log
@dataclass
class Record:
    """One step: the autograd node run, its panel, and the ``.grad`` changes it made."""

    node: object
    name: str
    lines: list
    accumulate: dict | None = None
    changes: list = field(default_factory=list)
    sent: list = field(default_factory=list)  # gradient (array or None) per next_functions

    def panel(self, index: int, total: int) -> dict:
        panel = {"title": f"Step {index}/{total}: {self.name}", "lines": list(self.lines)}
        if self.accumulate is not None:
            panel["accumulate"] = dict(self.accumulate)
        return panel


class StepLog:
    """Records, a position in them, and a source of further records (or None when done)."""

    def __init__(self, watch: Watch, source=None, records=None):
        self.watch = watch
        self.source = source
        self.records: list[Record] = list(records or [])
        self.position = 0

    @property
    def finished(self) -> bool:
        return self.source is None

    def forward(self) -> Record | None:
        """Redo the next step from the log, or run a new one; None at the end."""
        if self.position < len(self.records):
            rec = self.records[self.position]
            for ch in rec.changes:
                self.watch.put(ch.tensor, ch.after)
        else:
            if self.source is None:
                return None
            self.watch.changes()  # take in any change made by hand since the last step
            rec = self.source.next_record()
            changes = self.watch.changes()
            if rec is None:
                self.source = None
                if self.records:  # made after the last node ran (e.g. inputs= captures)
                    self.records[-1].changes.extend(changes)
                return None
            rec.changes = changes
            self.records.append(rec)
        self.position += 1
        return rec

    def backward(self) -> Record | None:
        """Undo the last step: every ``.grad`` it changed is as it was before it."""
        if self.position == 0:
            return None
        self.position -= 1
        rec = self.records[self.position]
        for ch in reversed(rec.changes):
            self.watch.put(ch.tensor, ch.before)
        return rec


# ---------------------------------------------------------------- the panel of a step
def _target(child, describe) -> str:
    return "None (needs no gradient)" if child is None else describe(child)


def step_panel(node, grads_in, grads_out, describe, accumulate=None) -> tuple[list, dict]:
    """Panel lines for a node run with these gradients (arrays or None).

    ``describe(node)`` names a node for the learner; ``accumulate`` is (variable name,
    variable, the learner's tensor of that name, grad before, grad after) for a leaf.
    """
    if accumulate is not None:
        name, variable, tensor, before, after = accumulate
        incoming = format_array(grads_in[0]) if grads_in else "None"
        acc = {"variable_name": name, "variable_id": str(id(variable)),
               "tensor_id": str(id(tensor)) if tensor is not None else "n/a",
               "is_same": str(tensor is variable) if tensor is not None else "n/a",
               "grad_before": format_array(before), "incoming": incoming,
               "grad_after": format_array(after)}
        lines = [f"grad in: {incoming}", f"{name}.grad before: {acc['grad_before']}",
                 f"{name}.grad after:  {acc['grad_after']}"]
        return lines, acc
    lines = ["grads in (one per output of the forward op):"]
    lines += [f"  [{i}] {format_array(g)}" for i, g in enumerate(grads_in)]
    lines.append("grads out (one per next_functions entry):")
    for i, ((child, _), g) in enumerate(zip(node.next_functions, grads_out)):
        lines.append(f"  [{i}] → {_target(child, describe)}: {format_array(g)}")
    return lines, None


# ---------------------------------------------------------------- sources
class EngineSource:
    """minigrad's engine, one node per ``next()`` (``engine.steps(..., snapshot=True)``)."""

    def __init__(self, generator, describe, leaf_names):
        self.generator = generator
        self.describe = describe
        self.leaf_names = leaf_names  # variable -> (name, the learner's tensor or None)

    def next_record(self) -> Record | None:
        step = next(self.generator, None)
        if step is None:
            return None
        node = step.node
        if step.is_accumulate:
            name, tensor = self.leaf_names(step.variable)
            lines, acc = step_panel(node, [to_numpy(step.grads_in[0])], [], self.describe,
                                    (name, step.variable, tensor, to_numpy(step.grad_before),
                                     to_numpy(step.grad_after)))
            return Record(node, node.name(), lines, acc)
        sent = [to_numpy(g) for g in step.grads_out]
        lines, _ = step_panel(node, [to_numpy(g) for g in step.grads_in], sent, self.describe)
        return Record(node, node.name(), lines, sent=sent)


def record_torch(backward, nodes, watch: Watch, describe, leaf_names) -> list[Record]:
    """Run PyTorch's ``backward()`` (the callable given) with hooks; one Record per node run.

    A pre-hook and a post-hook on every node see the gradients in and out, and the
    ``.grad`` changes are read after each node. Afterwards every ``.grad`` is put back as it
    was, so the records can be replayed step by step.
    """
    records: list[Record] = []

    def post_hook(fn):
        def hook(grad_inputs, grad_outputs):
            changes = watch.changes()
            grads_in = [_values(g) for g in grad_outputs]
            if is_leaf_node(fn):
                name, tensor = leaf_names(fn.variable)
                mine = [c for c in changes if c.tensor is fn.variable]
                before = mine[0].before[1] if mine else _values(read_grad(fn.variable))
                after = mine[0].after[1] if mine else before
                lines, acc = step_panel(fn, grads_in, [], describe,
                                        (name, fn.variable, tensor, before, after))
                sent = []
            else:
                sent = [_values(g) for g in grad_inputs]
                lines, acc = step_panel(fn, grads_in, sent, describe)
            records.append(Record(fn, fn.name(), lines, acc, changes, sent))
        return hook

    handles = [fn.register_hook(post_hook(fn)) for fn in nodes]
    try:
        backward()
    finally:
        for handle in handles:
            handle.remove()
    trailing = watch.changes()
    if records:
        records[-1].changes.extend(trailing)
    for rec in reversed(records):  # back to before backward(), ready for replay
        for ch in reversed(rec.changes):
            watch.put(ch.tensor, ch.before)
    return records
