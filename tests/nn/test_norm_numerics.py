"""Layer and group normalisation computed as PyTorch's CPU kernels compute them, against
PyTorch bit for bit: the mean and variance of ``RowwiseMoments`` (a constant row of 1e30 gives
NaN there: an overflowing square times 0), the kernels' multiply-adds (a constant group of
``nn.GroupNorm`` gives the rounding error, not 0), in float32 and float64, rows shorter and
longer than a vector, one chunk and several; float16 through the kernels' float32 (its vectors
of 16 halves as two float vectors); the gradients close to PyTorch's. Found by the fuzzer
(seeds 1306, 1339, 3178, 3425, 4384, 4741, 7018)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

WIDTHS = [1, 2, 3, 7, 8, 9, 16, 17, 40, 129, 300, 2100]


def _rows(kind: str, rows: int, width: int, rng) -> np.ndarray:
    x = rng.standard_normal((rows, width)) * 3 + 1
    if kind == "constant":
        x[:] = 3.3
    elif kind == "huge":
        x[0, rng.integers(width)] = 1e30
        x[-1] = 1e30
    elif kind == "magnitudes":
        x *= 10.0 ** rng.integers(-20, 20, x.shape)
    elif kind == "offset":
        x += 1000
    return x


def _run(lib, fn, x, *params, grad=True):
    """``fn(lib, x, *params)``'s value and the gradients of a weighted sum of it."""
    a = lib.tensor(x, requires_grad=grad)
    ps = [None if p is None else lib.tensor(p, requires_grad=grad) for p in params]
    y = fn(lib, a, *ps)
    out = [y.detach().numpy()]
    if grad:
        w = lib.tensor(np.linspace(-1, 1, y.numel()).reshape(y.shape).astype(x.dtype))
        (y * w).sum().backward()
        out += [t.grad.numpy() for t in [a, *ps] if t is not None]
    return out


def _compare(torch, fn, x, *params, grad=True):
    ours, theirs = _run(mg, fn, x, *params, grad=grad), _run(torch, fn, x, *params, grad=grad)
    assert np.array_equal(ours[0], theirs[0], equal_nan=True), (ours[0], theirs[0])
    for o, t in zip(ours[1:], theirs[1:]):
        finite = np.isfinite(t) & (np.abs(t) < 1e6)  # (a constant row's gradient is noise)
        assert np.array_equal(np.isnan(o), np.isnan(t))
        tol = 1e-2 if o.dtype == np.float16 else 1e-4  # (float16: its own rounding)
        assert np.allclose(o[finite], t[finite], rtol=tol, atol=tol), (o, t)


def _layer(lib, a, w, b):
    return lib.nn.functional.layer_norm(a, a.shape[-1:], w, b)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("kind", ["normal", "constant", "huge", "magnitudes", "offset"])
@pytest.mark.parametrize("width", WIDTHS)
def test_layer_norm_as_pytorchs_kernel(torch, dtype, kind, width):
    rng = np.random.default_rng(width)
    x = _rows(kind, 3, width, rng).astype(dtype)
    w, b = (rng.standard_normal(width).astype(dtype) for _ in range(2))
    grad = kind in ("normal", "offset")
    for params in ((None, None), (w, None), (None, b), (w, b)):
        _compare(torch, _layer, x, *params, grad=grad)


@pytest.mark.parametrize("shape", [(2, 3, 4), (4, 1, 5), (2, 2, 2, 3)])
def test_layer_norm_over_several_dims_and_views(torch, shape):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(np.float32)
    for lib_shape in (shape[-1:], shape[-2:]):
        def fn(lib, a, w, b, s=lib_shape):
            return lib.nn.functional.layer_norm(a.transpose(0, -1).transpose(0, -1) * 1, s,
                                                w, b)
        w, b = (rng.standard_normal(lib_shape).astype(np.float32) for _ in range(2))
        _compare(torch, fn, x, w, b)


def _group(groups):
    def fn(lib, a, w, b):
        return lib.nn.functional.group_norm(a, groups, w, b, 0.1)
    return fn


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("kind", ["normal", "constant", "huge", "magnitudes"])
@pytest.mark.parametrize("shape,groups", [((4, 6, 5), 3), ((3, 4, 3, 5), 2), ((5, 8, 16), 2),
                                          ((1, 1, 1, 3), 1), ((2, 6, 7, 9), 3)])
