"""Execute the lesson notebooks and store clean outputs: the answer key nbval checks.

    python tests/lessons/notebook_tools.py                 # re-run every lesson in notebooks/
    python tests/lessons/notebook_tools.py notebooks/02_running_backward.ipynb

Run it after changing a lesson (or minigrad), then read the diff. Stored notebooks carry
no widget state (``metadata.widgets``, widget-state and widget-view outputs are dropped; the
widget's deterministic ``text/plain`` stays), no timing metadata and no machine paths.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
WIDGET_MIME = ("application/vnd.jupyter.widget-view+json",
               "application/vnd.jupyter.widget-state+json")
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
    return nb


def machine_paths(nb: nbformat.NotebookNode) -> list[str]:
    """Machine paths found in stored outputs (should be none)."""
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            text = json.dumps(output)
            found += [m.group(0) for m in MACHINE_PATH.finditer(text)]
    return found


def execute(nb: nbformat.NotebookNode, *, timeout: int = 120) -> nbformat.NotebookNode:
    """Run every cell in a fresh kernel started in notebooks/ (cells tagged
    ``raises-exception`` may raise; any other error stops the run)."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
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


def refresh(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    clean(execute(nb))
    paths = machine_paths(nb)
    if paths:
        raise SystemExit(f"{path}: machine paths in outputs: {paths[:3]}")
    nbformat.write(nb, path)


if __name__ == "__main__":
    targets = [Path(p) for p in sys.argv[1:]] or sorted(NOTEBOOKS.glob("*.ipynb"))
    for target in targets:
        refresh(target)
        print(f"executed and cleaned {target}")
