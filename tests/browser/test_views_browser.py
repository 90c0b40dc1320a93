"""The three views in JupyterLab (headless chromium): BuildReplay grows the graph node by node,
MemoryView marks the bytes held and then freed, GradientFlow draws its chart and follows a
training loop live; and a saved BuildReplay page steps from disk with no kernel.

Their numbers are tested without a browser (tests/widgets/test_views*.py); these tests check
what is drawn. Screenshots: test-artifacts/browser/views-*.png.
"""

from __future__ import annotations

import pytest
from labserver import ARTIFACTS, cell, click, offline_file_page, open_notebook
from minigrad_widgets import BuildReplay
from playwright.sync_api import expect

import minigrad as mg

pytestmark = pytest.mark.browser

CELLS = [
    "import minigrad as torch\nfrom minigrad import nn, optim\n"
    "from minigrad_widgets import BuildReplay, GradientFlow, MemoryView",
    # the while loop of lesson 6
    "def grow(x):\n    y = x * 2\n    while y.norm() < 1000:\n        y = y * 2\n    return y\n\n"
    "x = torch.tensor([0.5, -1.0, 0.25], requires_grad=True)\n"
    "with torch.autograd.set_detect_anomaly(True):\n    y = grow(x)\nreplay = BuildReplay(y)\n"
    "replay",
    "a = torch.tensor([1., 2., 3.], requires_grad=True)\nloss = (a.exp() * a).sum()\n"
    "memory = MemoryView(loss)\nmemory",
    "torch.manual_seed(0)\nmodel = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))\n"
    "X = torch.tensor([[0.5, -1.], [1., 2.], [0., 1.], [-0.5, 0.25]])\n"
    "labels = torch.tensor([0, 1, 1, 0])\noptimizer = optim.SGD(model.parameters(), lr=0.5)\n"
    "flow = GradientFlow(model)\nflow",
    # run by the tests, not at opening
    "for step in range(30):\n    optimizer.zero_grad()\n"
    "    nn.functional.cross_entropy(model(X), labels).backward()\n"
    "    optimizer.step()\n    flow.record()",
    "loss.backward()\nmemory.refresh()",
]
REPLAY, MEMORY, FLOW, TRAIN, FREE = 1, 2, 3, 4, 5

# the node boxes drawn (not hidden as "not created yet"), by kind
VISIBLE_JS = """widget => Array.from(widget.querySelectorAll(".mg-graph g.node"))
  .filter((g) => getComputedStyle(g).visibility !== "hidden")
  .map((g) => g.getAttribute("class").split(" ").find((c) => /^mg-(leaf|backward|output|none)$/.test(c)))"""


# each note just above a node holding (or having held) saved tensors, centred on it
NOTES_ABOVE_NODES_JS = """widget => {
  const nodes = Array.from(widget.querySelectorAll(".mg-graph g.node.mg-held, .mg-graph g.node.mg-freed"))
    .map((g) => g.getBoundingClientRect());
  return Array.from(widget.querySelectorAll(".mg-node-note")).map((note) => {
    const r = note.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    return nodes.some((n) => Math.abs(cx - (n.left + n.width / 2)) < 4 &&
      n.top - r.bottom >= -2 && n.top - r.bottom < 12);
  });
}"""


@pytest.fixture(scope="module")
def notebook(lab, browser):
    nb = open_notebook(lab, browser, "views.ipynb", CELLS, run_all=False)
    for index in range(FLOW + 1):
        nb.run_cell(index)
    nb.page.wait_for_function("document.querySelectorAll('.mg-graph svg').length >= 2",
                              timeout=60_000)
    yield nb
    nb.close()





def test_replay_grows_the_graph_one_node_per_step(clean):
    widget = cell(clean, REPLAY).locator(".mg-kind-build")
    expect(widget.locator(".mg-counter")).to_have_text("step 0 / 10")
    assert widget.evaluate(VISIBLE_JS) == []  # before the forward pass: nothing
    click(widget, "Step")
    click(widget, "Step")
    expect(widget.locator(".mg-counter")).to_have_text("step 2 / 10")
    expect(widget.locator(".mg-panel-title")).to_have_text("Step 2/10: MulBackward0 is created")
    expect(widget.locator(".mg-panel")).to_contain_text("line 4: y = y * 2")
    shown = widget.evaluate(VISIBLE_JS)
    assert sorted(shown) == ["mg-backward", "mg-backward", "mg-leaf", "mg-none", "mg-none"]
    current = widget.locator(".mg-graph g.node.mg-current")
    expect(current).to_have_count(1)
    clean.screenshot("views-build-step2.png", widget)
    click(widget, "Run")
    expect(widget.locator(".mg-counter")).to_have_text("step 10 / 10")
    shown = widget.evaluate(VISIBLE_JS)
    assert shown.count("mg-backward") == 10 and shown.count("mg-output") == 1
    clean.screenshot("views-build-run.png", widget)
    click(widget, "Reset")
    expect(widget.locator(".mg-counter")).to_have_text("step 0 / 10")


