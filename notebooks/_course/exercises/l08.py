"""Lesson 8, debugging backward: the exercises' judges."""

from __future__ import annotations

import importlib

from ..answers import close, is_tensor
from ..registry import Text, exercise

_MATRIX = [[1., 2., 3.], [4., 5., 6.]]


@exercise("L8.hook",
          hint=Text(en="The hook sees d(loss)/dh = 2h = 2·(3x), before it reaches x. "
                       "Register it on h before calling backward(), then answer = seen[0].",
                    zh="钩子看到的是 d(loss)/dh = 2h = 2·(3x)，此时梯度还没到达 x。"
                       "在 backward() 之前把钩子注册到 h 上，然后 answer = seen[0]。"),
          right=Text(en="2h, seen on its way through h: x.grad will be 3 times that.",
                     zh="2h，在流经 h 时被看到；x.grad 将是它的 3 倍。"),
          wrong=[[18.0, 36.0, 54.0], [2.0, 4.0, 6.0], None])
def hook(answer):
    if not is_tensor(answer) and isinstance(answer, list) and answer and is_tensor(answer[0]):
        answer = answer[0]  # the list `seen` itself
    return close(answer, [6.0, 12.0, 18.0])


@exercise("L8.nan",
          hint=Text(en="The NaN is made where 0 is divided by 0: the derivative of √y is "
                       "1/(2√y). stepper.run(until=\"nonfinite\") stops at that node.",
                    zh="NaN 产生于 0 除以 0 的地方：√y 的导数是 1/(2√y)。"
                       "stepper.run(until=\"nonfinite\") 会停在那个节点。"),
          right=Text(en="It received the finite 0 from MulBackward0 and sent 0/(2·√0) = NaN.",
                     zh="它从 MulBackward0 收到有限的 0，送出 0/(2·√0) = NaN。"),
          wrong=["MulBackward0", "AccumulateGrad", "SumBackward0"])
def nan(answer):
    name = answer if isinstance(answer, str) else answer.name()
    return name == "SqrtBackward0"


def _library(function_class):
    for base in function_class.__mro__:
        if base.__name__ == "Function" and base.__module__.split(".")[0] in ("minigrad", "torch"):
            return importlib.import_module(base.__module__.split(".")[0])
    raise TypeError("not a Function")


def _sum_rows_buggy():
    from minigrad.autograd import Function

    class SumRows(Function):
        @staticmethod
        def forward(ctx, t):
            return t.sum(0)

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output

    return SumRows


def _sum_rows_doubled():
    from minigrad.autograd import Function

    class SumRows(Function):
        @staticmethod
        def forward(ctx, t):
            ctx.shape = t.shape
            return t.sum(0)

        @staticmethod
        def backward(ctx, grad_output):
            return 2 * grad_output.expand(ctx.shape)

    return SumRows


@exercise("L8.shape",
          hint=Text(en="forward: ctx.shape = t.shape, then return t.sum(0). backward: return "
                       "grad_output.expand(ctx.shape). Answer with the class: "
                       "answer = SumRowsFixed.",
                    zh="forward：ctx.shape = t.shape，然后 return t.sum(0)。backward：return "
                       "grad_output.expand(ctx.shape)。答案是这个类：answer = SumRowsFixed。"),
          right=Text(en="Every element of a row-sum gets the gradient of its column, unchanged.",
                     zh="行求和中的每个元素都原样得到它所在列的梯度。"),
          wrong=[_sum_rows_buggy, _sum_rows_doubled])
def shape(answer):
    lib = _library(answer)
    m = lib.tensor(_MATRIX, dtype=lib.float64, requires_grad=True)
    if not close(answer.apply(m), [5.0, 7.0, 9.0]):
        return Text(en="The forward should return t.sum(0), the sum of the rows.",
                    zh="forward 应该返回 t.sum(0)，即各行之和。")
    return bool(lib.autograd.gradcheck(answer.apply, (m,), raise_exception=False))
