"""What a stepper shows: its synced traits, its text form, and frozen snapshots of it.

:class:`StepperView` turns the state of a ``BackwardStepper`` (its log of steps, a failure,
prediction feedback) into the traits the front end draws: node and edge states, the panel,
the counter and the button labels, all in the stepper's language. :meth:`snapshot` freezes
them into a :class:`StepperSnapshot`, a read-only widget that no later step changes.
"""

from __future__ import annotations

import traitlets

from . import export
from .code_view import code_section
from .explain import section
from .graph_model import GRADIENT_EDGES
from .i18n import CATALOGUE, t
from .predict import resolve
from .reduce import limit_graph
from .text import graph_tree, panel_text
from .widget import WidgetBase

__all__ = ["StepperView", "StepperSnapshot", "button_labels", "LIST_WINDOW"]

_EDGE_STATE = {"pending": "pending", "current": "active", "done": "done"}
_RUNNABLE = ("backward", "leaf", "chain")
LIST_WINDOW = 12  # steps listed before and after the current one in the text form
_LABEL_KEYS = ("reset", "back", "step", "run", "play", "pause", "speed", "speed_unit",
               "toolbar", "reset_tip", "back_tip", "step_tip", "run_tip", "play_tip",
               "node_tip")


def button_labels(lang: str) -> dict:
    """The toolbar's words in ``lang`` (the front end has none of its own)."""
    return {key: CATALOGUE[lang]["button." + key] for key in _LABEL_KEYS}


class _Traits(WidgetBase):
    labels = traitlets.Dict(help="the toolbar's labels and tooltips, in the widget's "
                            "language").tag(sync=True)
    counter = traitlets.Unicode("", help="the step counter's text, e.g. 'step 2 / 7' or "
                                "'failed at step 3 of 7'").tag(sync=True)
    can_step = traitlets.Bool(True, help="Step and Run are enabled").tag(sync=True)
    predict_mode = traitlets.Bool(False, help="clicking a node predicts that it runs "
                                  "next").tag(sync=True)
    frozen = traitlets.Bool(False, help="a snapshot: no button does anything").tag(sync=True)
    code = traitlets.Bool(False, help="the panel shows the code the step ran: the source of "
                          "the node's backward with its values and the engine's line "
                          "(minigrad), or PyTorch's formula (a toggle in the front end)"
                          ).tag(sync=True)


