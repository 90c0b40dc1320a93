"""The same widgets on a graph built with real PyTorch 2.13, in the browser.

PyTorch's engine is C++, so the stepper replays a recorded backward (see
minigrad_widgets.BackwardStepper); what a browser must show is the same as for minigrad: the
graph drawn with PyTorch's own node names, and Step/Run moving the highlight and the panel
while Python's ``a.grad`` follows.
"""

from __future__ import annotations

import json

import pytest
from labserver import open_notebook
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CELLS = [
    "import json\n\nimport torch\nfrom minigrad_widgets import BackwardStepper, GraphView",
    "a = torch.tensor([1., 2.], requires_grad=True)\nb = (a * a + a).sum()",
    "GraphView(b)",
    "s = BackwardStepper(b)\ns",
    'print(json.dumps({"step": s.step_index, "total": s.total_steps, "grad": str(a.grad)}))',
]
STATE_CELL = 4


@pytest.fixture(scope="module")
def torch_lesson(lab, browser, torch):  # `torch` skips (saying why) where PyTorch is missing
    notebook = open_notebook(lab, browser, "torch_lesson.ipynb", CELLS,
                             wait_for=".mg-graph svg", count=2)
    yield notebook
    notebook.close()


def state(notebook) -> dict:
    return json.loads(notebook.run_cell(STATE_CELL))


def test_a_pytorch_graph_is_drawn_and_stepped_with_pytorchs_node_names(torch_lesson, torch):
    graph = torch_lesson.page.locator(".mg-kind-graph").first
    labels = set(graph.locator(".mg-graph svg g.node text").all_text_contents())
    assert {"SumBackward0", "AddBackward0", "MulBackward0", "a"} <= labels

    stepper = torch_lesson.page.locator(".mg-kind-stepper")
    total = state(torch_lesson)["total"]
    stepper.get_by_role("button", name="Step", exact=True).click()
    expect(stepper.locator(".mg-counter")).to_have_text(f"step 1 / {total}")
    expect(stepper.locator(".mg-graph g.node.mg-current")).to_contain_text("SumBackward0")
    assert state(torch_lesson)["step"] == 1

    stepper.get_by_role("button", name="Run", exact=True).click()
    expect(stepper.locator(".mg-counter")).to_have_text(f"step {total} / {total}")
    a = torch.tensor([1., 2.], requires_grad=True)
    (a * a + a).sum().backward()
    assert state(torch_lesson)["grad"] == str(a.grad)
    expect(stepper.locator(".mg-panel")).to_contain_text("variable is a ✓")
    torch_lesson.screenshot("torch-stepper-run.png", stepper)
    torch_lesson.assert_clean()
