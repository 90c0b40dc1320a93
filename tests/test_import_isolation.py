"""``import minigrad`` loads NumPy and the standard library only: no Jupyter, no widgets."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("IPython", "ipykernel", "ipywidgets", "anywidget", "graphviz", "traitlets",
             "jupyter", "jupyter_client", "jupyterlab", "notebook", "matplotlib", "torch",
             "minigrad_widgets")


def loaded_after(code: str) -> set:
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    return set(json.loads(out))


def offending(modules: set) -> list:
    return sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)


def test_import_minigrad_loads_no_notebook_or_widget_module():
    modules = loaded_after("import minigrad")
    assert "minigrad" in modules and "numpy" in modules
    assert offending(modules) == []


def test_using_autograd_loads_no_notebook_or_widget_module():
    modules = loaded_after(
        "import minigrad as torch\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "list(torch.autograd.engine.steps((x * x).sum()))\n"
        "torch.autograd.gradcheck(lambda t: t * t, torch.ones(2, dtype=torch.float64, "
        "requires_grad=True))\n"
        "repr(x); import minigrad.nn, minigrad.optim")
    assert offending(modules) == []


def test_the_check_itself_sees_a_forbidden_module():
    assert offending(loaded_after("import json, email")) == []
    assert offending({"traitlets.config", "numpy"}) == ["traitlets.config"]
