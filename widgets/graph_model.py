"""The graph model: an autograd graph as plain nodes and edges with stable ids.

:func:`build_graph` walks the graph behind one or more output tensors, breadth first from the
outputs, with a queue instead of recursion (a chain of 10,000 ops is fine). Every node gets
the id ``n<k>`` in the order the walk meets it, every edge ``e<k>``, so the same code draws
the same picture on every run (``id()`` is never used for a name).

It reads only what PyTorch's graphs also have: ``grad_fn``, ``next_functions``, ``name()``,
``variable`` (on ``AccumulateGrad``) and ``_saved_*`` attributes; so the same walker draws a
minigrad graph and a real PyTorch graph.

Kinds of nodes: ``output`` (a tensor you asked to draw), ``backward`` (a ``grad_fn`` such as
``MulBackward0``), ``leaf`` (an ``AccumulateGrad`` together with its leaf tensor), ``saved``
(a tensor kept for backward, only with ``show_saved=True``), ``none`` (an input that needs no
gradient: ``(None, 0)`` in ``next_functions``), and, in a reduced view of a large graph,
``chain`` (a run of identical nodes) and ``more`` (the nodes left out). Edges point the way
the forward pass went: from an input to the node that used it.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> g = build_graph([(x * 3).sum()], names={"x": x})
>>> [(n.id, n.kind, n.name if n.kind == "leaf" else n.title) for n in g.nodes]
[('n0', 'output', ''), ('n1', 'backward', 'SumBackward0'), ('n2', 'backward', 'MulBackward0'), \
('n3', 'leaf', 'x'), ('n4', 'none', '')]
>>> [(e.src, e.dst) for e in g.edges]
[('n1', 'n0'), ('n2', 'n1'), ('n3', 'n2'), ('n4', 'n2')]
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ._format import (
    LABEL_LIMIT,
    format_array,
    format_shape,
    is_leaf_node,
    is_tensor,
    short_repr,
    to_numpy,
)
from .i18n import get_language
from .i18n import t as _t
from .names import Names, resolve_names

__all__ = ["GraphNode", "GraphEdge", "Graph", "build_graph", "node_lines", "outputs_of",
           "sequence_nr", "tag_duplicates"]

GRADIENT_EDGES = ("grad", "none", "output")  # edges along which a gradient flows


@dataclass(eq=False)
class GraphNode:
    """One box of the drawing. ``obj`` is the autograd node (for ``backward``/``leaf``)."""

    id: str
    kind: str
    obj: object = None
    tensor: object = None
    name: str = ""  # the learner's name: of the tensor, or of the tensor this grad_fn made
    title: str = ""  # node.name() for autograd nodes, the attribute name for saved tensors
    extra: list = field(default_factory=list)  # saved non-tensor values, as text lines
    marked: bool = False  # the grad_fn of an output
    members: list = field(default_factory=list)  # the autograd nodes a ``chain`` stands for
    tag: str = ""  # ``#2``: tells apart unnamed nodes of the same type (see tag_duplicates)

    @property
    def label(self) -> str:
        """The node type as the learner reads it: ``MulBackward0 #2`` where needed."""
        return f"{self.title} {self.tag}" if self.tag else self.title


@dataclass(eq=False)
class GraphEdge:
    id: str
    src: str
    dst: str
    kind: str  # "grad", "none", "output", "saved" or "more"


class Graph:
    """Nodes and edges in walk order, and which model id each autograd node got."""

    def __init__(self, names: Names | None = None, lang: str | None = None):
        self.lang = lang or get_language()  # of the text the graph's nodes and notes show
        self.nodes: list[GraphNode] = []
        self.edges: list[GraphEdge] = []
        self.by_id: dict[str, GraphNode] = {}
        self.node_of: dict[object, str] = {}  # autograd node -> model id
        self.names = names if names is not None else Names()
        self.note = ""
        self.full_size = 0  # nodes before any reduction (see minigrad_widgets.reduce)
        self.core: set | None = None  # in a window of a large graph: ids well inside it

    def add(self, kind: str, **fields) -> GraphNode:
        node = GraphNode(f"n{len(self.nodes)}", kind, **fields)
        self.nodes.append(node)
        self.by_id[node.id] = node
        return node

    def edge(self, src: str, dst: str, kind: str) -> GraphEdge:
        e = GraphEdge(f"e{len(self.edges)}", src, dst, kind)
        self.edges.append(e)
        return e

    def visit(self, fn, queue: deque) -> str:
        """The id of autograd node ``fn``, adding it (and queueing it) the first time."""
        nid = self.node_of.get(fn)
        if nid is None:
            if is_leaf_node(fn):
                var = fn.variable
                node = self.add("leaf", obj=fn, tensor=var, name=self.names.name_of(var) or "",
                                title=fn.name())
            else:
                node = self.add("backward", obj=fn, title=fn.name())
            nid = self.node_of[fn] = node.id
            queue.append(fn)
        return nid

    def __len__(self) -> int:
        return len(self.nodes)

    def __repr__(self) -> str:
        return f"<Graph: {len(self.nodes)} nodes, {len(self.edges)} edges>"


def outputs_of(tensors) -> tuple:
    """``tensors`` as a tuple of tensors: one tensor, or a list/tuple of them."""
    if is_tensor(tensors):
        return (tensors,)
    out = tuple(tensors)
    for t in out:
        if not is_tensor(t):
            raise TypeError(f"expected tensors to draw, got {type(t).__name__}")
    return out


