"""Keeping large graphs drawable: collapse repeated chains, then show only the first nodes.

A browser lays a graph out on its only thread, so a graph of thousands of nodes would freeze
the notebook. Above ``max_nodes`` (150 unless you say otherwise):

1. every run of at least three identical nodes, each used only by the next one (a loop
   ``y = y * 2`` makes one), becomes a single ``chain`` node: ``MulBackward0 ×998``;
2. if the graph is still too large, only the first ``max_nodes`` nodes in walk order are
   kept, and one ``more`` node stands for the rest.

The view keeps the ids of the nodes it shows (a chain takes its first member's id), and its
``note`` says what was left out.

>>> import minigrad as torch
>>> x = torch.tensor(1., requires_grad=True)
>>> y = x
>>> for _ in range(200):
...     y = y + 1.0
>>> from minigrad_widgets.graph_model import build_graph
>>> view = limit_graph(build_graph([y], names={"x": x, "y": y}), max_nodes=150)
>>> [(n.id, n.kind, len(n.members)) for n in view.nodes]
[('n0', 'output', 0), ('n1', 'chain', 200), ('n3', 'none', 0), ('n400', 'leaf', 0)]
>>> view.note
'large graph (402 nodes): collapsed AddBackward0 ×200'
"""

from __future__ import annotations

from collections import deque

from .graph_model import Graph, GraphEdge, GraphNode
from .i18n import t

__all__ = ["MAX_NODES", "MIN_CHAIN", "limit_graph", "collapse_chains", "truncate", "window",
           "size"]

MAX_NODES = 150  # the default limit of nodes drawn
MIN_CHAIN = 3  # shortest run of identical nodes that gets collapsed
ENDS = ("leaf", "saved", "none")  # a window's walk reaches these but does not pass them


def size(g: Graph) -> int:
    """Nodes that count against the limit: all but the small marks of inputs needing no grad."""
    return sum(1 for n in g.nodes if n.kind != "none")


def limit_graph(g: Graph, max_nodes: int | None = None, *, center=None,
                lang: str | None = None) -> Graph:
    """``g`` itself if it has at most ``max_nodes`` nodes, else a smaller view of it.

    ``center`` (an autograd node) asks for a window of nodes around it instead of the first
    ``max_nodes`` (see :func:`window`); the stepper centres on the node it runs.
    """
    limit = MAX_NODES if max_nodes is None else max_nodes
    if limit < 1:
        raise ValueError(f"max_nodes must be at least 1, got {limit}")
    if size(g) <= limit:
        return g
    view = collapse_chains(g)
    if size(view) > limit:
        cid = view.node_of.get(center) if center is not None else None
        view = truncate(view, limit) if cid is None else window(view, cid, limit,
                                                               lang=lang or g.lang)
    return view


def _links(g: Graph) -> dict[str, str]:
    """consumer id -> input id, for the links that may join a chain."""
    consumers: dict[str, int] = {}
    inputs: dict[str, list[str]] = {}
    for e in g.edges:
        if e.kind in ("grad", "output"):
            consumers[e.src] = consumers.get(e.src, 0) + 1
        if e.kind == "grad":
            inputs.setdefault(e.dst, []).append(e.src)
    nxt = {}
    for node in g.nodes:
        if node.kind != "backward":
            continue
        same = [c for c in inputs.get(node.id, ()) if g.by_id[c].kind == "backward"
                and g.by_id[c].title == node.title and consumers.get(c) == 1]
        if len(same) == 1:
            nxt[node.id] = same[0]
    return nxt


def collapse_chains(g: Graph) -> Graph:
    """A view of ``g`` with each run of at least ``MIN_CHAIN`` identical nodes as one node."""
    nxt = _links(g)
    rep: dict[str, str] = {}  # member id -> id of the chain's first member
    chains: list[tuple[GraphNode, list[str]]] = []
    heads = set(nxt) - set(nxt.values())
    for node in g.nodes:
        if node.id not in heads:
            continue
        run = [node.id]
        while run[-1] in nxt:
            run.append(nxt[run[-1]])
        if len(run) >= MIN_CHAIN:
            for member in run:
                rep[member] = node.id
            chains.append((node, run))
    if not chains:
        return g
    view = _subgraph(g, rep, {head.id: run for head, run in chains})
    summary = ", ".join(f"{head.title} ×{len(run)}" for head, run in chains[:3])
    if len(chains) > 3:
        summary += t("graph.more_chains", g.lang, n=len(chains) - 3)
    view.note = t("graph.collapsed", g.lang, total=g.full_size, summary=summary)
    return view


def _subgraph(g: Graph, rep: dict[str, str], runs: dict[str, list[str]]) -> Graph:
    """Nodes and edges of ``g`` with chain members merged into their first member."""
    view = _empty_like(g)
    hidden = set()
    for e in g.edges:  # inputs that need no gradient, or saved tensors, of hidden members
        if e.kind in ("none", "saved") and rep.get(e.dst, e.dst) != e.dst:
            hidden.add(e.src)
    for node in g.nodes:
        head = rep.get(node.id)
        if node.id in hidden or (head is not None and head != node.id):
            continue
        if head is not None:
            members = [g.by_id[m].obj for m in runs[head]]
            node = GraphNode(node.id, "chain", obj=node.obj, title=node.title,
                             marked=node.marked, members=members)
        view.nodes.append(node)
        view.by_id[node.id] = node
    seen = set()
    for e in g.edges:
        src, dst = rep.get(e.src, e.src), rep.get(e.dst, e.dst)
        if src == dst or src not in view.by_id or dst not in view.by_id:
            continue
        if (src, dst, e.kind) not in seen:
            seen.add((src, dst, e.kind))
            view.edges.append(type(e)(e.id, src, dst, e.kind))
    for fn, nid in g.node_of.items():
        vid = rep.get(nid, nid)
        if vid in view.by_id:
            view.node_of[fn] = vid
    return view


