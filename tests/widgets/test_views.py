"""The three views without a browser: BuildReplay, GradientFlow and MemoryView (their logic,
their text forms, both languages). Their numbers against PyTorch: test_views_torch.py."""

from __future__ import annotations

import minigrad_widgets
import numpy as np
import pytest
from helpers import custom_functions
from minigrad_widgets import BuildReplay, GradientFlow, MemoryView
from minigrad_widgets.build_replay import creation_order, op_name, sequence_nr
from minigrad_widgets.export import page
from minigrad_widgets.i18n import t
from minigrad_widgets.memory import format_bytes, saved_memory

import minigrad as mg


def grow(x):
    y = x * 2
    while y.norm() < 1000:
        y = y * 2
    return y


def test_the_views_are_exported_from_the_package():
    for name in ("BuildReplay", "GradientFlow", "MemoryView"):
        assert name in minigrad_widgets.__all__
        assert getattr(minigrad_widgets, name).__name__ == name


# ------------------------------------------------------------------ BuildReplay
def test_replay_steps_follow_creation_order_and_the_newest_node_is_current():
    x = mg.tensor([1., 2.], requires_grad=True)
    a = x * 3
    b = x.exp()
    loss = (a * b).sum()
    replay = BuildReplay(loss, names={"x": x, "a": a, "b": b})
    order = [n.title for n in creation_order(replay._view)]
    assert order == ["MulBackward0", "ExpBackward0", "MulBackward0", "SumBackward0"]
    nrs = [sequence_nr(n.obj) for n in creation_order(replay._view)]
    assert nrs == sorted(nrs) and len(set(nrs)) == 4
    assert replay.total_steps == 4 and replay.step_index == 0
    assert set(replay.node_states.values()) == {"future"}  # nothing created yet
    replay.step()
    first = creation_order(replay._view)[0]
    assert replay.node_states[first.id] == "current" and first.name == "a"
    leaf = next(n for n in replay._view.nodes if n.kind == "leaf")
    assert replay.node_states[leaf.id] == ""  # a leaf appears with the first node using it
    output = next(n for n in replay._view.nodes if n.kind == "output")
    assert replay.node_states[output.id] == "future"
    replay.run()
    assert replay.node_states[output.id] == "" and "future" not in replay.node_states.values()
    assert "future" not in replay.edge_states.values()
    assert not replay.can_step


def test_replay_back_reset_and_the_buttons_messages_move_through_the_steps():
    x = mg.tensor(2., requires_grad=True)
    replay = BuildReplay((x * x + x) * 2, names={"x": x})
    replay._on_msg(replay, {"event": "step"}, [])
    replay._on_msg(replay, {"event": "step"}, [])
    assert replay.step_index == 2 and replay.counter == "step 2 / 3"
    replay.back()
    assert replay.step_index == 1
    replay._on_msg(replay, {"event": "run"}, [])
    assert replay.step_index == 3
    replay.step()  # past the end: nothing happens
    assert replay.step_index == 3
    replay.reset()
    assert replay.step_index == 0 and replay.panel["title"] == "Before the forward pass"


def test_replay_of_a_while_loop_has_as_many_steps_as_the_data_asks():
    small = BuildReplay(grow(mg.tensor([0.5, -1.0, 0.25], requires_grad=True)))
    large = BuildReplay(grow(mg.tensor([5., 5., 5.], requires_grad=True)))
    assert small.total_steps == 10 and large.total_steps == 7
    assert {n.title for n in creation_order(small._view)} == {"MulBackward0"}


def test_replay_panel_names_the_inputs_and_the_step_that_made_them():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    replay = BuildReplay(z, names={"x": x, "y": y})
    replay.step()
    replay.step()
    assert replay.panel["title"] == "Step 2/3: MulBackward0 is created"
    assert replay.panel["lines"][0] == "op: mul"
    assert replay.panel["lines"][1] == ("inputs: MulBackward0 (y.grad_fn) (step 1), "
                                        "MulBackward0 (y.grad_fn) (step 1)")
    text = repr(replay)
    assert text.splitlines()[0] == "BuildReplay: step 2 of 3"
    assert ">   2 new      MulBackward0  inputs:" in text
    assert "    3 to come  SumBackward0" in text


def test_replay_names_the_op_of_each_node_as_aten_does_and_a_custom_functions_apply():
    x = mg.ones(2, 2, requires_grad=True)
    square = custom_functions(mg)["Square"]
    made = [x * 2, x @ x, mg.nn.functional.log_softmax(x, 1), x.view(4), square.apply(x)]
    assert [op_name(t.grad_fn) for t in made] == ["mul", "mm", "log_softmax", "view",
                                                  "Square.apply"]
    replay = BuildReplay(made[2].sum())
    replay.step()
    assert replay.panel["lines"][0] == "op: log_softmax"


