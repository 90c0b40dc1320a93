"""``MemoryView``: the memory a graph holds for backward, node by node.

Each backward node keeps the tensors its rule needs (``MulBackward0`` keeps both factors, its
``_saved_self`` and ``_saved_other``). :func:`saved_memory` reads those ``_saved_*``
attributes (the same ones a PyTorch node has) and counts the bytes of each stored tensor
(``numel() * element_size()``), every tensor once: ``x * x`` saves ``x`` twice and holds it
once, and a tensor two nodes saved counts once in the total. ``backward()`` without
``retain_graph=True`` frees them: reading a ``_saved_*`` then raises, and the node is
``freed``. That is the memory ``retain_graph=True`` keeps alive.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> loss = (x * x).sum()
>>> m = saved_memory([loss])
>>> m.total, [(n.title, n.bytes) for n in m.nodes]
(8, [('SumBackward0', 0), ('MulBackward0', 8)])
>>> loss.backward()
>>> saved_memory([loss]).total, saved_memory([loss]).freed
(0, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import views_style
from ._format import format_shape, is_tensor
from .graph_model import Graph, build_graph, outputs_of
from .i18n import t
from .names import resolve_names
from .widget import WidgetBase

__all__ = ["MemoryView", "saved_memory", "SavedMemory", "NodeMemory", "format_bytes"]


def format_bytes(n: int) -> str:
    """``n`` bytes for a reader: ``8 B``, ``1.5 KiB``, ``3.2 MiB``.

    >>> format_bytes(8), format_bytes(1536), format_bytes(5 * 2**20)
    ('8 B', '1.5 KiB', '5 MiB')
    """
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.4g} {unit}"
    return f"{n} B"


@dataclass
class NodeMemory:
    """What one backward node holds: its saved tensors (attribute, shape, dtype, bytes)."""

    id: str  # the graph model's node id (n3)
    title: str  # MulBackward0
    name: str = ""  # the learner's name of the tensor this node made, if known
    # (attributes, shape text, dtype, bytes, key, the learner's name of the tensor or "")
    tensors: list = field(default_factory=list)
    freed: bool = False

    @property
    def bytes(self) -> int:
        return sum(entry[3] for entry in self.tensors)


@dataclass
class SavedMemory:
    """The saved tensors of a whole graph: per node, and the total (each tensor once)."""

    nodes: list  # NodeMemory, in the graph model's order
    graph: Graph

    @property
    def total(self) -> int:
        seen: dict = {}
        for node in self.nodes:
            for entry in node.tensors:
                seen.setdefault(entry[4], entry[3])
        return sum(seen.values())

    @property
    def count(self) -> int:
        """How many distinct tensors the graph holds."""
        return len({entry[4] for node in self.nodes for entry in node.tensors})

    @property
    def freed(self) -> bool:
        """Whether a backward without ``retain_graph`` freed this graph's saved tensors."""
        return any(node.freed for node in self.nodes)


def _key(tensor) -> tuple:
    """Which memory a tensor is: its data address, shape, strides and dtype (so the same
    tensor saved twice, or unpacked into a new Python object, counts once)."""
    if hasattr(tensor, "data_ptr"):
        ptr = tensor.data_ptr()
    else:
        ptr = tensor.detach().numpy().__array_interface__["data"][0]
    return ptr, tuple(tensor.shape), tuple(tensor.stride()), str(tensor.dtype)


def _dtype_name(tensor) -> str:
    return str(tensor.dtype).replace("torch.", "")


def _saved_tensors(fn):
    """(attribute, tensor) for each tensor ``fn`` saved, and whether they were freed."""
    found, freed = [], False
    for attr in dir(fn):
        if not attr.startswith("_saved_"):
            continue
        try:
            value = getattr(fn, attr)
        except RuntimeError:  # freed by a backward without retain_graph
            freed = True
            continue
        if is_tensor(value):
            found.append((attr, value))
        elif isinstance(value, (tuple, list)):
            found += [(f"{attr}[{i}]", v) for i, v in enumerate(value) if is_tensor(v)]
    return found, freed


