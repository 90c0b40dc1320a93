"""Every ``pip install`` line a reader or a learner is told to run installs the course.

The lines are taken from README.md, every page of docs/ (both languages, the teacher's kit
included), the hand-out's README (notebooks/build.py) and the lesson sources. Each must name
the distribution ``minigrad-autograd`` (``minigrad`` on PyPI is an unrelated project), or
this checkout (``.``), or a wheel of it, with extras whose dependency closure (read from
pyproject.toml) holds every third-party module the lessons import (read from the lessons'
code with ``ast``; an import inside ``try: ... except ImportError`` is optional and not
counted; ``minigrad_widgets`` needs the ``widgets`` extra).
"""

from __future__ import annotations

import ast
import re
import shlex
import sys
from pathlib import Path

import pytest
import tomllib

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "notebooks"))

import build  # noqa: E402

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
NAME = PYPROJECT["project"]["name"]
PIP = re.compile(r"(?:^|[\s`(])(?:[%!]|python3? -m )?pip3? install\b([^`\n]*)")
OPTIONS_WITH_VALUE = {"-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-r",
                      "-c", "--requirement", "--constraint", "--target", "-t", "--prefix"}
OWN = {"minigrad": None, "minigrad_widgets": "widgets", "course": None, "_course": None}
MODULE_OF = {"ipython": "IPython", "pyyaml": "yaml"}  # distribution -> import name


def _dist(requirement: str) -> tuple[str, set[str]]:
    match = re.match(r"^([A-Za-z0-9_.\-/*]+?)(?:\[([^\]]*)\])?(?:[<>=!~;].*)?$", requirement)
    if match is None:
        raise ValueError(f"cannot read the requirement {requirement!r}")
    extras = {e.strip() for e in (match.group(2) or "").split(",") if e.strip()}
    return match.group(1).lower().replace("_", "-"), extras


def closure(extras: set[str]) -> set[str]:
    """The distributions installed by ``minigrad-autograd[extras]`` (names, lower case)."""
    found, todo = set(), [*PYPROJECT["project"]["dependencies"]]
    for extra in extras:
        todo += PYPROJECT["project"]["optional-dependencies"][extra]
    while todo:
        name, more = _dist(todo.pop().replace(" ", ""))
        if name == NAME:
            for extra in more - found:
                found.add(extra)
                todo += PYPROJECT["project"]["optional-dependencies"][extra]
        else:
            found.add(name)
    return {f for f in found if f not in PYPROJECT["project"]["optional-dependencies"]}


def _optional(node, parents) -> bool:
    """Inside ``try:`` whose handlers catch ImportError (or ModuleNotFoundError)."""
    for parent in parents:
        if isinstance(parent, ast.Try) and node in [n for s in parent.body for n in ast.walk(s)]:
            names = {ast.unparse(h.type) for h in parent.handlers if h.type is not None}
            if names & {"ImportError", "ModuleNotFoundError", "(ImportError, AttributeError)"}:
                return True
    return False


def imports(code: str) -> set[str]:
    """The top-level modules a piece of lesson code imports (IPython magics left out)."""
    tree = ast.parse("\n".join("" if line.lstrip().startswith(("%", "!")) else line
                               for line in code.splitlines()))
    tries = [n for n in ast.walk(tree) if isinstance(n, ast.Try)]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module]
        else:
            continue
        if not _optional(node, tries):
            found |= {n.split(".")[0] for n in names}
    return found


def lesson_requirements() -> set[str]:
    """Distributions (and extras, as ``[name]``) that the lessons' code needs."""
    modules = set()
    for source in build.sources():
        for block in build.parse(source):
            if block.kind in ("code", "exercise", "solution"):
                modules |= imports(block.text)
    modules -= set(sys.stdlib_module_names)
    needed = set()
    for module in modules:
        if module in OWN:
            if OWN[module]:
                needed |= closure({OWN[module]})
        else:
            dist = {v: k for k, v in MODULE_OF.items()}.get(module, module.lower())
            needed.add(dist)
    return needed


# what a page may install beside the course, on a line of its own
ADD_ONS = {"jupyterlab-language-pack-zh-cn"}


