"""Tensors as pictures in chromium: lesson 9's stepper at its third step, saved with
``save_html`` and opened from disk, draws the large gradients of its panel as heat maps;
hovering a cell shows its exact value, the table under it opens with every value, and the
"edge width = gradient size" toggle widens the edges. What is drawn (values, colours) is
decided and tested in Python (tests/widgets/test_rules_and_pictures.py).

Screenshots: test-artifacts/browser/heat-*.png.
"""

from __future__ import annotations

import pytest
from labserver import ARTIFACTS
from minigrad_widgets import BackwardStepper
from playwright.sync_api import expect

import minigrad as mg
from minigrad import nn

pytestmark = pytest.mark.browser


def _make_model():
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
    with mg.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(mg.sin(1.7 * mg.arange(p.numel()) + i).reshape(p.shape))
    return model


def _lesson_9_stepper(lang="en"):
    """Lesson 9's network and loss, its stepper after three steps (the AddmmBackward0 of the
    last layer); the names come from here, as in the lesson (``model.2.bias``...)."""
    coords = [i / 3 for i in range(-3, 4)]
    X = mg.tensor([[u, v] for u in coords for v in coords])
    labels = (X.pow(2).sum(dim=1) < 0.5).long()
    model = _make_model()
    loss = nn.CrossEntropyLoss()(model(X), labels)
    stepper = BackwardStepper(loss, lang=lang)
    for _ in range(3):
        stepper.step()
    return stepper


def _page(browser, scheme="light"):
    context = browser.new_context(offline=True, viewport={"width": 1200, "height": 1000},
                                  color_scheme=scheme)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def test_hovering_a_heat_map_cell_shows_its_exact_value(browser, bundle, tmp_path):
    stepper = _lesson_9_stepper()
    panel = stepper.panel
    rule = next(s for s in panel["sections"] if s["kind"] == "rule")
    line = next(i for i, text in enumerate(rule["lines"]) if text.startswith("grad_mat1"))
    heat = panel["heat"][next(r["heat"] for r in rule["pictures"] if r["line"] == line)]
    path = stepper.save_html(tmp_path / "lesson9.html")
    context, page, errors = _page(browser)
    try:
        page.goto(path.as_uri())
        widget = page.locator(".mg-kind-stepper")
        expect(widget.locator(".mg-panel-title")).to_have_text(panel["title"])
        section = widget.locator(".mg-section-rule")
        maps = section.locator(".mg-heat")
        expect(maps).to_have_count(len(rule["pictures"]))
        figure = section.locator(".mg-line", has_text="grad_mat1").locator(
            "xpath=following-sibling::*[1]")
        expect(figure).to_have_class("mg-heat")
        cells = figure.locator(".mg-heat-cell")
        expect(cells).to_have_count(49 * 8)
        readout = figure.locator(".mg-heat-readout")
        expect(readout).to_have_text("Point at a cell to read its value")
        assert figure.get_attribute("aria-label") == heat["summary"]
        cells.nth(3 * 8 + 5).hover()
        expect(readout).to_have_text(f"[3, 5] = {heat['values'][3][5]}")
        color = cells.nth(3 * 8 + 5).evaluate("c => getComputedStyle(c).backgroundColor")
        hex_ = heat["colors"][3][5]
        assert color == "rgb({}, {}, {})".format(*(int(hex_[i:i + 2], 16) for i in (1, 3, 5)))
        figure.locator(".mg-heat-table summary").click()
        table = figure.locator(".mg-heat-table table")
        expect(table.locator("tr")).to_have_count(49)
        expect(table.locator("tr").nth(3).locator("td").nth(5)).to_have_text(
            heat["values"][3][5])
        figure.locator(".mg-heat-table summary").click()
        page.mouse.move(0, 0)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        widget.screenshot(path=str(ARTIFACTS / "heat-lesson9-panel.png"))
        # edges as wide as their gradients are large: the toggle and its trait
        widths = widget.locator(".mg-graph g.edge.mg-sized")
        expect(widths).to_have_count(0)
        widget.get_by_label("Edge width = gradient size").check()
        expect(widths).not_to_have_count(0)
        wide = [widths.nth(i).locator("path").evaluate("p => parseFloat(p.style.strokeWidth)")
                for i in range(widths.count())]
        assert max(wide) == pytest.approx(7.0) and min(wide) < 7.0
        # the pictures on the drawing: one per large tensor of a node or an edge, hover titles
        pictures = widget.locator(".mg-graph g.mg-picture")
        expect(pictures).to_have_count(len(stepper.node_pictures) + len(stepper.edge_pictures))
        eid, edge_heat = next(iter(stepper.edge_pictures.items()))
        on_edge = widget.locator(f'.mg-graph g.mg-picture[data-of="{eid}"]')
        expect(on_edge.locator("rect:not(.mg-picture-frame)")).to_have_count(
            edge_heat["rows"] * edge_heat["cols"])
        expect(on_edge.locator("rect").nth(1 + 2 * edge_heat["cols"] + 1).locator("title")
               ).to_have_text(f"[2, 1] = {edge_heat['values'][2][1]}")
    finally:
        context.close()
    assert errors == []


def test_the_heat_maps_keep_their_white_ground_in_the_dark_theme(browser, bundle, tmp_path):
    path = _lesson_9_stepper(lang="zh").save_html(tmp_path / "lesson9-zh.html")
    context, page, errors = _page(browser, "dark")
    try:
        page.goto(path.as_uri())
        widget = page.locator(".mg-kind-stepper")
        grid = widget.locator(".mg-heat-grid").first
        expect(grid).to_be_visible()
        assert grid.evaluate("g => getComputedStyle(g).backgroundColor") == "rgb(255, 255, 255)"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") != \
            "rgb(255, 255, 255)"
        expect(widget.locator(".mg-heat-table summary").first).to_have_text("数值")
        widget.screenshot(path=str(ARTIFACTS / "heat-lesson9-panel-dark-zh.png"))
    finally:
        context.close()
    assert errors == []
