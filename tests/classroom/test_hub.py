"""A class on a real JupyterHub, installed the way docs/classroom/jupyterhub.md says.

JupyterHub 6 (dummy authenticator, simple spawner, configurable-http-proxy) on 127.0.0.1,
its user environment holding exactly the page's install line (with this checkout's wheel);
the student version of the course published as docs/classroom/index.md says and served over
git's smart HTTP; the page's nbgitpuller links. Three students log in through the login
form and open their link; every lesson of both languages runs in each student's kernel (a
kernel of the server the hub spawned for them, reached through its websocket, as JupyterLab
reaches it); in chromium, one student's lesson 3 stepper draws and steps, and the Chinese
student's JupyterLab (the pages' language pack, chosen as Settings > Language would) shows
Chinese menus. Skips only where the hub cannot be installed (no npm, no package registry).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs, urlparse

import hubenv
import pytest
from classhub import TARGET
from conftest import STUDENTS
from coursegit import page_links

pytestmark = [pytest.mark.hub, pytest.mark.slow]

LESSONS = sorted(p.relative_to(hubenv.REPO / "notebooks").as_posix()
                 for lang in ("en", "zh")
                 for p in (hubenv.REPO / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))
SHOTS = hubenv.REPO / "test-artifacts" / "classroom"
WHERE = "import sys, minigrad, minigrad_widgets\nprint(sys.executable)\nprint(minigrad.__file__)"


def test_the_hub_page_installs_the_course_extra_and_nbgitpuller_everywhere():
    lines = hubenv.page_install_lines()
    assert len(lines) == 4  # per language: the TLJH terminal line, the Dockerfile's RUN line
    assert hubenv.page_requirements() == ["minigrad-autograd[course]", "nbgitpuller"]
    assert sorted(page_links()) == ["en", "zh"]


def test_three_students_log_in_and_the_link_pulls_the_course_into_each_home(hub, students):
    for student in students:
        assert student.page.status_code == 200
        assert urlparse(student.page.url).path == f"/user/{student.name}/git-pull"
        urlpath = parse_qs(urlparse(student.link).query)["urlpath"][0]
        language = urlpath.split("/")[3]
        assert language == ("zh" if student.name == "chen" else "en")
        index = student.notebook(f"{TARGET}/{language}/index.ipynb")
        assert index["cells"], f"{student.name}: the pulled index is empty"
        listing = student.api("GET", f"/contents/{TARGET}/{language}").json()["content"]
        lessons = sorted(f"{language}/{item['name']}" for item in listing
                         if item["name"][:2].isdigit() and item["name"].endswith(".ipynb"))
        assert lessons == [lesson for lesson in LESSONS if lesson.startswith(language)]
        assert not [item for item in listing if item["name"] == "solutions"]
    assert sorted(hub.server_pids()) == STUDENTS  # one server per student, all running


def _run_course(student) -> tuple[dict, list[str]]:
    """Runs every lesson in a fresh kernel of ``student``'s server; returns where the kernel's
    minigrad came from and the problems found (cells that raised, or did not raise)."""
    problems = []
    kernel = student.kernel(f"{TARGET}/en/index.ipynb")
    try:
        where = kernel.execute(WHERE)
    finally:
        kernel.close()
    for lesson in LESSONS:
        try:
            cells = student.run_notebook(f"{TARGET}/{lesson}")
        except Exception as error:  # say which lesson, and what the servers logged
            problems.append(f"{student.name} {lesson}: {type(error).__name__}: {error}\n"
                            f"the hub's log (with the servers'):\n{student.hub.log_tail(30)}")
            continue
        for i, cell in enumerate(cells):
            expected = "raises-exception" in cell.tags
            if bool(cell.errors) != expected:
                problems.append(f"{student.name} {lesson} code cell {i}: "
                                + ("; ".join(cell.errors) or "raised nothing, tagged "
                                   "raises-exception"))
    return where, problems


def test_every_lesson_of_both_languages_runs_in_each_students_kernel(hub, students):
    with ThreadPoolExecutor(len(students)) as pool:
        results = list(pool.map(_run_course, students))
    venv = str(hub.env.venv)
    for student, (where, _) in zip(students, results):
        assert not where.errors, where.errors
        executable, package = where.text.split()
        # the kernel is the hub environment's, and minigrad is the wheel installed there
        assert executable.startswith(venv), (student.name, executable)
        assert package.startswith(venv) and "site-packages" in package, (student.name, package)
    problems = [p for _, found in results for p in found]
    assert not problems, "\n".join(problems)


# Opens a lesson once the index the link opened is restored, and runs all its cells.
STEPPER_JS = """async (path) => {
  const app = window.jupyterapp;
  await app.restored;
  const panel = await app.commands.execute("docmanager:open", {path, factory: "Notebook"});
  await panel.context.ready;
  await panel.sessionContext.ready;
  app.shell.activateById(panel.id);
  await app.commands.execute("notebook:run-all-cells");
  return panel.id;
}"""


@pytest.mark.browser
def test_in_chromium_a_students_lesson_3_stepper_draws_and_steps(hub, students, browser):
    from labserver import OfflinePage
    from playwright.sync_api import expect

    student = students[0]
    offline = OfflinePage(browser)
    page = offline.page
    page.set_default_timeout(60_000)
    try:
        offline.context.add_cookies([{"name": c.name, "value": c.value, "url": hub.url}
                                     for c in student.session.cookies])
        # the link again, in the browser: nbgitpuller's own page pulls (nothing new) and
        # opens the course index in JupyterLab
        page.goto(student.link)
        page.wait_for_url("**/lab/tree/**/index.ipynb*", timeout=120_000)
        page.wait_for_function("window.jupyterapp?.shell?.currentWidget?.context",
                               timeout=120_000)
        panel = page.evaluate(STEPPER_JS, f"{TARGET}/en/03_backward_node_by_node.ipynb")
        steppers = page.locator(f"[id='{panel}'] .mg-kind-stepper")
        expect(steppers.first.locator(".mg-graph svg")).to_be_visible(timeout=90_000)
        step = page.get_by_role("button", name="Step", exact=True, disabled=False)
        live = steppers.filter(has=step).first  # a stepper that can still step
        counter = live.locator(".mg-counter")
        before = counter.inner_text()
        live.get_by_role("button", name="Step", exact=True).click()
        expect(counter).not_to_have_text(before)
        assert before.startswith("step ") and counter.inner_text().startswith("step "), before
        expect(live.locator(".mg-graph svg")).to_be_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "hub-lesson3-stepper.png"))
        problems = offline.take_errors()
        assert not problems, "\n".join(problems)
    except BaseException:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "hub-lesson3-failed.png"))
        print("\n".join(offline.take_errors()))
        raise
    finally:
        offline.close()


def test_the_language_pack_of_both_pages_is_installed_on_the_hub(hub):
    assert hubenv.page_language_packs() == ["jupyterlab-language-pack-zh-cn"]
    assert hub.env.has("jupyterlab_language_pack_zh_CN")


@pytest.mark.browser
def test_the_chinese_students_jupyterlab_speaks_chinese(hub, students, browser):
    from labserver import OfflinePage
    from playwright.sync_api import expect

    student = students[2]
    packs = student.session.get(f"{student.base}/lab/api/translations/", timeout=60).json()
    assert "zh_CN" in packs["data"], packs
    catalogue = student.session.get(f"{student.base}/lab/api/translations/zh_CN",
                                    timeout=60).json()
    assert catalogue["data"]["jupyterlab"][""]["language"].replace("-", "_") == "zh_CN"
    offline = OfflinePage(browser)
    page = offline.page
    page.set_default_timeout(60_000)
    try:
        offline.context.add_cookies([{"name": c.name, "value": c.value, "url": hub.url}
                                     for c in student.session.cookies])
        page.goto(student.link)  # the Chinese page's link: the Chinese course index
        page.wait_for_url("**/lab/tree/**/zh/index.ipynb*", timeout=120_000)
        page.wait_for_function("window.jupyterapp?.shell?.currentWidget?.context",
                               timeout=120_000)
        page.evaluate("""async (path) => {
          const app = window.jupyterapp;
          await app.restored;
          const panel = await app.commands.execute("docmanager:open", {path});
          await panel.context.ready;
          app.shell.activateById(panel.id);
        }""", f"{TARGET}/zh/03_backward_node_by_node.ipynb")
        menu = page.get_by_role("menubar")
        for name in ("文件", "编辑", "运行", "内核"):  # File, Edit, Run, Kernel
            expect(menu.get_by_role("menuitem", name=name, exact=True)).to_be_visible()
        expect(menu.get_by_role("menuitem", name="File", exact=True)).to_have_count(0)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "hub-zh-lab.png"))
        problems = offline.take_errors()
        assert not problems, "\n".join(problems)
    finally:
        offline.close()


def test_stopping_the_hub_ends_every_process_it_started(hub, students):
    running = hub.processes()
    assert len(running) >= 1 + 1 + len(STUDENTS)  # the hub, the proxy, a server per student
    killed = hub.stop()
    assert not killed, f"still running after the hub stopped, killed: {killed}"
