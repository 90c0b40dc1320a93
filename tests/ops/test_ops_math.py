"""Every op of tests/ops/op_table.py, run in minigrad and in PyTorch on the same inputs
(gradients and graphs: also every op of op_table_tensor.py).

For each op: forward values and dtype, gradients, the grad_fn graph (node names,
next_functions with their None edges and input numbers, which leaf each AccumulateGrad holds)
and every node's ``_saved_*`` attributes (names, kinds and values) must agree with PyTorch.
"""

from __future__ import annotations

import numpy as np
import pytest
from op_table import (
    OPS,
    assert_close,
    assert_same_graph,
    assert_same_saved,
    both,
    first_output,
    run_both,
    sample,
)
from op_table_tensor import TENSOR_OPS

import minigrad as mg

pytestmark = pytest.mark.torch

GRAD_OPS = [case for case in OPS if case.differentiable]
# the gradient and graph checks run on the tensor methods' table too
BOTH_TABLES = GRAD_OPS + [case for case in TENSOR_OPS if case.differentiable]


@pytest.mark.parametrize("case", OPS, ids=repr)
def test_forward_matches_torch(torch, case):
    _, _, t_out, m_out = run_both(torch, case, requires_grad=False)
    assert isinstance(m_out, tuple) == isinstance(t_out, tuple)
    if isinstance(t_out, tuple):
        assert type(m_out).__name__ == type(t_out).__name__
        assert len(m_out) == len(t_out)
    for m, t in zip(m_out if isinstance(m_out, tuple) else [m_out],
                    t_out if isinstance(t_out, tuple) else [t_out]):
        assert_close(m, t)
        assert m.grad_fn is None and not m.requires_grad


@pytest.mark.parametrize("case", BOTH_TABLES, ids=repr)
def test_gradients_match_torch(torch, case):
    ts, ms, t_out, m_out = run_both(torch, case, seed=1)
    t_out, m_out = first_output(t_out), first_output(m_out)
    weights = np.random.default_rng(2).standard_normal(tuple(t_out.shape)).astype(np.float32)
    (t_out * torch.tensor(weights)).sum().backward()
    (m_out * mg.tensor(weights)).sum().backward()
    for t, m in zip(ts, ms):
        assert (m.grad is None) == (t.grad is None)
        if t.grad is not None:
            assert_close(m.grad, t.grad, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case", BOTH_TABLES, ids=repr)
def test_graph_matches_torch(torch, case):
    ts, ms, t_out, m_out = run_both(torch, case)
    t_out, m_out = first_output(t_out), first_output(m_out)
    assert m_out.requires_grad and not m_out.is_leaf
    assert m_out.grad_fn.name() == t_out.grad_fn.name()
    assert_same_graph(t_out.grad_fn, m_out.grad_fn, ts, ms)


@pytest.mark.parametrize("case", GRAD_OPS, ids=repr)
def test_saved_attributes_match_torch(torch, case):
    ts, ms, t_out, m_out = run_both(torch, case)
    assert_same_saved(torch, first_output(t_out).grad_fn, first_output(m_out).grad_fn, ts, ms)


@pytest.mark.parametrize("case", GRAD_OPS, ids=repr)
def test_only_some_inputs_requiring_grad_gives_torch_graph(torch, case):
    """The first input requires grad, the others not: None edges and saved values change."""
    arrays = sample(case, np.random.default_rng(3), dtype=np.float32)
    ts = [torch.tensor(a, requires_grad=i == 0) for i, a in enumerate(arrays)]
    ms = [mg.tensor(a, requires_grad=i == 0) for i, a in enumerate(arrays)]
    t_out, m_out = first_output(case.torch(torch)(*ts)), first_output(case.minigrad(*ms))
    assert_same_graph(t_out.grad_fn, m_out.grad_fn, ts, ms)
    assert_same_saved(torch, t_out.grad_fn, m_out.grad_fn, ts, ms)


@pytest.mark.parametrize("case", GRAD_OPS, ids=repr)
def test_float64_inputs_keep_float64_like_torch(torch, case):
    ts, ms = both(torch, sample(case, np.random.default_rng(4)))
    t_out, m_out = first_output(case.torch(torch)(*ts)), first_output(case.minigrad(*ms))
    assert_close(m_out, t_out, rtol=1e-10, atol=1e-12)
    m_out.sum().backward()
    t_out.sum().backward()
    for t, m in zip(ts, ms):
        assert_close(m.grad, t.grad, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("case", GRAD_OPS, ids=repr)
def test_no_grad_records_nothing(torch, case):
    arrays = sample(case, np.random.default_rng(5), dtype=np.float32)
    _, ms = both(torch, arrays)
    with mg.no_grad():
        out = first_output(case.minigrad(*ms))
    assert out.grad_fn is None and not out.requires_grad
