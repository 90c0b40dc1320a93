"""Checks, on import, that the widgets' dependencies are installed.

Without them ``import minigrad_widgets`` fails with one line naming the extra to install,
rather than a ``No module named 'graphviz'`` from deep inside the package.
"""

from __future__ import annotations

import importlib.util

NEEDED = ("graphviz", "anywidget", "traitlets", "IPython")
EXTRA = "pip install 'minigrad-autograd[widgets]'"


def missing() -> list[str]:
    """The modules the widgets need that cannot be imported here."""
    return [name for name in NEEDED if importlib.util.find_spec(name) is None]


if missing():
    raise ImportError(f"minigrad_widgets needs {', '.join(missing())}; install the widgets "
                      f"extra: {EXTRA}")
