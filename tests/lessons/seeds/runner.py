"""Run the code blocks of one seed tutorial in this (fresh) interpreter and report, as JSON,
what each block printed.

tests/lessons/test_seeds.py starts this twice per tutorial: once with real PyTorch, once with minigrad
standing in for it (``"engine": "minigrad"``), and compares the two reports. The plan comes on
stdin::

    {"engine": "torch" | "minigrad", "prelude": "import torch",
     "blocks": [{"id": "000.01", "code": "..."}, ...]}

Blocks share one namespace, like the cells of a notebook. Every bare expression statement is
shown the way Jupyter shows it (``IPython.lib.pretty.pretty``), prefixed ``Out:``. A block
that raises is reported (exception type and message) and the next block still runs.

Only the standard library, NumPy and IPython.lib.pretty are imported here, so that with
``"engine": "minigrad"`` real PyTorch is never loaded.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import importlib.abc
import importlib.util
import io
import json
import sys
import warnings

import numpy as np

# What the tutorials import from torch; under minigrad each must resolve to minigrad's module.
ALIASED_MODULES = ("torch", "torch.autograd", "torch.autograd.function", "torch.nn",
                   "torch.nn.functional", "torch.optim")


class TorchIsMinigrad(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Import hook: ``import torch.X`` gives the module ``minigrad.X``.

    So ``import torch``, ``import torch.nn.functional as F`` and
    ``from torch.autograd.function import Function`` in a tutorial all reach minigrad.
    """

    def __init__(self):
        self._specs = {}

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "torch" or fullname.startswith("torch."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        module = importlib.import_module("minigrad" + spec.name[len("torch"):])
        self._specs[spec.name] = module.__spec__  # the import system overwrites it; put it back
        return module

    def exec_module(self, module):
        name = module.__spec__.name
        module.__spec__ = self._specs.pop(name, module.__spec__)


class Fixed:
    """Stands in for ``torch.rand`` / ``torch.randn``: the same float32 values on every run."""

    @staticmethod
    def _shape(shape):
        return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape

    @staticmethod
    def rand(*shape, seed):
        return np.random.default_rng(seed).random(Fixed._shape(shape), dtype=np.float32)

    @staticmethod
    def randn(*shape, seed):
        return np.random.default_rng(seed).standard_normal(Fixed._shape(shape), dtype=np.float32)


def _run_statements(code: str, namespace: dict, name: str, pretty) -> None:
    """Run ``code`` statement by statement, showing each bare expression's value as Jupyter does."""
    for node in ast.parse(code).body:
        if isinstance(node, ast.Expr):
            value = eval(compile(ast.Expression(node.value), name, "eval"), namespace)
            if value is not None:
                print("Out:", pretty(value))
        else:
            exec(compile(ast.Module([node], type_ignores=[]), name, "exec"), namespace)


def run_block(block: dict, namespace: dict, pretty) -> dict:
    out = io.StringIO()
    error = None
    with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _run_statements(block["code"], namespace, f"<seed block {block['id']}>", pretty)
        except Exception as exc:  # reported, then compared with what PyTorch raised
            error = {"type": f"{type(exc).__module__}.{type(exc).__qualname__}",
                     "message": str(exc)}
    return {"id": block["id"], "stdout": out.getvalue(), "error": error,
            "warnings": [f"{w.category.__name__}: {w.message}" for w in caught]}


def resolved_modules() -> dict:
    """Which module each ``torch...`` name gives, and whether real PyTorch got loaded."""
    found = {}
    for name in ALIASED_MODULES:
        try:
            found[name] = importlib.import_module(name).__name__
        except ImportError as exc:
            found[name] = f"ImportError: {exc}"
    found["real torch loaded"] = any(
        getattr(m, "__name__", "").split(".")[0] == "torch" for m in list(sys.modules.values()))
    return found


def main() -> None:
    plan = json.load(sys.stdin)
    if plan["engine"] == "minigrad":
        sys.meta_path.insert(0, TorchIsMinigrad())
    from IPython.lib.pretty import pretty

    seen_ids: list[int] = []

    def recording_id(obj):  # the tutorials print id()s; the test replaces them by their order
        value = builtins.id(obj)
        if value not in seen_ids:
            seen_ids.append(value)
        return value

    namespace = {"__name__": "__main__", "_fixed": Fixed,
                 "__builtins__": {**vars(builtins), "id": recording_id}}
    prelude = run_block({"id": "prelude", "code": plan["prelude"]}, namespace, pretty)
    blocks = [run_block(block, namespace, pretty) for block in plan["blocks"]]
    report = {"prelude": prelude, "blocks": blocks, "ids": seen_ids,
              "modules": resolved_modules() if plan["engine"] == "minigrad" else {}}
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
