"""The wheel, installed from the wheelhouse without Node.js, in JupyterLab and Notebook 7.

The fresh environment (conftest.py) has only what ``pip install --no-index --find-links
wheelhouse 'minigrad-autograd[lab]'`` put there, and no Node.js on ``PATH``. Each server is
started from it; chromium (offline: only 127.0.0.1) opens a notebook with ``GraphView`` and
``BackwardStepper``, finds the drawn SVGs, clicks Step and checks that Python saw the step.
Then lesson 1 of the course runs in that environment and prints its stored outputs.
"""

from __future__ import annotations

import json
import re
import shutil
import time

import pytest
from labserver import open_notebook
from pkgenv import REPO, TIMINGS
from playwright.sync_api import expect
from servers import start

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CELLS = [
    "import json, sys\nimport minigrad as torch\nfrom minigrad_widgets import BackwardStepper, "
    "GraphView\nprint(sys.prefix)",
    "x = torch.tensor(2.0, requires_grad=True)\ny = x * x + 3 * x\nGraphView(y)",
    "stepper = BackwardStepper(y)\nstepper",
    "print(json.dumps({'step_index': stepper.step_index, 'x_grad': str(x.grad)}))",
]

# Notebook 7.6's own settings loader throws this on every notebook page of a fresh profile, with
# or without widgets (its stack is in notebook_core.js, not in any widget's code).
NOTEBOOK7_OWN_ERROR = "page error: Cannot read properties of undefined (reading 'schema')"


def test_the_fresh_environment_has_no_node_and_the_wheels_front_end(lab_env):
    assert shutil.which("node", path=lab_env.path) is None
    assert shutil.which("npm", path=lab_env.path) is None
    out = lab_env.run("-c", "import minigrad_widgets.widget as w; print(w.STATIC)").stdout
    assert out.strip().startswith(str(lab_env.root))
    bundles = list(lab_env.root.glob("lib/python3*/site-packages/minigrad_widgets/static/widget.js"))
    assert len(bundles) == 1 and bundles[0].stat().st_size > 300_000


@pytest.mark.parametrize("app", ["lab", "notebook"])
def test_the_widgets_draw_and_step_in_a_server_from_the_wheel(app, lab_env, browser):
    start_time = time.monotonic()
    server = start(lab_env.python, lab_env.path, app=app)
    try:
        notebook = open_notebook(server, browser, f"{app}.ipynb", CELLS,
                                 wait_for=".mg-graph svg", count=2)
        page = notebook.page
        try:
            assert page.locator(".mg-graph svg g.node").count() >= 6
            stepper = page.locator(".jp-Cell").nth(2)  # the BackwardStepper cell
            expect(stepper.locator(".mg-counter")).to_have_text(re.compile(r"step 0 / \d+"))
            stepper.get_by_role("button", name="Step").click()
            expect(stepper.locator(".mg-counter")).to_have_text(re.compile(r"step 1 / \d+"))
            state = json.loads(notebook.run_cell(3))
            assert state["step_index"] == 1
            prefix = notebook.run_cell(0).strip()
            assert prefix == str(lab_env.root)
            notebook.screenshot(f"packaging-{app}.png")
            errors = notebook.offline.take_errors()
            if app == "notebook":  # Notebook 7.6 itself, on any page (seen with print(1) alone)
                errors = [e for e in errors if e != NOTEBOOK7_OWN_ERROR]
            assert errors == []
        finally:
            notebook.close()
    finally:
        server.stop()
    TIMINGS[f"{app} from the wheel: start, draw, step"] = time.monotonic() - start_time


def _lesson_one():
    found = sorted(REPO.glob("notebooks/en/01_*.ipynb")) or sorted(REPO.glob("notebooks/01_*.ipynb"))
    assert found, "no lesson 1 in notebooks/en/ (or notebooks/)"
    return found[0]


_ADDRESS = re.compile(r"0x[0-9a-f]+")


def _texts(notebook: dict) -> list[str]:
    """Each code cell's printed and displayed text (streams joined), object addresses masked."""
    texts = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        text = "".join("".join(o.get("text") or o.get("data", {}).get("text/plain") or "")
                       for o in cell.get("outputs", []))
        texts.append(_ADDRESS.sub("0x?", text))
    return texts


def test_lesson_one_runs_in_the_environment_installed_from_the_wheelhouse(lab_env, tmp_path):
    lesson = _lesson_one()
    # the lesson with what a class copy holds beside it: its folder's course.py (the exercise
    # checker in the lesson's language) and the shared _course/ package one folder up
    folder = tmp_path / lesson.parent.name
    folder.mkdir()
    target = folder / lesson.name
    shutil.copy(lesson, target)
    if (lesson.parent / "course.py").exists():
        shutil.copy(lesson.parent / "course.py", folder / "course.py")
        shutil.copytree(REPO / "notebooks" / "_course", tmp_path / "_course",
                        ignore=shutil.ignore_patterns("__pycache__"))
    lab_env.run("-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                "--ExecutePreprocessor.timeout=120", str(target), cwd=folder)
    stored = json.loads(lesson.read_text(encoding="utf-8"))
    ran = json.loads(target.read_text(encoding="utf-8"))
    assert [o.get("output_type") for c in ran["cells"] for o in c.get("outputs", [])
            if o.get("output_type") == "error"] == [
        "error" for c in stored["cells"] if "raises-exception" in c["metadata"].get("tags", [])]
    assert _texts(ran) == _texts(stored)
