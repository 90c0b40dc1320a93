"""pytest set-up for the lessons, which nbval checks cell by cell (see pyproject.toml).

The cells of lesson 3 that step through a real PyTorch graph (they use ``real_torch``) need
PyTorch. Where it is not installed they are skipped, saying why; in CI they must run.
"""

from __future__ import annotations

import importlib.util
import os

import pytest


def pytest_collection_modifyitems(config, items):
    if importlib.util.find_spec("torch") is not None or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason="needs PyTorch 2.13, not installed here "
                            "(make torch, or pip install torch==2.13.0)")
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is not None and "real_torch" in cell.get("source", ""):
            item.add_marker(skip)
