"""The style sheet of the three views (BuildReplay, GradientFlow, MemoryView): the widgets'
own ``widget.css`` followed by ``views.css``, so one anywidget ``_css`` carries both."""

from __future__ import annotations

import pathlib

__all__ = ["css"]

STATIC = pathlib.Path(__file__).parent / "static"


def css() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in
                     (STATIC / "widget.css", STATIC / "views.css") if path.is_file())
