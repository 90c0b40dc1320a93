"""Lesson 1, slopes by hand: the exercises' judges."""

from __future__ import annotations

from ..answers import close, number
from ..registry import Text, exercise


@exercise("L1.slope",
          hint=Text(en="(cube(2 + h) - cube(2 - h)) / (2 * h) with h = 0.001; "
                       "the answer is close to 3 · 2² = 12.",
                    zh="用 (cube(2 + h) - cube(2 - h)) / (2 * h)，h = 0.001；"
                       "答案应该接近 3 · 2² = 12。"),
          right=Text(en="The exact derivative is 3x² = 12; a central difference is off "
                        "by about h² only.",
                     zh="精确的导数是 3x² = 12；中心差分只差 h² 量级。"),
          wrong=[8.0, 12.006001, 6.0])
def slope(answer):
    # a central difference with h = 0.001 gives 12.000001; a forward one 12.006001
    return abs(number(answer) - 12.0) < 1e-4


@exercise("L1.grad",
          hint=Text(en="x.grad should hold 3x² − 4 at each x: compute y from x, call "
                       "y.sum().backward(), then answer = x.grad.",
                    zh="x.grad 应该是每个 x 处的 3x² − 4：先由 x 算出 y，调用 "
                       "y.sum().backward()，再令 answer = x.grad。"),
          wrong=[[-3.0, 0.0, 15.0], [3.0, 12.0, 27.0], [1.0, 1.0, 1.0]])
def grad(answer):
    return close(answer, [-1.0, 8.0, 23.0])


@exercise("L1.step",
          hint=Text(en="Look at the printed slopes again: the exact value is 27. "
                       "A large h is off by h²; a tiny h loses the digits to rounding.",
                    zh="再看一遍打印出的斜率：精确值是 27。h 太大会多出 h²；"
                       "h 太小时，有效数字都被舍入误差吃掉了。"),
          wrong=[1.0, 1e-1, 1e-3, 1e-4, 1e-6])
def step(answer):
    return number(answer) == 1e-2
