"""The widget base and ``GraphView``; ``BackwardStepper`` is in :mod:`minigrad_widgets.stepper`.

Both are anywidgets: Python holds the state in synced traits and the front end
(``static/widget.js``) only draws what they say. Every button of the stepper has a Python
twin (``step()``, ``back()``, ``reset()``, ``run()``), so everything but the drawing works
without a browser, and outside one each widget prints a deterministic text form.
"""

from __future__ import annotations

import pathlib

import anywidget
import traitlets

from . import export, style
from .dot import check_arrows, to_dot
from .graph_model import Graph, build_graph, outputs_of
from .heat import node_pictures
from .i18n import LANGUAGES, front_end_strings, get_language
from .names import resolve_names
from .reduce import limit_graph
from .text import graph_text

__all__ = ["GraphView", "WidgetBase"]

STATIC = pathlib.Path(__file__).parent / "static"
_MISSING_BUNDLE = """
function render({ el }) {
  el.textContent = "minigrad_widgets: the front-end bundle static/widget.js is not built " +
    "(run `make frontend`); the text form of this widget is shown instead.";
}
export default { render };
"""


def _asset(name: str, fallback: str):
    path = STATIC / name
    return path if path.is_file() else fallback


class WidgetBase(anywidget.AnyWidget):
    """The traits the front end reads; shared by both widgets (the contract with widget.js)."""

    _esm = _asset("widget.js", _MISSING_BUNDLE)
    _css = export.stylesheet()  # static/widget.css and the style table's colours

    dot = traitlets.Unicode("", help="DOT source of the drawing; node ids n0, n1, ..., "
                            "edge ids e0, e1, ...").tag(sync=True)
    node_states = traitlets.Dict(help="node id -> 'pending' | 'current' | 'done'").tag(sync=True)
    edge_states = traitlets.Dict(help="edge id -> 'pending' | 'active' | 'done'").tag(sync=True)
    panel = traitlets.Dict(help="what the side panel shows: title, lines, and accumulate for "
                           "an AccumulateGrad step").tag(sync=True)
    step_index = traitlets.Int(0, help="steps run so far").tag(sync=True)
    total_steps = traitlets.Int(0, help="nodes backward() runs in all").tag(sync=True)
    playing = traitlets.Bool(False, help="the Play timer of the front end is on").tag(sync=True)
    speed = traitlets.Float(2.0, help="Play speed, in steps per second").tag(sync=True)
    note = traitlets.Unicode("", help="a remark shown under the graph, e.g. that it was "
                             "truncated").tag(sync=True)
    kind = traitlets.Unicode("graph", help="'graph' or 'stepper'").tag(sync=True)
    edge_labels = traitlets.Dict(help="edge id -> the gradient it carried, as text (shown on "
                                 "the edge)").tag(sync=True)
    node_notes = traitlets.Dict(help="node id -> a line under the node, e.g. a leaf's .grad "
                                "after its AccumulateGrad step").tag(sync=True)
    edge_sizes = traitlets.Dict(help="edge id -> the norm of the gradient it carried (the "
                                "front end widens each edge by its share of the largest)"
                                ).tag(sync=True)
    scale_edges = traitlets.Bool(False, help="draw each edge as wide as its edge_sizes says "
                                 "(a toggle in the front end; set it here too)").tag(sync=True)
    node_pictures = traitlets.Dict(help="node id -> heat map of its tensor, for a tensor with "
                                   "more elements than a label shows (heat.py)").tag(sync=True)
    edge_pictures = traitlets.Dict(help="edge id -> heat map of the gradient it carried, for "
                                   "one with more elements than a label shows").tag(sync=True)
    show_edge_labels = traitlets.Bool(True, help="draw edge_labels on the graph (a toggle in "
                                      "the front end)").tag(sync=True)
    scale = traitlets.Float(1.0, help="zoom of the drawing; 1 is 12 pt labels").tag(sync=True)
    lang = traitlets.Unicode("en", help="language of every visible string: 'en' or "
                             "'zh'").tag(sync=True)
    strings = traitlets.Dict(help="the front end's visible strings, in `lang`").tag(sync=True)
    arrows = traitlets.Unicode("forward", help="'forward': an arrow a -> b means a was an "
                               "input of b (gradients travel against it); 'backward': arrows "
                               "point the way gradients travel").tag(sync=True)
    legend = traitlets.List(help="the legend's rows: [swatch classes, key in `strings`], "
                            "from minigrad_widgets.style").tag(sync=True)

    def __init__(self, *, lang: str | None = None, scale: float = 1.0,
                 arrows: str = "forward", **kwargs):
        lang = lang or get_language()
        if lang not in LANGUAGES:
            raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")
        if not scale > 0:
            raise ValueError(f"scale must be a positive number, got {scale!r}")
        super().__init__(lang=lang, scale=float(scale), strings=front_end_strings(lang),
                         arrows=check_arrows(arrows), **kwargs)

    def _show(self, view: Graph) -> None:
        self._view = view
        self.dot = to_dot(view, arrows=self.arrows).source
        self.note = view.note
        self.node_pictures = node_pictures(view)
        kinds = {node.kind for node in view.nodes}
        self.legend = style.legend_rows(self.kind, self.arrows, kinds)

    # ------------------------------------------------------------ outside a kernel
    def to_html(self) -> str:
        """This widget as one self-contained HTML page: the front end (with Graphviz in
        WebAssembly), the drawing and, for a stepper, every step, so that Reset, Back,
        Step, Run and Play work in any browser, with no kernel and no network."""
        return export.page(self)

    def save_html(self, path) -> pathlib.Path:
        """Writes :meth:`to_html` to ``path`` (UTF-8) and returns the path."""
        path = pathlib.Path(path)
        path.write_text(self.to_html(), encoding="utf-8")
        return path

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = export.fragment(self, carry=export.carry_bundle())
        return data, metadata


