"""Fixtures of the classroom tests: the hub's environment (cached, hubenv.py), the course
published as the page says and served over git's smart HTTP, a running hub, and three
students logged in with the course pulled into their homes (classhub.py).

The hub starts once per module and stops at its end; every process it started is checked
to have ended (``test_hub.py``'s last test) and killed in any case.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time

import hubenv
import pytest
from classhub import TARGET, Student, hub_link, prepare_home, serve_git, start_hub

TIMINGS: dict[str, float] = {}
PUBLISH_PAGE = hubenv.REPO / "docs" / "classroom" / "index.md"
STUDENTS = ["alice", "bob", "chen"]  # alice and bob open the English link, chen the Chinese


def page_links() -> dict[str, str]:
    """The nbgitpuller link of each language's hub page (each opens its language's index)."""
    found = {}
    for page in hubenv.PAGES:
        links = re.findall(r"https://HUB/hub/user-redirect/git-pull\?\S+",
                           page.read_text(encoding="utf-8"))
        assert len(links) == 1, (page, links)
        found["zh" if "/zh/" in page.as_posix() else "en"] = links[0]
    return found


def publish_commands(page=PUBLISH_PAGE) -> list[str]:
    """The teacher's commands that publish the student branch (the page's bash block)."""
    text = page.read_text(encoding="utf-8")
    block = re.search(r"```bash\n(make student\n.*?)```", text, re.S)
    assert block, f"{page.relative_to(hubenv.REPO)} has no bash block starting `make student`"
    return [line for line in block.group(1).splitlines() if line.strip()]


@pytest.fixture(scope="session")
def hub_env():
    start = time.monotonic()
    try:
        env = hubenv.build(log=lambda line: print(line, file=sys.stderr))
    except hubenv.Unavailable as why:
        pytest.skip(f"a real hub cannot be installed here: {why}")
    TIMINGS["the hub's environment (cached in .cache/classroom)"] = time.monotonic() - start
    return env


@pytest.fixture(scope="session")
def course_repository(tmp_path_factory):
    """The student version published as the page says, into a bare repository served over
    git's smart HTTP on 127.0.0.1 (the page's push to GitHub goes to that repository)."""
    start = time.monotonic()
    folder = tmp_path_factory.mktemp("course")
    bare = folder / "course.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    make, cd, commit, push = publish_commands()
    assert make == "make student" and cd == "cd build/student", (make, cd)
    student = folder / "build" / "student"
    # `make student` is this command (Makefile), writing into the folder the page names
    subprocess.run([sys.executable, str(hubenv.REPO / "notebooks" / "build.py"), "--student",
                    str(student)], check=True, capture_output=True)
    env = {"GIT_AUTHOR_NAME": "Teacher", "GIT_AUTHOR_EMAIL": "teacher@example.org",
           "GIT_COMMITTER_NAME": "Teacher", "GIT_COMMITTER_EMAIL": "teacher@example.org",
           "PATH": "/usr/bin:/bin", "HOME": str(folder)}
    subprocess.run(["bash", "-c", commit], cwd=student, env=env, check=True)
    push = re.sub(r"https://github\.com/OWNER/REPO\.git", str(bare), push.split("#")[0])
    assert str(bare) in push, push
    subprocess.run(["bash", "-c", push + " -q"], cwd=student, env=env, check=True)
    server = serve_git(bare)
    TIMINGS["make student and publish it"] = time.monotonic() - start
    yield server
    server.stop()


@pytest.fixture(scope="module")
def hub(hub_env):
    start = time.monotonic()
    running = start_hub(hub_env)
    TIMINGS["JupyterHub up"] = time.monotonic() - start
    yield running
    running.stop()


@pytest.fixture(scope="module")
def students(hub, course_repository):
    """Three students who logged in through the form and opened their link (the hub started
    their servers and nbgitpuller pulled the course), with the link each one used."""
    start = time.monotonic()
    links = page_links()
    class_ = []
    for name in STUDENTS:
        prepare_home(hub, name)
        student = Student(hub, name)
        student.login()
        link = hub_link(links["zh" if name == "chen" else "en"], hub, course_repository.url)
        student.page = student.open_link(link)
        student.link = link
        student.events = student.pull(link)
        class_.append(student)
    TIMINGS["three students logged in, servers started, course pulled"] = \
        time.monotonic() - start
    return class_


def pytest_terminal_summary(terminalreporter):
    for what, seconds in TIMINGS.items():
        terminalreporter.write_line(f"classroom: {what}: {seconds:.1f} s")
