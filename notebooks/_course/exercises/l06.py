"""Lesson 6, switching recording off: the exercises' judges."""

from __future__ import annotations

from ..answers import close
from ..registry import Text, exercise


@exercise("L6.block",
          hint=Text(en="Detach the first factor only: z = x.detach() * x. Then dz/dx is the "
                       "detached factor, x itself, not 2x.",
                    zh="只 detach 第一个因子：z = x.detach() * x。这样 dz/dx 就是被 detach 的"
                       "那个因子，也就是 x 本身，而不是 2x。"),
          right=Text(en="One path blocked: the gradient is x, not 2x.",
                     zh="挡住了一条路径：梯度是 x，而不是 2x。"),
          wrong=[[2.0, 4.0, 6.0], [0.0, 0.0, 0.0]])
def block(answer):
    return close(answer, [1.0, 2.0, 3.0])


@exercise("L6.loop",
          hint=Text(en="Count the doublings: y = 2x first, then y = 2y while the norm of y is "
                       "under 1000. With x = [1, 1, 1] the norm of 2ᵏ·x is 2ᵏ·√3; each "
                       "doubling multiplies the gradient by 2.",
                    zh="数一数翻倍了几次：先 y = 2x，然后只要 y 的范数小于 1000 就 y = 2y。"
                       "x = [1, 1, 1] 时 2ᵏ·x 的范数是 2ᵏ·√3；每翻倍一次，梯度就乘以 2。"),
          right=Text(en="Ten doublings (2¹⁰·√3 ≈ 1774 is the first norm over 1000): 2¹⁰ = 1024.",
                     zh="翻倍十次（2¹⁰·√3 ≈ 1774 是第一个超过 1000 的范数）：2¹⁰ = 1024。"),
          wrong=[[512.0, 512.0, 512.0], [2048.0, 2048.0, 2048.0], [1.0, 1.0, 1.0]])
def loop(answer):
    return close(answer, [1024.0, 1024.0, 1024.0])


@exercise("L6.inplace",
          hint=Text(en="Answer with a pair (x.grad, a). Write a = a + 1: a new tensor, so the "
                       "one saved by b's node keeps version 0, and b = a² still has gradient "
                       "2a = 2x. Adding 1 before computing b changes b itself.",
                    zh="答案是二元组 (x.grad, a)。写成 a = a + 1：这是一个新张量，b 的节点保存的"
                       "那个张量版本仍是 0，b = a² 的梯度仍是 2a = 2x。在计算 b 之前加 1，"
                       "b 本身就变了。"),
          right=Text(en="An out-of-place a + 1 leaves the saved tensor untouched.",
                     zh="非原地的 a + 1 不会碰到被保存的张量。"),
          wrong=[([4.0, 6.0, 8.0], [2.0, 3.0, 4.0]), ([2.0, 4.0, 6.0], [1.0, 2.0, 3.0]),
                 [2.0, 4.0, 6.0]])
def inplace(answer):
    grad, a = answer
    return close(grad, [2.0, 4.0, 6.0]) and close(a, [2.0, 3.0, 4.0])
