"""One style table feeds the DOT, the CSS, the legend and the docs; it is readable in both themes.

What a browser shows of it (computed colours, swatches equal to nodes) is measured in
tests/browser/test_drawing_browser.py.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from minigrad_widgets import BackwardStepper, GraphView, style
from minigrad_widgets.dot import NODE_STYLE, draw
from minigrad_widgets.export import stylesheet
from minigrad_widgets.i18n import CATALOGUE

import minigrad as mg

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
ALL = {**style.KINDS, **style.STATES}


@pytest.mark.parametrize("theme", style.THEMES)
@pytest.mark.parametrize("name", [n for n, s in ALL.items() if s["light"]["text"]])
def test_text_on_every_kind_and_state_reaches_wcag_aa_in_both_themes(name, theme):
    colours = ALL[name][theme]
    assert style.contrast(colours["fill"], colours["text"]) >= 4.5


@pytest.mark.parametrize("theme", style.THEMES)
def test_labels_drawn_on_the_background_reach_wcag_aa(theme):
    background = style.LABELS["background"][theme]
    for name in ("edge-label", "node-note"):
        assert style.contrast(background, style.LABELS[name][theme]) >= 4.5


def test_the_contrast_check_can_fail():
    assert style.contrast("#ffffff", "#fff3bf") < 4.5  # white text on pale yellow
    assert style.contrast("#777777", "#777777") == 1.0


def test_no_two_states_differ_by_colour_alone():
    looks = [(s["line"], s["width"]) for s in style.STATES.values()]
    assert len(set(looks)) == len(looks)
    shapes = [(s["shape"], s["rounded"], s["line"], s.get("peripheries"))
              for k, s in style.KINDS.items() if k != "chain"]
    assert len(set(shapes)) == len(shapes)


def test_dot_nodes_take_their_colours_and_shapes_from_the_table():
    for kind, s in style.KINDS.items():
        attrs = NODE_STYLE[kind]
        assert attrs["fillcolor"] == s["light"]["fill"] and attrs["shape"] == s["shape"]
    x = mg.tensor(2., requires_grad=True)
    source = draw(x * x, names={"x": x}).source
    assert f'fillcolor="{style.KINDS["leaf"]["light"]["fill"]}"' in source
    assert "peripheries=2" in source  # the output's double outline


def test_the_css_holds_every_colour_of_the_table_in_both_themes():
    css = style.css()
    assert css in stylesheet()  # what the widget and the static pages load
    light = re.search(r"^\.mg-widget \{ (--mg-[^}]*)\}", css, re.M).group(1)
    dark_block = re.search(r'body\[data-jp-theme-light="false"\] \.mg-widget[^{]*\{ ([^}]*)\}',
                           css).group(1)
    for name, s in ALL.items():
        for part, value in s["light"].items():
            if value:
                assert f"--mg-{name}-{part}: {value};" in light
        for part, value in s["dark"].items():
            if value:
                assert f"--mg-{name}-{part}: {value};" in dark_block
    for name in ALL:
        assert f".mg-swatch-{name} {{" in css
        if name != "none":
            assert f"g.node.mg-{name} " in css


def test_the_legend_has_a_row_for_every_kind_drawn_and_every_state():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = (x * 2).sum()
    view = GraphView(y, show_saved=True)
    drawn = {n.kind for n in view._view.nodes}
    rows = {r[0].split()[0] for r in view.legend}
    assert drawn <= rows
    stepper = BackwardStepper(y)
    rows = {r[0].split()[0] for r in stepper.legend}
    assert set(style.STATES) <= rows and {"edge-done", "edge-active"} <= rows
    assert set(style.STATES) - {r[0] for r in view.legend} == set(style.STATES)
    for lang in CATALOGUE:
        for _, key in stepper.legend:
            assert key in CATALOGUE[lang]
    assert "NaN" in CATALOGUE["en"]["view.legend.flagged"]  # flagged nodes: both reasons


def test_the_legend_says_what_an_arrow_means_in_the_convention_drawn():
    x = mg.tensor(2., requires_grad=True)
    assert ["edge-grad mg-arrow-forward", "view.legend.arrow_forward"] in GraphView(x * x).legend
    backward = BackwardStepper(x * x, arrows="backward")
    assert ["edge-grad mg-arrow-backward", "view.legend.arrow_backward"] in backward.legend
    assert backward.snapshot().legend == backward.legend


@pytest.mark.parametrize("lang,page", [("en", DOCS / "drawing.md"),
                                       ("zh", DOCS / "zh" / "drawing.md")])
def test_the_docs_hold_the_table_generated_from_the_style_table(lang, page):
    assert style.markdown_table(lang) in page.read_text(encoding="utf-8")


def test_a_changed_table_would_no_longer_match_the_docs(monkeypatch):
    monkeypatch.setitem(style.STATES["done"]["light"], "fill", "#000000")
    assert style.markdown_table("en") not in (DOCS / "drawing.md").read_text(encoding="utf-8")
