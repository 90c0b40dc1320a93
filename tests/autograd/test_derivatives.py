"""The local rules (declared by each node class, collected in minigrad/autograd/derivatives.py)
and Step.contributions."""

from __future__ import annotations

import re

import numpy as np
from op_table import OPS, first_output, sample  # tests/ops, on the path by tests/conftest.py

import minigrad as mg
from minigrad.autograd import derivatives, engine
from minigrad.autograd.derivatives import RULES, class_name, node_classes, rule_for
from minigrad.autograd.evaluate import evaluate


def test_every_node_class_of_the_core_has_a_rule():
    classes = node_classes()
    assert len(classes) > 80  # the walk found them (a broken walk would pass vacuously)
    missing = [c.__name__ for c in classes
               if not c._custom and class_name(c) not in RULES]
    assert missing == []


def test_the_table_has_no_rule_for_a_node_that_does_not_exist():
    names = {class_name(c) for c in node_classes()}
    assert set(RULES) - names == set()


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


def _op_table_losses(seed: int) -> list:
    losses = []
    for case in OPS:
        if case.differentiable:
            xs = [mg.tensor(a, requires_grad=True) for a in sample(case, np.random.default_rng(seed))]
            losses.append((first_output(case.minigrad(*xs)) * 1.5).sum())
    return losses


def test_the_rules_compute_what_the_engine_sends_for_every_node_type():
    """Each rule, evaluated by NumPy on the step's saved values, equals the engine's gradient."""
    from minigrad_widgets.explain import read_saved

    checked = set()
    for loss in _op_table_losses(1) + _extra_graphs():
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
                                           err_msg=f"{step.node.name()} {key}")
                checked.add(step.node.name())
    evaluable = {name for name, rule in RULES.items() if not rule.words}
    assert evaluable - checked == set()


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


# ---------------------------------------------------------------- every node type on screen
def _extra_graphs():
    """A loss for each node type the op table does not make (one graph may make several)."""
    from minigrad._ops.arithmetic import add_number, div_by_number, mul_by_number, sub_number

    def x():
        return mg.tensor(np.arange(1., 7.).reshape(2, 3), requires_grad=True)

    def v():
        return mg.tensor(5., requires_grad=True)

    def grad_of(f):
        z = mg.tensor([1., 2., 3.], requires_grad=True)
        return mg.autograd.grad(f(z), z, create_graph=True)[0]

    F = mg.nn.functional
    a, b = x(), mg.tensor(np.arange(1., 7.).reshape(2, 3) * 1.5, requires_grad=True)
    made = [a[...], (a * 1).fill_(2.), (a * 1).fill_(v()), a.masked_fill(a > 3, 0.),
            a.index_fill(1, mg.tensor([0, 2]), 2.), a.index_fill(0, mg.tensor([1]), v()),
            a.masked_fill(a > 3, v()), F.mse_loss(a, b), F.mse_loss(a, b, reduction="sum"),
            a.permute(1, 0), a.t().reshape(3, 2), a.unsqueeze(0).squeeze(),
            a.unsqueeze(0).squeeze(0), a.unsqueeze(0).squeeze((0,)), a.to(mg.float32),
            (a * 1).t_(), (a * 1).transpose_(0, 1), (a * 1).unsqueeze_(0).squeeze_(),
            (a * 1).unsqueeze_(0).squeeze_((0,)),
            mg.where(a > 3, a, b), (a * 1).zero_(), (a * 1).copy_(b), mul_by_number(a, 3),
            div_by_number(a, 4), mg.cat([a, b]), mg.stack([a, b]), a.split(1)[0],
            a.split([1, 1])[1], a.unbind()[0], a[0], a[:, 1:], a[mg.tensor([0, 0])],
            (a * 1).index_put_((mg.tensor([0]),), b[0]), F.nll_loss(a, mg.tensor([0, 2])),
            F.nll_loss(mg.ones(1, 3, 2, 2, requires_grad=True), mg.tensor([[[0, 1], [2, 0]]])),
            grad_of(lambda z: z[1] * z[1]), grad_of(lambda z: (z[1:] ** 2).sum()),
            grad_of(lambda z: (z[mg.tensor([0, 1])] ** 2).sum()), add_number(a, 2),
            sub_number(a, 2), grad_of(lambda z: z.sigmoid().sum()),
            grad_of(lambda z: z.tanh().sum()), grad_of(lambda z: (z - 2).relu().sum()),
            mg.div(a, b, rounding_mode="floor"), mg.div(a, b, rounding_mode=None), grad_of(lambda z: (z.softmax(0) * z).sum()),
            grad_of(lambda z: (z.log_softmax(0) * z).sum()),
            grad_of(lambda z: (z.expand(3, 3).diagonal() ** 2).sum()),
            grad_of(lambda z: F.nll_loss(z.reshape(1, 3), mg.tensor([1]))),
            grad_of(lambda z: F.mse_loss(z, z.flip(0) * 2)),
            grad_of(lambda z: F.huber_loss(z, z.flip(0) * 2, reduction="sum", delta=1.5)),
            grad_of(lambda z: F.smooth_l1_loss(z, z.flip(0) * 2, reduction="none", beta=1.5)
                    .sum()),
            grad_of(lambda z: F.binary_cross_entropy((z / 4).sigmoid(), (z / 5).sigmoid(),
                                                     weight=mg.tensor([1., 2., 3.]))),
            grad_of(lambda z: (z.sort()[0] ** 2).sum()),
            grad_of(lambda z: (F.embedding(mg.tensor([0, 0]), z.reshape(3, 1)) ** 2).sum()),
            grad_of(lambda z: F.nll_loss(z.reshape(1, 3, 1, 1), mg.tensor([[[2]]]))),
            grad_of(lambda z: (F.conv2d(z.reshape(1, 1, 1, 3), mg.ones(2, 1, 1, 2)) ** 2).sum()),
            grad_of(lambda z: (F.layer_norm(z.reshape(1, 3), (3,), z * 0.5)
                               * mg.tensor([1., 2., 4.])).sum()),
            grad_of(lambda z: (F.max_pool2d(z.reshape(1, 1, 1, 3), (1, 2), 1) ** 2).sum()),
            grad_of(lambda z: (F.avg_pool2d(z.reshape(1, 1, 1, 3), (1, 2), 1) ** 2).sum()),
            grad_of(lambda z: (F.adaptive_avg_pool2d(z.reshape(1, 1, 1, 3), (1, 2)) ** 2)
                    .sum())] + [
            grad_of(lambda z, f=f: (f(z - 2) ** 2).sum()) for f in (
                lambda t: F.leaky_relu(t, 0.2), lambda t: F.hardtanh(t, -0.5, 0.5), F.elu,
                lambda t: F.celu(t, 2.0), F.gelu, F.softplus, F.logsigmoid, F.hardswish,
                lambda t: F.leaky_relu(t * 1, 0.2, True), lambda t: F.threshold(t, 0.5, 2.0),
                lambda t: F.batch_norm(t.reshape(3, 1) * t.reshape(1, 3), None, None,
                                       training=True),
                lambda t: F.prelu((t - 2).reshape(1, 3), t[:1] * 0.5))]
    c = a * 1
    c[0].mul_(2)
    d = a * 1
    view = d[0]
    d.mul_(2)
    return [m.sum() for m in made] + [c.sum(), view.sum(), (a + MulTwo.apply(a)).sum()] + \
        [(m * 1.5).sum() for m in _more_graphs()]


