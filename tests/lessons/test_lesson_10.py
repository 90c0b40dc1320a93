"""Lesson 10 (build an engine, then read ours): its claims run on PyTorch, its hand-written
engine against minigrad's, and its exercises' judges against PyTorch's answers.

The stored outputs are checked by nbval; here each claim the lesson's text makes is run on
real PyTorch and compared with what the lesson stores.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))

import build  # noqa: E402
from _course import judge  # noqa: E402
from _course.exercises import l10  # noqa: E402

(SOURCE,) = (NOTEBOOKS / "_source").glob("10_*.md")
ACCUMULATE = "torch::autograd::AccumulateGrad"


def _engine() -> dict:
    """The lesson's own code cells up to its engine: Value and topological_order."""
    scope: dict = {"math": math}
    for block in build.parse(SOURCE):
        if block.kind == "code" and "class Value" in block.text:
            exec(block.text, scope)  # noqa: S102 - the lesson's own code
            return scope
    raise AssertionError("lesson 10 has no cell defining Value")


def _outputs(marker: str) -> list[str]:
    """The printed lines of the English lesson's code cell whose source contains ``marker``."""
    nb = nbformat.read(NOTEBOOKS / "en" / f"{SOURCE.stem}.ipynb", as_version=4)
    (cell,) = [c for c in nb.cells if c.cell_type == "code" and marker in c.source]
    return "".join(o.get("text", "") for o in cell.outputs).splitlines()


def _order_in(lib, build_expr) -> list[str]:
    """The names of the nodes in the order ``lib``'s engine runs them (pre-hooks)."""
    leaves = [lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in (0.5, -1.5, 2.0, .25)]
    out, order, seen, todo = build_expr(*leaves), [], set(), []
    todo.append(out.grad_fn)
    while todo:
        fn = todo.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        fn.register_prehook(lambda g, fn=fn: order.append(fn.name()))
        todo.extend(n for n, _ in fn.next_functions)
    out.backward()
    return order


def _section_4(a, b, c, d):
    return (a * b).tanh() + c * d


def _exercise_2(a, b, c, d):
    return c * d + (a * b).tanh()


@pytest.mark.torch
@pytest.mark.parametrize("expr", [_section_4, _exercise_2])
def test_pytorch_runs_the_newest_ready_node_first_and_minigrad_the_same(torch, expr):
    import minigrad

    theirs = _order_in(torch, expr)
    assert _order_in(minigrad, expr) == theirs
    ops = [n for n in theirs if n != ACCUMULATE]
    # the sum first, then the branch created last (c * d in section 4, tanh in exercise 10.2)
    assert ops[1] == ("MulBackward0" if expr is _section_4 else "TanhBackward0")


@pytest.mark.torch
def test_section_4_prints_pytorchs_order_and_a_different_topological_order(torch):
    ours, engine = _outputs('NAMES = {"+"')
    assert engine == str(_order_in(torch, _section_4))
    scope = _engine()
    v = [scope["Value"](x) for x in (0.5, -1.5, 2.0, 0.25)]
    names = {"+": "AddBackward0", "*": "MulBackward0", "tanh": "TanhBackward0"}
    sort = [names[n.op] for n in reversed(scope["topological_order"](_section_4(*v)))
            if n.op != "leaf"]
    assert ours == str(sort)
    assert sort != [n for n in _order_in(torch, _section_4) if n != ACCUMULATE]


@pytest.mark.torch
def test_gradients_meeting_at_x_reach_its_accumulategrad_once_summed(torch):
    x, w, b = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (.5, -1.5, 1.))
    u = w * x
    t = (u + b).tanh()
    loss = t * x
    calls = []
    acc = loss.grad_fn.next_functions[1][0]  # x's AccumulateGrad (the second factor)
    assert acc.variable is x
    acc.register_prehook(lambda grads: calls.append(grads[0].item()))
    loss.backward()
    shares = [t.item(), (x * (1 - t * t) * w).item()]  # along L = t * x, along u = w * x
    assert len(calls) == 1 and math.isclose(calls[0], sum(shares))
    row = next(line for line in _outputs("for step in steps(Lt)") if line.endswith(
        f"{x.grad.item():+.6f}") and " x " in line)
    assert row.startswith(ACCUMULATE)


