"""The stepper's code view (widgets/code_view.py, code_trace.py): the source of the backward a
minigrad step ran, with its values and the engine's lines; PyTorch's formula for a PyTorch
node (pytorch_formulas.py, checked against torchgen's own loader)."""

from __future__ import annotations

import inspect
import linecache
import sys
import textwrap

import numpy as np
import pytest
from helpers import custom_functions
from minigrad_widgets import BackwardStepper
from minigrad_widgets.code_trace import backward_function
from minigrad_widgets.code_view import show
from minigrad_widgets.i18n import t
from minigrad_widgets.pytorch_formulas import formula_for, node_names, parse_entries, yaml_path

import minigrad as mg
from minigrad.autograd import engine


def _code(stepper):
    found = [s for s in stepper.panel.get("sections", []) if s["kind"] == "code"]
    return found[0] if found else None


def _step_to(stepper, name):
    stepper.run(until=name)
    stepper.step()
    return stepper._log.records[stepper.step_index - 1]


def _text(line):
    return "".join(span[1] for span in line["spans"])


def _product(lang="en"):
    a = mg.tensor([2., 1.], requires_grad=True)
    b = mg.tensor([3.], requires_grad=True)
    y = a * b
    return BackwardStepper(y.sum(), names={"a": a, "b": b, "y": y}, code=True, lang=lang)


def test_the_view_shows_the_source_of_the_node_class_that_ran():
    stepper = _product()
    rec = _step_to(stepper, "MulBackward0")
    block = _code(stepper)["blocks"][0]
    fn = type(rec.node).backward
    assert fn.__qualname__ in block["title"]
    lines, start = inspect.getsourcelines(fn)
    file = inspect.getsourcefile(fn)
    shown = [line for line in block["lines"] if line["n"] is not None]
    assert shown[0]["n"] == start
    for line in shown:  # every line as the file has it, dedented
        assert linecache.getline(file, line["n"]).rstrip().endswith(_text(line).strip())
    assert textwrap.dedent("".join(lines)).splitlines()[0] == _text(shown[0])


def test_the_lines_that_return_the_gradients_are_marked_with_their_targets_and_values():
    stepper = _product()
    rec = _step_to(stepper, "MulBackward0")
    block = _code(stepper)["blocks"][0]
    marked = [line for line in block["lines"] if line["mark"] == "grad"]
    # the return line, and the lines that made the returned names (grad_a = grad * b)
    assert marked and "return" in _text(marked[-1])
    assert all("return" in _text(line) or "=" in _text(line) for line in marked)
    notes = " ".join(n for line in marked for n in line["notes"])
    assert "a (torch::autograd::AccumulateGrad)" in notes
    assert show(rec.grads_out[0]) in notes  # a's gradient, [3., 3.]
    # b's was broadcast: the line computed [2., 1.], the engine summed it to [3.]
    assert show(np.array([2., 1.])) in notes and show(rec.grads_out[1]) in notes


def test_the_step_values_stand_beside_the_names():
    stepper = _product()
    rec = _step_to(stepper, "MulBackward0")
    block = _code(stepper)["blocks"][0]
    fn = backward_function(rec.node)
    grad_name = list(inspect.signature(fn).parameters)[1]
    first = block["lines"][0]
    assert first["mark"] == "ran"
    assert f"{grad_name} = {show(rec.grads_in[0])}" in first["notes"][0]
    every_note = " ".join(n for line in block["lines"] for n in line["notes"])
    assert "[3.]" in every_note and "[2., 1.]" in every_note  # the saved b and a


def test_the_engine_lines_are_the_live_lines_of_engine_py():
    stepper = _product()
    _step_to(stepper, "MulBackward0")
    block = _code(stepper)["blocks"][1]
    path = engine.__file__
    with open(path, encoding="utf-8") as f:
        source = f.read().splitlines()
    for line in block["lines"]:
        assert source[line["n"] - 1].strip() == _text(line)
    run_lines, run_start = inspect.getsourcelines(engine.run)
    exe_lines, exe_start = inspect.getsourcelines(engine._execute)
    numbers = [line["n"] for line in block["lines"]]
    in_run = [n for n in numbers if run_start <= n < run_start + len(run_lines)]
    in_exe = [n for n in numbers if exe_start <= n < exe_start + len(exe_lines)]
    assert in_run and "_execute(" in source[in_run[0] - 1]
    assert in_exe and ".backward(" in source[in_exe[0] - 1]


def test_an_accumulate_grad_step_shows_accumulate_and_the_branch_that_ran():
    stepper = _product()
    stepper.run(until="torch::autograd::AccumulateGrad")
    stepper.step()
    code = _code(stepper)
    assert "AccumulateGrad.accumulate" in code["blocks"][0]["title"]
    ran = [_text(line).strip() for line in code["blocks"][0]["lines"] if line["mark"] == "ran"]
    assert "elif old is None:" in ran and "else:" not in ran
    assert any(".accumulate(" in _text(line) for line in code["blocks"][1]["lines"])


