"""The drawing convention measured in a browser: where labels land, colours, arrows, sizes.

The real lessons 3 and 9 (English and Chinese) run with Run All in JupyterLab, lesson 3 with
the sequence that once drew the leaves' ``.grad`` labels in the corner (a GraphView in one
cell, ``s = BackwardStepper(loss); s.run(); s`` in the next), and ``draw(loss)`` after it.
Then, measured rather than looked at: each ``.grad`` label beside its leaf; text against fill
at least 4.5:1 for every node kind and state in the light and the dark theme; every legend
swatch drawn as the nodes and edges it stands for; the same arrowheads in every widget for one
graph; lesson 9's graph inside its output area as it opens; no serious or critical axe-core
finding in the widgets. Static pages (``save_html``, a docs-like page at 340 px): the quiz
answers a click and Enter, the panel never overflows, axe-core finds nothing serious.

Screenshots: test-artifacts/browser/drawing-*.png.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from labserver import ARTIFACTS, REPO, open_course
from minigrad_widgets import style
from playwright.sync_api import expect
from test_lessons_browser import CLOSE_JS, DRAWN_JS, RUN_ALL_JS

pytestmark = pytest.mark.browser

NOTEBOOKS = REPO / "notebooks"
AXE = REPO / "widgets" / "js" / "node_modules" / "axe-core" / "axe.min.js"
DOCS_CSS = REPO / "docs" / "_static" / "minigrad.css"
REPRO = ["s = BackwardStepper(loss)\ns.run()\ns", "from minigrad_widgets import draw\ndraw(loss)",
         "import json\nprint(json.dumps(s.node_notes, ensure_ascii=False))"]


def _artifact(name: str) -> str:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return str(ARTIFACTS / name)


def _lesson_3_with_repro(lang: str, root: Path) -> str:
    """Lesson 3 with the issue's sequence inserted after its GraphView(loss) cell."""
    path = NOTEBOOKS / lang / "03_backward_node_by_node.ipynb"
    nb = nbformat.read(path, as_version=4)
    at = next(i for i, c in enumerate(nb.cells)
              if c.cell_type == "code" and c.source.rstrip().endswith("GraphView(loss)"))
    for k, source in enumerate(REPRO, start=1):
        nb.cells.insert(at + k, nbformat.v4.new_code_cell(source))
    name = f"{FOLDER}/{lang}/03_repro.ipynb"
    nbformat.write(nb, root / name)
    return name


FOLDER = "drawing"  # the course's copy for this module, beside test_lessons_browser's


@pytest.fixture(scope="module")
def course(lab, browser):
    offline = open_course(lab, browser, FOLDER, width=1280, height=900)
    yield lab, offline
    offline.close()


def _run_all(course, name: str):
    """Opens notebook ``name`` in the course's JupyterLab and runs every cell; returns the page."""
    lab, offline = course
    page = offline.page
    offline.take_errors()
    cells = page.evaluate(RUN_ALL_JS, name)
    assert cells and all(c["count"] for c in cells), f"{name}: not every cell ran"
    widgets = sum(c["widgets"] for c in cells)
    # every widget drawn: a graph, or GradientFlow's chart (it has no graph)
    page.wait_for_function(f"() => window.jupyterapp.shell.currentWidget.node"
                           f".querySelectorAll('.mg-graph svg g.node').length > 0 && "
                           f"({DRAWN_JS})() >= {widgets}")
    return page


def _close(page):
    page.evaluate(CLOSE_JS)


def _set_theme(page, dark: bool):
    theme = "JupyterLab Dark" if dark else "JupyterLab Light"
    page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', "
                  f"{{theme: '{theme}'}})")
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{str(not dark).lower()}'")
    page.wait_for_timeout(300)  # the theme's CSS variables settle


def _cell_of(page, source_start: str):
    """The output area of the (first) code cell whose source starts with ``source_start``."""
    index = page.evaluate("""(start) => window.jupyterapp.shell.currentWidget.content.widgets
        .findIndex((c) => c.model.type === "code" && c.model.sharedModel.source.startsWith(start))""",
                          source_start)
    assert index >= 0, source_start
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").nth(index)


