"""GraphView and BackwardStepper in a real JupyterLab, driven by headless chromium.

A lesson-like notebook builds ``y = x * x + 3 * x`` with minigrad and shows both widgets.
The tests click the stepper's buttons and check three things only a browser can: the graph is
really drawn (an SVG whose <g> ids are the DOT ids), the node Python calls current is the one
highlighted, and Python sees the same step (a cell prints the stepper's state and ``x.grad``).
The step logic itself is tested without a browser in tests/widgets/.

Screenshots: test-artifacts/browser/*.png (the README's docs/img/stepper.png is taken by
tests/browser/readme_screenshot.py).
"""

from __future__ import annotations

import json
import re

import pytest
from labserver import notebook_fixtures
from playwright.sync_api import expect

import minigrad

pytestmark = pytest.mark.browser

GRAPH_CODE = "x = torch.tensor(2.0, requires_grad=True)\ny = x * x + 3 * x"
BIG_GRAPH_CODE = """\
h = torch.randn(3, requires_grad=True)
for layer in range(40):  # 40 x (w, b, MulBackward0, AddBackward0, TanhBackward0)
    w = torch.randn(3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    h = (h * w + b).tanh()
big = GraphView(h.sum(), max_nodes=300)
big"""
STATE_CODE = """\
print(json.dumps({"step_index": stepper.step_index, "total_steps": stepper.total_steps,
                  "playing": stepper.playing, "speed": stepper.speed,
                  "node_states": stepper.node_states, "panel": stepper.panel,
                  "x_grad": str(x.grad), "x_id": str(id(x))}))"""
CELLS = [
    "#md\n# Watching backward() one node at a time\n\nWhat you will do: build a small graph, "
    "draw it, and step through `backward()`.",
    "import json\n\nimport minigrad as torch\nfrom minigrad_widgets import BackwardStepper, "
    "GraphView",
    GRAPH_CODE,
    "GraphView(y)",
    "stepper = BackwardStepper(y)\nstepper",
    STATE_CODE,
    BIG_GRAPH_CODE,
]
STATE_CELL, BIG_CELL = 5, 6


lesson, page_stays_clean = notebook_fixtures("lesson.ipynb", CELLS, count=3, fixture="lesson")


@pytest.fixture
def stepper(lesson):
    """The stepper's output, back at step 0."""
    widget = lesson.page.locator(".mg-kind-stepper")
    reset = widget.get_by_role("button", name="Reset", exact=True)
    if reset.is_enabled():
        reset.click()
    expect(widget.locator(".mg-counter")).to_have_text(re.compile(r"^step 0 / \d+$"))
    return widget


def python_state(lesson) -> dict:
    """What the kernel says: the stepper's traits, x.grad and id(x)."""
    output = lesson.run_cell(STATE_CELL)
    try:
        return json.loads(output)
    except json.JSONDecodeError:
        pytest.fail(f"the state cell printed no JSON:\n{output}")


def click(widget, name: str) -> None:
    widget.get_by_role("button", name=name, exact=True).click()


def expect_step(widget, index: int, total: int) -> None:
    expect(widget.locator(".mg-counter")).to_have_text(f"step {index} / {total}")


def drawn_states(widget) -> dict:
    """id -> state class of every node and edge <g> in the widget's SVG."""
    return widget.locator(".mg-graph svg").evaluate("""svg => Object.fromEntries(
        [...svg.querySelectorAll("g.node[id], g.edge[id]")].map(g => [g.id,
          ["pending", "current", "active", "done"].find(s => g.classList.contains("mg-" + s))
          ?? null]))""")


def expected_grad() -> str:
    """x.grad after a plain backward(), computed here by minigrad itself."""
    scope = {"torch": minigrad}
    exec(GRAPH_CODE, scope)
    scope["y"].backward()
    return str(scope["x"].grad)


def test_both_widgets_draw_the_graph_as_svg_with_the_dot_ids(lesson):
    graph = lesson.page.locator(".mg-kind-graph").first
    stepper = lesson.page.locator(".mg-kind-stepper")
    state = python_state(lesson)
    for widget in (graph, stepper):
        svg = widget.locator(".mg-graph svg")
        expect(svg).to_have_count(1)
        ids = set(drawn_states(widget))
        assert set(state["node_states"]) <= ids
        labels = svg.locator("g.node text").all_text_contents()
        assert {"AddBackward0", "MulBackward0 #1", "MulBackward0 #2", "x"} <= set(labels)
    expect(graph.locator(".mg-toolbar")).to_be_hidden()
    expect(stepper.get_by_role("button", name="Step", exact=True)).to_be_visible()
    lesson.screenshot("lesson.png")


