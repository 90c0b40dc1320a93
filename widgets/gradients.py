"""Gradients on the drawing: what each edge carried, and each leaf's ``.grad``, after k steps.

The stepper's records keep the gradient a node sent along each entry of its
``next_functions`` (``Record.grads_out``); in the graph model those are the edges into the node,
in the same order (``build_graph`` adds them that way, a ``None`` input included). The text
of a record's labels is made once and cached, so a step costs a dict update per edge, not a
new formatting of every gradient so far.

>>> import minigrad as torch
>>> from minigrad_widgets import BackwardStepper
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> stepper = BackwardStepper((x * x).sum(), names={"x": x})
>>> stepper.step()                  # SumBackward0 sends ones to MulBackward0
>>> stepper.edge_labels
{'e0': '1.', 'e1': '[1., 1.]'}
>>> stepper.step(); stepper.step()  # MulBackward0, then x's AccumulateGrad
>>> sorted(stepper.edge_labels.values()), stepper.node_notes
(['1.', '[1., 1.]', '[1., 2.]', '[1., 2.]'], {'n3': '.grad = [2., 4.]'})
"""

from __future__ import annotations

import numpy as np

from ._format import LABEL_LIMIT, format_array, format_shape, to_numpy
from .graph_model import Graph
from .heat import heat_map
from .i18n import t

__all__ = ["GradientLabels"]


def label_text(a) -> str:
    """A gradient as an edge label: its values when few, else shape and norm, kept short
    (``[49, 8] norm 0.14``) so that labels of neighbouring edges do not run into each other."""
    if a is None or a.size <= LABEL_LIMIT:
        return format_array(a, LABEL_LIMIT)
    return f"{format_shape(a.shape)} norm {_norm(a):.2g}"


def _norm(a) -> float:
    return float(np.linalg.norm(np.asarray(a, dtype=np.float64).ravel()))


def _picture(a) -> dict | None:
    return heat_map(a) if a.size > LABEL_LIMIT else None


def _size(a) -> float | None:
    """The norm of ``a`` to 4 significant digits; None if it is not finite (JSON has no inf)."""
    norm = _norm(a)
    return float(f"{norm:.4g}") if np.isfinite(norm) else None


class GradientLabels:
    """Edge labels and leaf notes of a stepper, for the records run so far."""

    def __init__(self, graph: Graph, outputs, seeds, lang: str | None = None):
        self.graph = graph
        self.lang = lang
        self.into: dict[str, list[str]] = {}  # node id -> edge ids, one per next_functions
        for e in graph.edges:
            if e.kind in ("grad", "none"):
                self.into.setdefault(e.dst, []).append(e.id)
        self.seed: dict[str, str] = {}  # output edge -> the gradient backward() starts with
        heads = {e.dst: e.id for e in graph.edges if e.kind == "output"}
        out_nodes = [n.id for n in graph.nodes if n.kind == "output"]
        for nid, t_out, seed in zip(out_nodes, outputs, seeds):
            if nid in heads:
                grad = to_numpy(seed) if seed is not None else np.ones(tuple(t_out.shape))
                self.seed[heads[nid]] = label_text(grad)
        self._cache: dict[int, tuple] = {}
        self._last: tuple | None = None  # (view, steps, last record, labels, notes, edge ids)

    def _of(self, rec) -> tuple:
        """(edge id, text) pairs and the leaf note of one record, made once."""
        key = id(rec)
        hit = self._cache.get(key)
        if hit is None or hit[0] is not rec:
            fid = self.graph.node_of.get(rec.node)
            labels = [(eid, label_text(g), _size(g), _picture(g))
                      for eid, g in zip(self.into.get(fid, ()), rec.grads_out) if g is not None]
            note = None
            if rec.acc is not None:  # (name, variable, tensor, grad before, grad after)
                note = t("view.leaf_grad", self.lang, value=label_text(rec.acc[4]))
            hit = self._cache[key] = (rec, labels, note)
        return hit[1], hit[2]

    def at(self, records, view: Graph) -> tuple[dict, dict]:
        """Labels of the edges drawn in ``view`` and notes of its leaves, after ``records``
        (a prefix of the log: one step on from the last call costs one step's work)."""
        last = self._last
        if last is not None and last[0] is view and last[1] <= len(records) and \
                (not last[1] or records[last[1] - 1] is last[2]):
            start, labels, notes, edges = last[1], dict(last[3]), dict(last[4]), last[5]
            norms = last[7] if start == len(records) else dict(last[7])
            pictures = last[6] if start == len(records) else dict(last[6])
        else:
            edges = {e.id for e in view.edges}
            start, notes, norms, pictures = 0, {}, {}, {}
            labels = {eid: text for eid, text in self.seed.items() if eid in edges}
        for rec in records[start:]:
            pairs, note = self._of(rec)
            for eid, text, norm, heat in pairs:
                if eid in edges:
                    labels[eid] = text
                    norms[eid] = norm
                    if heat is not None:
                        pictures[eid] = heat
                    else:
                        pictures.pop(eid, None)
            if note is not None:
                vid = view.node_of.get(rec.node)
                if vid is not None:
                    notes[vid] = note
        self._last = (view, len(records), records[-1] if records else None, labels, notes, edges,
                      pictures, norms)
        return (labels if records else {}), notes

    def pictures(self) -> dict:
        """Edge id -> the heat map of the gradient it carried, for a gradient with more
        elements than an edge label shows (see :func:`minigrad_widgets.heat.heat_map`)."""
        return dict(self._last[6]) if self._last is not None else {}

    def sizes(self) -> dict:
        """Edge id -> the norm of the gradient it carried (4 significant digits; None for NaN or
        inf, drawn as the largest), after the
        records of the last :meth:`at`; the front end draws the edges as wide as their share of
        the largest when ``scale_edges`` is on. (Norms, not shares: a step adds keys and
        changes none, so a recorded page stores each once.)"""
        return dict(self._last[7]) if self._last is not None else {}