def problem(line: str) -> str | None:
    """Why a ``pip install`` line does not install the course, or None if it does."""
    tokens = shlex.split(line.split(" #")[0].replace("\\", ""))
    requirements, skip = [], False
    for token in tokens:
        if skip:
            skip = False
        elif token in OPTIONS_WITH_VALUE:
            skip = True
        elif not token.startswith("-"):
            requirements.append(token)
    if not requirements:
        return None  # prose: "`pip install` then takes the wheel's path"
    if all(_dist(r)[0] in ADD_ONS for r in requirements):
        return None  # a step beside the course's install: JupyterLab in Chinese
    ours = []
    for requirement in requirements:
        name, extras = _dist(requirement)
        if name == "minigrad":
            return f"{requirement!r} is an unrelated project on PyPI: the course is {NAME}"
        if name in (NAME, ".") or (name.endswith(".whl") and "minigrad-autograd" in name):
            ours.append(extras)
    if not ours:
        return f"installs {requirements}, not {NAME}"
    missing = lesson_requirements() - closure(set().union(*ours))
    if missing:
        return f"{requirements}: the lessons also import {sorted(missing)}"
    return None


def documents() -> list[tuple[str, str]]:
    """(where, text) of every page that tells someone what to install."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md")),
             *build.sources()]
    found = [(str(p.relative_to(REPO)), p.read_text(encoding="utf-8")) for p in pages
             if "_build" not in p.parts and "jupyter_execute" not in p.parts]
    return found + [("the hand-out's README (notebooks/build.py)", build.STUDENT_README)]


def install_lines() -> list[tuple[str, str]]:
    lines = []
    for where, text in documents():
        for n, line in enumerate(text.splitlines(), 1):
            for match in PIP.finditer(line):
                # the line ends at a closing backtick, or at a double quote (lesson 3 prints it)
                lines.append((f"{where}:{n}", match.group(1).split('"')[0].strip()))
    return lines


def test_the_lessons_need_the_widgets_and_matplotlib_and_the_course_extra_has_them():
    needed = lesson_requirements()
    assert {"anywidget", "matplotlib", "numpy"} <= needed
    assert needed <= closure({"course"}) and closure({"course"}) <= closure({"lab"})
    assert "jupyterlab" not in closure({"course"}) and "jupyterlab" in closure({"lab"})
    assert not needed <= closure({"widgets"})  # what docs/classroom said: no matplotlib


def test_the_checker_rejects_the_kits_old_line_and_others_that_break_a_lesson():
    assert "unrelated project" in problem("minigrad[widgets] jupyterlab")
    assert "matplotlib" in problem("'minigrad-autograd[widgets]' nbgitpuller")
    assert "not minigrad-autograd" in problem("torch==2.13.0")
    assert "also import" in problem("minigrad-autograd")
    for good in ("--no-index --find-links wheelhouse 'minigrad-autograd[course]'",
                 "'minigrad-autograd[lab]'", "-q '.[lab]'",
                 "--find-links wheelhouse 'minigrad-autograd[course,torch]'",
                 "-i https://pypi.tuna.tsinghua.edu.cn/simple 'minigrad-autograd[lab]'"):
        assert problem(good) is None, good


def test_the_lessons_imports_are_read_and_an_optional_import_is_not_counted():
    code = "import numpy as np\nfrom matplotlib import pyplot\ntry:\n    import torch\n" \
           "except ImportError:\n    torch = None\n%xmode Minimal\nimport os.path\n"
    assert imports(code) == {"numpy", "matplotlib", "os"}


LINES = install_lines()


def test_install_lines_are_found_in_the_kit_the_handout_the_readme_and_lesson_3():
    where = " ".join(w for w, _ in LINES)
    for place in ("README.md", "docs/teachers/en/", "docs/teachers/zh/", "hand-out",
                  "notebooks/_source/03_"):
        assert place in where, place


@pytest.mark.parametrize("where, line", LINES, ids=[w for w, _ in LINES])
def test_every_install_line_installs_what_every_lesson_imports(where, line):
    assert problem(line) is None, f"{where}: pip install {line}: {problem(line)}"
