"""The chain-rule panel in the learner's terms, and tensors as pictures (issue 18, points 3 and
4), without a browser: operands named by the learner's variables or PyTorch's ``self`` /
``other``, "not needed" for an input that needs no gradient, a broadcast summed down on its
own line (checked against PyTorch's gradients), tags telling two ``MulBackward0`` apart, heat
maps whose data are the tensor's values on a scale symmetric about zero, edge widths by
gradient size."""

from __future__ import annotations

import re

import numpy as np
import pytest
from minigrad_widgets import BackwardStepper, GraphView, draw
from minigrad_widgets.heat import color_of, heat_map

import minigrad as mg


def _rule(stepper) -> list:
    return next(s for s in stepper.panel["sections"] if s["kind"] == "rule")["lines"]


def _lesson_3(L):
    """Lesson 3's loss: x is used twice, and there is a leaf named b."""
    x = L.tensor(2., requires_grad=True)
    w = L.tensor(-3., requires_grad=True)
    b = L.tensor(1., requires_grad=True)
    u = w * x
    y = u + b
    loss = y * x
    return {"x": x, "w": w, "b": b, "u": u, "y": y, "loss": loss}


# ---------------------------------------------------------------- operands by name
@pytest.mark.parametrize("library", ["minigrad", "torch"])
def test_lesson_3_rule_names_the_operands_by_the_learners_variables(library, torch):
    L = mg if library == "minigrad" else torch
    names = _lesson_3(L)
    stepper = BackwardStepper(names["loss"], names=names)
    stepper.step()
    rule = _rule(stepper)
    assert rule[0] == "loss = y * x"
    assert rule[1] == "grad_y = grad * x = 1. * 2. = 2."
    assert rule[3] == "grad_x = grad * y = 1. * -5. = -5."
    stepper.step()
    rule = _rule(stepper)  # y = u + b: here b is the learner's b, and nothing else is
    assert rule[0] == "y = u + alpha * b"
    assert rule[3] == "grad_b = grad * alpha = 2. * 1 = 2."
    stepper.step()
    stepper.step()
    assert _rule(stepper)[:2] == ["u = w * x", "grad_w = grad * x = 2. * 2. = 4."]


def test_the_rule_never_shows_a_letter_the_learner_did_not_write():
    names = _lesson_3(mg)
    stepper = BackwardStepper(names["loss"], names=names)
    while stepper.step_index < stepper.total_steps:
        stepper.step()
        for line in _rule(stepper) if stepper.panel.get("accumulate") is None else []:
            head = line.split(" = ")[0]
            assert not re.search(r"\bgrad_[ac]\b|\bz\b", line), line
            assert head.removeprefix("grad_") in {*names, "loss", "result"} or "→" in line


def test_unnamed_and_repeated_operands_are_pytorchs_self_and_other(torch):
    for L in (mg, torch):
        x = L.tensor([1., 2.], requires_grad=True)
        stepper = BackwardStepper((x * x).sum(), names={"x": x})
        stepper.step()
        stepper.step()
        assert _rule(stepper)[:4] == [
            "result = self * other",
            "grad_self = grad * other = [1., 1.] * [1., 2.] = [1., 2.]",
            "    → x (torch::autograd::AccumulateGrad)",
            "grad_other = grad * self = [1., 1.] * [1., 2.] = [1., 2.]"]


def test_a_learner_name_that_is_a_word_of_the_rule_is_not_used():
    alpha = mg.tensor(2., requires_grad=True)
    grad = mg.tensor(3., requires_grad=True)
    stepper = BackwardStepper(alpha + grad, names={"alpha": alpha, "grad": grad})
    stepper.step()
    assert _rule(stepper)[0] == "result = self + alpha * other"


# ---------------------------------------------------------------- "not needed"
def test_an_input_that_needs_no_gradient_is_not_needed_instead_of_none(torch):
    for L in (mg, torch):
        x = L.tensor(3., requires_grad=True)
        z = x * 2
        stepper = BackwardStepper(z * 3, names={"x": x, "z": z})
        stepper.step()
        stepper.step()
        rule = _rule(stepper)
        assert rule[0] == "z = x * other"
        assert rule[1] == "grad_x = grad * other = 3. * 2 = 6."
        assert rule[3] == "grad_other: not needed (other needs no gradient)"
        assert not any("None" in line for line in rule)


