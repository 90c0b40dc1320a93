"""How many students one machine holds: N students at once on a real JupyterHub (not a test).

    python bench/bench_hub.py [--students 5 10 20] [--markdown FILE]

For each N: a fresh hub from the classroom test's cached environment (tests/classroom/:
JupyterHub 6, the hub page's install line, configurable-http-proxy), the course published
and served over git as in that test. N students log in at once and open the nbgitpuller
link (the hub starts N servers, nbgitpuller pulls N copies). Then, all at once, each one's
lesson 3 opens in headless chromium (one tab per student, one browser), runs all its cells
and clicks Step. Measured:

* start: from opening the link to the course pulled (server spawned, clone done);
* first graph: from Run All to the first drawn stepper (an SVG) in the lesson;
* step: from a click on Step to the stepper's counter moving (three clicks per student);
* memory: resident memory (RSS) of each student's server and of its kernel, once every
  lesson 3 has run, and of the hub and its proxy; the machine's load average then.

The students' browsers share this machine's cores with the servers (in a class each student
has their own computer), so the times are an upper bound for the server's share.
Needs npm and a package registry the first time (the environment is cached), and Debian's
chromium.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "classroom"), str(ROOT / "tests" / "browser")]

import hubenv  # noqa: E402  (after the path set-up above)
from classhub import TARGET, Student, hub_link, prepare_home, start_hub  # noqa: E402
from coursegit import page_links, publish_course, serve_git  # noqa: E402
from labserver import CHROMIUM_FLAGS, chromium_path  # noqa: E402

LESSON = f"{TARGET}/en/03_backward_node_by_node.ipynb"
STEPS = 3

# Opens lesson 3, runs all; resolves with the ms from Run All to the first stepper's SVG.
FIRST_GRAPH_JS = """async (path) => {
  const app = window.jupyterapp;
  await app.restored;
  const panel = await app.commands.execute("docmanager:open", {path, factory: "Notebook"});
  await panel.context.ready;
  await panel.sessionContext.ready;
  app.shell.activateById(panel.id);
  const start = performance.now();
  app.commands.execute("notebook:run-all-cells");
  while (!panel.node.querySelector(".mg-kind-stepper .mg-graph svg")) {
    if (performance.now() - start > 600000) throw new Error("no graph in 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return [panel.id, performance.now() - start];
}"""

# Clicks Step on the first stepper that can step; resolves with the ms until its counter moves.
STEP_JS = """async (panelId) => {
  const panel = document.getElementById(panelId);
  const stepper = [...panel.querySelectorAll(".mg-kind-stepper")].find((w) =>
    [...w.querySelectorAll("button")].some((b) => b.textContent === "Step" && !b.disabled));
  if (!stepper) return null;
  const button = [...stepper.querySelectorAll("button")].find((b) => b.textContent === "Step");
  const counter = stepper.querySelector(".mg-counter");
  const before = counter.textContent;
  const start = performance.now();
  button.click();
  while (counter.textContent === before) {
    if (performance.now() - start > 120000) throw new Error("Step did nothing for 2 minutes");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - start;
}"""


def _rss_mb(pid: int) -> float:
    for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _children(pid: int) -> list[int]:
    found = []
    for task in (Path("/proc") / str(pid) / "task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


def _start_student(hub, name: str, link: str) -> tuple[Student, float]:
    prepare_home(hub, name)
    student = Student(hub, name)
    student.login()
    start = time.monotonic()
    student.open_link(link, timeout=900)
    student.pull(link)
    return student, time.monotonic() - start


async def _browse(students, hub) -> list[tuple[float, list[float]]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path(),
                                                   headless=True, args=CHROMIUM_FLAGS)

        async def one(student):
            context = await browser.new_context(viewport={"width": 1280, "height": 900})
            await context.route("**/*", lambda route: route.continue_()
                                if "127.0.0.1" in route.request.url
                                or route.request.url.startswith(("data:", "blob:"))
                                else route.abort())
            await context.add_cookies([{"name": c.name, "value": c.value, "url": hub.url}
                                       for c in student.session.cookies])
            page = await context.new_page()
            page.set_default_timeout(600_000)
            await page.goto(f"{student.base}/lab/tree/{TARGET}/en/index.ipynb")
            await page.wait_for_function("window.jupyterapp?.shell?.currentWidget?.context")
            panel, first = await page.evaluate(FIRST_GRAPH_JS, LESSON)
            await page.wait_for_function("() => window.jupyterapp.shell.currentWidget"
                                         ".sessionContext.session.kernel.status === 'idle'")
            steps = []
            for _ in range(STEPS):
                ms = await page.evaluate(STEP_JS, panel)
                if ms is not None:
                    steps.append(ms)
            return first, steps

        results = await asyncio.gather(*(one(s) for s in students))
        await browser.close()
    return results


def measure(env, repository: str, n: int) -> dict:
    hub = start_hub(env)
    try:
        link = hub_link(page_links()["en"], hub, repository)
        with ThreadPoolExecutor(n) as pool:
            started = list(pool.map(lambda i: _start_student(hub, f"s{i:02d}", link), range(n)))
        students = [s for s, _ in started]
        browsed = asyncio.run(_browse(students, hub))
        servers, kernels, totals = [], [], []
        for pid in hub.server_pids().values():
            servers.append(_rss_mb(pid))
            kernels += [_rss_mb(k) for k in _children(pid)]
            totals.append(servers[-1] + sum(_rss_mb(k) for k in _children(pid)))
        hub_rss = sum(_rss_mb(p) for p in hub.processes() - set(hub.server_pids().values())
                      if p not in _all_children(hub.server_pids().values()))
    finally:
        hub.stop()
    steps = [ms for _, s in browsed for ms in s]
    return {
        "n": n, "start": [s for _, s in started], "first": [f for f, _ in browsed],
        "steps": steps, "servers": servers, "kernels": kernels, "totals": totals,
        "hub": hub_rss, "load": os.getloadavg()[0],
    }


def _all_children(pids) -> set[int]:
    return {child for pid in pids for child in _children(pid)}


def _machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.machine())
    info = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    total = int(info["MemTotal"].split()[0]) / 1024 / 1024
    return f"{os.cpu_count()} cores ({model}), {total:.0f} GB RAM, {platform.platform()}"


def _med(values) -> str:
    return f"{statistics.median(values):.1f}" if values else "-"


def table(results: list[dict]) -> str:
    lines = ["| students | start (s): median / max | first graph (s): median / max | "
             "step (ms): median / max | server + kernel RSS per student (MB): median / max | "
             "of which kernel (MB) | hub + proxy (MB) | load (1 min) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(
            f"| {r['n']} | {_med(r['start'])} / {max(r['start']):.1f} | "
            f"{statistics.median(r['first']) / 1000:.1f} / {max(r['first']) / 1000:.1f} | "
            f"{_med(r['steps'])} / {max(r['steps']):.0f} | {_med(r['totals'])} / "
            f"{max(r['totals']):.0f} | {_med(r['kernels'])} | {r['hub']:.0f} | "
            f"{r['load']:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--markdown", help="also write the table to this Markdown file")
    args = parser.parse_args()
    if chromium_path() is None:
        sys.exit("needs Debian's chromium: make browser-deps (apt-get install chromium)")
    env = hubenv.build()
    with tempfile.TemporaryDirectory(prefix="minigrad-bench-hub-") as folder:
        git = serve_git(publish_course(Path(folder)))
        try:
            results = []
            for n in args.students:
                results.append(measure(env, git.url, n))
                print(table(results[-1:]).splitlines()[-1], flush=True)
        finally:
            git.stop()
    text = (f"Measured on {_machine()}; browsers on the same machine.\n\n" + table(results))
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n")


if __name__ == "__main__":
    main()