def test_replay_shows_the_learners_line_when_anomaly_mode_kept_the_traceback():
    x = mg.tensor([1., 2.], requires_grad=True)
    with mg.autograd.set_detect_anomaly(True):
        y = x * 2
        z = y.sum()
    replay = BuildReplay(z)
    replay.step()
    assert replay.panel["lines"][-2].endswith(": y = x * 2")
    assert replay.panel["lines"][-2].startswith("line ")
    plain = BuildReplay((x * 2).sum())  # no traceback kept: no line
    plain.step()
    assert not any(line.startswith("line ") for line in plain.panel["lines"])


def test_replay_in_chinese_uses_the_catalogue():
    x = mg.tensor(2., requires_grad=True)
    replay = BuildReplay(x * x, lang="zh")
    replay.step()
    assert repr(replay).startswith("BuildReplay：第 1 步，共 1 步")
    assert replay.labels["step"] == "单步" and replay.labels["step_tip"] == t("build.step_tip", "zh")
    assert replay.panel["title"] == "第 1/1 步：创建了 MulBackward0"
    assert replay.panel["lines"][:2] == ["运算：mul", "输入：x（叶子节点）、x（叶子节点）"]


def test_replay_refuses_a_graph_too_large_to_draw_and_a_wrong_language():
    x = mg.tensor(1., requires_grad=True)
    y = x
    for _ in range(200):
        y = y * 1.01
    with pytest.raises(ValueError, match="at most 150 nodes, got 402"):
        BuildReplay(y)  # 200 products, each with its leaf-or-node input and a None mark
    assert BuildReplay(y, max_nodes=500).total_steps == 200
    with pytest.raises(ValueError, match="lang must be one of en, zh"):
        BuildReplay(x * 2, lang="fr")


def test_replay_page_records_every_step_and_keeps_the_step_shown():
    x = mg.tensor(2., requires_grad=True)
    replay = BuildReplay((x * x).exp(), names={"x": x})
    replay.step()
    start, steps, position = replay.recorded_steps()
    assert len(steps) == replay.total_steps == 2 and position == 1
    assert start["step_index"] == 0 and replay.step_index == 1
    assert steps[0]["set"]["step_index"] == 1
    assert 'data-minigrad-static="build"' in page(replay)


# ------------------------------------------------------------------ GradientFlow
def _tiny_training(flow_of, steps=3):
    mg.manual_seed(0)
    model = mg.nn.Sequential(mg.nn.Linear(2, 3), mg.nn.Tanh(), mg.nn.Linear(3, 1))
    X = mg.tensor([[0.5, -1.], [1., 2.], [0., 1.]])
    target = mg.tensor([[1.], [0.], [2.]])
    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    flow = flow_of(model)
    for _ in range(steps):
        opt.zero_grad()
        before = [p.detach().clone() for p in model.parameters()]
        ((model(X) - target) ** 2).mean().backward()
        grads = [p.grad.norm().item() for p in model.parameters()]
        opt.step()
        flow.record()
        moved = [((p.detach() - b).norm() / b.norm()).item()
                 for p, b in zip(model.parameters(), before)]
    return model, flow, grads, moved


def test_flow_records_each_parameters_gradient_norm_and_update_ratio():
    model, flow, grads, moved = _tiny_training(GradientFlow)
    names = [n for n, _ in model.named_parameters()]
    assert list(flow.grad_norms) == names == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert flow.steps == 3 and all(len(v) == 3 for v in flow.grad_norms.values())
    np.testing.assert_allclose([flow.grad_norms[n][-1] for n in names], grads, rtol=1e-5)
    np.testing.assert_allclose([flow.update_ratios[n][-1] for n in names], moved, rtol=1e-4)
    assert flow.flow["names"] == names and flow.flow["steps"] == 3
    assert flow.flow["grad_norms"][0] == flow.grad_norms["0.weight"]


def test_flow_text_form_is_a_table_in_the_widgets_language():
    _, flow, _, _ = _tiny_training(lambda m: GradientFlow(m, lang="zh"), steps=2)
    lines = repr(flow).splitlines()
    assert lines[0] == "GradientFlow：已记录 2 步，4 个参数"
    assert lines[1].split() == ["参数", "形状", "|grad|", "第一步", "|grad|", "最后一步", "|grad|",
                                "最小", "|grad|", "最大", "更新量/权重（最后一步）"]
    assert lines[2].startswith("0.weight  [3, 2]")
    assert repr(GradientFlow({"w": mg.ones(2, requires_grad=True)}, lang="en")).splitlines() \
        == ["GradientFlow: 0 steps recorded, 1 parameters", t("view.flow.empty", "en")]


def test_flow_takes_a_dict_or_a_list_and_says_none_where_there_is_no_gradient():
    w = mg.tensor([3., 4.], requires_grad=True)
    b = mg.tensor([1.], requires_grad=True)
    flow = GradientFlow([w, b])
    (w * 2).sum().backward()
    flow.record()
    assert flow.grad_norms == {"p0": [pytest.approx(np.sqrt(8))], "p1": [None]}
    assert flow.update_ratios == {"p0": [0.0], "p1": [0.0]}  # nothing moved them
    with pytest.raises(TypeError, match="GradientFlow expected a model or tensors, got w: list"):
        GradientFlow({"w": [1., 2.]})
    with pytest.raises(ValueError, match="at least one parameter"):
        GradientFlow([])


