"""Lesson 8, debugging backward: the exercises."""

from __future__ import annotations

import importlib

import numpy as np

from ..answers import Values, Word, array, is_tensor
from ..registry import Text, exercise

_MATRIX = [[1., 2., 3.], [4., 5., 6.]]


def _seen(answer):
    """The list ``seen`` itself stands for its first gradient."""
    if isinstance(answer, list) and len(answer) == 1 and is_tensor(answer[0]):
        return answer[0]
    return answer


class _Hook(Values):
    def read(self, answer):
        return super().read(_seen(answer))


exercise(
    "L8.hook", expect=_Hook("73e0d25f77142398e0bc173b", shape=(3,)),
    hints=[Text(en="Register the hook on h, not on x, and before calling backward(); then "
                   "look at seen[0].",
                zh="把钩子注册在 h 上（不是 x 上），并且要在 backward() 之前注册；"
                   "然后看 seen[0]。"),
           Text(en="The hook sees d(loss)/dh, the gradient on its way through h, before it "
                   "reaches x: for loss = (h ** 2).sum() that is 2h, with h = 3x.",
                zh="钩子看到的是 d(loss)/dh，即流经 h、尚未到达 x 的梯度：对 "
                   "loss = (h ** 2).sum() 来说就是 2h，其中 h = 3x。")],
    wrong=[([18.0, 36.0, 54.0], Text(en="That is x.grad, after the gradient went on through "
                                        "h = x * 3: the hook sees it one node earlier.",
                                     zh="这是 x.grad，是梯度继续流过 h = x * 3 之后的值：钩子在"
                                        "前一个节点就看到了它。")),
           ([2.0, 4.0, 6.0], Text(en="That is 2x: the gradient at h is 2h, and h = 3x.",
                                  zh="这是 2x：h 处的梯度是 2h，而 h = 3x。"))],
    right=Text(en="Seen on its way through h: x.grad will be 3 times that.",
               zh="在流经 h 时被看到；x.grad 将是它的 3 倍。"))

exercise(
    "L8.nan", expect=Word("7aa28a15d47f72bbeaf26f21"),
    hints=[Text(en="A NaN is made where 0 is divided by 0 (or ∞ meets 0). Which derivative in "
                   "loss = (y.sqrt() * y).sum() divides by something that is 0 at y = 0?",
                zh="NaN 产生于 0 除以 0（或 ∞ 遇到 0）的地方。loss = (y.sqrt() * y).sum() "
                   "中哪个导数会除以一个在 y = 0 处为 0 的数？"),
           Text(en="stepper = BackwardStepper(loss); stepper.run(until=\"nonfinite\") stops "
                   "at the node that first sends a non-finite gradient: answer with its name.",
                zh="stepper = BackwardStepper(loss)；stepper.run(until=\"nonfinite\") 会停在第一个"
                   "送出非有限梯度的节点上：用它的名字作答。")],
    wrong=[("AccumulateGrad", Text(en="AccumulateGrad only stores what it receives: the NaN "
                                      "was made before it, upstream.",
                                   zh="AccumulateGrad 只是把收到的梯度存起来：NaN 在它之前就已经"
                                      "产生了。")),
           ("MulBackward0", Text(en="MulBackward0 sends on finite numbers: 0 times a finite "
                                    "value is 0. Look at the node that receives them.",
                                 zh="MulBackward0 送出的是有限的数：0 乘以有限值仍是 0。"
                                    "看看接收它们的那个节点。"))],
    right=Text(en="It received a finite 0 and sent 0/(2·√0) = NaN.",
               zh="它收到有限的 0，送出 0/(2·√0) = NaN。"))


def _library(function_class):
    for base in function_class.__mro__:
        if base.__name__ == "Function" and base.__module__.split(".")[0] in ("minigrad", "torch"):
            return importlib.import_module(base.__module__.split(".")[0])
    raise TypeError("not a Function")


def _sum_rows(backward, keep_shape=True):
    """A SumRows whose backward is ``backward(ctx, grad_output)`` (typical wrong answers)."""
    from minigrad.autograd import Function

    class SumRows(Function):
        @staticmethod
        def forward(ctx, t):
            if keep_shape:
                ctx.shape = t.shape
            return t.sum(0)

    SumRows.backward = staticmethod(backward)
    return SumRows


def _doubled():
    import minigrad

    return _sum_rows(lambda ctx, g: minigrad.stack([g, g]) * 2)


NOT_A_FUNCTION = Text(en="Answer with the class itself: answer = SumRowsFixed.",
                      zh="请用这个类本身作答：answer = SumRowsFixed。")
SUM_ROWS = Text(en="The forward should return t.sum(0), the sum of the rows.",
                zh="forward 应该返回 t.sum(0)，即各行之和。")
SHAPE = Text(en="backward must return one gradient per element of the input, a (2, 3) "
                "tensor: yours has the shape of the output.",
             zh="backward 必须为输入的每个元素返回一个梯度，即一个 (2, 3) 的张量：你返回的形状"
                "和输出相同。")
DOUBLED = Text(en="The shape is right now, but each element's gradient is twice too large: a "
                  "sum passes the incoming gradient on unchanged.",
               zh="形状对了，但每个元素的梯度大了一倍：求和把传入的梯度原样传下去。")


@exercise(
    "L8.shape",
    hints=[Text(en="Each element of column j adds into output j once, so its gradient is "
                   "grad_output[j]: the gradient has the input's shape, every row the same.",
                zh="第 j 列的每个元素都只向输出 j 加一次，所以它的梯度就是 grad_output[j]："
                   "梯度的形状和输入相同，每一行都一样。"),
           Text(en="backward needs the input's shape: keep it on ctx in forward (ctx.shape = "
                   "...), then spread grad_output over every row with expand. Answer with the "
                   "class.",
                zh="backward 需要知道输入的形状：在 forward 里把它存在 ctx 上（ctx.shape = ...），"
                   "再用 expand 把 grad_output 铺到每一行。答案是这个类。")],
    wrong=[(lambda: _sum_rows(lambda ctx, g: g, keep_shape=False), SHAPE),
           (_doubled, DOUBLED),
           ("SumRowsFixed", NOT_A_FUNCTION)],
    right=Text(en="Every element of a row-sum gets the gradient of its column, unchanged.",
               zh="行求和中的每个元素都原样得到它所在列的梯度。"))
def shape(answer):
    if not isinstance(answer, type):
        return NOT_A_FUNCTION
    lib = _library(answer)
    m = lib.tensor(_MATRIX, dtype=lib.float64, requires_grad=True)
    if not np.allclose(array(answer.apply(m)), [5.0, 7.0, 9.0]):
        return SUM_ROWS
    try:
        if lib.autograd.gradcheck(answer.apply, (m,), raise_exception=False):
            return True
        (grad,) = lib.autograd.grad(answer.apply(m).sum(), m)
    except RuntimeError:  # the engine refuses a gradient of the wrong shape
        return SHAPE
    got = array(grad)
    if got.shape != (2, 3):
        return SHAPE
    return DOUBLED if np.allclose(got, 2.0) else False  # otherwise: the next hint
