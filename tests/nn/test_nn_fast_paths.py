"""The fast paths of an MLP training step, against PyTorch 2.13.

``addmm`` (what ``nn.Linear`` runs) sums a row bias's gradient in its own formula and makes a
weight's gradient in the weight's layout; ``log_softmax``/``softmax`` take the row maximum of
many short rows from a transposed copy; ``nll_loss`` puts the incoming gradient only at the
target entries. Each must give PyTorch's values, gradients, strides and graphs.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_close, norm

import minigrad as mg

pytestmark = pytest.mark.torch


def _arrays(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


# ---------------------------------------------------------------- addmm / nn.Linear
def test_linear_weight_gradient_has_torch_strides(torch):
    x, w, b = _arrays((6, 4), (3, 4), (3,))
    grads = []
    for lib in (torch, mg):
        lw, lb = lib.tensor(w, requires_grad=True), lib.tensor(b, requires_grad=True)
        lx = lib.tensor(x, requires_grad=True)
        lib.nn.functional.linear(lx, lw, lb).pow(2).sum().backward()
        grads.append((lx.grad, lw.grad, lb.grad))
    for m, t in zip(grads[1], grads[0]):
        assert_close(m, t)
        assert m.stride() == t.stride() and m.is_contiguous()


@pytest.mark.parametrize("transposed", [False, True])
def test_mm_and_addmm_gradients_take_their_input_layout(torch, transposed):
    """A plain matrix gets a C gradient; a transposed leaf (w.t()) gets one PyTorch-strided."""
    a, m, bias = _arrays((5, 3), (4, 3) if transposed else (3, 4), (4,))
    results = []
    for lib in (torch, mg):
        la, lm = lib.tensor(a, requires_grad=True), lib.tensor(m, requires_grad=True)
        mat2 = lm.t() if transposed else lm
        lb = lib.tensor(bias, requires_grad=True)
        ((la @ mat2) * 2 + lib.addmm(lb, la, mat2)).pow(2).sum().backward()
        results.append((la.grad, lm.grad, lb.grad))
    for m_grad, t_grad in zip(results[1], results[0]):
        assert_close(m_grad, t_grad, rtol=1e-5, atol=1e-5)
        assert m_grad.stride() == t_grad.stride()


@pytest.mark.parametrize("bias_shape", [(4,), (1, 4), (5, 1), (), (5, 4)])
@pytest.mark.parametrize("scales", [(1, 1), (0.5, 2.0)])
def test_addmm_gradients_for_each_bias_shape_match_torch(torch, bias_shape, scales):
    beta, alpha = scales
    bias, m1, m2 = _arrays(bias_shape, (5, 3), (3, 4))
    weights = _arrays((5, 4), seed=1)[0]
    results = []
    for lib in (torch, mg):
        leaves = [lib.tensor(v, requires_grad=True) for v in (bias, m1, m2)]
        out = lib.addmm(*leaves, beta=beta, alpha=alpha)
        (out * lib.tensor(weights)).sum().backward()
        results.append((out, [t.grad for t in leaves]))
    (t_out, t_grads), (m_out, m_grads) = results
    assert_close(m_out, t_out, rtol=1e-5, atol=1e-5)
    for m, t in zip(m_grads, t_grads):
        assert_close(m, t, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("bias_shape", [(4,), (5, 1)])
def test_addmm_double_backward_matches_torch(torch, bias_shape):
    """Under create_graph the formula is recorded (the bias sum too) and differentiable."""
    bias, m1, m2 = _arrays(bias_shape, (5, 3), (3, 4))
    results = []
    for lib in (torch, mg):
        leaves = [lib.tensor(v, requires_grad=True) for v in (bias, m1, m2)]
        out = lib.addmm(*leaves)
        grads = lib.autograd.grad(out.pow(2).sum(), leaves, create_graph=True)
        total = sum((g * g).sum() for g in grads)
        results.append(lib.autograd.grad(total, leaves))
    for m, t in zip(results[1], results[0]):
        assert_close(m, t, rtol=1e-4, atol=1e-4)


def test_addmm_with_a_bias_that_needs_no_gradient_matches_torch(torch):
    bias, m1, m2 = _arrays((4,), (5, 3), (3, 4))
    results = []
    for lib in (torch, mg):
        b = lib.tensor(bias)
        x, w = lib.tensor(m1, requires_grad=True), lib.tensor(m2, requires_grad=True)
        out = lib.addmm(b, x, w)
        edges = [(f is None, nr) for f, nr in out.grad_fn.next_functions]
        out.sum().backward()
        results.append((edges, x.grad, w.grad, b.grad))
    (t_edges, *t_grads), (m_edges, *m_grads) = results
    assert m_edges == t_edges
    assert m_grads[2] is None and t_grads[2] is None
    for m, t in zip(m_grads[:2], t_grads[:2]):
        assert_close(m, t, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------- softmax / log_softmax
@pytest.mark.parametrize("shape", [(64, 10), (40, 32), (10, 64), (64, 33), (3, 32, 5)])
@pytest.mark.parametrize("fn", ["log_softmax", "softmax"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_softmax_of_many_short_rows_matches_torch(torch, shape, fn, layout):
    (a,) = _arrays(shape)
    a[0] += 80.0  # a row far from the others: the per-row shift must be per row
    a[1, 0] = -np.inf
    weights = _arrays(shape, seed=1)[0]
    mask = np.zeros(shape, bool)
    mask[1, 0] = True  # log_softmax is -inf there: left out of the sum
    results = []
    for lib in (torch, mg):
        if layout == "transposed":
            x = lib.tensor(np.ascontiguousarray(np.swapaxes(a, 0, -1)), requires_grad=True)
            leaf, x = x, x.transpose(0, -1)
        else:
            leaf = x = lib.tensor(a, requires_grad=True)
        out = getattr(x, fn)(1)
        (out.masked_fill(lib.tensor(mask), 0) * lib.tensor(weights)).sum().backward()
        results.append((out, leaf.grad))
    for m, t in zip(results[1], results[0]):
        assert_close(m, t, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------- nll_loss / cross_entropy
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 2, 2), (3,)])
@pytest.mark.parametrize("bad", [float("inf"), float("nan")])
def test_nll_loss_gradient_is_zero_off_target_even_for_inf_or_nan(torch, reduction, shape, bad):
    """PyTorch writes the incoming gradient only at each target entry; the rest stay 0."""
    (a,) = _arrays(shape)
    if len(shape) == 1:
        target = np.array(1)
    else:
        target = np.random.default_rng(2).integers(0, shape[1], (shape[0],) + shape[2:])
    grads = []
    for lib in (torch, mg):
        x = lib.tensor(a, requires_grad=True)
        loss = lib.nn.functional.nll_loss(x, lib.tensor(target), reduction=reduction)
        g = np.full(tuple(loss.shape), bad, np.float32)
        if g.ndim:
            g.reshape(-1)[1:] = np.arange(1, g.size)
        loss.backward(lib.tensor(g))
        grads.append(x.grad)
    assert_close(grads[1], grads[0])


def test_cross_entropy_training_step_matches_torch(torch):
    """The benchmark's step: Linear-ReLU-Linear, cross-entropy, SGD; three steps in a row."""
    x, w1, b1, w2, b2 = _arrays((64, 16), (32, 16), (32,), (10, 32), (10,))
    labels = np.random.default_rng(3).integers(0, 10, 64)
    results = []
    for lib in (torch, mg):
        model = lib.nn.Sequential(lib.nn.Linear(16, 32), lib.nn.ReLU(), lib.nn.Linear(32, 10))
        with lib.no_grad():
            for p, v in zip(model.parameters(), (w1, b1, w2, b2)):
                p.copy_(lib.tensor(v))
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = lib.nn.CrossEntropyLoss()(model(lib.tensor(x)), lib.tensor(labels))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        results.append((losses, [p.detach().clone() for p in model.parameters()],
                        [p.grad.stride() for p in model.parameters()]))
    (t_losses, t_params, t_strides), (m_losses, m_params, m_strides) = results
    np.testing.assert_allclose(m_losses, t_losses, rtol=1e-5)
    for m, t in zip(m_params, t_params):
        assert_close(m, t, rtol=1e-5, atol=1e-6)
    assert m_strides == t_strides


