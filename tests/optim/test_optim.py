"""optim.SGD, optim.Adam and the Optimizer base, differentially against PyTorch 2.13."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import both_raise, norm

import minigrad as mg

pytestmark = pytest.mark.torch


def params(lib, seed=0, shapes=((3, 2), (2,))):
    rng = np.random.default_rng(seed)
    return [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(np.float32)))
            for s in shapes]


def run_steps(lib, make_opt, n_steps=6, seed=0, shapes=((3, 2), (2,))):
    """Params and optimizer state after each of ``n_steps`` steps on fixed fake gradients."""
    ps = params(lib, seed, shapes)
    opt = make_opt(lib, ps)
    rng = np.random.default_rng(seed + 1)
    history = []
    for _ in range(n_steps):
        for p in ps:
            p.grad = lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32))
        opt.step()
        history.append([p.detach().numpy().copy() for p in ps])
    return history, opt, ps


def state_arrays(opt, ps):
    out = []
    for p in ps:
        for key, value in sorted(opt.state[p].items()):
            out.append((key, np.asarray(value.detach().numpy() if hasattr(value, "detach")
                                        else value, dtype=np.float64)))
    return out


def same_run(torch, make_opt, tol=1e-5, shapes=((3, 2), (2,))):
    mine, mopt, mps = run_steps(mg, make_opt, shapes=shapes)
    theirs, topt, tps = run_steps(torch, make_opt, shapes=shapes)
    for a, b in zip(mine, theirs):
        for x, y in zip(a, b):
            np.testing.assert_allclose(x, y, rtol=tol, atol=tol)
    ms, ts = state_arrays(mopt, mps), state_arrays(topt, tps)
    assert [k for k, _ in ms] == [k for k, _ in ts]
    for (_, x), (_, y) in zip(ms, ts):
        np.testing.assert_allclose(x, y, rtol=tol, atol=tol)


SGD_CASES = [
    dict(lr=0.1),
    dict(lr=0.1, momentum=0.9),
    dict(lr=0.05, momentum=0.9, dampening=0.3),
    dict(lr=0.1, momentum=0.8, nesterov=True),
    dict(lr=0.1, weight_decay=0.01),
    dict(lr=0.1, momentum=0.9, weight_decay=0.1, nesterov=True),
    dict(lr=0.1, momentum=0.5, maximize=True),
    dict(),
]


@pytest.mark.parametrize("kwargs", SGD_CASES, ids=str)
def test_sgd_updates_match_torch(torch, kwargs):
    same_run(torch, lambda lib, ps: lib.optim.SGD(ps, **kwargs))


@pytest.mark.parametrize("kwargs", SGD_CASES, ids=str)
def test_sgd_updates_are_torch_s_bits(torch, kwargs):
    """Every add with alpha in PyTorch's SGD (weight decay, momentum, Nesterov, the update
    itself) is one fused multiply-add on the CPU: with NumPy's two roundings about one float32
    element in ten differed in its last bit."""
    same_run(torch, lambda lib, ps: lib.optim.SGD(ps, **kwargs), tol=0,
             shapes=((32, 16), (16,), (5,)))


ADAM_CASES = [
    dict(),
    dict(lr=0.01),
    dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6),
    dict(lr=0.01, weight_decay=0.1),
    dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True),
    dict(lr=0.01, amsgrad=True),
    dict(lr=0.01, maximize=True, amsgrad=True, weight_decay=0.01),
]


@pytest.mark.parametrize("kwargs", ADAM_CASES, ids=str)
def test_adam_updates_match_torch(torch, kwargs):
    same_run(torch, lambda lib, ps: lib.optim.Adam(ps, **kwargs))


def test_step_bumps_the_parameter_version_like_torch(torch):
    for make in (lambda lib, ps: lib.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.1),
                 lambda lib, ps: lib.optim.Adam(ps, weight_decay=0.1),
                 lambda lib, ps: lib.optim.Adam(ps, weight_decay=0.1,
                                                decoupled_weight_decay=True)):
        versions = []
        for lib in (mg, torch):
            ps = params(lib)
            opt = make(lib, ps)
            for p in ps:
                p.grad = lib.ones_like(p)
            before = ps[0]._version
            opt.step()
            versions.append(ps[0]._version - before)
        assert versions[0] == versions[1]


def test_parameters_without_grad_are_left_alone(torch):
    for lib in (mg, torch):
        ps = params(lib)
        before = ps[1].detach().numpy().copy()
        opt = lib.optim.Adam(ps, lr=0.1)
        ps[0].grad = lib.ones_like(ps[0])
        opt.step()
        assert np.array_equal(ps[1].detach().numpy(), before)
        assert len(opt.state) == 1 and ps[1] not in opt.state


def test_step_after_an_update_invalidates_graphs_that_saved_the_parameter(torch):
    def stale(lib):
        (w,) = params(lib, shapes=((2,),))
        y = (w * w).sum()
        w.grad = lib.ones_like(w)
        lib.optim.SGD([w], lr=0.1).step()
        y.backward()

    both_raise(torch, stale)


def test_closure_is_called_with_grad_enabled_and_its_loss_returned(torch):
    for lib in (mg, torch):
        (w,) = params(lib, shapes=((2,),))
        opt = lib.optim.SGD([w], lr=0.1)

        def closure(w=w, opt=opt, lib=lib):
            opt.zero_grad()
            loss = (w * w).sum()
            loss.backward()
            return loss

        with lib.no_grad():
            loss = opt.step(closure)
        assert loss.grad_fn is not None and opt.step() is None


@pytest.mark.parametrize("build", [
    lambda lib: lib.optim.SGD(params(lib), lr=-1),
    lambda lib: lib.optim.SGD(params(lib), lr=0.1, momentum=-1),
    lambda lib: lib.optim.SGD(params(lib), lr=0.1, weight_decay=-1),
    lambda lib: lib.optim.SGD(params(lib), lr=0.1, nesterov=True),
    lambda lib: lib.optim.SGD(params(lib), lr=0.1, momentum=0.9, dampening=0.1,
                              nesterov=True),
    lambda lib: lib.optim.Adam(params(lib), lr=-1),
    lambda lib: lib.optim.Adam(params(lib), eps=-1),
    lambda lib: lib.optim.Adam(params(lib), betas=(1.0, 0.9)),
    lambda lib: lib.optim.Adam(params(lib), betas=(-0.1, 0.9)),
    lambda lib: lib.optim.Adam(params(lib), betas=(0.9, -0.1)),
    lambda lib: lib.optim.Adam(params(lib), weight_decay=-1),
    lambda lib: lib.optim.SGD([], lr=0.1),
    lambda lib: lib.optim.SGD(lib.zeros(2, requires_grad=True), lr=0.1),
    lambda lib: lib.optim.SGD([lib.zeros(2, requires_grad=True) * 2], lr=0.1),
    lambda lib: lib.optim.SGD([1], lr=0.1),
    lambda lib: lib.optim.SGD({"params": params(lib)}, lr=0.1),
    lambda lib: lib.optim.SGD([{"params": set(params(lib))}], lr=0.1),
    lambda lib: lib.optim.SGD(params(lib), lr=0.1).add_param_group(params(lib)),
], ids=lambda f: "")
def test_bad_arguments_raise_like_torch(torch, build):
    both_raise(torch, build)


def test_a_parameter_in_two_groups_raises_and_a_duplicate_warns(torch):
    def two_groups(lib):
        ps = params(lib)
        opt = lib.optim.SGD(ps, lr=0.1)
        opt.add_param_group({"params": ps[:1]})

    both_raise(torch, two_groups)
    for lib in (mg, torch):
        (w,) = params(lib, shapes=((2,),))
        with pytest.warns(UserWarning) as record:
            lib.optim.SGD([w, w], lr=0.1)
        assert "duplicate parameters" in str(record[0].message)


def test_param_groups_defaults_and_repr_match_torch(torch):
    def build(lib):
        a, b, c = params(lib, shapes=((2,), (3,), (1,)))
        opt = lib.optim.SGD([{"params": [a]}, {"params": b, "lr": 1}], lr=0.1, momentum=0.9)
        opt.add_param_group({"params": [c], "weight_decay": 0.5})
        return opt

    mopt, topt = build(mg), build(torch)
    assert repr(mopt) == repr(topt)
    assert mopt.defaults == topt.defaults
    for mgroup, tgroup in zip(mopt.param_groups, topt.param_groups):
        assert list(mgroup) == list(tgroup)
        assert {k: v for k, v in mgroup.items() if k != "params"} == \
            {k: v for k, v in tgroup.items() if k != "params"}
    madam, tadam = mg.optim.Adam(params(mg)), torch.optim.Adam(params(torch))
    assert repr(madam) == repr(tadam) and madam.defaults == tadam.defaults
    assert list(madam.param_groups[0]) == list(tadam.param_groups[0])


def test_zero_grad_sets_grads_to_none_or_zero(torch):
    for lib in (mg, torch):
        ps = params(lib)
        opt = lib.optim.SGD(ps, lr=0.1)
        for p in ps:
            p.grad = lib.ones_like(p)
        opt.zero_grad(set_to_none=False)
        assert all(not p.grad.detach().numpy().any() for p in ps)
        opt.zero_grad()
        assert all(p.grad is None for p in ps)


def test_state_dict_structure_matches_torch(torch):
    for make in (lambda lib, ps: lib.optim.SGD(ps, lr=0.1, momentum=0.9),
                 lambda lib, ps: lib.optim.SGD(ps, lr=0.1),
                 lambda lib, ps: lib.optim.Adam(ps, amsgrad=True)):
        _, mopt, _ = run_steps(mg, make, n_steps=2)
        _, topt, _ = run_steps(torch, make, n_steps=2)
        msd, tsd = mopt.state_dict(), topt.state_dict()
        assert msd["param_groups"] == tsd["param_groups"]
        assert list(msd["state"]) == list(tsd["state"])
        for i in msd["state"]:
            assert list(msd["state"][i]) == list(tsd["state"][i])
            for key, value in msd["state"][i].items():
                assert repr(value.dtype) == norm(repr(tsd["state"][i][key].dtype))
                np.testing.assert_allclose(value.numpy(), tsd["state"][i][key].numpy(),
                                           rtol=1e-5, atol=1e-6)


def test_load_state_dict_restores_a_run_exactly():
    def make(lib, ps):
        return lib.optim.Adam(ps, lr=0.01)

    straight, _, _ = run_steps(mg, make, n_steps=4)
    history, opt, ps = run_steps(mg, make, n_steps=2)
    saved = opt.state_dict()
    fresh = make(mg, ps)
    fresh.load_state_dict(saved)
    assert fresh.state[ps[0]]["exp_avg"] is not opt.state[ps[0]]["exp_avg"]
    rng = np.random.default_rng(1)
    for _ in range(2):  # replay the first two steps' gradients to stay in sync
        for p in ps:
            rng.standard_normal(tuple(p.shape))
    for _ in range(2):
        for p in ps:
            p.grad = mg.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32))
        fresh.step()
    for x, y in zip(ps, straight[-1]):
        np.testing.assert_array_equal(x.detach().numpy(), y)


def test_load_state_dict_with_a_different_layout_raises_like_torch(torch):
    def more_groups(lib):
        opt = lib.optim.SGD(params(lib), lr=0.1)
        sd = opt.state_dict()
        sd["param_groups"].append(sd["param_groups"][0])
        opt.load_state_dict(sd)

    def fewer_params(lib):
        opt = lib.optim.SGD(params(lib), lr=0.1)
        sd = opt.state_dict()
        sd["param_groups"][0]["params"] = [0]
        opt.load_state_dict(sd)

    both_raise(torch, more_groups)
    both_raise(torch, fewer_params)


# ---------------------------------------------------------------- training a network
def _mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))


def _train(lib, model, make_opt, x, y, n_steps):
    opt = make_opt(lib, model.parameters())
    loss_fn = lib.nn.CrossEntropyLoss()
    losses, snapshots = [], []
    for _ in range(n_steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        snapshots.append({k: v.numpy().copy() for k, v in model.state_dict().items()})
    return losses, snapshots


@pytest.mark.parametrize("make_opt", [
    lambda lib, ps: lib.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=1e-4),
    lambda lib, ps: lib.optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True),
    lambda lib, ps: lib.optim.Adam(ps, lr=1e-3),
    lambda lib, ps: lib.optim.Adam(ps, lr=1e-3, weight_decay=1e-2, amsgrad=True),
], ids=["sgd-momentum-wd", "sgd-nesterov", "adam", "adam-wd-amsgrad"])
def test_training_an_mlp_follows_torch_step_by_step(torch, make_opt):
    rng = np.random.default_rng(0)
    xa = rng.standard_normal((64, 64)).astype(np.float32)
    ya = rng.integers(0, 10, 64)
    model, tmodel = _mlp(mg), _mlp(torch)
    tmodel.load_state_dict({k: torch.tensor(v.numpy()) for k, v in model.state_dict().items()})
    assert repr(model) == repr(tmodel)
    losses, snaps = _train(mg, model, make_opt, mg.tensor(xa), mg.tensor(ya), 8)
    tlosses, tsnaps = _train(torch, tmodel, make_opt, torch.tensor(xa), torch.tensor(ya), 8)
    np.testing.assert_allclose(losses, tlosses, rtol=1e-5)
    assert losses[-1] < losses[0]
    for snap, tsnap in zip(snaps, tsnaps):
        assert list(snap) == list(tsnap)
        for key in snap:
            np.testing.assert_allclose(snap[key], tsnap[key], rtol=1e-4, atol=1e-6)


def test_a_tutorial_training_loop_runs_unchanged():
    import minigrad as torch
    from minigrad import nn, optim

    torch.manual_seed(0)
    x = torch.randn(32, 2)
    y = (x[:, 0] * x[:, 1] > 0).long()
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    optimizer = optim.Adam(model.parameters(), lr=0.05)
    criterion = nn.CrossEntropyLoss()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = None
        for _epoch in range(60):
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            first = loss.item() if first is None else first
        model.eval()
        with torch.no_grad():
            accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
    assert loss.item() < first / 2 and accuracy > 0.8


_STEP = """
{setup}
opt = {opt}
try:
    opt.step()
    out = ("ok", p.detach().numpy().tolist())
