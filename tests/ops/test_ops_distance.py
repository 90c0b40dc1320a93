"""dist (minigrad/_ops/distance.py) against PyTorch: every p PyTorch's norm_backward treats
apart (0, 1, 2, inf, p < 1, 1 < p < 2, p > 2, negative), the saved values, the second-order
graphs of both operands' gradients (``a - b`` recomputed, ``result`` read back), and errors."""

from __future__ import annotations

import pytest
from helpers import assert_same_outcome, snippet_outcome
from test_ops_double_backward import tree

import minigrad as mg


@pytest.mark.parametrize("p", [2, 1, 3, float("inf"), 0.5, -1, 1.5])
def test_dist_values_gradients_and_graphs_as_pytorch(torch, p):
    def run(lib):
        a = lib.tensor([[1., 2., 3.], [0., -1., 2.]], requires_grad=True)
        b = lib.tensor([0.5, 2., -1.], requires_grad=True)
        y = lib.dist(a, b, p)
        node = y.grad_fn
        gs = lib.autograd.grad(y, (a, b), create_graph=True)
        return (repr(y), node.name(), node._saved_p, repr(node._saved_result),
                [g.tolist() for g in gs], [tree(g.grad_fn) for g in gs])

    assert run(mg) == run(torch)


@pytest.mark.parametrize("shapes", [((), (3,)), ((3,), ()), ((0,), ()), ((), (1, 0)),
                                    ((1,), (2, 1)), ((2, 1), (1, 3))])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float32")])
def test_dist_sums_each_gradient_back_to_its_operand_even_when_that_is_the_results_shape(
        torch, shapes, dtypes):
    """An operand of the result's shape ([]) broadcast against a larger one: its gradient is
    summed back from the broadcast shape, as PyTorch's engine does (a fuzz finding: minigrad's
    kept the broadcast shape and failed at the leaf)."""
    def run(lib):
        a, b = (lib.arange(-1., lib.Size(s).numel() - 1).reshape(s).to(getattr(lib, d))
                .requires_grad_() for s, d in zip(shapes, dtypes))
        y = lib.dist(a, b) * 2
        y.backward()
        gs = lib.autograd.grad(lib.dist(a, b, 3), (a, b), create_graph=True)
        return repr(y), repr(a.grad), repr(b.grad), [repr(g.detach()) for g in gs]

    assert run(mg) == run(torch)


def test_dist_with_p_0_has_no_gradient_as_pytorch(torch):
    def run(lib):
        a = lib.tensor([1., 2.], requires_grad=True)
        lib.dist(a, lib.zeros(2), 0).backward()
        b = lib.tensor([1., 2.], requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            lib.dist(a, b, 0).backward()
        return a.grad, str(info.value)

    assert run(mg) == run(torch)


@pytest.mark.parametrize("expr", [
    "lib.dist(lib.ones(2), lib.ones(3))", "lib.dist(lib.ones(2), 2.)",
    "lib.dist(lib.tensor([1, 2]), lib.tensor([1, 2]))", "lib.ones(2).dist(lib.zeros(2), p='fro')",
    "lib.dist(lib.ones(2), lib.zeros(2, dtype=lib.float64))",
    "lib.dist(lib.ones(2, dtype=lib.float16), lib.zeros(2, dtype=lib.float16))",
    "lib.dist(lib.ones(2), lib.zeros(2), lib.tensor(2.))"])
def test_dist_dtypes_and_errors_as_pytorch(torch, expr):
    assert_same_outcome(torch, expr)


@pytest.mark.parametrize("p", ["-1.5", "-1", "-1e30", "inf", "-inf", "0", "0.5", "2"])
@pytest.mark.parametrize("mode", ["lib.enable_grad()", "lib.inference_mode()", "lib.no_grad()"])
def test_dist_of_empty_tensors_raises_where_the_norm_has_no_identity(torch, p, mode):
    """p < 0 or +-inf over no elements: PyTorch's vector_norm error (a fuzz finding: minigrad
    gave inf or 0, or a NumPy error for -inf); p >= 0: 0."""
    code = (f"inf = float('inf')\nwith {mode}:\n"
            f"    out = lib.dist(lib.ones(0, 2, requires_grad=True), lib.ones(2), {p})")
    assert snippet_outcome(mg, code) == snippet_outcome(torch, code)
