"""nll_loss and cross_entropy under ``create_graph=True`` against PyTorch 2.13.

Their gradient is an op of its own in PyTorch (``nll_loss_backward``, recorded as
``NllLossBackwardBackward0``, or ``NllLoss2DBackwardBackward0`` for 4-D input): the gradient of
that gradient is ``nll_loss`` of the incoming gradient for ``grad_output`` and zeros for the
input. Compared: the graph under the gradient, its saved attributes, and both second-order
gradients.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import close, f32, tree

import minigrad as mg

pytestmark = pytest.mark.torch

TARGETS = {2: [1, 0, 3], 4: [[[0, 1], [3, 0]], [[2, 2], [1, 3]], [[0, 0], [1, 1]]],
           3: [[0, 1, 3], [2, 2, 1], [0, 0, 1]]}
SHAPES = {2: (3, 4), 4: (3, 4, 2, 2), 3: (3, 4, 3)}


def second_order(lib, loss, ndim, kwargs):
    x = lib.tensor(f32(*SHAPES[ndim]), requires_grad=True)
    if "weight" in kwargs:
        kwargs = {**kwargs, "weight": lib.tensor(kwargs["weight"])}
    y = getattr(lib.nn.functional, loss)(x, lib.tensor(TARGETS[ndim]), **kwargs)
    gy = lib.ones_like(y).requires_grad_()
    (g,) = lib.autograd.grad(y, x, gy, create_graph=True)
    v = lib.tensor(f32(*SHAPES[ndim], seed=1))
    gx, ggy = lib.autograd.grad(g, (x, gy), v, allow_unused=True)
    node = g.grad_fn
    while "BackwardBackward" not in node.name():  # (cross_entropy: under log_softmax's)
        node = node.next_functions[0][0]
    saved = {k: getattr(node, k) for k in ("_saved_reduction", "_saved_ignore_index")}
    return g, tree(g.grad_fn), saved, gx, ggy


@pytest.mark.parametrize("ndim", [2, 4, 3])
@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("kwargs", [{}, {"reduction": "sum"}, {"reduction": "none"},
                                    {"weight": [1.0, 2.0, 0.5, 3.0], "ignore_index": 1}])
def test_gradient_of_the_gradient_matches_torch(torch, loss, ndim, kwargs):
    mine, theirs = (second_order(lib, loss, ndim, kwargs) for lib in (mg, torch))
    assert close(mine[0], theirs[0])
    assert mine[1] == theirs[1]
    assert mine[2] == theirs[2]
    assert close(mine[3], theirs[3]) and close(mine[4], theirs[4])


def test_the_gradient_node_differs_from_a_plain_product(torch):
    """The graph comparison notices a gradient built from ordinary ops instead."""
    x = mg.tensor(f32(3, 4), requires_grad=True)
    t = torch.tensor(f32(3, 4), requires_grad=True)
    target = np.array([1, 0, 3])
    (g,) = mg.autograd.grad((x * 1).sum(), x, create_graph=True)
    y = torch.nn.functional.nll_loss(t, torch.tensor(target))
    (h,) = torch.autograd.grad(y, t, create_graph=True)
    assert tree(g.grad_fn) != tree(h.grad_fn)


def embedding_second_order(lib, kwargs):
    w = lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    idx = lib.tensor([[2, 0], [2, 2]])
    y = lib.nn.functional.embedding(idx, w, **kwargs)
    saved = {k: getattr(y.grad_fn, f"_saved_{k}") for k in ("padding_idx", "scale_grad_by_freq")}
    (g,) = lib.autograd.grad((y * y).sum(), w, create_graph=True)
    (gg,) = lib.autograd.grad(g.pow(2).sum(), w)
    gy = lib.ones(2, 2, 2, requires_grad=True)
    (g2,) = lib.autograd.grad(lib.nn.functional.embedding(idx, w, **kwargs), w, gy,
                              create_graph=True)
    (ggy,) = lib.autograd.grad(g2, gy, lib.tensor([[1.0, 1.0], [10.0, 10.0], [100.0, 100.0]]))
    return saved, g, g.grad_fn._saved_padding_idx, tree(g.grad_fn), gg, ggy


@pytest.mark.parametrize("kwargs", [{}, {"padding_idx": -1}, {"scale_grad_by_freq": True},
                                    {"scale_grad_by_freq": True, "padding_idx": 0}])
def test_embedding_gradient_is_an_op_as_in_torch(torch, kwargs):
    """embedding_dense_backward records EmbeddingDenseBackwardBackward0; scale_grad_by_freq
    divides each row's gradient by how often it was read (the second order does not)."""
    mine, theirs = (embedding_second_order(lib, kwargs) for lib in (mg, torch))
    assert mine[0] == theirs[0] and mine[2:4] == theirs[2:4]
    assert close(mine[1], theirs[1]) and close(mine[4], theirs[4]) and close(mine[5], theirs[5])


def embedding_of_no_rows(lib, shape, kwargs):
    """The weight gradient of an embedding read with an index of ``shape``, and what its
    own gradient gives (the shape, or the error)."""
    w = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    idx = lib.zeros(shape, dtype=lib.int64)
    gy = lib.ones(shape + (2,), requires_grad=True)
    (g,) = lib.autograd.grad(lib.nn.functional.embedding(idx, w, **kwargs), w, gy,
                             create_graph=True)
    try:
        (ggy,) = lib.autograd.grad(g, gy, lib.ones(2, 2))
        second = tuple(ggy.shape)
    except RuntimeError as error:
        second = str(error)
    return g, type(g.grad_fn).__name__, second


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 2)])
@pytest.mark.parametrize("kwargs", [{}, {"padding_idx": 0}, {"scale_grad_by_freq": True}])
def test_embedding_of_an_empty_index_as_in_torch(torch, shape, kwargs):
    """An empty index reads no rows: its weight gradient is zeros (it raised NumPy's
    'cannot reshape' ValueError); the second order meets reshape's error, as PyTorch's."""
    mine, theirs = (embedding_of_no_rows(lib, shape, kwargs) for lib in (mg, torch))
    assert mine[1:] == theirs[1:] and close(mine[0], theirs[0])


def conv_third_order(lib, kwargs):
    """The gradient of a convolution's weight gradient's input gradient: a third order, through
    ConvolutionBackwardBackward0's own backward (fuzz seed 5350: minigrad's gave zeros)."""
    x = lib.tensor(np.linspace(-2, 2, 2 * 4 * 5).reshape(1, 2, 4, 5), requires_grad=True)
    w = lib.tensor(np.linspace(-1, 1, 2 * 2 * 2 * 3 // kwargs.get("groups", 1))
                   .reshape(2, 2 // kwargs.get("groups", 1), 2, 3), requires_grad=True)
    out = lib.nn.functional.conv2d(x, w, lib.tensor([0.5, -0.5], dtype=lib.float64), **kwargs)
    (gw,) = lib.autograd.grad(out.square().sum(), w, create_graph=True)
    gx, gw2 = lib.autograd.grad((gw * gw).sum(), (x, w), create_graph=True)
    (gx.sum() + gw2.sum()).backward()
    return [t.detach() for t in (gw, gx, gw2, x.grad, w.grad)]


@pytest.mark.parametrize("kwargs", [{}, {"padding": 1}, {"stride": 2}, {"dilation": (1, 2)},
                                    {"groups": 2, "padding": (0, 1)}], ids=str)
def test_convolution_third_order_matches_torch(torch, kwargs):
    mine, theirs = conv_third_order(mg, kwargs), conv_third_order(torch, kwargs)
    assert all(close(a, b) for a, b in zip(mine, theirs))
