"""Second-order graphs as PyTorch's, op by op.

For every differentiable op of the op tables (op_table.py, op_table_tensor.py and
op_table_pointwise.py), the gradients taken with ``create_graph=True`` must be built by the
same nodes as PyTorch's (its formulas in derivatives.yaml: ``sigmoid_backward`` records
``SigmoidBackwardBackward0``, ``x ** 3``'s ``3 * x.pow(2)`` a ``MulBackward1``...): the whole
graph under each gradient, walked recursively (node names, ``input_nr`` of every edge), whether
it requires grad, and the same for the leaves' ``.grad`` after ``backward(create_graph=True)``.

Ops whose second-order graph still differs are listed in ``KNOWN`` (each a bug to fix); an
entry that matches fails the test, so the list only shrinks.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from op_table import OPS, first_output, sample
from op_table_pointwise import MORE
from op_table_tensor import TENSOR_OPS

import minigrad

CASES = [c for c in OPS + TENSOR_OPS + MORE if c.differentiable]

KNOWN: dict[str, str] = {
}


def tree(fn, depth=0):
    """The graph below node ``fn``: (name, ((child, input_nr), ...)); leaves by name only."""
    if fn is None:
        return None
    if depth > 40:
        return "..."
    return (fn.name(), tuple((tree(f, depth + 1), nr) for f, nr in fn.next_functions))


def _grad_tree(g):
    return None if g is None else (g.requires_grad, tree(g.grad_fn))


def graphs(lib, case) -> dict:
    """The graphs of ``case``'s first-order gradients in ``lib``: from ``autograd.grad`` and in
    the leaves' ``.grad`` (each: requires_grad, tree)."""
    arrays = sample(case, np.random.default_rng(0), dtype=np.float32)
    found = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # backward(create_graph=True)'s warning
        for how in ("grad", ".grad"):
            xs = [lib.tensor(a, requires_grad=True) for a in arrays]
            out = first_output(case.fn(lib, *xs))
            if how == "grad":
                gs = lib.autograd.grad(out, xs, lib.ones_like(out), create_graph=True,
                                       allow_unused=True)
            else:
                out.backward(lib.ones_like(out), create_graph=True)
                gs = [x.grad for x in xs]
            found[how] = [_grad_tree(g) for g in gs]
    return found


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_second_order_graphs_match_torch(case, torch):
    same = graphs(minigrad, case) == graphs(torch, case)
    if case.name in KNOWN:
        assert not same, f"{case.name} now matches PyTorch: delete it from KNOWN"
    else:
        assert same, (graphs(minigrad, case), graphs(torch, case))


def test_known_entries_name_cases():
    names = {c.name for c in CASES}
    assert set(KNOWN) <= names


def test_a_different_graph_is_noticed(torch):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (g,) = minigrad.autograd.grad((x * x).sum(), x, create_graph=True)
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    (h,) = torch.autograd.grad((t * t * t).sum(), t, create_graph=True)
    assert _grad_tree(g) != _grad_tree(h)


def _inplace_on_views(lib):
    """In-place ops on views of a transposed-layout base and of an as_strided view, then the
    gradient and its graph (PyTorch writes the view's gradient through as_strided + copy_)."""
    x = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    y = lib.tensor([2.0, 3.0], requires_grad=True)
    b = x.t() * 1  # (a base laid out by columns)
    b[1].mul_(y)
    c = x * 1
    c.as_strided((2,), (4,), 0).mul_(y)
    out = (b.sum() + (c * c).sum())
    gs = lib.autograd.grad(out, (x, y), create_graph=True)
    return [(_grad_tree(g), g.detach().numpy().tolist()) for g in gs]


def test_in_place_on_views_of_any_layout_matches_torch(torch):
    assert _inplace_on_views(minigrad) == _inplace_on_views(torch)


def _leaf_view_inplace(lib, swap):
    a = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
    v = a.t()
    v.requires_grad_()
    if swap:  # (a view whose memory is no longer its base's: no write may go through it)
        v.data = lib.ones(2, 3)
    with pytest.raises(RuntimeError) as info:
        v.mul_(2)
    return str(info.value)


@pytest.mark.parametrize("swap", [False, True])
def test_a_view_made_a_leaf_is_not_changed_in_place(torch, swap):
    assert _leaf_view_inplace(minigrad, swap) == _leaf_view_inplace(torch, swap)


def test_views_made_in_no_grad_mode_require_grad_as_their_base(torch):
    def flags(lib):
        a = lib.ones(2, 3, requires_grad=True)
        leaf_view = lib.ones(3, 2).t().requires_grad_()  # (its base does not require grad)
        x = lib.ones(3)
        x.mul_(lib.tensor(2.0, requires_grad=True))
        with lib.no_grad():
            return [a[:].requires_grad, leaf_view[:].requires_grad,
                    lib.squeeze(leaf_view).requires_grad, a[0][1:].requires_grad,
                    leaf_view.t().requires_grad, x[1:].requires_grad]

    assert flags(minigrad) == flags(torch)


@pytest.mark.parametrize("expr", [
    "x.clamp_min(0.5)", "x.clamp_max(0.5)", "x.clamp(0.2, 0.5)", "x.clamp(max=0.5)",
    "x.clamp(L.tensor(0.2), L.tensor(0.5))", "F.silu(x)", "F.mish(x)"])
def test_a_gradient_that_requires_grad_goes_through_the_same_ops(torch, expr):
    """``(y * x).sum()``: the gradient reaching ``y``'s node is ``x`` itself, so the node's
    backward is recorded with a grad that requires grad (clamp: PyTorch's ``where``)."""
    def graph(L):
        F = L.nn.functional  # noqa: F841 - used by expr
        x = L.tensor([0.1, 0.3, 0.9], requires_grad=True)
        y = eval(expr)
        (g,) = L.autograd.grad((y * x).sum(), x, create_graph=True)
        (gg,) = L.autograd.grad(g.sum(), x)
        return _grad_tree(g), g.detach().numpy().tolist(), gg.numpy()

    mine, theirs = graph(minigrad), graph(torch)
    assert mine[:2] == theirs[:2]
    # (the second derivative within float32 rounding: silu's differs in the last bit)
    np.testing.assert_allclose(mine[2], theirs[2], rtol=1e-6)


def test_group_norm_second_and_third_order_values_match_torch(torch):
    """group_norm's mean and 1/std are outputs of its node (PyTorch's native_group_norm), so a
    third backward goes through the node again with gradients for them (var_mean_backward)."""
    rng = np.random.default_rng(0)
    arrays = rng.standard_normal((3, 4, 5)), rng.standard_normal(4), rng.standard_normal(4)

    def run(lib):
        xs = [lib.tensor(a, requires_grad=True) for a in arrays]
        y = lib.nn.functional.group_norm(xs[0], 2, xs[1], xs[2])
        gs = lib.autograd.grad((y * y * y).sum(), xs, create_graph=True)
        hs = lib.autograd.grad(sum((g * g).sum() for g in gs), xs, create_graph=True)
        ks = lib.autograd.grad(sum((h * h).sum() for h in hs), xs)
        return [t.detach().numpy() for t in hs + ks]

    for mine, theirs in zip(run(minigrad), run(torch)):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)
