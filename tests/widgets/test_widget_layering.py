"""The layering of the house: the widgets read the core only through public attributes (and
PyTorch's graphs have the same ones). That the core never imports the widgets is checked once,
in tests/test_import_isolation.py."""

from __future__ import annotations

import ast
import pathlib

WIDGETS = pathlib.Path(__file__).parents[2] / "widgets"
# Private names the widgets may read on other objects: what PyTorch's tensors and nodes
# also have (`_saved_*`, `_version`, a custom Function's node's `_forward_cls`), the weak
# references to a custom Function's inputs that minigrad's nodes keep for check=True
# (`_forward_args`), the standard library's frame access, and a node's creation number
# (`_sequence_nr`: a method of PyTorch's nodes, a number on minigrad's; BuildReplay).
ALLOWED_PRIVATE = {"_version", "_getframe", "_forward_cls", "_forward_args", "_sequence_nr"}


def _private_reads(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            name = node.attr
            own = (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
                   or isinstance(node.value, ast.Call)
                   and getattr(node.value.func, "id", None) == "super")
            if (name.startswith("_") and not name.startswith("__") and not own
                    and not name.startswith("_saved_") and name not in ALLOWED_PRIVATE):
                found.append(f"{path.name}:{node.lineno}: .{name}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("minigrad"):
            parts = node.module.split(".")
            if any(p.startswith("_") for p in parts) or any(a.name.startswith("_")
                                                            for a in node.names):
                found.append(f"{path.name}:{node.lineno}: from {node.module} import ...")
    return found


def test_widgets_read_the_core_only_through_public_attributes():
    found = [hit for path in sorted(WIDGETS.glob("*.py")) for hit in _private_reads(path)]
    assert found == []


def test_the_check_above_catches_a_private_read(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(t):\n    return t._data\n\nfrom minigrad._tensor import Tensor\n")
    assert sorted(_private_reads(bad)) == ["bad.py:2: ._data",
                                           "bad.py:4: from minigrad._tensor import ..."]


def test_widget_files_stay_small():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in WIDGETS.glob("*.py")}
    assert all(n < 400 for n in sizes.values()), sizes