class GraphView(WidgetBase):
    """The autograd graph behind a tensor, drawn in the notebook.

    ``GraphView(loss)`` draws ``loss`` and everything it was computed from: leaf tensors in
    light blue, the output in green, backward nodes in grey (``show_saved=True`` adds the
    tensors saved for backward, in orange). Names come from your variables, or from
    ``names={"x": x}``. Graphs over ``max_nodes`` nodes are shortened (see ``note``).

    Arrows point the way the forward pass went (``a -> b``: ``a`` was an input of ``b``),
    as in every drawing of the package; ``arrows="backward"`` points them the way gradients
    travel (see ``docs/drawing.md``, and the legend under the drawing).

    The picture does not follow later changes by itself: call ``refresh()`` after more ops
    or after ``backward()`` freed the saved values (``follow=lambda: loss`` re-reads a
    variable each time), or ``update(new_tensor)`` to draw another tensor.

    >>> import minigrad as torch
    >>> x = torch.tensor(3., requires_grad=True)
    >>> GraphView(x * x)
    GraphView: 3 nodes
    output [] = 9.  [n0]
    └── MulBackward0  [n1]
        ├── x (leaf) [] = 3.  [n2]
        └── x (leaf) [] = 3.  [n2]
    """

    def __init__(self, tensor=None, names=None, show_saved: bool = False, *, follow=None,
                 max_nodes: int | None = None, **kwargs):
        if tensor is None and follow is None:
            raise TypeError("GraphView needs a tensor to draw, or follow=a function returning it")
        self._tensor = tensor
        self._follow = follow
        self._names = names
        self._show_saved = show_saved
        self._max_nodes = max_nodes
        super().__init__(kind="graph", **kwargs)
        self.refresh()

    @classmethod
    def from_graph(cls, view: Graph, **kwargs) -> GraphView:
        """A GraphView of a graph model already built (what ``draw()`` shows in a notebook)."""
        self = cls.__new__(cls)
        WidgetBase.__init__(self, kind="graph", **kwargs)
        self._tensor = self._follow = None
        self._show(view)
        return self

    def refresh(self) -> None:
        """Walk the graph again and redraw (after more ops, or after backward())."""
        if self._tensor is None and self._follow is None:
            return  # made from a graph model: nothing to walk again
        tensor = self._follow() if self._follow is not None else self._tensor
        outputs = outputs_of(tensor)
        g = build_graph(outputs, names=resolve_names(self._names), show_saved=self._show_saved,
                        lang=self.lang)
        self._show(limit_graph(g, self._max_nodes, lang=self.lang))

    def update(self, tensor) -> None:
        """Draw another tensor (or tuple of tensors) from now on."""
        self._tensor, self._follow = tensor, None
        self.refresh()

    def __repr__(self) -> str:
        return graph_text("GraphView", self._view, self.lang)

