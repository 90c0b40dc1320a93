"""Lesson 5, accumulation and the graph's lifetime: the exercises' judges."""

from __future__ import annotations

import re

from ..answers import close, number
from ..registry import Text, exercise


@exercise("L5.total",
          hint=Text(en="Each backward() adds d(3x)/dx = 3 into x.grad, and nothing resets it.",
                    zh="每次 backward() 都把 d(3x)/dx = 3 加进 x.grad，而中间没有清零。"),
          wrong=[[3., 3.], [3., 6.], [9., 18.]])
def total(answer):
    return close(answer, [9., 9.])


@exercise("L5.keep",
          hint=Text(en="The first call frees the saved tensors unless told to keep the graph.",
                    zh="第一次调用会释放保存的张量，除非告诉它保留计算图。"),
          wrong=["first: create_graph=True", "second: retain_graph=True", "retain_graph=False"])
def keep(answer):
    text = answer.replace(" ", "")
    if "retain_graph=True" in text and "second" in text and "first" not in text:
        return Text(en="On the second call it is too late: the first one already freed them.",
                    zh="第二次才加就晚了：第一次调用已经把它们释放了。")
    return bool(re.search(r"retain_graph=True", text)) and "second" not in text


@exercise("L5.second",
          hint=Text(en="The first grad needs create_graph=True so that its result can be "
                       "differentiated; d²(t⁴)/dt² = 12t².",
                    zh="第一次 grad 需要 create_graph=True，它的结果才能再求导；"
                       "d²(t⁴)/dt² = 12t²。"),
          wrong=[32.0, 24.0, 96.0])
def second(answer):
    return number(answer) == 48.0
