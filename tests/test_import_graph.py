"""The package's import graph, read from the source: acyclic, with no import workarounds.

An edge ``a -> b`` is an import of ``b`` at the top level of module ``a`` (imports inside a
function run later and are not part of loading the package).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import minigrad

PACKAGE = Path(minigrad.__file__).parent


def _module_name(path: Path) -> str:
    parts = ("minigrad",) + path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".")
    base = base if is_package else base[:-1]
    if level > 1:
        base = base[:-(level - 1)]
    return ".".join(base + ([name] if name else []))


def imports_of(module: str) -> set:
    """The package modules that ``module`` imports at its top level."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    found = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            target = (_resolve(module, path.name == "__init__.py", node.level, node.module)
                      if node.level else node.module)
            for alias in node.names:  # `from . import x` imports the submodule x
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in MODULES else target)
    return {m for m in found if m in MODULES and m != module}


def _cycle(graph: dict) -> list | None:
    """One cycle of ``graph`` (iterative depth-first search), or None."""
    state: dict = {}
    for start in sorted(graph):
        if start in state:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        state[start] = "open"
        while stack:
            node, children = stack[-1]
            for child in children:
                if state.get(child) == "open":
                    return path[path.index(child):] + [child]
                if child not in state:
                    state[child] = "open"
                    stack.append((child, iter(sorted(graph[child]))))
                    path.append(child)
                    break
            else:
                stack.pop()
                path.pop()
                state[node] = "done"
    return None


def test_the_package_import_graph_is_acyclic():
    graph = {m: imports_of(m) for m in MODULES}
    assert _cycle(graph) is None, f"import cycle: {' -> '.join(_cycle(graph))}"


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_workarounds_remain():
    pattern = re.compile(r"^\s*Tensor = _tensor\.Tensor|# noqa: E402|sys\.modules\.setdefault",
                         re.MULTILINE)
    found = sorted(name for name, path in MODULES.items() if pattern.search(path.read_text()))
    assert found == []