except RuntimeError as e:
    out = ("RuntimeError", str(e))
out = (out, sorted(opt.state[p]), p._version)
"""
_EXPANDED = "p = lib.tensor([2.0546417]).expand(3).requires_grad_()\np.sum().backward()"


@pytest.mark.parametrize("opt", [
    "lib.optim.SGD([p], lr=0.1)", "lib.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True)",
    "lib.optim.SGD([p], lr=0.1, weight_decay=0.1)", "lib.optim.Adam([p], lr=0.1)",
    "lib.optim.AdamW([p], lr=0.1)", "lib.optim.RMSprop([p], lr=0.1)",
    "lib.optim.RMSprop([p], lr=0.1, momentum=0.5)", "lib.optim.Adagrad([p], lr=0.1)"])
def test_step_on_an_expanded_parameter_is_refused_as_in_pytorch(torch, opt):
    """A parameter whose elements share memory (``expand``) cannot be updated in place:
    PyTorch's RuntimeError, at the same point (the state made so far is kept)."""
    fields = {"setup": _EXPANDED, "opt": opt}
    assert _step_outcome(mg, **fields) == _step_outcome(torch, **fields)


def _step_outcome(lib, **fields):
    """``out`` of the snippet ``_STEP`` (filled with ``fields``) run with ``lib``."""
    ns = {"lib": lib}
    exec(_STEP.format(**fields), ns)  # noqa: S102 - the tests' own snippets
    return ns["out"]


_RESHAPED = "p = lib.tensor([[0.]], requires_grad=True)\np.sum().backward()\np.data = lib.tensor({})"


@pytest.mark.parametrize("data", ["1.5", "[[1.5, 2.5]]", "[[[1.5]], [[2.5]]]"])
@pytest.mark.parametrize("opt", ["lib.optim.SGD([p], lr=0.1)", "lib.optim.Adam([p], lr=0.1)",
                                 "lib.optim.RMSprop([p], lr=0.1)", "lib.optim.Adagrad([p])"])
def test_step_after_data_changed_the_shape_as_in_pytorch(torch, opt, data):
    """``p.data = t`` of another shape, then a step with the old gradient: PyTorch's error
    where the gradient does not broadcast to the parameter, the update where it does."""
    fields = {"setup": _RESHAPED.format(data), "opt": opt}
    assert _step_outcome(mg, **fields) == _step_outcome(torch, **fields)
