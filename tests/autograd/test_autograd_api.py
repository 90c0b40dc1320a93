"""``Tensor.backward``, ``autograd.backward`` and ``autograd.grad``: arguments and results
as in PyTorch."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import both, on_both

import minigrad as mg

pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")


def grads(*tensors):
    return [None if t.grad is None else t.grad.tolist() for t in tensors]


@on_both
def test_backward_with_explicit_gradient(L):
    x = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    (x * x).backward(L.tensor([[1., 0.5], [2., 0.]]))
    return grads(x)


def test_gradient_of_another_dtype_is_cast_to_the_outputs(torch):
    def run(L):
        x = L.tensor([1., 2.], requires_grad=True)
        (x * 3).backward(L.tensor([1., 2.], dtype=L.float64))
        return grads(x), str(x.grad.dtype).replace("torch.", "minigrad.")

    m, t = both(torch, run)
    assert m == t


@on_both
def test_retain_graph_allows_a_second_backward_that_accumulates(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    return grads(x)


@on_both
def test_backward_twice_through_nodes_that_save_nothing_works(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    return grads(x)


@on_both
def test_a_0d_leafs_grad_can_be_changed_in_place(L):
    """The .grad of a 0-d leaf (from sum's expand of the implicit 1) is a tensor of its own
    that zero_() and mul_() may change (a fuzz finding: minigrad kept a read-only view)."""
    x = L.tensor(-1.5, requires_grad=True)
    x.sum().backward(retain_graph=True)
    x.grad.zero_()
    (x * 3).sum().backward()
    x.grad.mul_(2)
    return x.grad.tolist()


@on_both
def test_backward_on_a_leaf_fills_its_own_grad(L):
    x = L.tensor(3., requires_grad=True)
    x.backward()
    x.backward(L.tensor(2.))
    return grads(x)


@on_both
def test_autograd_backward_with_several_outputs_and_gradients(L):
    x = L.tensor([1., 2.], requires_grad=True)
    w = L.tensor([3., 4.], requires_grad=True)
    a, b = x * w, (x * x).sum()
    L.autograd.backward([a, b], [L.tensor([1., -1.]), None], retain_graph=True)
    L.autograd.backward(a.sum() * b, grad_tensors=L.tensor(0.5), retain_graph=False)
    return grads(x, w)


def test_autograd_backward_of_no_tensors_does_nothing(torch):
    assert mg.autograd.backward([]) is None
    assert torch.autograd.backward([]) is None


@on_both
def test_backward_inputs_restricts_which_leaves_get_grads(L):
    x = L.tensor([1., 2.], requires_grad=True)
    w = L.tensor([3., 4.], requires_grad=True)
    (x * w).sum().backward(inputs=[w])
    (x * w).sum().backward(inputs=x)
    return grads(x, w)


@on_both
def test_backward_inputs_with_a_non_leaf_makes_it_retain_grad(L):
    x = L.tensor([1., 2.], requires_grad=True)
    h = x * 2
    out = (h * h).sum()
    out.backward(inputs=[h], retain_graph=True)
    first = (h.grad.tolist(), h.retains_grad, x.grad)
    out.backward()
    return first, h.grad.tolist(), grads(x)


@on_both
def test_grad_returns_gradients_and_leaves_grad_untouched(L):
    x = L.tensor([1., 2.], requires_grad=True)
    w = L.tensor([3., 4.], requires_grad=True)
    gx, gw = L.autograd.grad((x * w * x).sum(), [x, w])
    return gx.tolist(), gw.tolist(), gx.requires_grad, grads(x, w)


@on_both
def test_grad_with_grad_outputs_and_several_outputs(L):
    x = L.tensor([1., 2.], requires_grad=True)
    a, b = x * 3, x * x
    (g,) = L.autograd.grad([a, b], x, grad_outputs=[L.tensor([1., 0.]), L.ones(2)])
    return g.tolist()


@on_both
def test_grad_of_an_intermediate_and_of_the_output_itself(L):
    x = L.tensor([1., 2.], requires_grad=True)
    h = x * x
    y = (h * 3).sum()
    gh, gy = L.autograd.grad(y, [h, y], retain_graph=True)
    (gx,) = L.autograd.grad(y, x)
    return gh.tolist(), gy.tolist(), gx.tolist()


@on_both
def test_grad_of_a_leaf_with_respect_to_itself(L):
    x = L.tensor(2., requires_grad=True)
    return L.autograd.grad(x, x)[0].tolist(), x.grad


@on_both
def test_grad_with_allow_unused_and_materialize_grads(L):
    x = L.tensor([1., 2.], requires_grad=True)
    w = L.tensor([1., 2.], requires_grad=True)
    unused = L.autograd.grad((x * 2).sum(), [x, w], allow_unused=True)
    zeros = L.autograd.grad((x * 2).sum(), [x, w], materialize_grads=True)
    return unused[1], zeros[1].tolist(), zeros[1].requires_grad


@on_both
def test_grad_with_create_graph_is_differentiable(L):
    x = L.tensor([1., 2.], requires_grad=True)
    (g,) = L.autograd.grad((x ** 3).sum(), x, create_graph=True)
    (h,) = L.autograd.grad(g.sum(), x)
    return g.requires_grad, g.grad_fn.name(), h.tolist(), x.grad


@on_both
def test_grad_keeps_the_graph_only_when_asked(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    L.autograd.grad(y, x, retain_graph=True)
    L.autograd.grad(y, x)
    try:
        L.autograd.grad(y, x)
    except RuntimeError as e:
        return str(e)[:40]


def test_only_inputs_false_gives_pytorchs_deprecation_warning(torch):
    def run(L):
        x = L.tensor([1., 2.], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            L.autograd.grad(x.sum(), x, only_inputs=False)
        return [(w.category, str(w.message).replace("torch.", "minigrad.")) for w in caught]

    m, t = both(torch, run)
    assert m == t


def test_backward_with_create_graph_warns_once_like_pytorch(torch):
    mg._state.warned.discard("create_graph")
    x = mg.tensor(2., requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (x * x).backward(create_graph=True)
        (x * x).backward(create_graph=True)
    assert [str(w.message) for w in caught] == [mg.autograd.engine.CREATE_GRAPH_WARNING]
    assert caught[0].filename == __file__
    expected = ("Using backward() with create_graph=True will create a reference cycle between "
                "the parameter and its gradient which can cause a memory leak.")
    assert mg.autograd.engine.CREATE_GRAPH_WARNING.startswith(expected)
    code = ("import torch, warnings\nwarnings.simplefilter('always')\nx = torch.tensor(2., "
            "requires_grad=True)\n(x * x).backward(create_graph=True)\n")
    import subprocess
    import sys

    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stderr
    assert mg.autograd.engine.CREATE_GRAPH_WARNING in err


@on_both
def test_retain_grad_keeps_non_leaf_grads_and_accumulates(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.retain_grad()
    z = (y * y).sum()
    z.backward(retain_graph=True)
    z.backward()
    return y.retains_grad, y.grad.tolist(), grads(x), x.retains_grad


@on_both
def test_retained_grad_under_create_graph_is_a_recorded_clone(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 3
    y.retain_grad()
    (g,) = L.autograd.grad((y * y).sum(), x, create_graph=True)
    (y * y).sum().backward(create_graph=True)
    return type(y.grad.grad_fn).__name__, y.grad.tolist()


@on_both
def test_grads_of_integer_and_float64_leaves_keep_their_dtype(L):
    x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)
    y = L.tensor([1., 2.], requires_grad=True)
    (x * y).sum().backward()
    return str(x.grad.dtype).split(".")[-1], str(y.grad.dtype).split(".")[-1], grads(x, y)


@on_both
def test_broadcast_gradients_are_summed_back_to_each_input(L):
    a = L.tensor([[1.], [2.]], requires_grad=True)
    b = L.tensor([1., 2., 3.], dtype=L.float64, requires_grad=True)
    c = L.tensor(2., requires_grad=True)
    ((a * b + c) * a).sum().backward()
    return grads(a, b, c), str(b.grad.dtype).split(".")[-1]


@on_both
def test_the_same_tensor_twice_in_grad_inputs(L):
    x = L.tensor([1., 2.], requires_grad=True)
    a, b = L.autograd.grad((x * x).sum(), [x, x])
    return a.tolist(), b.tolist()


def test_sum_of_grads_from_many_paths_is_exact(torch):
    def run(L):
        x = L.tensor([0.1, 0.2], dtype=L.float64, requires_grad=True)
        y = x
        for _ in range(20):
            y = y * x + y
        y.sum().backward()
        return x.grad.numpy() if L is mg else x.grad.detach().numpy()

    np.testing.assert_allclose(*both(torch, run), rtol=1e-12)


@pytest.mark.torch
@pytest.mark.parametrize("create_graph", [False, True])
def test_materialized_zero_gradient_requires_grad_under_create_graph(torch, create_graph):
    def run(lib):
        x = lib.tensor([1., 2.], requires_grad=True)
        y = lib.tensor([3.], requires_grad=True)
        gx, gy = lib.autograd.grad((x * x).sum(), [x, y], create_graph=create_graph,
                                   materialize_grads=True)
        return repr(gx), repr(gy), gy.requires_grad, gy.is_leaf
    import minigrad
    assert run(minigrad) == run(torch)