def test_group_norm_as_pytorchs_kernel(torch, dtype, kind, shape, groups):
    rng = np.random.default_rng(sum(shape))
    x = _rows(kind, shape[0], int(np.prod(shape[1:])), rng).reshape(shape).astype(dtype)
    w, b = (rng.standard_normal(shape[1]).astype(dtype) for _ in range(2))
    for params in ((None, None), (w, None), (None, b), (w, b)):
        # (PyTorch's backward of a bias without a weight fails: "tensor does not have a device")
        grad = kind == "normal" and not (params[0] is None and params[1] is not None)
        _compare(torch, _group(groups), x, *params, grad=grad)


def test_group_norm_module_of_a_constant_group_is_its_rounding_error(torch):
    """Seed 3178: ``nn.GroupNorm`` (weight 1, bias 0) of [3, 3] is not exactly 0 in PyTorch."""
    def fn(lib):
        y = lib.nn.GroupNorm(1, 1, eps=0.1)(lib.full((2,), 3.).reshape(1, 1, 1, 2))
        return (y != 0).tolist(), y.tolist()
    assert fn(mg) == fn(torch)


@pytest.mark.parametrize("shape,normalized", [((0,), (0,)), ((2, 0), (0,)), ((0, 3), (3,)),
                                              ((2, 0, 3), (0, 3))])
def test_layer_norm_of_nothing_as_pytorch(torch, shape, normalized):
    """Seed 1473: an empty input gives an empty output, a mean of 0 and an rstd of NaN."""
    def fn(lib):
        x = lib.zeros(shape, requires_grad=True)
        y = lib.nn.functional.layer_norm(x, normalized)
        node = y.grad_fn
        return (tuple(y.shape), repr(node._saved_result1.flatten().tolist()),
                repr(node._saved_result2.flatten().tolist()), tuple(node._saved_result1.shape))
    assert fn(mg) == fn(torch)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["normal", "constant", "magnitudes"])
@pytest.mark.parametrize("shape", [(8, 3), (4, 3, 5), (2, 4, 3, 3), (1, 2, 5), (16, 4, 7, 7)])
def test_batch_norm_training_as_pytorchs_kernel(torch, dtype, kind, shape):
    """The batch statistics and the output bit for bit (a constant channel: the mean exactly,
    the output its multiply-add's rounding error), the running averages; gradients close."""
    rng = np.random.default_rng(sum(shape))
    x = _rows(kind, shape[0], int(np.prod(shape[1:])), rng).reshape(shape).astype(dtype)

    def run(lib):
        bn = (lib.nn.BatchNorm1d if len(shape) < 4 else lib.nn.BatchNorm2d)(shape[1])
        bn = bn.double() if dtype == np.float64 else bn
        a = lib.tensor(x, requires_grad=True)
        y = bn(a)
        (y * lib.tensor(np.linspace(-1, 1, y.numel()).reshape(shape).astype(dtype))).sum() \
            .backward()
        return [t.detach().numpy() for t in (y, bn.running_mean, bn.running_var, a.grad,
                                             bn.weight.grad, bn.bias.grad)]
    ours, theirs = run(mg), run(torch)
    for o, t in zip(ours[:3], theirs[:3]):
        assert np.array_equal(o, t), (o, t)
    for o, t in zip(ours[3:], theirs[3:]):
        assert np.allclose(o, t, rtol=1e-4, atol=1e-3), (o, t)


def test_group_norm_weight_gradient_of_one_element_groups_as_pytorch(torch):
    """A group of one element: x - mean is 0, but PyTorch's backward takes ``ds - db * mean``
    with one multiply-add, so the weight's gradient is its rounding error times 1/std."""
    x = np.array([0.1, 0.7, 1.3, -2.9e10, 3.3e-3, 0.37, 5.1, -0.77, 9.9]).reshape(3, 3, 1)

    def fn(lib):
        a = lib.tensor(x, requires_grad=True)
        w = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.group_norm(a, 3, w, None, 1e-5)
        (y * lib.tensor(np.linspace(-1.3, 0.9, 9).reshape(3, 3, 1))).sum().backward()
        return w.grad.numpy()
    assert np.allclose(fn(mg), fn(torch), rtol=1e-6, atol=0)


@pytest.mark.parametrize("shape", [(1, 2, 0), (0, 2, 3), (2, 2, 0, 4)])
def test_group_norm_backward_of_nothing_as_pytorch(torch, shape):
    """Seed 643: a group norm of an empty input has empty gradients (no division by 0)."""
    def fn(lib):
        x = lib.zeros(shape, requires_grad=True)
        w = lib.ones(2, requires_grad=True)
        y = lib.nn.functional.group_norm(x, 1, w, None)
        y.sum().backward()
        return tuple(x.grad.shape), repr(w.grad.tolist())  # (repr: NaN equals NaN)
    assert fn(mg) == fn(torch)
