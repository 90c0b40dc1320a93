"""gradcheck / gradgradcheck: PyTorch's signature, results, errors and messages."""

from __future__ import annotations

import inspect
import re
import warnings

import pytest

import minigrad as mg
from minigrad.autograd.gradcheck import GradcheckError


def classes(L):
    Function = L.autograd.Function

    class WrongMul(Function):  # d(x*y)/dx is y, but backward says 2y
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y, x + y

        @staticmethod
        def backward(ctx, g, g2):
            x, y = ctx.saved_tensors
            return g * y * 2 + g2, g * x + g2

    class ForgetsSecondOutput(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x.sum()

        @staticmethod
        def backward(ctx, g, g2):
            return g * 2

    class SkipsNonTensors(Function):
        @staticmethod
        def forward(ctx, c, n, x):
            return x * c

        @staticmethod
        def backward(ctx, g):
            return None, None, g

    class Noisy(Function):
        calls = [0]

        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            Noisy.calls[0] += 1
            return g * 2 + Noisy.calls[0] * 1e-4

    return WrongMul, ForgetsSecondOutput, SkipsNonTensors, Noisy


def outcome(fn):
    try:
        return "returned", fn()
    except Exception as e:  # noqa: BLE001 - compared with torch's
        return type(e).__name__, str(e).replace("torch.", "minigrad.")


def both(torch, fn):
    return outcome(lambda: fn(mg)), outcome(lambda: fn(torch))


def x64(L, values=(1., 2.)):
    return L.tensor(list(values), dtype=L.float64, requires_grad=True)


def test_signatures_match_pytorch(torch):
    for name in ("gradcheck", "gradgradcheck"):
        mine = inspect.signature(getattr(mg.autograd, name)).parameters
        theirs = inspect.signature(getattr(torch.autograd, name)).parameters
        assert list(mine) == list(theirs)
        assert [(p.kind, p.default) for p in mine.values()] == \
               [(p.kind, p.default) for p in theirs.values()]


def test_gradcheck_error_is_a_runtime_error():
    assert issubclass(GradcheckError, RuntimeError)
    assert mg.autograd.GradcheckError is GradcheckError


@pytest.mark.parametrize("fn", [
    lambda L: L.autograd.gradcheck(lambda a: a * a, (x64(L),)),
    lambda L: L.autograd.gradcheck(lambda a, b: (a * b).exp(), (x64(L), x64(L, (3., 4.)))),
    lambda L: L.autograd.gradcheck(lambda a, k: a * k, (x64(L), 3.0)),
    lambda L: L.autograd.gradcheck(lambda a: (a * 2, a.detach()), x64(L)),
    lambda L: L.autograd.gradgradcheck(lambda a: a ** 3, x64(L)),
    lambda L: L.autograd.gradgradcheck(lambda a, b: (a * b).sin(), (x64(L), x64(L))),
], ids=["square", "two_inputs", "non_tensor_input", "non_differentiable_output",
        "gradgrad_cube", "gradgrad_two_inputs"])
def test_correct_gradients_pass(torch, fn):
    m, t = both(torch, fn)
    assert m == t == ("returned", True)


def test_wrong_backward_is_rejected_with_both_jacobians(torch):
    m, t = both(torch, lambda L: L.autograd.gradcheck(classes(L)[0].apply,
                                                      (x64(L), x64(L, (3., 4.)))))
    assert m == t
    assert m[0] == "GradcheckError"
    assert "numerical:tensor([[3.0000, 0.0000]," in m[1]
    assert "analytical:tensor([[6., 0.]," in m[1]


def test_wrong_backward_without_raising_returns_false(torch):
    m, t = both(torch, lambda L: L.autograd.gradcheck(
        classes(L)[0].apply, (x64(L), x64(L)), raise_exception=False))
    assert m == t == ("returned", False)


def test_mismatch_on_a_second_output_names_it(torch):
    m, t = both(torch, lambda L: L.autograd.gradcheck(classes(L)[1].apply, (x64(L),)))
    assert m == t
    assert m[1].startswith("Jacobian mismatch for output 1 with respect to input 0,")


def test_inputs_are_counted_among_those_requiring_grad(torch):
    def run(L):
        wrong = classes(L)[2]
        return L.autograd.gradcheck(wrong.apply, (3.0, L.tensor([1., 2.], dtype=L.float64),
                                                  x64(L)))

    m, t = both(torch, run)
    assert m == t and "output 0 with respect to input 0," in m[1]


def test_output_that_does_not_require_grad_must_not_depend_on_inputs(torch):
    m, t = both(torch, lambda L: L.autograd.gradcheck(lambda a: (a * 2).detach(), x64(L)))
    assert m == t == ("GradcheckError", "Numerical gradient for function expected to be zero")


def test_no_input_requiring_grad_is_a_value_error(torch):
    m, t = both(torch, lambda L: L.autograd.gradcheck(lambda a: a * 2, (L.ones(2),)))
    assert m == t and m[0] == "ValueError"


def test_non_reentrant_backward_is_rejected(torch):
    m, t = both(torch, lambda L: L.autograd.gradcheck(classes(L)[3].apply, (x64(L),)))
    assert m[0] == t[0] == "GradcheckError"
    assert t[1].startswith(m[1])


def test_float32_inputs_warn_and_fail_on_coarse_differences(torch):
    def run(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = outcome(lambda: L.autograd.gradcheck(
                lambda a: a * 2, (L.ones(2, requires_grad=True),)))
        return result[0], [str(w.message) for w in caught]

    m, t = run(mg), run(torch)
    assert m == t
    assert m[1][0].startswith("Input #0 requires gradient and is not a double precision")


def test_gradgradcheck_rejects_a_wrong_second_derivative(torch):
    def run(L):
        class WrongSecond(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x * x

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return WrongFirst.apply(x, g)

        class WrongFirst(L.autograd.Function):  # value 3x^2 g, but claims d/dx = 3 g
            @staticmethod
            def forward(ctx, x, g):
                ctx.save_for_backward(x, g)
                return 3 * x * x * g

            @staticmethod
            def backward(ctx, gg):
                x, g = ctx.saved_tensors
                return 3 * g * gg, 3 * x * x * gg

        first = L.autograd.gradcheck(WrongSecond.apply, (x64(L),))
        second = outcome(lambda: L.autograd.gradgradcheck(WrongSecond.apply, (x64(L),)))
        return first, second[0], re.sub(r"\[.*", "", second[1], flags=re.S)

    m, t = run(mg), run(torch)
    assert m == t
    assert m[:2] == (True, "GradcheckError")
