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
from functools import cached_property

import numpy as np

from ._format import is_leaf_node, to_numpy
from .code_trace import StepTracer

__all__ = ["Record", "Watch", "StepLog", "EngineSource", "ReplayStep", "record_torch",
           "watched_tensors"]


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
@dataclass(eq=False)
class Record:
    """One step: the node run, the gradients in, out and their contributions (NumPy arrays),
    the saved values its rule names, and the ``.grad`` changes it made.

    ``contribs`` has one list per element of ``grads_in``: ``(sender node or None, edge,
    array)``; ``acc`` is ``(name, variable, the learner's tensor, grad before, grad after)``
    for an ``AccumulateGrad`` step; ``step`` is the engine's ``Step`` (a look-alike for
    PyTorch), for ``run(until=predicate)``.
    """

    node: object
    grads_in: list
    grads_out: list
    contribs: list
    acc: tuple | None = None
    saved: dict = field(default_factory=dict)
    step: object = None
    changes: list = field(default_factory=list)
    check: dict | None = None
    trace: object = None  # what the node's Python backward did (code_trace.Trace), or None

    @property
    def name(self) -> str:
        return self.node.name()

    @cached_property
    def nonfinite(self) -> bool:
        """The node sent a NaN or inf gradient although every gradient it got was finite."""
        def finite(arrays):
            return all(a is None or np.isfinite(a).all() for a in arrays)
        return finite(self.grads_in) and not finite(self.grads_out)

    @property
    def flagged(self) -> bool:
        """Worth a mark on the graph: a non-finite gradient, or a failed check."""
        return self.nonfinite or (self.check is not None and self.check.get("ok") is False)


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

    def forward(self, saved=None) -> Record | None:
        """Redo the next step from the log, or run a new one; None at the end.

        ``saved`` is ``(node, values)``: the saved values read before the node expected next
        ran (the engine frees them as it runs it). An exception raised by the node's backward
        leaves the log as it was, and the source is closed.
        """
        if self.position < len(self.records):
            rec = self.records[self.position]
            for ch in rec.changes:
                self.watch.put(ch.tensor, ch.after)
        else:
            if self.source is None:
                return None
            self.watch.changes()  # take in any change made by hand since the last step
            try:
                rec = self.source.next_record()
            except BaseException:
                self.source = None
                self._undo(self.watch.changes())
                raise
            changes = self.watch.changes()
            if rec is None:
                self.source = None
                if self.records:  # made after the last node ran (e.g. inputs= captures)
                    self.records[-1].changes.extend(changes)
                return None
            if saved is not None and saved[0] is rec.node:
                rec.saved = saved[1]
            rec.changes = changes
            self.records.append(rec)
        self.position += 1
        return rec

    def _undo(self, changes) -> None:
        for ch in reversed(changes):
            self.watch.put(ch.tensor, ch.before)

    def backward(self) -> Record | None:
        """Undo the last step: every ``.grad`` it changed is as it was before it."""
        if self.position == 0:
            return None
        self.position -= 1
        rec = self.records[self.position]
        self._undo(rec.changes)
        return rec


# ---------------------------------------------------------------- sources
def _arrays(grads) -> list:
    return [to_numpy(g) for g in grads]


class EngineSource:
    """minigrad's engine, one node per ``next()`` (``engine.steps(..., snapshot=True)``)."""

    def __init__(self, generator, leaf_names):
        self.generator = generator
        self.leaf_names = leaf_names  # variable -> (name, the learner's tensor or None)

    def next_record(self) -> Record | None:
        with StepTracer() as tracer:  # which lines of the backward ran, with which values
            step = next(self.generator, None)
        if step is None:
            return None
        contribs = [[(c.node, c.edge, to_numpy(c.grad)) for c in entry]
                    for entry in step.contributions]
        acc = None
        if step.is_accumulate:
            name, tensor = self.leaf_names(step.variable)
            acc = (name, step.variable, tensor, to_numpy(step.grad_before),
                   to_numpy(step.grad_after))
        return Record(step.node, _arrays(step.grads_in), _arrays(step.grads_out), contribs,
                      acc, step=step, trace=tracer.traces.get(id(step.node)))


