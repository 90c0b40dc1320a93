"""Every file, function and class the documentation names (in `code` spans) exists.

The docs explain the code by naming it (``GraphTask.send()`` in ``minigrad/autograd/
schedule.py``); when code moves, this test names the page to update. In the table of
pytorch-engine.md only the first column is minigrad's; the others are PyTorch's C++ names.
"""

from __future__ import annotations

import ast
import keyword
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# coverage.md is generated (tests/fidelity/test_coverage.py) and lists PyTorch's names,
# present in minigrad or not, so it is not checked here.
DOCS = sorted(p for p in (REPO / "docs").glob("*.md") if p.name != "coverage.md") + [
    REPO / "README.md"]

# Words in code spans that are not names in this repository: Python keywords, shell commands,
# package names, names from PyTorch (and torchviz) where the prose compares, a type name as
# printed, and classes a lesson defines.
NOT_NAMES = set(keyword.kwlist) | {
    "torch", "make", "lab", "test", "docs", "lint", "python", "pytest", "pip", "npm", "bench",
    "minigrad_widgets", "minigrad", "ReadyQueue", "compute_dependencies", "make_dot",
    "FloatTensor", "TorchIsMinigrad", "MulConstant", "MultiplyAdd",
    "install", "dist", "wheelhouse", "student", "lessons", "fuzz", "generated",  # pip, make
    "NN", "J", "n3", "grad_a",  # placeholders, symbols of a formula, a node id in a drawing
    "DiagonalBackward0_copy",  # (a node name PyTorch gives: no Python name)
    "validate_outputs"}  # (PyTorch's engine function the reading path compares with)


def _defined_names() -> tuple[set, set]:
    """Every name the sources define or use (functions, classes, attributes) and file names."""
    names, files = set(), set()
    sources = [REPO / "hatch_build.py", REPO / "docs" / "conf.py"]
    for base in ("minigrad", "widgets", "bench", "tests", "notebooks"):
        sources += (REPO / base).rglob("*.py")
    for path in sources:
        if path.exists():
            files.add(path.name)
            names.add(path.stem)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    names.add(node.name)
                elif isinstance(node, ast.Attribute):
                    names.add(node.attr)
                elif isinstance(node, ast.Name):
                    names.add(node.id)
                elif isinstance(node, ast.alias):
                    names.add((node.asname or node.name).split(".")[-1])
    return names, files


NAMES, FILES = _defined_names()


def unknown_names(text: str, minigrad_column_only: bool = False) -> list:
    """The code names in ``text`` (Markdown) that the repository does not have."""
    found = []
    for line in text.splitlines():
        if minigrad_column_only and line.startswith("|"):
            line = line.split("|")[1]
        for span in re.findall(r"`([^`]+)`", line):
            if "::" in span or span.startswith(("torch/", "c10/", "tools/")):
                continue  # a PyTorch path or C++ name
            for part in re.split(r"[\s,()=\[\]<>:'\"]+", span):
                if re.fullmatch(r"[\w./-]+\.(py|pyi|md|toml|cfg)", part):
                    if not ((REPO / part).exists() or part.split("/")[-1] in FILES
                            or (REPO / "docs" / part).exists()):
                        found.append(part)
                elif re.fullmatch(r"[A-Za-z_][\w.]*", part):
                    last = part.split(".")[-1]
                    if last and last not in NAMES and not {part, last} & NOT_NAMES:
                        found.append(part)
    return found


def test_every_name_in_the_docs_exists():
    missing = {page.name: unknown_names(page.read_text(encoding="utf-8"),
                                        page.name == "pytorch-engine.md")
               for page in DOCS}
    assert {page: names for page, names in missing.items() if names} == {}


def test_the_check_finds_a_name_that_is_gone():
    text = ("The loop is `run()` in `minigrad/autograd/engine.py`; it calls `_run_leaf_inline()`"
            " from `minigrad/autograd/old_engine.py`.\n| `GraphTask` | `Engine::execute` |")
    assert unknown_names(text, True) == ["_run_leaf_inline", "minigrad/autograd/old_engine.py"]