def test_not_needed_speaks_chinese():
    x = mg.tensor(3., requires_grad=True)
    stepper = BackwardStepper(x * 2, names={"x": x}, lang="zh")
    stepper.step()
    assert _rule(stepper)[-1] == "grad_other：不需要计算（other 不需要梯度）"


# ---------------------------------------------------------------- implicit steps
def _lesson_9(L):
    coords = [i / 3 for i in range(-3, 4)]
    X = L.tensor([[u, v] for u in coords for v in coords])
    labels = (X.pow(2).sum(dim=1) < 0.5).long()
    model = L.nn.Sequential(L.nn.Linear(2, 8), L.nn.Tanh(), L.nn.Linear(8, 2))
    with L.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(L.sin(1.7 * L.arange(p.numel()) + i).reshape(p.shape))
    return model, L.nn.CrossEntropyLoss()(model(X), labels)


def test_lesson_9_bias_gradient_is_summed_down_on_its_own_line(torch):
    model, loss = _lesson_9(mg)
    stepper = BackwardStepper(loss)
    for _ in range(3):
        stepper.step()
    rule = _rule(stepper)
    assert rule[0] == "result = beta * self + alpha * (mat1 @ mat2)"
    assert rule[1].startswith("grad_self = beta * grad = shape [49, 2], norm ")
    assert rule[2] == "    beta = 1: the gradient is multiplied by 1"
    t_model, t_loss = _lesson_9(torch)
    t_loss.backward()
    expected = t_model[2].bias.grad.numpy()
    sent = stepper._log.records[2].grads_out[0]
    np.testing.assert_allclose(sent, expected, rtol=1e-5, atol=1e-7)
    from minigrad_widgets._format import format_array
    assert rule[3] == ("    summed over dim 0, back to the shape of self, [2] (the forward "
                       f"pass broadcast self to [49, 2]) = {format_array(sent)}")
    assert rule[4] == "    → model.2.bias (torch::autograd::AccumulateGrad)"


def test_an_elementwise_broadcast_is_summed_down_to_the_inputs_shape(torch):
    values = np.arange(12.).reshape(4, 3) / 7 - 0.5

    def program(L):
        a = L.tensor([1., -2., 0.5], requires_grad=True)
        m = L.tensor(values, dtype=L.float32, requires_grad=True)
        return a, m, (a * m).sum()

    a, m, loss = program(mg)
    stepper = BackwardStepper(loss, names={"a": a, "m": m})
    stepper.step()
    stepper.step()
    rule = _rule(stepper)
    ta, _, tloss = program(torch)
    tloss.backward()
    grad_a = ta.grad.numpy()
    summed = [line for line in rule if "summed over" in line]
    assert len(summed) == 1
    assert "back to the shape of a, [3]" in summed[0] and "to [4, 3])" in summed[0]
    sent = stepper._log.records[1].grads_out[0]
    np.testing.assert_allclose(sent, grad_a, rtol=1e-6)
    assert summed[0].endswith(np.array2string(sent, precision=4, separator=", "))


def test_pytorch_graphs_get_the_same_summed_line(torch):
    _, loss = _lesson_9(mg)
    _, t_loss = _lesson_9(torch)
    lines = []
    for out in (loss, t_loss):
        stepper = BackwardStepper(out, names={})
        for _ in range(3):
            stepper.step()
        lines.append([line for line in _rule(stepper) if "summed over" in line])
    assert len(lines[0]) == 1
    assert lines[0][0].split(" = ")[0] == lines[1][0].split(" = ")[0]


# ---------------------------------------------------------------- tags
def test_two_unnamed_mul_nodes_carry_tags_in_creation_order(torch):
    for L in (mg, torch):
        x = L.tensor(2., requires_grad=True)
        first = x * 3.0
        loss = first * first
        stepper = BackwardStepper(loss, names={"x": x})
        text = stepper.graph_text()
        assert "MulBackward0 #2  [n1]" in text and "MulBackward0 #1  [n2]" in text
        stepper.step()
        assert stepper.panel["title"] == "Step 1/3: MulBackward0 #2"
        lines = next(s for s in stepper.panel["sections"] if s["kind"] == "rule")["lines"]
        assert "    → MulBackward0 #1" in lines
        assert 'label="MulBackward0 #2"' in stepper.dot


