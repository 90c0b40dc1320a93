"""Lesson 2, the graph behind a tensor: the exercises."""

from __future__ import annotations

from ..answers import Names, Number, Word
from ..registry import Text, exercise

exercise(
    "L2.leaves", expect=Names("03049825f6c7f04fd3a1a142"),
    hints=[Text(en="A leaf is not the result of an operation that autograd recorded.",
                zh="叶子节点不是 autograd 记录下来的某个运算的结果。"),
           Text(en="Print each tensor's is_leaf (or look for grad_fn None): "
                   "[n for n, t in {\"a\": a, \"b\": b, \"c\": c, \"d\": d}.items() "
                   "if t.is_leaf].",
                zh="打印每个张量的 is_leaf（或者找 grad_fn 为 None 的）："
                   "[n for n, t in {\"a\": a, \"b\": b, \"c\": c, \"d\": d}.items() "
                   "if t.is_leaf]。")],
    wrong=[(["a", "b", "c", "d"], Text(en="Not every tensor is a leaf: a result of an operation "
                                          "that was recorded has a grad_fn.",
                                       zh="不是每个张量都是叶子节点：被记录下来的运算结果有 "
                                          "grad_fn。")),
           (["d"], Text(en="d is the end of the graph, the root, not a leaf: leaves are where "
                           "it starts.",
                        zh="d 是计算图的终点（根），不是叶子节点：叶子节点在图的起点。"))])

exercise(
    "L2.accumulate", expect=Number("b0c1b5660af5a085f33651fc"),
    hints=[Text(en="AccumulateGrad nodes belong to leaves, not to uses: how many different "
                   "leaves does w depend on?",
                zh="AccumulateGrad 节点属于叶子张量，而不属于每一次使用：w 依赖几个不同的叶子？"),
           Text(en="Draw it: print(GraphView(w)) and count the boxes named AccumulateGrad. "
                   "x is used twice but is one leaf.",
                zh="画出来：print(GraphView(w))，数一数名为 AccumulateGrad 的框。x 用了两次，"
                   "但它只是一个叶子。")],
    wrong=[(3, Text(en="You counted the uses of the leaves: x is used twice but has one "
                       "AccumulateGrad node.",
                    zh="你数的是叶子被使用的次数：x 用了两次，但只有一个 AccumulateGrad 节点。")),
           (1, Text(en="One per leaf that requires grad, and w depends on more than one.",
                    zh="每个需要梯度的叶子各有一个，而 w 依赖的叶子不止一个。"))])

exercise(
    "L2.saved", expect=Word("879a04f4d4bef4257b986aa9"),
    hints=[Text(en="List the attributes of p.grad_fn whose names start with _saved.",
                zh="列出 p.grad_fn 中名字以 _saved 开头的属性。"),
           Text(en="[n for n in dir(p.grad_fn) if n.startswith(\"_saved\")]: a product saves "
                   "both operands, self (x) and the other one.",
                zh="[n for n in dir(p.grad_fn) if n.startswith(\"_saved\")]：乘法把两个操作数"
                   "都保存了，self（x）和另一个。")],
    wrong=[("_saved_self", Text(en="_saved_self is x, the first operand; y is the second.",
                                zh="_saved_self 是第一个操作数 x；y 是第二个。")),
           ("y", Text(en="Answer with the attribute's name on p.grad_fn, starting with _saved_.",
                      zh="请用 p.grad_fn 上那个属性的名字作答，它以 _saved_ 开头。"))])
