"""``BuildReplay``: the forward pass replayed, the graph growing one node at a time.

Autograd records the graph while the code runs (define-by-run): every op on a tensor that
requires grad creates its backward node there and then, numbered in creation order (the
node's ``_sequence_nr``, a method on PyTorch's nodes and a number on minigrad's). The replay
lays the finished graph out once and shows it node by node in that order: each step the node
just created, the op it stands for, its inputs, and, where the forward ran with anomaly
detection on (``torch.autograd.set_detect_anomaly(True)``, which keeps each node's
traceback), the learner's line of code. A ``while`` loop shows the graph growing as long as
the data says.

>>> import minigrad as torch
>>> x = torch.tensor(3., requires_grad=True)
>>> y = x * 2
>>> z = y * y
>>> replay = BuildReplay(z, lang="en")
>>> replay.step(); replay.total_steps
2
>>> print(repr(replay).splitlines()[1])
>   1 new      MulBackward0 (y.grad_fn)  inputs: x (leaf), None  [n2]
"""

from __future__ import annotations

import os
import re

from . import export, views_style
from .gradient_flow import _width
from .graph_model import build_graph, outputs_of
from .i18n import CATALOGUE, t
from .names import resolve_names
from .reduce import MAX_NODES
from .stepper_view import _Traits
from .text import panel_text

__all__ = ["BuildReplay", "creation_order", "sequence_nr", "op_name"]

_LABEL_KEYS = ("reset", "back", "step", "run", "play", "pause", "speed", "speed_unit",
               "back_tip", "play_tip")


def sequence_nr(fn) -> int:
    """A node's creation number: ``fn._sequence_nr()`` in PyTorch, an attribute in minigrad."""
    nr = fn._sequence_nr
    return int(nr() if callable(nr) else nr)


def creation_order(graph) -> list:
    """The backward nodes of a graph model in the order the forward pass created them."""
    nodes = [n for n in graph.nodes if n.kind == "backward"]
    return sorted(nodes, key=lambda n: sequence_nr(n.obj))


def op_name(fn) -> str:
    """The operation a backward node stands for, by ATen's name: ``mul`` for ``MulBackward0``,
    ``nll_loss`` for ``NllLossBackward0``; ``F.apply`` for a custom Function ``F``."""
    forward = getattr(fn, "_forward_cls", None)
    if forward is not None:
        return f"{forward.__name__}.apply"
    stem = re.sub(r"Backward\d*$", "", fn.name())
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", stem).lower()


def _code_line(fn) -> tuple[int, str] | None:
    """(line number, code) of the learner's line that created ``fn``, if anomaly detection
    kept its traceback (``metadata["traceback_"]``); library frames are skipped."""
    try:
        trace = fn.metadata.get("traceback_")
    except (AttributeError, RuntimeError):
        return None
    if not trace:
        return None
    library = os.sep + type(fn).__module__.partition(".")[0] + os.sep
    for entry in reversed(list(trace)):
        head, _, code = str(entry).strip("\n").partition("\n")
        if library in head or "site-packages" in head or "line " not in head:
            continue
        try:
            line = int(head.split("line ", 1)[1].split(",", 1)[0])
        except ValueError:
            continue
        return line, code.strip()
    return None


