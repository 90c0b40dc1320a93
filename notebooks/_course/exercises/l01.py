"""Lesson 1, slopes by hand: the exercises."""

from __future__ import annotations

from ..answers import Number, Values
from ..registry import Text, exercise

exercise(
    "L1.slope", expect=Number("1d96a4c120010bdb1e1bf3c0", digits=5),
    hints=[Text(en="Use the central difference of section 4: the change of cube over a small "
                   "step on both sides of 2, divided by the width of that step.",
                zh="用第 4 节的中心差分：在 2 的两侧各走一小步，cube 的变化量除以这一步的总宽度。"),
           Text(en="(cube(2 + h) - cube(2 - h)) / (2 * h) with h = 0.001. Check it against "
                   "the derivative 3x² at x = 2.",
                zh="(cube(2 + h) - cube(2 - h)) / (2 * h)，取 h = 0.001。再用导数 3x² 在 x = 2 "
                   "处的值验证一下。")],
    wrong=[(12.006001, Text(en="That is a forward difference, (cube(2 + h) - cube(2)) / h: "
                               "its error is of order h. Step to both sides of 2.",
                            zh="这是前向差分 (cube(2 + h) - cube(2)) / h，误差是 h 量级。"
                               "请在 2 的两侧各走一步。")),
           (8.0, Text(en="That is cube(2) itself, the value, not the slope.",
                      zh="这是 cube(2) 本身，是函数值，不是斜率。")),
           (6.0, Text(en="That is 3·x at x = 2: the derivative of x³ is 3x², not 3x.",
                      zh="这是 3·x 在 x = 2 处的值：x³ 的导数是 3x²，不是 3x。"))],
    right=Text(en="The exact derivative is 3x²; a central difference is off by about h² only.",
               zh="精确的导数是 3x²；中心差分只差 h² 量级。"))

exercise(
    "L1.grad", expect=Values("fd3950fc0bfafcba5a9c6ef0", shape=(3,)),
    hints=[Text(en="Let autograd do it: compute y from x, make it one number with y.sum(), "
                   "call backward(), and read x.grad.",
                zh="交给 autograd：由 x 算出 y，用 y.sum() 变成一个数，调用 backward()，"
                   "再读 x.grad。"),
           Text(en="y = x ** 3 - 4 * x, then y.sum().backward(), then answer = x.grad. It "
                   "should hold 3x² − 4 at each x.",
                zh="y = x ** 3 - 4 * x，然后 y.sum().backward()，再令 answer = x.grad。"
                   "它在每个 x 处应该等于 3x² − 4。")],
    wrong=[([-3.0, 0.0, 15.0], Text(en="Those are the values of y, not its slope: call "
                                       "backward() and read x.grad.",
                                    zh="这是 y 的值，不是斜率：调用 backward() 再读 x.grad。")),
           ([3.0, 12.0, 27.0], Text(en="That is the slope of x³ alone: the −4x term has slope −4.",
                                    zh="这只是 x³ 的斜率：−4x 这一项的斜率是 −4。")),
           ([1.0, 1.0, 1.0], Text(en="That is the gradient of y.sum() with respect to y: "
                                     "answer with x.grad.",
                                  zh="这是 y.sum() 对 y 的梯度：请用 x.grad 作答。"))])

exercise(
    "L1.step", expect=Number("1497a7b43519e02740775fa7", digits=3),
    hints=[Text(en="Look at the printed slopes of section 4 again and compare each with the "
                   "exact derivative, 27.",
                zh="再看一遍第 4 节打印出的斜率，把每一个和精确的导数 27 比一比。"),
           Text(en="A large h is off by about h² (the truncation error of the formula); a tiny h "
                   "loses the digits to rounding (float32 keeps about 7). The best h is the one "
                   "whose printed slope is closest to 27.",
                zh="h 太大时会多出约 h²（公式本身的截断误差）；h 太小时，有效数字被舍入误差吃掉"
                   "（float32 只有约 7 位）。最好的 h 是打印出的斜率最接近 27 的那个。")],
    wrong=[(1.0, Text(en="At h = 1 the slope is 28: the truncation error h² = 1 is the whole "
                         "difference. Try smaller steps.",
                      zh="h = 1 时斜率是 28：截断误差 h² = 1 就是全部的偏差。试试更小的步长。")),
           (1e-1, Text(en="Closer, 27.01: still off by about h² = 0.01. A smaller h does better, "
                          "for a while.",
                       zh="更近了，27.01：仍然差约 h² = 0.01。更小的 h 会更好，但只到某个程度。")),
           (1e-3, Text(en="At 1e-3 rounding already costs more than truncation: compare its "
                          "printed slope with the one at 1e-2.",
                       zh="h = 1e-3 时，舍入误差已经比截断误差大了：把它打印出的斜率和 "
                          "h = 1e-2 的比一比。")),
           (1e-4, Text(en="At 1e-4 float32 rounding eats several digits: look at how far that "
                          "slope is from 27.",
                       zh="h = 1e-4 时，float32 的舍入误差吃掉了好几位有效数字：看看那个斜率离 "
                          "27 有多远。")),
           (1e-6, Text(en="At 1e-6 float32 rounding eats most of the digits: that slope is far "
                          "from 27.",
                       zh="h = 1e-6 时，float32 的舍入误差吃掉了大部分有效数字：那个斜率离 27 "
                          "很远。"))])