def test_memory_shows_the_bytes_held_then_freed(clean):
    widget = cell(clean, MEMORY).locator(".mg-kind-memory")
    notes = widget.locator(".mg-node-note")
    expect(notes).to_have_count(2)
    assert sorted(notes.all_text_contents()) == ["12 B", "24 B"]
    held = widget.locator(".mg-graph g.node.mg-held")
    expect(held).to_have_count(2)
    width, colour = held.first.locator("polygon, path").first.evaluate(
        "p => [getComputedStyle(p).strokeWidth, getComputedStyle(p).stroke]")
    assert width == "2.5px" and colour == "rgb(163, 71, 0)"
    assert widget.evaluate(NOTES_ABOVE_NODES_JS) == [True, True]
    expect(widget.locator(".mg-panel")).to_contain_text("the graph holds 24 B for backward")
    clean.screenshot("views-memory-held.png", widget)
    clean.run_cell(FREE)
    expect(widget.locator(".mg-graph g.node.mg-freed")).to_have_count(2)
    assert sorted(notes.all_text_contents()) == ["freed (12 B)", "freed (24 B)"]
    dash = widget.locator(".mg-graph g.node.mg-freed polygon, .mg-graph g.node.mg-freed path")\
        .first.evaluate("p => getComputedStyle(p).strokeDasharray")
    assert dash not in ("", "none")
    expect(widget.locator(".mg-panel")).to_contain_text("the graph holds 0 B")
    assert widget.evaluate(NOTES_ABOVE_NODES_JS) == [True, True]
    # the legend names both states, with the outline the nodes have
    widget.locator(".mg-legend summary").click()
    expect(widget.locator(".mg-legend")).to_contain_text("saved tensors freed by backward()")
    swatch = widget.locator(".mg-swatch-freed").evaluate("s => getComputedStyle(s).borderTopStyle")
    held = widget.locator(".mg-swatch-held").evaluate("s => getComputedStyle(s).borderTopColor")
    assert swatch == "dashed" and held == "rgb(163, 71, 0)"  # --mg-memory, as the held outline
    clean.screenshot("views-memory-freed.png", widget)


def test_gradient_flow_draws_live_as_the_loop_records(clean):
    widget = cell(clean, FLOW).locator(".mg-kind-flow")
    expect(widget).to_contain_text("No step recorded yet")
    clean.run_cell(TRAIN)
    charts = widget.locator("figure.mg-flow-chart")
    expect(charts).to_have_count(2)
    expect(charts.first.locator("figcaption")).to_contain_text("30 steps")
    lines = charts.first.locator("path.mg-flow-line")
    expect(lines).to_have_count(4)
    points = lines.evaluate_all("ps => ps.map((p) => (p.getAttribute('d').match(/[ML]/g) || []).length)")
    assert points == [30, 30, 30, 30]
    assert widget.locator(".mg-flow-legend li").all_text_contents()[0].strip() == "0.weight [8, 2]"
    # the lines stay inside the plot area
    box = charts.first.locator("svg").bounding_box()
    for k in range(4):
        line = lines.nth(k).bounding_box()
        assert box["y"] - 1 <= line["y"] and line["y"] + line["height"] <= box["y"] + box["height"] + 1
    clean.screenshot("views-flow.png", widget)
    page = clean.page
    page.evaluate("window.jupyterapp.commands.execute('apputils:change-theme', "
                  "{theme: 'JupyterLab Dark'})")
    try:
        page.wait_for_function("document.body.dataset.jpThemeLight === 'false'")
        page.wait_for_timeout(500)
        clean.screenshot("views-flow-dark.png", widget)
        clean.screenshot("views-memory-dark.png", cell(clean, MEMORY).locator(".mg-kind-memory"))
        clean.screenshot("views-build-dark.png", cell(clean, REPLAY).locator(".mg-kind-build"))
    finally:
        page.evaluate("window.jupyterapp.commands.execute('apputils:change-theme', "
                      "{theme: 'JupyterLab Light'})")


def test_a_saved_replay_page_steps_from_disk_with_the_network_off(browser, bundle, tmp_path):
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * 3
    replay = BuildReplay((y * y).sum(), names={"x": x, "y": y}, lang="zh")
    path = replay.save_html(tmp_path / "replay.html")
    context, page, errors, blocked = offline_file_page(browser)
    try:
        page.goto(path.as_uri())
        widget = page.locator(".mg-kind-build")
        expect(widget.locator(".mg-graph svg g.node")).not_to_have_count(0)
        click(widget, "单步")
        expect(widget.locator(".mg-counter")).to_have_text("第 1 步 / 共 3 步")
        expect(widget.locator(".mg-panel-title")).to_have_text("第 1/3 步：创建了 MulBackward0")
        assert sorted(widget.evaluate(VISIBLE_JS)) == ["mg-backward", "mg-leaf", "mg-none"]
        click(widget, "运行到底")
        expect(widget.locator(".mg-counter")).to_have_text("第 3 步 / 共 3 步")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "views-build-saved-zh.png"))
    finally:
        context.close()
    assert errors == [] and blocked == []


def test_saved_flow_and_memory_pages_draw_with_no_kernel(browser, bundle, tmp_path):
    from minigrad_widgets import GradientFlow, MemoryView

    w = mg.tensor([3., 4.], requires_grad=True)
    flow = GradientFlow({"w": w}, lang="zh")
    for _ in range(5):
        (w * w).sum().backward()
        flow.record()
    x = mg.tensor([1., 2., 3.], requires_grad=True)
    memory = MemoryView((x.exp() * x).sum(), names={"x": x})
    pages = [flow.save_html(tmp_path / "flow.html"), memory.save_html(tmp_path / "memory.html")]
    context, page, errors, blocked = offline_file_page(browser)
    try:
        page.goto(pages[0].as_uri())
        charts = page.locator(".mg-kind-flow figure.mg-flow-chart")
        expect(charts).to_have_count(2)
        expect(charts.first.locator("figcaption")).to_contain_text("共 5 步")
        expect(charts.first.locator("path.mg-flow-line")).to_have_count(1)
        page.goto(pages[1].as_uri())
        notes = page.locator(".mg-kind-memory .mg-node-note")
        expect(notes).to_have_count(2)
        assert page.locator(".mg-kind-memory").evaluate(NOTES_ABOVE_NODES_JS) == [True, True]
        page.screenshot(path=str(ARTIFACTS / "views-memory-saved-page.png"))
    finally:
        context.close()
    assert errors == [] and blocked == []
