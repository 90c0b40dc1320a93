"""The table of local rules (minigrad/autograd/derivatives.py) and Step.contributions."""

from __future__ import annotations

import numpy as np
from op_table import OPS, first_output, sample

import minigrad as mg
from minigrad.autograd import derivatives, engine
from minigrad.autograd.derivatives import RULES, class_name, evaluate, node_classes, rule_for


def test_every_node_class_of_the_core_has_a_rule():
    classes = node_classes()
    assert len(classes) > 80  # the walk found them (a broken walk would pass vacuously)
    missing = [c.__name__ for c in classes
               if not c._custom and class_name(c) not in RULES]
    assert missing == []


def test_the_table_has_no_rule_for_a_node_that_does_not_exist():
    names = {class_name(c) for c in node_classes()}
    assert set(RULES) - names == set()


def test_a_node_class_docstring_is_made_from_its_rule():
    from minigrad._ops.arithmetic import MulBackward0
    from minigrad._ops.unary import SqrtBackward0

    assert "grad_a = grad * b" in MulBackward0.__doc__
    assert "``z = sqrt(a)``" in SqrtBackward0.__doc__
    assert "grad_a = grad / (2 * z)" in SqrtBackward0.__doc__
    assert "_saved_result" in SqrtBackward0.__doc__


def test_the_docstrings_follow_a_change_of_the_table(monkeypatch):
    from minigrad._ops.unary import ExpBackward0

    monkeypatch.setitem(RULES, "ExpBackward0", derivatives._r("z = exp(a)", a="grad * 2"))
    old = ExpBackward0.__doc__
    try:
        derivatives.document_nodes()
        assert "grad_a = grad * 2" in ExpBackward0.__doc__
    finally:
        ExpBackward0.__doc__ = old


def test_every_rule_has_one_entry_per_edge_of_its_node():
    for case in OPS:
        if not case.differentiable:
            continue
        xs = [mg.tensor(a, requires_grad=True) for a in sample(case, np.random.default_rng(0))]
        out = first_output(case.minigrad(*xs))
        for node in engine.execution_order(out.sum()):
            rule = rule_for(node)
            assert rule is not None, node.name()
            if not rule.variadic and node.name() != "torch::autograd::AccumulateGrad":
                assert len(rule.grads) == len(node.next_functions), (case.name, node.name())


def _sum_to(g, shape):
    g = np.asarray(g, dtype=np.float64)
    while g.ndim > len(shape):
        g = g.sum(0)
    axes = tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1)
    return g.sum(axes, keepdims=True) if axes else g


def test_the_rules_compute_what_the_engine_sends_for_every_op_in_the_op_table():
    """Each rule, evaluated by NumPy on the step's saved values, equals the engine's gradient."""
    from minigrad_widgets.explain import read_saved

    checked = set()
    for case in OPS:
        if not case.differentiable:
            continue
        xs = [mg.tensor(a, requires_grad=True) for a in sample(case, np.random.default_rng(1))]
        loss = (first_output(case.minigrad(*xs)) * 1.5).sum()
        order = engine.execution_order(loss)
        saved = {node: read_saved(node) for node in order}  # before backward frees them
        for step in engine.steps(loss):
            rule = rule_for(step.node)
            if rule is None or rule.words or step.is_accumulate or len(step.grads_in) != 1:
                continue
            values = dict(saved[step.node], grad=step.grads_in[0].numpy())
            keys = [k for k in rule.grads if k != "*"]
            for key, sent in zip(keys, step.grads_out):
                if sent is None:
                    continue
                got = evaluate(rule, key, **values)
                np.testing.assert_allclose(_sum_to(got, tuple(sent.shape)), sent.numpy(),
                                           rtol=1e-6, atol=1e-9,
                                           err_msg=f"{case.name}: {step.node.name()} {key}")
                checked.add(step.node.name())
    assert len(checked) >= 40, sorted(checked)


def test_contributions_of_x_times_x_are_the_two_edges_of_one_node():
    x = mg.tensor([1., 2.], requires_grad=True)
    y = x * x
    steps = list(engine.steps(y.sum()))
    leaf = steps[-1]
    (entry,) = leaf.contributions
    assert [(c.node, c.edge) for c in entry] == [(y.grad_fn, 0), (y.grad_fn, 1)]
    np.testing.assert_array_equal(sum(c.grad.numpy() for c in entry), leaf.grads_in[0].numpy())
    (first,) = steps[0].contributions
    assert first[0].node is None and first[0].grad.item() == 1.0


def test_contributions_are_read_only_snapshots():
    x = mg.tensor([1., 2.], requires_grad=True)
    step = list(engine.steps((x * 3).sum()))[-1]
    grad = step.contributions[0][0].grad
    assert not grad.numpy().flags.writeable