def test_a_named_node_needs_no_tag_and_graph_view_and_draw_show_tags():
    x = mg.tensor(2., requires_grad=True)
    y = x * 3.0
    loss = (y * y) * 2.0
    view = repr(GraphView(loss, names={"x": x, "y": y}))
    assert "MulBackward0 (y.grad_fn)" in view and "#1" not in view.split("(y.grad_fn)")[0][-5:]
    assert "MulBackward0 #3" in view and "MulBackward0 #2" in view
    assert 'label="MulBackward0 #3"' in draw(loss, names={"x": x, "y": y}).source


# ---------------------------------------------------------------- heat maps
def test_heat_map_data_are_the_values_on_a_scale_symmetric_about_zero():
    a = np.array([[0.5, -2.0, 0.0], [1.25, 3.0, -0.75]], dtype=np.float32)
    heat = heat_map(a)
    assert heat["shape"] == [2, 3] and (heat["rows"], heat["cols"]) == (2, 3)
    np.testing.assert_array_equal(np.array(heat["values"], dtype=np.float32), a)
    assert heat["scale"] == [-3.0, 3.0]
    assert heat["colors"][0][2] == "#ffffff"  # zero is white
    assert heat["colors"][1][1] == color_of(3.0, 3.0) != color_of(-3.0, 3.0)
    assert color_of(1.0, 3.0) != color_of(-1.0, 3.0)
    # the same distance from zero on either side is the same depth of colour
    for v in (0.5, 1.0, 2.5):
        pos, neg = color_of(v, 3.0), color_of(-v, 3.0)
        lightness = [sum(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in (pos, neg)]
        assert abs(lightness[0] - lightness[1]) < 60


def test_a_heat_map_of_nan_and_a_3d_tensor():
    a = np.arange(24.).reshape(2, 3, 4) - 12
    a[0, 0, 0] = np.nan
    heat = heat_map(a)
    assert (heat["rows"], heat["cols"]) == (6, 4) and heat["values"][0][0] == "nan"
    assert heat["colors"][0][0] == "#7f7f7f" and heat["scale"] == [-11.0, 11.0]
    assert heat_map(np.zeros(5000)) is None


def test_the_panel_draws_each_large_tensor_under_its_line(torch):
    model, loss = _lesson_9(mg)
    stepper = BackwardStepper(loss)
    for _ in range(3):
        stepper.step()
    panel = stepper.panel
    rule = next(s for s in panel["sections"] if s["kind"] == "rule")
    refs = {r["line"]: panel["heat"][r["heat"]] for r in rule["pictures"]}
    assert refs[1]["shape"] == [49, 2]  # beta * grad, before the sum
    to_tanh = next(i for i, line in enumerate(rule["lines"]) if line.startswith("grad_mat1"))
    heat = refs[to_tanh]
    assert heat["shape"] == [49, 8] and heat["summary"] in rule["lines"][to_tanh]
    t_model, _ = _lesson_9(torch)
    X = torch.tensor([[u / 3, v / 3] for u in range(-3, 4) for v in range(-3, 4)])
    hidden = t_model[1](t_model[0](X))
    hidden.retain_grad()
    labels = (X.pow(2).sum(dim=1) < 0.5).long()
    torch.nn.CrossEntropyLoss()(t_model[2](hidden), labels).backward()
    sent = stepper._log.records[2].grads_out[1]
    np.testing.assert_allclose(sent, hidden.grad.numpy(), rtol=1e-5, atol=1e-8)
    np.testing.assert_array_equal(np.array(heat["values"], dtype=np.float32), sent)
    assert heat["scale"][0] == -heat["scale"][1] == -float(np.abs(sent).max())
    # the text form summarises: no matrix of more than a few elements printed in full
    text = repr(stepper)
    assert "[[" not in text and "shape [8, 2], norm" in text


def test_small_tensors_stay_numbers_and_draw_no_picture():
    x = mg.tensor([1., 2.], requires_grad=True)
    stepper = BackwardStepper((x * x).sum(), names={"x": x})
    stepper.run()
    assert "heat" not in stepper.panel
    assert all("pictures" not in s for s in stepper.panel["sections"])


# ---------------------------------------------------------------- edges by gradient size
def test_edge_sizes_are_the_norms_of_the_gradients_each_edge_carried(torch):
    x = mg.tensor([3., 4.], requires_grad=True)
    stepper = BackwardStepper((x * 10.0).sum(), names={"x": x})
    assert stepper.scale_edges is False
    stepper.run()
    tx = torch.tensor([3., 4.], requires_grad=True)
    y = tx * 10.0
    y.retain_grad()
    y.sum().backward()
    # SumBackward0 sends ones [2] to MulBackward0 (the edge out of the Mul node), which sends
    # 10s to x (the edge from x's node into it)
    graph = stepper._graph
    mul = graph.node_of[stepper._log.records[1].node]
    to_mul = next(e.id for e in graph.edges if e.src == mul and e.kind == "grad")
    to_x = next(e.id for e in graph.edges if e.dst == mul and e.kind == "grad")
    assert stepper.edge_sizes[to_mul] == pytest.approx(float(y.grad.norm()), rel=1e-3)
    assert stepper.edge_sizes[to_x] == pytest.approx(float(tx.grad.norm()), rel=1e-3)
    assert set(stepper.edge_sizes) == {to_mul, to_x}
    stepper.scale_edges = True  # the Python twin of the toggle
    assert stepper.snapshot().scale_edges is True
    stepper.reset()
    assert stepper.edge_sizes == {}


def test_an_infinite_gradient_has_no_number_for_its_edge_width():
    x = mg.tensor([0., 4.], requires_grad=True)
    stepper = BackwardStepper(x.sqrt().sum(), names={"x": x})
    stepper.run()
    assert None in stepper.edge_sizes.values()
    import json
    json.dumps(stepper.edge_sizes, allow_nan=False)


def test_large_tensors_of_nodes_and_edges_have_pictures_on_the_drawing():
    model, loss = _lesson_9(mg)
    stepper = BackwardStepper(loss)
    graph = stepper._graph
    by_name = {n.name: n.id for n in graph.nodes if n.kind == "leaf"}
    # model.0.weight [8, 2], model.0.bias [8], model.2.weight [2, 8]; not model.2.bias [2]
    assert set(stepper.node_pictures) == {by_name["model.0.weight"], by_name["model.0.bias"],
                                          by_name["model.2.weight"]}
    heat = stepper.node_pictures[by_name["model.0.weight"]]
    np.testing.assert_array_equal(np.array(heat["values"], dtype=np.float32),
                                  model[0].weight.detach().numpy())
    assert GraphView(loss).node_pictures == stepper.node_pictures
    assert stepper.edge_pictures == {}
    stepper.step()
    (eid,) = stepper.edge_pictures  # NllLossBackward0 sent a [49, 2] gradient
    sent = stepper._log.records[0].grads_out[0]
    np.testing.assert_array_equal(np.array(stepper.edge_pictures[eid]["values"],
                                           dtype=np.float32), sent)
    assert stepper.edge_labels[eid] == f"[49, 2] norm {np.linalg.norm(sent):.2g}"
    stepper.run()
    small = [e for e, text in stepper.edge_labels.items() if not text.startswith("[")
             or "norm" not in text]
    assert small and not set(small) & set(stepper.edge_pictures)
    stepper.back()
    assert stepper.snapshot().edge_pictures == stepper.edge_pictures


def test_the_inputs_of_cat_are_pytorchs_tensors_list(torch):
    for L in (mg, torch):
        x = L.ones(3, 2, requires_grad=True)
        c = L.tensor([[1., 2.]])
        stepper = BackwardStepper(L.cat([x * 2.0, c], 0).sum(), names={"x": x})
        stepper.step()
        stepper.step()
        rule = _rule(stepper)
        assert rule[0] == "result = cat([tensors[0], tensors[1], ...], dim)"
        assert rule[1].startswith("grad_tensors[0] = the slice of grad where that input sits")
        assert rule[3] == "grad_tensors[1]: not needed (tensors[1] needs no gradient)"


def test_a_tag_as_drawn_names_its_node_for_run_until_and_predict():
    x = mg.tensor(2., requires_grad=True)
    first = x * 3.0
    stepper = BackwardStepper(first * first, names={"x": x})
    stepper.run(until="MulBackward0 #1")
    assert stepper.step_index == 1
    assert stepper.predict("MulBackward0 #1").startswith("Right")
    assert stepper.panel["title"] == "Step 2/3: MulBackward0 #1"
