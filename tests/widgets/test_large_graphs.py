"""Large graphs: repeated chains collapse, the rest is cut with a clear note."""

from __future__ import annotations

import minigrad_widgets.reduce as reduce_module
from helpers import chain
from minigrad_widgets import BackwardStepper, GraphView, build_graph, limit_graph

import minigrad as mg


def _wide(n: int):
    """The sum of n squares, added pairwise: a tree, with no chain of equal nodes."""
    xs = [mg.tensor(float(i), requires_grad=True) for i in range(n)]
    terms = [a * a for a in xs]
    while len(terms) > 1:
        pairs = [terms[i] + terms[i + 1] for i in range(0, len(terms) - 1, 2)]
        terms = pairs + terms[len(pairs) * 2:]
    return xs, terms[0]


def test_small_graphs_are_drawn_whole():
    x, y = chain(10)
    g = build_graph([y], names={})
    assert limit_graph(g) is g and g.note == ""


def test_a_chain_of_998_multiplications_collapses_to_one_node():
    x, y = chain(998)
    view = limit_graph(build_graph([y], names={"x": x}))
    chains = [n for n in view.nodes if n.kind == "chain"]
    assert len(chains) == 1 and len(chains[0].members) == 998
    assert len(view.nodes) == 4
    assert view.note == "large graph (1998 nodes): collapsed MulBackward0 ×998"
    assert all(e.src in view.by_id and e.dst in view.by_id for e in view.edges)


def test_a_graph_without_chains_is_truncated_with_a_note():
    xs, total = _wide(200)
    g = build_graph([total], names={})
    view = limit_graph(g, max_nodes=150)
    assert len(view.nodes) == 151 and view.nodes[-1].kind == "more"
    assert "graph truncated: showing the first 150 of" in view.note
    assert [n.id for n in view.nodes[:150]] == [n.id for n in g.nodes[:150]]
    assert all(e.src in view.by_id and e.dst in view.by_id for e in view.edges)


def test_the_limit_is_configurable():
    x, y = chain(20)
    assert len(limit_graph(build_graph([y], names={}), max_nodes=10).nodes) < 10
    old = reduce_module.MAX_NODES
    reduce_module.MAX_NODES = 1000
    try:
        assert GraphView(y).note == ""
    finally:
        reduce_module.MAX_NODES = old
    assert "collapsed MulBackward0 ×20" in GraphView(y, max_nodes=10).note


def test_the_widget_says_what_it_left_out():
    xs, total = _wide(300)
    view = GraphView(total)
    assert view.note.startswith("graph truncated: showing the first 150 of")
    assert view.dot.count(" [label=") == 151
    assert repr(view).splitlines()[1] == f"note: {view.note}"


def test_a_stepper_on_a_collapsed_chain_marks_the_chain_current_until_it_is_done():
    x, y = chain(500)
    stepper = BackwardStepper(y, names={"x": x})
    assert stepper.total_steps == 501
    assert set(stepper.node_states) == {"n0", "n1", "n1000"}
    stepper.step()
    assert stepper.node_states["n1"] == "current"
    for _ in range(499):
        stepper.step()
    assert stepper.node_states["n1"] == "current"
    stepper.step()
    assert stepper.node_states == {"n0": "done", "n1": "done", "n1000": "current"}
    assert x.grad.item() == 1.0


def test_a_stepper_on_a_large_graph_draws_a_window_that_follows_the_current_node():
    xs, total = _wide(200)
    stepper = BackwardStepper(total)
    layouts = {stepper.dot}
    while stepper.step_index < stepper.total_steps:
        stepper.step()
        drawn = set(stepper._view.by_id)
        assert set(stepper.node_states) <= drawn and set(stepper.edge_states) <= {
            e.id for e in stepper._view.edges}
        assert "current" in stepper.node_states.values()
        layouts.add(stepper.dot)
    assert 1 < len(layouts) < stepper.total_steps / 4  # moved, but not at every step
    assert all(x.grad.item() == 2 * x.item() for x in xs)
