"""The autograd attributes of a Tensor: requires_grad, is_leaf, grad_fn, grad, output_nr,
_version, detach/data, against PyTorch."""

from __future__ import annotations

import copy
import inspect
import pickle

import pytest
from helpers import on_both

import minigrad as mg


def info(t):
    return (t.requires_grad, t.is_leaf, None if t.grad_fn is None else t.grad_fn.name(),
            t.output_nr, t._version, t.retains_grad)


@on_both
def test_leaf_and_non_leaf_attributes(L):
    x = L.tensor([1., 2.], requires_grad=True)
    c = L.tensor([1., 2.])
    y = x * c
    z = c * 2
    with L.no_grad():
        w = x * 2
    return [info(t) for t in (x, c, y, z, w)]


@on_both
def test_requires_grad_flag_changes_on_leaves(L):
    x = L.tensor([1., 2.])
    r = x.requires_grad_()
    a = (r is x, x.requires_grad)
    x.requires_grad = False
    b = x.requires_grad
    x.requires_grad_(True)
    y = x * 2
    same = y.requires_grad_(True) is y
    return a, b, same, info(y)


@on_both
def test_requires_grad_in_the_constructor_and_legacy_tensor(L):
    a = L.ones(2, requires_grad=True)
    b = L.zeros(2, 2, requires_grad=True)
    c = L.Tensor([1., 2.]).requires_grad_()
    return info(a), info(b), info(c)


@on_both
def test_version_counter_is_bumped_by_inplace_ops_and_shared_with_views(L):
    x = L.tensor([1., 2., 3., 4.])
    v = x.view(2, 2)
    d = x.detach()
    x.add_(1)
    v.mul_(2)
    d.zero_()
    x[0] = 5
    return x._version, v._version, d._version, x.tolist()


@on_both
def test_detach_and_data_share_storage_but_not_the_graph(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 2
    d, dd = y.detach(), y.data
    d[0] = 100
    return info(d), info(dd), y.tolist(), dd.tolist()


@on_both
def test_detach_in_place_makes_a_leaf(L):
    x = L.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.detach_()
    return info(y)


@on_both
def test_grad_can_be_set_deleted_and_set_to_none(L):
    x = L.tensor([1., 2.], requires_grad=True)
    x.grad = L.tensor([3., 4.])
    a = x.grad.tolist()
    del x.grad
    b = x.grad
    x.grad = L.ones(2)
    x.grad = None
    i = L.tensor([1, 2])
    i.grad = L.tensor([3, 4])
    return a, b, x.grad, i.grad.tolist()


@on_both
def test_grad_of_a_leaf_after_backward_is_a_plain_tensor(L):
    x = L.tensor([1., 2.], requires_grad=True)
    (x * x).sum().backward()
    g = x.grad
    return (g.requires_grad, g.is_leaf, g.grad_fn, g.retains_grad,
            str(x.grad.dtype).split(".")[-1])


@on_both
def test_retain_grad_on_a_leaf_is_a_no_op(L):
    x = L.tensor([1., 2.], requires_grad=True)
    x.retain_grad()
    (x * 2).sum().backward()
    return x.retains_grad, x.grad.tolist()


def test_backward_signature_matches_pytorch(torch):
    names = list(inspect.signature(mg.Tensor.backward).parameters)
    assert names == list(inspect.signature(torch.Tensor.backward).parameters)
    for fn in ("backward", "grad"):
        mine = inspect.signature(getattr(mg.autograd, fn)).parameters
        theirs = inspect.signature(getattr(torch.autograd, fn)).parameters
        assert list(mine) == list(theirs)
        assert [p.default for p in mine.values()] == [p.default for p in theirs.values()]


@on_both
def test_deepcopy_and_pickle_of_a_leaf_keep_requires_grad(L):
    x = L.tensor([1., 2.], requires_grad=True)
    x.grad = L.tensor([1., 1.])
    y = copy.deepcopy(x)
    z = pickle.loads(pickle.dumps(x))
    return info(y), y.grad.tolist(), y is not x, info(z), z.tolist()


def test_numpy_after_detach_shares_memory(torch):
    x = mg.tensor([1., 2.], requires_grad=True)
    a = x.detach().numpy()
    a[0] = 7
    assert x.tolist() == [7., 2.]


def test_grad_fn_and_is_leaf_cannot_be_assigned():
    x = mg.tensor([1., 2.], requires_grad=True)
    with pytest.raises(AttributeError):
        x.is_leaf = False
    with pytest.raises(AttributeError):
        x.grad_fn = None


@on_both
def test_next_functions_structure_for_a_small_graph(L):
    x = L.tensor([1., 2.], requires_grad=True)
    c = L.tensor([1., 2.])
    y = (x * c + x).sum()
    fn = y.grad_fn
    add = fn.next_functions[0][0]
    mul = add.next_functions[0][0]
    return (fn.name(), [(f is None, f and f.name(), n) for f, n in add.next_functions],
            [(f is None, f and f.name(), n) for f, n in mul.next_functions],
            mul.next_functions[0][0] is add.next_functions[1][0],
            mul.next_functions[0][0].next_functions)
