"""The widgets on real PyTorch 2.13 graphs, with PyTorch's own node names."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from minigrad_widgets import BackwardStepper, GraphView, build_graph, draw
from widget_programs import (
    assert_same_grads,
    assert_same_state,
    grad_state,
    grads_of,
    programs,
    run_program,
)

import minigrad as mg

pytestmark = pytest.mark.torch


def _structure(g):
    nodes = [(n.id, n.kind, n.title, n.name) for n in g.nodes]
    return nodes, [(e.id, e.src, e.dst, e.kind) for e in g.edges]


def _names(leaves):
    return {f"x{i}": t for i, t in enumerate(leaves)}


@given(program=programs())
def test_walker_reads_a_torch_graph_as_it_reads_the_same_minigrad_graph(torch, program):
    t_leaves, t_loss = run_program(torch, program)
    m_leaves, m_loss = run_program(mg, program)
    t_graph = build_graph([t_loss], names=_names(t_leaves))
    m_graph = build_graph([m_loss], names=_names(m_leaves))
    assert _structure(t_graph) == _structure(m_graph)


@given(program=programs())
def test_torch_drawing_equals_the_minigrad_drawing(torch, program):
    t_leaves, t_loss = run_program(torch, program)
    m_leaves, m_loss = run_program(mg, program)
    assert draw(t_loss, names=_names(t_leaves)).source == \
        draw(m_loss, names=_names(m_leaves)).source


def test_torch_node_names_are_pytorchs_own(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x.exp() * x).mean()
    g = build_graph([y], names={"x": x})
    titles = [n.title for n in g.nodes if n.kind in ("backward", "leaf")]
    assert titles == ["MeanBackward0", "MulBackward0", "ExpBackward0",
                      "torch::autograd::AccumulateGrad"]
    leaf = next(n for n in g.nodes if n.kind == "leaf")
    assert leaf.tensor is x and leaf.name == "x"


def test_torch_saved_tensors_are_drawn_and_shown_freed_after_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    saved = [n for n in build_graph([y], names={"x": x}, show_saved=True).nodes
             if n.kind == "saved"]
    assert [(n.title, n.name) for n in saved] == [("_saved_other", "x"), ("_saved_self", "x")]
    view = GraphView(y, names={"x": x}, show_saved=True)
    y.backward()
    view.refresh()
    assert "_saved_other: freed; _saved_self: freed" in repr(view)
    assert "_saved_self" not in [n.title for n in view._view.nodes]


@given(program=programs())
def test_torch_stepper_run_equals_torch_backward(torch, program):
    leaves, loss = run_program(torch, program)
    loss.backward()
    expected = grads_of(leaves)
    leaves, loss = run_program(torch, program)
    initial = grad_state(leaves)
    stepper = BackwardStepper(loss, names=_names(leaves))
    assert_same_state(initial, grad_state(leaves))  # recorded, then put back
    stepper.run()
    assert_same_grads(grads_of(leaves), expected)


@given(program=programs())
def test_torch_stepper_back_then_step_is_a_no_op(torch, program):
    leaves, loss = run_program(torch, program)
    stepper = BackwardStepper(loss)
    for _ in range(stepper.total_steps):
        stepper.step()
        state = grad_state(leaves)
        stepper.back()
        stepper.step()
        assert_same_state(state, grad_state(leaves))
    stepper.reset()
    assert stepper.step_index == 0


@given(program=programs())
def test_torch_steps_come_in_the_order_minigrad_runs_them(torch, program):
    t_leaves, t_loss = run_program(torch, program)
    m_leaves, m_loss = run_program(mg, program)
    orders = []
    for stepper in (BackwardStepper(t_loss), BackwardStepper(m_loss)):
        titles = []
        while stepper.step_index < stepper.total_steps:
            stepper.step()
            titles.append(stepper.panel["title"])
        orders.append(titles)
    assert orders[0] == orders[1]


def test_torch_accumulate_panel_is_the_real_update(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    x.grad = torch.tensor([10., 10.])
    start = x.grad
    stepper = BackwardStepper((x * x).sum(), names={"x": x})
    stepper.run()
    acc = stepper.panel["accumulate"]
    assert (acc["grad_before"], acc["incoming"], acc["grad_after"]) == \
        ("[10., 10.]", "[2., 4.]", "[12., 14.]")
    assert acc["is_same"] == "True" and acc["tensor_id"] == str(id(x))
    assert x.grad is start  # accumulated in place, as PyTorch does
    np.testing.assert_array_equal(x.grad.numpy(), [12., 14.])
    stepper.back()
    assert x.grad is start
    np.testing.assert_array_equal(x.grad.numpy(), [10., 10.])


def test_torch_stepper_with_inputs_and_retain_graph(torch):
    x = torch.tensor(2., requires_grad=True)
    w = torch.tensor(3., requires_grad=True)
    y = x * w + w
    stepper = BackwardStepper(y, inputs=[x], retain_graph=True)
    stepper.run()
    assert x.grad.item() == 3.0 and w.grad is None
    y.backward()  # the graph was retained
    assert x.grad.item() == 6.0


def test_the_stepper_runs_to_the_end_when_grad_is_a_zero_tensor(torch):
    """sgn's gradient is PyTorch's ZeroTensor (minigrad's too): the stepper reads the leaf's
    .grad all the same (it cannot be turned into NumPy without force=True) and shows zeros."""
    shown = []
    for lib in (mg, torch):
        x = lib.tensor([-2., 3.], requires_grad=True)
        stepper = BackwardStepper((x.sgn() * 2).sum())
        while stepper.step_index < stepper.total_steps:
            before = stepper.step_index
            stepper.step()
            assert stepper.step_index == before + 1
        shown.append((stepper.total_steps, x.grad.numpy(force=True).tolist()))
    assert shown[0] == shown[1]
