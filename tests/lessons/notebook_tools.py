"""Execute notebooks and store clean outputs: the answer key nbval checks.

Used by notebooks/build.py (which builds the lessons from notebooks/_source/) and by the
tests. Stored notebooks carry no widget state (``metadata.widgets``, widget-state and
widget-view outputs are dropped; the widgets' static ``text/html`` views stay, without the
front-end bundle they may carry; the widget's deterministic ``text/plain`` stays), no timing
metadata and no machine paths.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
WIDGET_MIME = ("application/vnd.jupyter.widget-view+json",
               "application/vnd.jupyter.widget-state+json")
STATIC_VIEW = "data-minigrad-static"  # marks a widget's static text/html view
# the one copy of the front end (script and CSS) a static view may carry: widgets/export.py
CARRIER = re.compile(r'<script type="text/plain" id="minigrad-widgets-bundle">.*?</script>'
                     r'<style id="minigrad-widgets-bundle-css">.*?</style>', re.S)
# Anything that looks like a path on this machine must not end up in a stored output.
MACHINE_PATH = re.compile(r"/(home|root|tmp|usr|work|opt|var|Users)/[^\s'\",]+|[A-Z]:\\\\")


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop widget state, timing and kernel details that change from run to run."""
    nb.metadata.pop("widgets", None)
    nb.metadata["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            output.get("metadata", {}).pop("application/vnd.jupyter.widget-view+json", None)
            data = output.get("data", {})
            for mime in WIDGET_MIME:
                data.pop(mime, None)
            html = data.get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            if STATIC_VIEW in html:  # a widget's static view: kept, without the 800 KB bundle
                data["text/html"] = without_bundle(html)
    return nb


def without_bundle(html: str) -> str:
    """A widget's static view without the front end it may carry (docs/_ext/lessons.py puts
    one copy back on each rendered page; a live notebook makes its own)."""
    return CARRIER.sub("", html)


def machine_paths(nb: nbformat.NotebookNode) -> list[str]:
    """Machine paths found in stored outputs (should be none)."""
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            text = json.dumps(output)
            found += [m.group(0) for m in MACHINE_PATH.finditer(text)]
    return found


def execute(nb: nbformat.NotebookNode, *, cwd: Path = NOTEBOOKS,
            timeout: int = 120) -> nbformat.NotebookNode:
    """Run every cell in a fresh kernel started in ``cwd`` (cells tagged
    ``raises-exception`` may raise; any other error stops the run)."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(cwd)}})
    client.execute()
    return nb


def as_pytorch(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of a lesson that runs on real PyTorch: ``import minigrad as torch`` becomes
    ``import torch`` and ``from minigrad.autograd import ...`` ``from torch.autograd import ...``."""
    twin = nbformat.from_dict(json.loads(json.dumps(nb)))
    for cell in twin.cells:
        if cell.cell_type == "code":
            source = re.sub(r"^import minigrad as torch\b", "import torch", cell.source, flags=re.M)
            cell.source = re.sub(r"^from minigrad([. ])", r"from torch\1", source, flags=re.M)
    return twin
