"""A convolution's NaN and inf against PyTorch: where they meet the zero padding.

``0 * inf`` is NaN, so a non-finite filter value over the padding (forward) or a non-finite
incoming gradient next to it (the weight's gradient) gives NaN in PyTorch's im2col kernels and
nothing in oneDNN's direct ones, which leave the padded terms out
(``minigrad/nn/_conv_kernels.py`` says which kernel PyTorch runs). These tests run many
geometries (1-d, 2-d, 3-d, stride, padding, dilation, groups, batch 1 and more, float32 and
float64) with NaN or inf in the input, the weight or the incoming gradient, and compare the
values of the forward, the first gradients and the second ones (``create_graph=True``) with
PyTorch's; and the kernel choice itself with ``torch._C._select_conv_backend``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import minigrad as mg
from minigrad.nn import _conv_kernels

pytestmark = pytest.mark.torch

TOL = {"rtol": 2e-4, "atol": 2e-4}  # float32 sums in another order


def _geometry(rng: random.Random) -> dict:
    """One valid convolution: shapes and arguments."""
    d = rng.choice([1, 1, 2, 2, 2, 3])
    g = rng.choice([1, 1, 1, 2, 3])
    per_in, per_out = rng.choice([1, 1, 2, 3, 4, 8]), rng.choice([1, 1, 2, 4, 8])
    kernel = [rng.choice([1, 2, 3, 3, 4]) for _ in range(d)]
    dilation = [rng.choice([1, 1, 2]) for _ in range(d)]
    padding = [rng.choice([0, 1, 1, 2]) for _ in range(d)]
    stride = [rng.choice([1, 1, 2]) for _ in range(d)]
    spatial = [max(rng.choice([1, 2, 3, 4, 5, 7]), (k - 1) * di + 1 - 2 * p)
               for k, di, p in zip(kernel, dilation, padding)]
    return {"x": [rng.choice([1, 1, 2, 3]), g * per_in] + spatial,
            "w": [g * per_out, per_in] + kernel, "bias": rng.random() < 0.5,
            "args": (stride, padding, dilation, g),
            "dtype": rng.choice(["float32", "float32", "float32", "float64"])}


GEOMETRIES = [_geometry(random.Random(seed)) for seed in range(120)]
WHERE = ["input", "weight", "grad_output"]


def _run(L, geo: dict, where: str, special: float, seed: int) -> list:
    """Forward, first and second gradients of one convolution, as arrays."""
    F = L.nn.functional
    r = np.random.default_rng(seed)
    arrays = {"input": r.standard_normal(geo["x"]), "weight": r.standard_normal(geo["w"])}
    stride, padding, dilation, groups = geo["args"]
    conv = getattr(F, f"conv{len(geo['x']) - 2}d")
    with L.no_grad():
        shape = tuple(conv(L.tensor(arrays["input"]), L.tensor(arrays["weight"]), None,
                           stride, padding, dilation, groups).shape)
    arrays["grad_output"] = r.standard_normal(shape)
    flat = arrays[where].reshape(-1)
    flat[[0, -1, r.integers(flat.size)][: 1 + seed % 3]] = special  # at the border, and inside
    dt = getattr(L, geo["dtype"])
    x, w, go = (L.tensor(arrays[k], dtype=dt, requires_grad=True) for k in WHERE)
    b = L.linspace(-1, 1, geo["w"][0], dtype=dt).requires_grad_() if geo["bias"] else None
    out = conv(x, w, b, stride, padding, dilation, groups)
    gx, gw = L.autograd.grad(out, (x, w), go, create_graph=True)
    mix = [L.tensor(r.standard_normal(t.shape), dtype=dt) for t in (gx, gw)]
    second = L.autograd.grad((gx * mix[0]).sum() + (gw * mix[1]).sum(), (x, w, go),
                             allow_unused=True)
    return [t.detach().numpy() for t in (out, gx, gw) + tuple(second) if t is not None]


@pytest.mark.parametrize("case", range(len(GEOMETRIES)))
def test_nonfinite_values_through_the_padding_match_torch(torch, case):
    geo = GEOMETRIES[case]
    for i, where in enumerate(WHERE):
        special = [np.nan, np.inf, -np.inf][(case + i) % 3]
        seed = case * 3 + i
        mine, theirs = _run(mg, geo, where, special, seed), _run(torch, geo, where, special, seed)
        assert len(mine) == len(theirs)
        for k, (m, t) in enumerate(zip(mine, theirs)):
            np.testing.assert_allclose(m, t, equal_nan=True, **TOL,
                                       err_msg=f"{geo} {where}={special}: result {k}")


@pytest.mark.parametrize("threads", [1, 2])
def test_kernel_choice_matches_select_conv_backend(torch, threads):
    """minigrad's reading of PyTorch's ``use_mkldnn`` against PyTorch's own choice."""
    saved = (torch.get_num_threads(), mg.get_num_threads())
    torch.set_num_threads(threads)
    mg.set_num_threads(threads)
    try:
        wrong = []
        rng = random.Random(threads)
        for _ in range(400):
            geo = _geometry(rng)
            geo["x"][0] = rng.choice([1, 2, 15, 16])
            if rng.random() < 0.3:
                geo["w"][2:] = [1] * (len(geo["w"]) - 2)
            stride, padding, dilation, groups = geo["args"]
            x, w = torch.zeros(geo["x"]), torch.zeros(geo["w"])
            theirs = "Mkldnn" in str(torch._C._select_conv_backend(
                x, w, None, stride, padding, dilation, False, [0] * len(stride), groups))
            mine = _conv_kernels.mkldnn(geo["x"], geo["w"], stride, dilation, groups)
            if mine != theirs:
                wrong.append((geo, mine, theirs))
        assert not wrong, wrong[:5]
    finally:
        torch.set_num_threads(saved[0])
        mg.set_num_threads(saved[1])


