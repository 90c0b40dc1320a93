"""Lesson 4, the gradient argument: the exercises' judges."""

from __future__ import annotations

from ..answers import array, close
from ..registry import Text, exercise


@exercise("L4.jacobian",
          hint=Text(en="Row i is output u[i], column j is input x[j]: "
                       "J[i][j] = ∂u[i]/∂x[j]. ∂(x0·x1)/∂x0 = x1.",
                    zh="第 i 行对应输出 u[i]，第 j 列对应输入 x[j]：J[i][j] = ∂u[i]/∂x[j]。"
                       "∂(x0·x1)/∂x0 = x1。"),
          wrong=[[[3., 1.], [2., 1.]], [[2., 3.], [1., 1.]], [[3., 2.], [0., 0.]]])
def jacobian(answer):
    if close(answer, [[3., 1.], [2., 1.]]):
        return Text(en="That is J transposed: rows are outputs, columns inputs.",
                    zh="这是 J 的转置：行对应输出，列对应输入。")
    return close(answer, [[3., 2.], [1., 1.]])


@exercise("L4.vjp",
          hint=Text(en="x.grad = v @ J with v = [2., -1.]: 2 times row 0 of J minus row 1.",
                    zh="x.grad = v @ J，v = [2., -1.]：J 第 0 行的 2 倍减去第 1 行。"),
          wrong=[[4., 16., 0.], [4., 4., -6.], [2., -1.]])
def vjp(answer):
    if array(answer).shape == (2,):
        return Text(en="x.grad has the shape of x (three numbers), not of y.",
                    zh="x.grad 的形状和 x 相同（三个数），而不是和 y 相同。")
    return close(answer, [4., 12., 6.])


@exercise("L4.row",
          hint=Text(en="v @ J picks rows of J with the weights in v: put a 1 where the row "
                       "you want is, and 0 elsewhere. v has the shape of y.",
                    zh="v @ J 用 v 中的权重组合 J 的各行：想要哪一行，就在那个位置放 1，"
                       "其余放 0。v 的形状和 y 相同。"),
          wrong=[[1., 0.], [0., 1., 0.], [1., 1.]])
def row(answer):
    if array(answer).shape == (3,):
        return Text(en="gradient has the shape of y (two numbers), not of x.",
                    zh="gradient 的形状和 y 相同（两个数），而不是和 x 相同。")
    return close(answer, [0., 1.])
