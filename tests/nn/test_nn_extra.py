"""Losses, layers, optimizers and schedulers added for the tutorials, against PyTorch:
values, gradients, node names, printed forms, errors."""

from __future__ import annotations

import warnings

import numpy as np
import op_table
import pytest
from helpers import assert_close, assert_same_outcome

import minigrad as mg

RNG = np.random.default_rng(7)


def both(torch, arrays):
    """(minigrad tensors, torch tensors) of ``arrays``; the float ones require grad."""
    return tuple(reversed(op_table.both(torch, arrays)))


def close(m, t, tol=1e-5):
    assert_close(m, t, rtol=tol, atol=tol)


probs = RNG.uniform(0.01, 0.99, (4, 3)).astype(np.float32)
logits = RNG.normal(size=(4, 3)).astype(np.float32) * 3
labels = (RNG.random((4, 3)) > 0.5).astype(np.float32)
soft = RNG.uniform(0, 1, (4, 3)).astype(np.float32)

LOSSES = [
    ("binary_cross_entropy", (probs, labels), {}),
    ("binary_cross_entropy", (probs, soft), {"reduction": "sum"}),
    ("binary_cross_entropy", (probs, labels), {"reduction": "none"}),
    ("binary_cross_entropy_with_logits", (logits, labels), {}),
    ("binary_cross_entropy_with_logits", (logits, soft), {"reduction": "none"}),
    ("binary_cross_entropy_with_logits", (logits, labels), {"pos_weight": np.float32([1, 2, 3])}),
    ("binary_cross_entropy_with_logits", (logits, labels), {"weight": np.float32([1, 0.5, 2])}),
    ("huber_loss", (logits, soft), {}),
    ("huber_loss", (logits, soft), {"delta": 0.5, "reduction": "sum"}),
    ("smooth_l1_loss", (logits, soft), {}),
    ("smooth_l1_loss", (logits, soft), {"beta": 0.3, "reduction": "none"}),
    ("smooth_l1_loss", (logits, soft), {"beta": 0.0}),
    ("l1_loss", (logits, soft), {}),
]