def _empty_like(g: Graph) -> Graph:
    view = Graph(g.names, g.lang)
    view.full_size = g.full_size
    view.note = g.note
    return view


def _with_marks(g: Graph, kept: set) -> list:
    """Nodes of ``g`` in walk order: those in ``kept``, and the marks of their None inputs."""
    marks = {e.src for e in g.edges if e.kind == "none" and e.dst in kept}
    return [n for n in g.nodes if n.id in kept or n.id in marks]


def truncate(g: Graph, max_nodes: int) -> Graph:
    """A view with the first ``max_nodes`` nodes of ``g`` and a ``more`` node for the rest."""
    view = _empty_like(g)
    first = [n.id for n in g.nodes if n.kind != "none"][:max_nodes]
    for node in _with_marks(g, set(first)):
        view.nodes.append(node)
        view.by_id[node.id] = node
    view.core = set(first[: max(1, max_nodes * 3 // 5)])
    left_out = len(g.nodes) - len(view.nodes)
    cut = []
    for e in g.edges:
        if e.src in view.by_id and e.dst in view.by_id:
            view.edges.append(e)
        elif e.dst in view.by_id and e.dst not in cut:
            cut.append(e.dst)
    if cut:
        more = GraphNode("more", "more", title=t("view.more_nodes", g.lang, count=left_out))
        view.nodes.append(more)
        view.by_id[more.id] = more
        for k, dst in enumerate(cut):
            view.edges.append(type(g.edges[0])(f"more_e{k}", "more", dst, "more"))
    view.node_of = {fn: nid for fn, nid in g.node_of.items() if nid in view.by_id}
    shown = t("graph.truncated", g.lang, shown=max_nodes, total=len(g.nodes))
    view.note = t("graph.notes", g.lang, first=g.note, second=shown) if g.note else shown
    return view


def _distance_order(g: Graph, center: str) -> list[str]:
    """Ids of ``g`` breadth first from ``center`` along edges either way (then the rest).

    The walk does not go on through a leaf: a weight used by every layer would otherwise put
    every node two edges from every other.
    """
    near: dict[str, list[str]] = {}
    for e in g.edges:
        near.setdefault(e.dst, []).append(e.src)
        near.setdefault(e.src, []).append(e.dst)
    order = {center: None}
    queue = deque([center])
    while queue:
        here = queue.popleft()
        if here != center and g.by_id[here].kind in ENDS:
            continue
        for other in near.get(here, ()):
            if other not in order:
                order[other] = None
                queue.append(other)
    order.update((n.id, None) for n in g.nodes if n.id not in order)
    return list(order)


def window(g: Graph, center: str, max_nodes: int, *, lang: str | None = None) -> Graph:
    """A view of the ``max_nodes`` nodes of ``g`` nearest to node ``center`` (by edges).

    Where edges leave the window, a ``more`` node (towards the inputs) and a ``more_up``
    node (towards the outputs) say how many nodes are not drawn. ``view.core`` holds the
    nodes well inside the window: once the current node leaves it, the stepper moves the
    window.
    """
    lang = lang or g.lang
    order = [nid for nid in _distance_order(g, center) if g.by_id[nid].kind != "none"]
    kept = set(order[:max_nodes])
    view = _empty_like(g)
    for node in _with_marks(g, kept):
        view.nodes.append(node)
        view.by_id[node.id] = node
    view.core = set(order[: max(1, max_nodes * 3 // 5)])
    index = {n.id: k for k, n in enumerate(g.nodes)}
    hidden = order[max_nodes:]
    up = sum(1 for nid in hidden if index[nid] < index[center])
    sides = {"more_up": up, "more": len(hidden) - up}
    cut: list = []
    for e in g.edges:
        if e.src in view.by_id and e.dst in view.by_id:
            view.edges.append(e)
        elif e.dst in kept and e.kind != "none":
            cut.append(("more", e.dst, e))
        elif e.src in kept:
            cut.append(("more_up", e.src, e))
    for side in {side for side, _, _ in cut}:
        more = GraphNode(side, "more", title=t("view.more_nodes", lang, count=sides[side]))
        view.nodes.append(more)
        view.by_id[more.id] = more
    seen = set()
    for k, (side, kept_id, _) in enumerate(cut):
        if (side, kept_id) not in seen:
            seen.add((side, kept_id))
            src, dst = (side, kept_id) if side == "more" else (kept_id, side)
            view.edges.append(GraphEdge(f"{side}_e{k}", src, dst, "more"))
    view.node_of = {fn: nid for fn, nid in g.node_of.items() if nid in view.by_id}
    shown = t("view.window", lang, total=g.full_size, shown=len(kept))
    view.note = t("graph.notes", lang, first=g.note, second=shown) if g.note else shown
    return view
