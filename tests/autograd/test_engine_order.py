"""The engine runs nodes in exactly PyTorch's order, on random graphs built in both libraries.

Each graph is built twice from one seed (shared subexpressions, ``x * x``, diamonds, several
leaves, several outputs); the two graphs are walked together to label their nodes alike, and
PyTorch's order is recorded with node pre-hooks (on every node, ``AccumulateGrad`` included).
minigrad's order comes from ``engine.steps()`` and from the same pre-hooks.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import engine

SEEDS = range(120)


def build(lib, seed: int):
    """Leaves and outputs of a random graph; the same seed gives the same graph in both libs."""
    rnd = random.Random(seed)
    n_leaves, n_ops, n_out = rnd.randint(1, 4), rnd.randint(1, 16), rnd.randint(1, 3)
    leaves = [lib.tensor(np.linspace(0.5, 1.5, 3) + i, requires_grad=True)
              for i in range(n_leaves)]
    pool = list(leaves)
    for _ in range(n_ops):
        a, b = rnd.choice(pool), rnd.choice(pool)  # often the same: x * x, diamonds
        op = rnd.randrange(10)
        if op == 0:
            v = a + b
        elif op == 1:
            v = a * b
        elif op == 2:
            v = a - b
        elif op == 3:
            v = a / (b * b + 1.0)
        elif op == 4:
            v = -a
        elif op == 5:
            v = a * 2.0
        elif op == 6:
            v = a.sum() * b
        elif op == 7:
            v = (a * 0.1).exp() + b
        elif op == 8:
            v = a.unsqueeze(0).expand(2, 3).mean(0)
        else:
            v = a + 1.0
        pool.append(v)
    outs = [rnd.choice(pool[n_leaves:]).sum() for _ in range(n_out)]
    return leaves, outs, pool


def label_nodes(t_roots, m_roots):
    """Walk both graphs together, check they have the same shape, label nodes alike."""
    t_label, m_label = {}, {}
    stack = list(zip(t_roots, m_roots))
    while stack:
        t, m = stack.pop()
        assert (t is None) == (m is None)
        if t is None:
            continue
        assert m.name() == t.name()
        if t in t_label:
            assert m_label[m] == t_label[t]
            continue
        t_label[t] = m_label[m] = len(t_label)
        assert len(m.next_functions) == len(t.next_functions)
        for (tn, tnr), (mn, mnr) in zip(t.next_functions, m.next_functions):
            assert mnr == tnr
            stack.append((tn, mn))
    return t_label, m_label


def record_with_prehooks(labels) -> list:
    order = []
    for node, k in labels.items():
        node.register_prehook(lambda grads, k=k: order.append(k))
    return order


def graphs(torch, seed):
    tl, to, tpool = build(torch, seed)
    ml, mo, mpool = build(mg, seed)
    t_label, m_label = label_nodes([o.grad_fn for o in to], [o.grad_fn for o in mo])
    return (tl, to, tpool, t_label), (ml, mo, mpool, m_label)


@pytest.mark.parametrize("seed", SEEDS)
def test_backward_runs_nodes_in_pytorch_order(torch, seed):
    (tl, to, _, t_label), (ml, mo, _, m_label) = graphs(torch, seed)
    t_order = record_with_prehooks(t_label)
    torch.autograd.backward(to)
    m_hooked = record_with_prehooks(m_label)
    m_order = [m_label[step.node] for step in engine.steps(mo)]
    assert m_order == t_order
    assert m_hooked == t_order
    for t, m in zip(tl, ml):
        assert (m.grad is None) == (t.grad is None)
        if t.grad is not None:
            np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-6)


@pytest.mark.parametrize("seed", SEEDS[:60])
def test_execution_order_predicts_the_steps(torch, seed):
    (_, _, _, t_label), (_, mo, _, m_label) = graphs(torch, seed)
    predicted = [m_label[n] for n in engine.execution_order(*mo)]
    assert predicted == [m_label[s.node] for s in engine.steps(mo)]


@pytest.mark.parametrize("seed", SEEDS[:60])
def test_autograd_grad_runs_only_needed_nodes_in_pytorch_order(torch, seed):
    (tl, to, tpool, t_label), (ml, mo, mpool, m_label) = graphs(torch, seed)
    rnd = random.Random(seed + 1000)
    picks = sorted(rnd.sample(range(len(tpool)), min(len(tpool), rnd.randint(1, 3))))
    t_in = [tpool[i] for i in picks if tpool[i].requires_grad]
    m_in = [mpool[i] for i in picks if mpool[i].requires_grad]
    t_order, m_order = record_with_prehooks(t_label), record_with_prehooks(m_label)
    t_res = torch.autograd.grad(to, t_in, allow_unused=True)
    m_res = mg.autograd.grad(mo, m_in, allow_unused=True)
    assert m_order == t_order
    for t, m in zip(t_res, m_res):
        assert (m is None) == (t is None)
        if t is not None:
            np.testing.assert_allclose(m.numpy(), t.numpy(), rtol=1e-6)
    assert all(x.grad is None for x in ml)


@pytest.mark.parametrize("seed", SEEDS[:60])
def test_backward_with_inputs_runs_pytorch_nodes_and_fills_those_grads(torch, seed):
    (tl, to, tpool, t_label), (ml, mo, mpool, m_label) = graphs(torch, seed)
    rnd = random.Random(seed + 2000)
    picks = sorted(rnd.sample(range(len(tpool)), min(len(tpool), rnd.randint(1, 3))))
    t_in = [tpool[i] for i in picks]
    m_in = [mpool[i] for i in picks]
    t_order, m_order = record_with_prehooks(t_label), record_with_prehooks(m_label)
    torch.autograd.backward(to, inputs=t_in)
    steps = [m_label[s.node] for s in engine.steps(mo, inputs=m_in)]
    assert m_order == t_order
    assert steps == t_order
    for t, m in zip(t_in, m_in):
        assert m.retains_grad == t.retains_grad
        tg, mg_ = t._grad, m._grad
        assert (mg_ is None) == (tg is None)
        if tg is not None:
            np.testing.assert_allclose(mg_.numpy(), tg.numpy(), rtol=1e-6)


def test_ready_leaves_are_accumulated_first_and_ties_break_like_a_binary_heap(torch):
    # stack() makes many leaves ready at once; their AccumulateGrad nodes all carry the
    # highest priority, so the heap's tie-breaking alone decides their order.
    def run(lib):
        xs = [lib.tensor(float(i + 1), requires_grad=True) for i in range(7)]
        ys = [xs[0] * 2, xs[1], xs[2] * xs[3], xs[4], xs[5] + 1, xs[6], xs[0]]
        total = lib.stack(ys).sum()
        order = []
        for i, x in enumerate(xs):
            x.register_hook(lambda g, i=i: order.append(i))
        total.backward()
        return order

    assert run(mg) == run(torch)


def test_two_outputs_start_from_a_graph_root_that_is_not_a_step(torch):
    x = mg.tensor([1., 2.], requires_grad=True)
    a, b = (x * 2).sum(), (x * x).sum()
    names = [s.node.name() for s in engine.steps([a, b])]
    assert "torch::autograd::GraphRoot" not in names
    assert x.grad.tolist() == [4.0, 6.0]
