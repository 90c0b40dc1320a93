"""``BackwardStepper``: run backward() one node at a time, forwards and back.

For a minigrad tensor the stepper drives minigrad's real engine
(``minigrad.autograd.engine.steps``): each ``step()`` runs exactly one node, and the
learner's tensors change for real (after an ``AccumulateGrad`` step, ``x.grad`` in another
cell is what the panel says). For a PyTorch tensor, whose C++ engine cannot stop between
nodes, the stepper runs PyTorch's own ``backward()`` once when it is created, records every
node with hooks, puts every ``.grad`` back, and then replays the record step by step.

The panel explains each step (:mod:`minigrad_widgets.explain`): the node's local rule with
the step's numbers put in, the gradients summed where edges meet, and, with ``check=True``, a
numerical check of custom backwards (:mod:`minigrad_widgets.check`). ``predict=True`` turns
the stepper into a quiz (:mod:`minigrad_widgets.predict`); ``run(until=...)`` is a breakpoint.
"""

from __future__ import annotations

import numpy as np

from ._format import format_array, format_value, is_leaf_node, to_numpy
from .check import check_record, keep_graph_inputs
from .explain import read_saved, section, step_panel
from .gradients import GradientLabels
from .graph_model import build_graph, outputs_of
from .i18n import t
from .names import resolve_names
from .predict import Score, judge, resolve, same_node, senders_of
from .reduce import limit_graph
from .stepper_view import StepperView
from .stepping import EngineSource, StepLog, Watch, record_torch, watched_tensors

__all__ = ["BackwardStepper"]

_ENGINE_DECIDES = object()  # past the plan: which node runs next is the engine's to say


def _library(t_) -> str:
    return type(t_).__module__.partition(".")[0]


def _freed(graph) -> bool:
    """Whether a backward without retain_graph already freed the graph's saved values."""
    for gnode in graph.nodes:
        fn = gnode.obj
        if gnode.kind != "backward" or fn is None:
            continue
        for attr in dir(fn):
            if attr.startswith("_saved_"):
                try:
                    getattr(fn, attr)
                except RuntimeError:
                    return True
    return False


