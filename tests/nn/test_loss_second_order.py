"""The losses' gradients under ``create_graph=True`` against PyTorch: the node of the
first-order gradient (``MseLossBackwardBackward0``, ``HuberLossBackwardBackward0``,
``SmoothL1LossBackwardBackward0``, ``BinaryCrossEntropyBackwardBackward0``, or PyTorch's ops
where it records ops), its ``next_functions`` two levels down, its saved values, and the
second-order gradients; and the first-order target gradient of ``binary_cross_entropy`` where
the input is 0 or 1 (``-logit``: infinite).

Not reproduced: PyTorch's ``LogitBackward0`` under the target's gradient of
``binary_cross_entropy`` (minigrad has no ``logit`` op: ``LogBackward0`` of a division there),
so that gradient's graph is compared one level down only.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

pytestmark = pytest.mark.torch

X = [[0.2, -1.5, 0.7], [2.5, 0.1, -0.3]]
T = [[0.1, 0.5, 0.9], [0.0, 1.0, 0.3]]

LOSSES = {
    "mse": "F.mse_loss(x, t, reduction=r)",
    "l1": "F.l1_loss(x, t, reduction=r)",
    "huber": "F.huber_loss(x, t, reduction=r)",
    "huber delta": "F.huber_loss(x, t, reduction=r, delta=0.5)",
    "smooth_l1": "F.smooth_l1_loss(x, t, reduction=r)",
    "smooth_l1 beta": "F.smooth_l1_loss(x, t, reduction=r, beta=0.5)",
    "smooth_l1 beta 0": "F.smooth_l1_loss(x, t, reduction=r, beta=0.0)",
    "bce": "F.binary_cross_entropy(x.sigmoid(), t, reduction=r)",
    "bce weight": "F.binary_cross_entropy(x.sigmoid(), t, weight=L.tensor([1., 2., 3.]), "
                  "reduction=r)",
    "bce_with_logits": "F.binary_cross_entropy_with_logits(x, t, reduction=r)",
    "bce_with_logits weights": "F.binary_cross_entropy_with_logits(x, t, reduction=r, "
                               "weight=L.tensor([1., 2., 3.]), pos_weight=L.tensor([1., 2., 3.]))",
    "nll": "F.nll_loss(x, L.tensor([2, 0]), reduction=r)",
    "cross_entropy": "F.cross_entropy(x, L.tensor([2, 0]), reduction=r)",
    "cross_entropy probabilities": "F.cross_entropy(x, t, reduction=r)",
}


def names(node, depth: int):
    if node is None:
        return None
    if depth == 0:
        return node.name()
    return node.name(), [names(n, depth - 1) for n, _ in node.next_functions]


def saved(node) -> dict:
    out = {}
    for attr in sorted(a for a in dir(node) if a.startswith("_saved_")):
        v = getattr(node, attr)
        out[attr] = tuple(v.shape) if hasattr(v, "shape") else v
    return out


def values(ts) -> list:
    return [None if t is None else np.array((t + 0).tolist()) for t in ts]


def run(L, code: str, reduction: str):
    F = L.nn.functional
    x = L.tensor(X, requires_grad=True)
    t = L.tensor(T, requires_grad=True)
    loss = eval(code, {"F": F, "L": L, "x": x, "t": t, "r": reduction})  # noqa: S307
    if reduction == "none":
        loss = (loss * L.arange(1., 1. + loss.numel()).reshape(loss.shape)).sum()
    gx, gt = L.autograd.grad(loss, (x, t), create_graph=True, allow_unused=True)
    deep = 1 if "binary_cross_entropy(x" in code else 2  # (no LogitBackward0: see above)
    graph = [names(gx.grad_fn, 2), saved(gx.grad_fn),
             None if gt is None else names(gt.grad_fn, deep)]
    second = L.autograd.grad((gx.sin() * 3).sum() + (0 if gt is None else gt.cos().sum()),
                             (x, t), allow_unused=True)
    return graph, values(second)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("loss", LOSSES)
def test_the_gradient_of_a_loss_is_recorded_as_in_pytorch(torch, loss, reduction):
    (graph, second), (graph_pt, second_pt) = (run(L, LOSSES[loss], reduction)
                                              for L in (mg, torch))
    assert graph == graph_pt
    for m, t in zip(second, second_pt):
        assert (m is None) == (t is None)
        if t is not None:
            np.testing.assert_allclose(m, t, rtol=1e-4, atol=1e-6)  # (float32; Log of a Div for Logit)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weight", [False, True])
def test_the_target_gradient_of_binary_cross_entropy_is_minus_logit(torch, reduction, weight):
    def grads(L):
        x = L.tensor([0., 1., 0.5, 1e-30, 0.25])
        t = L.tensor([0.3, 0.3, 0.5, 0.2, 0.9], requires_grad=True)
        w = L.tensor([1., 2., 3., 4., 5.]) if weight else None
        loss = L.nn.functional.binary_cross_entropy(x, t, weight=w, reduction=reduction)
        loss.backward(L.ones_like(loss))
        return [(v, np.signbit(v)) for v in t.grad.tolist()]

    assert grads(mg) == grads(torch)