@pytest.mark.torch
def test_two_backward_passes_double_pytorchs_grad_but_not_the_lessons_engine(torch):
    x, w, b = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (.5, -1.5, 1.))
    loss = (w * x + b).tanh() * x
    loss.backward(retain_graph=True)
    first = [x.grad.item(), w.grad.item(), b.grad.item()]
    loss.backward()
    ratios = [g2 / g1 for g1, g2 in zip(first, [x.grad.item(), w.grad.item(), b.grad.item()])]
    assert ratios == [2.0, 2.0, 2.0]
    assert _outputs("Lt.backward(retain_graph=True)") == [str(ratios)]
    again = (w * x + b).tanh() * x  # without retain_graph: tanh's saved result is freed
    again.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        again.backward()
    ours = _outputs("first = [x.grad, w.grad, b.grad]")[0]
    assert ours != str(ratios) and ours.endswith("5.0, 4.0]")


def test_the_lessons_engine_gives_minigrads_gradients_and_needs_no_recursion():
    import minigrad

    scope = _engine()
    Value = scope["Value"]
    x, w, b = Value(0.5), Value(-1.5), Value(1.0)
    (w * x + b).tanh().__mul__(x).backward()
    xt, wt, bt = (minigrad.tensor(v, dtype=minigrad.float64, requires_grad=True)
                  for v in (.5, -1.5, 1.))
    ((wt * xt + bt).tanh() * xt).backward()
    for ours, theirs in ((x, xt), (w, wt), (b, bt)):
        assert math.isclose(ours.grad, theirs.grad.item(), rel_tol=1e-12)
    # a chain of a few thousand ops: the recursive walk fails, the lesson's does not
    v = start = Value(1.0)
    for _ in range(3000):
        v = v * Value(1.0)
    v.backward()
    assert start.grad == 1.0

    def recursive(node, seen, order):
        if node not in seen:
            seen.add(node)
            for p in node.parents:
                recursive(p, seen, order)
            order.append(node)

    with pytest.raises(RecursionError):
        recursive(v, set(), [])


@pytest.mark.torch
def test_matmul_and_relu_route_gradients_as_section_6_says(torch):
    X = torch.tensor([[1., -2., 0.5], [0., 1., -1.]], requires_grad=True)
    W = torch.tensor([[0.5, -1.], [1., 2.], [-1., 0.5]], requires_grad=True)
    G = torch.tensor([[1., 2.], [-1., 0.5]])
    Z = X @ W
    (Z.relu() * G).sum().backward()
    grad_Z = G * (Z > 0)
    assert torch.equal(grad_Z @ W.T, X.grad) and torch.equal(X.T @ grad_Z, W.grad)
    assert Z[0].tolist() == [-2.0, -4.75] and X.grad[0].tolist() == [0.0, 0.0, 0.0]
    assert _outputs("grad_Z = G * (Z > 0)")[2] == "True True"


@pytest.mark.torch
def test_the_exercises_accept_pytorchs_answers(torch):
    assert l10._minigrad_outcomes() == [(0.0, 0.0), (0.0, 0.0), (15.0, 5.0)]
    for a, (y, g) in zip((-2.0, 0.0, 3.0), l10._minigrad_outcomes()):
        t = torch.tensor(a, dtype=torch.float64, requires_grad=True)
        out = t.relu() * 5.0
        out.backward()
        assert (out.item(), t.grad.item()) == (y, g)
    order = [n for n in _order_in(torch, _exercise_2) if n != ACCUMULATE]
    assert judge("L10.order", order, lang="en")[0] is True
    X2, W2, G2 = (torch.tensor(a.tolist(), requires_grad=i == 0)
                  for i, a in enumerate(l10._matmul_case()))
    ((X2 @ W2).relu() * G2).sum().backward()
    assert judge("L10.matmul", X2.grad, lang="en")[0] is True
    scope = _engine()

    def relu(self):
        out = scope["Value"](max(self.data, 0.0), (self,), "relu")

        def _backward():
            self.grad += (self.data > 0) * out.grad
        out._backward = _backward
        return out

    scope["Value"].relu = relu
    assert judge("L10.relu", scope["Value"], lang="zh")[0] is True


