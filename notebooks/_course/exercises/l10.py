"""Lesson 10, build an engine, then read ours: the exercises' judges.

The judges ask minigrad for the right answer (a ReLU's gradient, the engine's order, a
gradient through a matrix product) instead of holding it here.
"""

from __future__ import annotations

import math

from ..answers import array, node_names
from ..registry import Text, exercise

ACCUMULATE = "torch::autograd::AccumulateGrad"


def _exercise(exercise_id: str, *, hints, wrong, right):
    """Registers the judge with graduated hints and a message per typical wrong answer."""
    return exercise(exercise_id, hints=hints, wrong=wrong, right=right)


# ---------------------------------------------------------------- L10.relu
def _relu_outcomes(cls) -> list[tuple[float, float]]:
    """``(relu(a) * 5, a.grad)`` of the learner's ``Value`` class at a = -2, 0 and 3."""
    outcomes = []
    for a in (-2.0, 0.0, 3.0):
        v = cls(a)
        y = v.relu() * cls(5.0)
        y.backward()
        outcomes.append((float(y.data), float(v.grad)))
    return outcomes


def _minigrad_outcomes() -> list[tuple[float, float]]:
    import minigrad as torch

    outcomes = []
    for a in (-2.0, 0.0, 3.0):
        v = torch.tensor(a, dtype=torch.float64, requires_grad=True)
        y = v.relu() * 5.0
        y.backward()
        outcomes.append((y.item(), v.grad.item()))
    return outcomes


def _value_with_relu(backward):
    """A small Value class (the lesson's) whose relu sends ``backward(a, out_grad)`` to a."""

    class Value:
        def __init__(self, data, parents=()):
            self.data, self.grad, self.parents = data, 0.0, parents
            self._backward = lambda: None

        def __mul__(self, other):
            out = Value(self.data * other.data, (self, other))

            def _backward():
                self.grad += other.data * out.grad
                other.grad += self.data * out.grad
            out._backward = _backward
            return out

        def relu(self):
            out = Value(max(self.data, 0.0), (self,))

            def _backward():
                self.grad += backward(self.data, out.grad)
            out._backward = _backward
            return out

        def backward(self):  # (a chain or a product of two leaves: this order is enough)
            self.grad = 1.0
            todo = [self]
            while todo:
                v = todo.pop()
                v._backward()
                todo.extend(v.parents)

    return Value


NOT_A_CLASS = Text(en="Answer with the class itself, after Value.relu = relu: answer = Value.",
                   zh="在 Value.relu = relu 之后，用这个类本身作答：answer = Value。")
NOTHING = Text(en="No gradient reaches the input at all: did you fill in the line of _backward "
                  "and run the cell again?",
               zh="没有任何梯度到达输入：你补全 _backward 里的那一行并重新运行单元格了吗？")
AT_ZERO = Text(en="Right except at exactly 0: there PyTorch's gate is closed (it sends 0).",
               zh="只有恰好在 0 处不对：PyTorch 的门在 0 处是关着的（送出 0）。")
OPEN_WHERE_NEGATIVE = Text(en="At a = -2 the input still receives a gradient: the gate must "
                              "close where the input is negative.",
                           zh="在 a = -2 处输入仍然收到了梯度：输入为负时，门必须关上。")
CHANGED_WHERE_OPEN = Text(en="Where the input is positive the gate is open: out.grad passes "
                             "unchanged (times 1, not times the input).",
                          zh="输入为正时门是开着的：out.grad 原样通过（乘以 1，而不是乘以输入）。")


@_exercise("L10.relu",
           hints=[Text(en="A ReLU is a gate: where is it open, and what passes through it?",
                       zh="ReLU 是一道门：它在哪里打开？什么会从门里通过？"),
                  Text(en="relu passes out.grad on where the input is positive and sends 0 "
                          "elsewhere: self.grad += (a 0-or-1 factor) * out.grad.",
                       zh="relu 在输入为正的地方把 out.grad 原样传下去，其他地方送出 0："
                          "self.grad += （一个为 0 或 1 的因子）* out.grad。")],
           wrong=[(lambda: _value_with_relu(lambda a, g: g), OPEN_WHERE_NEGATIVE),
                  (lambda: _value_with_relu(lambda a, g: (a >= 0) * g), AT_ZERO),
                  (lambda: _value_with_relu(lambda a, g: max(a, 0.0) * g), CHANGED_WHERE_OPEN),
                  (lambda: _value_with_relu(lambda a, g: 0.0), NOTHING),
                  (0, NOT_A_CLASS)],
           right=Text(en="A gate: open (×1) where the input is positive, closed (×0) elsewhere.",
                      zh="一道门：输入为正时打开（×1），否则关闭（×0）。"))
def relu(answer):
    if not isinstance(answer, type) or not hasattr(answer, "relu"):
        return NOT_A_CLASS
    got, want = _relu_outcomes(answer), _minigrad_outcomes()
    grads = [g for _, g in got]
    if grads == [0.0, 0.0, 0.0]:
        return NOTHING
    if grads[0] != want[0][1]:
        return OPEN_WHERE_NEGATIVE
    if grads[1] != want[1][1]:
        return AT_ZERO
    if grads[2] != want[2][1]:
        return CHANGED_WHERE_OPEN
    return all(math.isclose(g[0], w[0]) for g, w in zip(got, want))


