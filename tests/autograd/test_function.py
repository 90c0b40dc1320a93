"""Custom ``autograd.Function``: the same classes run on both libraries and behave alike."""

from __future__ import annotations

import re

import pytest
from helpers import custom_functions, on_both

import minigrad as mg


def norm(s: str) -> str:
    return re.sub(r"0x[0-9a-f]+", "0x", s)  # (both print torch.: minigrad/_torch_names.py)


def both(torch, fn):
    return fn(mg, custom_functions(mg)), fn(torch, custom_functions(torch))


def test_node_name_repr_and_structure(torch):
    def run(L, F):
        a = L.ones(2, requires_grad=True)
        b = F["MulConstant"].apply(a, 5)
        b.sum().backward()
        node = b.grad_fn
        return (node.name(), norm(repr(node)), norm(repr(type(node))), type(node).__name__,
                norm(repr(b)), [(f is None, n) for f, n in node.next_functions],
                node.next_functions[0][0].variable is a, a.grad.tolist())

    m, t = both(torch, run)
    assert m == t
    assert m[1] == "<torch.autograd.function.MulConstantBackward object at 0x>"


def test_function_importable_from_the_function_module():
    from minigrad.autograd.function import Function, once_differentiable

    assert Function is mg.autograd.Function
    assert callable(once_differentiable)


@on_both
def test_save_for_backward_needs_input_grad_and_grad_mode(L):
    F = custom_functions(L)
    a = L.tensor([1., 2.], requires_grad=True)
    b = L.tensor([3., 4.])
    y = F["Needs"].apply(a, b, 2)
    node = y.grad_fn
    saved_is_a = node.saved_tensors[0] is a
    y.sum().backward()
    return node.seen, node.in_backward, node.needs_input_grad, saved_is_a, a.grad.tolist()


@on_both
def test_saved_output_comes_back_with_its_grad_fn(L):
    F = custom_functions(L)
    x = L.tensor([0., 1.], requires_grad=True)
    y = F["ExpSaveOutput"].apply(x)
    (saved,) = y.grad_fn.saved_tensors
    info = (saved is y, saved.grad_fn is y.grad_fn, saved.requires_grad)
    y.sum().backward()
    return info, [round(v, 5) for v in x.grad.tolist()]


def test_saved_tensors_are_freed_after_backward(torch):
    def run(L, F):
        x = L.tensor([1., 2.], requires_grad=True)
        y = F["Square"].apply(x)
        y.sum().backward()
        try:
            _ = y.grad_fn.saved_tensors
        except RuntimeError as e:
            return str(e)

    m, t = both(torch, run)
    assert m == t and m.startswith("Trying to backward through the graph a second time")


@on_both
def test_multiple_outputs_non_differentiable_and_materialized_grads(L):
    F = custom_functions(L)
    x = L.tensor([1., 2.], requires_grad=True)
    p, q, idx = F["SplitTwo"].apply(x)
    info = (p.grad_fn is q.grad_fn, p.output_nr, q.output_nr, idx.requires_grad,
            idx.grad_fn)
    p.sum().backward()
    return info, p.grad_fn.got, x.grad.tolist()


@on_both
def test_set_materialize_grads_false_passes_none(L):
    F = custom_functions(L)
    x = L.tensor([1., 2.], requires_grad=True)
    p, q = F["NoMaterialize"].apply(x)
    p.sum().backward()
    return p.grad_fn.got, x.grad.tolist()


@on_both
def test_a_returned_input_marked_non_differentiable_gets_no_grad_fn(L):
    class PassThrough(L.autograd.Function):  # PyTorch's BackwardHookFunction
        @staticmethod
        def forward(ctx, *args):
            ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
            return args

        @staticmethod
        def backward(ctx, *grads):
            return grads

    x = L.tensor([1., 2.], requires_grad=True)
    y, z = PassThrough.apply(x, L.ones(2))
    info = (y.grad_fn.name(), y.requires_grad, z.grad_fn, z.requires_grad, z.is_leaf,
            len(y.grad_fn.next_functions))
    (y * z).sum().backward()
    return info, x.grad.tolist()


@on_both
def test_forward_returning_its_input_gives_a_new_tensor(L):
    F = custom_functions(L)
    x = L.tensor([1., 2.], requires_grad=True)
    y = F["Identity"].apply(x)
    info = (y is x, y.is_leaf, x.is_leaf, y.grad_fn.name(), y._base is x)
    y.sum().backward()
    with L.no_grad():
        z = F["Identity"].apply(x)
    return info, x.grad.tolist(), z is x, z.requires_grad