def test_flow_makes_a_growing_gradient_visible_when_zero_grad_is_forgotten():
    w = mg.tensor([1., 1.], requires_grad=True)
    flow = GradientFlow({"w": w})
    for _ in range(4):
        (w * 3).sum().backward()  # no zero_grad: .grad accumulates
        flow.record()
    np.testing.assert_allclose(flow.grad_norms["w"], [np.sqrt(2) * 3 * k for k in range(1, 5)],
                               rtol=1e-6)


# ------------------------------------------------------------------ MemoryView
def test_memory_counts_each_saved_tensor_once():
    x = mg.tensor([1., 2., 3.], requires_grad=True)
    m = saved_memory([(x * x).sum()])
    mul = next(n for n in m.nodes if n.title == "MulBackward0")
    assert [e[0] for e in mul.tensors] == [["_saved_other", "_saved_self"]]
    assert mul.bytes == m.total == 12 and m.count == 1
    d = mg.tensor([1., 2.], dtype=mg.float64, requires_grad=True)
    assert saved_memory([(d * d.exp()).sum()]).total == 32  # d and exp(d), 8 bytes each


def test_memory_is_kept_by_retain_graph_and_freed_by_a_plain_backward():
    x = mg.tensor([1., 2., 3.], requires_grad=True)
    loss = (x.tanh() * x).sum()
    view = MemoryView(loss, names={"x": x})
    held = view.total_bytes
    assert held == 24 and set(view.node_states.values()) == {"held"}
    assert view.panel["lines"][0] == "the graph holds 24 B for backward (saved tensors: 2)"
    loss.backward(retain_graph=True)
    view.refresh()
    assert view.total_bytes == held
    loss.backward()
    view.refresh()
    assert view.total_bytes == 0 and set(view.node_states.values()) == {"freed"}
    assert sorted(view.node_notes.values()) == ["freed (12 B)", "freed (24 B)"]
    assert view.panel["lines"] == ["backward() freed the saved tensors: the graph holds 0 B",
                                   "it held 24 B before"]
    assert repr(view).startswith("MemoryView: backward() freed the saved tensors")


def test_memory_text_form_in_chinese():
    x = mg.tensor([1., 2.], requires_grad=True)
    text = repr(MemoryView((x * x).sum(), lang="zh"))
    assert text.splitlines()[0] == "MemoryView: 计算图为反向传播保留了 8 B（1 个保存的张量）"
    assert "没有保存张量" in text


def test_format_bytes():
    assert [format_bytes(n) for n in (0, 1023, 1024, 3 * 2**20 // 2, 2**31)] == [
        "0 B", "1023 B", "1 KiB", "1.5 MiB", "2 GiB"]


def test_the_chinese_views_show_no_untranslated_string():
    from helpers import english_words as _english_words

    x = mg.tensor([1., 2.], requires_grad=True)
    with mg.autograd.set_detect_anomaly(True):
        loss = (x.exp() * x).sum()
    replay = BuildReplay(loss, lang="zh")
    texts = [repr(replay)] + list(replay.labels.values()) + [replay.counter]
    replay.run()
    texts.append(repr(replay))
    memory = MemoryView(loss, lang="zh")
    texts += [repr(memory)] + list(memory.node_notes.values())
    loss.backward()
    memory.refresh()
    texts += [repr(memory)] + list(memory.node_notes.values())
    flow = GradientFlow({"x": x}, lang="zh")
    texts.append(repr(flow))
    flow.record()
    texts.append(repr(flow))
    texts += [v for k, v in flow.strings.items() if k.startswith("view.flow.")]
    code = {"BuildReplay", "MemoryView", "GradientFlow", "float", "flow", "record", "optimizer",
            "step", "retain_graph", "_saved_other", "_saved_self", "_saved_result"}
    assert set().union(*map(_english_words, texts)) - code == set()


def test_flow_sends_the_chart_a_bounded_number_of_points_ending_at_the_last_step():
    from minigrad_widgets.gradient_flow import CHART_POINTS

    w = mg.tensor([1., 1.], requires_grad=True)
    flow = GradientFlow({"w": w})
    for k in range(2 * CHART_POINTS + 3):
        w.grad = mg.tensor([float(k), 0.])
        flow.record()
    at = flow.flow["at"]
    assert len(at) <= CHART_POINTS + 1 and at[0] == 0 and at[-1] == flow.steps - 1
    assert flow.flow["grad_norms"][0] == [float(i) for i in at]  # the values of those steps
    assert len(flow.grad_norms["w"]) == flow.steps  # Python keeps every step


def test_memory_view_holds_none_of_the_learners_other_tensors():
    x = mg.tensor([1., 2.], requires_grad=True)
    other = mg.ones(1000)  # noqa: F841  (a tensor among the caller's names)
    view = MemoryView((x * x).sum())  # names looked up among these locals
    assert [name for name, _ in view._names.items()] == ["x"]
    assert view.total_bytes == 8
