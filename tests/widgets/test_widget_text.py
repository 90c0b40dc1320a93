"""Text forms: what nbval and a terminal see is deterministic and useful."""

from __future__ import annotations

import re
import subprocess
import sys

from helpers import chain
from minigrad_widgets import BackwardStepper, GraphView

import minigrad as mg

SCRIPT = """
import minigrad as torch
from minigrad_widgets import BackwardStepper, GraphView
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor(3., requires_grad=True)
y = x * w
loss = (y * y).sum() + w
print(repr(GraphView(loss, show_saved=True)))
stepper = BackwardStepper(loss)
print(repr(stepper))
for _ in range(5):
    stepper.step()
    print(repr(stepper))
data, _ = stepper._repr_mimebundle_()
print(data["text/plain"] == repr(stepper), sorted(data))
"""


def test_text_forms_are_the_same_in_two_processes():
    runs = [subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1]
    assert not re.search(r"0x[0-9a-f]{6,}|\d{9,}", runs[0])  # no addresses, no id()s
    assert "True ['application/vnd.jupyter.widget-view+json', 'text/html', 'text/plain']" \
        in runs[0]


def test_graph_view_text_is_a_tree_with_names_shapes_and_values():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * 3.0
    view = GraphView((y * y).sum(), names={"x": x, "y": y})
    assert repr(view) == "\n".join([
        "GraphView: 6 nodes",
        "output [] = 45.  [n0]",
        "└── SumBackward0  [n1]",
        "    └── MulBackward0 #2  [n2]",
        "        ├── MulBackward0 (y.grad_fn)  [n3]",
        "        │   ├── x (leaf) [2] = [1., 2.]  [n4]",
        "        │   └── None  [n5]",
        "        └── MulBackward0 (y.grad_fn)  [n3]  (see above)",
    ])


def test_stepper_text_lists_the_steps_and_the_panel():
    x = mg.tensor(2., requires_grad=True)
    stepper = BackwardStepper(x * x, names={"x": x})
    stepper.run()
    assert repr(stepper) == "\n".join([
        "BackwardStepper: step 2 of 2",
        "    1 done     MulBackward0  [n1]",
        ">   2 current  x (torch::autograd::AccumulateGrad)  [n2]",
        "Step 2/2: torch::autograd::AccumulateGrad",
        "  grad in: 4.",
        "  x.grad before: None",
        "  x.grad after:  4.",
        "  gradient accumulation: x.grad adds what arrives to what it holds, so it adds up "
        "across backward() calls",
        "  x.grad: None + 4. = 4.",
        "  variable is x ✓",
        "  Gradients that arrived:",
        "    2.  ← from MulBackward0, edge 0",
        "    2.  ← from MulBackward0, edge 1",
        "    summed where the 2 paths meet (before this node runs) = 4.",
    ])


def test_mimebundle_has_the_widget_view_and_the_full_text():
    _, y = chain(30, start=2.0, factor=2.0)
    view = GraphView(y)
    data, _ = view._repr_mimebundle_()
    assert data["text/plain"] == repr(view) and len(data["text/plain"]) > 110
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == view.model_id


def test_graph_view_refresh_and_update_redraw():
    x = mg.tensor(2., requires_grad=True)
    state = {"out": x * x}
    view = GraphView(follow=lambda: state["out"], names={"x": x})
    first = view.dot
    state["out"] = state["out"] + x
    view.refresh()
    assert view.dot != first and "AddBackward0" in view.dot
    view.update(x * 3.0)
    assert "AddBackward0" not in view.dot and view.kind == "graph"


def test_stepper_text_of_a_long_run_shows_a_window_of_steps():
    _, y = chain(60)
    stepper = BackwardStepper(y)
    for _ in range(30):
        stepper.step()
    lines = repr(stepper).splitlines()
    assert lines[0] == "BackwardStepper: step 30 of 61"
    assert lines[1] == "   … 17 earlier steps" and any(line.startswith(">  30 current")
                                                       for line in lines)
    assert "   … 19 more steps" in lines