class StepperView(_Traits):
    """The display half of ``BackwardStepper`` (see there for the state it reads)."""

    def _sync(self) -> None:
        pos, total = self._log.position, self._total
        self._follow(pos)
        base = self._node_states()
        states = dict(base)
        states.update(self._marks(pos))
        failed = self._failure is not None and pos == len(self._log.records)
        with self.hold_sync():
            self.edge_labels, self.node_notes = self._gradients.at(self._log.records[:pos],
                                                                   self._view)
            self.edge_sizes = self._gradients.sizes()
            self.edge_pictures = self._gradients.pictures()
            self.labels = button_labels(self._lang)
            self.total_steps = total
            self.step_index = pos
            self.node_states = states
            self.edge_states = {e.id: _EDGE_STATE[base.get(e.dst, "pending")]
                                for e in self._view.edges if e.kind in GRADIENT_EDGES}
            self.panel = self._with_code(self._panel(pos, total), pos, failed)
            self.can_step = not (failed or self._unusable or pos >= total)
            self.counter = self._counter(pos, total, failed)
            if self._unusable:
                self.note = t(self._unusable, self._lang)
            if not self.can_step:
                self.playing = False

    @traitlets.observe("code")
    def _code_toggled(self, _change) -> None:
        if hasattr(self, "_log"):  # (not while the stepper is being made)
            self._sync()

    def _with_code(self, panel: dict, pos: int, failed: bool) -> dict:
        """The panel with the code section after the chain rule, when ``code`` is on."""
        if not self.code or not pos or failed or self._unusable:
            return panel
        rec = self._log.records[pos - 1]
        minigrad = type(self._outputs[0]).__module__.partition(".")[0] == "minigrad"
        sections = panel.setdefault("sections", [])
        at = next((i + 1 for i, s in enumerate(sections) if s["kind"] == "rule"), 0)
        sections.insert(at, code_section(rec, self._describe, self._lang, minigrad))
        return panel

    def _follow(self, pos: int) -> None:
        """In a large graph, move the window drawn to the node being run when it nears the
        window's edge (only then is the graph laid out again)."""
        if self._view is self._graph:
            return
        center = self._log.records[pos - 1].node if pos else None
        if center is None:
            moved = self._center is not None
        else:
            vid = self._view.node_of.get(center)
            moved = vid is None or (self._view.core is not None and vid not in self._view.core)
        if moved:
            self._center = center
            self._show(limit_graph(self._graph, self._max_nodes, center=center, lang=self.lang))

    def recorded_steps(self) -> tuple[dict, list, int]:
        """(state at step 0, the change each step makes, the step shown now): what
        ``save_html()`` and the static HTML view store (see ``minigrad_widgets.export``).
        Recording runs ahead of the learner; a backward found to raise on the way is shown
        only when the learner gets there and presses Step, as without the record."""
        before = self._failure
        try:
            return export.record(self)
        finally:
            if before is None and self._failure is not None:
                self._pending, self._failure = self._failure, None
                self._sync()

    def _counter(self, pos: int, total: int, failed: bool) -> str:
        if self._unusable:
            return t("counter.cannot", self._lang)
        if failed:
            return t("counter.failed", self._lang, index=self._failure[0], total=total)
        return t("counter.step", self._lang, index=pos, total=total)

    def _marks(self, pos: int) -> dict:
        """Nodes flagged by a step so far (non-finite gradient, failed check) or failed."""
        view, marks, records = self._view, {}, self._log.records
        for i in self._flags:  # indices of the flagged records, in order
            if i >= pos:
                break
            vid = view.node_of.get(records[i].node)
            if vid is not None:
                marks[vid] = "flagged"
        if self._failure is not None and pos == len(self._log.records):
            vid = view.node_of.get(self._failure[1])
            if vid is not None:
                marks[vid] = "error"
        return marks

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

    def prediction_answers(self) -> dict:
        """What a click on each node would answer now, without answering: node id ->
        ``{"right": bool, "section": panel section}``. A page with no kernel (``save_html``,
        an exported lesson) carries these for every step, so its quiz works offline."""
        expected = self._next_node()
        if not hasattr(expected, "next_functions"):  # finished, failed, or the engine's call
            return {}
        heading = t("panel.predict", self._lang)
        out = {}
        for gnode in self._view.nodes:
            if gnode.kind not in ("backward", "leaf", "chain"):
                continue
            candidates = resolve(self._view, self._graph, gnode.id)
            if candidates:
                right, message, _key = self._verdict(candidates, expected)
                out[gnode.id] = {"right": right, "section": section(
                    "predict", heading, [message], verdict="right" if right else "wrong")}
        return out

    # ------------------------------------------------------------ text form
    def _step_lines(self) -> list[str]:
        pos, lang = self._log.position, self._lang
        nodes = [rec.node for rec in self._log.records]
        if not self.predict_mode:  # in prediction mode the plan stays hidden
            nodes += self._planned[len(nodes):]
        else:
            nodes = nodes[:pos]
        lo, hi = max(0, pos - 1 - LIST_WINDOW), min(len(nodes), pos + LIST_WINDOW)
        out = [t("text.earlier", lang, n=lo)] if lo else []
        failed_at = self._failure[0] - 1 if self._failure and pos == len(self._log.records) \
            else None
        if failed_at is not None and failed_at >= len(nodes):  # prediction mode: show it too
            nodes.append(self._failure[1])
            hi = min(len(nodes), pos + LIST_WINDOW)
        for i in range(lo, hi):
            key = "done" if i < pos - 1 else "current" if i == pos - 1 else \
                "failed" if i == failed_at else "pending"
            vid = self._view.node_of.get(nodes[i], t("text.hidden", lang))
            out.append(f"{'>' if i == pos - 1 else ' '} {i + 1:>3} "
                       f"{t('state.' + key, lang):<8} {self._describe(nodes[i])}  [{vid}]")
        if hi < len(nodes):
            out.append(t("text.more", lang, n=len(nodes) - hi))
        return out

    def __repr__(self) -> str:
        pos, total, lang = self._log.position, self._total, self._lang
        out = [t("text.header", lang, index=pos, total=total)]
        if self.predict_mode:
            out.append(t("text.score", lang, right=self._score[0], asked=self._score[1]))
        out += self._step_lines()
        if self.note:
            out.append(t("text.note", lang, note=self.note))
        return "\n".join(out + panel_text(self.panel))

    def graph_text(self) -> str:
        """The graph being stepped through, as a text tree."""
        return "\n".join(graph_tree(self._view))

    def snapshot(self) -> StepperSnapshot:
        """A frozen, read-only copy of what the stepper shows now (graph highlight, panel,
        counter, text form): later steps do not change it. For a lesson that explains step 1
        and step 3 in two cells."""
        return StepperSnapshot(self)


class StepperSnapshot(_Traits):
    """A stepper frozen at one step: same drawing and panel, no working buttons."""

    def __init__(self, stepper: StepperView):
        names = ("dot", "node_states", "edge_states", "panel", "step_index", "total_steps",
                 "note", "labels", "counter", "predict_mode", "edge_labels", "node_notes",
                 "show_edge_labels", "scale", "edge_sizes", "scale_edges", "edge_pictures",
                 "node_pictures", "arrows", "legend", "code")
        super().__init__(kind="stepper", frozen=True, can_step=False, lang=stepper.lang,
                         **{n: _copy(getattr(stepper, n)) for n in names})
        self._text = repr(stepper)
        self._graph_text = stepper.graph_text()

    def __repr__(self) -> str:
        return self._text

    def graph_text(self) -> str:
        return self._graph_text


def _copy(value):
    import copy

    return copy.deepcopy(value)
