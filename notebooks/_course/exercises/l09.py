"""Lesson 9, a first network: the exercises' judges."""

from __future__ import annotations

from ..answers import close, number
from ..registry import Text, exercise


@exercise("L9.params",
          hint=Text(en="Layer 1: an 8 × 2 weight and 8 biases; layer 2: a 2 × 8 weight and 2 "
                       "biases. Don't forget the biases.",
                    zh="第 1 层：8 × 2 的权重和 8 个偏置；第 2 层：2 × 8 的权重和 2 个偏置。"
                       "别忘了偏置。"),
          right=Text(en="16 + 8 + 16 + 2 = 42 numbers, each with its own .grad.",
                     zh="16 + 8 + 16 + 2 = 42 个数，每个都有自己的 .grad。"),
          wrong=[32, 4, 26])
def params(answer):
    return number(answer) == 42


@exercise("L9.accumulate",
          hint=Text(en="Without zero_grad() each backward() adds its gradient to .grad: three "
                       "calls on the same model and data give three times `first`.",
                    zh="不调用 zero_grad()，每次 backward() 都把梯度加到 .grad 上：同一个模型、"
                       "同样的数据调用三次，得到的是 `first` 的三倍。"),
          right=Text(en="Three times the gradient of one backward(): 梯度累加.",
                     zh="一次 backward() 梯度的三倍：梯度累加。"),
          wrong=[[0.2371, -0.2371], [0.4741, -0.4741]])
def accumulate(answer):
    return close(answer, [0.7112, -0.7112], tol=1e-3)


@exercise("L9.lr",
          hint=Text(en="train(make_model(), epochs=200, lr=0.1) returns the list of losses; "
                       "answer with its last element.",
                    zh="train(make_model(), epochs=200, lr=0.1) 返回各轮的损失列表；"
                       "答案是它的最后一个元素。"),
          right=Text(en="Worse than with lr=1.0 (about 0.12): steps ten times smaller need "
                        "many more epochs.",
                     zh="比 lr=1.0 时（约 0.12）差：步长小了十倍，需要多得多的轮数。"),
          wrong=[0.1234, 1.0939])
def lr(answer):
    return abs(number(answer) - 0.5711) < 2e-3
