"""Build hook for editable installs (``pip install -e .``, what ``make install`` runs).

The wheel maps the folder ``widgets/`` to the import name ``minigrad_widgets`` (the
``sources`` option in pyproject.toml). Hatchling's editable wheels cannot rename a folder, so
an editable install puts the repository root on ``sys.path`` (``dev-mode-dirs``, which gives
``minigrad``) and this hook adds a small import finder that answers ``minigrad_widgets`` and
its submodules from ``widgets/``. Edits to either folder take effect without reinstalling.
"""

from __future__ import annotations

import os
import tempfile

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

FINDER = '''"""Editable install of minigrad-autograd: import minigrad_widgets from {path!r}."""
import importlib.abc
import importlib.util
import sys

_ROOT = {path!r}


class _WidgetsFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != "minigrad_widgets":
            return None
        return importlib.util.spec_from_file_location(
            name, _ROOT + "/__init__.py", submodule_search_locations=[_ROOT])


if not any(isinstance(f, _WidgetsFinder) for f in sys.meta_path):
    sys.meta_path.append(_WidgetsFinder())
'''


class EditableWidgetsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version != "editable":
            return
        folder = tempfile.mkdtemp(prefix="minigrad-editable-")
        finder = os.path.join(folder, "_minigrad_widgets_editable.py")
        with open(finder, "w", encoding="utf-8") as out:
            out.write(FINDER.format(path=os.path.join(self.root, "widgets")))
        pth = os.path.join(folder, "_minigrad_widgets_editable.pth")
        with open(pth, "w", encoding="utf-8") as out:
            out.write("import _minigrad_widgets_editable\n")
        build_data["force_include"][finder] = "_minigrad_widgets_editable.py"
        build_data["force_include"][pth] = "_minigrad_widgets_editable.pth"
