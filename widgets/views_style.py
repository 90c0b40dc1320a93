"""The style sheet of the three views (BuildReplay, GradientFlow, MemoryView): the same as
every widget's (:func:`minigrad_widgets.export.stylesheet`: ``widget.css``, ``views.css`` and
the style table's colours), so one anywidget ``_css`` carries all of it."""

from __future__ import annotations

__all__ = ["css"]


def css() -> str:
    from .export import stylesheet

    return stylesheet()
