"""The graph model: stable ids in walk order, every edge kept, names found, no recursion."""

from __future__ import annotations

import subprocess
import sys

from helpers import chain
from minigrad_widgets import build_graph
from minigrad_widgets.names import caller_names

import minigrad as mg


def _edges(g):
    return [(e.src, e.dst, e.kind) for e in g.edges]


def test_ids_follow_the_walk_from_the_output():
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor(3., requires_grad=True)
    loss = (x * w).sum() + w
    g = build_graph([loss], names={"x": x, "w": w, "loss": loss})
    assert [(n.id, n.kind, n.name if n.tensor is not None else n.title) for n in g.nodes] == [
        ("n0", "output", "loss"), ("n1", "backward", "AddBackward0"),
        ("n2", "backward", "SumBackward0"), ("n3", "leaf", "w"),
        ("n4", "backward", "MulBackward0"), ("n5", "leaf", "x")]
    assert _edges(g) == [("n1", "n0", "output"), ("n2", "n1", "grad"), ("n3", "n1", "grad"),
                         ("n4", "n2", "grad"), ("n5", "n4", "grad"), ("n3", "n4", "grad")]
    assert [e.id for e in g.edges] == [f"e{k}" for k in range(6)]


def test_same_code_gives_the_same_model_in_another_process():
    code = ("import minigrad as torch\nfrom minigrad_widgets import build_graph\n"
            "x = torch.tensor([1., 2.], requires_grad=True)\n"
            "y = (x * x + x * 2.0).sum()\n"
            "g = build_graph([y])\n"
            "print([(n.id, n.kind, n.title, n.name) for n in g.nodes])\n"
            "print([(e.id, e.src, e.dst, e.kind) for e in g.edges])\n")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1] and "'leaf', 'torch::autograd::AccumulateGrad', 'x'" in runs[0]


def test_a_reused_input_keeps_both_edges():
    x = mg.tensor(2., requires_grad=True)
    g = build_graph([x * x], names={})
    assert _edges(g) == [("n1", "n0", "output"), ("n2", "n1", "grad"), ("n2", "n1", "grad")]


def test_inputs_that_need_no_gradient_are_none_nodes():
    x = mg.tensor(2., requires_grad=True)
    g = build_graph([x * 2.0], names={})
    assert [n.kind for n in g.nodes] == ["output", "backward", "leaf", "none"]
    assert _edges(g)[-1] == ("n3", "n1", "none")


def test_a_diamond_is_walked_once_per_node():
    x = mg.tensor(2., requires_grad=True)
    a = x * 3.0
    y = a * a + a
    g = build_graph([y], names={"a": a})
    muls = [n for n in g.nodes if n.title == "MulBackward0"]
    assert [n.name for n in muls] == ["", "a"]
    assert sum(1 for e in g.edges if e.src == muls[1].id) == 3


def test_a_long_chain_needs_no_recursion():
    _, y = chain(5000)
    g = build_graph([y], names={})
    assert len(g.nodes) == 1 + 5000 * 2 + 1


def test_several_outputs_are_walked_in_order():
    x = mg.tensor(2., requires_grad=True)
    a, b = x * 2.0, x + 1.0
    g = build_graph([a, b], names={"a": a, "b": b, "x": x})
    assert [(n.kind, n.name or n.title) for n in g.nodes] == [
        ("output", "a"), ("backward", "MulBackward0"), ("output", "b"),
        ("backward", "AddBackward0"), ("leaf", "x"), ("none", ""), ("none", "")]
    assert all(g.by_id[e.src].marked for e in g.edges if e.kind == "output")


def test_a_leaf_output_has_no_grad_fn_to_walk():
    x = mg.tensor(2., requires_grad=True)
    g = build_graph([x], names={"x": x})
    assert [(n.kind, n.name) for n in g.nodes] == [("output", "x")] and g.edges == []


def test_saved_tensors_and_values_on_request():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    plain = build_graph([y], names={"x": x})
    assert [n.kind for n in plain.nodes].count("saved") == 0
    g = build_graph([y], names={"x": x}, show_saved=True)
    saved = [n for n in g.nodes if n.kind == "saved"]
    assert [(n.title, n.name, n.tensor is x) for n in saved] == [
        ("_saved_other", "x", True), ("_saved_self", "x", True)]
    assert all(e.kind == "saved" for e in g.edges if e.src in {n.id for n in saved})
    sum_node = g.nodes[1]
    assert sum_node.extra == [f"_saved_self_sym_sizes = {sum_node.obj._saved_self_sym_sizes}"]


def test_freed_saved_tensors_are_reported_not_raised():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    g = build_graph([y], names={"x": x}, show_saved=True)
    assert g.nodes[2].extra == ["_saved_other: freed", "_saved_self: freed"]


def test_names_are_found_in_the_callers_namespace():
    weight = mg.tensor([1., 2.], requires_grad=True)
    hidden = weight * 2.0
    _private = hidden
    g = build_graph([(hidden * hidden).sum()])
    assert [n.name for n in g.nodes if n.kind in ("leaf", "backward")] == [
        "", "", "hidden", "weight"]
    assert _private is hidden


def test_names_of_module_parameters_are_found():
    class Module:  # anything with named_parameters(), like nn.Module
        def __init__(self):
            self.w = mg.tensor(2., requires_grad=True)

        def named_parameters(self):
            return [("w", self.w)]

    model = Module()
    names = caller_names()
    assert names.name_of(model.w) == "model.w"


def test_only_graph_tensors_are_kept_by_the_model():
    x = mg.tensor(2., requires_grad=True)
    other = mg.tensor(5., requires_grad=True)
    g = build_graph([x * x], names={"x": x, "other": other})
    assert dict(g.names.items()) == {"x": x}
