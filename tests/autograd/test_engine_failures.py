"""What the engine has done when a backward fails midway, and leaves it must leave alone;
against PyTorch.

PyTorch's engine stops at the first node that raises: the leaves it updated before keep their
``.grad``, the others are untouched. Which ones those are depends on its order, so the nodes
whose backward only raises (``NotImplemented``: floor division, a number ``%`` a tensor;
``Error``: a gradient of ``once_differentiable``) must take its sequence number, UINT64_MAX,
and run as soon as they are ready. A gradient that would flow into an integer tensor (given a
history by an in-place op) fails PyTorch's dtype assertion when it is sent. A leaf set to
``requires_grad_(False)`` after the graph was built keeps its ``.grad``.
"""

from __future__ import annotations

import pytest
from helpers import on_both

pytestmark = pytest.mark.torch


def grads(*tensors) -> list:
    return [None if t.grad is None else t.grad.tolist() for t in tensors]


def failure(fn) -> tuple | None:
    """The type and first line of what ``fn()`` raises (None if nothing)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - compared with PyTorch's
        return type(e).__name__, str(e).splitlines()[0]
    return None


# ---------------------------------------------------------------- nodes that only raise
@on_both
def test_a_not_implemented_node_runs_as_soon_as_it_is_ready(L):
    """floor_divide's node is older than the loss's; PyTorch still runs it first (and fails
    there), so the loss's leaf gets no gradient."""
    x = L.tensor([1.5, -1.7, -3.2], requires_grad=True)
    w = L.tensor([2.5], requires_grad=True)
    q = L.zeros(3) // x.pow(2)
    loss = L.nn.functional.binary_cross_entropy_with_logits(w, w.sigmoid())
    error = failure(lambda: (q.double().sum() + loss.double().sum()).backward())
    return error, grads(x, w)


@on_both
def test_an_in_place_floor_divide_and_a_number_modulo_a_tensor_too(L):
    x = L.tensor([[-2.2, -0.1, -2.4]], requires_grad=True)
    y = L.tensor([3.8, 4.2], requires_grad=True)
    a = x.cumsum(0)
    a.floor_divide_(x)
    b = 2 % x
    out = []
    for raising in (a, b):
        newer = (y * 3).sum()  # made after the raising node, summed after it
        out += [failure(lambda r=raising, n=newer: (r.sum() + n).backward()), grads(x, y)]
    return out