def _more_graphs(mg=mg):
    """The node types of the ops added later (rounding, trigonometric, binary functions, scans,
    statistics, shapes, random sampling, losses), each at least once; ``mg``: minigrad, or
    PyTorch for the same graphs there."""
    def x(scale=1., shift=0.):
        return mg.tensor(np.arange(1., 7.).reshape(2, 3) * scale + shift, requires_grad=True)

    F = mg.nn.functional
    a, b, c, s = x(), x(1.5), x(1., -3.5), x(0.13)  # c has both signs; s is in (0, 1)
    rows = mg.tensor(np.array([[0.2, 0.7, 0.4], [0.9, 0.1, 0.5]]), requires_grad=True)
    made = [op(a) for op in (mg.floor, mg.ceil, mg.trunc, mg.round, mg.sign, mg.sgn, mg.frac,
                             mg.nan_to_num, mg.log1p, mg.expm1, mg.log2, mg.log10, mg.atan,
                             mg.sinh, mg.cosh, mg.rsqrt)]
    made += [op(s) for op in (mg.tan, mg.asin, mg.acos, mg.erf, mg.erfc)]
    made += [a.round(decimals=1), a % 2.5, mg.remainder(a * 3.7, b), mg.fmod(c, 2.5),
             mg.fmod(a * 3.7, b), mg.atan2(a, c), mg.hypot(a, c), mg.xlogy(c, b), mg.xlogy(2.5, b), mg.xlogy(c, -2), mg.rsub(a, c, alpha=2),
             mg.fmax(a, c), mg.fmin(a, c), mg.lerp(a, b, 0.3), mg.lerp(a, b, s),
             mg.addcmul(a, b, c, value=2), mg.addcdiv(a, c, b, value=2), a.cumsum(1),
             c.cumprod(1), a.var(1), c.var(), a.std(0), a.logsumexp(1), c.sort(1)[0],
             _sum(*mg.var_mean(c, 1)), _sum(*mg.std_mean(a, 0, keepdim=True)),
             c.topk(2)[0], c.median(), c.median(1)[0], a.flip(1), a.roll(1, 1), a.roll(2),
             a.repeat(2, 1, 2), a.tril(), a.triu(1), a.diagonal(), mg.diag(a), mg.diag(a[0], 1),
             a.masked_select(a > 2), mg.einsum("ij,kj->ik", a, c), (a * 1).fill_diagonal_(0.),
             (a * 1).normal_(), (a * 1).uniform_(), (a * 1).bernoulli_(0.5),
             (a * 1).random_(0, 3), (a * 1).exponential_(), mg.normal(a, 1.), mg.normal(0., a),
             mg.normal(a, b), mg.poisson(a), F.binary_cross_entropy(s, rows), F.binary_cross_entropy(
                 rows, s, weight=b.detach(), reduction="sum"),
             F.binary_cross_entropy_with_logits(c, rows),
             F.binary_cross_entropy_with_logits(c, rows, weight=s.detach(), pos_weight=b.detach()),
             F.huber_loss(a, c), F.huber_loss(a, c, delta=2., reduction="none"),
             F.smooth_l1_loss(a, c, beta=2.), F.smooth_l1_loss(c, a, beta=0., reduction="sum"),
             F.embedding(mg.tensor([1, 0, 1]), b, padding_idx=0),
             F.embedding(mg.tensor([[1, 0], [1, 1]]), b),
             F.layer_norm(c, (3,), a[0], s[1]), F.layer_norm(c * a, (2, 3))]
    made += [a.gather(1, mg.tensor([[2, 0], [1, 1]])), a.index_select(1, mg.tensor([2, 0, 2])),
             a.scatter(1, mg.tensor([[2], [0]]), 0.5), a.scatter(1, mg.tensor([[2, 0], [1, 2]]),
                                                                  b[:, :2]),
             a.scatter_add(0, mg.tensor([[1, 1, 0]]), b[:1]),
             a.index_add(1, mg.tensor([2, 2]), b[:, :2], alpha=2)]
    return made + _layer_graphs(mg, a, b, c, s)


