"""Matrix products against PyTorch: matmul's choice of dot/mv/mm/bmm and folding (the whole
recorded graph), values and gradients over random shapes, addmm as nn.Linear uses it, errors."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same_outcome
from hypothesis import given
from hypothesis import strategies as st
from op_table import assert_close, assert_same_error, assert_same_graph, assert_same_saved

import minigrad as mg

pytestmark = pytest.mark.torch


@st.composite
def matmul_shapes(draw):
    """Two shapes valid for matmul: 1-4 dims each, matching inner sizes, broadcast batches."""
    n, k, m = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    d1, d2 = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    batch = draw(st.lists(st.integers(1, 3), min_size=2, max_size=2))
    b1 = [draw(st.sampled_from([b, 1])) for b in batch][2 - max(d1 - 2, 0):]
    b2 = [draw(st.sampled_from([b, 1])) for b in batch][2 - max(d2 - 2, 0):]
    s1 = (k,) if d1 == 1 else tuple(b1) + (n, k)
    s2 = (k,) if d2 == 1 else tuple(b2) + (k, m)
    return s1, s2


def _leaves(torch, s1, s2, rg, transpose_first):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(s1).astype(np.float32)
    b = rng.standard_normal(s2).astype(np.float32)
    out = []
    for lib in (torch, mg):
        x, y = lib.tensor(a, requires_grad=rg[0]), lib.tensor(b, requires_grad=rg[1])
        leaves = [x, y]
        if transpose_first and x.dim() >= 2:  # a non-contiguous operand
            x = lib.tensor(np.swapaxes(a, -1, -2).copy(),
                           requires_grad=rg[0])
            leaves[0] = x
            x = x.transpose(-1, -2)
        out.append((leaves, x, y))
    return out


@given(shapes=matmul_shapes(), rg=st.sampled_from([(True, True), (True, False), (False, True)]),
       transpose_first=st.booleans())
def test_matmul_records_torch_graph_values_and_gradients(torch, shapes, rg, transpose_first):
    (t_leaves, tx, ty), (m_leaves, mx, my) = _leaves(torch, *shapes, rg, transpose_first)
    t_out, m_out = tx @ ty, mx @ my
    assert_close(m_out, t_out, rtol=1e-5, atol=1e-5)
    assert_same_graph(t_out.grad_fn, m_out.grad_fn, t_leaves, m_leaves)
    assert_same_saved(torch, t_out.grad_fn, m_out.grad_fn, t_leaves, m_leaves)
    assert m_out._version == t_out._version
    weights = np.random.default_rng(1).standard_normal(tuple(t_out.shape)).astype(np.float32)
    (t_out * torch.tensor(weights)).sum().backward()
    (m_out * mg.tensor(weights)).sum().backward()
    for t, m in zip(t_leaves, m_leaves):
        if t.grad is not None:
            assert_close(m.grad, t.grad, rtol=1e-4, atol=1e-5)


@given(s1=st.lists(st.integers(1, 4), min_size=0, max_size=3),
       s2=st.lists(st.integers(1, 4), min_size=0, max_size=3))
def test_matmul_shape_errors_match_torch(torch, s1, s2):
    def run(L):
        return L.ones(s1) @ L.ones(s2)
    try:
        expected = run(torch)
    except RuntimeError:
        assert_same_error(lambda: run(torch), lambda: run(mg))
    else:
        assert_close(run(mg), expected)


@pytest.mark.parametrize("call", [
    "L.ones(2, 3) @ L.ones(2, 3)", "L.ones(3) @ L.ones(2)", "L.ones(2, 3).mm(L.ones(3))",
    "L.mm(L.ones(3), L.ones(3, 2))", "L.tensor(1.0) @ L.ones(2)", "L.ones(2, 3).double() @ L.ones(3)",
    "L.ones(3) @ L.ones(3, 2).double()", "L.ones(2, 3).long() @ L.ones(3, 2)",
    "L.ones(2, 3).int() @ L.ones(3, 2)", "L.ones(2, 3).bool() @ L.ones(3, 2).bool()",
    "L.ones(3).long() @ L.ones(3)", "L.dot(L.ones(3), L.ones(2, 3))",
    "L.dot(L.ones(3).bool(), L.ones(3).bool())", "L.mv(L.ones(2, 3), L.ones(2))",
    "L.mv(L.ones(3), L.ones(3))", "L.bmm(L.ones(2, 3), L.ones(3, 2))",
    "L.bmm(L.ones(2, 2, 3), L.ones(2, 4, 2))", "L.bmm(L.ones(2, 2, 3), L.ones(2, 3, 2).double())",
    "L.ones(2, 2, 3) @ L.ones(2, 3, 2).double()", "L.ones(2, 2, 3) @ L.ones(4)",
    "L.ones(5, 2, 3) @ L.ones(4, 3, 4)", "L.ones(3) @ 2",
    "L.addmm(L.ones(3, 5), L.ones(2, 3), L.ones(3, 4))", "L.addmm(L.ones(4).double(), L.ones(2, 3), L.ones(3, 4))",
    "L.addmm(L.ones(4), L.ones(2, 3).double(), L.ones(3, 4))", "L.addmm(L.ones(4), L.ones(3), L.ones(3, 4))",
    "L.addmm(L.ones(4), L.ones(2, 3), L.ones(4, 4))", "L.addmm(L.ones(1, 2, 4), L.ones(2, 3), L.ones(3, 4))",
    "L.ones(2, 3).addmm(L.ones(3, 3), L.ones(3, 3))",
])
def test_linalg_errors_match_torch(torch, call):
    assert_same_error(lambda: eval(call, {"L": torch}),  # noqa: S307 - fixed test strings
                      lambda: eval(call, {"L": mg}))  # noqa: S307


@pytest.mark.parametrize("call", [
    "L.ones(2, 3).long() @ L.ones(3, 2).long()", "L.ones(2, 3).long() @ L.ones(3).long()",
    "L.ones(3).long() @ L.ones(3).long()", "L.ones(0, 3) @ L.ones(3, 2)", "L.ones(3, 0) @ L.ones(0, 2)",
    "L.addmm(L.ones(1), L.ones(2, 3), L.ones(3, 4))", "L.addmm(L.ones(2, 1), L.ones(2, 3), L.ones(3, 4))",
    "L.addmm(L.tensor(1.0), L.ones(2, 3), L.ones(3, 4), beta=0.5, alpha=2)",
    "L.ones(2, 3, dtype=L.uint8) @ L.ones(3, 2, dtype=L.uint8)",
])
def test_integer_and_degenerate_products_match_torch(torch, call):
    assert_close(eval(call, {"L": mg}), eval(call, {"L": torch}))  # noqa: S307


@pytest.mark.parametrize("batch_shape", [(), (5,), (2, 5)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_records_addmm_graph_like_torch(torch, batch_shape, bias):
    """F.linear on 2-D input is AddmmBackward0(bias, input, TBackward0(weight))."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(batch_shape + (4, 3)).astype(np.float32),
              rng.standard_normal((2, 3)).astype(np.float32),
              rng.standard_normal(2).astype(np.float32)]
    results = []
    for lib in (torch, mg):
        x, w, b = (lib.tensor(a, requires_grad=True) for a in arrays)
        out = lib.nn.functional.linear(x, w, b if bias else None)
        results.append(([x, w, b], out))
    (t_leaves, t_out), (m_leaves, m_out) = results
    assert_close(m_out, t_out, rtol=1e-5, atol=1e-5)
    assert_same_graph(t_out.grad_fn, m_out.grad_fn, t_leaves, m_leaves)
    assert_same_saved(torch, t_out.grad_fn, m_out.grad_fn, t_leaves, m_leaves)
    t_out.sum().backward()
    m_out.sum().backward()
    for t, m in zip(t_leaves, m_leaves):
        if t.grad is not None:
            assert_close(m.grad, t.grad, rtol=1e-5, atol=1e-5)


