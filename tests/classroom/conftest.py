"""Fixtures of the classroom tests: the hub's environment (cached, hubenv.py), the course
published as the page says and served over git's smart HTTP, a running hub, and three
students logged in with the course pulled into their homes (classhub.py).

The hub starts once per module and stops at its end; every process it started is checked
to have ended (``test_hub.py``'s last test) and killed in any case.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor

import hubenv
import pytest
from classhub import Student, hub_link, prepare_home, start_hub
from coursegit import page_links, publish_course, serve_git

TIMINGS: dict[str, float] = {}
# alice and bob open the English link; chen the Chinese one, in a JupyterLab set to Chinese
STUDENTS = ["alice", "bob", "chen"]


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
    """The student version published as docs/classroom/index.md says, into a bare repository
    served over git's smart HTTP on 127.0.0.1."""
    start = time.monotonic()
    server = serve_git(publish_course(tmp_path_factory.mktemp("course")))
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

    def arrive(name: str) -> Student:
        prepare_home(hub, name, locale="zh_CN" if name == "chen" else None)
        student = Student(hub, name)
        student.login()
        link = hub_link(links["zh" if name == "chen" else "en"], hub, course_repository.url)
        student.page = student.open_link(link)
        student.link = link
        student.events = student.pull(link)
        return student

    with ThreadPoolExecutor(len(STUDENTS)) as pool:  # they arrive at once, as in a class
        class_ = list(pool.map(arrive, STUDENTS))
    TIMINGS["three students logged in, servers started, course pulled"] = \
        time.monotonic() - start
    return class_


def pytest_terminal_summary(terminalreporter):
    for what, seconds in TIMINGS.items():
        terminalreporter.write_line(f"classroom: {what}: {seconds:.1f} s")
