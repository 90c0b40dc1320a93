"""pytest set-up for the lessons, which nbval checks cell by cell (see pyproject.toml).

The cells of lesson 3 that step through a real PyTorch graph (they use ``real_torch``) need
PyTorch. Where it is not installed they are skipped, saying why; in CI they must run.

Every widget also carries a static ``text/html`` view for exported pages and the docs site
(the same state as its deterministic ``text/plain``, which nbval still compares; stored lessons
keep it without the front-end bundle: tests/lessons/notebook_tools.py). It is left out of the
comparison on both sides, like the widget-view data nbval itself skips.
"""

from __future__ import annotations

import copy
import importlib.util
import os

import pytest


STATIC_VIEW = "data-minigrad-static"


def _without_static_views(outputs):
    kept = []
    for output in outputs:
        html = output.get("data", {}).get("text/html", "")
        html = "".join(html) if isinstance(html, list) else html
        if STATIC_VIEW in html:
            output = copy.deepcopy(output)  # a NotebookNode still
            del output["data"]["text/html"]
        kept.append(output)
    return kept


def _compare_without_static_views(item):
    compare = item.compare_outputs

    def compare_outputs(test, ref, skip_compare=None):
        return compare(_without_static_views(test), _without_static_views(ref), skip_compare)

    item.compare_outputs = compare_outputs


def pytest_collection_modifyitems(config, items):
    for item in items:
        if hasattr(item, "compare_outputs"):
            _compare_without_static_views(item)
    if importlib.util.find_spec("torch") is not None or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason="needs PyTorch 2.13, not installed here "
                            "(make torch, or pip install torch==2.13.0)")
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is not None and "real_torch" in cell.get("source", ""):
            item.add_marker(skip)
