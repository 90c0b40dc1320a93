"""The layers of a first CNN and the rest of ``nn.init`` draw as PyTorch draws: convolution
weights and biases, ``trunc_normal_`` (both of PyTorch's samplers), ``Dropout2d``'s channel
masks; ``eye_`` and ``dirac_`` draw nothing."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad


def test_convolution_layers_start_with_pytorchs_weights(same_draws):
    def program(lib):
        lib.manual_seed(0)
        nn = lib.nn
        layers = [nn.Conv2d(1, 6, 5), nn.Conv2d(6, 16, 5, bias=False), nn.Conv1d(3, 4, 3),
                  nn.Conv2d(4, 6, (3, 2), groups=2), nn.Conv3d(2, 2, 2),
                  nn.BatchNorm2d(3)]
        return [p for layer in layers for p in layer.parameters()] + [lib.rand(2)]

    same_draws(program)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trunc_normal_eye_and_dirac_match(same_draws, dtype):
    def program(lib):
        lib.manual_seed(3)
        init, dt = lib.nn.init, getattr(lib, dtype)
        g = lib.Generator().manual_seed(5)
        return [init.trunc_normal_(lib.empty(50, 40, dtype=dt)),  # mostly inside: redraws
                init.trunc_normal_(lib.empty(30, dtype=dt), 0.5, 2., 0.1, 0.3),  # rejection
                init.trunc_normal_(lib.empty(7, 3, dtype=dt), std=0.02, generator=g),
                init.eye_(lib.empty(3, 5, dtype=dt)),
                init.dirac_(lib.empty(6, 2, 3, 3, dtype=dt), groups=2),
                init.dirac_(lib.empty(2, 3, 4, dtype=dt)), lib.rand(3)]

    same_draws(program)


@pytest.mark.parametrize("shape,gain", [((4, 6), 1), ((6, 3, 2), 2.0), ((5, 5), 0.5)])
def test_orthogonal_matches_up_to_the_qr_rounding(torch, shape, gain):
    """The same normal draws; the QR decomposition is LAPACK's in PyTorch and NumPy's here,
    so values agree to rounding (float64: 1e-12), and the generator ends in the same state."""
    out = []
    for lib in (minigrad, torch):
        lib.manual_seed(4)
        w = lib.nn.init.orthogonal_(lib.empty(*shape, dtype=lib.float64), gain=gain)
        out.append((w.numpy(), lib.rand(2).numpy()))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(out[0][1], out[1][1])
    flat = out[0][0].reshape(shape[0], -1)
    small = min(flat.shape)
    gram = flat @ flat.T if flat.shape[0] == small else flat.T @ flat
    np.testing.assert_allclose(gram, gain ** 2 * np.eye(small), atol=1e-12)


def test_dropout1d_and_2d_zero_the_channels_pytorch_zeroes(same_draws):
    def program(lib):
        lib.manual_seed(0)
        x = lib.ones(4, 5, 3, 3)
        drop = lib.nn.Dropout2d(0.4)
        F = lib.nn.functional
        return [drop(x), F.dropout2d(x, 0.7), drop.eval()(x), lib.nn.Dropout1d(0.3)(x[0]),
                F.dropout1d(x[:, :, 0]), F.dropout1d(x[0, :, 0], 0.5, training=False),
                lib.rand(2)]

    same_draws(program)


@pytest.mark.parametrize("code", [
    "lib.nn.init.orthogonal_(lib.empty(3))", "lib.nn.init.eye_(lib.empty(2, 2, 2))",
    "lib.nn.init.dirac_(lib.empty(2, 2))", "lib.nn.init.dirac_(lib.empty(3, 2, 2), groups=2)",
])
def test_init_errors_match_torch(torch, code):
    from helpers import assert_same_outcome

    assert_same_outcome(torch, code)
