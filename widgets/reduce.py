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

from .graph_model import Graph, GraphNode

__all__ = ["MAX_NODES", "MIN_CHAIN", "limit_graph", "collapse_chains", "truncate"]

MAX_NODES = 150  # the default limit of nodes drawn
MIN_CHAIN = 3  # shortest run of identical nodes that gets collapsed


def limit_graph(g: Graph, max_nodes: int | None = None) -> Graph:
    """``g`` itself if it has at most ``max_nodes`` nodes, else a smaller view of it."""
    limit = MAX_NODES if max_nodes is None else max_nodes
    if limit < 1:
        raise ValueError(f"max_nodes must be at least 1, got {limit}")
    if len(g.nodes) <= limit:
        return g
    view = collapse_chains(g)
    if len(view.nodes) > limit:
        view = truncate(view, limit)
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
    more = f" and {len(chains) - 3} more chains" if len(chains) > 3 else ""
    view.note = f"large graph ({g.full_size} nodes): collapsed {summary}{more}"
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
    view = Graph(g.names)
    view.full_size = g.full_size
    view.note = g.note
    return view


def truncate(g: Graph, max_nodes: int) -> Graph:
    """A view with the first ``max_nodes`` nodes of ``g`` and a ``more`` node for the rest."""
    view = _empty_like(g)
    for node in g.nodes[:max_nodes]:
        view.nodes.append(node)
        view.by_id[node.id] = node
    left_out = len(g.nodes) - max_nodes
    cut = []
    for e in g.edges:
        if e.src in view.by_id and e.dst in view.by_id:
            view.edges.append(e)
        elif e.dst in view.by_id and e.dst not in cut:
            cut.append(e.dst)
    if cut:
        more = GraphNode("more", "more", title=f"… {left_out} more nodes")
        view.nodes.append(more)
        view.by_id[more.id] = more
        for k, dst in enumerate(cut):
            view.edges.append(type(g.edges[0])(f"more_e{k}", "more", dst, "more"))
    view.node_of = {fn: nid for fn, nid in g.node_of.items() if nid in view.by_id}
    shown = f"graph truncated: showing the first {max_nodes} of {len(g.nodes)} nodes"
    view.note = f"{g.note}; {shown}" if g.note else shown
    return view
