"""minigrad_widgets: draw autograd graphs and step through ``backward()`` in Jupyter.

>>> import minigrad as torch
>>> from minigrad_widgets import draw
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> dot = draw((x * x).sum())          # a graphviz.Digraph; shows as a picture in a notebook
>>> 'label="x\\\\n[2]\\\\n[1., 2.]"' in dot.source
True

``GraphView(loss)`` is the same drawing as a widget that can ``refresh()``;
``BackwardStepper(loss)`` runs ``backward()`` one node at a time (``step()``, ``back()``,
``reset()``, ``run()``). Both print a deterministic text form outside a browser.
Three more views: ``BuildReplay(loss)`` replays the forward pass node by node,
``GradientFlow(model)`` charts each parameter's gradient norm across training (one
``flow.record()`` per step), and ``MemoryView(loss)`` shows the bytes each node holds for
backward. ``set_language("zh")`` makes every widget speak Chinese (or ``lang="zh"`` on one
widget).
"""

from __future__ import annotations

from . import _deps  # noqa: F401  (one clear line if the widgets extra is not installed)
from .dot import draw, to_dot
from .graph_model import build_graph
from .i18n import get_language, set_language
from .reduce import MAX_NODES, limit_graph

__all__ = ["draw", "to_dot", "build_graph", "limit_graph", "MAX_NODES", "GraphView",
           "BackwardStepper", "BuildReplay", "GradientFlow", "MemoryView", "set_language",
           "get_language"]

_LAZY = {"GraphView": "widget", "BackwardStepper": "stepper", "BuildReplay": "build_replay",
         "GradientFlow": "gradient_flow", "MemoryView": "memory"}


def __getattr__(name: str):
    # The widgets need anywidget; import it only when a widget is asked for.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