# ---------------------------------------------------------------- L10.order
def _orders() -> tuple[list[str], list[str]]:
    """PyTorch's order for q = c·d + tanh(a·b) (without AccumulateGrad), and a topological
    sort's (the lesson's: the sum's operands' branches the other way round)."""
    import minigrad as torch
    from minigrad.autograd.engine import execution_order

    a, b, c, d = (torch.tensor(v, requires_grad=True) for v in (0.5, -1.5, 2.0, 0.25))
    q = c * d + (a * b).tanh()
    engine = [n.name() for n in execution_order(q) if n.name() != ACCUMULATE]
    # the sort visits a node's parents last-first, so it finishes tanh(a·b) first and runs it last
    sort = [engine[0], *engine[3:], *engine[1:3]]
    return engine, sort


SORTED = Text(en="That is the order of our topological sort. PyTorch does not sort: it runs "
                 "the newest ready node first.",
              zh="这是我们拓扑排序的顺序。PyTorch 不做排序：它先运行最新的已就绪节点。")
COUNT = Text(en="Four op nodes run (AccumulateGrad left out): one per operation of q.",
             zh="运行的运算节点有四个（不计 AccumulateGrad）：q 的每个运算一个。")


@_exercise("L10.order",
           hints=[Text(en="After AddBackward0 both branches are ready. Which node runs first "
                          "among ready ones?",
                       zh="AddBackward0 运行之后，两个分支都已就绪。已就绪的节点中，哪个先运行？"),
                  Text(en="Of the ready nodes, the one created last in the forward pass runs "
                          "first. Which was made last: c * d, or tanh?",
                       zh="已就绪的节点中，前向计算时最后创建的先运行。哪个是最后创建的："
                          "c * d，还是 tanh？")],
           wrong=[(lambda: _orders()[1], SORTED), (["AddBackward0"], COUNT)],
           right=Text(en="tanh was created after c * d, so its branch runs first: the opposite "
                         "of section 4, and the opposite of our sort.",
                      zh="tanh 在 c * d 之后创建，所以它这一支先运行：和第 4 节相反，也和我们的"
                         "拓扑排序相反。"))
def order(answer):
    engine, sort = _orders()
    names = [n for n in node_names(answer) if n != ACCUMULATE]
    if names == sort:
        return SORTED
    if len(names) != len(engine):
        return COUNT
    return names == engine


# ---------------------------------------------------------------- L10.matmul
def _matmul_case():
    import minigrad as torch

    X2 = torch.tensor([[1., 2., -1.], [0.5, -1., 1.]], requires_grad=True)
    W2 = torch.tensor([[1., 0., 2.], [-1., 1., 0.], [0.5, -2., 1.]])
    G2 = torch.tensor([[1., -1., 2.], [0.5, 1., -1.]])
    return X2, W2, G2


def _matmul_grad():
    X2, W2, G2 = _matmul_case()
    ((X2 @ W2).relu() * G2).sum().backward()
    return array(X2.grad)


def _ungated():
    X2, W2, G2 = _matmul_case()
    return array(G2 @ W2.T)


def _untransposed():
    X2, W2, G2 = _matmul_case()
    return array((G2 * (X2 @ W2 > 0)) @ W2)


SHAPE = Text(en="X2's gradient has X2's shape, 2 × 3.", zh="X2 的梯度和 X2 形状相同，是 2 × 3。")
NO_GATE = Text(en="The gate is missing: where Z2 <= 0 the ReLU sends no gradient.",
               zh="少了门：在 Z2 <= 0 的位置，ReLU 不送出梯度。")
NO_TRANSPOSE = Text(en="The shapes fit, but the factor must be transposed: @ W2.T, not @ W2.",
                    zh="形状对得上，但因子必须转置：是 @ W2.T，不是 @ W2。")


@_exercise("L10.matmul",
           hints=[Text(en="Two steps, from H back to X2: first through the ReLU, then through "
                          "the matrix product.",
                       zh="从 H 回到 X2 分两步：先穿过 ReLU，再穿过矩阵乘法。"),
                  Text(en="First the gate: grad_Z = G2 * (Z2 > 0). Then the matrix product "
                          "swaps the factors, transposed: X2's gradient is grad_Z @ (something).",
                       zh="先过门：grad_Z = G2 * (Z2 > 0)。然后矩阵乘法交换因子并转置：X2 的梯度是 "
                          "grad_Z @ （某个矩阵）。")],
           wrong=[(_ungated, NO_GATE), (_untransposed, NO_TRANSPOSE),
                  (lambda: _untransposed().T, SHAPE)],
           right=Text(en="Through the gate first, then the matrix product: the other factor, "
                         "transposed.",
                      zh="先过门，再穿过矩阵乘法：乘另一个因子的转置。"))
def matmul(answer):
    got, want = array(answer), _matmul_grad()
    if got.shape != want.shape:
        return SHAPE
    if _close(got, _ungated()):
        return NO_GATE
    if _close(got, _untransposed()):
        return NO_TRANSPOSE
    return _close(got, want)


def _close(a, b) -> bool:
    import numpy as np

    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-5, atol=1e-6))
