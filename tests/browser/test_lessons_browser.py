"""Every real lesson, English and Chinese, opened in JupyterLab and run with Run All.

The course folder (lessons, course.py, the checker) is copied into a fresh JupyterLab; one
page opens the lessons one after another with JupyterLab's own commands (no reload between
them), runs all cells, and checks what only a browser shows: no cell produced an error output
(except those tagged raises-exception), the page logged no console error and reached for no
other machine, and every widget output was really drawn (an SVG in each widget's graph area).
Each lesson's kernel is shut down before the next opens.
"""

from __future__ import annotations

import pytest
from labserver import REPO, open_course

pytestmark = pytest.mark.browser

NOTEBOOKS = REPO / "notebooks"
LESSONS = sorted(p.relative_to(NOTEBOOKS).as_posix()
                 for lang in ("en", "zh") for p in (NOTEBOOKS / lang).glob("[0-9][0-9]_*.ipynb"))
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

# Opens a notebook in the running app, runs every cell, waits until each code cell has run
# (Run All's command resolves early when a cell raises, as a raises-exception cell does; the
# kernel goes on with the rest), and reports each code cell's tags, errors and widget outputs.
RUN_ALL_JS = """async (path) => {
  const app = window.jupyterapp;
  const panel = await app.commands.execute("docmanager:open", {path, factory: "Notebook"});
  await panel.context.ready;
  await panel.sessionContext.ready;
  await app.commands.execute("notebook:run-all-cells");
  const code = panel.content.widgets.filter((cell) => cell.model.type === "code");
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline && (panel.sessionContext.session.kernel.status !== "idle" ||
         code.some((cell) => cell.model.executionCount === null))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const cells = [];
  for (const cell of panel.content.widgets) {
    if (cell.model.type !== "code") continue;
    const outputs = cell.model.outputs.toJSON();
    cells.push({
      tags: cell.model.getMetadata("tags") || [],
      errors: outputs.filter((o) => o.output_type === "error")
                     .map((o) => `${o.ename}: ${o.evalue}`),
      widgets: outputs.filter((o) => o.data && o.data[WIDGET_MIME]).length,
      count: cell.model.executionCount,
    });
  }
  return cells;
}""".replace("WIDGET_MIME", repr(WIDGET_MIME))

# a drawn graph, or GradientFlow's chart (it has no graph)
DRAWN_JS = """() => window.jupyterapp.shell.currentWidget.node
  .querySelectorAll(".mg-graph svg, .mg-kind-flow figure.mg-flow-chart:first-child svg").length"""

CLOSE_JS = """async () => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.sessionContext.shutdown();
  panel.dispose();
}"""


@pytest.fixture(scope="module")
def course_page(lab, browser):
    """One page of a JupyterLab whose root holds a copy of the course."""
    offline = open_course(lab, browser)
    yield offline
    offline.close()


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_runs_all_in_jupyterlab_without_errors_and_draws_every_widget(course_page,
                                                                            lesson):
    page = course_page.page
    course_page.take_errors()
    cells = page.evaluate(RUN_ALL_JS, lesson)
    try:
        assert cells and all(c["count"] for c in cells), f"{lesson}: not every cell ran: {cells}"
        unexpected = [(n, c["errors"]) for n, c in enumerate(cells)
                      if bool(c["errors"]) != ("raises-exception" in c["tags"])]
        assert not unexpected, f"{lesson}: errors where none belong (or none where tagged): " \
            f"{unexpected}"
        widgets = sum(c["widgets"] for c in cells)
        if "minigrad_widgets" in (NOTEBOOKS / lesson).read_text():
            assert widgets, f"{lesson}: uses the widgets, yet no widget output appeared"
        page.wait_for_function(f"() => ({DRAWN_JS})() >= {widgets}", timeout=60_000)
        problems = course_page.take_errors()
        assert not problems, f"{lesson}: the page logged errors or reached for the network:\n" \
            + "\n".join(problems)
    finally:
        page.evaluate(CLOSE_JS)
