"""The stepper's code view in a real JupyterLab: the Code toggle, the highlighted source of the
backward a minigrad step ran with its values and the engine's lines, PyTorch's formula for a
PyTorch graph, in English and Chinese, light and dark. The content is tested without a
browser in tests/widgets/test_code_view.py; here what only a browser shows: the toggle talks
to Python, the panel stays in its column, the colours can be read.

Screenshots: test-artifacts/browser/code-view-minigrad.png, code-view-torch.png,
code-view-zh.png (light theme) and code-view-minigrad-dark.png.
"""

from __future__ import annotations

import json
import re

import pytest
from labserver import click, notebook_fixtures, offline_file_page
from minigrad_widgets import BackwardStepper, style
from playwright.sync_api import expect

import minigrad as mg

pytestmark = [pytest.mark.browser, pytest.mark.torch]

CELLS = [
    "import json\n\nimport torch as pt\n\nimport minigrad as torch\n"
    "from minigrad_widgets import BackwardStepper",
    "a = torch.tensor([2., 1.], requires_grad=True)\nb = torch.tensor([3.], requires_grad=True)\n"
    "y = a * b\nloss = y.sum()\nmine = BackwardStepper(loss, retain_graph=True)\nmine",
    "ta = pt.tensor([2., 1.], requires_grad=True)\ntb = pt.tensor([[3.], [4.]], "
    "requires_grad=True)\nty = ta * tb\ntloss = ty.sum()\ntheirs = BackwardStepper(tloss)\ntheirs",
    "zh = BackwardStepper(loss, lang='zh', retain_graph=True)\nzh",
    'print(json.dumps({"mine": mine.code, "theirs": theirs.code, "zh": zh.code}))',
]
MINE, THEIRS, ZH, STATE = 1, 2, 3, 4

notebook, page_stays_clean = notebook_fixtures("code_view.ipynb", CELLS, count=3)

# The colour of each kind of token, of the notes, and the code's background, after the CSS.
COLOURS_JS = """(box) => {
  const lines = box.querySelector(".mg-code-lines");
  const out = {background: getComputedStyle(lines).backgroundColor};
  for (const sel of [".mg-tok-kw", ".mg-tok-fn", ".mg-tok-self", ".mg-code-note",
                     ".mg-code-text", ".mg-code-n"]) {
    const el = box.querySelector(sel);
    if (el) out[sel] = getComputedStyle(el).color;
  }
  return out;
}"""


def widget(notebook, cell: int):
    return notebook.page.locator(".jp-Notebook .jp-Cell").nth(cell).locator(".mg-kind-stepper")