# ---------------------------------------------------------------- relu (threshold_backward)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize("finite", [True, False])
@pytest.mark.parametrize("shape", [(6, 5), (64, 128)])  # np.where below 4,096 elements, bits above
def test_relu_gradient_is_torch_bit_for_bit_at_inf_nan_and_signed_zero(torch, dtype, create_graph,
                                                                         layout, finite, shape):
    """threshold_backward gives +0 where the input was <= 0 (also for a negative, infinite or
    NaN incoming gradient) and the gradient's own bits elsewhere (where the input is NaN too)."""
    a, g = _arrays(shape, shape, seed=4)
    a.flat[:8] = [-1, -1, -1, -1, 0, np.nan, 2, 3]
    g.flat[:8] = [-2, -3, -4, -5, -0.0, -0.0, -0.0, -6]
    if not finite:
        g.flat[1:4], g.flat[7] = [np.inf, -np.inf, np.nan], np.nan
    results = []
    for lib in (torch, mg):
        x = lib.tensor(a.astype(dtype), requires_grad=True)
        if layout == "transposed":
            x = x.t()
        out = x.relu()
        grad = lib.tensor(g.astype(dtype))
        (gx,) = lib.autograd.grad(out, x, grad.t() if layout == "transposed" else grad,
                                  create_graph=create_graph)
        results.append(gx.detach().numpy())
    m, t = results
    assert m.dtype == t.dtype and m.shape == t.shape
    np.testing.assert_array_equal(np.ascontiguousarray(m).view(np.uint8),
                                  np.ascontiguousarray(t).view(np.uint8))