@on_both
def test_once_differentiables_error_node_runs_as_soon_as_it_is_ready(L):
    class Square(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @L.autograd.function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    x = L.tensor([1., 2.], requires_grad=True)
    w = L.tensor([3., 4.], requires_grad=True)
    go = L.ones(2, requires_grad=True)
    g, = L.autograd.grad(Square.apply(x), x, go, create_graph=True)
    newer = (w * 3).sum()  # made after the Error node, summed after it
    error = failure(lambda: (g.sum() + newer).backward())
    return g.grad_fn.name(), error, grads(x, w, go)


# ---------------------------------------------------------------- a leaf that stopped requiring grad
@on_both
def test_a_leaf_set_to_not_require_grad_keeps_its_grad(L):
    x = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    y = x.prod(1).sum()
    x.requires_grad_(False)
    y.backward(retain_graph=True)
    before = grads(x)
    x.requires_grad_(True)
    y.backward()
    return before, grads(x)


@on_both
def test_its_hooks_still_run_and_so_do_its_post_accumulate_hooks(L):
    log = []
    x = L.tensor([1., 2.], requires_grad=True)
    x.register_hook(lambda g: log.append(("tensor hook", g.tolist())))
    x.register_post_accumulate_grad_hook(lambda t: log.append(("accumulated", grads(t))))
    y = (x * 2).sum()
    acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
    acc.register_prehook(lambda go: log.append(("pre", len(go))))
    acc.register_hook(lambda gi, go: log.append(("post", len(gi), len(go))))
    x.requires_grad_(False)
    y.backward(retain_graph=True)
    acc(L.ones(2))  # a direct call: the update (none here) and the post-accumulate hooks
    x.requires_grad_(True)
    acc(L.ones(2))
    return log, grads(x)


@on_both
def test_a_leaf_detached_in_place_from_its_graph_is_left_alone(L):
    x = L.tensor([2., 3.], requires_grad=True)
    w = L.tensor([1., 1.], requires_grad=True)
    y = (x * w).sum()
    with L.no_grad():
        x.requires_grad_(False)
    y.backward()
    return grads(x, w)


# ---------------------------------------------------------------- gradients into integer tensors
def integer_with_history(L, fill: str = "fill_"):
    t = L.tensor(2., requires_grad=True)
    a = L.tensor([3, -4])
    if fill == "fill_":
        a.fill_(t)
    else:
        a[0:1] = t
    return t, a


@pytest.mark.parametrize("gradient", ["ones_like", "float", "bool", "autograd.grad"])
@pytest.mark.parametrize("fill", ["fill_", "setitem"])
def test_backward_from_an_integer_tensor_raises_pytorchs_error(torch, gradient, fill):
    import minigrad as mg

    def run(L):
        t, a = integer_with_history(L, fill)
        g = {"ones_like": L.ones_like(a), "float": L.ones(2),
             "bool": L.ones(2, dtype=L.bool), "autograd.grad": L.ones(2)}[gradient]
        if gradient == "autograd.grad":
            return failure(lambda: L.autograd.grad(a, t, g)), grads(t)
        return failure(lambda: a.backward(g)), grads(t)

    mine, theirs = run(mg), run(torch)
    assert mine == theirs and theirs[0] is not None


@pytest.mark.parametrize("op", ["a * 1.5", "a / 2", "a.sqrt()", "a.float()",
                                "a.copysign(L.tensor([1., -1.]))", "a.atan2(a)"])
def test_a_float_result_of_an_integer_tensor_fails_when_its_gradient_is_sent(torch, op):
    """The leaves updated before the failing node keep their gradient (PyTorch's order)."""
    import minigrad as mg

    def run(L):
        t, a = integer_with_history(L)
        w = L.tensor([1., 2.], requires_grad=True)
        r = eval(op, {"a": a, "L": L})  # noqa: S307 - the test's own expressions
        early, late = (w * 2).sum(), (w * 5).sum()
        return failure(lambda: (early + r.sum() + late).backward()), grads(t, w)

    mine, theirs = run(mg), run(torch)
    assert mine == theirs and theirs[0] is not None


def test_minigrad_says_what_to_do_after_pytorchs_line():
    import minigrad as mg

    _, a = integer_with_history(mg)
    with pytest.raises(RuntimeError) as info:
        a.backward(mg.ones(2))
    lines = str(info.value).splitlines()
    assert "INTERNAL ASSERT" in lines[0] and "torch.int64" in lines[1]
    assert len(lines) == 2


# ---------------------------------------------------------------- a leaf's data swapped by .data =
@pytest.mark.parametrize("new", [(3,), (0,), (4, 2, 3), (1, 3), (2, 1), (6,)])
@pytest.mark.parametrize("use", ["x.sum()", "(x * 3).sum()", "y.sum()", "fresh"])
def test_a_leafs_accumulate_grad_keeps_the_shape_it_was_made_for(torch, new, use):
    """While a graph holds the leaf's AccumulateGrad, a gradient of the leaf's new shape must
    fit the old one (PyTorch's invalid-gradient error, or summed to it); the first .grad is
    then laid out as the leaf now is (copy_'s broadcast and errors), unless it may be kept."""
    import minigrad as mg

    def run(L):
        x = L.ones(2, 3, requires_grad=True)
        y = x * 2
        if use == "fresh":
            del y
        x.data = L.ones(new)
        expr = "x.sum()" if use == "fresh" else use
        return failure(lambda: eval(expr, {"x": x, "y": y if use != "fresh" else None})  # noqa: S307
                       .backward()), None if x.grad is None else tuple(x.grad.shape)

    assert run(mg) == run(torch)


@on_both
def test_a_grad_made_in_inference_mode_is_added_to_then_refused(L):
    """AccumulateGrad adds in place into an existing .grad; an inference tensor refuses that
    outside inference mode, after the add (PyTorch's order); another leaf is updated as usual."""
    x = L.tensor([1., 2.], requires_grad=True)
    y = L.tensor([1., 2.], requires_grad=True)
    with L.inference_mode():
        x.grad = L.zeros(2)
    error = failure(lambda: (x * 2 + y).sum().backward())
    return error, grads(x, y)