def _rgb(css: str) -> str:
    r, g, b = (round(float(v)) for v in re.findall(r"[\d.]+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def _set_theme(page, dark: bool):
    theme = "JupyterLab Dark" if dark else "JupyterLab Light"
    page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', "
                  f"{{theme: '{theme}'}})")
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{str(not dark).lower()}'")
    page.wait_for_timeout(300)


def _assert_in_column(box):
    """The panel keeps its width: only the code lines scroll sideways, inside it."""
    panel = box.locator("xpath=ancestor::section[contains(@class, 'mg-panel')]")
    width, scroll = panel.evaluate("(p) => [p.clientWidth, p.scrollWidth]")
    assert width <= 380 and scroll <= width + 1, (width, scroll)


def _assert_readable(box):
    colours = box.evaluate(COLOURS_JS)
    ground = _rgb(colours.pop("background"))
    for sel, css in colours.items():
        assert style.contrast(_rgb(css), ground) >= 4.5, (sel, css, ground)


def _open_code(w, step="Step", code="Code"):
    """Two steps (SumBackward0, then MulBackward0), then the Code toggle: the code section."""
    for _ in range(2):
        click(w, step)
    click(w, code)
    return w.locator(".mg-section-code")


def _shoot(notebook, w, code, name: str):
    _assert_in_column(code)
    w.scroll_into_view_if_needed()
    notebook.screenshot(name, w.locator(".mg-panel"))


def test_the_code_toggle_shows_the_backward_mul_ran_with_its_values(notebook):
    page = notebook.page
    mine = widget(notebook, MINE)
    expect(mine.locator(".mg-section-code")).to_have_count(0)  # off by default
    code = _open_code(mine)
    expect(code).to_contain_text("MulBackward0.backward")
    # MulBackward0's backward is written from its rule: the formula lines, then the return
    expect(code.locator(".mg-code-grad").first).to_contain_text("grad_a = grad * b")
    expect(code.locator(".mg-code-grad").last).to_contain_text("return")
    expect(code).to_contain_text("gradient [0] → a (torch::autograd::AccumulateGrad): [3., 3.]")
    expect(code).to_contain_text("_execute(node, g, task)")
    expect(code).to_contain_text("in run()")
    assert json.loads(notebook.run_cell(STATE))["mine"] is True  # the toggle reached Python
    _assert_readable(code)
    _shoot(notebook, mine, code, "code-view-minigrad.png")
    click(mine, "Step")  # the view follows the steps: a's AccumulateGrad
    expect(code).to_contain_text("AccumulateGrad.accumulate")
    _set_theme(page, True)
    try:
        click(mine, "Back")
        expect(code).to_contain_text("MulBackward0.backward")
        _assert_readable(code)
        notebook.screenshot("code-view-minigrad-dark.png", mine.locator(".mg-panel"))
    finally:
        _set_theme(page, False)
    click(mine, "Code")
    expect(mine.locator(".mg-section-code")).to_have_count(0)


def test_a_pytorch_graph_shows_the_formula_from_derivatives_yaml(notebook):
    theirs = widget(notebook, THEIRS)
    code = _open_code(theirs)
    expect(code).to_contain_text("derivatives.yaml")
    expect(code).to_contain_text("name: mul.Tensor(Tensor self, Tensor other) -> Tensor")
    expect(code).to_contain_text("self: mul_tensor_backward(grad, other, self.scalar_type())")
    expect(code.locator(".mg-code-grad")).to_have_count(2)
    _shoot(notebook, theirs, code, "code-view-torch.png")


def test_the_chinese_stepper_shows_the_code_view_in_chinese(notebook):
    zh = widget(notebook, ZH)
    code = _open_code(zh, "单步", "代码")
    expect(code).to_contain_text("这一步运行的代码")
    expect(code).to_contain_text("引擎循环此刻执行的行")
    expect(code).to_contain_text("梯度 [0] → a")
    _shoot(notebook, zh, code, "code-view-zh.png")


def test_a_saved_page_shows_the_recorded_code_and_only_then_the_toggle(browser, bundle, tmp_path):
    def saved(code: bool):
        a = mg.tensor([2., 1.], requires_grad=True)
        b = mg.tensor([3.], requires_grad=True)
        return BackwardStepper((a * b).sum(), names={"a": a, "b": b}, code=code).save_html(
            tmp_path / f"code-{code}.html")

    context, page, errors, blocked = offline_file_page(browser)
    try:
        page.goto(saved(True).as_uri())
        w = page.locator(".mg-kind-stepper")
        for _ in range(2):
            click(w, "Step")
        code = w.locator(".mg-section-code")  # no kernel: the record carries every step's code
        expect(code).to_contain_text("MulBackward0.backward")
        click(w, "Code")
        expect(w.locator(".mg-section-code")).to_have_count(0)
        click(w, "Code")
        expect(code).to_contain_text("MulBackward0.backward")
        page.goto(saved(False).as_uri())
        click(w, "Step")  # recorded without code: a toggle would have nothing to show
        expect(w.locator(".mg-panel-title")).to_contain_text("Step 1/")
        expect(w.get_by_role("button", name="Code", exact=True)).to_have_count(0)
    finally:
        context.close()
    assert errors == [] and blocked == []
