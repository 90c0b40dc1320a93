"""Every op of tests/ops/op_table_tensor.py, run in minigrad and in PyTorch on the same inputs.

For each op: forward values and dtype, gradients, the grad_fn graph (node names,
next_functions with their None edges and input numbers, which leaf each AccumulateGrad
holds), every node's ``_saved_*`` attributes, and which outputs are views of which input.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from op_table import assert_close, run_both, sample
from op_table_tensor import TENSOR_OPS, assert_same_saved

import minigrad as mg

pytestmark = pytest.mark.torch

GRAD_OPS = [case for case in TENSOR_OPS if case.differentiable]


@pytest.mark.parametrize("case", TENSOR_OPS, ids=repr)
def test_forward_matches_torch(torch, case):
    _, _, t_out, m_out = run_both(torch, case, requires_grad=False)
    assert_close(m_out, t_out)
    assert m_out.grad_fn is None and not m_out.requires_grad


# gradients and graphs: test_ops_math.py checks them for both tables' ops


@pytest.mark.parametrize("case", GRAD_OPS, ids=repr)
def test_saved_attributes_match_torch(torch, case):
    ts, ms, t_out, m_out = run_both(torch, case)
    assert_same_saved(torch, t_out.grad_fn, m_out.grad_fn, ts, ms)


@pytest.mark.parametrize("case", TENSOR_OPS, ids=repr)
@pytest.mark.parametrize("requires_grad", [False, True])
def test_views_and_versions_match_torch(torch, case, requires_grad):
    """The output is a view of the same input as in torch, and versions agree."""
    ts, ms, t_out, m_out = run_both(torch, case, requires_grad=requires_grad)
    assert [m_out._base is m for m in ms] == [t_out._base is t for t in ts]
    assert [m is m_out for m in ms] == [t is t_out for t in ts]
    if case.differentiable:  # torch's isclose bumps its own fresh result; no lesson in that
        assert m_out._version == t_out._version
    assert [m._version for m in ms] == [t._version for t in ts]


def _second_order(lib, case, arrays):
    """Gradients of sum(g * g), g = d(sum(out * out * w))/dinputs taken with create_graph."""
    xs = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = case.fn(lib, *xs)
    w = lib.tensor(np.random.default_rng(2).standard_normal(tuple(out.shape)),
                   requires_grad=True)
    gs = lib.autograd.grad((out * out * w).sum(), xs, create_graph=True, allow_unused=True)
    names = [None if g is None or g.grad_fn is None else g.grad_fn.name() for g in gs]
    total = sum((g * g).sum() for g in gs if g is not None)
    total.backward()
    return names, [x.grad for x in xs] + [w.grad]


@pytest.mark.parametrize("case", GRAD_OPS, ids=repr)
def test_second_order_gradients_match_torch(torch, case):
    arrays = sample(case, np.random.default_rng(0), dtype=np.float64)
    _, t_grads = _second_order(torch, case, arrays)
    _, m_grads = _second_order(mg, case, arrays)
    for m, t in zip(m_grads, t_grads):
        assert (m is None) == (t is None)
        if t is not None:
            assert_close(m, t, rtol=1e-6, atol=1e-9)


# Where the gradient's own grad_fn comes from the op's backward formula (not from the
# engine's un-broadcasting), it is the node PyTorch makes.
DOUBLE_BACKWARD_NAMES = [
    "select", "slice_step", "select_then_slice", "int_list", "bool_mask", "squeeze", "unsqueeze",
    "cat", "stack", "split_piece", "unbind", "masked_fill", "where_scalar", "t", "permute",
    "transpose", "view", "to_copy_same_dtype", "narrow", "cat_skips_1d_empty", "fill_tensor_",
]


@pytest.mark.parametrize("name", DOUBLE_BACKWARD_NAMES)
def test_gradient_graph_under_create_graph_matches_torch(torch, name):
    case = next(c for c in GRAD_OPS if c.name == name)
    arrays = sample(case, np.random.default_rng(0), dtype=np.float64)
    assert _second_order(mg, case, arrays)[0] == _second_order(torch, case, arrays)[0]


@pytest.mark.parametrize("case", GRAD_OPS, ids=repr)
def test_gradcheck_and_gradgradcheck_pass(case):
    arrays = sample(case, np.random.default_rng(4), dtype=np.float64)
    xs = [mg.tensor(a, requires_grad=True) for a in arrays]
    assert mg.autograd.gradcheck(case.minigrad, xs)
    assert mg.autograd.gradgradcheck(case.minigrad, xs)


@pytest.mark.parametrize("expr", [
    f"{x}.{attr}" for attr in ("mT", "mH", "H")
    for x in ("lib.tensor(1.0, requires_grad=True)", "lib.ones(3)", "lib.ones(2, 3)",
              "lib.ones(2, 3, 4)", "lib.arange(24.0).reshape(2, 3, 4).requires_grad_()")])
def test_the_matrix_transposes_as_pytorch(torch, expr):
    """Values, grad_fn, warnings and errors of .mT/.mH/.H (a real tensor's conjugate is itself)."""
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                y = eval(expr, {"lib": lib})  # noqa: S307
            except RuntimeError as e:
                return "RuntimeError", str(e)
        node = y.grad_fn
        return (repr(y), node and node.name(), node and [f and f.name() for f, _ in
                                                       node.next_functions],
                node and getattr(node, "_saved_dim0", None),
                [str(w.message).split(" (Triggered internally")[0] for w in caught])

    assert run(mg) == run(torch)


@pytest.mark.parametrize("expr", [
    "lib.is_nonzero(lib.tensor([1.5]))", "lib.tensor(0.).is_nonzero()",
    "lib.is_nonzero(lib.tensor([[0]]))", "lib.is_nonzero(lib.tensor([False]))",
    "lib.is_nonzero(lib.tensor(float('nan')))", "lib.tensor(-0.0).is_nonzero()",
    "lib.is_nonzero(lib.tensor([2.0], requires_grad=True))",
    "lib.is_nonzero(lib.tensor([]))", "lib.is_nonzero(lib.tensor([1, 2]))", "lib.is_nonzero(1)",
    "lib.ones(2).view()"])
def test_is_nonzero_and_view_without_a_size_as_pytorch(torch, expr):
    def run(lib):
        try:
            return repr(eval(expr, {"lib": lib}))  # noqa: S307
        except (RuntimeError, TypeError) as e:
            return type(e).__name__, str(e)  # (the whole message: view() lists its signatures)

    assert run(mg) == run(torch)


def test_data_ptr_is_where_the_first_element_is_as_pytorch(torch):
    def offsets(lib):
        x = lib.arange(12.0).reshape(3, 4)
        p = x.data_ptr()
        return [x[1].data_ptr() - p, x[:, 2].data_ptr() - p, x.t().data_ptr() - p,
                x[1:, 1:].data_ptr() - p, x.view(12)[5:].data_ptr() - p,
                x.clone().data_ptr() != p, lib.tensor([]).data_ptr(), type(p)]

    assert offsets(mg) == offsets(torch)


@pytest.mark.parametrize("expr", [
    "[(t, t._base is x, t.grad_fn._saved_start, t.grad_fn._saved_end) for t in "
    f"lib.tensor_split(x, {arg})]" for arg in (
        "3", "[5, 2]", "[-2, 9]", "[]", "(1, 4), dim=0", "10", "lib.tensor(3)",
        "lib.tensor([1, 5])", "sections=2", "indices=[2]",
        "tensor_indices_or_sections=lib.tensor(2)")] + [
    f"lib.tensor_split(x, {arg})" for arg in (
        "0", "-1", "2, dim=3", "2.5", "lib.tensor([[1]])", "lib.tensor(1.5)", "")] + [
    "lib.tensor_split(lib.tensor(1.), 2)", "x.reshape(1, 7).tensor_split(2, 1)"])
def test_tensor_split_as_pytorch(torch, expr):
    def run(lib):
        x = lib.arange(7.0, requires_grad=True) * 1  # noqa: F841 - used by expr
        try:
            return repr(eval(expr.replace("(x, )", "(x)"), {"lib": lib, "x": x}))  # noqa: S307
        except (RuntimeError, TypeError, IndexError) as e:
            return type(e).__name__, str(e)

    assert run(mg) == run(torch)


@pytest.mark.parametrize("expr", [
    "x.index_fill(1, lib.tensor([3]), 1.)", "x.index_fill(1, lib.tensor([0.]), 1.)",
    "x.index_fill(2, i, 1.)", "x.index_fill(1, lib.tensor([[0]]), 1.)",
    "x.index_fill(1, i, lib.tensor([1., 2.]))", "x.index_fill(1, [0], 1.)",
    "x.index_fill_(1, i, 1.)", "lib.ones(3, dtype=lib.int64).index_fill(0, lib.tensor([1]), 2.5)",
    "lib.ones(3).index_fill(0, lib.tensor([-1, 1, 1]), 2.5)",
    "lib.tensor(1.).index_fill(0, lib.tensor(0), 3.)",
    "lib.ones(3).index_fill(0, lib.tensor([1], dtype=lib.int32), 2.5)",
    "x.index_fill(1, i, lib.tensor(2, dtype=lib.int64))"])
def test_index_fill_values_and_errors_as_pytorch(torch, expr):
    def run(lib):
        x = lib.arange(6.0).reshape(2, 3).requires_grad_()  # noqa: F841 - used by expr
        try:
            return repr(eval(expr, {"lib": lib, "x": x, "i": lib.tensor([0, 2])}))  # noqa: S307
        except (RuntimeError, TypeError, IndexError) as e:
            return type(e).__name__, str(e).split("\n")[0]

    assert run(mg) == run(torch)