@pytest.mark.parametrize("name,arrays,kw", LOSSES)
def test_loss_values_gradients_and_node_names_match_torch(torch, name, arrays, kw):
    (mx, my), (tx, ty) = both(torch, arrays)
    mkw = {k: mg.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    tkw = {k: torch.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    m = getattr(mg.nn.functional, name)(mx, my, **mkw)
    t = getattr(torch.nn.functional, name)(tx, ty, **tkw)
    close(m, t)
    assert m.grad_fn.name() == t.grad_fn.name()
    gm = np.linspace(0.5, 1.5, m.numel(), dtype=np.float32).reshape(m.shape)
    m.backward(mg.tensor(gm))
    t.backward(torch.tensor(gm))
    close(mx.grad, tx.grad)
    close(my.grad, ty.grad)


@pytest.mark.parametrize("name", ["binary_cross_entropy_with_logits", "huber_loss",
                                  "binary_cross_entropy"])
def test_loss_second_derivatives_match_torch(torch, name):
    (mx, my), (tx, ty) = both(torch, [probs, soft])
    outs = []
    for lib, x, y in ((mg, mx, my), (torch, tx, ty)):
        loss = getattr(lib.nn.functional, name)(x, y)
        (gx,) = lib.autograd.grad(loss, x, create_graph=True)
        (gx * gx).sum().backward()
        outs.append(x.grad)
    close(*outs, tol=1e-4)


@pytest.mark.parametrize("code", [
    "F.binary_cross_entropy(lib.tensor([1.5]), lib.tensor([1.]))",
    "F.binary_cross_entropy(lib.tensor([.2, .7]), lib.tensor([1., 0., 1.]))",
    "F.binary_cross_entropy(lib.tensor([.2, .7]), lib.tensor([1, 0]))",
    "F.binary_cross_entropy_with_logits(lib.tensor([.2, .7]), lib.tensor([1., 0., 1.]))",
    "F.binary_cross_entropy_with_logits(lib.tensor([.2, .7]), lib.tensor([1, 0]))",
    "F.huber_loss(lib.tensor([.2]), lib.tensor([1.]), delta=0)",
    "F.smooth_l1_loss(lib.tensor([.2]), lib.tensor([1.]), beta=-1)",
    "F.embedding(lib.tensor([5]), lib.ones(3, 2))",
    "F.embedding(lib.tensor([1.]), lib.ones(3, 2))",
    "F.binary_cross_entropy(lib.tensor([.2]), lib.tensor([1.]), reduction='avg')",
    "lib.nn.BatchNorm1d(3)(lib.ones(1, 3))",
    "lib.nn.BatchNorm1d(3)(lib.ones(2, 3, 4, 5))",
    "lib.nn.LayerNorm(3)(lib.ones(2, 4))",
])
def test_errors_match_torch(torch, code):
    assert_same_outcome(torch, code)


@pytest.mark.parametrize("code", [
    "lib.nn.Embedding(10, 3)", "lib.nn.Embedding(10, 3, padding_idx=-1)",
    "lib.nn.LayerNorm(4)", "lib.nn.LayerNorm((2, 3), elementwise_affine=False)",
    "lib.nn.BatchNorm1d(5)", "lib.nn.BatchNorm1d(5, affine=False, momentum=None)",
    "lib.nn.BatchNorm2d(2)", "lib.nn.BCELoss()", "lib.nn.BCEWithLogitsLoss()",
    "lib.nn.HuberLoss(delta=2.0)", "lib.nn.SmoothL1Loss()", "lib.nn.L1Loss()",
    "lib.nn.NLLLoss()", "sorted(lib.nn.BatchNorm1d(2).state_dict())",
    "[n for n, _ in lib.nn.LayerNorm(2).named_parameters()]",
])
def test_module_reprs_and_state_match_torch(torch, code):
    assert repr(eval(code, {"lib": mg})) == repr(eval(code, {"lib": torch}))


def copy_params(m_mod, t_mod, torch):
    t_mod.load_state_dict({k: torch.tensor(v.numpy()) for k, v in m_mod.state_dict().items()})


def test_embedding_lookup_and_gradient_match_torch(torch):
    m = mg.nn.Embedding(6, 3, padding_idx=2)
    t = torch.nn.Embedding(6, 3, padding_idx=2)
    copy_params(m, t, torch)
    idx = np.array([[1, 2, 1], [5, 0, 2]])
    ym, yt = m(mg.tensor(idx)), t(torch.tensor(idx))
    close(ym, yt)
    assert ym.grad_fn.name() == yt.grad_fn.name()
    (ym * ym).sum().backward()
    (yt * yt).sum().backward()
    close(m.weight.grad, t.weight.grad)


@pytest.mark.parametrize("shape,norm", [((4, 5), 5), ((2, 3, 4), (3, 4)), ((3, 4), 4)])
def test_layer_norm_values_and_gradients_match_torch(torch, shape, norm):
    x = RNG.normal(size=shape).astype(np.float32)
    m, t = mg.nn.LayerNorm(norm), torch.nn.LayerNorm(norm)
    with mg.no_grad():
        m.weight.copy_(mg.tensor(RNG.normal(size=m.weight.shape).astype(np.float32)))
    copy_params(m, t, torch)
    (mx,), (tx,) = both(torch, [x])
    ym, yt = m(mx), t(tx)
    close(ym, yt, tol=1e-4)
    w = np.linspace(-1, 1, x.size, dtype=np.float32).reshape(shape)
    (ym * mg.tensor(w)).sum().backward()
    (yt * torch.tensor(w)).sum().backward()
    close(mx.grad, tx.grad, tol=1e-4)
    close(m.weight.grad, t.weight.grad, tol=1e-4)
    close(m.bias.grad, t.bias.grad, tol=1e-4)


@pytest.mark.parametrize("momentum", [0.1, None])
def test_batch_norm_train_and_eval_match_torch(torch, momentum):
    m, t = mg.nn.BatchNorm1d(3, momentum=momentum), torch.nn.BatchNorm1d(3, momentum=momentum)
    for step in range(3):
        x = RNG.normal(size=(5, 3)).astype(np.float32) * (step + 1)
        (mx,), (tx,) = both(torch, [x])
        ym, yt = m(mx), t(tx)
        close(ym, yt, tol=1e-4)
        (ym * ym * mg.tensor(x)).sum().backward()
        (yt * yt * torch.tensor(x)).sum().backward()
        close(mx.grad, tx.grad, tol=1e-3)
    for name in ("running_mean", "running_var", "num_batches_tracked", "weight", "bias"):
        close(getattr(m, name), getattr(t, name), tol=1e-4)
    close(m.weight.grad, t.weight.grad, tol=1e-3)
    m.eval()
    t.eval()
    x = RNG.normal(size=(2, 3, 4)).astype(np.float32)
    close(m(mg.tensor(x)), t(torch.tensor(x)), tol=1e-4)


OPTIMIZERS = [
    ("RMSprop", {}), ("RMSprop", {"momentum": 0.9, "weight_decay": 0.1}),
    ("RMSprop", {"centered": True, "lr": 0.05}), ("RMSprop", {"maximize": True}),
    ("Adagrad", {}), ("Adagrad", {"lr_decay": 0.1, "weight_decay": 0.2,
                                  "initial_accumulator_value": 0.5}),
    ("AdamW", {}), ("AdamW", {"lr": 0.1, "weight_decay": 0.5, "amsgrad": True}),
]


@pytest.mark.parametrize("name,kw", OPTIMIZERS)
def test_optimizer_trajectories_match_torch(torch, name, kw):
    w0 = RNG.normal(size=(3, 2)).astype(np.float32)
    target = RNG.normal(size=(3, 2)).astype(np.float32)
    results = []
    for lib in (mg, torch):
        w = lib.nn.Parameter(lib.tensor(w0))
        opt = getattr(lib.optim, name)([w], **kw)
        for _ in range(5):
            opt.zero_grad()
            ((w - lib.tensor(target)) ** 2).sum().backward()
            opt.step()
        state = opt.state_dict()
        results.append((w.detach().numpy().copy(), repr(state["param_groups"]),
                        sorted(state["state"][0])))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5, atol=1e-6)
    assert results[0][1:] == results[1][1:]


@pytest.mark.parametrize("name,kw", [("StepLR", {"step_size": 2, "gamma": 0.5}),
                                     ("MultiStepLR", {"milestones": [1, 3]}),
                                     ("ExponentialLR", {"gamma": 0.9})])
def test_schedulers_set_the_learning_rates_torch_sets(torch, name, kw):
    def lrs(lib):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kw)
        out = [sched.get_last_lr()]
        for _ in range(5):
            opt.step()
            sched.step()
            out.append(sched.get_last_lr() + [opt.param_groups[0]["lr"]])
        return out, sorted(opt.param_groups[0])

    m, t = lrs(mg), lrs(torch)
    assert m == t  # bit for bit: PyTorch multiplies the current lr by gamma at each decay


@pytest.mark.parametrize("name,kw", [("StepLR", {"step_size": 2, "gamma": 0.3}),
                                     ("MultiStepLR", {"milestones": [1, 3, 3], "gamma": 0.3}),
                                     ("ExponentialLR", {"gamma": 0.3})])
def test_schedulers_chain_from_the_current_lr_and_use_the_closed_form_for_an_epoch(torch, name,
                                                                                    kw):
    def lrs(lib):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kw)
        out = []
        for i in range(5):
            if i == 2:
                opt.param_groups[0]["lr"] = 0.7  # a learner's own change is kept and decayed
            opt.step()
            sched.step()
            out.append(opt.param_groups[0]["lr"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # step(epoch) is deprecated in PyTorch
            sched.step(4)
        out.append(opt.param_groups[0]["lr"])
        return out

    assert lrs(mg) == lrs(torch)