# ---------------------------------------------------------------- .grad kept without a copy
def test_linear_weight_gradient_is_the_formulas_own_array_not_a_copy(torch):
    """nn.Linear's weight gradient arrives as a view, ``(g.t() @ x).t()`` transposed back by
    TBackward0; nothing else reaches its memory, so the leaf keeps it (PyTorch steals it too).
    It must still have PyTorch's values and strides, and take in-place changes."""
    x, w, b = _arrays((6, 4), (3, 4), (3,))
    grads = []
    for lib in (torch, mg):
        lw, lb = lib.tensor(w, requires_grad=True), lib.tensor(b, requires_grad=True)
        lib.nn.functional.linear(lib.tensor(x), lw, lb).pow(2).sum().backward()
        if lib is mg:
            assert lw.grad._data.base is not None  # kept: a copy would own its memory
        with lib.no_grad():
            lw.grad.mul_(3)
        grads.append(lw.grad)
    assert_close(grads[1], grads[0])
    assert grads[1].stride() == grads[0].stride()


def test_a_gradient_whose_memory_the_caller_holds_is_kept_as_grad_as_in_torch(torch):
    """The gradient given to backward reaches the leaf as a view of the caller's tensor (made
    by TBackward0, held by no other tensor object): PyTorch keeps that view as .grad, so .grad
    shares the caller's memory, and so does minigrad (an in-place change reaches both)."""
    g = _arrays((3, 4), seed=5)[0]
    seen = []
    for lib in (torch, mg):
        w = lib.tensor(np.zeros((3, 4), np.float32), requires_grad=True)
        given = lib.tensor(g)
        w.t().backward(given.t())
        assert w.grad.stride() == (4, 1)
        with lib.no_grad():
            w.grad.add_(1)
        seen.append((w.grad.numpy().copy(), given.numpy().copy()))
    for a, b in zip(*seen):
        np.testing.assert_array_equal(a, b)


def test_views_of_one_gradient_kept_by_two_leaves_share_memory_as_in_torch(torch):
    """Two leaves get views of one gradient (``(w1.t() + w2.t()).t()``): both keep theirs, as
    PyTorch's do, so each post-accumulate hook's ``mul_(10)`` reaches both .grads."""
    a, c = _arrays((3, 4), (3, 4), seed=6)
    seen = []
    for lib in (torch, mg):
        w1, w2 = lib.tensor(a, requires_grad=True), lib.tensor(a + 1, requires_grad=True)

        def hook(p, lib=lib):
            with lib.no_grad():
                p.grad.mul_(10)
        w1.register_post_accumulate_grad_hook(hook)
        w2.register_post_accumulate_grad_hook(hook)
        ((w1.t() + w2.t()).t() * lib.tensor(c)).sum().backward()
        seen.append([w.grad.numpy().copy() for w in (w1, w2)])
    for a_mg, a_pt in zip(seen[1], seen[0]):
        np.testing.assert_allclose(a_mg, a_pt, rtol=1e-6)


