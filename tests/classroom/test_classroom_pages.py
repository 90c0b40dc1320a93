"""The classroom pages (both languages) install what the tests install.

Every ``pip install`` of the package in docs/classroom and docs/zh/classroom names an extra
that pyproject.toml defines; where Jupyter is already there (a hub, Colab, VS Code, the
grader) the extra is ``course``, the one the hub test installs (test_hub.py); a machine of
its own (a student's, the offline lab) gets ``lab``, which the packaging tests install
(tests/packaging). Both languages carry the same lines.
"""

from __future__ import annotations

import re

import tomllib
from hubenv import DIST_NAME, REPO

PAGES = sorted((REPO / "docs" / "classroom").glob("*.md"))
REQUIREMENT = re.compile(DIST_NAME + r"\[([\w,-]+)\]")
# page -> the one extra its install lines use
EXTRAS = {"jupyterhub.md": "course", "colab-vscode.md": "course", "grading.md": "course",
          "offline.md": "lab", "binder.md": "lab"}


def install_extras(text: str) -> list[str]:
    """The extras of the package in the page's install lines (code and inline code).

    >>> install_extras("run `%pip install 'minigrad-autograd[course]'` in a cell")
    ['course']
    """
    found = []
    for line in re.findall(r"pip install[^\n`]*", text):
        found += REQUIREMENT.findall(line)
        if "'.[" in line:  # binder/postBuild installs the repository itself
            found += re.findall(r"'\.\[([\w,-]+)\]'", line)
    return found


def test_every_install_line_uses_the_extra_its_setting_needs_in_both_languages():
    defined = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert defined["course"] == ["minigrad-autograd[widgets]", "matplotlib>=3.8"]
    assert defined["lab"][0] == "minigrad-autograd[course]"
    for page in PAGES:
        twin = REPO / "docs" / "zh" / "classroom" / page.name
        extras = install_extras(page.read_text(encoding="utf-8"))
        assert extras == install_extras(twin.read_text(encoding="utf-8")), page.name
        assert set(extras) <= set(defined), (page.name, extras)
        if page.name in EXTRAS:
            assert extras and set(extras) == {EXTRAS[page.name]}, (page.name, extras)
        else:  # index.md: one line for each kind of machine
            assert sorted(extras) == ["course", "lab"], (page.name, extras)


def test_the_install_check_sees_a_wrong_extra():
    assert install_extras("sudo -E pip install 'minigrad-autograd[widgets]' nbgitpuller") \
        == ["widgets"]
    assert install_extras("`pip install '.[lab]'`, the same") == ["lab"]