@pytest.mark.parametrize("judge_fn, wrong, message", [
    (l10.relu, lambda: l10._value_with_relu(lambda a, g: g), l10.OPEN_WHERE_NEGATIVE),
    (l10.relu, lambda: l10._value_with_relu(lambda a, g: (a >= 0) * g), l10.AT_ZERO),
    (l10.relu, lambda: l10._value_with_relu(lambda a, g: max(a, 0.) * g),
     l10.CHANGED_WHERE_OPEN),
    (l10.relu, lambda: l10._value_with_relu(lambda a, g: 0.0), l10.NOTHING),
    (l10.relu, lambda: 0, l10.NOT_A_CLASS),
    (l10.order, lambda: l10._orders()[1], l10.SORTED),
    (l10.order, lambda: ["AddBackward0", "TanhBackward0"], l10.COUNT),
    (l10.matmul, l10._ungated, l10.NO_GATE),
    (l10.matmul, l10._untransposed, l10.NO_TRANSPOSE),
    (l10.matmul, lambda: l10._ungated().T, l10.SHAPE),
])
def test_each_typical_wrong_answer_is_told_what_is_wrong_with_it(judge_fn, wrong, message):
    assert judge_fn(wrong()) is message


def _prose(lang: str) -> list[str]:
    return [b.text for b in build.parse(SOURCE) if b.kind == lang]


def test_each_english_block_and_its_chinese_twin_have_the_same_sections():
    def headings(text):
        return [m.group(1) + (m.group(2) or "") for m in re.finditer(r"^(#+) *(\d+)?", text,
                                                                      re.M)]

    en, zh = _prose("en"), _prose("zh")
    assert len(en) == len(zh) >= 10
    assert [headings(t) for t in en] == [headings(t) for t in zh]


def test_the_chinese_lesson_uses_the_glossarys_terms_and_ends_with_a_glossary():
    text = "\n".join(_prose("zh"))
    for term in ("计算图", "叶子节点", "多路径梯度相加", "梯度累加", "单步执行器", "链式法则"):
        assert term in text, term
    assert "**术语表**" in _prose("zh")[-1]


@pytest.mark.parametrize("lang, word, context", [
    ("zh", "梯度累加", ("反向传播", "AccumulateGrad", "accumulating")),
    ("en", "accumulat", ("pass",)),
])
def test_accumulation_is_only_ever_said_of_grad_across_passes(lang, word, context):
    """Gradients meeting within one pass are "summed where paths meet" (多路径梯度相加);
    accumulation (梯度累加) is `.grad` across backward passes, and nothing else."""
    said = 0
    for text in _prose(lang):
        prose = re.sub(r"```.*?```|`[^`\n]*`", "", text, flags=re.S)  # (code names things)
        flat = re.sub(r"\s*\n\s*", "" if lang == "zh" else " ", prose)
        for sentence in re.split(r"[。；]|\.\s|\|\n", flat):
            if word in sentence:
                said += 1
                assert any(c in sentence for c in context), sentence
    assert said >= 3


def test_the_engine_is_about_as_long_as_the_lesson_says():
    (code,) = [b.text for b in build.parse(SOURCE) if b.kind == "code" and "class Value" in b.text]
    lines = [line for line in code.splitlines()
             if line.strip() and not line.strip().startswith(('"""', "#"))]
    said = re.search(r"in about (\d+)\s+lines", _prose("en")[0])
    assert said and abs(len(lines) - int(said[1])) <= 5, len(lines)
    assert f"大约 {said[1]} 行" in _prose("zh")[0]


@pytest.mark.torch
def test_the_edges_of_l_print_as_pytorch_prints_them(torch):
    x, w, b = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (.5, -1.5, 1.))
    loss = (w * x + b).tanh() * x
    printed = [str(loss.grad_fn.next_functions), str(loss.grad_fn.next_functions[1][0].variable
                                                     is x)]
    mask = re.compile(r"0x[0-9a-f]+")
    assert [mask.sub("0x", line) for line in _outputs("print(Lt.grad_fn.next_functions)")] == \
        [mask.sub("0x", line) for line in printed]