def test_fuzz_seed_1075_nan_through_the_weight_gradient(torch):
    """The fuzzer's seed 1075: oneDNN's direct kernel leaves the padding out of the weight's
    gradient, so a NaN sample spreads only where it was read."""
    def run(L):
        F = L.nn.functional
        x = L.tensor(np.array([[[0.998], [-1.19], [-1.67]], [[-4.45], [-1.79], [np.nan]]],
                              dtype="float32"), requires_grad=True)
        w = L.linspace(-1, 1, 18, dtype=L.float32).reshape(2, 3, 3).requires_grad_()
        out = F.conv1d(x, w, None, padding=1, stride=2).square().sum()
        return L.autograd.grad(out, w, create_graph=True)[0].detach().numpy()

    np.testing.assert_allclose(run(mg), run(torch), equal_nan=True, **TOL)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("geo", [((1, 1, 3), (2, 1, 1), 1, 2), ((2, 1, 4), (2, 1, 3), 1, 1),
                                 ((1, 2, 3, 3), (2, 2, 1, 1), 1, 1),
                                 ((1, 1, 5), (3, 1, 2), 0, 2)])
def test_sums_of_negative_zeros_are_positive_zero(torch, dtype, geo):
    """The fuzzer's seed 5366: PyTorch's kernels add the products to a sum that starts at +0,
    so ``0 * -1`` over the padding (or a zero input) gives +0, and ``1 / out`` gives +inf."""
    xs, ws, padding, dilation = geo

    def run(L):
        F, dt = L.nn.functional, getattr(L, dtype)
        x = L.zeros(xs, dtype=dt).requires_grad_()
        w = L.linspace(-1, -0.5, int(np.prod(ws)), dtype=dt).reshape(ws).requires_grad_()
        conv = getattr(F, f"conv{len(xs) - 2}d")
        out = conv(x, w, None, padding=padding, dilation=dilation)
        gx, gw = L.autograd.grad(out, (x, w), L.full(out.shape, -0.0, dtype=dt))
        return [np.signbit(t.detach().numpy()).tolist() for t in (out, gx, gw)]

    assert run(mg) == run(torch)
