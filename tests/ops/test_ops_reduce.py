"""Reductions against PyTorch: dims (int, tuple, negative, empty), keepdim, dtypes, ties,
nan, empty tensors, the (values, indices) named tuple, and the errors."""

from __future__ import annotations

import math

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from op_table import (
    assert_close,
    assert_same_error,
    assert_same_result_or_error,
    assert_same_saved,
)

import minigrad as mg

pytestmark = pytest.mark.torch

REDUCTIONS = {
    "sum": lambda x, d, k: x.sum(d, keepdim=k),
    "mean": lambda x, d, k: x.mean(d, keepdim=k),
    "amax": lambda x, d, k: x.amax(d, keepdim=k),
    "amin": lambda x, d, k: x.amin(d, keepdim=k),
    "norm": lambda x, d, k: x.norm(dim=d, keepdim=k),
    "norm_p1": lambda x, d, k: x.norm(1, dim=d, keepdim=k),
    "norm_inf": lambda x, d, k: x.norm(math.inf, dim=d, keepdim=k),
}
SINGLE_DIM = {
    "max": lambda x, d, k: x.max(d, keepdim=k),
    "min": lambda x, d, k: x.min(d, k),
    "prod": lambda x, d, k: x.prod(d, keepdim=k),
    "argmax": lambda x, d, k: x.argmax(d, keepdim=k),
    "argmin": lambda x, d, k: x.argmin(dim=d, keepdim=k),
    "softmax": lambda x, d, k: x.softmax(d),
    "log_softmax": lambda x, d, k: x.log_softmax(d),
}


@st.composite
def shape_and_dims(draw, single=False):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4))
    n = len(shape)
    if single:
        return shape, draw(st.integers(-n, n - 1))
    dims = draw(st.lists(st.integers(-n, n - 1), unique_by=lambda d: d % n, max_size=n))
    return shape, draw(st.sampled_from([tuple(dims), dims[0] if dims else 0]))


def _compare(torch, fn, array, dim, keepdim):
    try:
        fn(torch.tensor(array), dim, keepdim)
    except RuntimeError:  # then minigrad must raise the same
        assert_same_error(lambda: fn(torch.tensor(array), dim, keepdim),
                          lambda: fn(mg.tensor(array), dim, keepdim))
        return
    outs = []
    for lib in (torch, mg):
        x = lib.tensor(array, requires_grad=True)
        out = fn(x, dim, keepdim)
        values = out[0] if isinstance(out, tuple) else out
        if values.requires_grad:
            values.backward(lib.ones_like(values) * 0.5)
        outs.append((out, x.grad))
    (t_out, t_grad), (m_out, m_grad) = outs
    for m, t in zip(m_out if isinstance(m_out, tuple) else [m_out],
                    t_out if isinstance(t_out, tuple) else [t_out]):
        assert_close(m, t, rtol=1e-5, atol=1e-5)
    if t_grad is not None:
        assert_close(m_grad, t_grad, rtol=1e-4, atol=1e-5)
    if getattr(t_out, "grad_fn", None) is not None:
        assert m_out.grad_fn.name() == t_out.grad_fn.name()


@given(op=st.sampled_from(sorted(REDUCTIONS)), sd=shape_and_dims(), keepdim=st.booleans(),
       seed=st.integers(0, 100))
def test_reductions_over_dims_match_torch(torch, op, sd, keepdim, seed):
    shape, dim = sd
    array = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    _compare(torch, REDUCTIONS[op], array, dim, keepdim)


@given(op=st.sampled_from(sorted(SINGLE_DIM)), sd=shape_and_dims(single=True),
       keepdim=st.booleans(), seed=st.integers(0, 100))
def test_single_dim_reductions_match_torch(torch, op, sd, keepdim, seed):
    shape, dim = sd
    array = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    _compare(torch, SINGLE_DIM[op], array, dim, keepdim)


@pytest.mark.parametrize("op", ["max", "min", "amax", "amin", "max_dim", "min_dim", "norm_inf"])
def test_ties_share_or_pick_the_gradient_like_torch(torch, op):
    """max()/amax share the gradient among ties; max(dim) gives it to the returned index."""
    fn = {"max": lambda x: x.max(), "min": lambda x: x.min(), "amax": lambda x: x.amax(1),
          "amin": lambda x: x.amin(0), "max_dim": lambda x: x.max(1)[0],
          "min_dim": lambda x: x.min(0).values, "norm_inf": lambda x: x.norm(math.inf)}[op]
    values = [[1.0, 3.0, 3.0], [3.0, -3.0, -1.0]]
    grads = []
    for lib in (torch, mg):
        x = lib.tensor(values, requires_grad=True)
        fn(x).sum().backward()
        grads.append(x.grad)
    assert_close(grads[1], grads[0])


@pytest.mark.parametrize("call", [
    "x.max()", "x.min(0)", "x.argmax()", "x.argmin(0)", "x.amax()", "x.sum()", "x.softmax(0)",
    "x.norm()", "x.prod()", "L.maximum(x, L.zeros(3))",
])
def test_nan_propagates_like_torch(torch, call):
    outs = []
    for L in (torch, mg):
        x = L.tensor([1.0, math.nan, 3.0])
        outs.append(eval(call, {"x": x, "L": L}))  # noqa: S307 - fixed test strings
    t, m = outs
    for mv, tv in zip(m if isinstance(m, tuple) else [m], t if isinstance(t, tuple) else [t]):
        assert_close(mv, tv)