# ---------------------------------------------------------------- measuring in the page
NOTES_JS = """(widget, ids) => [...widget.querySelectorAll(".mg-node-note")].map((note) => {
  const leaf = widget.querySelector(`g.node[id="${ids[note.textContent]}"]`);
  const n = note.getBoundingClientRect(), l = leaf.getBoundingClientRect();
  return {text: note.textContent, note: [n.left, n.top, n.right, n.bottom],
          leaf: [l.left, l.top, l.right, l.bottom]};
})"""

# Every node kind and state drawn on a real node of `svg` (its classes put on and taken off):
# the colours of its fill, outline and text after the page's CSS, and the opacity of every
# ancestor.
COLOURS_JS = """(svg, names) => {
  const out = {};
  const opacity = (el) => { let o = 1; for (; el && el !== svg; el = el.parentNode)
    o *= parseFloat(getComputedStyle(el).opacity); return o; };
  const measure = (g) => {
    const shape = [...g.querySelectorAll("polygon, path, ellipse")]
      .find((s) => s.getAttribute("fill") !== "none");
    const text = g.querySelector("text");
    return {fill: getComputedStyle(shape).fill, text: text && getComputedStyle(text).fill,
            stroke: getComputedStyle(shape).stroke,
            dash: getComputedStyle(shape).strokeDasharray,
            opacity: opacity(text || shape)};
  };
  const g = svg.querySelector("g.node.mg-backward");
  const before = g.getAttribute("class");
  for (const kind of names.kinds) {
    g.setAttribute("class", "node mg-" + kind);
    out[kind] = measure(g);
  }
  for (const state of names.states) {
    g.setAttribute("class", "node mg-backward mg-" + state);
    out[state] = measure(g);
  }
  g.setAttribute("class", before);
  return out;
}"""

SWATCHES_JS = """widget => Object.fromEntries([...widget.querySelectorAll(".mg-swatch")].map((s) => {
  const css = getComputedStyle(s);
  return [s.dataset.swatch, {fill: css.backgroundColor, stroke: css.borderTopColor,
          style: css.borderTopStyle, edge: css.borderTopColor}];
}))"""

EDGES_JS = """svg => Object.fromEntries([...svg.querySelectorAll("g.edge")].map((g) => {
  const d = g.querySelector("path").getAttribute("d").match(/-?[\\d.]+/g).map(Number);
  const head = g.querySelector("polygon");
  if (!head) return [g.id, "none"];
  const p = head.getAttribute("points").match(/-?[\\d.]+/g).map(Number);
  let cx = 0, cy = 0;
  for (let i = 0; i < p.length; i += 2) { cx += p[i]; cy += p[i + 1]; }
  cx /= p.length / 2; cy /= p.length / 2;
  const dist = (x, y) => Math.hypot(cx - x, cy - y);
  const n = d.length;
  return [g.id, dist(d[n - 2], d[n - 1]) < dist(d[0], d[1]) ? "at-head" : "at-tail"];
}))"""


