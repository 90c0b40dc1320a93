"""The losses (mse_loss, nll_loss, cross_entropy and their modules) against PyTorch 2.13."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import assert_same_outcome, both_raise, close, f32, find, ints, norm, pair, rng, tree
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
import minigrad.nn.functional as F

pytestmark = pytest.mark.torch


def warned(fn, *args, **kwargs):
    """``(fn(*args, **kwargs), the messages of the warnings it gave)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, [norm(str(w.message)) for w in caught]


def assert_like_torch(loss, tloss, *inputs):
    """The same value and graph as PyTorch's loss, and after backward() the same gradients for
    each (minigrad, torch) pair of ``inputs`` (a loss with reduction="none" is summed first)."""
    assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
    (loss.sum() if loss.dim() else loss).backward()
    (tloss.sum() if tloss.dim() else tloss).backward()
    for m, t in inputs:
        assert close(m.grad, t.grad)


# ---------------------------------------------------------------- mse_loss
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_values_gradients_and_node_match_torch(torch, reduction):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1), requires_grad=False)
    loss = F.mse_loss(x, y, reduction=reduction)
    tloss = torch.nn.functional.mse_loss(tx, ty, reduction=reduction)
    assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
    node, tnode = loss.grad_fn, tloss.grad_fn
    assert node._saved_reduction == tnode._saved_reduction
    assert node._saved_self is x and node._saved_target is y
    g = np.ones(tloss.shape, np.float32) * 0.5
    loss.backward(mg.tensor(g))
    tloss.backward(torch.tensor(g))
    assert close(x.grad, tx.grad)


def test_mse_loss_gives_the_target_a_gradient_when_it_needs_one(torch):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1))
    assert_like_torch(F.mse_loss(x, y), torch.nn.functional.mse_loss(tx, ty), (x, tx), (y, ty))


@pytest.mark.parametrize("xs,ys", [((4, 3), (3,)), ((4, 3), (4, 1)), ((3,), (4, 3)),
                                   ((4, 1), (1, 3))])
def test_mse_loss_broadcasts_with_torchs_warning(torch, xs, ys):
    x, tx = pair(torch, f32(*xs))
    y, ty = pair(torch, f32(*ys, seed=1), requires_grad=False)
    loss, mine = warned(F.mse_loss, x, y)
    tloss, theirs = warned(torch.nn.functional.mse_loss, tx, ty)
    assert theirs == mine
    assert_like_torch(loss, tloss, (x, tx))


def test_mse_loss_promotes_dtypes_and_returns_float32_grads(torch):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1).astype(np.float64), requires_grad=False)
    assert_like_torch(F.mse_loss(x, y), torch.nn.functional.mse_loss(tx, ty), (x, tx))


