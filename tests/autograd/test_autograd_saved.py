"""Saved tensors: PyTorch's ``_saved_*`` names and values, identity of saved leaves, freeing
after backward, and the version-counter check for tensors changed in place."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import minigrad as mg

OPS = {
    "mul_tensors": lambda L, x, c: x * c,
    "mul_constant_first": lambda L, x, c: c * x,
    "mul_number": lambda L, x, c: x * 2,
    "square_by_mul": lambda L, x, c: x * x,
    "div": lambda L, x, c: x / c,
    "rdiv_tensor": lambda L, x, c: c / x,
    "div_number": lambda L, x, c: x / 2,
    "pow_number": lambda L, x, c: x ** 2,
    "pow_tensor_exponent": lambda L, x, c: c ** x,
    "exp": lambda L, x, c: x.exp(),
    "add": lambda L, x, c: x + c,
    "sub_number": lambda L, x, c: x - 2,
    "rsub": lambda L, x, c: 2 - x,
    "sum": lambda L, x, c: x.sum(),
    "sum_dim": lambda L, x, c: x.sum(0),
    "mean": lambda L, x, c: x.mean(),
    "neg": lambda L, x, c: -x,
    "reciprocal": lambda L, x, c: x.reciprocal(),
    "tanh": lambda L, x, c: x.tanh(),
    "sigmoid": lambda L, x, c: x.sigmoid(),
}


def saved(node) -> dict:
    return {n: getattr(node, n) for n in sorted(dir(node)) if n.startswith("_saved_")}


def describe(value, x, c, out, lib):
    """A value as a comparable description: which tensor it is, or its contents."""
    if isinstance(value, lib.Tensor):
        if value is x:
            return "the leaf x itself"
        if value is c:
            return "the constant c itself"
        return ("tensor", np.round(value.detach().numpy(), 5).tolist(),
                str(value.dtype).split(".")[-1], value.requires_grad,
                None if value.grad_fn is None else value.grad_fn.name(),
                value.grad_fn is out.grad_fn)
    return value


@pytest.mark.parametrize("name", list(OPS))
def test_saved_attributes_have_pytorchs_names_and_values(torch, name):
    def run(L):
        x = L.tensor([1.5, 2.5], requires_grad=True)
        c = L.tensor([3., 4.])
        out = OPS[name](L, x, c)
        return {k: describe(v, x, c, out, L) for k, v in saved(out.grad_fn).items()}

    assert run(mg) == run(torch)


def test_saved_non_leaf_input_is_that_tensor_and_saved_output_is_rebuilt(torch):
    def run(L):
        x = L.tensor([1., 2.], requires_grad=True)
        y = x * 2
        z = y * y
        e = y.exp()
        return (z.grad_fn._saved_self is y, z.grad_fn._saved_other is y,
                e.grad_fn._saved_result is e, e.grad_fn._saved_result.grad_fn is e.grad_fn)

    assert run(mg) == run(torch)


@pytest.mark.parametrize("name", ["mul_tensors", "square_by_mul", "div", "pow_number", "exp",
                                  "pow_tensor_exponent", "tanh"])
def test_saved_tensors_cannot_be_read_after_backward(torch, name):
    def run(L):
        x = L.tensor([1.5, 2.5], requires_grad=True)
        c = L.tensor([3., 4.])
        out = OPS[name](L, x, c)
        out.sum().backward()
        result = {}
        for attr in [n for n in dir(out.grad_fn) if n.startswith("_saved_")]:
            try:
                getattr(out.grad_fn, attr)
                result[attr] = "readable"
            except RuntimeError as e:
                result[attr] = str(e)
        return result

    assert run(mg) == run(torch)


@pytest.mark.parametrize("fill", ["2.", "L.tensor(2., requires_grad=True)"])
def test_a_second_backward_through_index_fill_raises_though_its_formula_needs_no_index(
        torch, fill):
    """IndexFillBackward0/1 unpack their saved index first, as PyTorch's formulas do (a fuzz
    finding: minigrad's ran again from its own copy of the positions)."""
    def run(L):
        x = L.ones(3, requires_grad=True)
        y = x.index_fill(0, L.tensor([0]), eval(fill, {"L": L}))  # (no other saved values)
        y.sum().backward()
        try:
            y.sum().backward()
        except RuntimeError as e:
            return str(e)
        return x.grad.tolist()

    assert run(mg) == run(torch)


