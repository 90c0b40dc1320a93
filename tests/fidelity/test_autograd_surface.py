"""torch.autograd.Variable, torch.autograd.functional, register_multi_grad_hook, _is_view:
against PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

X = np.array([1.0, 2.0, -0.5], dtype=np.float32)
Y = np.array([0.5, -1.0, 3.0], dtype=np.float32)
V = np.array([1.0, -2.0, 0.5], dtype=np.float32)

FUNCS = {
    "cube": lambda a: a ** 3,
    "mix": lambda a: (a * a).sum() * a + a.exp(),
    "reduce": lambda a: (a.sin() * a).sum(),
    "matrix": lambda a: a.reshape(3, 1) * a.reshape(1, 3),
}


def flat(out):
    if isinstance(out, tuple):
        return [flat(o) for o in out]
    return (tuple(out.shape), np.round(out.detach().numpy().astype(np.float64), 4).tolist(),
            out.requires_grad)


@pytest.mark.parametrize("name", FUNCS)
def test_jacobian_matches_torch(torch, name):
    f = FUNCS[name]
    m = mg.autograd.functional.jacobian(f, mg.tensor(X))
    t = torch.autograd.functional.jacobian(f, torch.tensor(X))
    assert flat(m) == flat(t)


def test_jacobian_of_several_inputs_and_outputs_matches_torch(torch):
    def f(a, b):
        return a * b, (a + b).sum()

    m = mg.autograd.functional.jacobian(f, (mg.tensor(X), mg.tensor(Y)))
    t = torch.autograd.functional.jacobian(f, (torch.tensor(X), torch.tensor(Y)))
    assert flat(m) == flat(t)


@pytest.mark.parametrize("name", ["reduce"])
@pytest.mark.parametrize("fn", ["hessian"])
def test_hessian_matches_torch(torch, name, fn):
    f = FUNCS[name]
    m = mg.autograd.functional.hessian(f, mg.tensor(X))
    t = torch.autograd.functional.hessian(f, torch.tensor(X))
    assert flat(m) == flat(t)


@pytest.mark.parametrize("fn", ["vjp", "jvp"])
@pytest.mark.parametrize("name", ["cube", "mix"])
def test_vjp_and_jvp_match_torch(torch, fn, name):
    f = FUNCS[name]
    m = getattr(mg.autograd.functional, fn)(f, mg.tensor(X), mg.tensor(V))
    t = getattr(torch.autograd.functional, fn)(f, torch.tensor(X), torch.tensor(V))
    assert flat(m) == flat(t)


@pytest.mark.parametrize("fn", ["hvp", "vhp"])
def test_hessian_vector_products_match_torch(torch, fn):
    f = FUNCS["reduce"]
    m = getattr(mg.autograd.functional, fn)(f, mg.tensor(X), mg.tensor(V))
    t = getattr(torch.autograd.functional, fn)(f, torch.tensor(X), torch.tensor(V))
    assert flat(m) == flat(t)


def test_create_graph_keeps_the_result_differentiable(torch):
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        j = lib.autograd.functional.jacobian(FUNCS["cube"], x, create_graph=True)
        j.sum().backward()
        return j.requires_grad, x.grad.tolist()

    assert run(mg) == run(torch)


def test_vjp_without_v_on_a_vector_output_raises_as_torch(torch):
    def run(lib):
        try:
            lib.autograd.functional.vjp(FUNCS["cube"], lib.tensor(X))
        except RuntimeError as e:
            return str(e)

    assert run(mg) == run(torch)


def test_variable_is_the_old_wrapper_returning_a_tensor(torch):
    def run(lib):
        v = lib.autograd.Variable(lib.ones(2), requires_grad=True)
        w = lib.autograd.Variable(lib.ones(2))
        (v * 3).sum().backward()
        return (type(v).__name__, repr(v), v.grad.tolist(), w.requires_grad,
                isinstance(v, lib.autograd.Variable))

    assert run(mg) == run(torch)


def test_is_view_matches_torch(torch):
    def run(lib):
        x = lib.ones(2, 3, requires_grad=True)
        y = x * 1
        return [t._is_view() for t in (x, y, y[0], y.view(6), y.t(), y.reshape(3, 2), y + 1)]

    assert run(mg) == run(torch)


def test_multi_grad_hook_sees_every_gradient_once(torch):
    def run(lib):
        a, b = lib.ones(2, requires_grad=True), lib.ones(2, requires_grad=True)
        seen = []
        lib.autograd.graph.register_multi_grad_hook(
            (a, b), lambda gs: seen.append([g.tolist() for g in gs]))
        (a * 2 + b * 3).sum().backward()
        return seen

    assert run(mg) == run(torch)
