"""Lesson 2, the graph behind a tensor: the exercises' judges."""

from __future__ import annotations

from ..answers import number
from ..registry import Text, exercise


@exercise("L2.leaves",
          hint=Text(en="A leaf is a tensor you created yourself, not the result of an "
                       "operation: look at which ones have grad_fn None (or is_leaf True).",
                    zh="叶子节点是你自己创建的张量，而不是运算的结果：看看哪些张量的 grad_fn "
                       "是 None（或者 is_leaf 为 True）。"),
          wrong=[["a", "b", "c", "d"], ["d"], ["a", "b", "c"], "ab"])
def leaves(answer):
    if isinstance(answer, str):
        return Text(en='Give a list of names, e.g. ["a"].', zh='请给出名字组成的列表，例如 ["a"]。')
    return sorted(answer) == ["a", "b"]


@exercise("L2.accumulate",
          hint=Text(en="A leaf has exactly one AccumulateGrad node, however often you use it. "
                       "Which leaves does w depend on?",
                    zh="一个叶子张量只有一个 AccumulateGrad 节点，不管你用了它几次。"
                       "w 依赖哪几个叶子？"),
          wrong=[3, 1, 4])
def accumulate(answer):
    return number(answer) == 2


@exercise("L2.saved",
          hint=Text(en="The names start with _saved_; a product saves both operands: self is "
                       "the first (x), and the second is...",
                    zh="名字以 _saved_ 开头；乘法把两个操作数都保存了：self 是第一个（x），"
                       "第二个叫……"),
          wrong=["_saved_self", "other", "y"])
def saved(answer):
    return answer == "_saved_other"
