"""Elementwise functions and activations against PyTorch: dtypes for integer and bool inputs,
special values, errors, and second derivatives (create_graph=True)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from op_table import assert_close, assert_same_error, assert_same_result_or_error

import minigrad as mg

pytestmark = pytest.mark.torch

UNARY = {
    "exp": lambda L, x: L.exp(x),
    "log": lambda L, x: x.log(),
    "sqrt": lambda L, x: L.sqrt(x),
    "sin": lambda L, x: x.sin(),
    "cos": lambda L, x: L.cos(x),
    "tanh": lambda L, x: x.tanh(),
    "sigmoid": lambda L, x: L.sigmoid(x),
    "relu": lambda L, x: L.relu(x),
    "abs": lambda L, x: x.abs(),
    "neg": lambda L, x: -x,
    "square": lambda L, x: x.square(),
    "reciprocal": lambda L, x: x.reciprocal(),
    "softmax": lambda L, x: x.softmax(0),
    "log_softmax": lambda L, x: L.log_softmax(x, -1),
    "clamp": lambda L, x: x.clamp(0, 2),
    "clamp_float_bounds": lambda L, x: x.clamp(0.5, 2),
    "clamp_min": lambda L, x: x.clamp_min(1),
    "pow_2": lambda L, x: x ** 2,
    "pow_half": lambda L, x: x ** 0.5,
    "pow_negative": lambda L, x: x ** -1,
    "rpow": lambda L, x: 2 ** x,
    "rpow_float": lambda L, x: 2.5 ** x,
}

DTYPES = ["bool", "uint8", "int32", "int64", "float32", "float64"]


def _same(torch, fn, make):
    """Run ``fn`` on ``make(lib)`` in both libraries: same result, or the same error."""
    assert_same_result_or_error(torch, lambda lib: fn(lib, make(lib)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", sorted(UNARY))
def test_dtype_of_result_matches_torch(torch, op, dtype):
    """int and bool inputs of float functions give float32; relu and abs keep integers."""
    _same(torch, UNARY[op], lambda L: L.tensor([[0, 1, 2], [1, 0, 3]], dtype=getattr(L, dtype)))


@pytest.mark.parametrize("op", sorted(UNARY))
def test_special_values_match_torch(torch, op):
    values = [0.0, -0.0, -1.0, 1e-30, 100.0, -100.0, math.inf, -math.inf, math.nan]
    _same(torch, UNARY[op], lambda L: L.tensor(values))


@pytest.mark.parametrize("op", sorted(UNARY))
def test_zero_dim_and_empty_inputs_match_torch(torch, op):
    _same(torch, UNARY[op], lambda L: L.tensor(0.7))
    _same(torch, UNARY[op], lambda L: L.zeros(0, 3))


@given(op=st.sampled_from(sorted(UNARY)),
       values=st.lists(st.floats(-50, 50, width=32), min_size=1, max_size=6))
def test_values_and_gradients_match_torch_on_random_inputs(torch, op, values):
    grads = []
    for lib in (torch, mg):
        x = lib.tensor(values, requires_grad=True)
        out = UNARY[op](lib, x)
        out.backward(lib.ones_like(out))
        grads.append((out, x.grad))
    (t_out, t_grad), (m_out, m_grad) = grads
    assert_close(m_out, t_out, rtol=1e-5, atol=1e-6)
    assert_close(m_grad, t_grad, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("call", [
    "L.exp(5)", "L.sigmoid([1.0])", "L.tensor([True]).relu()", "L.tensor([True]).abs()",
    "L.tensor([1, 2]).softmax(0)", "L.tensor([[1, 2]]).softmax(0)", "L.ones(2).softmax(1)",
    "L.tensor([1, 2]).log_softmax(-1)", "L.ones(2).clamp()", "L.tensor([1, 2]) ** -1",
    "L.tensor([True]) ** L.tensor([True])", "True ** L.tensor([True])",
    "L.ones(2, 3).clamp(L.ones(2))", "L.ones(2).clamp_min(L.ones(3))", "L.ones(2).softmax()",
])
def test_errors_match_torch(torch, call):
    assert_same_error(lambda: eval(call, {"L": torch}),  # noqa: S307 - fixed test strings
                      lambda: eval(call, {"L": mg}))  # noqa: S307


@pytest.mark.parametrize("lo_hi", [(0.0, 1.0), (1.0, 0.0), (0.5, 0.5), (-2.0, None),
                                   (None, 0.25)])
def test_clamp_gradient_at_bounds_and_crossed_bounds_matches_torch(torch, lo_hi):
    lo, hi = lo_hi
    values = [-1.0, 0.0, 0.25, 0.5, 1.0, 2.0, math.nan]
    grads = []
    for lib in (torch, mg):
        x = lib.tensor(values, requires_grad=True)
        x.clamp(lo, hi).sum().backward()
        grads.append(x.grad)
    assert_close(grads[1], grads[0])


def test_clamp_with_tensor_bounds_sends_gradient_where_torch_does(torch):
    x_v = [0.0, 2.0, 1.0, math.nan, -1.0, 0.5, 0.7]
    lo_v = [1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.7]
    hi_v = [1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.7]
    grads = []
    for lib in (torch, mg):
        x, lo, hi = (lib.tensor(v, requires_grad=True) for v in (x_v, lo_v, hi_v))
        out = lib.clamp(x, lo, hi)
        out.sum().backward()
        grads.append((out, x.grad, lo.grad, hi.grad))
    for m, t in zip(grads[1], grads[0]):
        assert_close(m, t)


def test_pow_gradients_at_zero_match_torch(torch):
    cases = [([0.0, 0.0, 2.0, -1.0], [0.0, 1.0, 0.0, 2.0]), ([0.0, -1.0, 2.0], [-1.0, 2.0, 0.5])]
    for base, exponent in cases:
        grads = []
        for lib in (torch, mg):
            b, p = lib.tensor(base, requires_grad=True), lib.tensor(exponent, requires_grad=True)
            (b ** p).sum().backward()
            grads.append((b.grad, p.grad))
        for m, t in zip(grads[1], grads[0]):
            assert_close(m, t)
    for expr in ["x ** 0", "x ** 0.5", "0.0 ** x", "0 ** x", "x ** 1"]:
        grads = []
        for lib in (torch, mg):
            x = lib.tensor([-1.0, 0.0, 2.0], requires_grad=True)
            eval(expr, {"x": x}).sum().backward()  # noqa: S307 - fixed test strings
            grads.append(x.grad)
        assert_close(grads[1], grads[0])


def test_integer_powers_match_torch(torch):
    for expr in ["L.tensor([1, -2, 2]) ** L.tensor([-1, -1, -2])", "L.tensor([1, 2]) ** 2.5",
                 "2 ** L.tensor([1, 2])", "L.tensor([True, False]) ** 2",
                 "L.tensor([True, False]) ** True", "L.pow(L.tensor([3]), L.tensor([2.0]))"]:
        _same(torch, lambda L, _, e=expr: eval(e, {"L": L}), lambda L: None)  # noqa: S307


SECOND_ORDER = {
    "cube": lambda L, x: x ** 3,
    "sin": lambda L, x: x.sin(),
    "cos": lambda L, x: L.cos(x),
    "exp": lambda L, x: x.exp(),
    "log": lambda L, x: x.log(),
    "sqrt": lambda L, x: x.sqrt(),
    "tanh": lambda L, x: x.tanh(),
    "sigmoid": lambda L, x: L.sigmoid(x),
    "reciprocal": lambda L, x: 1 / x,
    "pow_tensor": lambda L, x: x ** x,
    "rpow": lambda L, x: 2 ** x,
    "softmax": lambda L, x: x.softmax(0) * L.tensor([1.0, 2.0, 3.0]),
    "log_softmax": lambda L, x: x.log_softmax(0) * L.tensor([1.0, 2.0, 3.0]),
    "norm": lambda L, x: x.norm() * x,
    "prod": lambda L, x: x.prod() * x,
    "max_times_x": lambda L, x: x.max() * x,
    "relu_times_x": lambda L, x: (x - 1).relu() * x,
    "maximum": lambda L, x: L.maximum(x, x * x),
    "clamp_times_x": lambda L, x: x.clamp(0.6, 1.2) * x,
    "mm": lambda L, x: x.reshape(3, 1) @ (x * x).reshape(1, 3),
    "mv": lambda L, x: L.mv(x.reshape(3, 1) * x, x),
    "dot": lambda L, x: L.dot(x, x * x),
    "addmm": lambda L, x: L.addmm(x, x.reshape(3, 1), x.reshape(1, 3) * x),
    "bmm": lambda L, x: L.bmm(x.reshape(1, 3, 1), x.reshape(1, 1, 3) * x),
    "sum_dim": lambda L, x: (x.reshape(3, 1) * x).sum(0) * x,
    "mean_dim": lambda L, x: (x.reshape(3, 1) * x).mean(1) * x,
    "max_dim": lambda L, x: (x.reshape(3, 1) * x).max(1)[0] * x,
    "amax_dim": lambda L, x: (x.reshape(3, 1) * x).amax(1) * x,
}


@pytest.mark.parametrize("op", sorted(SECOND_ORDER))
def test_second_derivative_with_create_graph_matches_torch(torch, op):
    results = []
    for lib in (torch, mg):
        x = lib.tensor([0.5, 1.0, 1.5], requires_grad=True)
        (g,) = lib.autograd.grad(SECOND_ORDER[op](lib, x).sum(), x, create_graph=True)
        assert g.requires_grad
        (g2,) = lib.autograd.grad(g.sum(), x)
        results.append((g, g2))
    for m, t in zip(results[1], results[0]):
        assert_close(m, t, rtol=1e-5, atol=1e-5)


def test_third_derivative_of_cube_is_six(torch):
    values = []
    for lib in (torch, mg):
        x = lib.tensor(2.0, requires_grad=True)
        (g1,) = lib.autograd.grad(x ** 3, x, create_graph=True)
        (g2,) = lib.autograd.grad(g1, x, create_graph=True)
        (g3,) = lib.autograd.grad(g2, x)
        values.append([g1.item(), g2.item(), g3.item()])
    assert values[1] == values[0]


def test_relu_in_place_becomes_the_output_like_torch(torch):
    results = []
    for lib in (torch, mg):
        a = lib.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
        b = a * 1
        c = b.relu_()
        assert c is b
        names = (b.grad_fn.name(), b.grad_fn.next_functions[0][0].name(), b._version)
        b.sum().backward()
        results.append((names, a.grad.tolist()))
    assert results[1] == results[0]
    assert_same_error(lambda: torch.ones(2, requires_grad=True).relu_(),
                      lambda: mg.ones(2, requires_grad=True).relu_())


def test_sigmoid_and_exp_do_not_warn_on_extreme_inputs(torch, recwarn):
    x = mg.tensor([-1000.0, 1000.0, 0.0])
    for fn in (mg.sigmoid, mg.exp, mg.tanh, mg.log, mg.sqrt):
        fn(x)
    assert not [w for w in recwarn.list if issubclass(w.category, RuntimeWarning)]
    assert_close(mg.sigmoid(x), torch.sigmoid(torch.tensor([-1000.0, 1000.0, 0.0])))


def test_softmax_rows_sum_to_one_and_match_torch_for_large_logits(torch):
    rng = np.random.default_rng(0)
    logits = (rng.standard_normal((4, 5)) * 100).astype(np.float32)
    assert_close(mg.tensor(logits).softmax(1), torch.tensor(logits).softmax(1))
    assert_close(mg.tensor(logits).log_softmax(1), torch.tensor(logits).log_softmax(1),
                 rtol=1e-5, atol=1e-4)


def test_softmax_dtype_argument_casts_first_like_torch(torch):
    results = []
    for lib in (torch, mg):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = lib.softmax(x, 0, dtype=lib.float64)
        y.backward(lib.ones(3, dtype=lib.float64))
        results.append((str(y.dtype).split(".")[-1], str(x.grad.dtype).split(".")[-1]))
    assert results[1] == results[0]
    assert_close(mg.tensor([1, 2]).softmax(0, dtype=mg.float32),
                 torch.tensor([1, 2]).softmax(0, dtype=torch.float32))
