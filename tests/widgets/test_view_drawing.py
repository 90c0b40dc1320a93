"""What the drawing shows: gradients on edges, leaf .grad notes, None marks, large graphs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from minigrad_widgets import BackwardStepper, GraphView, build_graph, limit_graph
from minigrad_widgets._format import LABEL_LIMIT, format_array
from minigrad_widgets.i18n import CATALOGUE, front_end_strings
from minigrad_widgets.reduce import size

import minigrad as mg


def _edge_attrs(dot: str) -> dict[str, str]:
    """edge id -> the attribute text of that edge statement."""
    return {m.group(2): m.group(1) for m in re.finditer(r"-> n\d+ \[([^\]]*\bid=(e\d+)[^\]]*)\]",
                                                         dot)}


def _fork():
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., -1.], requires_grad=True)
    y = x * w
    return x, w, y, (y * y + x).sum()


def test_every_widget_draws_one_graph_with_the_same_dot_and_arrows():
    x, w, y, loss = _fork()
    stepper, view = BackwardStepper(loss), GraphView(loss)
    assert stepper.dot == view.dot == stepper.snapshot().dot
    assert not any("dir=back" in a for a in _edge_attrs(view.dot).values())
    flipped = BackwardStepper(loss, arrows="backward")
    gradient_edges = [a for a in _edge_attrs(flipped.dot).values() if "mg-saved" not in a]
    assert all("dir=back" in a or "dir=none" in a for a in gradient_edges)
    assert flipped.dot.replace(" dir=back", "") == GraphView(loss, arrows="backward").dot.replace(
        " dir=back", "") == view.dot.replace(" dir=back", "")
    with pytest.raises(ValueError, match="arrows must be 'forward' or 'backward'"):
        GraphView(loss, arrows="up")


def test_each_edge_is_labelled_with_the_gradient_the_engine_sent_along_it():
    x, w, y, loss = _fork()
    stepper = BackwardStepper(loss, names={"x": x, "w": w, "y": y})
    assert stepper.edge_labels == {}
    g = stepper._graph
    mul_xw = g.node_of[y.grad_fn]
    into = [e.id for e in g.edges if e.dst == mul_xw]
    stepper.run()
    grad_y = 2 * (x * w).detach().numpy()
    expected = [format_array(grad_y * w.detach().numpy(), LABEL_LIMIT),
                format_array(grad_y * x.detach().numpy(), LABEL_LIMIT)]
    assert [stepper.edge_labels[e] for e in into] == expected
    x_node = g.node_of[y.grad_fn.next_functions[0][0]]  # x's AccumulateGrad
    assert stepper.node_notes[x_node] == f".grad = {format_array(x.grad.numpy())}"
    stepper.reset()
    assert stepper.edge_labels == {} and stepper.node_notes == {}


def test_labels_grow_step_by_step_and_back_removes_them():
    x, w, y, loss = _fork()
    stepper = BackwardStepper(loss)
    seen = []
    for _ in range(stepper.total_steps):
        stepper.step()
        seen.append(dict(stepper.edge_labels))
    assert all(a.items() <= b.items() for a, b in zip(seen, seen[1:]))
    stepper.back()
    assert stepper.edge_labels == seen[-2]


def test_a_large_gradient_is_labelled_with_its_shape_and_norm():
    x = mg.ones(10, 10, requires_grad=True)
    stepper = BackwardStepper((x * 2.0).sum(), names={"x": x})
    stepper.run()
    assert "[10, 10] norm 20" in stepper.edge_labels.values()
    assert list(stepper.node_notes.values()) == [".grad = [10, 10] norm 20"]


def test_inputs_that_need_no_gradient_are_small_marks_that_do_not_count():
    x = mg.tensor(1., requires_grad=True)
    y = x
    for k in range(100):
        y = y * 2.0 if k % 2 else y + 1.0
    g = build_graph([y], names={"x": x})
    assert len(g.nodes) == 202 and size(g) == 102
    assert limit_graph(g, 150) is g  # 102 boxes and 100 marks: drawn whole
    none = re.findall(r"\n\s*(n\d+) \[label=None([^\]]*)\]", GraphView(y).dot)
    assert len(none) == 100 and all("shape=point" in attrs for _, attrs in none)


def _alternating_chain(n: int):
    x = mg.tensor(1., requires_grad=True)
    y = x
    for k in range(n):
        y = y * 1.01 if k % 2 else y + 1.0
    return x, y


def test_a_300_op_chain_shows_a_window_that_always_holds_the_current_node():
    x, y = _alternating_chain(300)
    stepper = BackwardStepper(y, names={"x": x}, max_nodes=60)
    assert "n0" in stepper._view.by_id  # at the start: the output end
    for _ in range(stepper.total_steps):
        stepper.step()
        current = [n for n, s in stepper.node_states.items() if s == "current"]
        assert len(current) == 1 and current[0] in stepper._view.by_id
        assert size(stepper._view) <= 62  # the window and at most two "more" marks
    assert re.search(r"id=n\d+", stepper.dot) and "showing 60 around the current node" in \
        stepper.note
    assert x.grad.item() == pytest.approx(1.01 ** 150, rel=1e-5)  # float32


def test_run_moves_the_window_to_the_last_node():
    x, y = _alternating_chain(300)
    stepper = BackwardStepper(y, names={"x": x}, max_nodes=60)
    stepper.run()
    last = stepper._log.records[-1].node
    assert stepper._view.node_of[last] in stepper._view.by_id
    assert "more_up" in stepper._view.by_id and "more" not in stepper._view.by_id


def test_graphview_of_a_long_chain_still_starts_at_the_output():
    x, y = _alternating_chain(300)
    view = GraphView(y, max_nodes=60)
    assert "n0" in view._view.by_id and "graph truncated" in view.note


def test_lang_zh_sends_the_chinese_strings_and_notes():
    x, y = _alternating_chain(300)
    stepper = BackwardStepper(y, names={"x": x}, max_nodes=60, lang="zh")
    stepper.run()
    assert stepper.strings == front_end_strings("zh")
    assert stepper.strings["view.legend"] == "图例"
    assert "只显示当前节点附近" in stepper.note
    assert all(key in CATALOGUE["zh"] for key in CATALOGUE["en"] if key.startswith("view."))


def test_bad_lang_and_scale_are_refused_with_what_was_expected():
    x = mg.tensor(1., requires_grad=True)
    with pytest.raises(ValueError, match="lang must be one of en, zh, got 'fr'"):
        GraphView(x * 2, lang="fr")
    with pytest.raises(ValueError, match="scale must be a positive number, got 0"):
        GraphView(x * 2, scale=0)
    assert GraphView(x * 2, scale=1.5).scale == 1.5


def test_the_seed_gradient_labels_the_output_edge_from_the_first_step():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * 3.0
    stepper = BackwardStepper(y, gradient=mg.tensor([0.5, -1.]))
    stepper.step()
    assert stepper.edge_labels["e0"] == format_array(np.array([0.5, -1.]))
