"""Random graphs (Hypothesis): minigrad's gradients against a naive reference written here
(a dict-based reverse mode on NumPy) and against PyTorch.

Graphs have several leaves, shared subexpressions, ``x * x`` (the same operand twice),
diamonds, a reduction that broadcasts back, and one or several outputs.
"""

from __future__ import annotations

import numpy as np
from helpers import PROGRAM_OPS
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg

KINDS = ("add", "sub", "mul", "div", "neg", "scale", "exp", "sum_times")
UNARY = ("neg", "scale", "exp")


@st.composite
def graphs(draw):
    n_leaves = draw(st.integers(1, 4))
    n_ops = draw(st.integers(1, 14))
    ops = []
    for k in range(n_ops):
        size = n_leaves + k
        kind = draw(st.sampled_from(KINDS))
        a = draw(st.integers(0, size - 1))
        b = draw(st.one_of(st.just(a), st.integers(0, size - 1)))  # often x * x
        ops.append((kind, a, b))
    n_values = n_leaves + n_ops
    outputs = draw(st.lists(st.integers(n_leaves, n_values - 1), min_size=1, max_size=3))
    values = draw(st.lists(st.floats(-1.5, 1.5), min_size=3 * n_leaves, max_size=3 * n_leaves))
    return n_leaves, ops, outputs, np.array(values).reshape(n_leaves, 3)


# ---------------------------------------------------------------- the naive reference
def _forward(kind, x, y):
    if kind == "add":
        return x + y
    if kind == "sub":
        return x - y
    if kind == "mul":
        return x * y
    if kind == "div":
        return x / (y * y + 1.0)
    if kind == "neg":
        return -x
    if kind == "scale":
        return x * 2.0
    if kind == "exp":
        return np.exp(x * 0.1)
    return x.sum() * y


def reference(n_leaves, ops, outputs, leaf_values):
    """Forward values, then gradients by walking the values backwards (they are created in
    topological order), adding each op's local derivative into a dict of gradients."""
    vals = [np.array(v, dtype=np.float64) for v in leaf_values]
    for kind, a, b in ops:
        vals.append(_forward(kind, vals[a], vals[b]))
    grads = {i: np.zeros(3) for i in range(len(vals))}
    for o in outputs:
        grads[o] += 1.0
    for i in range(len(vals) - 1, n_leaves - 1, -1):
        kind, a, b = ops[i - n_leaves]
        g, x, y = grads[i], vals[a], vals[b]
        if kind == "add":
            grads[a] += g
            grads[b] += g
        elif kind == "sub":
            grads[a] += g
            grads[b] -= g
        elif kind == "mul":
            grads[a] += g * y
            grads[b] += g * x
        elif kind == "div":
            d = y * y + 1.0
            grads[a] += g / d
            grads[b] += -g * x * 2 * y / d ** 2
        elif kind == "neg":
            grads[a] -= g
        elif kind == "scale":
            grads[a] += 2.0 * g
        elif kind == "exp":
            grads[a] += g * np.exp(x * 0.1) * 0.1
        elif kind == "sum_times":
            grads[a] += (g * y).sum()
            grads[b] += g * x.sum()
    used = _used(n_leaves, ops, outputs)
    return [grads[i] if i in used else None for i in range(n_leaves)]


def _used(n_leaves, ops, outputs) -> set:
    seen, stack = set(), list(outputs)
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            if i >= n_leaves:
                kind, a, b = ops[i - n_leaves]
                stack += [a] if kind in UNARY else [a, b]
    return seen


# ---------------------------------------------------------------- the libraries
def run(L, n_leaves, ops, outputs, leaf_values, split: bool):
    leaves = [L.tensor(v, dtype=L.float64, requires_grad=True) for v in leaf_values]
    vals = list(leaves)
    for kind, a, b in ops:
        vals.append(PROGRAM_OPS[kind](vals[a], vals[b]))
    outs = [vals[o].sum() for o in outputs]
    if split:
        L.autograd.backward(outs)
    else:
        total = outs[0]
        for o in outs[1:]:
            total = total + o
        total.backward()
    return [None if x.grad is None else x.grad.detach().numpy() for x in leaves]


def assert_same(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert (g is None) == (e is None)
        if e is not None:
            np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-12)


@given(graphs(), st.booleans())
def test_random_graph_gradients_match_a_naive_reference(graph, split):
    n_leaves, ops, outputs, values = graph
    assert_same(run(mg, n_leaves, ops, outputs, values, split),
                reference(n_leaves, ops, outputs, values))


@given(graph=graphs(), split=st.booleans())
def test_random_graph_gradients_match_pytorch(torch, graph, split):
    n_leaves, ops, outputs, values = graph
    assert_same(run(mg, n_leaves, ops, outputs, values, split),
                run(torch, n_leaves, ops, outputs, values, split))
