"""How the widgets look and where they work, in headless chromium: gradients on the edges, the
current node kept in view on a 300-op chain, the dark theme, draw() with no `dot` program, a
save_html page opened from disk with the network off, and lesson 4 exported by nbconvert.

What is drawn is decided (and tested) in Python (tests/widgets/test_view_drawing.py); these
tests check what only a browser can. Screenshots: test-artifacts/browser/view-*.png.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from labserver import ARTIFACTS, REPO, cell, click, offline_file_page, open_notebook
from minigrad_widgets import BackwardStepper
from playwright.sync_api import expect

import minigrad as mg

pytestmark = pytest.mark.browser

CELLS = [
    "import json, os, shutil\nimport minigrad as torch\n"
    "from minigrad_widgets import BackwardStepper, draw",
    # a fork: y is used twice, x reaches the loss along two paths
    "x = torch.tensor([1., 2.], requires_grad=True)\nw = torch.tensor([3., -1.], "
    "requires_grad=True)\ny = x * w\nloss = (y * y + x).sum()\nstepper = BackwardStepper(loss)\n"
    "stepper",
    "c = torch.tensor(1., requires_grad=True)\nh = c\nfor k in range(300):\n"
    "    h = h * 1.01 if k % 2 else h + 1.0\nchain = BackwardStepper(h, max_nodes=80)\nchain",
    # draw() in a kernel that cannot find Graphviz's dot program
    "os.environ['PATH'] = os.pathsep.join(p for p in os.environ['PATH'].split(os.pathsep)\n"
    "    if not os.path.exists(os.path.join(p, 'dot')))\nassert shutil.which('dot') is None\n"
    "draw(loss)",
    "print(json.dumps({'labels': stepper.edge_labels, 'notes': stepper.node_notes}))",
]
FORK, CHAIN, DRAW, STATE = 1, 2, 3, 4
CDN = "https://cdnjs.cloudflare.com/"  # nbconvert's own template (require.js, MathJax)


@pytest.fixture(scope="module")
def notebook(lab, browser):
    nb = open_notebook(lab, browser, "view.ipynb", CELLS, wait_for=".mg-graph svg", count=3)
    yield nb
    nb.close()





# The current node's box lies inside the scrolled graph area (not just somewhere on the page).
CURRENT_IN_VIEW_JS = """widget => {
  const area = widget.querySelector(".mg-graph");
  const node = area && area.querySelector("g.node.mg-current");
  if (!node) return false;
  const a = area.getBoundingClientRect(), n = node.getBoundingClientRect();
  return n.left >= a.left && n.right <= a.right && n.top >= a.top && n.bottom <= a.bottom;
}"""


def test_gradients_appear_on_the_edges_after_a_step(clean):
    widget = cell(clean, FORK).locator(".mg-kind-stepper")
    for k in (1, 2, 3):
        click(widget, "Step")
        expect(widget.locator(".mg-counter")).to_have_text(re.compile(rf"^step {k} / "))
    state = json.loads(clean.run_cell(STATE))
    labels = widget.locator(".mg-graph .mg-edge-label")
    expect(labels).to_have_count(len(state["labels"]))
    drawn = labels.evaluate_all("els => els.map(e => [e.dataset.edge, e.textContent])")
    assert dict(drawn) == state["labels"] and len(drawn) >= 4
    # the edges a gradient has travelled along are marked
    assert widget.locator(".mg-graph g.edge.mg-done").count() >= 1
    widget.get_by_label("Gradients on edges").uncheck()
    expect(labels).to_have_count(0)
    widget.get_by_label("Gradients on edges").check()
    expect(labels).to_have_count(len(state["labels"]))
    clean.screenshot("view-fork.png", widget)


def test_the_current_node_stays_in_view_on_a_300_op_chain(clean):
    widget = cell(clean, CHAIN).locator(".mg-kind-stepper")
    handle = widget.element_handle()
    for _ in range(3):
        click(widget, "Step")
    expect(widget.locator(".mg-counter")).to_have_text(re.compile(r"^step 3 / 301$"))
    clean.page.wait_for_function(CURRENT_IN_VIEW_JS, arg=handle, timeout=10_000)
    click(widget, "Run")
    expect(widget.locator(".mg-counter")).to_have_text("step 301 / 301")
    clean.page.wait_for_function(CURRENT_IN_VIEW_JS, arg=handle, timeout=10_000)
    expect(widget.locator(".mg-graph g.node.mg-current")).to_contain_text("c")
    clean.screenshot("view-chain.png", widget)


def test_draw_shows_the_graph_without_the_dot_program(clean):
    output = cell(clean, DRAW)
    expect(output.locator(".mg-kind-graph .mg-graph svg g.node")).not_to_have_count(0)
    expect(output.locator(".jp-OutputArea-output[data-mime-type*='stderr']")).to_have_count(0)
    assert "ExecutableNotFound" not in output.inner_text()


def test_the_dark_theme_darkens_the_drawing(clean):
    page = clean.page
    widget = cell(clean, FORK).locator(".mg-kind-stepper")
    leaf = widget.locator(".mg-graph g.node.mg-leaf :is(polygon, path)").first
    light = leaf.evaluate("p => getComputedStyle(p).fill")
    page.evaluate("window.jupyterapp.commands.execute('apputils:change-theme', "
                  "{theme: 'JupyterLab Dark'})")
    try:
        page.wait_for_function("document.body.dataset.jpThemeLight === 'false'")
        page.wait_for_function("([p, before]) => getComputedStyle(p).fill !== before",
                               arg=[leaf.element_handle(), light])
        dark = leaf.evaluate("p => getComputedStyle(p).fill")
        text = widget.locator(".mg-graph g.node text").first.evaluate(
            "t => getComputedStyle(t).fill")
        assert dark != light and _brightness(dark) < _brightness(light)
        assert _brightness(text) > 150  # light text on the dark page
        clean.screenshot("view-dark.png", widget)
    finally:
        page.evaluate("window.jupyterapp.commands.execute('apputils:change-theme', "
                      "{theme: 'JupyterLab Light'})")
        page.wait_for_function("document.body.dataset.jpThemeLight === 'true'")


def _brightness(css: str) -> float:
    r, g, b = (float(v) for v in re.findall(r"[\d.]+", css)[:3])
    return (r + g + b) / 3


def test_a_saved_page_steps_from_disk_with_the_network_off(browser, bundle, tmp_path):
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., -1.], requires_grad=True)
    y = x * w
    stepper = BackwardStepper((y * y + x).sum(), names={"x": x, "w": w, "y": y})
    panels = []
    for _ in range(stepper.total_steps):
        stepper.step()
        panels.append(stepper.panel["title"])
    stepper.reset()
    path = stepper.save_html(tmp_path / "stepper.html")
    context, page, errors, blocked = offline_file_page(browser)
    try:
        page.goto(path.as_uri())
        widget = page.locator(".mg-kind-stepper")
        expect(widget.locator(".mg-graph svg g.node")).not_to_have_count(0)
        total = stepper.total_steps
        click(widget, "Step")
        expect(widget.locator(".mg-counter")).to_have_text(f"step 1 / {total}")
        expect(widget.locator(".mg-panel-title")).to_have_text(panels[0])
        click(widget, "Step")
        click(widget, "Back")
        expect(widget.locator(".mg-counter")).to_have_text(f"step 1 / {total}")
        click(widget, "Run")
        expect(widget.locator(".mg-counter")).to_have_text(f"step {total} / {total}")
        expect(widget.locator(".mg-panel-title")).to_have_text(panels[-1])
        expect(widget.locator(".mg-node-note")).not_to_have_count(0)
        click(widget, "Reset")
        expect(widget.locator(".mg-counter")).to_have_text(f"step 0 / {total}")
        click(widget, "Play")
        expect(widget.locator(".mg-counter")).to_have_text(f"step {total} / {total}",
                                                           timeout=15_000)
        page.screenshot(path=str(_artifact("view-saved-page.png")))
    finally:
        context.close()
    assert errors == [] and blocked == []


def _artifact(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def test_lesson_4_exported_by_nbconvert_holds_the_bundle_once_and_shows_every_graph(
        browser, bundle, tmp_path):
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    # the lesson that steps through backward (lesson 4 of the first course, lesson 3 now)
    lesson = REPO / "notebooks" / "en" / "03_backward_node_by_node.ipynb"
    nb = nbformat.read(lesson, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=False,
                   resources={"metadata": {"path": str(lesson.parent)}}).execute()
    widgets = sum(1 for c in nb.cells for o in c.get("outputs", [])
                  if "data-minigrad-static" in o.get("data", {}).get("text/html", ""))
    body, _ = HTMLExporter().from_notebook_node(nb)
    path = tmp_path / "lesson4.html"
    path.write_text(body, encoding="utf-8")
    print(f"\nstepping lesson exported: {len(body.encode()) / 1e6:.2f} MB, {widgets} widgets")
    assert widgets >= 4 and body.count('id="minigrad-widgets-bundle"') == 1
    assert len(body.encode()) < 1_500_000
    context, page, errors, blocked = offline_file_page(browser)
    try:
        page.goto(path.as_uri())
        expect(page.locator(".mg-graph svg")).to_have_count(widgets, timeout=30_000)
        expect(page.locator(".mg-static-missing")).to_have_count(0)
        page.screenshot(path=str(_artifact("view-exported-lesson4.png")))
    finally:
        context.close()
    assert all(url.startswith(CDN) for url in blocked), blocked  # none of ours
    assert [e for e in errors if "ERR_FAILED" not in e and "INTERNET" not in e] == []