Square = custom_functions(mg)["Square"]


class TwoNamed(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        grad_x = grad * y
        grad_y = grad * x
        return grad_x, grad_y


def test_a_returned_name_marks_the_line_that_made_it():
    x = mg.tensor([2.], requires_grad=True)
    y = mg.tensor([5.], requires_grad=True)
    stepper = BackwardStepper(TwoNamed.apply(x, y).sum(), names={"x": x, "y": y}, code=True)
    _step_to(stepper, "TwoNamedBackward")
    marks = {_text(line).strip(): (line["mark"], line["notes"])
             for line in _code(stepper)["blocks"][0]["lines"]}
    assert marks["grad_x = grad * y"] == ("grad", ["grad_x = [5.]"])
    assert marks["grad_y = grad * x"] == ("grad", ["grad_y = [2.]"])
    assert marks["x, y = ctx.saved_tensors"][0] == "ran"
    mark, notes = marks["return grad_x, grad_y"]
    assert mark == "grad" and any("x (torch::autograd::AccumulateGrad): [5.]" in n for n in notes)


def test_a_custom_function_shows_its_own_backward_with_its_values():
    x = mg.tensor([3.], requires_grad=True)
    stepper = BackwardStepper(Square.apply(x).sum(), names={"x": x}, code=True)
    _step_to(stepper, "SquareBackward")
    block = _code(stepper)["blocks"][0]
    assert "Square.backward" in block["title"]
    notes = [n for line in block["lines"] for n in line["notes"]]
    assert any(n.startswith("x = [3.]") for n in notes)
    assert any("[6.]" in n and "x (torch::autograd::AccumulateGrad)" in n for n in notes)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_backward_without_source_gets_the_catalogues_message(lang):
    scope = {"mg": mg}
    exec("class Cube(mg.autograd.Function):\n"
         "    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n"
         "        return x ** 3\n"
         "    @staticmethod\n    def backward(ctx, g):\n        (x,) = ctx.saved_tensors\n"
         "        return 3 * x * x * g\n", scope)
    with pytest.raises(OSError):
        inspect.getsource(scope["Cube"].backward)
    x = mg.tensor([2.], requires_grad=True)
    stepper = BackwardStepper(scope["Cube"].apply(x).sum(), code=True, lang=lang)
    _step_to(stepper, "CubeBackward")
    block = _code(stepper)["blocks"][0]
    assert block["message"] == t("code.no_source", lang, name="Cube.backward", error="OSError")


def test_with_another_tracer_running_the_view_says_so_and_still_shows_the_source():
    a = mg.tensor([2.], requires_grad=True)
    stepper = BackwardStepper((a * a).sum(), code=True)
    before = sys.gettrace()
    sys.settrace(lambda *args: None)
    try:
        stepper.step()
    finally:
        sys.settrace(before)
    block = _code(stepper)["blocks"][0]
    assert block["message"] == t("code.not_traced", "en") and block["lines"]


def test_the_view_is_off_by_default_and_the_text_form_stays_as_it_was():
    a = mg.tensor([2., 1.], requires_grad=True)
    stepper = BackwardStepper((a * 3).sum())
    stepper.step()
    plain = repr(stepper)
    assert _code(stepper) is None and not stepper.code
    stepper.code = True  # the Code button's Python twin
    assert _code(stepper) is not None and repr(stepper).startswith(plain.split("  Gradients")[0])
    snapshot = stepper.snapshot()
    stepper.code = False
    assert _code(stepper) is None and repr(stepper) == plain
    assert snapshot.code and "Code this step ran" in repr(snapshot)


# ---------------------------------------------------------------- PyTorch's formulas
def test_the_small_parser_reads_derivatives_yaml_as_pyyaml_does(torch):
    yaml = pytest.importorskip("yaml")
    text = yaml_path().read_text(encoding="utf-8")

    def norm(v):
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items() if k != "line"}
        return " ".join(v.split()) if isinstance(v, str) else v

    assert [norm(e) for e in parse_entries(text)] == [norm(e) for e in yaml.safe_load(text)]


def test_node_names_follow_torchgens_own_loader(torch):
    pytest.importorskip("yaml")
    import os

    import torchgen
    from torchgen.packaged.autograd.load_derivatives import load_derivatives

    root = os.path.join(os.path.dirname(torchgen.__file__), "packaged")
    infos, _ = load_derivatives(os.path.join(root, "autograd", "derivatives.yaml"),
                                os.path.join(root, "ATen", "native", "native_functions.yaml"),
                                os.path.join(root, "ATen", "native", "tags.yaml"))
    theirs = {info.op: [a.name for a in info.args_with_derivatives]
              for per in infos.values() for info in per.values() if info.op}
    ours = node_names(parse_entries(yaml_path().read_text(encoding="utf-8")))
    for op, args in theirs.items():
        entry = formula_for(op)
        assert entry is not None, op
        assert list(entry.differentiable) == args, op
    assert set(ours) <= set(theirs)


