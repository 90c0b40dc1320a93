"""``set_language("zh")`` and ``lang="zh"`` reach every widget: GraphView, BackwardStepper, its
snapshot and ``draw()``, in their text forms (what nbval stores) and in their HTML (the text
form, the drawing's labels and tooltips, and every string the front end is given)."""

from __future__ import annotations

import re

import pytest
from helpers import chain, dot_texts, english_ui_words, english_words, html_texts, shown_strings
from minigrad_widgets import BackwardStepper, GraphView, draw
from minigrad_widgets.i18n import CATALOGUE, set_language

import minigrad as mg


def widget_texts(widget) -> list[str]:
    out = [repr(widget)] + dot_texts(widget.dot) + shown_strings(widget.panel)
    out += [widget.note, *widget.strings.values(), *widget.edge_labels.values(),
            *widget.node_notes.values()]
    for name in ("labels", "counter"):
        value = getattr(widget, name, None)
        out += list(value.values()) if isinstance(value, dict) else [value or ""]
    html = widget._repr_mimebundle_()[0]["text/html"]
    return out + html_texts(html)


def _graphs():
    """Graphs that bring out every kind of node and note: saved and freed values, a leaf with
    and without a name, inputs that need no gradient, a collapsed chain, a truncated graph."""
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., 4.], requires_grad=True)
    c = mg.tensor([5., 6.])
    y = x * w
    loss = (y * y + c * x).sum()
    freed = (x.exp() * w).sum()
    freed.backward()
    unnamed = (mg.tensor(2., requires_grad=True) ** 2).sqrt()
    leaf, long = chain(200)
    wide = sum(x * float(k) for k in range(60)).sum()
    return {"loss": loss, "freed": freed, "unnamed": unnamed, "long": long, "wide": wide,
            "names": {"x": x, "w": w, "y": y, "loss": loss, "x0": leaf}}


def chinese_widgets(**lang):
    g = _graphs()
    names = g["names"]
    views = [GraphView(g["loss"], names=names, show_saved=True, **lang),
             GraphView(g["freed"], names=names, show_saved=True, **lang),
             GraphView(g["unnamed"], names={}, **lang),
             GraphView(g["long"], names=names, **lang),
             GraphView(g["wide"], names=names, max_nodes=20, **lang)]
    stepper = BackwardStepper(g["loss"], names=names, **lang)
    stepper.step()
    steppers = [stepper, stepper.snapshot(),
                BackwardStepper(g["long"], names=names, max_nodes=20, **lang)]
    steppers[-1].run()
    return views + steppers


NODE_ID = re.compile(r"\[(?:n\d+|more(?:_up)?)\]")  # the ids of the text form, as in DOT


def _leftovers(texts) -> set:
    return set().union(*(english_words(NODE_ID.sub("", text)) for text in texts))


@pytest.mark.parametrize("how", ["lang", "set_language"])
def test_no_english_word_in_any_chinese_widget(how):
    if how == "lang":
        widgets = chinese_widgets(lang="zh")
    else:
        set_language("zh")
        try:
            widgets = chinese_widgets()
        finally:
            set_language("en")
    assert {w.lang for w in widgets} == {"zh"}
    texts = [text for w in widgets for text in widget_texts(w)]
    assert _leftovers(texts) == set()
    joined = "\n".join(texts)
    assert "；计算图已截断" in joined  # two notes joined the Chinese way
    for word in ("叶子节点", "已释放", "个节点", "输出"):
        assert word in joined, word  # the scan above did see the words it checks


def test_draw_speaks_the_language_it_is_given():
    g = _graphs()
    source = draw(g["freed"], names=g["names"], show_saved=True, lang="zh").source
    assert _leftovers(dot_texts(source)) == set()
    assert "已释放" in source
    set_language("zh")
    try:
        assert "输出" in draw(g["unnamed"], names={}).source
    finally:
        set_language("en")
    assert "output" in draw(g["unnamed"], names={}).source


def test_the_same_widgets_in_english_show_the_english_words():
    """The scan can fail: in English the same widgets show the words it looks for."""
    texts = [text for w in chinese_widgets(lang="en") for text in widget_texts(w)]
    words = {w.lower() for w in _leftovers(texts)}
    assert {"nodes", "leaf", "freed", "output", "step"} <= words
    assert words <= english_ui_words() | {"leaf"}, words - english_ui_words()


def test_an_english_string_left_in_the_chinese_catalogue_is_found(monkeypatch):
    monkeypatch.setitem(CATALOGUE["zh"], "graph.freed", "{attr}: freed")
    texts = [text for w in chinese_widgets(lang="zh") for text in widget_texts(w)]
    assert "freed" in _leftovers(texts)
