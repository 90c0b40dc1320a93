"""Takes the README's screenshot, docs/img/stepper.png (run by hand, not a test):

    .venv/bin/python tests/browser/readme_screenshot.py

Lesson 4's model in a real JupyterLab: the stepper at step 2, where the two gradients that
y * y sent meet at y's AddBackward0 (the chain-rule panel lists both and their sum), with the
gradients on the edges.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from labserver import REPO, launch_chromium, open_notebook, start_lab  # noqa: E402

CELLS = [
    "import minigrad as torch\nfrom minigrad_widgets import BackwardStepper",
    "x = torch.tensor([1., 2.], requires_grad=True)\n"
    "w = torch.tensor([0.5, -1.0], requires_grad=True)\n"
    "b = torch.tensor(0.25, requires_grad=True)\n"
    "y = (w * x).sum() + b\nloss = y * y\n"
    "stepper = BackwardStepper(loss)\nstepper",
]


def main(out: Path = REPO / "docs" / "img" / "stepper.png") -> None:
    from playwright.sync_api import expect, sync_playwright

    lab = start_lab()
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, "/usr/bin/chromium")
            notebook = open_notebook(lab, browser, "readme.ipynb", CELLS,
                                     wait_for=".mg-graph svg")
            widget = notebook.page.locator(".mg-kind-stepper")
            for k in (1, 2):
                widget.get_by_role("button", name="Step", exact=True).click()
                expect(widget.locator(".mg-counter")).to_have_text(f"step {k} / 7")
            expect(widget.locator(".mg-edge-label")).to_have_count(5)
            notebook.page.wait_for_timeout(500)
            widget.screenshot(path=str(out))
            browser.close()
    finally:
        lab.stop()
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
