"""Helpers of the packaging tests: a clean clone, commands whose failure fails the test, and
fresh virtual environments without Node.js (fixtures: conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "browser"))
DIST_NAME = "minigrad-autograd"
BUNDLE_IN_WHEEL = "minigrad_widgets/static/widget.js"
TIMINGS: dict[str, float] = {}


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Runs a command, capturing its output; fails the test with that output if it fails."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(map(str, command))} exited with {result.returncode}:\n"
                    f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result


def offline_pip_env(path: str) -> dict[str, str]:
    """An environment in which pip sees no index, no configured find-links and no Node.js."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "NPM_", "npm_"))}
    env.update(PATH=path, PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_NO_INPUT="1")
    return env


def clone(destination: Path) -> Path:
    run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(destination)])
    return destination


@dataclass
class Built:
    """The clean clone and what ``make wheelhouse`` made in it."""

    clone: Path
    wheel: Path
    sdist: Path
    wheelhouse: Path
    log: str


@dataclass
class FreshEnv:
    """A virtual environment with no Node.js on its PATH."""

    root: Path
    path: str

    @property
    def python(self) -> str:
        return str(self.root / "bin" / "python")

    def run(self, *args: str, **kwargs) -> subprocess.CompletedProcess:
        return run([self.python, *args], env=offline_pip_env(self.path), **kwargs)


def make_env(root: Path, wheelhouse: Path, requirement: str) -> FreshEnv:
    run([sys.executable, "-m", "venv", str(root)])
    path = str(root / "bin")  # nothing else: no node, no npm, no system jupyter
    env = FreshEnv(root, path)
    # --no-compile: the bytecode would be written at first import anyway; saves ~10 s here
    env.run("-m", "pip", "install", "-q", "--no-compile", "--no-index", "--find-links",
            str(wheelhouse), requirement)
    return env


