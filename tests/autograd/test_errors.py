"""The errors a learner meets, with PyTorch's exception type and message, checked live.

Each case is one function written for both libraries; it runs on torch and on minigrad and
must raise the same type with the same text (``torch.`` read as ``minigrad.``).
"""

from __future__ import annotations

import re
import warnings

import pytest
from helpers import both_raise

import minigrad as mg


def backward_twice(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def saved_read_after_backward(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * x
    y.sum().backward()
    _ = y.grad_fn._saved_self


def non_scalar_implicit_grad(L):
    (L.tensor([1., 2.], requires_grad=True) * 2).backward()


def backward_on_constant(L):
    L.tensor([1., 2.]).sum().backward()


def backward_on_integer(L):
    L.tensor(3).backward()


def second_of_two_needs_no_grad(L):
    x = L.tensor([1., 2.], requires_grad=True)
    L.autograd.backward([x.sum(), L.tensor(3.)])


def inplace_on_leaf(L):
    x = L.tensor([1., 2.], requires_grad=True)
    x.add_(1)


def inplace_operator_on_leaf(L):
    x = L.tensor([1., 2.], requires_grad=True)
    x += 1


def inplace_on_view_of_leaf(L):
    x = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    x[0].mul_(2)


def inplace_on_reshaped_leaf(L):
    x = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    x.view(4).zero_()


def saved_input_modified(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 2
    z = y * y
    y.add_(1)
    z.sum().backward()


def saved_output_modified(L):
    x = L.tensor([1., 2.], requires_grad=True)
    e = x.exp()
    e.mul_(2)
    e.sum().backward()


def saved_constant_modified(L):
    x = L.tensor([1., 2.], requires_grad=True)
    c = L.tensor([[1., 2.], [3., 4.]], dtype=L.float64)
    z = x * c
    c.sub_(1)
    z.sum().backward()


def saved_read_after_inplace(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 1
    z = y * y
    y.mul_(3)
    _ = z.grad_fn._saved_self


def requires_grad_on_non_leaf_off(L):
    x = L.tensor([1., 2.], requires_grad=True)
    (x * 2).requires_grad = False


def requires_grad_on_non_leaf_on(L):
    x = L.tensor([1., 2.], requires_grad=True)
    (x * 2).requires_grad = True


def requires_grad_method_on_non_leaf_off(L):
    x = L.tensor([1., 2.], requires_grad=True)
    (x * 2).requires_grad_(False)


def requires_grad_on_integer(L):
    L.tensor([1, 2]).requires_grad_()


def requires_grad_attribute_on_integer(L):
    L.tensor([1, 2]).requires_grad = True


def numpy_of_tensor_requiring_grad(L):
    L.tensor([1., 2.], requires_grad=True).numpy()


def hook_on_tensor_without_grad(L):
    L.tensor([1., 2.]).register_hook(lambda g: g)


def retain_grad_without_grad(L):
    L.tensor([1., 2.]).retain_grad()


def unused_input_to_grad(L):
    x = L.tensor([1., 2.], requires_grad=True)
    w = L.tensor([1., 2.], requires_grad=True)
    L.autograd.grad((x * 2).sum(), [x, w])


def grad_of_input_not_requiring_grad(L):
    x = L.tensor([1., 2.], requires_grad=True)
    L.autograd.grad(x.sum(), L.tensor([1., 2.]))


def grad_with_empty_inputs(L):
    L.autograd.grad(L.tensor([1., 2.]).sum(), [])


def backward_with_empty_inputs(L):
    x = L.tensor([1., 2.], requires_grad=True)
    x.sum().backward(inputs=[])


def backward_inputs_not_requiring_grad(L):
    x = L.tensor([1., 2.], requires_grad=True)
    x.sum().backward(inputs=[L.tensor([1., 2.])])


def shapes_do_not_broadcast(L):
    L.tensor([1., 2.], requires_grad=True) + L.tensor([1., 2., 3.])


def shapes_do_not_broadcast_2d(L):
    L.ones(2, 3) * L.ones(4, 3)


def gradient_of_wrong_shape(L):
    (L.tensor([1., 2.], requires_grad=True) * 2).backward(L.ones(3))


def gradient_that_is_not_a_tensor(L):
    (L.tensor([1., 2.], requires_grad=True) * 2).backward([1., 1.])


def fewer_gradients_than_tensors(L):
    x = L.tensor([1., 2.], requires_grad=True)
    L.autograd.backward([x.sum(), (x * 2).sum()], [L.tensor(1.)])


def materialize_without_allow_unused(L):
    x = L.tensor([1., 2.], requires_grad=True)
    L.autograd.grad(x.sum(), x, allow_unused=False, materialize_grads=True)


def grad_assigned_wrong_type(L):
    L.tensor([1., 2.], requires_grad=True).grad = 3


def grad_assigned_wrong_dtype(L):
    L.tensor([1., 2.], requires_grad=True).grad = L.tensor([1., 2.], dtype=L.float64)


def grad_assigned_int_to_double(L):
    L.tensor([1., 2.], dtype=L.float64).grad = L.tensor([1, 2])


def grad_assigned_wrong_shape(L):
    L.tensor([1., 2.], requires_grad=True).grad = L.ones(3)


def grad_assigned_itself(L):
    x = L.tensor([1., 2.], requires_grad=True)
    x.grad = x


def item_of_many(L):
    L.tensor([1., 2.], requires_grad=True).item()


def deepcopy_of_non_leaf(L):
    import copy

    copy.deepcopy(L.tensor([1., 2.], requires_grad=True) * 2)


def leaf_moved_into_the_graph(L):
    """A leaf a graph used, detached and then given a history in place (found by the fuzzer):
    its AccumulateGrad refuses to run."""
    a = L.tensor([1., 2.], requires_grad=True)
    b = a * 2
    a.detach_()
    a.mul_(L.tensor(3., requires_grad=True))
    b.sum().backward()


def leaf_moved_into_the_graph_by_setitem(L):
    a = L.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    b = a - a
    L.detach_(a)
    a[1:] = L.tensor(2., requires_grad=True)
    (b.sum() + a.sum()).backward()


def data_reshaped_under_a_history(L):
    """A non-leaf given data of another shape (found by the fuzzer): the gradient for its node
    no longer fits the shape the node expects (PyTorch's check of every gradient)."""
    a = L.tensor([[1., 2., 3.]], requires_grad=True)
    b = a[..., None] * 2
    with L.no_grad():
        b.data = L.ones(1, 3)
    b.sum().backward()


def data_reshaped_under_a_history_then_cast(L):
    a = L.ones(1, 2, 5, requires_grad=True)
    b = a * 1
    b.data = L.ones(2)
    b.double().sum().backward()


CASES = [backward_twice, saved_read_after_backward, non_scalar_implicit_grad,
         backward_on_constant, backward_on_integer, second_of_two_needs_no_grad,
         inplace_on_leaf, inplace_operator_on_leaf, inplace_on_view_of_leaf,
         inplace_on_reshaped_leaf, saved_input_modified, saved_output_modified,
         saved_constant_modified, saved_read_after_inplace, requires_grad_on_non_leaf_off,
         requires_grad_on_non_leaf_on, requires_grad_method_on_non_leaf_off,
         requires_grad_on_integer, requires_grad_attribute_on_integer,
         numpy_of_tensor_requiring_grad, hook_on_tensor_without_grad, retain_grad_without_grad,
         unused_input_to_grad, grad_of_input_not_requiring_grad, grad_with_empty_inputs,
         backward_with_empty_inputs, backward_inputs_not_requiring_grad,
         shapes_do_not_broadcast, shapes_do_not_broadcast_2d, gradient_of_wrong_shape,
         gradient_that_is_not_a_tensor, fewer_gradients_than_tensors,
         materialize_without_allow_unused, grad_assigned_wrong_type, grad_assigned_wrong_dtype,
         grad_assigned_int_to_double, grad_assigned_wrong_shape, grad_assigned_itself,
         item_of_many, deepcopy_of_non_leaf, leaf_moved_into_the_graph,
         leaf_moved_into_the_graph_by_setitem, data_reshaped_under_a_history,
         data_reshaped_under_a_history_then_cast]


@pytest.mark.parametrize("case", CASES, ids=lambda f: f.__name__)
def test_error_matches_pytorch(torch, case):
    both_raise(torch, case)


def test_integer_tensor_made_with_requires_grad_raises_pytorch_error(torch):
    def make(L):
        L.tensor([1, 2], requires_grad=True)

    both_raise(torch, make)


# ---------------------------------------------------------------- warnings
def warning_texts(fn, lib) -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(lib)
    return [(w.category, re.sub(r" \(Triggered internally at .*\)$", "", str(w.message)))
            for w in caught]


def read_grad_of_non_leaf(L):
    x = L.tensor([1., 2.], requires_grad=True)
    assert (x * 2).grad is None


def read_grad_of_retained_non_leaf(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.retain_grad()
    assert y.grad is None


def read_grad_of_leaf(L):
    assert L.tensor([1., 2.], requires_grad=True).grad is None


@pytest.mark.parametrize("case", [read_grad_of_non_leaf, read_grad_of_retained_non_leaf,
                                  read_grad_of_leaf], ids=lambda f: f.__name__)
def test_warnings_match_pytorch(torch, case):
    assert warning_texts(case, mg) == warning_texts(case, torch)


def test_reading_grad_of_non_leaf_warns_at_the_learners_line():
    x = mg.tensor([1., 2.], requires_grad=True)
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed") as caught:
        (x * 2).grad  # noqa: B018
    assert caught[0].filename == __file__


def test_a_reshaped_gradient_that_fits_is_summed_as_in_pytorch(torch):
    """Data reshaped to a shape the node's can broadcast to: the gradient is summed back."""
    def run(L):
        a = L.tensor([[1., 2., 3.]], requires_grad=True)
        b = a * 2
        with L.no_grad():
            b.data = L.ones(2, 1, 3)
        b.sum().backward()
        return a.grad.tolist()

    assert run(mg) == run(torch)
