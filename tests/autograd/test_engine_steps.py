"""``engine.steps()``: one Step per node, the same result as ``backward()``, real snapshots,
and grad mode that never leaks between steps."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from test_engine_order import build, label_nodes

import minigrad as mg
from minigrad.autograd import engine

pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")


@pytest.mark.parametrize("seed", range(40))
def test_draining_steps_gives_exactly_the_gradients_of_backward(seed):
    leaves_a, outs_a, _ = build(mg, seed)
    leaves_b, outs_b, _ = build(mg, seed)
    mg.autograd.backward(outs_a)
    steps = list(engine.steps(outs_b))
    assert [s.index for s in steps] == list(range(len(steps)))
    for a, b in zip(leaves_a, leaves_b):
        assert (a.grad is None) == (b.grad is None)
        if a.grad is not None:
            assert a.grad.dtype == b.grad.dtype
            np.testing.assert_array_equal(a.grad.numpy(), b.grad.numpy())


@pytest.mark.parametrize("seed", range(25))
def test_each_step_shows_what_pytorch_node_hooks_see(torch, seed):
    t_leaves, t_outs, _ = build(torch, seed)
    m_leaves, m_outs, _ = build(mg, seed)
    t_label, m_label = label_nodes([o.grad_fn for o in t_outs], [o.grad_fn for o in m_outs])
    seen = {}
    for node, k in t_label.items():
        node.register_hook(lambda gi, go, k=k: seen.__setitem__(k, (gi, go)))
    torch.autograd.backward(t_outs)
    for step in engine.steps(m_outs):
        t_in, t_out = seen[m_label[step.node]]
        assert len(step.grads_in) == len(t_out)
        assert len(step.grads_out) == len(t_in)
        for m, t in zip(step.grads_in + step.grads_out, t_out + t_in):
            assert (m is None) == (t is None)
            if t is not None:
                np.testing.assert_allclose(m.numpy(), t.numpy(), rtol=1e-6)


def test_step_of_a_leaf_shows_the_variable_and_its_grad_before_and_after():
    x = mg.tensor([1., 2.], requires_grad=True)
    (x * 3).sum().backward()
    steps = list(engine.steps((x * x).sum()))
    leaf = steps[-1]
    assert leaf.is_accumulate and leaf.variable is x
    assert leaf.node.name() == "torch::autograd::AccumulateGrad"
    assert leaf.grad_before.tolist() == [3., 3.]
    assert leaf.grad_after.tolist() == [5., 7.]
    assert leaf.grads_out == ()
    assert not steps[0].is_accumulate and steps[0].variable is None
    assert "Step 2: torch::autograd::AccumulateGrad accumulates into a leaf" in repr(leaf)


def test_step_data_are_read_only_snapshots_not_changed_by_later_steps():
    x = mg.tensor([1., 2.], requires_grad=True)
    x.grad = mg.tensor([10., 10.])
    y = x * 2
    z = (y * y).sum()
    gen = engine.steps(z)
    first = next(gen)
    snap_in = first.grads_in[0].numpy().copy()
    rest = list(gen)
    leaf = rest[-1]
    before = leaf.grad_before.numpy().copy()
    x.grad.mul_(0)  # the learner's tensor changes; the step must not
    x.grad.add_(5)
    np.testing.assert_array_equal(first.grads_in[0].numpy(), snap_in)
    np.testing.assert_array_equal(leaf.grad_before.numpy(), before)
    assert leaf.grad_after.tolist() == [18., 26.]
    for step in [first] + rest:
        for g in step.grads_in + step.grads_out:
            if g is not None:
                with pytest.raises(ValueError):
                    g.numpy()[...] = 0


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("outer", [False, True])
def test_grad_mode_does_not_leak_between_steps(create_graph, outer):
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., 4.], requires_grad=True)
    loss = ((x * w).exp() * x).sum()
    inside = []
    loss.grad_fn.register_prehook(lambda g: inside.append(mg.is_grad_enabled()))
    with mg.set_grad_enabled(outer):
        gen = engine.steps(loss, create_graph=create_graph)
        for _ in gen:
            assert mg.is_grad_enabled() is outer
            y = x * w
            assert y.requires_grad is outer
            assert (y.grad_fn is not None) is outer
    assert mg.is_grad_enabled()
    assert inside == [create_graph]
    assert x.grad.requires_grad is create_graph


def test_mode_changed_between_steps_is_kept_for_the_code_between_them():
    x = mg.tensor([1., 2.], requires_grad=True)
    gen = engine.steps((x * x * x).sum())
    next(gen)
    with mg.no_grad():
        next(gen)
        assert not mg.is_grad_enabled()
        assert not (x * 2).requires_grad
    assert mg.is_grad_enabled()
    list(gen)
    assert mg.is_grad_enabled()
    assert x.grad.tolist() == [3., 12.]


def test_abandoned_stepper_leaves_grad_mode_alone():
    x = mg.tensor([1., 2.], requires_grad=True)
    gen = engine.steps((x * x).sum(), create_graph=True)
    next(gen)
    with mg.no_grad():
        del gen
        gc.collect()
        assert not mg.is_grad_enabled()
    assert mg.is_grad_enabled()


def test_error_in_a_node_restores_grad_mode():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: 1 / 0)
    loss = y.sum()
    with mg.no_grad():
        with pytest.raises(ZeroDivisionError):
            mg.autograd.backward([loss], retain_graph=True)
        assert not mg.is_grad_enabled()
    with pytest.raises(ZeroDivisionError):
        mg.autograd.grad(y.sum(), x, create_graph=True)
    assert mg.is_grad_enabled()


def test_steps_checks_its_arguments_at_once_not_at_the_first_step():
    x = mg.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError, match="only for scalar outputs"):
        engine.steps(x * 2)


def test_steps_without_snapshots_hand_out_the_live_gradients():
    x = mg.tensor([1., 2.], requires_grad=True)
    steps = list(engine.steps((x * x).sum(), snapshot=False))
    assert steps[-1].grad_after is x.grad


# ---------------------------------------------------------------- leaves' .grad ownership
def test_leaf_grads_never_share_memory_with_each_other_or_the_given_gradient(torch):
    a = mg.ones(3, requires_grad=True)
    b = mg.ones(3, requires_grad=True)
    g = mg.ones(3)
    (a + b).backward(g)
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    assert not np.shares_memory(a.grad.numpy(), g.numpy())
    a.grad.zero_()
    assert b.grad.tolist() == [1., 1., 1.] and g.tolist() == [1., 1., 1.]


def test_second_backward_adds_into_the_same_grad_tensor_in_place():
    x = mg.tensor([1., 2.], requires_grad=True)
    (x * x).sum().backward()
    first = x.grad
    version = first._version
    (x * 3).sum().backward()
    assert x.grad is first
    assert first.tolist() == [5., 7.]
    assert first._version == version + 1


def test_a_gradient_the_engine_computed_is_kept_without_a_copy():
    x = mg.tensor([1., 2.], requires_grad=True)
    w = mg.tensor([3., 4.], requires_grad=True)
    steps = list(engine.steps((x * w).sum(), snapshot=False))
    mul = next(s for s in steps if s.node.name() == "MulBackward0")
    assert x.grad.tolist() == [3., 4.] and w.grad.tolist() == [1., 2.]
    assert np.shares_memory(x.grad.numpy(), mul.grads_out[0].numpy())


# ---------------------------------------------------------------- higher order
def test_create_graph_gives_differentiable_grads_like_pytorch(torch):
    def run(lib):
        x = lib.tensor([0.5, 1.5], dtype=lib.float64, requires_grad=True)
        y = (x * x * x).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x, create_graph=True)
        (ggg,) = lib.autograd.grad(gg.sum(), x)
        return g, gg, ggg

    for m, t in zip(run(mg), run(torch)):
        np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy())
        assert m.requires_grad == t.requires_grad
        assert (m.grad_fn is None) == (t.grad_fn is None)
        if t.grad_fn is not None:
            assert m.grad_fn.name() == t.grad_fn.name()


def test_backward_with_create_graph_records_grad_like_pytorch(torch):
    def run(lib):
        x = lib.tensor([2., 3.], requires_grad=True)
        (x * x * x).sum().backward(create_graph=True)
        first = x.grad
        first_fn = type(first.grad_fn).__name__
        first_edges = [f is None for f, _ in first.grad_fn.next_functions]
        (x * x).sum().backward(create_graph=True)
        x.grad.sum().backward()
        return first_fn, first_edges, type(x.grad.grad_fn).__name__, first.tolist()

    m, t = run(mg), run(torch)
    assert m == t


def test_grads_of_grads_through_hooks_and_pow(torch):
    def run(lib):
        x = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
        y = x ** 3
        y.register_hook(lambda g: g * 2)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        return lib.autograd.grad((g * g).sum(), x)[0]

    np.testing.assert_allclose(run(mg).numpy(), run(torch).numpy())


# ---------------------------------------------------------------- memory
def test_saved_arrays_are_freed_by_backward():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    ref = weakref.ref(y._data)
    del y
    gc.collect()
    assert ref() is not None  # MulBackward0 keeps y for its backward
    z.backward()
    gc.collect()
    assert ref() is None


def test_saved_arrays_survive_a_backward_with_retain_graph():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x.exp()
    ref = weakref.ref(y._data)
    z = y.sum()
    del y
    z.backward(retain_graph=True)
    gc.collect()
    assert ref() is not None
    z.backward()
    gc.collect()
    assert ref() is None
    assert x.grad.tolist() == pytest.approx([2 * np.e, 2 * np.e ** 2])


# ---------------------------------------------------------------- contributions
@pytest.mark.parametrize("seed", range(20))
def test_contributions_sum_to_each_gradient_received(seed):
    leaves, outs, _ = build(mg, seed)
    for t in leaves:  # hooks run after the sum: the contributions are what came before them
        t.register_hook(lambda g: g * 3)
    for step in engine.steps(outs):
        assert len(step.contributions) == len(step.grads_in)
        for g, group in zip(step.grads_in, step.contributions):
            for c in group:
                assert isinstance(c, engine.Contribution) and isinstance(c.grad, mg.Tensor)
                if c.node is not None:  # it came along that edge of the sender
                    assert c.node.next_functions[c.edge][0] is step.node
            if g is not None and group:
                total = sum(c.grad.numpy() for c in group)
                scale = 3 if step.is_accumulate else 1
                np.testing.assert_allclose(g.numpy(), total * scale, rtol=1e-6)


def test_x_times_x_sends_two_contributions_to_the_leaf():
    x = mg.tensor(3., requires_grad=True)
    mul, acc = engine.steps(x * x)
    assert [(c.node, c.edge, c.grad.item()) for c in mul.contributions[0]] == [(None, 0, 1.0)]
    assert [(c.node, c.edge, c.grad.item()) for c in acc.contributions[0]] == \
        [(mul.node, 0, 3.0), (mul.node, 1, 3.0)]
    assert not acc.contributions[0][0].grad._data.flags.writeable  # snapshots are read-only


def test_several_outputs_contribute_as_the_start_gradient_from_none():
    x = mg.tensor([1., 2.], requires_grad=True)
    a, b = x * 2, x * 3
    first = next(engine.steps([a.sum(), b.sum()]))
    assert [(c.node, c.grad.item()) for c in first.contributions[0]] == [(None, 1.0)]


# ---------------------------------------------------------------- one schedule
@pytest.mark.parametrize("seed", range(20))
def test_execution_order_is_the_order_steps_run_in(seed):
    leaves, outs, _ = build(mg, seed)
    inputs = leaves[:1] if seed % 2 else None
    planned = engine.execution_order(*outs, inputs=inputs)
    assert [s.node for s in engine.steps(outs, inputs=inputs)] == planned
