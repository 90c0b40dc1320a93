"""The stepper as a teaching and debugging instrument, without a browser: the chain rule and
contributions in the panel, breakpoints, numerical checks, errors on the node, predictions,
snapshots."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import custom_functions
from hypothesis import given
from minigrad_widgets import BackwardStepper
from minigrad_widgets.text import panel_text
from widget_programs import programs, run_program, stepper_at_a_product

import minigrad as mg


def _section(stepper, kind):
    found = [s for s in stepper.panel.get("sections", []) if s["kind"] == kind]
    return found[0] if found else None


_FUNCTIONS = custom_functions(mg)
MulConstant, MulConstantWrong, TwoGrads = (_FUNCTIONS[name] for name in
                                           ("MulConstant", "MulConstantWrong", "TwoGrads"))


# ---------------------------------------------------------------- the chain rule on screen
def test_the_panel_shows_the_rule_with_the_steps_numbers():
    stepper = stepper_at_a_product("a", "b")
    rule = _section(stepper, "rule")["lines"]
    # the rule's own letters are the learner's names here, and mean the same tensors
    assert rule == ["result = a * b", "grad_a = grad * b = [1., 1.] * [3., 4.] = [3., 4.]",
                    "    → a (torch::autograd::AccumulateGrad)",
                    "grad_b = grad * a = [1., 1.] * [1., 2.] = [1., 2.]",
                    "    → b (torch::autograd::AccumulateGrad)"]


def test_large_tensors_show_shape_and_norm_in_the_rule():
    x = mg.ones(10, 10, requires_grad=True)
    stepper = BackwardStepper((x.exp()).sum())
    stepper.step()
    stepper.step()
    lines = _section(stepper, "rule")["lines"]
    assert lines[1] == ("grad_x = grad * result = shape [10, 10], norm 27.18, min 2.718, "
                        "max 2.718")
    assert lines[-1] == "where result = shape [10, 10], norm 27.18, min 2.718, max 2.718"


def test_a_custom_function_shows_your_backward():
    a = mg.tensor([1., 2.], requires_grad=True)
    stepper = BackwardStepper(MulConstant.apply(a, 5).sum())
    stepper.step()
    stepper.step()
    lines = _section(stepper, "rule")["lines"]
    assert lines[0] == "MulConstant.backward: your backward computed these gradients"
    assert lines[1].endswith(": [5., 5.]")


def test_a_fork_lists_each_contribution_and_their_sum():
    x = mg.tensor(-1.25, requires_grad=True)
    stepper = BackwardStepper(x * 2 + x * 2, names={"x": x})
    stepper.run()
    lines = _section(stepper, "contrib")["lines"]
    assert lines == ["2.  ← from MulBackward0 #2, edge 0", "2.  ← from MulBackward0 #1, edge 0",
                     "summed where the 2 paths meet (before this node runs) = 4."]
    assert stepper.panel["accumulate"]["equation"] == "x.grad: None + 4. = 4."


@given(programs())
def test_the_panel_lists_every_contribution_at_every_fork(program):
    leaves, loss = run_program(mg, program)
    stepper = BackwardStepper(loss)
    while stepper.step_index < stepper.total_steps:
        stepper.step()
        rec = stepper._log.records[stepper.step_index - 1]
        lines = _section(stepper, "contrib")["lines"]
        arrived = sum(len(e) for e in rec.contribs)
        assert sum("←" in line for line in lines) == arrived
        for entry, g in zip(rec.contribs, rec.grads_in):
            if len(entry) > 1:
                np.testing.assert_allclose(sum(c[2] for c in entry), g)
                assert any(line.startswith("summed where the") for line in lines)


# Two different things, never one name: gradients summed where paths meet (one backward
# pass, in a node's input buffer) and .grad accumulating across passes (AccumulateGrad only).
_FORK_WORDS = {"en": ("summed where the 2 paths meet", "accumulat"),
               "zh": ("多路径梯度相加", "梯度累加")}


def _fork_program(lib):
    x = lib.tensor([1., 2.], requires_grad=True)
    h = x * 3                       # h feeds both factors of h * h: a fork at MulBackward0
    return x, (h * h).sum()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lib", ["minigrad", "torch"])
def test_at_a_fork_the_panel_says_summed_where_paths_meet_not_accumulation(lang, lib, request):
    L = request.getfixturevalue("torch") if lib == "torch" else mg
    x, loss = _fork_program(L)
    stepper = BackwardStepper(loss, names={"x": x}, lang=lang)
    stepper.step()                  # SumBackward0
    stepper.step()                  # MulBackward0 of h * h
    stepper.step()                  # MulBackward0 of x * 3: two gradients meet here
    rec = stepper._log.records[2]
    assert rec.acc is None and len(rec.contribs[0]) == 2
    text = "\n".join(panel_text(stepper.panel))
    summed, accumulation = _FORK_WORDS[lang]
    assert summed in text
    assert accumulation not in text.replace("AccumulateGrad", "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_only_an_accumulate_grad_step_speaks_of_accumulation(lang):
    x, loss = _fork_program(mg)
    stepper = BackwardStepper(loss, names={"x": x}, lang=lang)
    _, accumulation = _FORK_WORDS[lang]
    spoken = []
    while stepper.step_index < stepper.total_steps:
        stepper.step()
        text = "\n".join(panel_text(stepper.panel)).replace("AccumulateGrad", "")
        spoken.append((stepper.panel["title"], accumulation in text))
    assert [said for _, said in spoken] == [False, False, False, True], spoken
    assert "AccumulateGrad" in spoken[-1][0]


def test_pytorch_graphs_get_the_same_rules_and_contributions(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    stepper = BackwardStepper((x * x).sum(), names={"x": x})
    stepper.step()
    stepper.step()
    assert _section(stepper, "rule")["lines"][1].startswith(  # x * x: both inputs are x
        "grad_self = grad * other = [1., 1.] * [1., 2.] = [1., 2.]")
    stepper.step()
    assert _section(stepper, "contrib")["lines"] == [
        "[1., 2.]  ← from MulBackward0, edge 0", "[1., 2.]  ← from MulBackward0, edge 1",
        "summed where the 2 paths meet (before this node runs) = [2., 4.]"]


# ---------------------------------------------------------------- breakpoints
def _sqrt_graph():
    x = mg.tensor([0., 4.], requires_grad=True)
    y = x.sqrt()
    return x, y, (y * 2).sum()


def test_run_until_nonfinite_stops_at_the_first_node_that_makes_an_inf():
    x, y, loss = _sqrt_graph()
    stepper = BackwardStepper(loss, names={"x": x, "y": y})
    stepper.run(until="nonfinite")
    assert stepper.panel["title"] == "Step 3/4: SqrtBackward0"
    assert stepper.node_states["n3"] == "flagged"
    assert _section(stepper, "flag") is not None
    assert x.grad is None  # the leaf has not been reached
    stepper.run()
    assert stepper.node_states["n3"] == "flagged" and np.isinf(x.grad.numpy()[0])


def test_run_until_a_node_stops_before_it():
    x, y, loss = _sqrt_graph()
    for until in ("SqrtBackward0", "n3", "y", y):
        stepper = BackwardStepper(loss, names={"x": x, "y": y}, retain_graph=True)
        stepper.run(until=until)
        assert stepper.step_index == 2 and stepper.panel["title"] == "Step 2/4: MulBackward0"
        stepper.reset()


def test_run_until_a_predicate_on_the_step():
    x, y, loss = _sqrt_graph()
    stepper = BackwardStepper(loss, names={"x": x})
    stepper.run(until=lambda step: step.is_accumulate)
    assert stepper.step_index == 4 and x.grad is not None


def test_run_until_an_unknown_node_says_what_to_give():
    x, _, loss = _sqrt_graph()
    with pytest.raises(ValueError, match="no node 'ExpBackward0' in this graph"):
        BackwardStepper(loss).run(until="ExpBackward0")


# ---------------------------------------------------------------- numerical checks
def test_check_flags_the_wrong_mul_constant_and_passes_the_right_one():
    a = mg.tensor([1., 2.], requires_grad=True)
    wrong = BackwardStepper(MulConstantWrong.apply(a, 5), gradient=mg.ones(2), check=True)
    wrong.step()
    check = _section(wrong, "check")
    assert check["ok"] is False
    assert check["lines"] == ["your backward sent [1., 1.]; the forward's numerical VJP is "
                              "[5., 5.]"]
    assert wrong.node_states["n1"] == "flagged"
    right = BackwardStepper(MulConstant.apply(a, 5), gradient=mg.ones(2), check=True)
    right.step()
    assert _section(right, "check")["ok"] is True
    assert right.node_states["n1"] == "current"


def test_check_reports_an_input_modified_in_place_instead_of_using_it():
    a = mg.tensor([1., 2.], requires_grad=True)
    b = a * 1.0
    c = MulConstant.apply(b, 5)
    stepper = BackwardStepper(c.sum(), check=True)
    with mg.no_grad():
        b.add_(1)
    stepper.step()
    stepper.step()
    assert _section(stepper, "check")["lines"][0].startswith("not checked: input 0 was "
                                                             "modified in place")


def test_without_check_nothing_is_kept_or_checked():
    a = mg.tensor([1., 2.], requires_grad=True)
    stepper = BackwardStepper(MulConstantWrong.apply(a, 5).sum())
    stepper.run()
    assert stepper._kept == {} and all(r.check is None for r in stepper._log.records)


def test_check_all_checks_every_node_by_its_forward_or_else_by_its_rule():
    x = mg.tensor([1., 2.], requires_grad=True)
    stepper = BackwardStepper((x.exp() * x).sum(), check="all")
    stepper.step()  # SumBackward0: its forward is not one NumPy expression of saved inputs
    assert _section(stepper, "check")["lines"] == ["the gradients sent agree with the "
                                                   "node's rule ✓"]
    stepper.step()  # MulBackward0: z = a * b, both saved
    assert _section(stepper, "check")["lines"] == ["the gradients sent agree with the "
                                                   "forward's numerical VJP ✓"]


# ---------------------------------------------------------------- errors on the node
def test_an_exception_in_backward_marks_the_node_and_keeps_the_grads_consistent():
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., 4.], requires_grad=True)
    loss = (TwoGrads.apply(x * 3) * w).sum()
    stepper = BackwardStepper(loss, names={"x": x, "w": w})
    stepper.run()
    assert stepper.counter == f"failed at step 4 of {stepper.total_steps}"
    assert stepper.node_states["n3"] == "error" and not stepper.can_step
    error = _section(stepper, "error")["lines"]
    assert error[0] == "the backward of TwoGradsBackward raised an error:"
    assert "incorrect number of gradients (expected 1, got 2)" in error[1]
    assert w.grad.tolist() == [6., 12.] and x.grad is None  # w's step ran, x's never did
    stepper.back()
    assert w.grad is None and stepper.counter.startswith("step 2 /") and stepper.can_step
    stepper.step()
    assert w.grad.tolist() == [6., 12.]
    stepper.step()
    assert stepper.counter.startswith("failed at step 4") and isinstance(stepper.error,
                                                                         RuntimeError)
    stepper.reset()
    assert w.grad is None and x.grad is None and stepper.step_index == 0


def test_a_stepper_on_an_already_used_graph_says_so_when_made():
    x = mg.tensor(2., requires_grad=True)
    y = x * x
    y.backward()
    for lang, words in [("en", "this graph was already used by backward(); run the cell "
                         "that computes the loss again"),
                        ("zh", "这个计算图已经被 backward() 用过了")]:
        stepper = BackwardStepper(y, lang=lang)
        assert words in stepper.note and not stepper.can_step
        stepper.step()
        assert stepper.step_index == 0 and x.grad.item() == 4.0


def test_a_used_pytorch_graph_says_so_too(torch):
    x = torch.tensor(2., requires_grad=True)
    y = x * x
    y.backward()
    assert "already used by backward()" in BackwardStepper(y).note


# ---------------------------------------------------------------- prediction
def _predict_graph():
    x = mg.tensor(2., requires_grad=True)
    w = mg.tensor(3., requires_grad=True)
    y = x * w
    return x, w, y, y * y + w


def test_prediction_scores_the_first_guess_of_each_step_and_says_why():
    x, w, y, z = _predict_graph()
    stepper = BackwardStepper(z, predict=True, names={"x": x, "w": w, "y": y})
    assert stepper.predict("x").startswith("Not x (torch::autograd::AccumulateGrad) yet: it "
                                           "still waits for gradients from MulBackward0")
    assert stepper.step_index == 0
    assert stepper.predict("AddBackward0").startswith("Right: AddBackward0 runs next.")
    assert stepper.step_index == 1 and stepper.score == (0, 1)  # only the first guess counts
    stepper.step()  # a step taken without a guess is not scored
    assert stepper.predict("y").startswith("Right: MulBackward0 (y.grad_fn)")
    assert stepper.score == (1, 2)
    assert stepper.predict("AddBackward0").startswith("Not AddBackward0: it has already run")
    assert stepper.score == (1, 3) and str(stepper.score) == "1/3"
    # x and w are both ready leaves: a tie. Guessing w is right; the engine's heap runs x
    # first, so the stepper runs x, then w, and counts both steps right.
    assert stepper.predict("w").startswith(
        "Right: w (torch::autograd::AccumulateGrad) is ready. It and x "
        "(torch::autograd::AccumulateGrad) are leaves whose gradients have all arrived: a tie")
    assert stepper.step_index == stepper.total_steps == 5
    assert stepper.score == (2, 4) and str(stepper.score) == "2/4"  # step 2 was not asked


def test_the_leaf_the_engine_picks_from_a_tie_is_right_and_the_tie_is_named():
    x, w, y, z = _predict_graph()
    stepper = BackwardStepper(z, predict=True, names={"x": x, "w": w, "y": y})
    for guess in ("AddBackward0", "MulBackward0", "y"):
        stepper.predict(guess)
    assert stepper.predict("x").startswith(
        "Right: x (torch::autograd::AccumulateGrad) runs next. w "
        "(torch::autograd::AccumulateGrad) was ready too: leaves whose gradients have all "
        "arrived are a tie, so either order is right")
    assert stepper.predict("w").startswith("Right: w (torch::autograd::AccumulateGrad) runs")
    assert stepper.score == (5, 5)


def test_prediction_by_clicking_a_node_in_the_browser():
    x, w, y, z = _predict_graph()
    stepper = BackwardStepper(z, predict=True, names={"x": x, "w": w, "y": y})
    stepper._on_msg(stepper, {"event": "node_click", "node": "n1"}, [])
    assert stepper.step_index == 1
    assert _section(stepper, "predict")["verdict"] == "right"


def test_prediction_mode_text_lists_only_the_steps_taken():
    x, w, y, z = _predict_graph()
    stepper = BackwardStepper(z, predict=True, names={"x": x, "w": w, "y": y})
    stepper.step()
    text = repr(stepper)
    assert "AddBackward0" in text and "pending" not in text and "y.grad_fn" not in text
    assert "predictions right: 0 of 0" in text


# ---------------------------------------------------------------- snapshots
def test_a_snapshot_stays_frozen_while_the_stepper_moves_on():
    x = mg.tensor([1., 2.], requires_grad=True)
    stepper = BackwardStepper((x * x).sum(), names={"x": x})
    stepper.step()
    snap = stepper.snapshot()
    state = (snap.panel, snap.node_states, snap.edge_states, snap.step_index, snap.counter)
    text = repr(stepper)
    stepper.run()
    assert not hasattr(snap, "step")
    assert (snap.panel, snap.node_states, snap.edge_states, snap.step_index,
            snap.counter) == state
    assert repr(snap) == text and snap.frozen and not snap.can_step
    assert snap.dot == stepper.dot


def test_a_leaf_used_many_times_lists_the_first_contributions_and_counts_the_rest():
    w = mg.tensor(1.0, requires_grad=True)
    y = mg.tensor(2.0, requires_grad=True)
    for _ in range(20):
        y = y * w
    stepper = BackwardStepper(y, names={"w": w})
    stepper.run()
    lines = _section(stepper, "contrib")["lines"]
    assert sum("←" in line for line in lines) == 12
    assert lines[-2:] == ["… and 8 more",
                          "summed where the 20 paths meet (before this node runs) = 40."]


def _contributions(stepper):
    out = []
    while stepper.step_index < stepper.total_steps:
        stepper.step()
        rec = stepper._log.records[stepper.step_index - 1]
        out.append((rec.name, [[(None if s is None else s.name(), e, np.asarray(g, float))
                                for s, e, g in entry] for entry in rec.contribs]))
    return out


@given(program=programs())
def test_pytorch_contributions_from_the_record_equal_minigrads_from_the_engine(torch, program):
    mine = _contributions(BackwardStepper(run_program(mg, program)[1]))
    theirs = _contributions(BackwardStepper(run_program(torch, program)[1]))
    assert [name for name, _ in mine] == [name for name, _ in theirs]
    for (name, a), (_, b) in zip(mine, theirs):
        assert [[(s, e) for s, e, _ in entry] for entry in a] == \
            [[(s, e) for s, e, _ in entry] for entry in b], name
        for ea, eb in zip(a, b):
            for (_, _, ga), (_, _, gb) in zip(ea, eb):
                np.testing.assert_allclose(ga, gb, rtol=1e-12)


def test_check_all_passes_every_op_of_the_op_table_mostly_by_finite_differences():
    from op_table import OPS, first_output, sample

    how: dict = {}
    for case in OPS:
        if not case.differentiable:
            continue
        xs = [mg.tensor(a, requires_grad=True) for a in sample(case, np.random.default_rng(2))]
        stepper = BackwardStepper((first_output(case.minigrad(*xs)) * 1.5).sum(), check="all")
        stepper.run()
        for rec in stepper._log.records:
            if rec.check is not None:
                assert rec.check["ok"] is not False, (case.name, rec.name, rec.check)
                if rec.check["ok"]:
                    how.setdefault(rec.check["how"], set()).add(rec.name)
    assert len(how["fd"]) >= 20 and len(how["rule"]) >= 10, how


def test_check_all_catches_a_built_in_backward_gone_wrong(monkeypatch):
    from minigrad._ops.unary import SinBackward0

    monkeypatch.setattr(SinBackward0, "backward", lambda self, g: (g,))
    x = mg.tensor([0., 1.], requires_grad=True)
    stepper = BackwardStepper(x.sin().sum(), check="all")
    stepper.run(until=lambda step: step.node.name() == "SinBackward0")
    assert _section(stepper, "check")["lines"] == [
        "the node sent [1., 1.]; the forward's numerical VJP is [1.    , 0.5403]"]
    assert stepper.node_states["n2"] == "flagged"


def test_a_pytorch_backward_that_raises_is_shown_on_its_node_when_reached(torch):
    TwoGradsT = custom_functions(torch)["TwoGrads"]
    v = torch.tensor([1., 2.], requires_grad=True)
    u = torch.tensor([3., 4.], requires_grad=True)
    stepper = BackwardStepper((TwoGradsT.apply(v * 3) * u).sum(), names={"u": u, "v": v})
    assert u.grad is None and stepper.counter == "step 0 / 4"  # recorded, then put back
    stepper.run()
    assert stepper.counter == "failed at step 4 of 4" and stepper.node_states["n3"] == "error"
    assert "incorrect number of gradients" in _section(stepper, "error")["lines"][1]
    assert u.grad.tolist() == [6., 12.] and v.grad is None
    stepper.reset()
    assert u.grad is None
