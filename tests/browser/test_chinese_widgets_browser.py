"""A Chinese learner's widgets in JupyterLab: after ``set_language("zh")`` everything the front end
shows (buttons, legend, zoom titles, the drawing's words and its accessible name) is Chinese.

What the strings are is decided in Python (tests/widgets/test_every_widget_speaks_chinese.py);
this checks that the front end shows them and has no English of its own. Screenshot:
test-artifacts/browser/chinese-stepper.png.
"""

from __future__ import annotations

import re

import pytest
from helpers import english_words
from labserver import open_notebook

pytestmark = pytest.mark.browser

CELLS = [
    "import minigrad as torch\nfrom minigrad_widgets import BackwardStepper, GraphView, "
    "set_language\nset_language('zh')",
    "x = torch.tensor([1., 2.], requires_grad=True)\nw = torch.tensor([3., -1.], "
    "requires_grad=True)\nloss = (x * w).sum()\nGraphView(loss * 1.0, show_saved=True)",
    "stepper = BackwardStepper(loss)\nstepper.step()\nstepper",
]


@pytest.fixture(scope="module")
def notebook(lab, browser):
    nb = open_notebook(lab, browser, "chinese.ipynb", CELLS, wait_for=".mg-graph svg", count=2)
    yield nb
    nb.close()


def _shown(widget) -> str:
    """The widget's visible text, its titles and the drawing's accessible name."""
    return widget.evaluate("""el => [el.innerText,
        ...[...el.querySelectorAll('[title], [aria-label]')].map(n =>
            (n.getAttribute('title') || '') + ' ' + (n.getAttribute('aria-label') || ''))
      ].join('\\n')""")


def test_the_widgets_show_only_chinese_words(notebook):
    page = notebook.page
    for index, kind in ((1, "graph"), (2, "stepper")):
        widget = page.locator(".jp-Cell").nth(index).locator(f".mg-kind-{kind}")
        text = _shown(widget)
        assert english_words(re.sub(r"\bn\d+\b", "", text)) == set(), text
        assert "个节点" in widget.locator(".mg-graph svg").get_attribute("aria-label")
    stepper = page.locator(".jp-Cell").nth(2).locator(".mg-kind-stepper")
    notebook.screenshot("chinese-stepper.png", stepper)
    for label in ("重置", "后退", "单步", "运行到底", "播放"):
        assert stepper.get_by_role("button", name=label, exact=True).count() == 1, label
    notebook.assert_clean()
