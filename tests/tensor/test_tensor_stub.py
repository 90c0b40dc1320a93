"""``Tensor`` as editors and type checkers see it: the generated ``minigrad/_tensor.pyi``.

The ops attach themselves to ``Tensor`` at import (``@method`` in ``minigrad/_ops/``); the stub
lists them all, and must match the registry. A small typed example is checked with mypy.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from minigrad import _stubgen

REPO = Path(__file__).resolve().parents[2]

TYPED_EXAMPLE = '''
import minigrad as torch
from minigrad import Tensor

x: Tensor = torch.ones(3, requires_grad=True)
y: Tensor = x * x
y.sum().backward()
g: Tensor | None = x.grad
z: Tensor = (x @ x) + 2 * x - x / 2
x.exp().relu().mean().backward()
'''


def test_the_tensor_stub_matches_the_registered_ops():
    assert _stubgen.STUB.read_text() == _stubgen.stub_text(), (
        "minigrad/_tensor.pyi is out of date: run `make generated` "
        "(or `python -m minigrad._stubgen`)")


def _mypy(tmp_path, source: str) -> subprocess.CompletedProcess:
    if shutil.which("mypy", path=str(Path(sys.executable).parent)) is None:
        pytest.fail("mypy is not installed: it is in the test extras (`make install`)")
    path = tmp_path / "example.py"
    path.write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental",
         "--cache-dir", str(tmp_path / "cache"), str(path)],
        capture_output=True, text=True, cwd=tmp_path, env={"MYPYPATH": str(REPO)}, timeout=300)


def test_a_typed_example_type_checks(tmp_path):
    result = _mypy(tmp_path, TYPED_EXAMPLE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_rejects_a_misused_tensor(tmp_path):
    result = _mypy(tmp_path, "import minigrad\nminigrad.ones(2).no_such_method()\n"
                             "s: str = minigrad.ones(2) * 2\n")
    assert result.returncode == 1
    assert '"Tensor" has no attribute "no_such_method"' in result.stdout
    assert 'expression has type "Tensor", variable has type "str"' in result.stdout