class BackwardStepper(StepperView):
    """Step through ``loss.backward(gradient, retain_graph, create_graph, inputs)`` node by node.

    Buttons Reset, Back, Step, Run and Play in the notebook; ``step()``, ``back()``,
    ``reset()`` and ``run()`` in Python do the same. The panel shows the node's chain rule
    with the step's numbers, the gradients entering (each contribution, and their sum where
    several edges meet) and leaving it, and for an ``AccumulateGrad`` step the leaf's
    ``.grad`` before, plus the incoming gradient, equals after, and that ``variable is x``.

    ``back()`` puts back every ``.grad`` the last step changed (the very same objects with
    the same values); stepping forward again replays the step from the record, so back then
    step changes nothing, and ``reset()`` goes back to before ``backward()``. After ``run()``
    the tensors are exactly as a plain ``backward()`` leaves them. An exception raised in a
    node's backward marks that node (state ``error``) and the panel shows it; Back and Reset
    keep working.

    Options: ``predict=True`` hides the plan and asks which node runs next (click it, or
    ``predict(node)``; ``score`` counts); ``check=True`` compares each custom Function's
    backward with a numerical VJP of its forward (``check="all"``: every node with its rule);
    ``lang="zh"`` speaks Chinese (default: ``minigrad_widgets.set_language``);
    ``arrows="backward"`` points the arrows the way gradients travel (the default,
    ``"forward"``, is the convention of every drawing: see ``minigrad_widgets.dot.to_dot``).

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
                 inputs=None, names=None, *, max_nodes: int | None = None,
                 predict: bool = False, check: bool | str = False, lang: str | None = None,
                 **kwargs):
        t("button.step", lang)  # a wrong language fails here, before anything runs
        super().__init__(kind="stepper", lang=lang, **kwargs)
        self._lang = self.lang
        self.predict_mode = bool(predict)
        self._check = check
        self._score = [0, 0]
        self._asked_at = None  # the step whose question was answered (only the first counts)
        self._feedback = None  # (step index, right, message)
        self._failure = None  # (index, node, exception) of a backward that raised
        self._pending = None  # a failure met while recording ahead, shown once stepped to
        self._unusable = None  # why this stepper cannot run (a graph already used)
        outputs = outputs_of(loss)
        self._outputs = outputs
        self._seeds = (None,) * len(outputs) if gradient is None else outputs_of(gradient)
        graph = build_graph(outputs, names=resolve_names(names), lang=self.lang)
        self._graph = graph
        self._max_nodes, self._center = max_nodes, None
        self._show(limit_graph(graph, max_nodes, lang=self.lang))
        self._gradients = GradientLabels(graph, outputs, self._seeds, self.lang)
        inputs_t = outputs_of(inputs) if inputs is not None else ()
        watch = Watch(watched_tensors(graph, inputs_t))
        self._kept = keep_graph_inputs(graph) if check else {}  # held for the checks only
        self._flags: list[int] = []  # indices of the records flagged on the graph
        if _freed(graph):
            self._unusable = "error.graph_used"
        if _library(outputs[0]) == "minigrad":
            from minigrad.autograd import engine

            gen = engine.steps(loss, gradient, retain_graph, create_graph, inputs=inputs,
                               snapshot=True)
            self._planned = engine.execution_order(*outputs, inputs=inputs_t or None)
            self._log = StepLog(watch, EngineSource(gen, self._leaf_names))
        else:
            self._planned = []
            self._log = StepLog(watch, None, [])
            if self._unusable is None:
                self._record_torch(loss, gradient, retain_graph, create_graph, inputs, watch)
        self._senders = senders_of(self._planned)
        self.on_msg(self._on_msg)
        self._sync()

    def _record_torch(self, loss, gradient, retain_graph, create_graph, inputs, watch):
        import importlib

        autograd = importlib.import_module(_library(self._outputs[0])).autograd

        def backward():
            autograd.backward(loss, grad_tensors=gradient, retain_graph=retain_graph,
                              create_graph=create_graph, inputs=inputs)

        seeds = {}
        for out, seed in zip(self._outputs, self._seeds):
            if out.grad_fn is not None:
                value = np.ones(tuple(out.shape)) if seed is None else to_numpy(seed)
                seeds[out.grad_fn] = (out.output_nr, value)
        records, failure = record_torch(backward, list(self._graph.node_of), watch,
                                        self._leaf_names, read_saved, seeds)
        self._planned = [rec.node for rec in records]
        if failure is not None:  # shown once the learner steps up to it
            self._failure = (len(records) + 1, failure[0], failure[1])
            self._planned.append(failure[0])
        self._log = StepLog(watch, None, records)
        for i, rec in enumerate(records):
            if self._check:
                check_record(rec, self._check, self._kept)
            if rec.flagged:
                self._flags.append(i)

    # ------------------------------------------------------------ the Python twins
    def step(self) -> None:
        """Run the next node (or redo it from the record after ``back()``)."""
        self._forward()
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

    def run(self, until=None) -> None:
        """Run the remaining steps, or stop at a breakpoint ``until``:

        - a node name (``"SqrtBackward0"``), a node id (``"n4"``), a tensor or a learner's
          name (``"y"``: the node that made it): stop *before* that node runs;
        - a function of the engine's ``Step``: stop at the first step it returns True for;
        - ``"nonfinite"``: stop at the first node that sent a NaN or inf gradient although
          every gradient it got was finite (it is flagged on the graph and in the panel).

        Without ``until`` the tensors end as a plain ``backward()`` leaves them.
        """
        before, after = self._breakpoint(until)
        while True:
            nxt = self._next_node()
            if nxt is None or (before is not None and nxt in before):
                break
            rec = self._forward()
            if rec is None or (after is not None and after(rec)):
                break
        self._sync()

    def _breakpoint(self, until):
        if until is None:
            return None, None
        if isinstance(until, str) and until == "nonfinite":
            return None, lambda rec: rec.nonfinite
        if callable(until) and not hasattr(until, "next_functions"):
            return None, lambda rec: bool(until(rec.step))
        return set(resolve(self._view, self._graph, until)), None

    def _next_node(self):
        log, pos = self._log, self._log.position
        if self._unusable or (self._failure and pos == len(log.records)):
            return None
        if pos < len(log.records):
            return log.records[pos].node
        if log.finished and self._pending is None:
            return None
        return self._planned[pos] if pos < len(self._planned) else _ENGINE_DECIDES

    def _forward(self):
        """One step forwards; an exception in a node's backward is kept, shown, not raised."""
        log, pos = self._log, self._log.position
        if self._unusable or (self._failure and pos == len(log.records)):
            return None
        if self._pending is not None and pos == len(log.records):
            self._failure, self._pending = self._pending, None  # now the learner meets it
            self.playing = False
            return None
        saved = None
        if pos == len(log.records) and pos < len(self._planned):
            nxt = self._planned[pos]
            saved = (nxt, read_saved(nxt))
        try:
            rec = log.forward(saved)
        except Exception as error:  # noqa: BLE001 - the learner's backward may raise anything
            node = self._planned[pos] if pos < len(self._planned) else None
            self._failure = (pos + 1, node, error)
            self.playing = False
            return None
        if rec is not None and pos == len(log.records) - 1:  # a new step, not a replay
            if self._check:
                check_record(rec, self._check, self._kept)
            if rec.flagged:
                self._flags.append(pos)
        return rec

    # ------------------------------------------------------------ prediction
    @property
    def score(self) -> Score:
        """Right predictions, of the steps asked (only a step's first guess counts)."""
        return Score(*self._score)

    @property
    def error(self):
        """The exception a node's backward raised, or None."""
        return self._failure[2] if self._failure else None

    def predict(self, node) -> str:
        """Guess the node that runs next (a node id, a node name, a learner's name or a
        tensor). A right guess runs it; either way the panel says why. Returns the feedback."""
        candidates = resolve(self._view, self._graph, node)
        expected = self._next_node()
        pos = self._log.position
        if expected is None or expected is _ENGINE_DECIDES:
            message = t("predict.failed" if self._failure or self._unusable
                        else "predict.finished", self._lang)
            self._feedback = (pos, None, message)
            self._sync()
            return message
        right, message, key = self._verdict(candidates, expected)
        if self._asked_at != pos:
            self._asked_at = pos
            self._score[1] += 1
            self._score[0] += right
        if right and key == "predict.tie":
            self._run_to(candidates[0])
        elif right:
            self._forward()
        self._feedback = (self._log.position, right, message)
        self._sync()
        return message

    def _verdict(self, candidates, expected) -> tuple[bool, str, str]:
        """(right, what the panel says, its catalogue key) for a guess of ``candidates``."""
        pos = self._log.position
        done = {rec.node for rec in self._log.records[:pos]}
        right, key, values = judge(candidates, expected, done, self._planned, self._senders)
        words = {"guess": self._describe(candidates[0]), "expected": self._describe(expected),
                 "nodes": ", ".join(self._describe(n) for n in values.get("nodes", ()))}
        return right, t(key, self._lang, **words), key

    def _run_to(self, leaf) -> None:
        """After a right guess of a tied ready leaf: run the engine's steps until that leaf has
        run. Each is a ready leaf too (an AccumulateGrad makes no node ready), so each counts
        as predicted right."""
        rec, left = self._forward(), len(self._planned)
        while (rec is not None and not same_node(rec.node, leaf) and left > 0
               and is_leaf_node(self._next_node())):
            left -= 1
            self._score[0] += 1
            self._score[1] += 1
            rec = self._forward()

    def _on_msg(self, _widget, content, _buffers) -> None:
        if self.frozen or not isinstance(content, dict):
            return
        event = content.get("event")
        if event == "node_click":
            if self.predict_mode and isinstance(content.get("node"), str):
                self.predict(content["node"])
            return
        actions = {"step": self.step, "back": self.back, "reset": self.reset, "run": self.run}
        action = actions.get(event)
        if action is not None:
            action()

    # ------------------------------------------------------------ what the learner sees
    @property
    def _total(self) -> int:
        done = len(self._log.records)
        failed = self._failure or self._pending
        return done if self._log.finished and not failed else max(len(self._planned), done)

    def _panel(self, pos: int, total: int) -> dict:
        lang = self._lang
        failed = self._failure is not None and pos == len(self._log.records)
        if self._unusable:
            panel = {"title": t("panel.cannot_start", lang), "lines": [],
                     "sections": [section("error", t("panel.error", lang),
                                          [t(self._unusable, lang)])]}
        elif failed:
            index, node, error = self._failure
            name = node.name() if node is not None else "?"
            panel = {"title": t("panel.failed_title", lang, index=index, total=total, name=name),
                     "lines": [], "sections": [section("error", t("panel.error", lang), [
                         t("error.in_backward", lang, node=self._describe(node) if node
                           else "?"), f"{type(error).__name__}: {error}",
                         t("error.hint", lang)])]}
        elif pos:
            panel = step_panel(self._log.records[pos - 1], pos, total, self._describe, lang,
                               self._name_of, self._label)
        else:
            panel = self._start_panel(total)
        if self._feedback is not None and self._feedback[0] == pos:
            _, right, message = self._feedback
            kind = "right" if right else "wrong" if right is False else "info"
            panel.setdefault("sections", []).append(
                section("predict", t("panel.predict", lang), [message], verdict=kind))
        elif self.predict_mode and not failed and self._next_node() is not None:
            panel.setdefault("sections", []).append(
                section("predict", t("panel.predict", lang), [t("predict.ask", lang)]))
        return panel

    def _start_panel(self, total: int) -> dict:
        lines = []
        for out, seed in zip(self._outputs, self._seeds):
            start = (self._describe(out.grad_fn) if out.grad_fn is not None
                     else t("start.itself", self._lang))
            grad = format_value(seed) if seed is not None else format_array(
                np.ones(tuple(out.shape)))
            lines.append(t("start.line", self._lang, start=start, grad=grad))
        lines.append(t("start.count", self._lang, total=total))
        return {"title": t("start.title", self._lang), "lines": lines, "sections": []}

    def _describe(self, node) -> str:
        """A node as the learner knows it: ``MulBackward0 (y.grad_fn)``, ``x (AccumulateGrad)``."""
        nid = self._graph.node_of.get(node)
        gnode = self._graph.by_id[nid] if nid is not None else None
        if is_leaf_node(node):
            name = gnode.name if gnode and gnode.name else t("text.leaf", self._lang)
            return f"{name} ({node.name()})"
        if gnode is not None and gnode.name:
            return f"{node.name()} ({gnode.name}.grad_fn)"
        return gnode.label if gnode is not None else node.name()

    def _label(self, node) -> str:
        """A node's type as drawn: ``MulBackward0 #2`` where two unnamed ones would look alike."""
        nid = self._graph.node_of.get(node)
        return self._graph.by_id[nid].label if nid is not None else node.name()

    def _name_of(self, node) -> str | None:
        """The learner's name of the tensor an autograd node stands for: a leaf's name, or
        the name of the tensor a ``grad_fn`` made (an output's too), else None."""
        nid = self._graph.node_of.get(node)
        gnode = self._graph.by_id[nid] if nid is not None else None
        if gnode is not None and gnode.name:
            return gnode.name
        for out in self._outputs:
            if out.grad_fn is node:
                return self._graph.names.name_of(out)
        return None

    def _leaf_names(self, variable) -> tuple:
        name = self._graph.names.name_of(variable)
        if name is None:
            return t("text.unnamed_leaf", self._lang), None
        return name, self._graph.names.tensor_named(name)
