"""Lesson 7, your own Function: the exercises."""

from __future__ import annotations

import importlib

import numpy as np

from ..answers import Flags, Values, array
from ..registry import Text, exercise

_INPUT = [-1.5, 0.5, 2.0]


def _library(function_class):
    """minigrad or torch: the library whose ``Function`` the class derives from."""
    for base in function_class.__mro__:
        if base.__name__ == "Function" and base.__module__.split(".")[0] in ("minigrad", "torch"):
            return importlib.import_module(base.__module__.split(".")[0])
    raise TypeError("not a Function")


def _square_like(backward):
    """A Square whose backward is ``backward(ctx, grad_output)`` (typical wrong answers)."""
    from minigrad.autograd import Function

    class Square(Function):
        @staticmethod
        def forward(ctx, tensor):
            ctx.save_for_backward(tensor)
            return tensor * tensor

    Square.backward = staticmethod(backward)
    return Square


NOT_A_FUNCTION = Text(en="Answer with the class itself (answer = Square), a subclass of "
                         "Function.",
                      zh="请用这个类本身作答（answer = Square），它是 Function 的子类。")
FORWARD = Text(en="The forward should return tensor * tensor.",
               zh="forward 应该返回 tensor * tensor。")
HALF = Text(en="Your backward gives half the right gradient: the derivative of t² is 2t, "
               "not t.",
            zh="你的 backward 给出的梯度只有正确值的一半：t² 的导数是 2t，不是 t。")
UNCHANGED = Text(en="Your backward passes the incoming gradient on unchanged: multiply it by "
                    "the derivative of t², using the saved tensor.",
                 zh="你的 backward 把传入的梯度原样传了下去：要用保存的张量，乘以 t² 的导数。")


@exercise(
    "L7.square",
    hints=[Text(en="forward computes the square and saves what backward will need; backward "
                   "multiplies the incoming gradient by the derivative of t².",
                zh="forward 算出平方，并保存 backward 要用的东西；backward 把传入的梯度乘以 t² "
                   "的导数。"),
           Text(en="In forward, ctx.save_for_backward(tensor) before returning the square; in "
                   "backward, (tensor,) = ctx.saved_tensors gives it back. Answer with the "
                   "class: answer = Square.",
                zh="在 forward 里，返回平方之前先 ctx.save_for_backward(tensor)；在 backward 里，"
                   "(tensor,) = ctx.saved_tensors 把它取回来。答案是这个类：answer = Square。")],
    wrong=[(lambda: _square_like(lambda ctx, g: g * ctx.saved_tensors[0]), HALF),
           (lambda: _square_like(lambda ctx, g: g), UNCHANGED),
           ("Square", NOT_A_FUNCTION)],
    right=Text(en="gradcheck agrees: your backward matches the finite differences.",
               zh="gradcheck 通过：你的 backward 与有限差分一致。"))
def square(answer):
    if not isinstance(answer, type):
        return NOT_A_FUNCTION
    lib = _library(answer)
    t = lib.tensor(_INPUT, dtype=lib.float64, requires_grad=True)
    out = answer.apply(t)
    if not np.allclose(array(out), [v * v for v in _INPUT]):
        return FORWARD
    if lib.autograd.gradcheck(answer.apply, (t,), raise_exception=False):
        return True
    (grad,) = lib.autograd.grad(answer.apply(t).sum(), t)
    got = array(grad)
    if np.allclose(got, _INPUT):
        return HALF
    if np.allclose(got, 1.0):
        return UNCHANGED
    return False  # gradcheck disagrees in a way of its own: the next hint


exercise(
    "L7.grads", expect=Values("84041d4b39a7bdb6754ce75f", shape=(3, 1)),
    hints=[Text(en="z = w·x + b: each input of a product gets the other factor; the sum "
                   "passes the gradient on.",
                zh="z = w·x + b：乘法的每个输入得到另一个因子；加法把梯度原样传下去。"),
           Text(en="Make w, x and b with requires_grad=True, call "
                   "MultiplyAdd.apply(w, x, b).backward(), and answer (w.grad, x.grad, b.grad).",
                zh="用 requires_grad=True 创建 w、x、b，调用 "
                   "MultiplyAdd.apply(w, x, b).backward()，答案是 (w.grad, x.grad, b.grad)。")],
    wrong=[(([2.0], [3.0], [1.0]), Text(en="Each gradient is the OTHER factor: dz/dw is x, "
                                           "not w.",
                                        zh="每个梯度是另一个因子：dz/dw 是 x，不是 w。")),
           (([3.0], [2.0], [0.0]), Text(en="b is added: dz/db is 1, not 0.",
                                        zh="b 是加上去的：dz/db 是 1，不是 0。")),
           (([1.0], [1.0], [1.0]), Text(en="Only the sum passes the gradient on unchanged; the "
                                           "product multiplies it by the other factor.",
                                        zh="只有加法把梯度原样传下去；乘法要乘以另一个因子。"))],
    right=Text(en="A product swaps its factors; a sum passes the gradient on.",
               zh="乘法交换两个因子；加法把梯度原样传下去。"))

exercise(
    "L7.needs", expect=Flags("8de12d9831b45d1f1e989176", n=3),
    hints=[Text(en="One flag per input of forward, in the order of forward's arguments.",
                zh="forward 的每个输入各有一个标志，顺序与 forward 的参数相同。"),
           Text(en="The order is (w, x, b); a flag is True where that input requires grad. "
                   "z.grad_fn.needs_input_grad shows it.",
                zh="顺序是 (w, x, b)；某个输入需要梯度，对应的标志就是 True。"
                   "z.grad_fn.needs_input_grad 可以直接看到。")],
    wrong=[((True, True, True), Text(en="Only inputs that require grad get True: w and x were "
                                        "made without requires_grad.",
                                     zh="只有需要梯度的输入才是 True：w 和 x 创建时没有 "
                                        "requires_grad。")),
           ((False, False, False), Text(en="b requires grad, so its flag is True.",
                                        zh="b 需要梯度，所以它的标志是 True。"))])