def _torch_programs(torch):
    F = torch.nn.functional
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
    w = torch.tensor([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]], requires_grad=True)
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    img = torch.arange(32.).reshape(1, 2, 4, 4).requires_grad_()
    k = torch.ones(3, 2, 3, 3, requires_grad=True)
    target = torch.tensor([0, 1])
    return {
        "mul": x * v, "add": x + v, "sub": x - v, "div": x / (v + 4), "matmul": x @ w,
        "addmm": F.linear(x, w.t(), v[:2]), "exp": x.exp(), "log": (x * x + 1).log(),
        "tanh": x.tanh(), "sigmoid": x.sigmoid(), "relu": F.relu(x), "pow": x ** 3,
        "sqrt": (x * x + 1).sqrt(), "sum": x.sum(dim=0), "mean": x.mean(), "max": x.max(),
        "t": x.t(), "view": x.view(6), "reshape": x.reshape(3, 2), "expand": v.expand(2, 3),
        "transpose": x.transpose(0, 1), "softmax": F.softmax(x, dim=1),
        "log_softmax": F.log_softmax(x, dim=1), "cross_entropy": F.cross_entropy(x, target),
        "mse": F.mse_loss(x, x.detach() * 2), "conv2d": F.conv2d(img, k),
        "max_pool2d": F.max_pool2d(img, 2), "cat": torch.cat([x, x]), "abs": x.abs(),
        "sin": x.sin(), "neg": -x, "clamp": x.clamp(-0.5, 0.5), "where": torch.where(x > 0, x, v),
        "select": x[0], "slice": x[:, 1:], "norm": x.norm(), "unsqueeze": v.unsqueeze(0),
        "gelu": F.gelu(x), "dropout_eval": F.dropout(x, 0.5, training=False) * 2,
    }


def test_every_node_of_real_torch_graphs_resolves_to_an_entry_naming_its_inputs(torch):
    seen, unknown = set(), []
    for name, out in _torch_programs(torch).items():
        stack = [out.grad_fn]
        while stack:
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            stack += [child for child, _ in node.next_functions]
            if type(node).__name__ == "AccumulateGrad":
                continue
            entry = formula_for(node.name())
            if entry is None:
                unknown.append(node.name())
                continue
            edges = len(node.next_functions)
            if entry.lists:  # a list of tensors: one edge per tensor
                assert entry.differentiable == entry.lists and edges >= 1, (name, node.name())
            else:
                assert len(entry.differentiable) == edges, (name, node.name())
            keys = {n.strip() for key, _ in entry.inputs for n in key.split(",")}
            assert set(entry.differentiable) <= keys, (name, node.name())
    assert unknown == []
    names = {n.name() for n in seen}
    assert {"MulBackward0", "AddmmBackward0", "ConvolutionBackward0",
            "MaxPool2DWithIndicesBackward0"} <= names


def test_a_torch_stepper_shows_pytorchs_formula_and_unknown_names_get_a_message(torch):
    a = torch.tensor([2., 1.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    stepper = BackwardStepper((a * b).sum(), names={"a": a, "b": b}, code=True, lang="zh")
    _step_to(stepper, "MulBackward0")
    block = _code(stepper)["blocks"][0]
    entry = formula_for("MulBackward0")
    assert block["title"] == t("code.yaml", "zh", line=entry.line)
    texts = [_text(line) for line in block["lines"]]
    assert texts[0] == f"name: {entry.name}"
    assert texts[1:] == [f"{k}: {f}" for k, f in entry.inputs]
    assert "a (torch::autograd::AccumulateGrad)" in " ".join(block["lines"][1]["notes"])
    assert formula_for("NoSuchOpBackward0") is None
    stepper.run()
    assert _code(stepper)["blocks"][0]["message"] == t("code.torch_accumulate", "zh")
    c = torch.tensor([1., 2.], requires_grad=True)
    d = c * 1
    d[0].mul_(3)  # an in-place change of a view: PyTorch's hand-written CopySlices node
    stepper = BackwardStepper(d.sum(), code=True)
    _step_to(stepper, "torch::autograd::CopySlices")
    assert _code(stepper)["blocks"][0]["message"] == t(
        "code.no_formula", "en", name="torch::autograd::CopySlices")


def test_a_failure_while_watching_never_breaks_the_step(monkeypatch):
    import minigrad_widgets.code_trace as code_trace

    def boom(*args, **kwargs):
        raise ValueError("a value the view cannot read")

    monkeypatch.setattr(code_trace, "plain", boom)
    a = mg.tensor([2., 1.], requires_grad=True)
    b = mg.tensor([3.], requires_grad=True)
    stepper = BackwardStepper((a * b).sum(), code=True)
    stepper.run()
    expected_a, expected_b = a.grad.clone(), b.grad.clone()
    a.grad = b.grad = None
    (a * b).sum().backward()
    assert stepper.error is None and stepper.step_index == stepper.total_steps
    assert a.grad.tolist() == expected_a.tolist() and b.grad.tolist() == expected_b.tolist()
    assert _code(stepper) is not None  # the source is still shown