def test_mse_loss_legacy_arguments_and_bad_reduction_match_torch(torch):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1), requires_grad=False)
    for kwargs in ({"size_average": False}, {"reduce": False},
                   {"size_average": True, "reduce": True}):
        loss, mine = warned(F.mse_loss, x, y, **kwargs)
        tloss, theirs = warned(torch.nn.functional.mse_loss, tx, ty, **kwargs)
        assert mine == theirs
        assert close(loss, tloss)
    both_raise(torch, lambda lib: lib.nn.functional.mse_loss(
        lib.zeros(2), lib.zeros(2), reduction="foo"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both_raise(torch, lambda lib: lib.nn.functional.mse_loss(lib.zeros(4, 3),
                                                                 lib.zeros(4)))


def test_mse_loss_module_matches_torch(torch):
    x, tx = pair(torch, f32(6))
    y, ty = pair(torch, f32(6, seed=1), requires_grad=False)
    for reduction in ("mean", "sum", "none"):
        m, t = mg.nn.MSELoss(reduction=reduction), torch.nn.MSELoss(reduction=reduction)
        assert repr(m) == repr(t) and m.reduction == t.reduction
        assert close(m(x, y), t(tx, ty))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_supports_double_backward(torch, reduction):
    x, tx = pair(torch, f32(4, 3))
    y, ty = pair(torch, f32(4, 3, seed=1))
    for lib, a, b in ((mg, x, y), (torch, tx, ty)):
        loss = lib.nn.functional.mse_loss(a, b, reduction=reduction)
        (g,) = lib.autograd.grad(loss.sum(), a, create_graph=True)
        (g * g * b).sum().backward()
    assert close(x.grad, tx.grad) and close(y.grad, ty.grad)


# ---------------------------------------------------------------- nll_loss / cross_entropy
CE_CASES = [
    ("mean", {}), ("sum", {}), ("none", {}),
    ("mean", {"ignore_index": 2}), ("none", {"ignore_index": 0}),
    ("mean", {"weight": [1.0, 2.0, 0.5]}), ("sum", {"weight": [1.0, 2.0, 0.5]}),
    ("none", {"weight": [1.0, 2.0, 0.5]}),
    ("mean", {"weight": [1.0, 2.0, 0.5], "ignore_index": 1}),
]


def _kwargs(lib, kwargs):
    out = dict(kwargs)
    if "weight" in out:
        out["weight"] = lib.tensor(out["weight"])
    return out


@pytest.mark.parametrize("reduction,kwargs", CE_CASES)
def test_cross_entropy_matches_torch(torch, reduction, kwargs):
    x, tx = pair(torch, f32(5, 3) * 2)
    t, tt = pair(torch, np.array([0, 2, 1, 1, 0]), requires_grad=False)
    loss = F.cross_entropy(x, t, reduction=reduction, **_kwargs(mg, kwargs))
    tloss = torch.nn.functional.cross_entropy(tx, tt, reduction=reduction,
                                              **_kwargs(torch, kwargs))
    assert close(loss, tloss) and tree(loss.grad_fn) == tree(tloss.grad_fn)
    node, tnode = loss.grad_fn, tloss.grad_fn
    for attr in ("_saved_ignore_index", "_saved_reduction"):
        assert getattr(node, attr) == getattr(tnode, attr)
    assert close(node._saved_total_weight, tnode._saved_total_weight)
    assert close(node._saved_weight, tnode._saved_weight)
    assert node._saved_target is t and node._saved_self.grad_fn is node.next_functions[0][0]
    g = np.full(tloss.shape, 0.7, np.float32)
    loss.backward(mg.tensor(g))
    tloss.backward(torch.tensor(g))
    assert close(x.grad, tx.grad)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_on_one_sample_and_on_extra_dimensions_matches_torch(torch, reduction):
    cases = [((3,), np.array(1)), ((2, 3, 4), np.array([[0, 1, 2, 1], [2, 2, 0, 1]])),
             ((2, 3, 2, 2), np.zeros((2, 2, 2), np.int64))]
    for shape, target in cases:
        x, tx = pair(torch, f32(*shape))
        t, tt = pair(torch, target, requires_grad=False)
        assert_like_torch(F.nll_loss(x, t, reduction=reduction),
                          torch.nn.functional.nll_loss(tx, tt, reduction=reduction), (x, tx))
        ce = F.cross_entropy(x, t, reduction=reduction)
        tce = torch.nn.functional.cross_entropy(tx, tt, reduction=reduction)
        assert close(ce, tce) and tree(ce.grad_fn) == tree(tce.grad_fn)
        assert find(ce.grad_fn, "LogSoftmaxBackward0")._saved_dim == \
            find(tce.grad_fn, "LogSoftmaxBackward0")._saved_dim


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_with_class_probabilities_matches_torch(torch, reduction):
    for shape, dim in (((4, 3), 1), ((3,), 0), ((2, 3, 5), 1)):
        x, tx = pair(torch, f32(*shape))
        p = np.exp(f32(*shape, seed=1))
        p /= p.sum(axis=dim, keepdims=True)
        t, tt = pair(torch, p, requires_grad=False)
        assert_like_torch(F.cross_entropy(x, t, reduction=reduction),
                          torch.nn.functional.cross_entropy(tx, tt, reduction=reduction), (x, tx))


@pytest.mark.parametrize("build", [
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0, 5, 1, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0, -1, 1, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0., 2, 1, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0, 2, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), ints(lib, 4, 2)),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3), lib.tensor([0, 1, 2, 1]),
                                                reduction="foo"),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(4, 3),
                                                lib.tensor([0, 1, 2, 1], dtype=lib.int32)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(4, 3), ints(lib)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(3), ints(lib, 2)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(()), ints(lib)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(4, 3), ints(lib, 4),
                                           weight=lib.ones(2)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(4, 3, dtype=lib.float64),
                                           ints(lib, 4), weight=lib.ones(3)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(4, 3), ints(lib, 4),
                                           weight=lib.ones(3, requires_grad=True)),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(2, 3, 4), ints(lib, 2, 5)),
    lambda lib: lib.nn.functional.cross_entropy([1.0], [1]),
    lambda lib: lib.nn.functional.mse_loss(lib.zeros(3, dtype=lib.int64),
                                           lib.zeros(3, dtype=lib.int64)),
    lambda lib: lib.nn.functional.mse_loss(lib.zeros(3, dtype=lib.int32),
                                           lib.zeros(3, dtype=lib.int64)),
    lambda lib: lib.nn.functional.mse_loss(lib.zeros(3, dtype=lib.bool),
                                           lib.zeros(3, dtype=lib.bool)),
    lambda lib: lib.nn.functional.mse_loss([1.0], [1.0]),
], ids=lambda f: "")
def test_bad_loss_arguments_raise_like_torch(torch, build):
    both_raise(torch, build)