@dataclass
class ReplayStep:
    """What a recorded PyTorch step offers a ``run(until=...)`` predicate (like ``Step``)."""

    index: int
    node: object
    grads_in: tuple
    grads_out: tuple
    contributions: tuple
    variable: object = None

    @property
    def is_accumulate(self) -> bool:
        return self.variable is not None


def record_torch(backward, nodes, watch: Watch, leaf_names, read_saved, seeds) -> tuple:
    """Run PyTorch's ``backward()`` (the callable given) with hooks; one Record per node run.

    A pre-hook on every node reads its saved values (``read_saved(node)``) before it runs, a
    post-hook sees the gradients in and out, and the ``.grad`` changes are read after each
    node. Contributions are worked out from the record: what each node sent along each edge,
    after the gradients ``seeds`` (``{node: (input_nr, array)}``) backward started with.
    Afterwards every ``.grad`` is put back as it was, so the records can be replayed.
    """
    records: list[Record] = []
    arrived = {node: [(nr, None, 0, g)] for node, (nr, g) in seeds.items()}
    saved: dict = {}

    def post_hook(fn):
        def hook(grad_inputs, grad_outputs):
            changes = watch.changes()
            grads_in, grads_out = _arrays(grad_outputs), _arrays(grad_inputs)
            acc = None
            if is_leaf_node(fn):
                name, tensor = leaf_names(fn.variable)
                mine = [c for c in changes if c.tensor is fn.variable]
                before = mine[0].before[1] if mine else _values(read_grad(fn.variable))
                after = mine[0].after[1] if mine else before
                acc, grads_out = (name, fn.variable, tensor, before, after), []
            contribs = [[] for _ in grads_in]
            for nr, sender, edge, g in arrived.pop(fn, []):
                contribs[nr].append((sender, edge, g))
            for edge, ((child, nr), g) in enumerate(zip(fn.next_functions, grads_out)):
                if child is not None and g is not None:
                    arrived.setdefault(child, []).append((nr, fn, edge, g))
            step = ReplayStep(len(records), fn, tuple(grad_outputs), tuple(grad_inputs),
                              tuple(map(tuple, contribs)), getattr(fn, "variable", None))
            records.append(Record(fn, grads_in, grads_out, contribs, acc,
                                  saved.pop(fn, {}), step, changes))
        return hook

    def pre_hook(fn):
        def hook(grad_outputs):
            saved[fn] = read_saved(fn)
        return hook

    handles = [fn.register_hook(post_hook(fn)) for fn in nodes]
    handles += [fn.register_prehook(pre_hook(fn)) for fn in nodes]
    failure = None
    try:
        backward()
    except Exception as error:  # noqa: BLE001 - a node's backward raised: keep what ran
        started = [fn for fn in saved]  # pre-hook ran, post-hook did not: the failing node
        failure = (started[-1] if started else None, error)
    finally:
        for handle in handles:
            handle.remove()
    trailing = watch.changes()
    if records:
        records[-1].changes.extend(trailing)
    else:
        for ch in reversed(trailing):
            watch.put(ch.tensor, ch.before)
    for rec in reversed(records):  # back to before backward(), ready for replay
        for ch in reversed(rec.changes):
            watch.put(ch.tensor, ch.before)
    return records, failure


def watched_tensors(graph, inputs) -> list:
    """Tensors whose ``.grad`` a step may change: leaves, outputs, named results, inputs."""
    tensors = [n.tensor for n in graph.nodes if n.kind in ("leaf", "output")]
    tensors += [t_ for _, t_ in graph.names.items() if t_.grad_fn is not None]
    return tensors + list(inputs)
