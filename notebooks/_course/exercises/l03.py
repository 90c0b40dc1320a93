"""Lesson 3, backward() node by node: the exercises."""

from __future__ import annotations

from ..answers import Number, Values
from ..registry import Text, exercise

exercise(
    "L3.mul", expect=Values("0f5107dc9caca9e16c655152", shape=(2,)),
    hints=[Text(en="For p = a * b: ∂p/∂a = b and ∂p/∂b = a. Multiply each by the incoming "
                   "gradient.",
                zh="对 p = a * b：∂p/∂a = b，∂p/∂b = a。各自乘以传入的梯度。"),
           Text(en="a receives 0.5 · b and b receives 0.5 · a, with a = 4, b = -2: "
                   "answer [0.5 * b, 0.5 * a] as numbers.",
                zh="a 收到 0.5 · b，b 收到 0.5 · a，其中 a = 4、b = -2："
                   "用数字写出 [0.5 * b, 0.5 * a]。")],
    wrong=[([2.0, -1.0], Text(en="Those are the incoming gradient times each one's own value: "
                                 "mul swaps the factors.",
                              zh="这是传入的梯度乘以各自本身的值：乘法要交换因子。")),
           ([0.5, 0.5], Text(en="That is what an addition sends on; a product multiplies the "
                                "gradient by the other factor.",
                             zh="这是加法传下去的梯度；乘法要把梯度乘以另一个因子。")),
           ([-2.0, 4.0], Text(en="You swapped the factors but forgot the incoming gradient "
                                 "0.5.",
                              zh="你交换了因子，但忘了乘以传入的梯度 0.5。"))])

NOT_A_QUIZ = Text(en="Answer with the quiz stepper itself: answer = quiz2.",
                  zh="请用测验的单步执行器本身作答：answer = quiz2。")
NOT_FINISHED = Text(en="The quiz is not finished yet: predict every step until backward() is "
                       "done.",
                    zh="测验还没完成：预测每一步，直到 backward() 结束。")


def _quiz(order):
    from minigrad_widgets import BackwardStepper

    import minigrad as torch

    a = torch.tensor(4., requires_grad=True)
    b = torch.tensor(-2., requires_grad=True)
    quiz = BackwardStepper(a * b + a, predict=True, names={"a": a, "b": b})
    for guess in order:
        quiz.predict(guess)
    return quiz


@exercise(
    "L3.order",
    hints=[Text(en="A node runs only once every node that uses its output has sent its "
                   "gradient. Which node is the only one ready at the start?",
                zh="一个节点要等所有使用它输出的节点都传来梯度才运行。一开始只有哪个节点是就绪的？"),
           Text(en="Of the ready nodes, a leaf whose gradient has arrived goes first, then the "
                   "node created last in the forward pass; two ready leaves are a tie, and "
                   "either order counts. Run the quiz cell again and retry.",
                zh="在已就绪的节点中，梯度已到齐的叶子节点最先运行，其次是前向计算时最后创建的节点；"
                   "两个同时就绪的叶子节点谁先谁后都算对。重新运行测验单元格再试一次。")],
    wrong=[(lambda: _quiz(["AddBackward0"]), NOT_FINISHED),
           (["MulBackward0", "AddBackward0", "a", "b"], NOT_A_QUIZ)])
def order(answer):
    if not hasattr(answer, "score"):
        return NOT_A_QUIZ
    if answer.step_index < answer.total_steps:
        return NOT_FINISHED
    right, asked = answer.score  # finished with a wrong first guess: the next hint
    return asked == answer.total_steps and right == asked


exercise(
    "L3.fork", expect=Number("bb03bb0498d0fbfc3205ecac"),
    hints=[Text(en="Write x * x * x as (x * x) * x and count the edges that lead into x's "
                   "AccumulateGrad node.",
                zh="把 x * x * x 写成 (x * x) * x，数一数有几条边通向 x 的 AccumulateGrad 节点。"),
           Text(en="Step through it: BackwardStepper(c), run(), and read the list of "
                   "gradients that arrived at x's AccumulateGrad step.",
                zh="用单步执行器看一看：BackwardStepper(c)，run()，再读 x 的 AccumulateGrad "
                   "那一步里到达的梯度列表。")],
    wrong=[(2, Text(en="The inner product x * x uses x twice, and the outer one uses it once "
                       "more.",
                    zh="里面的 x * x 用了 x 两次，外面的乘法又用了一次。")),
           (1, Text(en="Gradients from every use of x arrive at its node: they are summed "
                       "there before AccumulateGrad runs once.",
                    zh="x 的每一次使用都会把梯度送到它的节点：这些梯度先在那里相加，"
                       "AccumulateGrad 再运行一次。")),
           (12, Text(en="12 is the value of x.grad (3x²): the question asks how many gradients "
                        "arrive.",
                     zh="12 是 x.grad 的值（3x²）：题目问的是到达了几个梯度。"))])