def build_graph(outputs, *, names=None, show_saved: bool = False,
                lang: str | None = None) -> Graph:
    """Walk the autograd graph behind ``outputs`` (tensors) into a :class:`Graph`.

    ``names`` maps names to tensors (``{"x": x}``); ``None`` looks them up in the caller's
    namespace. With ``show_saved=True`` the tensors each node saved for backward are added
    (in orange, in a drawing), and its other saved values become lines of its label.
    ``lang`` is the language of the words in labels and notes (default: the current one).
    """
    outputs = outputs_of(outputs)
    g = Graph(resolve_names(names), lang)
    queue: deque = deque()
    for t in outputs:
        out = g.add("output", tensor=t, name=g.names.name_of(t) or "")
        if t.grad_fn is not None:
            fid = g.visit(t.grad_fn, queue)
            g.by_id[fid].marked = True
            g.edge(fid, out.id, "output")
    made_by = _named_results(g.names, outputs)
    while queue:
        fn = queue.popleft()
        fid = g.node_of[fn]
        node = g.by_id[fid]
        if node.kind == "backward":
            node.name = made_by.get(fn, "")
            if show_saved:
                _add_saved(g, fn, node)
        for child, _ in fn.next_functions:
            if child is None:
                g.edge(g.add("none").id, fid, "none")
            else:
                g.edge(g.visit(child, queue), fid, "grad")
    tag_duplicates(g)
    g.full_size = len(g.nodes)
    kept = [n.tensor for n in g.nodes if n.tensor is not None]
    kept += [t for _, t in g.names.items() if t.grad_fn in made_by]
    g.names = g.names.keep_only(kept)  # hold no other tensors of the learner's
    return g


def sequence_nr(fn) -> int:
    """The creation number of an autograd node (a method in PyTorch, an int in minigrad)."""
    nr = getattr(fn, "_sequence_nr", 0)
    return int(nr() if callable(nr) else nr)


def tag_duplicates(g: Graph) -> None:
    """Give ``#k`` to each unnamed backward node whose type occurs more than once: ``k``
    counts the nodes of that type in the order the forward pass created them (named ones
    too), so ``MulBackward0 #1`` is the first multiplication written."""
    by_title: dict[str, list] = {}
    for node in g.nodes:
        if node.kind == "backward":
            by_title.setdefault(node.title, []).append(node)
    for same in by_title.values():
        if len(same) < 2:
            continue
        same.sort(key=lambda n: (sequence_nr(n.obj), int(n.id[1:])))
        for k, node in enumerate(same, 1):
            node.tag = "" if node.name else f"#{k}"


def _named_results(names: Names, outputs) -> dict:
    """grad_fn -> name, for the named non-leaf tensors that are not outputs."""
    skip = {id(t) for t in outputs}
    made_by: dict = {}
    for name, t in names.items():
        fn = t.grad_fn
        if fn is not None and id(t) not in skip and fn not in made_by:
            made_by[fn] = name
    return made_by


def _saved_values(fn):
    """(attribute, value or the error met reading it) for each ``_saved_*`` of ``fn``."""
    for attr in dir(fn):
        if attr.startswith("_saved_"):
            try:
                yield attr, getattr(fn, attr), None
            except RuntimeError as error:  # freed by a backward without retain_graph
                yield attr, None, error


def _add_saved(g: Graph, fn, node: GraphNode) -> None:
    """One orange node per saved tensor (per attribute, like ``_saved_self``)."""
    for attr, value, error in _saved_values(fn):
        if error is not None:
            node.extra.append(_t("graph.freed", g.lang, attr=attr))
        elif is_tensor(value):
            _saved_edge(g, attr, value, node.id)
        elif isinstance(value, (tuple, list)) and value and all(map(is_tensor, value)):
            for i, v in enumerate(value):
                _saved_edge(g, f"{attr}[{i}]", v, node.id)
        else:
            node.extra.append(f"{attr} = {short_repr(value)}")


def _saved_edge(g: Graph, attr: str, value, fid: str) -> None:
    saved = g.add("saved", tensor=value, title=attr, name=g.names.name_of(value) or "")
    g.edge(saved.id, fid, "saved")


def node_lines(node: GraphNode, limit: int = LABEL_LIMIT, lang: str | None = None) -> list[str]:
    """The text of one node, line by line (unescaped: the DOT writer escapes it), with its
    words in ``lang``."""
    kind = node.kind
    if kind == "backward":
        lines = [node.label]
        if node.name:
            lines.append(f"({node.name}.grad_fn)")
        return lines + node.extra
    if kind == "chain":
        return [f"{node.title} ×{len(node.members)}"]
    if kind == "none":
        return ["None"]
    if kind == "more":
        return [node.title]
    if kind == "saved":
        lines = [node.title] + ([_t("graph.saved_is", lang, name=node.name)] if node.name else [])
    elif kind == "leaf":
        lines = [node.name or _t("text.leaf", lang)]
    else:
        lines = [node.name or _t("graph.output", lang)]
    return lines + _tensor_lines(node.tensor, limit)


def _tensor_lines(t, limit: int) -> list[str]:
    if t is None:
        return []
    lines = [format_shape(t.shape)]
    if t.numel() <= limit:
        lines.append(format_array(to_numpy(t), limit))
    return lines