def test_nn_linear_module_output_has_addmm_node_over_bias_input_and_t(torch):
    names = []
    for lib in (torch, mg):
        lin = lib.nn.Linear(3, 2)
        out = lin(lib.ones(4, 3, requires_grad=True))
        names.append([(f.name() if f else None, nr) for f, nr in out.grad_fn.next_functions])
        assert out.grad_fn.name() == "AddmmBackward0"
    assert names[1] == names[0]


def test_addmm_bias_gradient_is_summed_over_the_batch(torch):
    grads = []
    for lib in (torch, mg):
        bias = lib.tensor([1.0, 2.0], requires_grad=True)
        m1 = lib.ones(3, 4, requires_grad=True)
        m2 = lib.ones(4, 2, requires_grad=True)
        lib.addmm(bias, m1, m2, beta=3, alpha=0.5).sum().backward()
        grads.append([bias.grad, m1.grad, m2.grad])
    for m, t in zip(*grads[::-1]):
        assert_close(m, t)


@pytest.mark.parametrize("expr", [
    "lib.inner(lib.ones(3), lib.ones(4))", "lib.inner(lib.ones(2, 3), lib.ones(2))",
    "lib.inner(lib.ones(3), 2)", "lib.inner(lib.tensor([1, 2]), lib.tensor([1., 2.]))",
    "lib.inner(lib.tensor([1, 2]), lib.tensor([3, 4]))", "lib.ones(2).inner(lib.tensor(3.))",
    "lib.tensordot(lib.ones(2, 1, dtype=lib.int32), lib.ones(3, 1, dtype=lib.int32), 0)",
    "lib.inner(lib.ones(2, 1, dtype=lib.int32), lib.ones(3, 1, dtype=lib.int32))",
    "lib.inner(lib.arange(2.).reshape(2, 1), lib.arange(3.).reshape(3, 1))",
    "lib.inner(lib.ones(1, dtype=lib.bool), lib.ones(1, dtype=lib.bool))",
    "lib.outer(lib.ones(2, 3), lib.ones(4))", "lib.ones(3).outer(lib.ones(2, 2))",
    "lib.baddbmm(lib.ones(2, 3), lib.ones(4, 2, 3), lib.ones(4, 2, 3))",
    "lib.baddbmm(lib.ones(2, 3), lib.ones(2, 3), lib.ones(3, 3))",
    "lib.baddbmm(lib.ones(5), lib.ones(4, 2, 3), lib.ones(4, 3, 3))",
    "lib.baddbmm(lib.ones(2, 3), lib.ones(4, 2, 3), lib.ones(4, 3, 3).double())",
    "lib.baddbmm(lib.ones(2, 3), lib.ones(4, 2, 3).int(), lib.ones(4, 3, 3).int())",
    "lib.baddbmm(lib.full((2, 3), float('nan')), lib.ones(4, 2, 3), lib.ones(4, 3, 3), beta=0)",
    "lib.ones(4, 2, 3).baddbmm_(lib.ones(4, 2, 3), lib.ones(4, 3, 3), alpha=2)"])
def test_inner_outer_and_baddbmm_values_and_errors_as_pytorch(torch, expr):
    assert_same_outcome(torch, expr)