@pytest.mark.parametrize("needs_grad", [(True, False, True), (False, True, False),
                                        (True, True, True), (False, False, True)])
@pytest.mark.parametrize("transposed", [False, True])
def test_addmm_saves_what_torch_saves_for_each_input_needing_grad(torch, needs_grad, transposed):
    """Sizes always; strides only of a matrix needing a gradient; each matrix only if the other
    needs a gradient (nn.Linear: ``x`` saved, ``weight.t()``'s strides, not the weight)."""
    bias, m1, m2 = _arrays((4,), (3, 5), (4, 5) if transposed else (5, 4))
    seen = []
    for lib in (torch, mg):
        b, x, w = (lib.tensor(v, requires_grad=r) for v, r in zip((bias, m1, m2), needs_grad))
        node = lib.addmm(b, x, w.t() if transposed else w).grad_fn
        seen.append([(name, tuple(getattr(node, "_saved_" + name)))
                     for name in ("mat1_sym_sizes", "mat1_sym_strides", "mat2_sym_sizes",
                                  "mat2_sym_strides")]
                    + [getattr(node, "_saved_" + name) is None for name in ("mat1", "mat2")])
    assert seen[1] == seen[0]


@pytest.mark.parametrize("input_needs_grad", [False, True])
def test_linear_node_frees_its_saved_matrices_after_backward_as_torch(torch, input_needs_grad):
    """AddmmBackward0 releases mat1/mat2 itself (looking only there): after backward both
    raise PyTorch's freed error, sizes and alpha stay, and a second backward is refused."""
    x, w, b = _arrays((2, 3), (4, 3), (4,))
    seen = []
    for lib in (torch, mg):
        lin = lib.nn.Linear(3, 4)
        with lib.no_grad():
            lin.weight.copy_(lib.tensor(w))
            lin.bias.copy_(lib.tensor(b))
        out = lin(lib.tensor(x, requires_grad=input_needs_grad))
        node = out.grad_fn
        out.sum().backward()
        row = [_outcome(getattr, node, "_saved_" + name) for name in ("mat1", "mat2")]
        row = [r if isinstance(r, tuple) else r is None for r in row]  # (a tensor is not freed)
        row += [tuple(node._saved_mat1_sym_sizes), node._saved_alpha,
                _outcome(out.sum().backward)]
        seen.append(row)
    assert seen[1] == seen[0]


def _outcome(fn, *args):
    """What ``fn(*args)`` returns, or the (type, message) of what it raises."""
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - either library's error is the result compared
        return type(e).__name__, norm(str(e))


# ---------------------------------------------------------------- nll_loss's one scatter
@pytest.mark.parametrize("shape", [(5,), (4, 3), (2, 3, 4), (2, 3, 2, 2)])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 1])
def test_nll_loss_gradient_is_one_scatter_with_ignored_rows_at_zero(torch, shape, reduction,
                                                                     weighted, ignore_index):
    """Every target entry gets -w * g (its own sample's g for 'none'); an ignored row gets 0,
    in the loss and in the gradient, even where the input or the incoming gradient is inf/NaN."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape).astype(np.float32)
    x.flat[0] = -np.inf
    classes = shape[1] if len(shape) > 1 else shape[0]
    t = rng.integers(0, classes, () if len(shape) == 1 else (shape[0],) + shape[2:])
    t.flat[0] = 1
    w = rng.random(classes).astype(np.float32)
    results = []
    for lib in (torch, mg):
        xt = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.nll_loss(xt, lib.tensor(t), weight=lib.tensor(w) if weighted
                                          else None, ignore_index=ignore_index,
                                          reduction=reduction)
        g = np.full(loss.shape, 2.0, np.float32)
        g.flat[0], g.flat[-1] = np.inf, np.nan
        loss.backward(lib.tensor(g))
        results.append((loss.detach().numpy(), xt.grad.numpy()))
    for m, t_ in zip(*results):
        assert m.shape == t_.shape
        np.testing.assert_allclose(m, t_, rtol=1e-6, equal_nan=True)
