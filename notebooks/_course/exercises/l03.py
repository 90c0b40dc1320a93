"""Lesson 3, backward() node by node: the exercises' judges."""

from __future__ import annotations

from ..answers import close
from ..registry import Text, exercise


@exercise("L3.mul",
          hint=Text(en="Mul swaps the factors: a receives grad · b, and b receives grad · a.",
                    zh="乘法交换因子：a 收到 grad · b，b 收到 grad · a。"),
          wrong=[[2.0, -1.0], [0.5, 0.5], [-2.0, 4.0]])
def mul(answer):
    if close(answer, [2.0, -1.0]):
        return Text(en="Those are grad times each one's own value: swap the factors.",
                    zh="这是 grad 乘以各自本身的值：要交换因子。")
    return close(answer, [-1.0, 2.0])


def _quiz(order):
    from minigrad_widgets import BackwardStepper

    import minigrad as torch

    a = torch.tensor(4., requires_grad=True)
    b = torch.tensor(-2., requires_grad=True)
    quiz = BackwardStepper(a * b + a, predict=True, names={"a": a, "b": b})
    for guess in order:
        quiz.predict(guess)
    return quiz


@exercise("L3.order",
          hint=Text(en="A node runs once every node that uses its output has sent its gradient; "
                       "of the ready nodes, the one made last in the forward pass runs first. "
                       "Run the quiz cell again and retry.",
                    zh="一个节点要等所有使用它输出的节点都传来梯度才运行；在已就绪的节点中，前向计算时"
                       "最后创建的先运行。重新运行测验单元格再试一次。"),
          wrong=[lambda: _quiz(["MulBackward0", "AddBackward0", "b", "a"]),
                 lambda: _quiz(["AddBackward0"]), ["AddBackward0", "MulBackward0", "b", "a"]])
def order(answer):
    if not hasattr(answer, "score"):
        return Text(en="Answer with the quiz stepper itself: answer = quiz2.",
                    zh="请用测验的单步执行器本身作答：answer = quiz2。")
    if answer.step_index < answer.total_steps:
        return Text(en="The quiz is not finished yet: predict every step until backward() is "
                       "done.",
                    zh="测验还没完成：预测每一步，直到 backward() 结束。")
    right, asked = answer.score
    return asked == answer.total_steps and right == asked


@exercise("L3.fork",
          hint=Text(en="x * x * x is (x * x) * x: count the edges that lead into x's node.",
                    zh="x * x * x 就是 (x * x) * x：数一数有几条边通向 x 的节点。"),
          wrong=[2, 1, 12])
def fork(answer):
    return answer == 3
