"""The lessons in notebooks/{en,zh}/: their stored outputs are the answer key.

``pytest`` (configured in pyproject.toml) runs every lesson with nbval against its stored
outputs, with tests/nbval_sanitize.cfg masking object addresses and ids. This file checks
what nbval cannot: that the check itself can fail (a deliberately broken fixture notebook),
that cleaning stores nothing machine-specific, and that the lessons teach PyTorch's
behaviour: run on real PyTorch, they print what they store. (How the lessons are built from
their sources, and their exercises, are checked in tests/lessons/test_course.py.)
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from notebook_tools import as_pytorch, clean, execute, machine_paths

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LESSONS = sorted((REPO / "notebooks" / "en").glob("[0-9][0-9]_*.ipynb"))
SANITIZE = REPO / "tests" / "nbval_sanitize.cfg"
BROKEN = REPO / "tests" / "nbval_fixtures" / "broken.ipynb"


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def test_nbval_rejects_a_notebook_whose_stored_output_is_wrong(tmp_path):
    """Proves the notebook check can fail; also that the sanitize file masks addresses/ids."""
    shutil.copy(BROKEN, tmp_path / "broken.ipynb")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env",
         f"--nbval-sanitize-with={SANITIZE}", "-p", "no:cacheprovider", "-q", "broken.ipynb"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    report = proc.stdout + proc.stderr
    assert proc.returncode == 1, report
    assert re.search(r"\b1 failed, 3 passed\b", report), report
    assert "broken.ipynb::Cell 1" in report and "tensor([2., 5.])" in report, report


def test_sanitize_file_masks_addresses_and_ids():
    text = SANITIZE.read_text()
    patterns = re.findall(r"^regex: (.*)$", text, re.M)
    samples = {"<AddBackward0 object at 0x7f5570054850>": "0xADDRESS",
               "x的id： 140346490174784": "ID"}
    for sample, mask in samples.items():
        masked = sample
        for pattern, replace in zip(patterns, re.findall(r"^replace: (.*)$", text, re.M)):
            masked = re.sub(pattern, replace, masked)
        assert mask in masked and masked != sample


def test_cleaning_drops_widget_state_but_keeps_the_text_form():
    nb = nbformat.v4.new_notebook(metadata={"widgets": {"state": {"big": "blob"}}})
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "5f3c"},
            "text/plain": "BackwardStepper: step 0 of 3"}
    nb.cells = [nbformat.v4.new_code_cell("stepper", outputs=[
        nbformat.v4.new_output("display_data", data=view)])]
    nb.cells[0].metadata["execution"] = {"iopub.status.busy": "2024-01-01T00:00:00Z"}
    clean(nb)
    assert "widgets" not in nb.metadata and "execution" not in nb.cells[0].metadata
    assert nb.cells[0].outputs[0].data == {"text/plain": "BackwardStepper: step 0 of 3"}


def test_machine_paths_in_outputs_are_found():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1/0", outputs=[nbformat.v4.new_output(
        "stream", name="stderr", text="File /home/ann/minigrad/x.py, line 3\n")])]
    assert machine_paths(nb) == ["/home/ann/minigrad/x.py"]


def _comparable(nb, *, from_torch: bool) -> list[list[str]]:
    """Each code cell's outputs as text, addresses masked."""
    cells = []
    for cell in _code_cells(nb):
        texts, last_stream = [], None
        for o in cell.outputs:
            if o.output_type == "stream" and o.name == last_stream:
                texts[-1] += o.text  # one print can arrive in two messages on a busy machine
            elif o.output_type == "stream":
                texts.append(f"{o.name}: {o.text}")
            elif o.output_type == "error":
                texts.append(f"error: {o.ename}: {o.evalue}")
            else:
                texts.append(f"{o.output_type}: {o.data.get('text/plain', '')}")
            last_stream = o.name if o.output_type == "stream" else None
        text = re.sub(r"0x[0-9a-fA-F]+", "0x…", "\n".join(texts))
        cells.append(text)
    return cells


PYTORCH_LESSONS = [p for p in LESSONS if "minigrad_widgets" not in p.read_text()]


@pytest.mark.torch
@pytest.mark.parametrize("path", PYTORCH_LESSONS, ids=[p.stem for p in PYTORCH_LESSONS])
def test_lesson_prints_on_pytorch_what_it_stores(path, torch):
    """Change ``import minigrad as torch`` to ``import torch``: the stored outputs still hold.
    (Lessons drawing with the widgets are checked against PyTorch by the widgets' own tests.)"""
    stored = _read(path)
    twin = execute(as_pytorch(stored), cwd=path.parent)
    assert json.dumps(_comparable(twin, from_torch=True), ensure_ascii=False, indent=1) == \
        json.dumps(_comparable(stored, from_torch=False), ensure_ascii=False, indent=1)