def _layer_graphs(mg, a, b, c, s):
    """The activations and the layers of a first CNN (conv, pooling, padding, batch norm),
    each node type once; in-place activations on a non-leaf copy."""
    F = mg.nn.functional
    image = a.reshape(1, 1, 2, 3)
    made = [F.leaky_relu(c, 0.2), F.elu(c, 0.7), F.selu(c), F.celu(c, 1.5), F.gelu(c),
            F.gelu(c, approximate="tanh"), F.silu(c), F.softplus(c, 2, 4),
            F.hardtanh(c, -2.2, 2.2), F.logsigmoid(c), F.mish(c), F.hardswish(c),
            F.hardsigmoid(c), F.leaky_relu(c * 1, 0.2, inplace=True),
            F.elu(c * 1, inplace=True), F.celu(c * 1, 2.0, inplace=True),
            F.conv2d(image, b.reshape(1, 1, 2, 3)[..., :2], s[0, :1], padding=(0, 1)),
            F.max_pool2d(image, (1, 2), 1), F.avg_pool2d(image, (2, 2), 1),
            F.adaptive_avg_pool2d(image, (1, 2)), F.pad(a, (1, 2)),
            F.batch_norm(c.reshape(2, 3, 1), None, None, a[0], s[1], training=True),
            F.threshold(c, 0.3, 20.0), F.prelu(c.reshape(2, 3, 1), s[0]),
            F.group_norm(c.reshape(1, 6) * a.reshape(1, 6), 2, s.reshape(6), a.reshape(6)),
            F.prelu(c, s[1, :1])]
    return made


def _sum(v, m):
    """Both outputs of a two-output node (var_mean, std_mean) in one tensor."""
    return v + m