def test_nll_loss_accepts_uint8_targets(torch):
    x, tx = pair(torch, f32(4, 3))
    t = np.array([0, 2, 1, 1], np.uint8)
    assert close(F.nll_loss(x, mg.tensor(t)), torch.nn.functional.nll_loss(tx, torch.tensor(t)))


def test_loss_modules_match_torch(torch):
    x, tx = pair(torch, f32(5, 3))
    t, tt = pair(torch, np.array([0, 2, 1, 1, 0]), requires_grad=False)
    w = np.array([1.0, 2.0, 0.5], np.float32)
    for make in (lambda nn, lib: nn.CrossEntropyLoss(),
                 lambda nn, lib: nn.CrossEntropyLoss(reduction="sum", ignore_index=1),
                 lambda nn, lib: nn.CrossEntropyLoss(weight=lib.tensor(w)),
                 lambda nn, lib: nn.NLLLoss(weight=lib.tensor(w), reduction="none")):
        m, tm = make(mg.nn, mg), make(torch.nn, torch)
        assert repr(m) == repr(tm) and list(m.state_dict()) == list(tm.state_dict())
        assert close(m(x, t), tm(tx, tt))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weight", [None, [1.0, 2.0, 3.0]])
@pytest.mark.parametrize("shape,target", [((4, 3), [0, 2, 1, 1]), ((3,), 1),
                                          ((2, 3, 2), [[0, 2], [1, 1]])])
def test_cross_entropy_supports_double_backward(torch, reduction, weight, shape, target):
    x, tx = pair(torch, f32(*shape))
    for lib, a in ((mg, x), (torch, tx)):
        kwargs = {} if weight is None else {"weight": lib.tensor(weight)}
        loss = lib.nn.functional.cross_entropy(a, lib.tensor(target), reduction=reduction,
                                               **kwargs)
        (g,) = lib.autograd.grad(loss.sum(), a, create_graph=True)
        (g * g).sum().backward()
    assert close(x.grad, tx.grad)


def test_saved_values_after_backward_behave_like_torch(torch):
    def saved(lib, name, attr):
        x = lib.zeros(2, 3, requires_grad=True)
        loss = (lib.nn.functional.cross_entropy(x, lib.tensor([0, 1])) if name == "ce" else
                lib.nn.functional.mse_loss(x, lib.ones(2, 3)))
        loss.backward()
        return getattr(loss.grad_fn, attr)

    for name, attr in (("ce", "_saved_total_weight"), ("ce", "_saved_target"),
                       ("ce", "_saved_self"), ("mse", "_saved_self"),
                       ("mse", "_saved_target")):
        both_raise(torch, lambda lib, name=name, attr=attr: saved(lib, name, attr))
    for name, attr in (("ce", "_saved_weight"), ("ce", "_saved_reduction"),
                       ("ce", "_saved_ignore_index"), ("mse", "_saved_reduction")):
        assert saved(mg, name, attr) == saved(torch, name, attr)