def _node_memory(gnode, alive: list, names) -> NodeMemory:
    found, freed = _saved_tensors(gnode.obj)
    alive += found  # a tensor made afresh when read stays alive, so no other gets its address
    node = NodeMemory(gnode.id, gnode.title, gnode.name, freed=freed)
    by_key: dict = {}
    for attr, tensor in found:
        key = _key(tensor)
        if key in by_key:  # the same tensor saved twice (x * x): held once
            by_key[key][0].append(attr)
            continue
        nbytes = tensor.numel() * tensor.element_size()
        by_key[key] = ([attr], format_shape(tensor.shape), _dtype_name(tensor), nbytes, key,
                       names.name_of(tensor) or "")
    node.tensors = list(by_key.values())
    return node


def saved_memory(outputs, *, names=None) -> SavedMemory:
    """The bytes each backward node behind ``outputs`` holds for backward (see the module)."""
    g = build_graph(outputs_of(outputs), names=resolve_names(names))
    alive: list = []
    nodes = [_node_memory(n, alive, g.names) for n in g.nodes if n.kind == "backward"]
    return SavedMemory(nodes, g)


class MemoryView(WidgetBase):
    """The graph behind a tensor with the memory each node holds for backward.

    Over each node that saved tensors: their size in bytes; the panel adds them up (each
    tensor once). After ``backward()`` without ``retain_graph=True``, ``refresh()`` shows
    every node ``freed`` (drawn dashed) and the graph holding 0 bytes: keeping the graph
    with ``retain_graph=True`` keeps this memory. Works on minigrad and PyTorch tensors.

    >>> import minigrad as torch
    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> MemoryView((x.exp() * x).sum(), lang="en")
    MemoryView: the graph holds 24 B for backward (saved tensors: 2)
      SumBackward0  [n1]  saves nothing
      MulBackward0  [n2]  24 B
        _saved_other (x) [3] float32  12 B
        _saved_self [3] float32  12 B
      ExpBackward0  [n3]  12 B
        _saved_result [3] float32  12 B (counted above)
    """

    _css = views_style.css()

    def __init__(self, tensor, names=None, **kwargs):
        self._tensor = tensor
        self._names = resolve_names(names)
        self._before: dict[str, int] = {}  # node id -> bytes it held, measured while held
        self._held = 0  # the graph's total, last measured while held
        super().__init__(kind="memory", **kwargs)
        self.refresh()

    def refresh(self) -> None:
        """Read the saved tensors again (after a ``backward()``, say)."""
        m = saved_memory(self._tensor, names=self._names)
        self._names = m.graph.names  # only the tensors of this graph: hold no others alive
        for node in m.nodes:
            if not node.freed:
                self._before[node.id] = node.bytes
        if not m.freed:
            self._held = m.total
        self.memory = m
        self._show(m.graph)
        notes, states = {}, {}
        for node in m.nodes:
            if node.freed:
                states[node.id] = "freed"
                was = self._before.get(node.id)
                notes[node.id] = (t("memory.note_freed", self.lang, size=format_bytes(was))
                                  if was else t("memory.freed", self.lang))
            elif node.tensors:
                states[node.id] = "held"
                notes[node.id] = format_bytes(node.bytes)
        with self.hold_sync():
            self.node_states, self.node_notes = states, notes
            self.panel = {"title": t("memory.title", self.lang), "lines": self._summary(m)}

    def _summary(self, m: SavedMemory) -> list[str]:
        lang = self.lang
        if m.freed:
            was = self._held
            lines = [t("memory.freed_total", lang, size=format_bytes(m.total))]
            if was:
                lines.append(t("memory.was", lang, size=format_bytes(was)))
            return lines
        return [t("memory.total", lang, size=format_bytes(m.total), count=m.count),
                t("memory.why", lang)]

    @property
    def total_bytes(self) -> int:
        """The bytes the graph holds now (0 once freed)."""
        return self.memory.total

    def __repr__(self) -> str:
        m, lang = self.memory, self.lang
        head = "MemoryView: " + self._summary(m)[0]
        out, counted = [head], set()
        for node in m.nodes:
            label = node.title + (f" ({node.name}.grad_fn)" if node.name else "")
            if node.freed:
                out.append(f"  {label}  [{node.id}]  " + self.node_notes.get(node.id, ""))
                continue
            size = format_bytes(node.bytes) if node.tensors else t("memory.nothing", lang)
            out.append(f"  {label}  [{node.id}]  {size}")
            for attrs, shape, dtype, nbytes, key, name in node.tensors:
                again = "" if key not in counted else t("memory.counted", lang)
                counted.add(key)
                what = ", ".join(attrs) + (f" ({name})" if name else "")
                out.append(f"    {what} {shape} {dtype}  {format_bytes(nbytes)}{again}")
        return "\n".join(out)