def test_retain_graph_keeps_saved_tensors_readable(torch):
    def run(L):
        x = L.tensor([1., 2.], requires_grad=True)
        y = x * x
        y.sum().backward(retain_graph=True)
        return y.grad_fn._saved_self is x

    assert run(mg) is run(torch) is True


def test_saved_intermediate_array_is_collectable_after_backward():
    x = mg.tensor(np.arange(4.0), requires_grad=True)
    h = (x * 3).exp()
    out = (h * h).sum()
    refs = [weakref.ref(h._data)]
    del h
    gc.collect()
    assert refs[0]() is not None
    out.backward()
    gc.collect()
    assert refs[0]() is None


def test_custom_function_saved_arrays_are_collectable_after_backward():
    class Square(mg.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            out = t * t
            ctx.save_for_backward(t, out)
            return out

        @staticmethod
        def backward(ctx, g):
            t, _ = ctx.saved_tensors
            return 2 * t * g

    x = mg.tensor([1., 2.], requires_grad=True)
    h = x * 1
    y = Square.apply(h)
    refs = [weakref.ref(h._data), weakref.ref(y._data)]
    loss = y.sum()
    del h, y
    gc.collect()
    assert all(r() is not None for r in refs)
    loss.backward()
    gc.collect()
    assert all(r() is None for r in refs)
    assert x.grad.tolist() == [2., 4.]


def test_modified_saved_tensor_message_names_the_version_and_the_node(torch):
    def run(L):
        x = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = x * 1
        z = (y * y).sum()
        y.mul_(2)
        y.add_(1)
        try:
            z.backward()
        except RuntimeError as e:
            return str(e).replace("torch.", "minigrad.")

    assert run(mg) == run(torch)
    assert "is at version 2; expected version 0 instead" in run(mg)


def test_unchanged_version_after_retain_graph_and_out_of_place_ops(torch):
    def run(L):
        x = L.tensor([1., 2.], requires_grad=True)
        y = x * 1
        z = (y * y).sum()
        y2 = y + 1  # not in place: no version change
        z.backward()
        return y._version, y2._version, x.grad.tolist()

    assert run(mg) == run(torch)


def test_inference_tensors_cannot_be_saved_for_backward(torch):
    def run(L):
        x = L.tensor([1., 2.], requires_grad=True)
        with L.inference_mode():
            w = x * 2
        try:
            x * w
        except RuntimeError as e:
            return w.is_inference(), str(e).replace("torch.", "minigrad.")

    assert run(mg) == run(torch)


@pytest.mark.parametrize("name", list(OPS))
def test_dir_of_a_node_lists_what_pytorch_lists(torch, name):
    def run(L):
        x = L.tensor([1.5, 2.5], requires_grad=True)
        out = OPS[name](L, x, L.tensor([3., 4.]))
        return dir(out.grad_fn), dir(out.grad_fn.next_functions[0][0])

    assert run(mg) == run(torch)


def test_raw_saved_values_are_the_saved_tensor_objects():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * x
    raw = y.grad_fn._raw_saved_self
    assert type(raw).__name__ == "SavedTensor"
    assert raw.unpack() is x
    with pytest.raises(AttributeError):
        _ = (x + 1).grad_fn._raw_saved_alpha


@pytest.mark.parametrize("name", list(OPS))
def test_saved_values_are_read_through_the_node_class_as_in_pytorch(torch, name):
    """PyTorch's node classes carry one descriptor per saved value and no ``__getattr__``
    (minigrad's properties: a ``__getattr__`` would slow every read of a node's attributes)."""
    def run(L):
        x = L.tensor([1.5, 2.5], requires_grad=True)
        cls = type(OPS[name](L, x, L.tensor([3., 4.])).grad_fn)
        return ({n for n in dir(cls) if n.startswith("_saved_")},
                any(hasattr(c, "__getattr__") for c in cls.__mro__))

    (ours, our_hook), (theirs, their_hook) = run(mg), run(torch)
    assert theirs <= ours  # (minigrad's Node has _saved_attrs and _saved_names too)
    assert our_hook is their_hook is False
