"""Batch normalisation's gradients (and eval mode's output) computed as PyTorch's CPU
kernels compute them, against PyTorch bit for bit: ``nn.BatchNorm1d`` (2-d and 3-d input) and
``nn.BatchNorm2d``, with and without weight and bias, training and eval, float32 and float64,
channels shorter and longer than a vector, and the kernels PyTorch picks by layout: a
contiguous gradient (per plane, or per row for one value per channel and sample), a
channels-last input, and any other (``y.sum()``'s expanded gradient, a transposed one). The
gradient of ``sum(batch_norm(x))`` is 0 in exact arithmetic: what is left is rounding noise,
whose sign Adam turns into a whole step (fuzz seed 2890)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

SHAPES = [(2, 3), (7, 5), (8, 3), (17, 4), (33, 20), (64, 9),
          (2, 3, 1), (1, 2, 5), (2, 3, 4), (3, 2, 8), (2, 4, 9), (4, 3, 17), (2, 2, 33),
          (2, 3, 2, 2), (2, 2, 3, 5), (4, 3, 5, 5), (2, 2, 16, 17)]


def _bits(a: np.ndarray) -> np.ndarray:
    """The raw bits (so that -0 differs from 0 and NaNs compare)."""
    return np.ascontiguousarray(a).view(np.uint32 if a.dtype == np.float32 else np.uint64)


def _loss(lib, y, how: str, rng_seed: int):
    """A scalar of ``y`` whose gradient reaches the batch norm contiguous (``weighted``),
    expanded (``sum``) or transposed (``transposed``)."""
    if how == "sum":
        return y.sum()
    w = np.linspace(-1.5, 1.0, y.numel()).astype(y.detach().numpy().dtype)
    np.random.default_rng(rng_seed).shuffle(w)
    if how == "weighted":
        return (y * lib.tensor(w.reshape(y.shape))).sum()
    t = y.transpose(0, -1)
    return (t * lib.tensor(w.reshape(t.shape))).sum()


def _run(lib, shape, dtype, affine: bool, train: bool, how: str):
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    bn = (lib.nn.BatchNorm2d if len(shape) == 4 else lib.nn.BatchNorm1d)(shape[1],
                                                                         affine=affine)
    bn = bn.double() if dtype == np.float64 else bn
    if affine:
        with lib.no_grad():
            bn.weight.copy_(lib.tensor(rng.standard_normal(shape[1]).astype(dtype)))
    if not train:  # (running statistics that are not 0 and 1)
        with lib.no_grad():
            bn(lib.tensor(x * 0.7 + 0.3))
        bn.eval()
    a = lib.tensor(x, requires_grad=True)
    y = bn(a)
    _loss(lib, y, how, len(shape)).backward()
    grads = [a.grad] + ([bn.weight.grad, bn.bias.grad] if affine else [])
    return [y.detach().numpy()] + [t.numpy() for t in grads]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_batch_norm_gradients_bit_for_bit(torch, shape, dtype):
    """The output (eval mode too: ``x * alpha + beta`` with multiply-adds, 1/std of the
    running variance in the input's dtype) and the gradients."""
    for affine in (False, True):
        for train in (True, False):
            for how in ("weighted", "sum", "transposed"):
                ours = _run(mg, shape, dtype, affine, train, how)
                theirs = _run(torch, shape, dtype, affine, train, how)
                for o, t in zip(ours, theirs):
                    assert np.array_equal(_bits(o), _bits(t)), (affine, train, how, o, t)


@pytest.mark.parametrize("shape", [(5, 3), (3, 2, 7), (2, 3, 4, 4)])
@pytest.mark.parametrize("how", ["weighted", "sum"])
def test_functional_batch_norm_training_gradients_bit_for_bit(torch, shape, how):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(shape) * 2 - 1).astype(np.float32)
    w, b = (rng.standard_normal(shape[1]).astype(np.float32) for _ in range(2))

    def run(lib):
        ts = [lib.tensor(v, requires_grad=True) for v in (x, w, b)]
        y = lib.nn.functional.batch_norm(ts[0], None, None, ts[1], ts[2], training=True)
        _loss(lib, y, how, 3).backward()
        first = lib.autograd.grad(_loss(lib, lib.nn.functional.batch_norm(
            ts[0], None, None, ts[1], ts[2], training=True), how, 3), ts, create_graph=True)
        return [t.grad.numpy() for t in ts] + [t.detach().numpy() for t in first]
    for o, t in zip(run(mg), run(torch)):
        assert np.array_equal(_bits(o), _bits(t)), (o, t)


