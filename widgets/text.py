"""Text forms of the widgets: what a terminal, ``nbconvert --to markdown`` or nbval sees.

Everything here is deterministic: node ids from the walk (``n3``), values printed with NumPy,
never a memory address or an ``id()``.

>>> import minigrad as torch
>>> from minigrad_widgets.graph_model import build_graph
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> y = x * 3
>>> print("\\n".join(graph_tree(build_graph([y.sum()], names={"x": x, "y": y}))))
output [] = 9.  [n0]
└── SumBackward0  [n1]
    └── MulBackward0 (y.grad_fn)  [n2]
        ├── x (leaf) [2] = [1., 2.]  [n3]
        └── None  [n4]
"""

from __future__ import annotations

from ._format import LABEL_LIMIT, format_array, format_shape, to_numpy
from .graph_model import Graph, GraphNode
from .i18n import t

__all__ = ["node_summary", "graph_tree", "graph_text", "panel_text", "MAX_LINES"]

MAX_LINES = 200  # longest tree printed; the rest is counted


def _tensor_text(t) -> str:
    if t is None:
        return ""
    text = " " + format_shape(t.shape)
    if t.numel() <= LABEL_LIMIT:
        text += " = " + format_array(to_numpy(t), LABEL_LIMIT)
    return text


def node_summary(node: GraphNode, lang: str | None = None) -> str:
    """One line describing a model node, e.g. ``x (leaf) [2] = [1., 2.]``, in ``lang``."""
    kind = node.kind
    if kind == "backward":
        text = node.label + (f" ({node.name}.grad_fn)" if node.name else "")
        return "; ".join([text] + node.extra)
    if kind == "chain":
        return f"{node.title} ×{len(node.members)}"
    if kind == "none":
        return "None"
    if kind == "more":
        return node.title
    if kind == "saved":
        head = node.title + (" " + t("graph.saved_is", lang, name=node.name) if node.name else "")
    elif kind == "leaf":
        head = t("graph.leaf", lang, name=node.name) if node.name else t("text.leaf", lang)
    else:
        head = node.name or t("graph.output", lang)
    return head + _tensor_text(node.tensor)


def graph_tree(g: Graph, max_lines: int = MAX_LINES) -> list[str]:
    """The graph as a tree from each output down its inputs, one line per node.

    A node met again is printed once more with ``(see above)`` and not expanded again, so
    the tree has one line per edge at most. Iterative: no recursion limit. The words are in
    the graph's language (``g.lang``).
    """
    lang = g.lang
    inputs: dict[str, list[str]] = {}
    for e in g.edges:
        inputs.setdefault(e.dst, []).append(e.src)
    roots = [n.id for n in g.nodes if n.kind == "output"] or [g.nodes[0].id] if g.nodes else []
    lines: list[str] = []
    expanded: set[str] = set()
    total = 0
    stack = [(root, "", "", True) for root in reversed(roots)]
    while stack:
        nid, lead, branch, is_root = stack.pop()
        node = g.by_id[nid]
        again = nid in expanded and bool(inputs.get(nid))
        total += 1
        if len(lines) < max_lines:
            lines.append(f"{lead}{branch}{node_summary(node, lang)}  [{nid}]"
                         + ("  " + t("graph.see_above", lang) if again else ""))
        if again:
            continue
        expanded.add(nid)
        children = inputs.get(nid, [])
        child_lead = lead if is_root else lead + ("    " if branch == "└── " else "│   ")
        for k in range(len(children) - 1, -1, -1):
            mark = "└── " if k == len(children) - 1 else "├── "
            stack.append((children[k], child_lead, mark, False))
    if total > len(lines):
        lines.append(t("graph.more_lines", lang, n=total - len(lines)))
    return lines


def graph_text(title: str, g: Graph, lang: str | None = None) -> str:
    """A heading, the note about a shortened graph (if any), and the tree, in ``lang``
    (default: the graph's language)."""
    lang = lang or g.lang
    head = t("graph.heading", lang, title=title, count=g.full_size)
    if len(g.nodes) != g.full_size:
        head += t("graph.shown", lang, shown=len(g.nodes))
    out = [head]
    if g.note:
        out.append(t("text.note", lang, note=g.note))
    return "\n".join(out + graph_tree(g))


def panel_text(panel: dict) -> list[str]:
    """The panel of a stepper as text lines (without the ids, which change every run)."""
    lines = [panel.get("title", "")] if panel.get("title") else []
    lines += ["  " + line for line in panel.get("lines", [])]
    acc = panel.get("accumulate")
    if acc:
        lines.append("  " + acc["equation"])
        lines.append("  " + acc["identity"])
    for sec in panel.get("sections", []):
        heading = sec["heading"]
        lines.append(f"  {heading}{'：' if not heading.isascii() else ':'}")
        lines += ["    " + line for line in sec["lines"]]
    return lines
