"""Lesson 9, a first network: the exercises."""

from __future__ import annotations

from ..answers import Number, Values
from ..registry import Text, exercise

exercise(
    "L9.params", expect=Number("440a9af4856f7c130b9c5467"),
    hints=[Text(en="Count every number the optimiser updates: weights and biases of both "
                   "layers. model.parameters() lists them.",
                zh="数一数优化器会更新的每一个数：两层的权重和偏置。model.parameters() 会把它们"
                   "列出来。"),
           Text(en="A Linear(m, n) has an n × m weight and n biases. "
                   "sum(p.numel() for p in model.parameters()) counts them for you.",
                zh="Linear(m, n) 有 n × m 的权重和 n 个偏置。"
                   "sum(p.numel() for p in model.parameters()) 可以替你数。")],
    wrong=[(32, Text(en="Those are the weights only: each layer also has one bias per output.",
                     zh="这只是权重：每一层还有每个输出各一个偏置。")),
           (4, Text(en="That is the number of parameter tensors; the question asks for the "
                       "numbers inside them.",
                    zh="这是参数张量的个数；题目问的是它们里面一共有多少个数。"))],
    right=Text(en="Each of them has its own .grad.", zh="它们每一个都有自己的 .grad。"))

exercise(
    "L9.accumulate", expect=Values("252d1abb3ffac439ad934a5e", shape=(2,), digits=3),
    hints=[Text(en="Without zero_grad() each backward() adds its gradient into .grad "
                   "(梯度累加).",
                zh="不调用 zero_grad()，每次 backward() 都把梯度加进 .grad（梯度累加）。"),
           Text(en="Three backward() calls on the same model and the same data: compare "
                   "model[2].bias.grad with `first`, the gradient of one call.",
                zh="同一个模型、同样的数据调用三次 backward()：把 model[2].bias.grad 和"
                   "一次调用的梯度 `first` 比一比。")],
    wrong=[([0.2371, -0.2371], Text(en="That is one backward(): the loop calls it three "
                                       "times and .grad keeps adding.",
                                    zh="这是一次 backward() 的结果：循环调用了三次，"
                                       ".grad 会一直累加。")),
           ([0.4741, -0.4741], Text(en="Two calls' worth: count the loop again.",
                                    zh="这是两次调用的量：再数一数循环次数。"))],
    right=Text(en="Three times the gradient of one backward(): .grad accumulates across "
                  "backward passes.",
               zh="一次 backward() 梯度的三倍：梯度累加。"))

exercise(
    "L9.lr", expect=Number("fbaf754508228ef0d594afed", digits=2),
    hints=[Text(en="Train a new model: train(make_model(), epochs=200, lr=0.1) returns the "
                   "list of losses, one per epoch.",
                zh="训练一个新模型：train(make_model(), epochs=200, lr=0.1) 返回各轮的损失列表。"),
           Text(en="Answer with the last element of that list, [-1], a number.",
                zh="答案是这个列表的最后一个元素 [-1]，一个数。")],
    wrong=[(1.0939, Text(en="That looks like the loss before training (or after very few "
                            "epochs): train for 200 epochs.",
                         zh="这像是训练之前（或只训练了很少几轮）的损失：请训练 200 轮。")),
           (0.1234, Text(en="That is about the loss with lr=1.0: use lr=0.1.",
                         zh="这大约是 lr=1.0 时的损失：请用 lr=0.1。"))],
    right=Text(en="Worse than with lr=1.0: steps ten times smaller need many more epochs.",
               zh="比 lr=1.0 时差：步长小了十倍，需要多得多的轮数。"))