def test_nll_loss_backward_twice_raises_like_torch(torch):
    def twice(lib):
        x = lib.zeros(2, 3, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(x, lib.tensor([0, 1]))
        loss.backward()
        loss.backward()

    both_raise(torch, twice)


@given(n=st.integers(1, 9), c=st.integers(1, 6), seed=st.integers(0, 2**16),
       reduction=st.sampled_from(["mean", "sum", "none"]))
def test_cross_entropy_matches_torch_on_random_shapes(torch, n, c, seed, reduction):
    x, tx = pair(torch, f32(n, c, seed=seed) * 4)
    target = rng(seed).integers(0, c, n)
    t, tt = pair(torch, target, requires_grad=False)
    loss = F.cross_entropy(x, t, reduction=reduction)
    tloss = torch.nn.functional.cross_entropy(tx, tt, reduction=reduction)
    assert close(loss, tloss)
    loss.sum().backward()
    tloss.sum().backward()
    assert close(x.grad, tx.grad)


@pytest.mark.parametrize("n", [3, 5, 7, 64])
def test_nll_loss_mean_gradient_has_torchs_bits_under_any_incoming_gradient(torch, n):
    """PyTorch's kernel computes ``-(grad / total_weight)``: with a gradient other than 1
    coming in (a scaled loss), ``-(1 / total) * grad`` differed in the last bit."""
    scores, target = f32(n, 4, seed=n), rng(n).integers(0, 4, n)
    for scale in (0.7, 0.3, 3.3, 1.1):
        grads = []
        for lib in (mg, torch):
            x = lib.tensor(scores, requires_grad=True)
            (lib.nn.functional.nll_loss(x, lib.tensor(target)) * scale).backward()
            grads.append(x.grad.numpy())
        np.testing.assert_array_equal(*grads)


def test_changing_saved_inputs_in_place_before_backward_raises_like_torch(torch):
    def changed(lib, what):
        x = lib.zeros(2, 3, requires_grad=True)
        t = lib.tensor([0, 1])
        y = lib.ones(2, 3)
        if what == "target":
            loss = lib.nn.functional.cross_entropy(x, t)
            t.add_(1)
        else:
            loss = lib.nn.functional.mse_loss(x, y)
            y.mul_(2)
        loss.backward()

    for what in ("target", "mse target"):
        both_raise(torch, lambda lib, what=what: changed(lib, what))


# ---------------------------------------------------------------- label smoothing
SMOOTHING_TARGETS = [
    ((4, 3), [0, 2, 1, -100]),
    ((3,), 1),
    ((2, 3, 4), [[0, 1, 2, -100], [2, 2, 0, 1]]),
    ((4, 3), "probabilities"),
    ((2, 3, 4), "probabilities"),
]


@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weight", [None, [1.0, 2.0, 3.0]])
@pytest.mark.parametrize("shape,target", SMOOTHING_TARGETS)
def test_cross_entropy_with_label_smoothing_and_weights_matches_torch(
        torch, smoothing, reduction, weight, shape, target):
    x, tx = pair(torch, f32(*shape))
    if target == "probabilities":
        p = np.exp(f32(*shape, seed=1))
        target = p / p.sum(axis=1, keepdims=True)
    results = []
    for lib, a in ((mg, x), (torch, tx)):
        kwargs = {} if weight is None else {"weight": lib.tensor(weight)}
        loss = lib.nn.functional.cross_entropy(a, lib.tensor(target), reduction=reduction,
                                               label_smoothing=smoothing, **kwargs)
        loss.sum().backward()
        results.append((loss, tree(loss.grad_fn)))
    (loss, graph), (tloss, tgraph) = results
    assert close(loss, tloss) and graph == tgraph and close(x.grad, tx.grad)


def test_label_smoothing_bounds_behave_like_torch(torch):
    both_raise(torch, lambda lib: lib.nn.functional.cross_entropy(
        lib.zeros(2, 3), lib.tensor([0, 1]), label_smoothing=1.5))
    for lib in (mg, torch):  # a negative value means no smoothing
        loss = lib.nn.functional.cross_entropy(lib.zeros(2, 3, requires_grad=True),
                                               lib.tensor([0, 1]), label_smoothing=-0.5)
        assert type(loss.grad_fn).__name__ == "NllLossBackward0"
    m, t = mg.nn.CrossEntropyLoss(label_smoothing=0.1), torch.nn.CrossEntropyLoss(
        label_smoothing=0.1)
    x, tx = pair(torch, f32(3, 4))
    assert repr(m) == repr(t) and close(m(x, mg.tensor([0, 1, 3])), t(tx, torch.tensor([0, 1, 3])))


def test_label_smoothing_averages_over_an_int64_count_like_torch(torch):
    counts = []
    for lib in (mg, torch):
        x = lib.zeros(3, 4, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(x, lib.tensor([0, -100, 3]), label_smoothing=0.1)
        counts.append(repr(loss.grad_fn.next_functions[1][0].next_functions[0][0]._saved_other))
    assert counts[0] == counts[1] == "tensor(2)"


@pytest.mark.parametrize("code", [
    # 4-D scores go to PyTorch's nll_loss2d: its own checks and messages (found by the fuzzer)
    "F.cross_entropy(lib.ones(1, 3, 3, 1), lib.zeros(1, 2, 5, dtype=lib.int64))",
    "F.cross_entropy(lib.ones(2, 4, 2, 3), lib.zeros(2, 4, 2, dtype=lib.int64))",
    "F.nll_loss(lib.ones(2, 3, 3, 4), lib.zeros(2, 3, dtype=lib.int64))",
    "F.nll_loss(lib.ones(2, 3, 3, 4), lib.zeros(2, 3, 5, dtype=lib.int64))",
    "F.nll_loss(lib.ones(2, 3, 3, 4), lib.zeros(2, 3, 4, 1, dtype=lib.int64))",
    "F.nll_loss(lib.ones(2, 3, 4, 5, 6), lib.zeros(2, 1, 1, dtype=lib.int64))",
    "F.nll_loss(lib.ones(1, 3, 3), lib.zeros(1, 3, 3, 3, dtype=lib.int64))",
    "lib.nn.CrossEntropyLoss()(lib.ones(2, 4, 2, 3), lib.zeros(2, 2, 4, dtype=lib.int64))",
])
def test_four_d_scores_meet_pytorchs_nll_loss2d_checks(torch, code):
    assert_same_outcome(torch, code)