def _rgb(css: str) -> str:
    r, g, b = (round(float(v)) for v in re.findall(r"[\d.]+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def _contrast(fill_css: str, text_css: str) -> float:
    return style.contrast(_rgb(fill_css), _rgb(text_css))


def _names():
    return {"kinds": [k for k in style.KINDS if k != "none"], "states": list(style.STATES)}


# ---------------------------------------------------------------- lesson 3
@pytest.fixture(scope="module", params=["en", "zh"])
def lesson3(request, course):
    lab, _ = course
    name = _lesson_3_with_repro(request.param, lab.root)
    page = _run_all(course, name)
    yield request.param, page
    _close(page)


def test_grad_labels_sit_beside_their_leaves_after_run_all(lesson3):
    lang, page = lesson3
    widget = _cell_of(page, REPRO[0]).locator(".mg-kind-stepper")
    expect(widget.locator(".mg-node-note")).to_have_count(3)  # x, w and b
    notes = json.loads(_cell_of(page, REPRO[2]).locator(".jp-OutputArea-output").inner_text())
    for note in widget.evaluate(NOTES_JS, {text: i for i, text in notes.items()}):
        nl, nt, nr, nb = note["note"]
        ll, lt, lr, lb = note["leaf"]
        assert nl < lr and nr > ll, note  # over its leaf, not in a corner
        # just above it: at most one line (15 px at zoom 1) higher, where two notes would overlap
        zoom = float(widget.locator(".mg-graph").get_attribute("data-zoom"))
        assert 0 <= lt - nb <= (10 + 15) * zoom, note
    widget.scroll_into_view_if_needed()
    page.screenshot(path=_artifact(f"drawing-lesson3-repro-{lang}.png"), full_page=False)


def test_every_widget_draws_the_graph_with_the_same_arrows(lesson3):
    _, page = lesson3
    views = {"GraphView": _cell_of(page, "x = torch.tensor(2.").locator(".mg-kind-graph"),
             "BackwardStepper": _cell_of(page, REPRO[0]).locator(".mg-kind-stepper"),
             "draw": _cell_of(page, REPRO[1]).locator(".mg-kind-graph"),
             "snapshot": _cell_of(page, "x.grad = w.grad").locator(".mg-kind-stepper")}
    arrows = {name: w.locator(".mg-graph svg").evaluate(EDGES_JS) for name, w in views.items()}
    first = arrows["GraphView"]
    assert len(first) >= 6 and set(first.values()) == {"at-head"}  # forward: input -> user
    for name, found in arrows.items():
        assert found == first, name


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_node_kind_and_state_reaches_wcag_aa(lesson3, dark):
    lang, page = lesson3
    _set_theme(page, dark)
    try:
        widget = _cell_of(page, REPRO[0]).locator(".mg-kind-stepper")
        colours = widget.locator(".mg-graph svg").evaluate(COLOURS_JS, _names())
        assert set(style.STATES) | set(_names()["kinds"]) == set(colours)
        for name, c in colours.items():
            assert c["opacity"] == 1, name
            assert _contrast(c["fill"], c["text"]) >= 4.5, (name, c)
        theme = "dark" if dark else "light"
        for name, entry in {**style.KINDS, **style.STATES}.items():  # the table is what is drawn
            if name in colours:
                assert _rgb(colours[name]["fill"]) == entry[theme]["fill"], name
        assert (colours["flagged"]["dash"] != "none") and (colours["current"]["dash"] == "none")
        widget.scroll_into_view_if_needed()
        page.screenshot(path=_artifact(f"drawing-lesson3-{lang}-{theme}.png"))
    finally:
        _set_theme(page, False)


def test_the_legend_swatches_are_drawn_as_the_nodes_and_edges(lesson3):
    _, page = lesson3
    for dark in (False, True):
        _set_theme(page, dark)
        widget = _cell_of(page, REPRO[0]).locator(".mg-kind-stepper")
        widget.locator("details.mg-legend summary").click()
        swatches = widget.evaluate(SWATCHES_JS)
        colours = widget.locator(".mg-graph svg").evaluate(COLOURS_JS, _names())
        for name in set(swatches) & set(colours):
            assert _rgb(swatches[name]["fill"]) == _rgb(colours[name]["fill"]), name
            assert _rgb(swatches[name]["stroke"]) == _rgb(colours[name]["stroke"]), name
            dashed = swatches[name]["style"] in ("dashed", "dotted")
            assert dashed == (colours[name]["dash"] != "none"), name
        assert set(style.STATES) <= set(swatches)
        done_edge = widget.locator(".mg-graph g.edge.mg-done path").first.evaluate(
            "p => getComputedStyle(p).stroke")
        assert _rgb(swatches["edge-done"]["edge"]) == _rgb(done_edge)
        widget.locator("details.mg-legend summary").click()
    _set_theme(page, False)


def test_the_widgets_have_no_serious_accessibility_violation(lesson3):
    _, page = lesson3
    try:
        for dark in (False, True):
            _set_theme(page, dark)
            for summary in page.locator(".mg-legend summary").all():
                summary.click()  # the legends open, so that axe reads them too
            violations = _axe(page, ".mg-widget")
            assert not violations, json.dumps(violations, indent=1, ensure_ascii=False)
            for summary in page.locator(".mg-legend summary").all():
                summary.click()
    finally:
        _set_theme(page, False)


# ---------------------------------------------------------------- lesson 9
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lesson_9s_graph_opens_inside_its_output_area(course, lang):
    page = _run_all(course, f"{FOLDER}/{lang}/09_a_first_network.ipynb")
    try:
        widget = _cell_of(page, "stepper = BackwardStepper(loss)").locator(".mg-kind-stepper")
        area = widget.locator(".mg-graph")
        expect(area.locator("svg g.node")).not_to_have_count(0)
        fits = area.evaluate("""a => {
          const s = a.querySelector("svg").getBoundingClientRect(), r = a.getBoundingClientRect();
          return {inside: s.left >= r.left - 1 && s.right <= r.right + 1 && s.top >= r.top - 1 &&
                          s.bottom <= r.bottom + 1,
                  scrolls: a.scrollWidth > a.clientWidth + 1 || a.scrollHeight > a.clientHeight + 1,
                  svg: [s.width, s.height], area: [r.width, r.height]}; }""")
        assert fits["inside"] and not fits["scrolls"], fits
        widget.scroll_into_view_if_needed()
        for dark in (False, True):
            _set_theme(page, dark)
            page.screenshot(path=_artifact(f"drawing-lesson9-{lang}-{'dark' if dark else 'light'}"
                                           ".png"))
        _set_theme(page, False)
        violations = _axe(page, ".mg-widget")
        assert not violations, json.dumps(violations, indent=1, ensure_ascii=False)
        widget.get_by_role("button", name=re.compile(r"^(Zoom in|放大)$")).click()
        assert area.evaluate("a => a.scrollWidth > a.clientWidth || a.scrollHeight > "
                             "a.clientHeight")  # zoomed in: pans
        widget.get_by_role("button", name=re.compile(r"^(Fit the drawing|适应绘图区)$")).click()
        assert area.evaluate("a => a.scrollWidth <= a.clientWidth + 1 && "
                             "a.scrollHeight <= a.clientHeight + 1")
    finally:
        _close(page)


# ---------------------------------------------------------------- static pages
def _axe(page, selector: str | None = None) -> list:
    """axe-core's serious and critical violations in ``selector`` (or the whole page)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("""async (selector) => {
      const context = selector ? {include: [...document.querySelectorAll(selector)]} : document;
      const r = await axe.run(context, {resultTypes: ["violations"]});
      return r.violations.filter((v) => ["serious", "critical"].includes(v.impact))
        .map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.html).slice(0, 3)}));
    }""", selector)
    return result


def _static_page(browser, html_path: Path, width: int = 1200):
    context = browser.new_context(offline=True, viewport={"width": width, "height": 900})
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(html_path.as_uri())
    page.wait_for_selector(".mg-graph svg g.node")
    return context, page, errors


def _lesson_9_stepper(lang: str):
    """Lesson 9's network and loss, and a stepper of it (the lesson's own code)."""
    from minigrad_widgets import BackwardStepper

    import minigrad as torch
    from minigrad import nn

    coords = [i / 3 for i in range(-3, 4)]
    X = torch.tensor([[u, v] for u in coords for v in coords])
    labels = (X.pow(2).sum(dim=1) < 0.5).long()
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(1.7 * torch.arange(p.numel()) + i).reshape(p.shape))
    loss = nn.CrossEntropyLoss()(model(X), labels)
    return BackwardStepper(loss, names={"loss": loss}, lang=lang)


def _docs_like_page(widget, path: Path, width: int) -> Path:
    """The widget's static view in a docs-like page: the site's CSS, a column ``width`` wide."""
    from minigrad_widgets.export import fragment

    css = DOCS_CSS.read_text(encoding="utf-8")
    path.write_text(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                    f"<title>docs</title><style>{css} main {{ width: {width}px; }}</style></head>"
                    f"<body><main><div class='cell_output'>{fragment(widget, carry=True)}"
                    f"</div></main></body></html>", encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_panel_never_overflows_a_340_px_column(browser, bundle, tmp_path, lang):
    stepper = _lesson_9_stepper(lang)
    path = _docs_like_page(stepper, tmp_path / "docs.html", 340)
    context, page, errors = _static_page(browser, path, width=380)
    try:
        widget = page.locator(".mg-kind-stepper")
        step = widget.get_by_role("button", name=re.compile(r"^(Step|单步)$"))
        counter = widget.locator(".mg-counter")
        worst = []
        for k in range(1, stepper.total_steps + 1):
            step.click()
            expect(counter).to_contain_text(str(k))
            worst.append(widget.evaluate("""w => {
              const p = w.querySelector(".mg-panel");
              const over = [p, ...p.querySelectorAll("pre, div, h4, h5")]
                .filter((e) => e.scrollWidth > e.clientWidth + 1 && !e.matches(".mg-matrix"));
              return {panel: [p.scrollWidth, p.clientWidth],
                      over: over.map((e) => e.className + " " + e.scrollWidth),
                      widget: [w.scrollWidth, w.clientWidth]};
            }"""))
            if k == 3:
                page.screenshot(path=_artifact(f"drawing-docs-340-{lang}.png"), full_page=True)
        bad = [(k + 1, w) for k, w in enumerate(worst) if w["over"] or
               w["widget"][0] > w["widget"][1] + 1]
        assert not bad, bad
        violations = _axe(page)
        assert not violations, json.dumps(violations, indent=1, ensure_ascii=False)
    finally:
        context.close()
    assert errors == []


def _quiz_page(tmp_path, lang="en"):
    from minigrad_widgets import BackwardStepper

    import minigrad as torch

    x = torch.tensor(2., requires_grad=True)
    w = torch.tensor(-3., requires_grad=True)
    b = torch.tensor(1., requires_grad=True)
    loss = (w * x + b) * x
    quiz = BackwardStepper(loss, names={"x": x, "w": w, "b": b}, predict=True, lang=lang)
    first = quiz._planned[0]
    right_id = quiz._view.node_of[first]
    wrong_id = next(n.id for n in quiz._view.nodes if n.kind == "leaf")
    return quiz.save_html(tmp_path / "quiz.html"), right_id, wrong_id, quiz


def test_the_quiz_answers_a_click_on_a_static_page(browser, bundle, tmp_path):
    path, right_id, wrong_id, quiz = _quiz_page(tmp_path)
    context, page, errors = _static_page(browser, path)
    try:
        widget = page.locator(".mg-kind-stepper")
        feedback = widget.locator(".mg-section-predict")
        widget.locator(f"g.node#{wrong_id}").click()
        expect(feedback).to_contain_text("Not ")
        expect(widget.locator(".mg-counter")).to_have_text(f"step 0 / {quiz.total_steps}")
        widget.locator(f"g.node#{right_id}").click()
        expect(feedback).to_contain_text("Right")
        expect(widget.locator(".mg-counter")).to_have_text(f"step 1 / {quiz.total_steps}")
        page.screenshot(path=_artifact("drawing-static-quiz.png"))
    finally:
        context.close()
    assert errors == []


def test_the_quiz_is_played_with_the_keyboard_and_nodes_have_names(browser, bundle, tmp_path):
    path, right_id, _, quiz = _quiz_page(tmp_path)
    context, page, errors = _static_page(browser, path)
    try:
        widget = page.locator(".mg-kind-stepper")
        node = widget.locator(f"g.node#{right_id}")
        expect(node).to_have_attribute("role", "button")
        expect(node).to_have_attribute("aria-label", re.compile(
            r"^MulBackward0( #\d+)?; backward node \(grad_fn\); not run yet$"))
        expect(widget.locator(".mg-panel")).to_have_attribute("aria-live", "polite")
        for _ in range(60):  # Tab through the buttons and nodes in page order
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement?.id") == right_id:
                break
        else:
            pytest.fail("no Tab reached the node that runs next")
        page.keyboard.press("Enter")
        expect(widget.locator(".mg-counter")).to_have_text(f"step 1 / {quiz.total_steps}")
        expect(widget.locator(".mg-section-predict")).to_contain_text("Right")
        violations = _axe(page)
        assert not violations, json.dumps(violations, indent=1)
    finally:
        context.close()
    assert errors == []


def test_a_page_without_recorded_answers_does_not_offer_the_quiz(browser, bundle, tmp_path):
    path, right_id, _, quiz = _quiz_page(tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'"answers":\{', '"no_answers":{', text), encoding="utf-8")
    context, page, errors = _static_page(browser, path)
    try:
        widget = page.locator(".mg-kind-stepper")
        expect(widget.locator(".mg-section-predict")).to_have_count(0)
        expect(widget.locator(f"g.node#{right_id}")).to_have_attribute("role", "img")
        widget.get_by_role("button", name="Step", exact=True).click()
        expect(widget.locator(".mg-counter")).to_have_text(f"step 1 / {quiz.total_steps}")
    finally:
        context.close()
    assert errors == []


def test_a_snapshot_shows_no_controls(browser, bundle, tmp_path):
    from minigrad_widgets import BackwardStepper

    import minigrad as torch

    x = torch.tensor(2., requires_grad=True)
    stepper = BackwardStepper(x * x + x, names={"x": x})
    stepper.step()
    path = stepper.snapshot().save_html(tmp_path / "snapshot.html")
    context, page, errors = _static_page(browser, path)
    try:
        widget = page.locator(".mg-kind-stepper")
        for selector in (".mg-speed", ".mg-edge-toggle", ".mg-toolbar .mg-button"):
            for k in range(widget.locator(selector).count()):
                expect(widget.locator(selector).nth(k)).to_be_hidden()
        expect(widget.locator(".mg-counter")).to_be_visible()
        expect(widget.get_by_role("button", name="Fit the drawing")).to_be_visible()  # zoom only
    finally:
        context.close()
    assert errors == []


def test_labels_on_doubled_edges_do_not_overlap(browser, bundle, tmp_path):
    from minigrad_widgets import BackwardStepper

    import minigrad as torch

    x = torch.tensor([1., -2.], requires_grad=True)
    y = x * x
    stepper = BackwardStepper((y * y).sum(), names={"x": x, "y": y})
    stepper.run()
    path = stepper.save_html(tmp_path / "doubled.html")
    context, page, errors = _static_page(browser, path)
    try:
        labels = page.locator(".mg-edge-label")
        expect(labels).to_have_count(len(stepper.edge_labels))
        boxes = labels.evaluate_all("els => els.map((e) => { const r = e.getBoundingClientRect();"
                                    " return [r.left, r.top, r.right, r.bottom]; })")
        boxes += page.locator(".mg-node-note").evaluate_all(
            "els => els.map((e) => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })")
        nodes = page.locator(".mg-graph g.node").evaluate_all(
            "els => els.map((e) => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })")

        def overlap(a, b):
            return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1

        area = page.locator(".mg-graph").evaluate("a => a.getBoundingClientRect().left")
        for i, a in enumerate(boxes):
            assert a[0] >= area - 1, a  # not cut off at the left
            assert not any(overlap(a, b) for b in boxes[i + 1:]), a
            assert not any(overlap(a, n) for n in nodes), a
        page.screenshot(path=_artifact("drawing-doubled-edges.png"))
    finally:
        context.close()
    assert errors == []
