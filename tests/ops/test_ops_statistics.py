"""var/std and var_mean/std_mean against PyTorch 2.13: one node for both outputs of
``*_mean`` (``VarMeanBackward0``, ``StdMeanBackward0``), the saved attributes as PyTorch saves
them (``correction`` None when neither it nor ``unbiased`` nor ``dim`` was given), the
gradients of either output and both, and the second-order graph."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same_outcome, close, f32

import minigrad as mg

pytestmark = pytest.mark.torch

CALLS = ["L.var(x)", "L.std(x)", "x.var(True)", "x.var(False)", "x.std(0)", "x.var(dim=1)",
         "x.var(dim=None)", "x.std(0, unbiased=False)", "x.var(1, keepdim=True)",
         "x.var(correction=2)", "x.std(0, correction=None)", "x.var(correction=0.5)",
         "L.std_mean(x)", "L.var_mean(x, 1)", "L.std_mean(x, True)",
         "L.std_mean(x, (0,), keepdim=True, correction=0)", "L.var_mean(x, dim=0)",
         "L.var_mean(x, None, correction=2)"]


def tree(fn):
    return None if fn is None else (fn.name(), tuple((tree(f), n) for f, n in fn.next_functions))


def run(L, call, which):
    x = L.tensor(f32(3, 4), requires_grad=True)
    out = eval(call, {"L": L, "x": x})  # noqa: S307 - our table
    outs = out if isinstance(out, tuple) else (out,)
    node = outs[0].grad_fn
    saved = {k: getattr(node, f"_saved_{k}") for k in ("correction", "dim", "keepdim")}
    names = [(o.grad_fn.name(), o.grad_fn is node, o.output_nr if o.grad_fn else None)
             for o in outs]
    picked = [o for i, o in enumerate(outs) if which in ("all", i)]
    loss = sum((o * (i + 2)).sum() for i, o in enumerate(picked))
    (g,) = L.autograd.grad(loss, x, create_graph=True)
    return outs, saved, names, g, tree(g.grad_fn)


@pytest.mark.parametrize(("call", "which"), [
    (c, w) for c in CALLS for w in (("all", 0, 1) if "_mean" in c else ("all",))])
def test_statistics_and_their_nodes_match_torch(torch, call, which):
    mine, theirs = run(mg, call, which), run(torch, call, which)
    assert all(close(m, t) for m, t in zip(mine[0], theirs[0]))
    assert mine[1:3] == theirs[1:3]
    assert close(mine[3], theirs[3]) and mine[4] == theirs[4]


@pytest.mark.parametrize("name", ["std_mean", "var_mean"])
def test_errors_and_warnings_name_the_function(torch, name):
    for L in (mg, torch):
        with pytest.raises(RuntimeError, match=f"^{name} only support floating point"):
            getattr(L, name)(L.tensor([1, 2]))
    found = []
    for L in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(L, name)(L.tensor([1.0]))
        found.append([str(w.message).split(" (Triggered")[0] for w in caught])
    assert found[0] == found[1] and found[0][0].startswith(f"{name}(): degrees of freedom")


def test_huge_values_are_accumulated_without_overflow(torch):
    a = np.array([3e38, -3e38, 1e38, 2e38], np.float32)
    for call in ("x.std()", "x.var(0)", "L.std_mean(x)[0]"):
        m, t = (eval(call, {"L": L, "x": L.tensor(a)}) for L in (mg, torch))  # noqa: S307
        assert np.array_equal(m.numpy(), t.numpy(), equal_nan=True), call


@pytest.mark.parametrize("call", ["x.topk(2)", "x.topk(2, 0)", "x.topk(2, -2)", "x.sort()",
                                  "x.sort(-1)", "x.sort(1)", "x.median(-1)", "x.median(0, True)",
                                  "s.sort()", "s.topk(1)", "s.sort(0)"])
def test_order_statistics_save_the_dim_as_given(torch, call):
    """sort/topk/median keep the dim as written (-1 as PyTorch shows it: unsigned)."""
    def saved(L):
        x, s = L.ones(3, 4, requires_grad=True), L.tensor(2.0, requires_grad=True)
        return eval(call, {"x": x, "s": s})[0].grad_fn._saved_dim  # noqa: S307 - our table

    assert saved(mg) == saved(torch)


@pytest.mark.parametrize("expr", [
    "lib.mode(lib.tensor([[1., 2., 2., 3., 3., 1.], [5., 4., 4., 5., 0., 7.]]))",
    "lib.tensor([[1., 2., 2.], [3., 3., 1.]]).mode(0, keepdim=True)",
    "lib.mode(lib.tensor([3, 1, 1, 3, 2]))", "lib.mode(lib.tensor([True, False, True]))",
    "lib.mode(lib.tensor([float('nan'), float('nan'), 1.]))",
    "lib.mode(lib.tensor([1., float('nan'), 1., float('nan'), 0.5]))",
    "lib.mode(lib.tensor(2.5, requires_grad=True))",
    "lib.mode(lib.tensor([2., 1., 2., 1.] * 4))",
    "lib.mode(lib.tensor([]))", "lib.mode(lib.ones(2, 3), 3)", "lib.mode(lib.ones(2, 0), 0)",
])
def test_mode_as_pytorch(torch, expr):
    """Ties (the smallest value, at its last position), NaN, integers, bools, 0-d, errors."""
    assert_same_outcome(torch, expr)


def test_mode_keeps_what_pytorch_keeps(torch):
    def kept(lib):
        x = lib.tensor([[1., 2., 2.], [3., 1., 1.]], requires_grad=True)
        values = lib.mode(x, -1).values
        node = values.grad_fn
        kept = (node.name(), node._saved_dim, node._saved_keepdim, node._saved_indices.tolist(),
                tuple(node._saved_self_sym_sizes))
        values.backward(lib.tensor([10., 20.]))
        return kept, x.grad.tolist()

    assert kept(mg) == kept(torch)


# over all elements with no degrees of freedom (n <= correction) PyTorch's var_backward is
# grad * where(x == x.mean(), nan, inf): no 2 / (n - correction), and constant in x (so under
# create_graph the gradient of a var of nothing does not require grad; fuzz seed 7513)
NO_DOF = [f"(lambda x: (lambda g: (g, g.requires_grad))(lib.autograd.grad({call}, x, "
          f"create_graph=True{extra})[0]))(lib.tensor({data}, requires_grad=True))"
          for call, data in (("x.var(correction=3)", "[1., 2.]"), ("x.var(correction=2)",
                                                                    "[1., 2.]"),
                             ("x.var()", "[1.]"), ("x.var(unbiased=False).sum()", "[]"),
                             ("x.std(correction=2)", "[1., 3.]"), ("x.var()", "2."),
                             ("lib.var_mean(x, correction=2)[0]", "[1., 2.]"),
                             ("x.var(0, correction=3)", "[1., 2.]"),
                             ("lib.var_mean(x, correction=4)[0] + x.var(0)", "[1., 2., 4.]"))
          for extra in ("", ", allow_unused=True, materialize_grads=True")]
NO_DOF += ["(lambda x: (lambda g: (g, g.grad_fn.name()))(lib.autograd.grad(x.var(correction=2),"
           " x, lib.tensor(2., requires_grad=True), create_graph=True)[0]))(lib.tensor([1., 2.],"
           " requires_grad=True))"]


@pytest.mark.parametrize("code", NO_DOF)
def test_gradient_without_degrees_of_freedom_as_pytorch(torch, code):
    assert_same_outcome(torch, code)
