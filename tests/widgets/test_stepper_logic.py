"""BackwardStepper without a browser: its steps are the engine's, and back() undoes them exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from minigrad_widgets import BackwardStepper
from minigrad_widgets._format import format_value
from widget_programs import (
    assert_same_grads,
    assert_same_state,
    grad_state,
    grads_of,
    programs,
    run_program,
    stepper_at_a_product,
)

import minigrad as mg
from minigrad.autograd import engine


@given(programs())
def test_stepping_to_the_end_equals_backward(program):
    leaves, loss = run_program(mg, program)
    loss.backward()
    expected = grads_of(leaves)
    leaves, loss = run_program(mg, program)
    stepper = BackwardStepper(loss, names={f"x{i}": t for i, t in enumerate(leaves)})
    while stepper.step_index < stepper.total_steps:
        stepper.step()
    assert_same_grads(grads_of(leaves), expected)
    stepper.step()  # past the end: nothing happens
    assert_same_grads(grads_of(leaves), expected)


@given(programs())
def test_run_leaves_the_same_objects_as_backward_would(program):
    leaves, loss = run_program(mg, program)
    starts = [t.grad for t in leaves]
    BackwardStepper(loss).run()
    for t, g in zip(leaves, starts):
        if g is not None:  # PyTorch (and minigrad) accumulate into an existing .grad in place
            assert t.grad is g


@given(programs())
def test_back_then_step_is_a_no_op_on_every_grad(program):
    leaves, loss = run_program(mg, program)
    stepper = BackwardStepper(loss)
    stepper.run()
    stepper.reset()
    for _ in range(stepper.total_steps):
        stepper.step()
        state = grad_state(leaves)
        stepper.back()
        stepper.step()
        assert_same_state(state, grad_state(leaves))


@given(programs())
def test_back_restores_the_grads_before_each_step(program):
    leaves, loss = run_program(mg, program)
    stepper = BackwardStepper(loss)
    states = [grad_state(leaves)]
    while stepper.step_index < stepper.total_steps:
        stepper.step()
        states.append(grad_state(leaves))
    for k in range(len(states) - 1, 0, -1):
        assert_same_state(states[k], grad_state(leaves))
        stepper.back()
    assert_same_state(states[0], grad_state(leaves))
    assert stepper.step_index == 0


@given(programs())
def test_reset_then_run_again_gives_the_backward_result(program):
    leaves, loss = run_program(mg, program)
    initial = grad_state(leaves)
    stepper = BackwardStepper(loss)
    stepper.step()
    stepper.reset()
    assert_same_state(initial, grad_state(leaves))
    stepper.run()
    final = grad_state(leaves)
    stepper.reset()
    assert_same_state(initial, grad_state(leaves))
    stepper.run()
    assert_same_state(final, grad_state(leaves))


@given(programs())
def test_accumulate_panel_shows_the_real_grad_before_and_after(program):
    leaves, loss = run_program(mg, program)
    names = {f"x{i}": t for i, t in enumerate(leaves)}
    stepper = BackwardStepper(loss, names=names)
    seen = 0
    while stepper.step_index < stepper.total_steps:
        before = {n: format_value(t.grad) for n, t in names.items()}
        stepper.step()
        acc = stepper.panel.get("accumulate")
        if acc is None:
            continue
        seen += 1
        x = names[acc["variable_name"]]
        assert acc["grad_before"] == before[acc["variable_name"]]
        assert acc["grad_after"] == format_value(x.grad)
        assert acc["is_same"] == "True"
        assert acc["variable_id"] == acc["tensor_id"] == str(id(x))
    assert seen == len(set(id(t) for t in leaves if _in_graph(t, loss)))


def _in_graph(t, loss) -> bool:
    return any(getattr(n, "variable", None) is t for n in engine.execution_order(loss))


def test_total_steps_is_the_engine_execution_order():
    x = mg.tensor([1., 2.], requires_grad=True)
    loss = (x.exp() * x).sum() if hasattr(x, "exp") else (x * x * x).sum()
    stepper = BackwardStepper(loss)
    order = engine.execution_order(loss)
    assert stepper.total_steps == len(order)
    names = []
    while stepper.step_index < stepper.total_steps:
        stepper.step()
        names.append(stepper.panel["title"].split(": ", 1)[1].split(" #")[0])
    assert names == [n.name() for n in order]


def test_grads_change_for_real_between_steps():
    x = mg.tensor(2., requires_grad=True)
    stepper = BackwardStepper(x * x + x, names={"x": x})
    stepper.step()
    stepper.step()
    assert x.grad is None
    stepper.step()
    assert x.grad.item() == 5.0
    assert stepper.panel["accumulate"]["grad_after"] == "5."
    stepper.back()
    assert x.grad is None


def test_panel_shows_grads_in_and_out_of_the_current_node():
    stepper = stepper_at_a_product("x", "w")
    lines = stepper.panel["lines"]
    assert stepper.panel["title"] == "Step 2/4: MulBackward0"
    assert "  [0] [1., 1.]" in lines
    assert "  [0] → x (torch::autograd::AccumulateGrad): [3., 4.]" in lines
    assert "  [1] → w (torch::autograd::AccumulateGrad): [1., 2.]" in lines


def test_large_gradients_show_shape_and_norm():
    x = mg.ones(10, 10, requires_grad=True)
    stepper = BackwardStepper((x * 3.0).sum())
    stepper.run()
    assert stepper.panel["accumulate"]["grad_after"] == "shape [10, 10], norm 30, min 3, max 3"


def test_node_and_edge_states_follow_the_steps():
    x = mg.tensor(2., requires_grad=True)
    stepper = BackwardStepper((x * 3.0).sum(), names={"x": x})
    # n0 output, n1 SumBackward0, n2 MulBackward0, n3 x, n4 the constant's None
    assert stepper.node_states == {"n0": "done", "n1": "pending", "n2": "pending",
                                   "n3": "pending"}
    stepper.step()
    stepper.step()
    assert stepper.node_states == {"n0": "done", "n1": "done", "n2": "current",
                                   "n3": "pending"}
    assert stepper.edge_states == {"e0": "done", "e1": "done", "e2": "active", "e3": "active"}
    stepper.back()
    assert stepper.node_states["n1"] == "current" and stepper.node_states["n2"] == "pending"


def test_inputs_runs_only_the_nodes_leading_to_them():
    x = mg.tensor(2., requires_grad=True)
    w = mg.tensor(3., requires_grad=True)
    stepper = BackwardStepper(x * w + w, inputs=[x])
    total = stepper.total_steps
    stepper.run()
    assert stepper.total_steps == total == stepper.step_index
    assert x.grad.item() == 3.0 and w.grad is None


def test_gradient_argument_seeds_backward():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * x
    stepper = BackwardStepper(y, gradient=mg.tensor([1., 10.]))
    assert "gradient [ 1., 10.]" in stepper.panel["lines"][0]
    stepper.run()
    np.testing.assert_array_equal(x.grad.numpy(), [2., 40.])


def test_graph_is_freed_after_the_last_step_without_retain_graph():
    x = mg.tensor(2., requires_grad=True)
    y = x * x
    BackwardStepper(y).run()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_retain_graph_keeps_the_graph_for_another_backward():
    x = mg.tensor(2., requires_grad=True)
    y = x * x
    BackwardStepper(y, retain_graph=True).run()
    y.backward()
    assert x.grad.item() == 8.0


def test_back_undoes_only_the_step_not_a_change_made_by_hand_before_it():
    x = mg.tensor(2., requires_grad=True)
    stepper = BackwardStepper(x * x)
    stepper.step()
    mine = mg.tensor(100.)
    x.grad = mine
    stepper.step()
    assert x.grad is mine and mine.item() == 104.0
    stepper.back()
    assert x.grad is mine and mine.item() == 100.0


def test_create_graph_gives_grads_that_have_a_graph():
    x = mg.tensor(3., requires_grad=True)
    mg._state.warned.discard("create_graph")  # PyTorch gives this warning once per process
    with pytest.warns(UserWarning, match="reference cycle"):
        stepper = BackwardStepper(x * x * x, create_graph=True)
    stepper.run()
    assert x.grad.grad_fn is not None and x.grad.item() == 27.0
    stepper.back()
    stepper.step()
    assert x.grad.item() == 27.0


def test_retained_grad_of_a_named_intermediate_is_stepped_too():
    x = mg.tensor(2., requires_grad=True)
    y = x * 3.0
    y.retain_grad()
    z = y * y
    stepper = BackwardStepper(z, names={"x": x, "y": y})
    stepper.run()
    assert y.grad.item() == 12.0
    stepper.reset()
    assert y.grad is None and x.grad is None


def test_buttons_send_events_that_call_the_python_twins():
    x = mg.tensor(2., requires_grad=True)
    stepper = BackwardStepper(x * x)
    for event, index in [("step", 1), ("step", 2), ("back", 1), ("run", 2), ("reset", 0)]:
        stepper._on_msg(stepper, {"event": event}, [])
        assert stepper.step_index == index
    stepper._on_msg(stepper, {"event": "nonsense"}, [])
    assert stepper.step_index == 0


def test_reaching_the_end_stops_play():
    x = mg.tensor(2., requires_grad=True)
    stepper = BackwardStepper(x * x)
    stepper.playing = True
    stepper.step()
    assert stepper.playing
    stepper.step()
    assert not stepper.playing


@given(programs(), st.data())
def test_total_steps_with_inputs_is_what_the_engine_runs(program, data):
    n = len(program[0])
    picked = data.draw(st.lists(st.integers(0, n - 1), min_size=1, unique=True))
    leaves, loss = run_program(mg, program)
    loss.backward(inputs=[leaves[k] for k in picked])
    expected = grads_of(leaves)
    leaves, loss = run_program(mg, program)
    stepper = BackwardStepper(loss, inputs=[leaves[k] for k in picked])
    planned = stepper.total_steps
    stepper.run()
    assert stepper.step_index == stepper.total_steps == planned
    assert_same_grads(grads_of(leaves), expected)


def test_a_non_scalar_loss_without_gradient_raises_at_once():
    x = mg.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        BackwardStepper(x * 2.0)
    assert x.grad is None


def test_back_restores_an_existing_grad_in_place_like_the_engine_changed_it():
    x = mg.tensor([1., 2.], requires_grad=True)
    x.grad = mg.tensor([10., 10.])
    memory = x.grad.numpy()  # shares the grad's storage
    stepper = BackwardStepper((x * x).sum())
    stepper.run()
    np.testing.assert_array_equal(memory, [12., 14.])
    stepper.back()
    np.testing.assert_array_equal(memory, [10., 10.])
    stepper.step()
    np.testing.assert_array_equal(memory, [12., 14.])
