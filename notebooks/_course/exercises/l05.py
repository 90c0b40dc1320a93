"""Lesson 5, accumulation and the graph's lifetime: the exercises."""

from __future__ import annotations

from ..answers import Choice, Number, Values
from ..registry import Text, exercise

exercise(
    "L5.total", expect=Values("36a47a7422270da5e2732da0", shape=(2,)),
    hints=[Text(en="Each backward() adds its gradient into x.grad; nothing in the loop resets "
                   "it.",
                zh="每次 backward() 都把它的梯度加进 x.grad；循环里没有任何地方把它清零。"),
           Text(en="One backward() of (3 * x).sum() gives d(3x)/dx = 3 for each element; the "
                   "loop runs three times.",
                zh="(3 * x).sum() 的一次 backward() 给每个元素 d(3x)/dx = 3；循环执行了三次。")],
    wrong=[([3., 3.], Text(en="That is one backward(): .grad accumulates across the three "
                              "calls (梯度累加).",
                           zh="这是一次 backward() 的结果：三次调用的梯度会累加（梯度累加）。")),
           ([3., 6.], Text(en="The gradient of (3 * x).sum() does not depend on x's values: "
                              "it is 3 for every element.",
                           zh="(3 * x).sum() 的梯度与 x 的值无关：每个元素都是 3。")),
           ([9., 18.], Text(en="The gradient of 3x is 3 whatever x is: do not multiply by x.",
                            zh="3x 的梯度总是 3，与 x 无关：不要乘以 x。"))])

exercise(
    "L5.keep", expect=Choice("7aaaafd54e85bb27ec7f6112"),
    hints=[Text(en="The error comes from the second call, but what it complains about happened "
                   "during the first one.",
                zh="报错发生在第二次调用，但它抱怨的事情发生在第一次调用期间。"),
           Text(en="A backward() frees the tensors its nodes saved, unless told to keep the "
                   "graph; create_graph is about recording the backward pass itself.",
                zh="backward() 会释放节点保存的张量，除非告诉它保留计算图；create_graph 管的是"
                   "把反向传播本身记录下来。")],
    wrong=[("A", Text(en="On the second call it is too late: the first one has already freed "
                         "the saved tensors.",
                      zh="第二次才加就晚了：第一次调用已经把保存的张量释放了。")),
           ("D", Text(en="Only a graph whose nodes saved no tensors survives a backward(); "
                         "MulBackward0 here saved x.",
                      zh="只有节点没有保存任何张量的计算图才能经受住一次 backward()；"
                         "这里的 MulBackward0 保存了 x。"))])

exercise(
    "L5.second", expect=Number("319c5857857fe49883311186"),
    hints=[Text(en="Differentiate twice with torch.autograd.grad: the first call must record "
                   "its own computation so that its result can be differentiated.",
                zh="用 torch.autograd.grad 求两次导：第一次调用必须把自己的计算记录下来，"
                   "它的结果才能再求导。"),
           Text(en="(dq,) = torch.autograd.grad(t ** 4, t, create_graph=True), then "
                   "torch.autograd.grad(dq, t). By hand: d²(t⁴)/dt² = 12t².",
                zh="(dq,) = torch.autograd.grad(t ** 4, t, create_graph=True)，再 "
                   "torch.autograd.grad(dq, t)。手算：d²(t⁴)/dt² = 12t²。")],
    wrong=[(32.0, Text(en="That is the first derivative, 4t³: differentiate once more.",
                       zh="这是一阶导数 4t³：还要再求一次导。")),
           (24.0, Text(en="d(4t³)/dt = 12t², not 12t.",
                       zh="d(4t³)/dt = 12t²，不是 12t。"))])
