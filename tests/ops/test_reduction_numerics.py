"""Variances and norms computed as PyTorch's CPU kernels compute them, against PyTorch: ``var``
and ``std`` of one result take the mean in the input's dtype (``std_var_all_cpu``: equal values
give a tiny non-zero std, and so another gradient), several results and ``var_mean`` /
``std_mean`` run Welford's update in float64; a norm or ``dist`` with one element per result
is its magnitude for any p but 0 (no overflow of ``|x| ** p``). Found by the fuzzer (seeds 381,
4667, 5420)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg


def _inputs(dtype, shape, kind, rng):
    x = rng.standard_normal(shape) * 3 + 1
    if kind == "constant":
        x = np.full(shape, 0.1)
    elif kind == "huge" and x.size:
        x.flat[0] = 1e30 if dtype != np.float16 else 6e4
    elif kind == "magnitudes" and dtype != np.float16:
        x = x * 10.0 ** rng.integers(-20, 20, shape)
    elif kind == "inf" and x.size:
        x.flat[-1] = np.inf
    return np.asarray(x).astype(dtype)


def _stat(lib, x, fn, dim, correction, grad):
    a = lib.tensor(x, requires_grad=grad)
    kw = {"correction": correction} if dim is None else {"dim": dim, "correction": correction}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (degrees of freedom <= 0: both warn, tested elsewhere)
        out = getattr(lib, fn)(a, **kw)
        out = out if isinstance(out, tuple) else (out,)
        values = [t.detach().numpy() for t in out]
        if grad:
            sum(t.sum() for t in out).backward()
            values.append(a.grad.numpy())
    return values


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("kind", ["normal", "constant", "huge", "magnitudes", "inf"])
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (1,), (), (4, 1), (2, 0)])
def test_var_std_and_their_means_as_pytorchs_kernels(torch, dtype, kind, shape):
    rng = np.random.default_rng(len(shape))
    x = _inputs(dtype, shape, kind, rng)
    dims = [None] + list(range(len(shape))) + ([(0, 1)] if len(shape) > 1 else [])
    grad = dtype != np.float16
    for dim in dims:
        for correction in (0, 1):
            for fn in ("var", "std", "var_mean", "std_mean"):
                ours = _stat(mg, x, fn, dim, correction, grad)
                theirs = _stat(torch, x, fn, dim, correction, grad)
                for o, t in zip(ours, theirs):
                    assert o.dtype == t.dtype and o.shape == t.shape
                    assert np.allclose(o, t, rtol=1e-3, atol=1e-6, equal_nan=True), \
                        (fn, dim, correction, o, t)


def test_std_of_equal_values_and_its_gradient_as_in_pytorch(torch):
    """Seed 381: the std of 7 equal float32 values is 2 ** -24 in PyTorch (its float mean is
    off by an ulp), so the gradient through it is not the one of a zero std."""
    def fn(lib):
        v = lib.tensor(np.array(-0.6371876, dtype="float32")).requires_grad_()
        s = v.expand((7,)).std(0, correction=0)
        (s.double().sum() + v.double().sum()).backward()
        return s.item(), v.grad.item()
    assert fn(mg) == fn(torch)


@pytest.mark.parametrize("p", [-1.0, 0.5, 2, 3, 1e30, float("nan"), float("inf"), -float("inf"), 0])
def test_norm_and_dist_of_one_element_per_result(torch, p):
    def fn(lib):
        return [lib.tensor([1e30]).norm(p).item(), lib.tensor(2.1723983).norm(p).item(),
                lib.tensor([[0.]]).norm(p).item(),
                lib.tensor([[1e30], [2.]]).norm(p, dim=1).tolist(),
                lib.dist(lib.tensor(2.1723983), lib.ones((), dtype=lib.uint8), p).item(),
                lib.dist(lib.tensor([1e30]), lib.tensor([0.]), p).item(),
                lib.tensor([1e30, 1e30]).norm(p).item()]
    assert repr(fn(mg)) == repr(fn(torch))  # (repr: NaN equals NaN)


def test_norm_gradient_of_one_element_as_in_pytorch(torch):
    def fn(lib):
        y = lib.tensor([[[5.]]], requires_grad=True)
        n = y.norm(3.)
        n.backward()
        return n.item(), y.grad.tolist()
    assert fn(mg) == fn(torch)


@pytest.mark.parametrize("p", [1e30, 2, 0.5, -1.0, float("inf")])
def test_norm_over_a_0d_tensors_dim_is_the_formula(torch, p):
    """Seed 1408: over a 0-d tensor's dim 0 PyTorch computes ``(|x| ** p) ** (1 / p)`` (0 for
    0.69 ** 1e30), not the magnitude it gives without a dim."""
    def fn(lib):
        x = lib.tensor(0.6931)
        return repr([x.norm(p, 0).item(), x.norm(p, 0, keepdim=True).item(), x.norm(p).item()])
    assert fn(mg) == fn(torch)


def test_var_mean_of_a_huge_value_warns_as_pytorch(torch):
    """Seed 188: the float64 variance of 1e30 does not fit float32: inf without a warning."""
    def fn(lib):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            out = lib.var_mean(lib.tensor([0.39, 1e30, 0.13]))
        return repr([t.item() for t in out]), [str(w.message) for w in seen]
    assert fn(mg) == fn(torch)