def test_step_highlights_the_node_python_calls_current(lesson, stepper):
    total = python_state(lesson)["total_steps"]
    click(stepper, "Step")
    expect_step(stepper, 1, total)
    state = python_state(lesson)
    assert state["step_index"] == 1
    current = [i for i, s in state["node_states"].items() if s == "current"]
    assert len(current) == 1
    highlighted = stepper.locator(".mg-graph g.node.mg-current")
    expect(highlighted).to_have_count(1)
    expect(highlighted).to_have_attribute("id", current[0])
    expect(highlighted).to_contain_text("AddBackward0")  # backward() starts at y.grad_fn
    drawn = drawn_states(stepper)
    assert {i: drawn[i] for i in state["node_states"]} == state["node_states"]
    expect(stepper.locator(".mg-panel-title")).to_have_text(state["panel"]["title"])
    click(stepper, "Step")
    expect_step(stepper, 2, total)
    lesson.screenshot("stepper-step2.png", stepper)


def test_stepping_restyles_the_drawing_without_laying_it_out_again(lesson, stepper):
    svg = stepper.locator(".mg-graph svg")
    svg.evaluate("svg => { svg.dataset.before = 'step'; }")
    box = stepper.locator(".mg-graph g.node").last.bounding_box()
    click(stepper, "Step")
    expect(stepper.locator(".mg-graph g.node.mg-current")).to_have_count(1)
    assert svg.evaluate("svg => svg.dataset.before") == "step"  # the same <svg> element
    assert stepper.locator(".mg-graph g.node").last.bounding_box() == box


def test_back_undoes_the_step_in_python_too(lesson, stepper):
    total = python_state(lesson)["total_steps"]
    for _ in range(total):
        click(stepper, "Step")
    expect_step(stepper, total, total)
    assert python_state(lesson)["x_grad"] == expected_grad()
    click(stepper, "Back")
    expect_step(stepper, total - 1, total)
    state = python_state(lesson)
    assert (state["step_index"], state["x_grad"]) == (total - 1, "None")
    drawn = drawn_states(stepper)
    assert {i: drawn[i] for i in state["node_states"]} == state["node_states"]


def test_run_finishes_backward_and_the_panel_shows_the_accumulation(lesson, stepper):
    total = python_state(lesson)["total_steps"]
    click(stepper, "Run")
    expect_step(stepper, total, total)
    state = python_state(lesson)
    assert state["x_grad"] == expected_grad()
    acc = state["panel"]["accumulate"]
    assert acc["variable_id"] == state["x_id"]
    panel = stepper.locator(".mg-panel")
    expect(panel).to_contain_text(
        f"x.grad: {acc['grad_before']} + {acc['incoming']} = {acc['grad_after']}")
    expect(panel).to_contain_text("variable is x ✓")
    expect(panel.locator(".mg-accumulate-identity")).to_have_attribute(
        "title", f"id {state['x_id']} and id {state['x_id']}")
    expect(stepper.get_by_role("button", name="Step", exact=True)).to_be_disabled()
    lesson.screenshot("stepper-run.png", stepper)


def test_play_steps_to_the_end_at_the_chosen_speed(lesson, stepper):
    total = python_state(lesson)["total_steps"]
    stepper.get_by_label("Speed").fill("4")
    assert python_state(lesson)["speed"] == 4.0
    click(stepper, "Play")
    expect(stepper.get_by_role("button", name="Pause", exact=True)).to_be_visible()
    expect(stepper.get_by_role("button", name="Play", exact=True)).to_be_visible(timeout=20_000)
    expect_step(stepper, total, total)
    state = python_state(lesson)
    assert (state["step_index"], state["playing"]) == (total, False)
    assert state["x_grad"] == expected_grad()


def test_a_200_node_graph_is_drawn_soon_after_running_its_cell(lesson):
    milliseconds = lesson.time_to_svg(BIG_CELL)
    print(f"\n200-node graph: {milliseconds:.0f} ms from run to SVG (target < 1000 ms)")
    big = lesson.page.locator(".jp-Cell").nth(BIG_CELL).locator(".mg-graph svg")
    expect(big.locator("g.node")).to_have_count(203)  # 40 x 5, x, SumBackward0, output
    lesson.screenshot("big-graph.png", lesson.page.locator(".jp-Cell").nth(BIG_CELL))


def test_the_page_cannot_reach_another_machine(lesson):
    """The guard the other tests rely on: a request for another host is stopped and reported."""
    with lesson.page.expect_console_message(lambda m: "ERR_FAILED" in m.text):
        lesson.page.evaluate("fetch('http://example.com/minigrad-probe').catch(() => null)")
    problems = lesson.offline.take_errors()
    assert "blocked request to http://example.com/minigrad-probe" in problems
    assert any("ERR_FAILED" in problem for problem in problems)