class MulTwo(mg.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


def _shape(formula: str) -> str:
    """``formula`` with each name (not an attribute or method) replaced by a placeholder in
    order of appearance: ``loss = self.sum()`` and ``z = a.sum()`` have one shape."""
    names: dict = {}
    formula = formula.split("  ")[0]  # (not the words after it: "(a view of ...)")
    return re.sub(r"(?<![.\w])[A-Za-z_]\w*(?:\[\d+\])?(?!\w*\()",
                  lambda m: names.setdefault(m.group(), f"v{len(names)}"), formula)


def _sent(rule: list, custom: bool) -> list:
    """The value each gradient line of a panel's rule ends with: the last one of its line, or
    of the indented line under it that sums a broadcast down; "None" for an input the panel
    says needs no gradient. (Indented lines also show where it goes and any scaling.)"""
    values = []
    for line in rule[1:]:
        if line.startswith("where "):
            continue
        if line.startswith(" "):
            if line.lstrip().startswith("summed over"):
                values[-1] = line.rsplit(" = ", 1)[-1]
            continue
        values.append("None" if ": not needed" in line else
                      line.rsplit(": " if custom else " = ", 1)[-1])
    return values


def test_every_node_type_shows_its_rule_with_the_engines_numbers_on_the_panel():
    from minigrad_widgets import BackwardStepper
    from minigrad_widgets.explain import _show

    shown = set()
    for loss in _extra_graphs() + _op_table_losses(3):
        stepper = BackwardStepper(loss)
        while stepper.step_index < stepper.total_steps:
            stepper.step()
            rec = stepper._log.records[stepper.step_index - 1]
            if rec.acc is not None:
                continue
            rule = [s for s in stepper.panel["sections"] if s["kind"] == "rule"][0]["lines"]
            expected = rule_for(rec.node)
            # (the panel names the operands as the learner knows them: loss = self.sum() for
            # the table's z = a.sum(); the formula's shape is the table's)
            assert _shape(rule[0]) == _shape(
                expected.forward if expected is not derivatives.CUSTOM else
                "MulTwo.backward: your backward computed these gradients"), (rule[0], expected)
            assert _sent(rule, expected is derivatives.CUSTOM) == \
                [_show(g) for g in rec.grads_out], (rec.name, rule)
            shown.add(rec.name if expected is not derivatives.CUSTOM else "custom")
    names = {class_name(c) for c in node_classes() if not c._custom} | {"custom"}
    never_a_step = {"torch::autograd::GraphRoot", "torch::autograd::Error",
                    "torch::autograd::AccumulateGrad",  # (a leaf's step has its own block)
                    "torch::autograd::NotImplemented",  # floor_divide's: its backward raises
                    "Unique2Backward0", "UniqueDimBackward0",  # unique's too
                    "UniqueConsecutiveBackward0"}
    assert names - shown == never_a_step


def test_the_rules_compute_what_pytorch_sends_for_the_new_node_types(torch):
    """The stepper shows the same rules for PyTorch's nodes, with PyTorch's saved values: each
    evaluable rule of the graphs above, on PyTorch's node, equals what that node sends."""
    from minigrad_widgets.explain import read_saved

    checked = set()
    for out in _more_graphs(torch):
        node, rule = out.grad_fn, rule_for(out.grad_fn)
        if rule is None or rule.words:
            continue
        grad = torch.linspace(-1., 2., out.numel(), dtype=out.dtype).reshape(out.shape)
        sent = node(grad)
        sent = sent if isinstance(sent, tuple) else (sent,)
        values = dict(read_saved(node), grad=grad.numpy())
        keys = [k for k in rule.grads if k != "*"]
        assert len(keys) == len(node.next_functions), node.name()
        for key, s, (fn, _) in zip(keys, sent, node.next_functions):
            if fn is None or s is None:
                continue
            np.testing.assert_allclose(_sum_to(evaluate(rule, key, **values), tuple(s.shape)),
                                       s.detach().numpy(force=True), rtol=1e-6, atol=1e-9,
                                       err_msg=f"{node.name()} {key}")
            checked.add(node.name())
    assert len(checked) > 55, sorted(checked)


def test_check_all_agrees_with_the_forward_of_every_new_node_type():
    """``check="all"`` differentiates a rule's forward numerically: for these graphs it runs
    (a forward NumPy cannot evaluate is skipped, not a crash) and finds no disagreement."""
    from minigrad_widgets import BackwardStepper

    checked = set()
    for m in _more_graphs():
        stepper = BackwardStepper((m * 1.5).sum(), check="all")
        while stepper.step_index < stepper.total_steps:
            stepper.step()
        for rec in stepper._log.records:
            if rec.acc is None and rec.check and rec.check.get("how") == "fd":
                assert rec.check["ok"], (rec.name, rec.check)
                checked.add(rec.name)
    assert {"HypotBackward0", "RemainderBackward1", "LerpBackward1", "SinhBackward0"} <= checked


def test_a_rule_gives_nan_and_inf_without_numpy_warnings():
    """The chain-rule panel evaluates rules on the learner's values: log of a negative base (the
    exponent's gradient of a ** b) is NaN, as the engine sends it, with no RuntimeWarning."""
    import warnings

    from minigrad_widgets.explain import read_saved

    a = mg.tensor([-2.0, 4.0], requires_grad=True)
    b = mg.tensor([0.5, 0.5], requires_grad=True)
    node = (a ** b).grad_fn
    values = dict(read_saved(node), grad=np.ones(2, np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = evaluate(rule_for(node), "b", **values)
    assert np.isnan(got[0]) and got[1] == np.float32(2 * np.log(4))
