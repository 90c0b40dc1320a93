"""Lessons 6 to 9 teach PyTorch's behaviour: their code, run on real PyTorch, prints the same.

The notebook twin test (tests/test_notebooks.py) leaves out lessons that draw with the
widgets; these four do. Here every code cell of their sources that does not use a widget or
matplotlib runs in order, in one namespace per library (solutions in place of exercise stubs),
and what each prints, shows or raises must be the same on minigrad and on PyTorch. That covers
every claim the lessons make in code: the wrong statements of the tutorials they correct, the
error messages, the silently wrong gradient through ``.data``, the training losses.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "notebooks"))
import build  # noqa: E402  (notebooks/build.py: the lesson source parser)

SOURCES = sorted(p for p in (ROOT / "notebooks" / "_source").glob("0[6-9]_*.md"))
SKIP = re.compile(r"BackwardStepper|GraphView|BuildReplay|GradientFlow|MemoryView|stepper|matplotlib")
# IPython magics, the widgets, and the course's check (a stand-in is given)
DROP = re.compile(r"^(%.*|from minigrad_widgets import .*|from course import check)\n", re.M)
# What PyTorch says that minigrad does not: a C++ source path in one warning.
PYTORCH_ONLY = re.compile(r" \(Triggered internally at [^)]*\)")


def _cells(source: Path) -> list[str]:
    """The code a learner runs, solutions included, without the widget and plot cells."""
    cells = [DROP.sub("", b.text + "\n") for b in build.parse(source)
             if b.kind in ("code", "solution")]
    return [c for c in cells if not SKIP.search(c)]


def _as_library(code: str, library: str) -> str:
    if library == "torch":
        code = re.sub(r"^import minigrad as torch\b", "import torch", code, flags=re.M)
        code = re.sub(r"^from minigrad([. ])", r"from torch\1", code, flags=re.M)
    return code


def _run_cell(code: str, namespace: dict) -> str:
    """Run one cell as a notebook would: its output, the value of a final expression, or the
    exception it raised."""
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
                if value is not None:
                    print(repr(value))
        except Exception as error:  # noqa: BLE001 - the lessons show errors on purpose
            print(f"{type(error).__name__}: {error}")
    return out.getvalue()


def _run_lesson(source: Path, library: str) -> list[str]:
    from _course import judge

    namespace = {"check": lambda eid, answer: print(judge(eid, answer, lang="en")[1])}
    outputs = []
    for code in _cells(source):
        text = _run_cell(_as_library(code, library), namespace)
        text = re.sub(r"0x[0-9a-fA-F]+", "0x…", text)
        if library == "torch":
            text = PYTORCH_ONLY.sub("", text)  # (minigrad prints torch.float64 too)
        outputs.append(text)
    return outputs


def test_the_lessons_have_cells_to_compare():
    assert [p.name[:2] for p in SOURCES] == ["06", "07", "08", "09"]
    for source in SOURCES:
        assert len(_cells(source)) >= 8, source.name


@pytest.fixture
def one_thread(torch):
    """PyTorch on one thread: tiny tensors, and the machine is shared (many times faster)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield torch
    torch.set_num_threads(threads)


@pytest.mark.torch
@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_lesson_code_prints_on_pytorch_what_it_prints_on_minigrad(source, one_thread):
    mine, theirs = _run_lesson(source, "minigrad"), _run_lesson(source, "torch")
    for n, (a, b) in enumerate(zip(mine, theirs)):
        assert a == b, f"{source.name}, cell {n}:\n{_cells(source)[n]}"
    assert not [text for text in mine if re.search(r"NameError|ModuleNotFoundError", text)]
    raising = [b for b in build.parse(source)
               if b.kind == "code" and "raises-exception" in b.args and not SKIP.search(b.text)]
    assert sum("Error: " in text for text in mine) >= len(raising)  # the error cells did raise
