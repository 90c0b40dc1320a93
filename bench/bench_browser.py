"""Time from running a cell to the first SVG of a 200-node graph, in JupyterLab (not a test).

    python bench/bench_browser.py

Starts the browser tests' JupyterLab and headless chromium (tests/browser/labserver.py) and
runs ``GraphView`` of a 203-node graph (40 layers of ``tanh(h * w + b)``):

* cold: the first widget on a fresh page, so the time includes loading the front-end module
  and compiling Graphviz's WebAssembly;
* warm: the same cell run again (median of several runs): kernel, comm, layout and drawing.

The target is under 1 s. Needs Debian's chromium (``make browser-deps``) and the front-end
bundle (``make frontend``).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from labserver import (  # noqa: E402  (after the path set-up above)
    BUNDLE,
    chromium_path,
    launch_chromium,
    open_notebook,
    start_lab,
)

TARGET_MS = 1000
WARM_RUNS = 5
CELLS = [
    "import minigrad as torch\nfrom minigrad_widgets import GraphView\n\n"
    "torch.manual_seed(0)\n"
    "h = torch.randn(3, requires_grad=True)\n"
    "for layer in range(40):\n"
    "    w = torch.randn(3, requires_grad=True)\n"
    "    b = torch.randn(3, requires_grad=True)\n"
    "    h = (h * w + b).tanh()\n"
    "loss = h.sum()",
    "GraphView(loss, max_nodes=300)",
]


def measure() -> tuple[float, list[float], int]:
    """(cold ms, warm ms list, nodes drawn)."""
    from playwright.sync_api import sync_playwright

    lab = start_lab()
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, chromium_path())
            notebook = open_notebook(lab, browser, "bench.ipynb", CELLS, run_all=False)
            notebook.run_cell(0)  # imports and the graph: kernel warm-up, not timed
            cold = notebook.time_to_svg(1)
            warm = [notebook.time_to_svg(1) for _ in range(WARM_RUNS)]
            nodes = notebook.page.locator(".mg-graph svg g.node").count()
            problems = notebook.offline.take_errors()
            browser.close()
    finally:
        lab.stop()
    if problems:
        raise RuntimeError("the page logged errors:\n" + "\n".join(problems))
    return cold, warm, nodes


def main() -> None:
    if chromium_path() is None:
        sys.exit("needs Debian's chromium: make browser-deps (apt-get install chromium)")
    if not BUNDLE.is_file():
        sys.exit("needs the front-end bundle: make frontend")
    cold, warm, nodes = measure()
    print(f"GraphView of a {nodes}-node graph, from running the cell to the first SVG "
          f"(target < {TARGET_MS} ms):")
    rows = [("cold (first widget on the page)", cold),
            (f"warm (median of {len(warm)} runs)", statistics.median(warm))]
    for label, ms in rows:
        print(f"  {label:<34}{ms:6.0f} ms")


if __name__ == "__main__":
    main()