@on_both
def test_mark_dirty_changes_the_input_in_place(L):
    F = custom_functions(L)
    x = L.tensor([1., 2.], requires_grad=True)
    h = x * 1
    y = F["DoubleInPlace"].apply(h)
    info = (y is h, h.grad_fn.name(), h._version, h.tolist())
    y.sum().backward()
    try:
        F["DoubleInPlace"].apply(x)
    except RuntimeError as e:
        return info, x.grad.tolist(), str(e)


@on_both
def test_once_differentiable_refuses_a_second_derivative(L):
    F = custom_functions(L)
    x = L.tensor(3., requires_grad=True)
    y = F["OnceSquare"].apply(x)
    (g,) = L.autograd.grad(y, x, L.tensor(1., requires_grad=True), create_graph=True)
    info = (g.item(), g.grad_fn.name(), type(g.grad_fn).__name__)
    try:
        g.backward()
    except RuntimeError as e:
        return info, str(e)


@on_both
def test_double_backward_through_a_custom_function(L):
    F = custom_functions(L)
    x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)
    y = F["Square"].apply(x * x)
    (g,) = L.autograd.grad(y.sum(), x, create_graph=True)
    (h,) = L.autograd.grad(g.sum(), x)
    return g.tolist(), h.tolist()


@on_both
def test_setup_context_style_and_keyword_arguments(L):
    F = custom_functions(L)
    x = L.tensor([1., 2.], requires_grad=True)
    y = F["WithSetupContext"].apply(x, k=3)
    y.sum().backward()
    return x.grad.tolist(), y.grad_fn.name()


@on_both
def test_apply_without_grad_records_nothing(L):
    F = custom_functions(L)
    y = F["MulConstant"].apply(L.ones(2), 3)
    with L.no_grad():
        z = F["MulConstant"].apply(L.ones(2, requires_grad=True), 3)
    return y.requires_grad, y.grad_fn, z.requires_grad, z.grad_fn


# ---------------------------------------------------------------- wrong backward results
def bad_function(L, forward, backward, n_inputs=1):
    class Bad(L.autograd.Function):
        pass

    Bad.forward = staticmethod(forward)
    Bad.backward = staticmethod(backward)
    return Bad


BAD = {
    "too_few": (lambda ctx, t, c: t * c, lambda ctx, g: g, lambda L, x: (x, 2)),
    "too_many": (lambda ctx, t: t * 2, lambda ctx, g: (g, g, None), lambda L, x: (x,)),
    "extra_nones_are_fine": (lambda ctx, t: t * 2, lambda ctx, g: (g, None, None),
                             lambda L, x: (x,)),
    "extra_tensor": (lambda ctx, t: t * 2, lambda ctx, g: (g, g), lambda L, x: (x,)),
    "wrong_shape": (lambda ctx, t: t * 2, lambda ctx, g: g.sum(), lambda L, x: (x,)),
    "broadcastable_shape": (lambda ctx, t: t * 2, lambda ctx, g: g.expand(4, 2),
                            lambda L, x: (x,)),
    "grad_for_a_number": (lambda ctx, t, c: t * c, lambda ctx, g: (g, g), lambda L, x: (x, 2)),
    "not_a_tensor": (lambda ctx, t: t * 2, lambda ctx, g: 3.0, lambda L, x: (x,)),
    "other_dtype": (lambda ctx, t: t * 2, lambda ctx, g: g.double(), lambda L, x: (x,)),
}


@pytest.mark.parametrize("case", list(BAD))
def test_wrong_gradients_from_backward_raise_pytorchs_errors(torch, case):
    forward, backward, args = BAD[case]

    def run(L):
        Bad = bad_function(L, forward, backward)
        x = L.tensor([1., 2.], requires_grad=True)
        try:
            Bad.apply(*args(L, x)).sum().backward()
        except Exception as e:  # noqa: BLE001 - compared with torch's
            return type(e).__name__, str(e).replace("torch.", "minigrad.")
        return x.grad.tolist(), str(x.grad.dtype).split(".")[-1]

    assert run(mg) == run(torch)


def test_save_for_backward_of_a_number_raises(torch):
    def run(L):
        class Bad(L.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                ctx.save_for_backward(t, 3)
                return t * 2

            @staticmethod
            def backward(ctx, g):
                return g

        try:
            Bad.apply(L.ones(2, requires_grad=True))
        except TypeError as e:
            return str(e)

    assert run(mg) == run(torch) is not None