def test_max_with_dim_returns_torch_named_tuple(torch):
    x_t = torch.tensor([[1.0, 5.0], [7.0, 2.0]], requires_grad=True)
    x_m = mg.tensor([[1.0, 5.0], [7.0, 2.0]], requires_grad=True)
    t, m = x_t.max(dim=1), x_m.max(dim=1)
    assert repr(m).replace("minigrad.", "torch.") == repr(t)
    assert repr(type(m)).replace("minigrad.", "torch.") == repr(type(t))
    assert isinstance(m, tuple) and len(m) == 2 and m.n_fields == t.n_fields
    values, indices = m
    assert values is m.values and indices is m.indices and m[0] is values
    assert not indices.requires_grad and indices.dtype == mg.int64
    r = mg.return_types.min((mg.tensor(1.0), mg.tensor(0)))
    assert repr(r).replace("minigrad.", "torch.") == \
        repr(torch.return_types.min((torch.tensor(1.0), torch.tensor(0))))


@pytest.mark.parametrize("call", [
    "x.sum(dim=-1)", "x.mean((0, -1), keepdim=True)", "x.max(-1)[0]", "x.amax(-2)",
    "x.softmax(-1)", "x.log_softmax(-2)", "x.prod(-1)", "x.norm(dim=-1)", "x.sum(None)",
    "x.mean(())", "x.norm(2.0)", "x.norm(p='fro')", "x.max(0, keepdim=True).values",
    "x.sum(dtype=L.float64)", "x.mean(1, dtype=L.float64)", "x.min()",
])
def test_saved_dims_show_as_torch_shows_them(torch, call):
    """A negative dim is saved as an unsigned 64-bit number, as PyTorch shows it."""
    outs = []
    for L in (torch, mg):
        x = L.tensor([[1.0, 4.0, 2.0], [3.0, 0.5, 6.0]], requires_grad=True)
        outs.append((x, eval(call, {"x": x, "L": L})))  # noqa: S307 - fixed test strings
    (xt, t), (xm, m) = outs
    assert m.grad_fn.name() == t.grad_fn.name()
    assert_same_saved(torch, t.grad_fn, m.grad_fn, [xt], [xm])
    t.sum().backward()
    m.sum().backward()
    assert_close(xm.grad, xt.grad)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float32", "float64"])
def test_result_dtypes_of_reductions_match_torch(torch, dtype):
    for call in ["x.sum()", "x.sum(0)", "x.prod()", "x.prod(1)", "x.max()", "x.amax(0)",
                 "x.min(1)[0]", "x.argmax()", "x.argmin(1)", "x.mean()", "x.norm()",
                 "x.sum(dtype=L.float64)", "x.mean(dtype=L.float64)", "x.max(1).indices",
                 "L.maximum(x, x)"]:
        def run(L, call=call):
            x = L.tensor([[1, 0, 2], [3, 1, 0]], dtype=getattr(L, dtype))
            return eval(call, {"x": x, "L": L})  # noqa: S307 - fixed test strings
        assert_same_result_or_error(torch, run)


@pytest.mark.parametrize("call", [
    "L.tensor([]).max()", "L.tensor([]).amax()", "L.tensor([]).argmax()", "L.zeros(2, 0).max(1)",
    "L.zeros(2, 0).argmin(1)", "L.ones(2, 3).sum(2)", "L.ones(2, 3).sum((0, 0))",
    "L.ones(2, 3).mean((0, -2))", "L.ones(2, 3).max(5)", "L.tensor([1, 2]).mean()",
    "L.tensor([1, 2]).mean(0)", "L.tensor([1, 2]).norm()", "L.tensor([True]).argmax()",
    "L.ones(2, 3).softmax(2)", "L.tensor(2.0).softmax(1)", "L.ones(2).max(L.ones(3))",
])
def test_reduction_errors_match_torch(torch, call):
    assert_same_error(lambda: eval(call, {"L": torch}),  # noqa: S307 - fixed test strings
                      lambda: eval(call, {"L": mg}))  # noqa: S307


@pytest.mark.parametrize("call", [
    "L.zeros(0, 2).max(1)", "L.zeros(0, 3).sum(0)", "L.tensor([]).sum()", "L.tensor(5.0).max(0)",
    "L.tensor(5.0).sum(0)", "L.tensor(3.0).mean(0, keepdim=True)", "L.tensor(3.0).amax(0)",
    "L.tensor(3.0).argmax(0, keepdim=True)", "L.tensor(3.0).norm(dim=0)", "L.ones(2, 3).argmax(keepdim=True)",
    "L.zeros(0, 3).softmax(0)", "L.tensor([]).prod()", "L.tensor([True, False]).max(0)",
])
def test_empty_and_zero_dim_reductions_match_torch(torch, call):
    t = eval(call, {"L": torch})  # noqa: S307 - fixed test strings
    m = eval(call, {"L": mg})  # noqa: S307
    for mv, tv in zip(m if isinstance(m, tuple) else [m], t if isinstance(t, tuple) else [t]):
        assert_close(mv, tv)


def test_prod_gradient_with_zeros_matches_torch(torch):
    values = [[1.0, 0.0, 3.0], [0.0, 0.0, 2.0], [2.0, -1.0, 4.0]]
    for call in ["x.prod()", "x.prod(1)", "x.prod(0, keepdim=True)"]:
        grads = []
        for L in (torch, mg):
            x = L.tensor(values, requires_grad=True)
            eval(call, {"x": x}).sum().backward()  # noqa: S307 - fixed test strings
            grads.append(x.grad)
        assert_close(grads[1], grads[0])


def test_sum_with_dtype_gives_the_gradient_in_the_input_dtype(torch):
    for L in (torch, mg):
        x = L.ones(2, 3, requires_grad=True)
        x.sum(dtype=L.float64).backward()
        assert str(x.grad.dtype).endswith("float32")
