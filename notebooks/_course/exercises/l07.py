"""Lesson 7, your own Function: the exercises' judges."""

from __future__ import annotations

import importlib

from ..answers import close
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


@exercise("L7.square",
          hint=Text(en="forward: ctx.save_for_backward(tensor), then return tensor * tensor. "
                       "backward: (tensor,) = ctx.saved_tensors, then return "
                       "grad_output * 2 * tensor. Answer with the class itself: answer = Square.",
                    zh="forward：先 ctx.save_for_backward(tensor)，再 return tensor * tensor。"
                       "backward：(tensor,) = ctx.saved_tensors，再 return "
                       "grad_output * 2 * tensor。答案是这个类本身：answer = Square。"),
          right=Text(en="gradcheck agrees: your backward matches the finite differences.",
                     zh="gradcheck 通过：你的 backward 与有限差分一致。"),
          wrong=[lambda: _square_like(lambda ctx, g: g * ctx.saved_tensors[0]),
                 lambda: _square_like(lambda ctx, g: g)])
def square(answer):
    lib = _library(answer)
    t = lib.tensor(_INPUT, dtype=lib.float64, requires_grad=True)
    out = answer.apply(t)
    if not close(out, [v * v for v in _INPUT]):
        return Text(en="The forward should return tensor * tensor.",
                    zh="forward 应该返回 tensor * tensor。")
    return bool(lib.autograd.gradcheck(answer.apply, (t,), raise_exception=False))


@exercise("L7.grads",
          hint=Text(en="z = w·x + b: dz/dw is the other factor x, dz/dx is w, dz/db is 1. "
                       "Answer (w.grad, x.grad, b.grad).",
                    zh="z = w·x + b：dz/dw 是另一个因子 x，dz/dx 是 w，dz/db 是 1。"
                       "答案是 (w.grad, x.grad, b.grad)。"),
          right=Text(en="A product swaps its factors; a sum passes the gradient on.",
                     zh="乘法交换两个因子；加法把梯度原样传下去。"),
          wrong=[([2.0], [3.0], [1.0]), ([3.0], [2.0], [0.0]), ([1.0], [1.0], [1.0])])
def grads(answer):
    w, x, b = answer
    return close(w, [3.0]) and close(x, [2.0]) and close(b, [1.0])


@exercise("L7.needs",
          hint=Text(en="One flag per input of forward, in order (w, x, b): True where that "
                       "input requires grad.",
                    zh="forward 的每个输入各一个标志，按 (w, x, b) 的顺序："
                       "该输入需要梯度就是 True。"),
          wrong=[(True, True, True), (True, False, True), (False, False, False)])
def needs(answer):
    return tuple(bool(v) for v in answer) == (False, False, True) and len(answer) == 3
