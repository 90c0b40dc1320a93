"""Lesson 6, switching recording off: the exercises."""

from __future__ import annotations

from ..answers import Values
from ..registry import Text, exercise

exercise(
    "L6.block", expect=Values("5e4d0903d70891b00fbbf418", shape=(3,)),
    hints=[Text(en="x * x has two paths back to x, one through each factor; detach() cuts "
                   "the path through the tensor it is called on.",
                zh="x * x 有两条路径回到 x，每个因子一条；detach() 切断经过它所作用的那个张量的"
                   "路径。"),
           Text(en="Call detach() on the first factor only, then z.sum().backward(). The path "
                   "left is the second factor's, whose derivative is the other factor.",
                zh="只对第一个因子调用 detach()，再 z.sum().backward()。剩下的是第二个因子的"
                   "路径，它的导数是另一个因子。")],
    wrong=[([2.0, 4.0, 6.0], Text(en="That is 2x, both paths: detach one factor to block its "
                                     "path.",
                                  zh="这是 2x，两条路径都在：detach 其中一个因子来挡住它的路径。")),
           ([0.0, 0.0, 0.0], Text(en="Both paths are blocked (or x.grad was zeroed): detach only "
                                     "one factor.",
                                  zh="两条路径都被挡住了（或者 x.grad 被清零了）：只 detach 一个"
                                     "因子。"))],
    right=Text(en="One path blocked: the gradient through the other factor alone.",
               zh="挡住了一条路径：只剩经过另一个因子的梯度。"))

exercise(
    "L6.loop", expect=Values("581ec5c2f2074554dfb16bd7", shape=(3,)),
    hints=[Text(en="Count the doublings: grow doubles y while its norm is under 1000, and each "
                   "doubling multiplies the gradient by 2.",
                zh="数一数翻倍了几次：只要 y 的范数小于 1000，grow 就把它翻倍，每翻倍一次梯度就"
                   "乘以 2。"),
           Text(en="With x = [1, 1, 1] the norm after k doublings is 2ᵏ·√3: find the first k "
                   "for which it is over 1000; x.grad is 2ᵏ in each element.",
                zh="x = [1, 1, 1] 时，翻倍 k 次后的范数是 2ᵏ·√3：找出第一个使它超过 1000 的 k；"
                   "x.grad 的每个元素都是 2ᵏ。")],
    wrong=[([512.0, 512.0, 512.0], Text(en="One doubling short: the loop stops only once the "
                                           "norm is 1000 or more.",
                                        zh="少算了一次翻倍：范数达到 1000 或以上时循环才停止。")),
           ([2048.0, 2048.0, 2048.0], Text(en="One doubling too many: the loop stops as soon "
                                              "as the norm reaches 1000.",
                                           zh="多算了一次翻倍：范数一达到 1000 循环就停止。")),
           ([1.0, 1.0, 1.0], Text(en="The loop is recorded like any other code: every doubling "
                                     "is a node in the graph.",
                                  zh="循环和其他代码一样会被记录：每一次翻倍都是图中的一个节点。"))])

exercise(
    "L6.inplace", expect=Values("872366881de5bfba181bc425", shape=(2, 3)),
    hints=[Text(en="An in-place add_ changes the very tensor b's node saved. Write the "
                   "addition so that it makes a new tensor instead.",
                zh="原地的 add_ 改动的正是 b 的节点保存的那个张量。改写这个加法，让它生成一个"
                   "新张量。"),
           Text(en="a = a + 1 makes a new tensor; the one b's node saved keeps version 0, and "
                   "b = a² still has gradient 2a. Answer with the pair (x.grad, a).",
                zh="a = a + 1 会生成一个新张量；b 的节点保存的那个张量版本仍是 0，"
                   "b = a² 的梯度仍是 2a。答案是二元组 (x.grad, a)。")],
    wrong=[(([4.0, 6.0, 8.0], [2.0, 3.0, 4.0]),
            Text(en="x.grad is 2·a with a the tensor b's node saved, the one before adding 1: "
                    "add 1 after b is computed, out of place.",
                 zh="x.grad 是 2·a，其中 a 是 b 的节点保存的那个张量，也就是加 1 之前的那个："
                    "在算出 b 之后，用非原地的方式加 1。")),
           (([2.0, 4.0, 6.0], [1.0, 2.0, 3.0]),
            Text(en="x.grad is right, but a should still have 1 added.",
                 zh="x.grad 对了，但 a 仍然应该加上 1。")),
           ([2.0, 4.0, 6.0], Text(en="Answer with the pair (x.grad, a), not x.grad alone.",
                                  zh="答案是二元组 (x.grad, a)，而不只是 x.grad。"))],
    right=Text(en="An out-of-place a + 1 leaves the saved tensor untouched.",
               zh="非原地的 a + 1 不会碰到被保存的张量。"))
