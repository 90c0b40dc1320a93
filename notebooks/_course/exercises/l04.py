"""Lesson 4, the gradient argument: the exercises."""

from __future__ import annotations

from ..answers import Values
from ..registry import Text, exercise

exercise(
    "L4.jacobian", expect=Values("f725c820b8356302bfcee38c", shape=(2, 2)),
    hints=[Text(en="Row i is output u[i], column j is input x[j]: J[i][j] = ∂u[i]/∂x[j].",
                zh="第 i 行对应输出 u[i]，第 j 列对应输入 x[j]：J[i][j] = ∂u[i]/∂x[j]。"),
           Text(en="∂(x0·x1)/∂x0 = x1 and ∂(x0·x1)/∂x1 = x0; a sum's partial derivatives are "
                   "1. Put the numbers at x = [2., 3.] into a list of two rows.",
                zh="∂(x0·x1)/∂x0 = x1，∂(x0·x1)/∂x1 = x0；和的偏导数都是 1。"
                   "把 x = [2., 3.] 处的数值写成两行的列表。")],
    wrong=[([[3., 1.], [2., 1.]], Text(en="That is J transposed: rows are outputs, columns "
                                          "inputs.",
                                       zh="这是 J 的转置：行对应输出，列对应输入。")),
           ([[2., 3.], [1., 1.]], Text(en="In row 0, ∂(x0·x1)/∂x0 is the OTHER factor, x1.",
                                       zh="第 0 行里，∂(x0·x1)/∂x0 是另一个因子 x1。")),
           ([[3., 2.], [0., 0.]], Text(en="u[1] = x0 + x1 changes when either input changes: "
                                          "its row is not zero.",
                                       zh="u[1] = x0 + x1 随任一输入变化：它那一行不是零。"))])

exercise(
    "L4.vjp", expect=Values("31dc540ad9d5daa421b31ccd", shape=(3,)),
    hints=[Text(en="backward(v) computes v @ J: a weighted sum of J's rows, with the weights "
                   "in v.",
                zh="backward(v) 计算的是 v @ J：用 v 中的权重对 J 的各行加权求和。"),
           Text(en="x.grad = v @ J with v = [2., -1.]: 2 times row 0 of J minus row 1. "
                   "torch.tensor([2., -1.]) @ J computes it.",
                zh="x.grad = v @ J，v = [2., -1.]：J 第 0 行的 2 倍减去第 1 行。"
                   "torch.tensor([2., -1.]) @ J 就能算出来。")],
    wrong=[([2., -1.], Text(en="x.grad has the shape of x (three numbers), not of y.",
                            zh="x.grad 的形状和 x 相同（三个数），而不是和 y 相同。")),
           ([4., 16., 0.], Text(en="That is 2 · row 0 alone: v's second weight, −1, multiplies "
                                   "row 1.",
                                zh="这只是第 0 行的 2 倍：v 的第二个权重 −1 还要乘以第 1 行。")),
           ([4., 4., -6.], Text(en="Go column by column: element j is "
                                   "2 · J[0][j] − 1 · J[1][j].",
                                zh="逐列计算：第 j 个元素是 2 · J[0][j] − 1 · J[1][j]。"))])

exercise(
    "L4.row", expect=Values("966dba72ef5ce84a3dbc5f2b", shape=(2,)),
    hints=[Text(en="v @ J picks rows of J with the weights in v. Which weights pick one row "
                   "and drop the other?",
                zh="v @ J 用 v 中的权重组合 J 的各行。什么样的权重能只取一行、丢掉另一行？"),
           Text(en="Put a 1 where the row you want is, and 0 elsewhere. v has the shape of y, "
                   "and rows are counted from 0.",
                zh="想要哪一行，就在那个位置放 1，其余放 0。v 的形状和 y 相同，行号从 0 开始数。")],
    wrong=[([0., 1., 0.], Text(en="gradient has the shape of y (two numbers), not of x.",
                               zh="gradient 的形状和 y 相同（两个数），而不是和 x 相同。")),
           ([1., 0.], Text(en="That picks row 0: rows are counted from 0, and the question "
                              "asks for the other one.",
                           zh="这取的是第 0 行：行号从 0 开始数，题目要的是另一行。")),
           ([1., 1.], Text(en="That adds both rows, as y.sum().backward() would.",
                           zh="这把两行加在了一起，和 y.sum().backward() 的效果一样。"))])