class BuildReplay(_Traits):
    """Replay the forward pass that built ``tensor``'s graph, one backward node per step.

    Buttons Reset, Back, Step, Run and Play (``reset()``, ``back()``, ``step()``, ``run()``
    in Python). Step k shows the first k nodes in creation order, the newest highlighted,
    with the leaves and constants they used; the panel names the op, its inputs and, when
    the forward ran with ``torch.autograd.set_detect_anomaly(True)``, the line of code.
    Nothing is run again: the replay reads the graph the forward left.
    """

    _css = views_style.css()

    def __init__(self, tensor, names=None, *, max_nodes: int | None = None,
                 lang: str | None = None, **kwargs):
        t("build.toolbar", lang)  # a wrong language fails here
        super().__init__(kind="build", lang=lang, **kwargs)
        graph = build_graph(outputs_of(tensor), names=resolve_names(names))
        limit = MAX_NODES if max_nodes is None else max_nodes
        if len(graph.nodes) > limit:
            raise ValueError(f"BuildReplay draws graphs of at most {limit} nodes, got "
                             f"{len(graph.nodes)}; replay a shorter forward pass, or pass "
                             f"max_nodes={len(graph.nodes)}")
        self._show(graph)
        self._order = creation_order(graph)
        self._rank = {n.id: k for k, n in enumerate(self._order)}
        self._inputs: dict[str, list] = {}
        for e in graph.edges:
            self._inputs.setdefault(e.dst, []).append(e.src)
        self._lines = {n.id: _code_line(n.obj) for n in self._order}
        self.total_steps = len(self._order)
        self.on_msg(self._on_msg)
        self._sync()

    # ------------------------------------------------------------ the buttons' twins
    def step(self) -> None:
        """Create the next node."""
        if self.step_index < self.total_steps:
            self.step_index += 1
            self._sync()

    def back(self) -> None:
        """Undo the last step."""
        if self.step_index > 0:
            self.step_index -= 1
            self._sync()

    def reset(self) -> None:
        """Back to before the forward pass."""
        self.step_index = 0
        self._sync()

    def run(self) -> None:
        """Create every remaining node."""
        self.step_index = self.total_steps
        self._sync()

    def _on_msg(self, _widget, content, _buffers) -> None:
        action = {"step": self.step, "back": self.back, "reset": self.reset,
                  "run": self.run}.get((content or {}).get("event"))
        if action is not None:
            action()

    def recorded_steps(self) -> tuple[dict, list, int]:
        """Every step's state, for ``save_html()`` and the static view (see export)."""
        here, states = self.step_index, []
        with self.hold_sync():
            for k in range(self.total_steps + 1):
                self.step_index = k
                self._sync()
                states.append(export.synced_state(self))
            self.step_index = here
            self._sync()
        return states[0], [export.delta(a, b) for a, b in zip(states, states[1:])], here

    # ------------------------------------------------------------ what is shown
    def _visible(self, k: int) -> set:
        g, shown = self._view, set()
        for node in self._order[:k]:
            shown.add(node.id)
            for src in self._inputs.get(node.id, ()):
                if g.by_id[src].kind in ("leaf", "none"):
                    shown.add(src)
        for node in g.nodes:
            if node.kind == "output":
                srcs = self._inputs.get(node.id, [])
                if all(s in shown for s in srcs) and (srcs or k == self.total_steps):
                    shown.add(node.id)
        return shown

    def _sync(self) -> None:
        k, lang = self.step_index, self.lang
        shown = self._visible(k)
        current = self._order[k - 1].id if k else None
        with self.hold_sync():
            self.node_states = {n.id: ("current" if n.id == current else
                                       "" if n.id in shown else "future")
                                for n in self._view.nodes}
            self.edge_states = {e.id: ("" if e.src in shown and e.dst in shown else "future")
                                for e in self._view.edges}
            self.labels = {key: CATALOGUE[lang]["button." + key] for key in _LABEL_KEYS} | {
                key: t("build." + key, lang) for key in ("toolbar", "reset_tip", "step_tip",
                                                         "run_tip")}
            self.counter = t("counter.step", lang, index=k, total=self.total_steps)
            self.can_step = k < self.total_steps
            if not self.can_step:
                self.playing = False
            self.panel = self._panel(k)

    def _describe_input(self, nid: str) -> str:
        node, lang = self._view.by_id[nid], self.lang
        if node.kind == "leaf":
            return (t("build.leaf", lang, name=node.name) if node.name
                    else t("text.unnamed_leaf", lang))
        if node.kind == "none":
            return "None"
        return t("build.from_step", lang, name=self._tag(node), index=self._rank[nid] + 1)

    def _tag(self, node) -> str:
        return node.title + (f" ({node.name}.grad_fn)" if node.name else "")

    def _panel(self, k: int) -> dict:
        lang = self.lang
        if k == 0:
            return {"title": t("build.start_title", lang),
                    "lines": [t("build.start", lang, total=self.total_steps)]}
        node = self._order[k - 1]
        inputs = [self._describe_input(s) for s in self._inputs.get(node.id, ())]
        lines = [t("build.op", lang, op=op_name(node.obj)),
                 t("build.inputs", lang, inputs=t("build.sep", lang).join(inputs) or "—")]
        if node.name:
            lines.append(t("build.makes", lang, name=node.name))
        where = self._lines.get(node.id)
        if where is not None:
            lines.append(t("build.line", lang, line=where[0], code=where[1]))
        lines.append(t("build.size", lang, nodes=k))
        return {"title": t("build.title", lang, index=k, total=self.total_steps,
                           name=node.title), "lines": lines}

    def __repr__(self) -> str:
        k, lang = self.step_index, self.lang
        out = [t("build.header", lang, index=k, total=self.total_steps)]
        for i, node in enumerate(self._order):
            state = "done" if i < k - 1 else "current" if i == k - 1 else "pending"
            inputs = t("build.sep", lang).join(self._describe_input(s)
                                               for s in self._inputs.get(node.id, ()))
            where = self._lines.get(node.id)
            code = "  " + t("build.where", lang, text=t("build.line", lang, line=where[0],
                                                        code=where[1])) if where else ""
            word = t("build.state." + state, lang)
            out.append(f"{'>' if i == k - 1 else ' '} {i + 1:>3} "
                       f"{word}{' ' * (8 - _width(word))} {self._tag(node)}  "
                       f"{t('build.inputs', lang, inputs=inputs)}{code}  [{node.id}]")
        return "\n".join(out + panel_text(self.panel))