def test_adamw_step_after_the_rounding_noise_of_a_batch_norm(torch):
    """Seed 2890: the gradient of ``sum(batch_norm(x))`` is rounding noise; Adam's step of
    ``lr`` times its sign shows any difference in it."""
    x = np.array([[[0.84801626, 2.0999327, -1.0088072, 0.90405756, np.inf],
                   [2.256576, -0.3493328, 0.85941666, -0.0, 0.22857033]]], np.float32)

    def run(lib):
        v = lib.tensor(x).requires_grad_()
        lib.nn.BatchNorm1d(2, affine=False)(v).sum().backward()
        grad = v.grad.numpy().copy()
        lib.optim.AdamW([v], lr=0.01).step()
        return grad, v.detach().numpy()
    for o, t in zip(run(mg), run(torch)):
        assert np.array_equal(_bits(o), _bits(t)), (o, t)


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("shape", [(7, 5), (17, 4), (33, 20)])
def test_batch_norm_gradients_of_rows_split_between_threads(torch, shape, threads):
    """An (N, C) input's sums are cut into one share of the rows per thread: the result
    depends on the number of threads, in PyTorch and in minigrad alike."""
    saved = (mg.get_num_threads(), torch.get_num_threads())
    mg.set_num_threads(threads)
    torch.set_num_threads(threads)
    try:
        for dtype in (np.float32, np.float64):
            for affine in (False, True):
                ours = _run(mg, shape, dtype, affine, True, "weighted")
                theirs = _run(torch, shape, dtype, affine, True, "weighted")
                for o, t in zip(ours, theirs):
                    assert np.array_equal(_bits(o), _bits(t)), (dtype, affine, o, t)
    finally:
        mg.set_num_threads(saved[0])
        torch.set_num_threads(saved[1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2, 5, 5, 3), (4, 3, 3, 9), (2, 7, 7, 16), (3, 1, 1, 9),
                                   (3, 4, 4, 1), (2, 3, 4, 5, 3)])
@pytest.mark.parametrize("how", ["weighted", "sum", "given"])
def test_batch_norm_of_a_channels_last_input_bit_for_bit(torch, shape, dtype, how):
    """An input laid out channels last (a permuted NHWC array): PyTorch's kernels read it as
    rows of channels, forward and backward, and keep the layout (the output's strides);
    a gradient of another layout takes the generic loop. Sizes of 1 make the layout
    ambiguous: PyTorch's rule from the strides decides."""
    x = (np.random.default_rng(sum(shape)).standard_normal(shape) * 2 + 1).astype(dtype)
    perm = (0, x.ndim - 1) + tuple(range(1, x.ndim - 1))

    def run(lib):
        a = lib.tensor(x, requires_grad=True)
        t = a.permute(*perm)
        w, b = (lib.tensor(np.linspace(lo, 1, t.shape[1]).astype(dtype), requires_grad=True)
                for lo in (0.5, -1.0))
        y = lib.nn.functional.batch_norm(t, None, None, w, b, training=True)
        if how == "given":  # (a contiguous gradient)
            y.backward(lib.tensor(np.linspace(-1, 1, y.numel()).reshape(y.shape).astype(dtype)))
        else:
            _loss(lib, y, how, 5).backward()
        return [y.stride()] + [v.detach().numpy() for v in (y, a.grad, w.grad, b.grad)]
    ours, theirs = run(mg), run(torch)
    assert ours[0] == theirs[0]
    for o, t in zip(ours[1:], theirs[1:]):
        assert np.array_equal(_bits(o), _bits(t)), (o, t)


# (eval mode's float32 output of such an input differs in the last bit: not found yet)
@pytest.mark.parametrize("dtype,train", [(np.float32, True), (np.float64, True),
                                         (np.float64, False)])
@pytest.mark.parametrize("shape", [(3, 4, 5), (5, 3, 17), (6, 2, 33), (4, 3, 5, 6)])
def test_batch_norm_of_a_transposed_input_bit_for_bit(torch, shape, dtype, train):
    """An input neither contiguous nor channels last takes PyTorch's generic loops: the mean
    by ``torch.mean``, the variance in float64 in memory order, the output one operation at
    a time (``* 1`` and ``+ 0`` without weight and bias), the running averages in float64."""
    x = (np.random.default_rng(sum(shape)).standard_normal(shape) * 3 + 1).astype(dtype)

    def run(lib):
        a = lib.tensor(np.ascontiguousarray(np.swapaxes(x, 0, -1)), requires_grad=True)
        bn = (lib.nn.BatchNorm2d if len(shape) == 4 else lib.nn.BatchNorm1d)(shape[1],
                                                                             affine=train)
        bn = bn.double() if dtype == np.float64 else bn
        if not train:
            with lib.no_grad():
                bn(lib.tensor(x * 0.5 - 1))
            bn.eval()
        y = bn(a.transpose(0, -1))
        saved = [y.grad_fn._saved_result1.detach().numpy().copy(),
                 y.grad_fn._saved_result2.detach().numpy().copy()]
        _loss(lib, y, "weighted", 1).backward()
        params = [bn.weight.grad, bn.bias.grad] if train else []
        return saved + [t.detach().numpy() for t in [y, bn.running_mean, bn.running_var,
                                                      a.grad] + params]
    for o, t in zip(run(mg), run(torch)):
        assert np.array_equal(_bits(o), _bits(t)), (o, t)
