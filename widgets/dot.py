"""DOT source for a graph model, with the ``graphviz`` package.

Colours mean what they mean in torchviz: leaf tensors light blue, outputs green, saved tensors
orange, backward nodes grey; every colour, line and shape comes from the one style table,
:mod:`minigrad_widgets.style` (tensors square boxes, backward nodes rounded, the output
doubly outlined). On top of that: the learner's variable names, shapes, the values of small
tensors, inputs that need no gradient drawn as small marks, and the output's ``grad_fn``
outlined. Every node has the DOT ``id`` of its model node (``n0``, ``n1``, ...) and every edge
its edge id (``e0``, ...), which the SVG keeps, so a front end can restyle them by id.

Every piece of text is escaped (:func:`escape_text`): a name such as ``'"]; evil ['`` or
``'<b>'`` shows up as those characters and cannot end a string or start an HTML label.

>>> import minigrad as torch
>>> x = torch.tensor(2., requires_grad=True)
>>> for line in draw(x * x, names={"x": x}).source.splitlines()[4:-1]:
...     print(line.strip())  # doctest: +ELLIPSIS
n0 [label="output\\n[]\\n4." class="mg-output" color="#4f7a0e" fillcolor="#caff70" ...]
n1 [label=MulBackward0 class="mg-backward" color="#5c5c5c" fillcolor="#e3e3e3" ...]
n1 -> n0 [class="mg-output" color="#555555" id=e0]
n2 [label="x\\n[]\\n2." class="mg-leaf" color="#2f6f8a" fillcolor="#add8e6" ...]
n2 -> n1 [class="mg-grad" color="#555555" id=e1]
n2 -> n1 [class="mg-grad" color="#555555" id=e2]
"""

from __future__ import annotations

import functools

import graphviz
from graphviz.quoting import quote

from . import style
from .graph_model import GRADIENT_EDGES as GRADIENT_KINDS
from .graph_model import Graph, GraphNode, build_graph, node_lines
from .i18n import t
from .names import resolve_names
from .reduce import limit_graph

__all__ = ["draw", "to_dot", "escape_text", "label_of", "Drawing", "GraphvizNotFound"]

# 12 pt Courier: about 16 px at the widget's scale 1, legible on a projector. One layout for
# every widget: room between nodes for the gradients the stepper writes on edges.
GRAPH_ATTR = {"nodesep": "0.5", "ranksep": "0.55", "fontname": "Courier", "fontsize": "12"}
NODE_ATTR = {"shape": "box", "style": "filled,rounded", "fontname": "Courier",
             "fontsize": "12", "height": "0.2", "margin": "0.08,0.04"}
EDGE_ATTR = {"arrowsize": "0.6"}

# one style table for every drawing (minigrad_widgets.style): colours, lines and shapes
NODE_STYLE = {kind: style.dot_node_attrs(kind) for kind in style.KINDS}
SPINE = ("backward", "chain", "output")  # a chain of ops is drawn as one straight column
MARKED_STYLE = {"penwidth": "2"}
EDGE_STYLE = {
    "grad": style.dot_edge_attrs("grad"),
    "output": style.dot_edge_attrs("grad"),
    "none": style.dot_edge_attrs("none"),
    "saved": {"dir": "none", **style.dot_edge_attrs("saved")},
    "more": style.dot_edge_attrs("more"),
}


def escape_text(text: str) -> str:
    """``text`` as a piece of a quoted DOT string, shown literally.

    Unprintable characters are written as Python escapes, backslashes doubled (DOT gives
    ``\\n``, ``\\N``, ``\\l`` ... a meaning), double quotes escaped, and ``&`` written
    ``&amp;`` (Graphviz reads entities such as ``&lt;`` even in plain labels).

    >>> print(escape_text('say "hi"\\\\n'))
    say \\"hi\\"\\\\n
    """
    if not text.isprintable():
        text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                       for c in text)
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("&", "&amp;")


def _literal(pieces) -> str:
    """Escaped lines joined by DOT line breaks; never taken for an HTML-like ``<...>`` label."""
    return graphviz.nohtml("\\n".join(escape_text(p) for p in pieces))


def label_of(node: GraphNode, lang: str | None = None) -> str:
    """The escaped DOT label of a model node, its words in ``lang``."""
    return _literal(node_lines(node, lang=lang))


TOOLTIP = {"output": "view.legend.output", "saved": "view.legend.saved",
           "none": "view.legend.none", "more": "graph.not_drawn"}  # catalogue keys


def _tooltip(node: GraphNode, lang: str | None) -> str:
    key = TOOLTIP.get(node.kind)
    return _literal([t(key, lang) if key else node.title])


GRADIENT_DIRECTION = {"dir": "back"}  # arrowhead at the input: the way a gradient travels


def check_arrows(arrows: str) -> str:
    if arrows not in style.ARROWS:
        raise ValueError(f"arrows must be 'forward' or 'backward', got {arrows!r}")
    return arrows


