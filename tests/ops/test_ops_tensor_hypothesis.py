"""Hypothesis over shapes: reshape, transpose, permute, basic and advanced indexing and
assignment, each compared with torch (values, gradients, graph, saved values, views)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from op_table import assert_close, assert_same_graph, assert_same_saved
from op_table_tensor import assert_same_saved as assert_same_saved_nested

import minigrad as mg

pytestmark = pytest.mark.torch

shapes = array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=4)


def _pair(torch, shape, seed=0):
    data = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return torch.tensor(data, requires_grad=True), mg.tensor(data, requires_grad=True)


def _compare(torch, fn, shape, extra=()):
    """Run ``fn(lib, x)`` on both; compare output, graph, saved values, view-ness, gradient."""
    tx, mx = _pair(torch, shape)
    t_out, m_out = fn(torch, tx), fn(mg, mx)
    assert_close(m_out, t_out)
    assert (m_out._base is mx) == (t_out._base is tx)
    if t_out.grad_fn is None:
        assert m_out.grad_fn is None
        return
    assert_same_graph(t_out.grad_fn, m_out.grad_fn, [tx], [mx])
    assert_same_saved_nested(torch, t_out.grad_fn, m_out.grad_fn, [tx], [mx])
    w = np.random.default_rng(1).standard_normal(tuple(t_out.shape)).astype(np.float32)
    (t_out * torch.tensor(w)).sum().backward()
    (m_out * mg.tensor(w)).sum().backward()
    assert_close(mx.grad, tx.grad)


_ = assert_same_saved


@st.composite
def reshapes(draw):
    """A shape, an optional permutation applied first, and a target shape with the same size."""
    shape = draw(shapes)
    order = draw(st.permutations(range(len(shape))))
    target = list(draw(st.permutations(shape)))
    if target and draw(st.booleans()):
        target[draw(st.integers(0, len(target) - 1))] = -1
    if draw(st.booleans()):
        target.insert(draw(st.integers(0, len(target))), 1)
    return shape, tuple(order), tuple(target)


@given(reshapes())
def test_reshape_matches_torch(torch, case):
    shape, order, target = case
    _compare(torch, lambda L, x: x.permute(order).reshape(target), shape)


@given(reshapes())
def test_view_or_its_error_matches_torch(torch, case):
    shape, order, target = case
    tx, mx = _pair(torch, shape)
    try:
        t_out = tx.permute(order).view(target)
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as m_err:
            mx.permute(order).view(target)
        assert str(m_err.value) == str(e)
        return
    m_out = mx.permute(order).view(target)
    assert_close(m_out, t_out)
    assert m_out._base is mx and t_out._base is tx
    big = [i for i, n in enumerate(t_out.shape) if n > 1]  # size-1 strides are arbitrary
    assert [m_out.stride(i) for i in big] == [t_out.stride(i) for i in big]


@given(shapes.filter(len), st.data())
def test_transpose_and_permute_match_torch(torch, shape, data):
    n = len(shape)
    d0, d1 = data.draw(st.integers(-n, n - 1)), data.draw(st.integers(-n, n - 1))
    order = [d - n if data.draw(st.booleans()) else d
             for d in data.draw(st.permutations(range(n)))]
    _compare(torch, lambda L, x: x.transpose(d0, d1).permute(order), shape)


@st.composite
def basic_indices(draw, shape):
    """An index of ints, slices, None and at most one Ellipsis that is valid for ``shape``."""
    parts, dims = [], list(shape)
    ellipsis = draw(st.booleans())
    while dims and draw(st.integers(0, 3)):
        kind = draw(st.sampled_from(["int", "slice", "none", "all"]))
        if kind == "none":
            parts.append(None)
            continue
        n = dims.pop(0)
        if kind == "int":
            parts.append(draw(st.integers(-n, n - 1)))
        elif kind == "all":
            parts.append(slice(None))
        else:
            start = draw(st.none() | st.integers(-n - 1, n + 1))
            stop = draw(st.none() | st.integers(-n - 1, n + 1))
            parts.append(slice(start, stop, draw(st.none() | st.integers(1, 3))))
    if ellipsis:  # it stands for the dimensions left over: anywhere if none are left
        parts.insert(draw(st.integers(0, len(parts))) if not dims else len(parts), Ellipsis)
    if len(parts) == 1 and draw(st.booleans()):
        return parts[0]  # a lone index, not in a tuple
    return tuple(parts)


@given(shapes, st.data())
def test_basic_indexing_matches_torch(torch, shape, data):
    index = data.draw(basic_indices(shape))
    _compare(torch, lambda L, x: x[index], shape)


@st.composite
def advanced_indices(draw, shape):
    """Basic parts mixed with one or two integer lists (repeats and negatives allowed)."""
    parts = []
    tensors = 0
    for n in shape:
        kind = draw(st.sampled_from(["list", "slice", "int"]) if tensors < 2 else
                    st.sampled_from(["slice", "int"]))
        if kind == "list":
            tensors += 1
            parts.append(draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=3)))
        elif kind == "int":
            parts.append(draw(st.integers(-n, n - 1)))
        else:
            parts.append(slice(draw(st.integers(0, n - 1)), None))
    if not tensors:
        parts[0] = draw(st.lists(st.integers(-shape[0], shape[0] - 1), min_size=1, max_size=4))
    lists = [i for i, p in enumerate(parts) if isinstance(p, list)]
    if len(lists) == 2:  # two lists must broadcast: make them the same length
        parts[lists[1]] = (parts[lists[1]] * 3)[:len(parts[lists[0]])]
    return tuple(parts)


@given(shapes.filter(len), st.data())
def test_advanced_indexing_and_repeated_indices_match_torch(torch, shape, data):
    index = data.draw(advanced_indices(shape))
    _compare(torch, lambda L, x: x[index], shape)


@given(shapes.filter(len), st.data())
def test_assignment_matches_torch(torch, shape, data):
    index = data.draw(basic_indices(shape) | advanced_indices(shape))
    target = tuple(torch.zeros(shape)[index].shape)  # (NumPy's rules differ for x[0, :, [1]])
    value_shape = data.draw(st.sampled_from([(), target, target[1:]]))
    value = np.random.default_rng(3).standard_normal(value_shape).astype(np.float32)

    def run(lib):
        x = lib.tensor(np.ones(shape, np.float32), requires_grad=True)
        v = lib.tensor(value, requires_grad=True)
        a = x * 2
        a[index] = v * 3
        (a * a).sum().backward()
        return a, x.grad, v.grad

    t, m = run(torch), run(mg)
    for mm, tt in zip(m, t):
        assert_close(mm, tt)
    assert m[0].grad_fn.name() == t[0].grad_fn.name()
