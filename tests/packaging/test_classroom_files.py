"""The files a class relies on: Binder's configuration and the links that hand out the course
(nbgitpuller on a hub, Binder) point at the course index, in both languages."""

from __future__ import annotations

import os
import re
import shlex
from urllib.parse import parse_qs, unquote, urlparse

import yaml
from pkgenv import DIST_NAME, REPO

BINDER = REPO / "binder"
PAGES = [REPO / "docs" / "classroom", REPO / "docs" / "zh" / "classroom"]
STUDENT_BRANCH = "student"


def _links(pattern: str) -> list[str]:
    found = []
    for folder in PAGES:
        for page in folder.glob("*.md"):
            found += re.findall(pattern, page.read_text(encoding="utf-8"))
    return found


def _course_index(language: str) -> str:
    """The course index of one language in the repository (it is the same in the student
    version, under <language>/index.ipynb)."""
    index = REPO / "notebooks" / language / "index.ipynb"
    if (REPO / "notebooks" / language).is_dir():
        assert index.is_file(), f"notebooks/{language}/ has no index.ipynb"
    else:  # before the course moved into notebooks/en and notebooks/zh
        assert sorted(REPO.glob("notebooks/0*.ipynb")), "no lessons at all"
    return f"{language}/index.ipynb"


def test_binder_environment_parses_and_has_node_and_pip_in_one_environment():
    environment = yaml.safe_load((BINDER / "environment.yml").read_text())
    dependencies = environment["dependencies"]
    assert any(str(d).startswith("nodejs") for d in dependencies)
    assert "pip" in dependencies
    # a python= pin different from Binder's own would put the kernel in a second environment,
    # where JupyterLab would not see the widgets' front end
    assert not [d for d in dependencies if str(d).startswith("python")]


def test_binder_post_build_installs_the_lab_extra_from_the_repository():
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK)
    text = post_build.read_text()
    assert text.startswith("#!/bin/bash") and "set -euo pipefail" in text
    commands = [shlex.split(line) for line in text.splitlines()
                if line.strip() and not line.startswith(("#", "set "))]
    assert commands == [["python", "-m", "pip", "install", "--no-cache-dir", ".[lab]"]]
    pyproject = (REPO / "pyproject.toml").read_text()
    assert f'name = "{DIST_NAME}"' in pyproject and "\nlab = [" in pyproject


def test_binder_links_open_the_course_index():
    links = _links(r"https://mybinder\.org/v2/gh/\S+")
    assert len(links) >= 2
    for link in links:
        urlpath = parse_qs(urlparse(link).query)["urlpath"][0]
        language = "zh" if "/zh/" in urlpath else "en"
        assert urlpath == f"lab/tree/notebooks/{_course_index(language)}", link


def test_the_nbgitpuller_links_pull_the_student_branch_and_open_its_course_index():
    links = _links(r"https://HUB/hub/user-redirect/git-pull\?\S+")
    assert len(links) == 2  # one on the English page, one on the Chinese
    languages = set()
    for link in links:
        query = {k: v[0] for k, v in parse_qs(urlparse(link).query).items()}
        assert set(query) == {"repo", "branch", "targetpath", "urlpath"}, link
        assert urlparse(unquote(query["repo"])).scheme == "https"
        assert query["branch"] == STUDENT_BRANCH
        language = query["urlpath"].split("/")[3]
        languages.add(language)
        assert query["urlpath"] == f"lab/tree/{query['targetpath']}/{_course_index(language)}"
    assert languages == {"en", "zh"}


def test_both_languages_say_how_the_teacher_publishes_the_student_branch():
    for folder in PAGES:
        text = (folder / "index.md").read_text(encoding="utf-8")
        assert "make student" in text, folder
        assert f"git init -q -b {STUDENT_BRANCH}" in text and f" {STUDENT_BRANCH}   #" in text