def to_dot(g: Graph, *, caption: bool = False, arrows: str = "forward",
           cls: type | None = None) -> graphviz.Digraph:
    """The DOT drawing of graph model ``g`` (already reduced, if it needed to be).

    One convention for every drawing (``draw()``, ``GraphView``, ``BackwardStepper``, its
    snapshots and static pages): the inputs at the top, the output at the bottom, and with
    ``arrows="forward"`` (the default) an arrow ``a -> b`` says that ``a`` was an input of
    ``b`` in the forward pass; gradients travel against the arrows. ``arrows="backward"``
    turns the arrowheads along which gradients flow the other way (the layout stays the same).
    ``cls`` is the ``Digraph`` subclass to make.
    """
    backward = check_arrows(arrows) == "backward"
    dot = (cls or graphviz.Digraph)("autograd", graph_attr=dict(GRAPH_ATTR),
                                    node_attr=dict(NODE_ATTR), edge_attr=dict(EDGE_ATTR))
    if caption and g.note:
        dot.attr(label=_literal([g.note]), labelloc="b")
    edges_into: dict[str, list] = {}
    for e in g.edges:
        edges_into.setdefault(e.src, []).append(e)
    body = dot.body
    for node in g.nodes:
        # the same as dot.node(...), with each kind's style quoted once (a 1,000-node graph)
        body.append(f"\t{node.id} [label={quote(label_of(node, g.lang))} {_node_style(node)} "
                    f"id={node.id} tooltip={quote(_tooltip(node, g.lang))}]\n")
        for e in edges_into.pop(node.id, ()):  # each edge right after its tail, as in the walk
            if e.dst in g.by_id:
                body.append(f"\t{e.src} -> {e.dst} [{_edge_style(e.kind, backward)} "
                            f"id={e.id}]\n")
    return dot


@functools.cache
def _kind_style(kind: str, spine: bool, marked: bool) -> str:
    attrs = {"class": f"mg-{kind}", **NODE_STYLE[kind]}
    if spine:
        attrs["group"] = "spine"  # Graphviz keeps edges inside a group straight
    if marked:
        attrs.update(MARKED_STYLE)
    return graphviz.quoting.a_list(kwargs=dict(sorted(attrs.items())))


def _node_style(node: GraphNode) -> str:
    return _kind_style(node.kind, node.kind in SPINE, node.marked)


@functools.cache
def _edge_style(kind: str, backward: bool) -> str:
    attrs = {"class": f"mg-{kind}", **EDGE_STYLE[kind]}
    if backward and kind in GRADIENT_KINDS:  # to a None mark: no arrow
        attrs.update(GRADIENT_DIRECTION if kind != "none" else {"dir": "none"})
    return graphviz.quoting.a_list(kwargs=dict(sorted(attrs.items())))


def draw(*tensors, names=None, show_saved: bool = False, max_nodes: int | None = None,
         arrows: str = "forward", lang: str | None = None) -> graphviz.Digraph:
    """Draw the autograd graph behind ``tensors`` as a ``graphviz.Digraph``.

    In a notebook the result shows as a picture; ``.source`` is the DOT text. ``names`` maps
    names to tensors (``names={"x": x}``); by default the names are found among your
    variables. ``show_saved=True`` adds the tensors saved for backward (orange). Graphs over
    ``max_nodes`` nodes (150 by default) are shortened; a caption says how. ``arrows`` is
    the drawing convention of :func:`to_dot`, the same for every widget. ``lang`` (``"en"``
    or ``"zh"``) is the language of the words in the drawing (default: the one
    :func:`~minigrad_widgets.set_language` set).
    """
    if len(tensors) == 1 and not hasattr(tensors[0], "grad_fn"):
        tensors = tuple(tensors[0])  # draw([a, b]) as well as draw(a, b)
    if not tensors:
        raise TypeError("draw() needs at least one tensor, e.g. draw(loss)")
    g = build_graph(tensors, names=resolve_names(names), show_saved=show_saved, lang=lang)
    view = limit_graph(g, max_nodes)
    drawing = to_dot(view, caption=True, arrows=arrows, cls=Drawing)
    drawing.graph_view = view
    drawing.arrows = arrows
    return drawing


class GraphvizNotFound(graphviz.ExecutableNotFound):
    """Rendering to a file was asked for, and Graphviz's ``dot`` program is not installed."""

    def __init__(self, message: str):
        RuntimeError.__init__(self, message)


def _needs_dot(method):
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except graphviz.ExecutableNotFound:
            raise GraphvizNotFound(t("view.dot_missing")) from None

    call.__name__ = method.__name__
    call.__doc__ = (f"``graphviz.Digraph.{method.__name__}``; runs Graphviz's ``dot`` program "
                    "and raises :class:`GraphvizNotFound` where it is not installed.")
    return call


class Drawing(graphviz.Digraph):
    """What :func:`draw` returns: a ``graphviz.Digraph`` a notebook shows without ``dot``.

    In a notebook it is displayed as a :class:`~minigrad_widgets.GraphView`: laid out by the
    Graphviz compiled to WebAssembly that the widget's front end carries, with a static HTML
    copy for exported pages. ``.source`` is the DOT text. Only rendering to a file or to
    bytes (``render``, ``pipe``, ``view``) runs Graphviz's ``dot`` program, and without it
    they raise :class:`GraphvizNotFound`, saying how to install it.
    """

    graph_view: Graph | None = None  # the graph model drawn
    arrows: str = "forward"

    def _ipython_display_(self):
        from IPython.display import display

        if self.graph_view is None:  # a copy() or a hand-made Drawing: the DOT text
            display(self.source)
            return
        from .widget import GraphView

        display(GraphView.from_graph(self.graph_view, arrows=self.arrows))

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        return {"text/plain": self.source}  # (IPython displays through _ipython_display_)

    render = _needs_dot(graphviz.Digraph.render)
    pipe = _needs_dot(graphviz.Digraph.pipe)
    view = _needs_dot(graphviz.Digraph.view)
    unflatten = _needs_dot(graphviz.Digraph.unflatten)
