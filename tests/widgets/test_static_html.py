"""Widgets outside a kernel: save_html pages, static text/html views, one bundle per page, and
draw() without Graphviz's dot program. (tests/browser/test_view_browser.py opens them.)"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys

import graphviz
import minigrad_widgets.export as export
import pytest
from helpers import custom_functions
from minigrad_widgets import BackwardStepper, GraphView, draw
from minigrad_widgets.dot import GraphvizNotFound

import minigrad as mg

TwoGrads = custom_functions(mg)["TwoGrads"]  # a backward returning one gradient too many

BUNDLE = export.STATIC / "widget.js"


def _data(fragment: str) -> dict:
    found = re.search(r'<script type="application/json" class="mg-static-data">(.*?)</script>',
                      fragment, re.S)
    return json.loads(found.group(1))


def _stepper():
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., -1.], requires_grad=True)
    y = x * w
    return x, BackwardStepper((y * y + x).sum(), names={"x": x, "w": w, "y": y})


def test_a_page_holds_every_step_and_leaves_the_stepper_and_grads_as_they_were():
    x, stepper = _stepper()
    stepper.step(), stepper.step()
    before = (stepper.step_index, stepper.panel, stepper.edge_labels, x.grad)
    data = _data(export.page(stepper))
    assert (stepper.step_index, stepper.panel, stepper.edge_labels, x.grad) == before
    assert len(data["steps"]) == stepper.total_steps and data["position"] == 2
    assert data["state"]["step_index"] == 0 and data["state"]["dot"] == stepper.dot
    # replaying the changes gives the stepper's own state at every step
    state = dict(data["state"])
    for k, delta in enumerate(data["steps"], start=1):
        state.update(delta["set"])
        for name, patch in delta["patch"].items():
            state[name] = {**{a: b for a, b in state[name].items() if a not in patch["del"]},
                           **patch["set"]}
        if k == 2:
            assert {n: state[n] for n in ("panel", "edge_labels", "node_states")} == \
                {"panel": stepper.panel, "edge_labels": stepper.edge_labels,
                 "node_states": stepper.node_states}
    stepper.run()
    assert state["edge_labels"] == stepper.edge_labels and state["panel"] == stepper.panel


def test_every_synced_trait_is_recorded_so_new_panel_content_comes_along():
    x, stepper = _stepper()
    names = set(export.synced_state(stepper))
    assert {"dot", "panel", "node_states", "edge_labels", "node_notes", "strings",
            "step_index", "total_steps", "kind", "lang"} <= names
    assert not any(n.startswith("_") for n in names)  # not the 800 KB _esm, nor _model_*


def test_save_html_writes_one_self_contained_page(tmp_path):
    x, stepper = _stepper()
    path = stepper.save_html(tmp_path / "stepper.html")
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count(f'id="{export.BUNDLE_ID}"') == 1
    assert BUNDLE.read_text(encoding="utf-8")[:2000] in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # fetches nothing
    assert html.escape(repr(stepper)) in page  # the text form, for a browser without scripts


def test_graphview_pages_have_the_drawing_and_no_steps(tmp_path):
    x = mg.tensor(2., requires_grad=True)
    view = GraphView(x * x, lang="zh")
    page = view.to_html()
    data = _data(page)
    assert data["steps"] == [] and data["state"]["dot"] == view.dot
    assert '<html lang="zh-CN">' in page and "minigrad_widgets：GraphView" in page


def test_the_display_data_has_a_static_view_beside_the_live_widget(monkeypatch):
    monkeypatch.setattr(export, "_request", lambda: (None, None))
    x, stepper = _stepper()
    data, _ = stepper._repr_mimebundle_()
    assert data["text/plain"] == repr(stepper)
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == stepper.model_id
    assert 'data-minigrad-static="stepper"' in data["text/html"]


def test_one_output_per_page_carries_the_bundle(monkeypatch):
    """The first widget shown in the kernel carries it; a re-run of that cell carries it
    again; other widgets and cells refer to it."""
    request = {"value": ("cell-a", "m1")}
    monkeypatch.setattr(export, "_request", lambda: request["value"])
    monkeypatch.setattr(export, "_carried", {"cell": None, "request": None})
    x = mg.tensor(2., requires_grad=True)

    def carries(cell, msg):
        request["value"] = (cell, msg)
        data, _ = GraphView(x * x)._repr_mimebundle_()
        return data["text/html"].count(f'id="{export.BUNDLE_ID}"')

    assert carries("cell-a", "m1") == 1
    assert carries("cell-a", "m1") == 0  # a second widget in the same run of the cell
    assert carries("cell-b", "m2") == 0
    assert carries("cell-b", "m3") == 0
    assert carries("cell-a", "m4") == 1  # cell a run again: its old output is gone
    assert carries("cell-c", "m5") == 0


def test_draw_renders_to_a_file_only_with_dot_and_says_how_to_install_it(tmp_path):
    x = mg.tensor(2., requires_grad=True)
    drawing = draw(x * x)
    assert isinstance(drawing, graphviz.Digraph)
    env = {**os.environ, "PATH": str(tmp_path)}  # no dot anywhere on PATH
    script = ("import minigrad as mg\nfrom minigrad_widgets import draw\n"
              "x = mg.tensor(2., requires_grad=True)\ndraw(x * x).render('out', format='svg')")
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, cwd=tmp_path)
    last = run.stderr.strip().splitlines()[-1]
    assert run.returncode == 1 and last.startswith("minigrad_widgets.dot.GraphvizNotFound: ")
    assert "apt-get install graphviz" in last
    assert "ExecutableNotFound" not in run.stderr.replace("GraphvizNotFound", "")


def test_draw_displays_as_a_graphview_in_a_notebook(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    x = mg.tensor([1., 2.], requires_grad=True)
    drawing = draw((x * x).sum(), names={"x": x})
    drawing._ipython_display_()
    (widget,) = shown
    assert isinstance(widget, GraphView) and widget.dot == drawing.source


def test_graphviz_not_found_is_still_an_executable_not_found():
    assert issubclass(GraphvizNotFound, graphviz.ExecutableNotFound)
    with pytest.raises(graphviz.ExecutableNotFound, match="^rendering a drawing"):
        raise GraphvizNotFound("rendering a drawing to a file needs dot")


def test_recording_a_page_does_not_show_a_failing_backward_before_the_learner_gets_there():
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., 4.], requires_grad=True)
    stepper = BackwardStepper((TwoGrads.apply(x * 3) * w).sum(), names={"x": x, "w": w})
    data = _data(stepper.to_html())  # runs ahead into the failing node, and back
    assert len(data["steps"]) == 3 and stepper.step_index == 0
    assert stepper.counter == f"step 0 / {stepper.total_steps}" and stepper.can_step
    for _ in range(3):
        stepper.step()
    assert stepper.counter.startswith("step 3 /") and "error" not in stepper.node_states.values()
    assert w.grad.tolist() == [6., 12.]
    stepper.step()
    assert stepper.counter.startswith("failed at step 4") and stepper.step_index == 3
    assert stepper.node_states["n3"] == "error"


def test_run_after_recording_stops_at_the_failing_backward_as_before():
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., 4.], requires_grad=True)
    stepper = BackwardStepper((TwoGrads.apply(x * 3) * w).sum(), names={"x": x, "w": w})
    stepper.to_html()
    assert stepper.counter == "step 0 / 6"
    stepper.run()
    assert stepper.counter == "failed at step 4 of 6" and not stepper.can_step


def _replay(data: dict) -> list[dict]:
    states = [dict(data["state"])]
    for delta in data["steps"]:
        state = {**states[-1], **delta["set"]}
        for name, patch in delta["patch"].items():
            state[name] = {**{a: b for a, b in states[-1].get(name, {}).items()
                              if a not in patch["del"]}, **patch["set"]}
        states.append(state)
    return states


def test_a_quiz_page_carries_what_a_click_on_each_node_answers_at_every_step():
    x = mg.tensor(2., requires_grad=True)
    w = mg.tensor(-3., requires_grad=True)
    loss = (w * x + 1.) * x
    quiz = BackwardStepper(loss, names={"x": x, "w": w}, predict=True)
    states = _replay(_data(export.page(quiz)))
    assert len(states) == quiz.total_steps + 1 and quiz.step_index == 0
    for k, state in enumerate(states[:-1]):
        answers = state["answers"]
        right = [nid for nid, a in answers.items() if a["right"]]
        # the node that runs next, or any leaf ready with it (a heap tie is never graded)
        planned = quiz._planned[k]
        assert any(quiz._view.node_of.get(planned) == nid or
                   quiz._view.by_id[nid].tensor is getattr(planned, "variable", None)
                   for nid in right)
        assert len(right) == 1 or all(quiz._view.by_id[nid].kind == "leaf" for nid in right)
        # each recorded answer is what predict() says in the kernel
        for nid, answer in answers.items():
            copy = BackwardStepper((w * x + 1.) * x, names={"x": x, "w": w}, predict=True)
            for _ in range(k):
                copy.step()
            assert answer["section"]["lines"] == [copy.predict(nid)], (k, nid)
            assert answer["section"]["verdict"] == ("right" if answer["right"] else "wrong")
        x.grad = w.grad = None
    assert states[-1]["answers"] == {}


def test_a_stepper_without_the_quiz_carries_no_answers_and_a_huge_quiz_none_either(monkeypatch):
    x, stepper = _stepper()
    assert "answers" not in _data(export.page(stepper))["state"]
    xq = mg.tensor([1., 2.], requires_grad=True)
    quiz = BackwardStepper((xq * 2).sum(), predict=True)
    monkeypatch.setattr(export, "ANSWER_LIMIT", 1)
    assert "answers" not in _data(export.page(quiz))["state"]  # the page then offers no quiz
